#pragma once
/// \file command_line.hpp
/// The command line of `inertia CASE.yaml [PETSc options]`: its arguments, `--help`, and the
/// PETSc options a run takes from it and from the case file (checked at the start, reported at
/// the end when no solver read them).

#include <mpi.h>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace inertia {

/// The command line after parsing.
struct Arguments {
  std::string case_file;
  bool check = false;
  int split = 0;  ///< --split N: write the mesh's split for N ranks and exit
  std::optional<std::filesystem::path> restart;  ///< --restart DIR: continue from a checkpoint
  bool allow_changed_model = false;  ///< --allow-changed-model: restart from another model's state
  std::vector<std::string> petsc;
};

/// Parses the command line. Returns an exit status when there is nothing to run (--help [topic],
/// --help-reference (app/help.hpp), --version, a usage error, printed here).
std::optional<int> parse_arguments(int argc, char** argv, Arguments& args);

/// Inserts the case file's `petsc:` options below those of the command line.
void insert_case_options(const std::string& options);

/// Creates `directory` if missing and checks that files can be created in it; throws InputError
/// naming it and the reason.
void prepare_directory(const std::filesystem::path& directory, const char* what);

/// Which options check_solver_options() leaves unread, for the end of the run to report: all of
/// them (a run: its solvers read those they use), the unprefixed ones (--check of an explicit
/// scheme: only the mass solves' "mass_" options can be used), or none (--check of an implicit
/// scheme: its solvers are not created, the check's reading stands for theirs).
enum class UnreadAfterCheck { all, unprefixed, none };

/// Collective. Reads the solver options the way the run's solvers will (KSP, PC and SNES with no
/// prefix: GAMG as the default preconditioner; the mass solves' "mass_" prefix: Jacobi), so an
/// unknown type (-ksp_type foo) or a malformed value (-ksp_rtol abc) is a one-line configuration
/// error now, at --check, instead of a failed solve in the first step.
void check_solver_options(MPI_Comm comm, UnreadAfterCheck unread_after);

/// PETSc options (command line or the case's `petsc:`) that no solver read: a typo such as
/// -ksp_typo, or an option for a solver this run does not have (-pc_type in an explicit run).
/// One warning line each on `log`.
void warn_unused_petsc_options(std::ostream& log);

}  // namespace inertia
