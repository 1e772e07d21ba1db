#pragma once
/// \file spectrum_tool.hpp
/// `inertia spectrum RECORD [options]`: the response spectra of a ground-acceleration record
/// (seismic/response_spectrum.hpp) to CSV and SVG.

namespace inertia {

/// argv[0] is "spectrum". Returns the exit status: 0, or 1 after one error line.
int spectrum_main(int argc, char** argv);

}  // namespace inertia
