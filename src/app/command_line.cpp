#include "inertia/app/command_line.hpp"

#include <petscsnes.h>
#include <petscsys.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <sstream>

#include "inertia/app/help.hpp"
#include "inertia/app/run.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/petsc.hpp"

namespace inertia {

namespace {

/// `inertia --help [topic]`: the overview, every section (all) or one topic's page.
int print_help(std::string_view topic) {
  if (topic.empty()) {
    std::cout << help_overview();
  } else if (topic == "all") {
    std::cout << help_all();
  } else if (const auto page = help_page(topic)) {
    std::cout << *page;
  } else {
    report_error(unknown_help_topic(topic));
    return 1;
  }
  return 0;
}

}  // namespace

std::optional<int> parse_arguments(int argc, char** argv, Arguments& args) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--restart") {
      if (i + 1 >= argc) {
        report_error("--restart needs a checkpoint directory or file");
        return 1;
      }
      args.restart = argv[++i];
    } else if (a == "--allow-changed-model") {
      args.allow_changed_model = true;
    } else if (a == "--check") {  // also after the case file: never a run meant as a check
      args.check = true;
    } else if (a == "--split") {  // also after the case file: PETSc has no --split
      const char* n = i + 1 < argc ? argv[++i] : "";
      char* end = nullptr;
      const long parts = std::strtol(n, &end, 10);
      if (*n == '\0' || *end != '\0' || parts < 1 || parts > 10000000) {
        report_error(cat("--split needs a number of ranks (1 to 10^7), got '", excerpt(n), "'"));
        return 1;
      }
      args.split = static_cast<int>(parts);
    } else if (!args.case_file.empty()) {
      args.petsc.push_back(a);
    } else if (a == "--help" || a == "-h" || a == "-help") {
      return print_help(i + 1 < argc ? argv[i + 1] : "");
    } else if (a == "--help-reference") {
      std::cout << help_reference();
      return 0;
    } else if (a == "--version") {
      std::cout << "inertia " << INERTIA_VERSION << "\n";
      return 0;
    } else if (!a.empty() && a[0] != '-') {
      args.case_file = a;
    } else {
      report_error(cat("expected a case file before PETSc options, got '", excerpt(a),
                       "' (see inertia --help)"));
      return 1;
    }
  }
  if (args.case_file.empty()) {
    report_error("no case file given (see inertia --help)");
    return 1;
  }
  return std::nullopt;
}

void insert_case_options(const std::string& options) {
  std::istringstream in(options);
  std::vector<std::string> tokens{std::istream_iterator<std::string>(in), {}};
  auto is_option = [](const std::string& t) {
    return t.size() > 1 && t[0] == '-' && !std::isdigit(static_cast<unsigned char>(t[1])) &&
           t[1] != '.';
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!is_option(tokens[i])) continue;
    const std::string name = tokens[i];
    std::string value;
    if (i + 1 < tokens.size() && !is_option(tokens[i + 1])) value = tokens[++i];
    PetscBool set = PETSC_FALSE;
    INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &set));
    if (!set)
      INERTIA_PETSC(
          PetscOptionsSetValue(nullptr, name.c_str(), value.empty() ? nullptr : value.c_str()));
  }
}

void prepare_directory(const std::filesystem::path& directory, const char* what) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (!std::filesystem::is_directory(directory))
    throw InputError(cat(printable(directory.string()), ": cannot create the ", what,
                         ec ? cat(" (", ec.message(), ")") : std::string()));
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    throw InputError(cat(printable(directory.string()), ": cannot write in the ", what, " (",
                         std::strerror(errno), ")"));
}

void check_solver_options(MPI_Comm comm, UnreadAfterCheck unread_after) {
  // Reading them marks them used; those no solver had read before are set again after the
  // check, unused, so that the end of the run still reports an option no solver of the run
  // reads (-snes_rtol in an explicit run) as it reports a typo.
  std::vector<std::pair<std::string, std::optional<std::string>>> unread;
  {
    PetscInt n = 0;
    char** names = nullptr;
    char** values = nullptr;
    INERTIA_PETSC(PetscOptionsLeftGet(nullptr, &n, &names, &values));
    for (PetscInt i = 0; i < n; ++i)
      unread.emplace_back(cat("-", names[i]),
                          values[i] ? std::optional<std::string>(values[i]) : std::nullopt);
    INERTIA_PETSC(PetscOptionsLeftRestore(nullptr, &n, &names, &values));
  }
  try {
    petsc::Snes snes;
    INERTIA_PETSC(SNESCreate(comm, snes.out()));
    KSP ksp;
    INERTIA_PETSC(SNESGetKSP(snes, &ksp));
    PC pc;
    INERTIA_PETSC(KSPGetPC(ksp, &pc));
    INERTIA_PETSC(PCSetType(pc, PCGAMG));
    INERTIA_PETSC(SNESSetFromOptions(snes));
    petsc::Ksp mass;
    INERTIA_PETSC(KSPCreate(comm, mass.out()));
    INERTIA_PETSC(KSPSetOptionsPrefix(mass, "mass_"));
    INERTIA_PETSC(KSPGetPC(mass, &pc));
    INERTIA_PETSC(PCSetType(pc, PCJACOBI));
    INERTIA_PETSC(KSPSetFromOptions(mass));
  } catch (const SolverError& e) {
    throw InputError(cat("PETSc options (case file's petsc: or the command line): ", e.what()));
  }
  for (const auto& [name, value] : unread) {
    if (unread_after == UnreadAfterCheck::none) break;
    if (unread_after == UnreadAfterCheck::unprefixed && name.starts_with("-mass_")) continue;
    INERTIA_PETSC(PetscOptionsClearValue(nullptr, name.c_str()));
    INERTIA_PETSC(PetscOptionsSetValue(nullptr, name.c_str(), value ? value->c_str() : nullptr));
  }
}

/// x with the log's 6 significant digits (cat() gives 10).

void warn_unused_petsc_options(std::ostream& log_) {
  PetscInt n = 0;
  char** names = nullptr;
  char** values = nullptr;
  INERTIA_PETSC(PetscOptionsLeftGet(nullptr, &n, &names, &values));
  for (PetscInt i = 0; i < n; ++i)
    log_ << "warning   PETSc option -" << names[i] << (values[i] ? " " : "")
         << (values[i] ? values[i] : "")
         << " was not used (misspelled, or for a solver this run does not have)\n";
  INERTIA_PETSC(PetscOptionsLeftRestore(nullptr, &n, &names, &values));
}

}  // namespace inertia
