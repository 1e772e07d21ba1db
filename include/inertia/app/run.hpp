#pragma once
/// \file run.hpp
/// The inertia command line: `inertia CASE.yaml [PETSc options]`, `--check`, `--help`,
/// `--version`. Returns the process exit status.

#include <string>

namespace inertia {

int run_main(int argc, char** argv);

/// "inertia: error: <what>" on stderr in one write, so that no other output (mpiexec's) can
/// come between its parts.
void report_error(const std::string& what);

}  // namespace inertia
