#pragma once
/// \file run.hpp
/// The inertia command line: `inertia CASE.yaml [PETSc options]`, `--check`, `--help`,
/// `--version`. Returns the process exit status.

namespace inertia {

int run_main(int argc, char** argv);

}  // namespace inertia
