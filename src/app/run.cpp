#include "inertia/app/run.hpp"

#include <petscsys.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <memory>
#include <numbers>
#include <optional>
#include <sstream>

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/harmonic_analysis.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/app/monitors.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/app/output_series.hpp"
#include "inertia/app/response_spectrum_analysis.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/app/spectrum_tool.hpp"
#include "inertia/core/directory_lock.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/interrupt.hpp"
#include "inertia/core/limits.hpp"
#include "inertia/core/svg_plot.hpp"
#include "inertia/core/text.hpp"
#include "inertia/modal/modal.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/connected_parts.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/spectrum.hpp"
#include "inertia/time/step_control.hpp"

namespace inertia {

// "inertia: error: <what>" on stderr in one write, so that no other output (mpiexec's) can
// come between its parts.
void report_error(const std::string& what) {
  // printable(): a path or name with control bytes (a newline, an escape sequence) in any
  // message still makes one line that changes nothing on the terminal.
  const std::string line = "inertia: error: " + printable(what) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

namespace {

/// The command line after parsing.
struct Arguments {
  std::string case_file;
  bool check = false;
  int split = 0;  ///< --split N: write the mesh's split for N ranks and exit
  std::optional<std::filesystem::path> restart;  ///< --restart DIR: continue from a checkpoint
  bool allow_changed_model = false;  ///< --allow-changed-model: restart from another model's state
  std::vector<std::string> petsc;
};

std::string usage() {
  std::ostringstream out;
  out << R"(usage: mpirun -n N inertia CASE.yaml [PETSc options ...]
       mpirun -n N inertia CASE.yaml --restart DIR   continue from the newest checkpoint in DIR
                                      (output.checkpoint; DIR: the checkpoint directory or file)
                                      of the same model; with --allow-changed-model also of
                                      another one (the differences logged as warnings)
       inertia --check CASE.yaml      validate the case and the mesh, print a summary, exit
       inertia --split N CASE.yaml    partition the case's mesh file for N ranks, once, into
                                      CASE.pN.split next to the case: a run on N ranks then reads
                                      only its share (no rank holds the whole mesh)
       inertia spectrum RECORD [--damping 0.05,0.02] [--periods 0.01:10:100] ...
                                      response spectra of a ground-acceleration record (CSV and
                                      SVG; inertia spectrum --help)
       inertia --help | --version

inertia runs the structural-dynamics case described by CASE.yaml (README.md, "The case file"):
it reads or generates the mesh, partitions it with METIS, assembles mass and stiffness into
PETSc, integrates in time, and writes ParaView output (.pvd/.pvtu/.vtu, or .xdmf/.h5),
probes.csv and energy.csv under output.directory.

time.integrator (README.md, "Time integration"):
)";
  for (const auto& e : scheme_entries())
    out << "  " << std::left << std::setw(24) << e.name << e.summary << "\n";
  out << R"(
output.fields (README.md, "Outputs"), the arrays of the output frames:
)" << output_fields_help(FieldKind::frame)
      << R"(output.format: vtu (default) | xdmf (README.md, "Outputs"): vtu writes <case>.pvd and per step a
  .pvtu and one .vtu per rank; xdmf writes one HDF5 file <case>.h5 for the run (every rank writes
  its share: the mesh once, one dataset per field and step) and <case>.xdmf, the series ParaView opens
  (its Xdmf3 readers): the file count does not grow with the ranks. After --restart the later
  steps go to <case>-r1.h5 (-r2, ...), listed in the same <case>.xdmf.
output.probes: [{name, point, fields}], the columns of probes.csv; fields: some of
  )" << join(output_field_names(FieldKind::probe))
      << R"(
  (default: displacement, velocity). u and v at the node nearest the point; stress, strain and
  von_mises at the point itself, in the element that holds it.
output.sections: [{name, plane: {point, normal}} | {name, regions: [A, B]}] (README.md, "Section
  forces"): sections.csv, the force and moment on the cells on the normal's side from the rest
  through the plane (or on region A's from region B's; storey shears; through the supports, the
  reaction), and their largest values in the log.
output.drifts: [{name, point: [x, y], levels: [z0, z1, ...]}]: drifts.csv, each storey's drift
  u(z_i) - u(z_i-1) in x and y at the nodes nearest the levels and its ratio to the height.
Tensors (stress, strain): 6 components xx yy zz xy yz xz, the strain's shear as a tensor.
modal: {modes: N, mass: consistent}: the N lowest modes with SLEPc (modes.csv, <case>_modes.pvd)
  before the transient, or alone when the case has no time: section.
harmonic (README.md, "Harmonic response"): the steady state under the case's loads (each load's
  value, the phase of its sine amplitude) {method: modal (default with modal:) | direct,
  frequencies: [f, ...] | {from, to, count, spacing: linear | log} (Hz), damping: xi (modal),
  rayleigh: {mass, stiffness} | {damping_ratios, frequencies}, structural_damping: eta,
  base_acceleration: [ax, ay, az] (the supports' motion), residual: false (modal: add the static
  response of the modes left out), fields_at: [f, ...]}: harmonic.csv (amplitude and phase at the probes), harmonic.svg,
  <case>_harmonic.pvd (displacement_real, _imag, _amplitude at fields_at). direct: MUMPS LDL^T
  of the real block form per frequency (-harmonic_ options), springs' dashpots included.
response_spectrum (README.md, "Response-spectrum analysis"), after modal: the combined peaks
  {spectrum: {record: AMPLITUDE} | {points: [[T, Sa], ...]} | {file: F.csv}, units, scale;
  directions: [x, y, z], direction_factors, directional_combination: srss | 100-30,
  combination: srss | cqc (default) | abs, damping: 0.05 | rayleigh, missing_mass: false}: rsa.csv (base
  reaction, largest displacement), rsa_modes.csv (per mode), <case>_rsa.pvd (displacement,
  reaction, stress and strain combined component by component: no von Mises of peaks).
)";
  out << "force terms (README.md, \"Architecture\"), by the case-file section they come from:\n";
  for (const auto& e : force_term_entries()) {
    out << "  " << std::left << std::setw(24) << e.name << e.summary << "\n";
    if (e.parse && !e.example.empty())
      out << "  " << std::setw(24) << ""
          << "e.g. " << e.name << ": " << e.example << "\n";
  }
  out << "boundary_conditions[].type (README.md, \"The case file\"):\n";
  for (const auto& t : condition_types())
    out << "  " << std::left << std::setw(24) << t.name << t.summary << "\n";
  out << R"(boundary_conditions type acceleration: the region's acceleration is value x amplitude(t), its
  velocity and displacement the integrals from rest; amplitudes: {type: table, file: quake.csv}
  reads time,value rows from a file; {file: rec.AT2} a PEER NGA record (units from its header),
  {file: rec.txt, dt: 0.01} a single-column file (format: table | peer | single when the name
  does not say); units: g | m/s2 | cm/s2 | mm/s2 converts to m/s^2, scale: multiplies, and
  baseline: {method: polynomial, degree: 3} removes the drift of the ground's displacement, or
  {method: butterworth, corner: 0.1 (Hz), order: 4} filters it out (acausal, zero pads kept: the
  record is delayed by the leading pad) (Boore and Bommer 2005; the log shows the final
  displacement and velocity before and after).
  A table or smooth step is zero after its last point as an
  acceleration (the ground moves on at its final velocity) and holds its last value as a load or
  displacement. The log echoes each condition: its peak, and the ground's final velocity and
  displacement (the drift of an uncorrected record). Where every support of a component follows
  one record (uniform excitation), Rayleigh mass damping acts on the velocity relative to the
  ground; output, reactions and energies stay absolute.
energy.csv: kinetic, strain, hourglass (reduced hex8: the part of strain in hourglass modes),
  external_work (loads and reactions), damping_dissipation, plastic_dissipation (plastic
  solids: from the return map, never negative) and plastic_work_error (the trapezoidal rule's
  work at the material points less their stored and dissipated energy), algorithmic_dissipation
  (hht, generalized_alpha, non-trapezoidal newmark: what the scheme's balance removes), total
  (constant for a correct run).
output.reactions (default true): reactions.csv, the force each fixed/displacement region's support
  exerts on the body per step; output.fields: [..., reaction] adds it as point data.
time.rayleigh: {mass: alpha_M, stiffness: alpha_K}, or target damping ratios at two frequencies
  {damping_ratios: [0.05, 0.05], frequencies: [f1, f2]} (Hz) or modes: [i, j] (of modal:),
  solved for alpha_M and alpha_K.
time.linear_solver: auto (default) | direct | iterative: implicit solves of linear models with a
  MUMPS Cholesky factorisation computed once, or CG + GAMG; auto weighs MUMPS's estimate of the
  factorisation (flops, memory per rank) against the iterative solves of the run's steps and logs
  why. Newton's tangents (nonlinear models) choose the same way: MUMPS LDL^T preconditioning
  GMRES, refactored per step, or CG + GAMG. -ksp_type / -pc_type override it.

Options after the case file go to PETSc and override the case file's `petsc:` string, e.g.
  -ksp_type cg -pc_type gamg -ksp_rtol 1e-10 -ksp_monitor -log_view
Options that no solver read are listed as warnings at the end.
Exit status: 0 on success, 1 on bad input, a failed solve or a failed write (one line on stderr,
the written files marked INCOMPLETE), or an output directory in use by another run (each run
locks its output.directory), 128 + the signal after SIGTERM or SIGINT (in the time loop the
ranks finish the step and write a checkpoint of it first; in the set-up, a modal analysis or
--split they stop within seconds, nothing written). README.md, "What a run promises".
)";
  return out.str();
}

/// Parses the command line. Returns an exit status when there is nothing to run (--help,
/// --version, a usage error, printed here).
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
      std::cout << usage();
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

/// Inserts the case file's `petsc:` options below those of the command line.
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

/// Creates `directory` if missing and checks that files can be created in it; throws InputError
/// naming it and the reason.
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

/// Which options check_solver_options() leaves unread, for the end of the run to report: all of
/// them (a run: its solvers read those they use), the unprefixed ones (--check of an explicit
/// scheme: only the mass solves' "mass_" options can be used), or none (--check of an implicit
/// scheme: its solvers are not created, the check's reading stands for theirs).
enum class UnreadAfterCheck { all, unprefixed, none };

/// Collective. Reads the solver options the way the run's solvers will (KSP, PC and SNES with no
/// prefix: GAMG as the default preconditioner; the mass solves' "mass_" prefix: Jacobi), so an
/// unknown type (-ksp_type foo) or a malformed value (-ksp_rtol abc) is a one-line configuration
/// error now, at --check, instead of a failed solve in the first step.
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
std::string six(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

/// "table of 2000 points from quake.csv", "smooth step of 3 points", "sine of 2 Hz".
std::string describe_amplitude(const CaseAmplitude& a) {
  switch (a.type) {
    case CaseAmplitude::Type::table:
      return cat("table of ", a.points.size(), a.points.size() == 1 ? " point" : " points",
                 a.file.empty() ? std::string() : cat(" from ", a.file));
    case CaseAmplitude::Type::smooth_step:
      return cat("smooth step of ", a.points.size(), a.points.size() == 1 ? " point" : " points");
    case CaseAmplitude::Type::sine:
      break;
  }
  return cat("sine of ", six(a.frequency), " Hz");
}

/// One run of a case, phase by phase (deal.II step-18's TopLevel::run() is the model): each
/// phase is a member function, the state they share is the object's.
class Run {
 public:
  Run(MPI_Comm comm, const Arguments& args)
      : comm_(comm), args_(args), log_(root_out(comm)), start_(MPI_Wtime()) {
    for (const char* name : run_phases) phases_.declare(name);
  }

  /// Collective. Returns the exit status; throws on bad input or a failed run.
  int run() {
    if (args_.split > 0) return split();
    try {
      set_up();
    } catch (const Interrupted& e) {  // the outputs are not open yet: nothing to mark
      throw Interrupted(e.signal(), cat(e.what(), "; ", written_before_the_outputs()));
    }
    if (args_.check) {
      warn_unused_petsc_options();
      log_ << "check     OK\n";
      return 0;
    }
    if (!c().has_time) {  // a modal analysis alone
      finish_modal();
      return 0;
    }
    if (args_.restart) restore_checkpoint();
    open_outputs();
    time_loop();
    finish();
    return 0;
  }

 private:
  MechanicalSystem& system() { return *model_.system; }
  const CaseFile& c() const { return *case_; }

  /// --split N: rank 0 reads the mesh, partitions it for N ranks and writes CASE.pN.split.
  int split() {
    run_collectively(comm_, [&] { case_.emplace(load_case(comm_, args_.case_file)); });
    if (c().mesh_file)  // a box: split_mesh says why there is nothing to split
      log_ << "split     " << printable(c().mesh_file->lexically_normal().string()) << " for "
           << args_.split << " ranks into "
           << printable(split_path(c(), args_.split).lexically_normal().string()) << "\n"
           << std::flush;
    try {
      log_ << "split     " << split_mesh(comm_, c(), args_.split) << "\n";
    } catch (const Interrupted& e) {  // the split is written atomically, at the end
      throw Interrupted(e.signal(), cat(e.what(), "; no split written"));
    }
    // Rank 0 works alone and sees only its own signal: another rank's stops the run here.
    stop_if_interrupted(comm_, "during --split (the split was written completely)");
    return 0;
  }

  /// Everything before the outputs open: the model, its summary, the modal analysis, the time
  /// step and the integrator's start (its solver set-up). A signal stops it where every rank
  /// passes (stop_if_interrupted()), and inside its long parts: the mesh read, the power
  /// iterations, SLEPc's solves.
  void set_up() {
    build();
    add<MemoryMonitor>(comm_, log_, c().output_directory, peak_resident_bytes());
    describe();
    stop_if_interrupted(comm_, "during the set-up (after the model's summary)");
    if (!c().has_time) {  // a modal (and/or harmonic) analysis alone
      if (!args_.check) return frequency_analyses();
      return check_analyses();
    }
    if (!args_.check) frequency_analyses();
    choose_time_step();
    if (args_.check) return check_analyses();
    stop_if_interrupted(comm_, "during the set-up (after the time step's choice)");
    initialize();
    stop_if_interrupted(comm_, "during the set-up (after the integrator's solver set-up)");
    log_set_up_time();
  }

  /// --check: what the analyses and the monitors check before their first solve or step (the
  /// harmonic's loads and supports, the section cuts and drift lines against the mesh), so that a
  /// case --check accepts is not refused by the run. Collective.
  void check_analyses() {
    if (c().harmonic.enabled)
      check_harmonic(c(), system().spec(), system(),
                     c().harmonic.method == CaseHarmonic::Method::modal);
    if (!c().sections.empty()) SectionCuts cuts(system(), c());
    if (!c().drifts.empty()) DriftLines lines(system(), c());
  }

  /// The set-up's wall time from the start of the run (max over ranks) and its phases, with
  /// what the stiffness operator is.
  void log_set_up_time() {
    double elapsed = MPI_Wtime() - start_;
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm_));
    const auto s = [](double x) {
      std::ostringstream out;
      out << std::fixed << std::setprecision(2) << x << " s";
      return out.str();
    };
    log_ << "setup     " << s(elapsed) << " (max over ranks): mesh "
         << s(phases_.seconds(comm_, "mesh")) << ", partition "
         << s(phases_.seconds(comm_, "partition")) << ", distribute "
         << s(phases_.seconds(comm_, "distribute")) << ", assemble "
         << s(phases_.seconds(comm_, "assemble")) << ", solver setup "
         << s(phases_.seconds(comm_, "solver setup")) << "; "
         << (system().matrix_free() ? "K matrix-free: its element data built in 'assemble', no "
                                      "matrix or sparsity pattern"
                                    : "K assembled")
         << "\n";
  }

  /// For an interruption before the outputs open: what the run has written.
  std::string written_before_the_outputs() const {
    if (modes_written_)
      return "the modal analysis is complete (modes.csv), the transient did not start";
    return "no output written";
  }

  /// Reads the case and builds the model: mesh, partition, distribution, assembly. Before the
  /// model, a run (not --check) creates its output directories and locks them (one run per
  /// directory); --check only verifies that they could be created.
  void build() {
    run_collectively(comm_, [&] { case_.emplace(load_case(comm_, args_.case_file)); });
    const int nranks = size_of(comm_);
    log_ << "inertia " << INERTIA_VERSION << ": case " << printable(c().path.string()) << " on "
         << nranks << (nranks == 1 ? " rank\n" : " ranks\n") << std::flush;
    insert_case_options(c().petsc_options);
    check_solver_options(comm_, !args_.check               ? UnreadAfterCheck::all
                                : c().scheme.is_explicit() ? UnreadAfterCheck::unprefixed
                                                           : UnreadAfterCheck::none);
    if (args_.check)
      check_directories();
    else
      lock_directories();
    stop_if_interrupted(comm_, "during the set-up (before the mesh)");
    model_ = build_model(comm_, c(), &phases_);
    stop_if_interrupted(comm_, "during the set-up (after the assembly)");
  }

  /// The directories the run will write to (the output directory; the checkpoint directory with
  /// checkpoints, or a modal analysis's output directory), as they are: nothing is created.
  struct RunDirectory {
    std::filesystem::path path;
    const char* what;  ///< "output directory"
    const char* key;   ///< the case file's key for it
  };
  std::vector<RunDirectory> run_directories() const {
    std::vector<RunDirectory> dirs{{c().output_directory, "output directory", "output.directory"}};
    if (c().has_time && c().checkpoint_every > 0)
      dirs.push_back(
          {c().checkpoint_directory, "checkpoint directory", "output.checkpoint.directory"});
    return dirs;
  }

  /// --check: the run's directories could be created and written in; nothing is created.
  void check_directories() {
    run_on_root(comm_, [&] {
      for (const auto& [dir, what, key] : run_directories())
        if (const std::string problem = directory_creation_problem(dir, what); !problem.empty())
          throw InputError(problem);
    });
  }

  /// Creates the run's directories (found writable before any work is done, not at the first
  /// checkpoint, hours in) and takes their locks (core/directory_lock.hpp) on rank 0, for the
  /// run's life: a second run into the same directory is refused in one line naming the
  /// holder. The checkpoint directory is locked too unless it is the output directory. On a file
  /// system without flock, a warning and no lock.
  void lock_directories() {
    std::string notes;  // the log's lines, from rank 0
    run_on_root(comm_, [&] {
      std::error_code ec;
      const auto case_path = std::filesystem::absolute(c().path, ec);
      char host[256] = "";
      ::gethostname(host, sizeof host - 1);
      const std::time_t now = std::time(nullptr);
      char started[32] = "";
      std::strftime(started, sizeof started, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
      const std::string holder =
          printable(cat("the run of ", (ec ? c().path : case_path).string(), " (pid ", ::getpid(),
                        " on host ", host, ", started ", started, ")"));
      for (const auto& [dir, what, key] : run_directories()) {
        prepare_directory(dir, what);
        if (!locks_.empty() && std::filesystem::equivalent(dir, locks_[0].path().parent_path(), ec))
          continue;  // the checkpoints go to the output directory itself
        DirectoryLock lock(dir, holder);
        const std::string name = printable(dir.string());
        switch (lock.outcome()) {
          case DirectoryLock::Outcome::held:
            throw InputError(cat(name, ": in use by ",
                                 lock.holder().empty() ? "another run (starting)" : lock.holder(),
                                 "; wait for it to end, or give this run another ", key));
          case DirectoryLock::Outcome::unsupported:
            notes += cat("warning   ", name, ": cannot lock the ", what,
                         " (flock: ", std::strerror(lock.error()),
                         "; a file system without locks): nothing stops another run from "
                         "writing into it at the same time\n");
            break;
          case DirectoryLock::Outcome::taken:
            if (!lock.previous_holder().empty())
              notes += cat("lock      ", name, ": ", lock.previous_holder(),
                           " ended without releasing the ", what,
                           " (killed or crashed); its files may be incomplete\n");
            break;
          case DirectoryLock::Outcome::none:
            break;
        }
        locks_.push_back(std::move(lock));
      }
    });
    log_ << notes;
  }

  /// Logs the case, the mesh, its regions, the materials and the partition; locates the probes.
  void describe() {
    const int nranks = size_of(comm_);
    const LocalMesh& lm = system().mesh();
    log_ << "mesh      "
         << (c().mesh_file ? printable(c().mesh_file->lexically_normal().string())
                           : std::string("box generator"))
         << "\n";
    if (rank_of(comm_) == 0) log_ << "          " << model_.mesh_summary << "\n";
    log_ << "regions  ";
    for (std::size_t r = 0; r < lm.regions.size(); ++r)
      log_ << " " << printable(lm.regions[r].name) << " (" << lm.regions[r].dim << "D, tag "
           << lm.regions[r].tag << ", " << lm.region_node_counts[r] << " nodes)";
    log_ << "\n";
    for (const auto& m : c().materials)
      log_ << "material  " << printable(m.region) << ": " << m.model << ", density "
           << m.material.density << ", E " << m.material.youngs_modulus << ", nu "
           << m.material.poissons_ratio
           << (m.material.technology.formulation == fe::Formulation::bbar   ? ", hex8 B-bar"
               : m.material.technology.formulation == fe::Formulation::fbar ? ", hex8 F-bar"
               : m.material.technology.formulation == fe::Formulation::reduced
                   ? cat(", hex8 reduced integration, hourglass ", m.material.technology.hourglass)
                   : std::string())
           << "\n";
    for (const auto& w : c().warnings) log_ << "warning   " << w << "\n";
    log_ << "dofs      " << system().num_global_dofs() << " (" << system().num_constrained_dofs()
         << " constrained), total mass " << system().total_mass() << "\n";
    log_constraint_overlaps();
    log_connected_parts();
    log_locking();
    for (const auto& t : system().terms())  // collective
      if (const auto* contact = dynamic_cast<const ContactTerm*>(t.get())) {
        log_ << "contact   " << contact->summary() << "\n";
        for (const auto& w : contact->start_warnings()) log_ << "warning   " << w << "\n";
      }
    {  // the characteristic size, to check the units against the mass and the frequency
      double box[6] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY};  // -max too
      for (std::size_t n = 0; n < lm.coords.size() / 3; ++n)
        for (int i = 0; i < 3; ++i) {
          box[i] = std::min(box[i], lm.coords[3 * n + i]);
          box[3 + i] = std::min(box[3 + i], -lm.coords[3 * n + i]);
        }
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, box, 6, MPI_DOUBLE, MPI_MIN, comm_));
      log_ << "size      bounding box [" << box[0] << ", " << -box[3] << "] x [" << box[1] << ", "
           << -box[4] << "] x [" << box[2] << ", " << -box[5] << "]\n";
      model_size_ = std::hypot(-box[3] - box[0], -box[4] - box[1], -box[5] - box[2]);
    }
    const PartitionSummary& p = model_.partition;
    log_ << "partition " << p.method << ": edge cut " << p.quality.edge_cut << ", imbalance "
         << std::setprecision(4) << p.quality.imbalance << std::setprecision(6);
    if (p.dropped_cells) log_ << ", " << p.dropped_cells << " cells without element nodes ignored";
    log_ << "\n          rank  elements     nodes    ghosts      dofs\n";
    for (int r = 0; r < nranks; ++r)
      log_ << std::setw(16) << r << std::setw(10) << p.elements_per_rank[r] << std::setw(10)
           << p.owned_nodes_per_rank[r] << std::setw(10) << p.ghost_nodes_per_rank[r]
           << std::setw(10) << 3 * p.owned_nodes_per_rank[r] << "\n";
    probe_sites_ = locate_probes(system(), c().probes, c().path.string());
    for (const auto& line : probe_sites_.descriptions) log_ << "  " << line << "\n";
    log_ground_motion();
    log_ << std::flush;  // the summary is on screen (in the batch job's log) during the set-up
  }

  /// Base excitation by acceleration records: per component, whether Rayleigh's mass term damps
  /// the velocity relative to the ground (uniform excitation) or the absolute one (supports that
  /// follow different motions).
  void log_ground_motion() {
    using G = MechanicalSystem::GroundMotion;
    std::string uniform, multi, displaced;
    for (int d = 0; d < 3; ++d) {
      const G g = system().ground_motion()[d];
      if (g == G::none) continue;
      std::string& list = g == G::uniform ? uniform : g == G::displaced ? displaced : multi;
      if (!list.empty()) list += ", ";
      list += "xyz"[d];
    }
    const bool mass_damped = c().rayleigh.mass != 0 || !c().rayleigh_targets.empty();
    if (!displaced.empty() && mass_damped)
      log_ << "ground    supports driven by prescribed displacements in " << displaced
           << ": Rayleigh mass damping acts on the absolute velocity (also on a body riding with "
              "them); give a base excitation as type: acceleration to damp relative to the "
              "ground\n";
    if (!uniform.empty())
      log_ << "ground    uniform base excitation in " << uniform
           << ": the supports follow one acceleration record; Rayleigh mass damping acts on the "
              "velocity relative to the ground (absolute u, v and reactions in the output)\n";
    if (!multi.empty())
      log_ << (mass_damped ? "warning   " : "ground    ") << "multi-support excitation in " << multi
           << ": the supports follow different motions (other records, or fixed supports beside "
              "accelerated ones), so Rayleigh mass damping acts on the absolute velocity there\n";
  }

  /// DOFs named by two constraint conditions: the later one in the case file holds them (its
  /// motion, its reaction). A warning per pair whose motions differ there; pairs that agree
  /// (two fixed faces sharing an edge, the usual way to hold a corner) get one line together:
  /// nothing is ambiguous about them but the region their reaction counts in.
  void log_constraint_overlaps() {
    // The case file's entry of each of the system's conditions (ProblemSpec::dirichlet: the
    // fixed, displacement and acceleration ones, in order).
    std::vector<const CaseBoundaryCondition*> entry;
    for (const auto& bc : c().boundary_conditions)
      if (bc.type->prescribes_motion) entry.push_back(&bc);
    const auto name = [&](int condition) {
      const CaseBoundaryCondition& bc = *entry[condition];
      return cat(bc.origin.key, " (", bc.type->name, ", region ", bc.region, ", line ",
                 bc.origin.line, ")");
    };
    std::string alike;  // "boundary_conditions[0] and [2] (regions xmin, ymin), [0] and [3] ..."
    std::int64_t alike_dofs = 0;
    for (const auto& o : system().constraint_overlaps()) {
      if (o.differing == 0) {
        const std::string& a = entry[o.earlier]->origin.key;
        const std::string& b = entry[o.later]->origin.key;
        alike += cat(alike.empty() ? a : ", " + a.substr(a.find('[')), " and ",
                     b.substr(b.find('[')), alike.empty() ? " (regions " : " (",
                     entry[o.earlier]->region, ", ", entry[o.later]->region, ")");
        alike_dofs += o.dofs;
        continue;
      }
      log_ << "warning   " << name(o.earlier) << " and " << name(o.later) << " both constrain "
           << o.dofs << (o.dofs == 1 ? " DOF" : " DOFs")
           << (o.differing < o.dofs ? cat(" (", o.differing, " of them to different motions)")
                                    : std::string())
           << ": the later, " << entry[o.later]->origin.key
           << ", applies there (its motion, and its reaction in reactions.csv)\n";
    }
    if (alike_dofs > 0)
      log_ << "support   " << alike_dofs << (alike_dofs == 1 ? " DOF" : " DOFs")
           << " held alike by two conditions, the later one applying (its reaction counts them): "
           << alike << "\n";
  }

  /// The connected parts of the mesh (nodes joined by elements, springs and point masses). With
  /// more than one: the count, and each part without any constrained DOF, its regions and nodes.
  /// A warning where such a part is a mistake (unfused geometry) or makes the run singular: a
  /// static run, or a dynamic one whose other parts are held; information where every part is
  /// free (a dynamic run of free bodies, a projectile). One free body alone is only mentioned in
  /// a static run, where it is singular.
  /// Near-incompressible materials on the fully integrated elements, which lock: a warning per
  /// such material naming its linear elements (hex8, tet4), whose answers come out far too
  /// stiff; tet10 stays within a few per cent.
  void log_locking() {
    const LocalMesh& lm = system().mesh();
    for (const CaseMaterial& m : c().materials) {
      if (!(m.material.poissons_ratio > 0.49)) continue;
      const bool hex_ok = m.material.technology.formulation != fe::Formulation::full;
      int region = -1;
      for (std::size_t r = 0; r < lm.regions.size(); ++r)
        if (lm.regions[r].name == m.region) region = static_cast<int>(r);
      int kinds[2] = {0, 0};  // hex8, tet4 cells of the region on this rank
      for (std::int64_t e = 0; e < lm.num_cells(); ++e)
        if (lm.cell_regions[e] == region) {
          if (lm.cell_types[e] == CellType::hex8 && !hex_ok) kinds[0] = 1;
          if (lm.cell_types[e] == CellType::tet4) kinds[1] = 1;
        }
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, kinds, 2, MPI_INT, MPI_MAX, comm_));
      if (!kinds[0] && !kinds[1]) continue;
      const std::string cells = kinds[0] && kinds[1] ? "hex8 and tet4" : kinds[0] ? "hex8" : "tet4";
      log_ << "warning   " << printable(c().path.string()) << ":" << m.origin.line
           << ": materials: poissons_ratio " << m.material.poissons_ratio << " on " << cells
           << " cells of region " << printable(m.region)
           << ", fully integrated, which lock volumetrically as nu -> 0.5: displacements come out "
              "far too small (a hex8 cantilever's tip deflection at nu 0.49: 0.71, at 0.4999: "
              "0.22 of nu 0.3's; tet10 0.97 and 0.95); use formulation: bbar on hex8, or tet10 "
              "cells (README, \"Elements\")\n";
    }
  }

  void log_connected_parts() {
    const LocalMesh& lm = system().mesh();
    std::vector<char> held(static_cast<std::size_t>(lm.num_owned), 0);
    const PetscInt first = 3 * static_cast<PetscInt>(lm.node_begin);
    for (const PetscInt dof : system().constrained_dofs()) held[(dof - first) / 3] = 1;
    const ConnectedParts parts = connected_parts(comm_, lm, held);
    const bool static_run = c().has_time && c().scheme.kind() == SchemeKind::static_solve;
    const bool supported = parts.free_count < parts.count;
    if (parts.count > 1)
      log_ << "mesh      " << parts.count << " disconnected parts (no node shared between them), "
           << parts.free_count << " without any constrained DOF\n";
    if (parts.free_count == 0 || (parts.count == 1 && !static_run)) return;
    const bool warn = static_run || supported;
    for (const MeshPart& p : parts.free_parts) {
      std::string regions;
      for (int r : p.regions)
        regions += cat(regions.empty() ? "" : ", ", printable(lm.regions[r].name));
      const std::string part = cat(parts.count > 1 ? "part" : "the mesh", " of ", p.nodes,
                                   p.nodes == 1 ? " node" : " nodes", " (regions ", regions, ")");
      const char* warning = parts.count > 1 ? "warning   mesh " : "warning   ";
      if (static_run)
        log_ << warning << part
             << " has no constrained DOF: free to move as a rigid body, its static stiffness is "
                "singular; constrain it (or fuse it with a held part)\n";
      else if (warn && c().term_sections.count("contact"))
        log_ << "mesh      " << part
             << " has no constrained DOF: held only through contact (contact:), if at all\n";
      else if (warn)
        log_ << warning << part
             << " has no constrained DOF while other parts are held: it moves as a rigid body "
                "(rigid-body modes at 0 Hz); if it should be attached, fuse the geometry so the "
                "parts share nodes (Gmsh: Coherence or BooleanFragments)\n";
      else
        log_ << "mesh      " << part
             << " is free: no constrained DOF, it moves as a rigid body (a projectile?)\n";
    }
    if (parts.free_count > static_cast<std::int64_t>(parts.free_parts.size()))
      log_ << (warn ? "warning   " : "mesh      ")
           << parts.free_count - static_cast<std::int64_t>(parts.free_parts.size())
           << " more parts without any constrained DOF\n";
  }

  /// Estimates the highest frequency, sets dt (dt: auto) or checks it against the scheme's
  /// stable step, and logs the scheme.
  void choose_time_step() {
    const Scheme& scheme = c().scheme;
    {
      Phases::Scope scope(phases_, "solver setup");
      // Implicit schemes only log it and choose a solver with it: lumped masses suffice.
      frequency_ =
          estimate_highest_frequency(system(), max_power_iterations, !scheme.is_explicit());
    }
    // Linear models: moderate implicit steps (mass-dominated operators) solve with Jacobi-CG.
    if (system().is_linear()) system().set_highest_frequency(frequency_.power);
    const double omega = frequency_.power;
    log_ << "frequency highest ~" << omega << " rad/s (" << frequency_.iterations
         << " power iterations, last change " << frequency_.last_change << " relative; "
         << (frequency_.bound > 0
                 ? cat("lumped-mass Gershgorin bound ", frequency_.bound, " rad/s)")
                 : std::string("no Gershgorin bound: matrix-free K)"))
         << "\n";
    if (!frequency_.converged)
      log_ << "warning   the power iterations did not settle in " << frequency_.iterations
           << " (the estimate still changed by " << frequency_.last_change
           << " relative, tolerance " << power_iteration_tolerance
           << "): the highest frequency may be underestimated\n";
    plan_inputs_.highest_omega = omega;
    plan_ = plan_run(c(), plan_inputs_);
    const RunPlan& p = plan_;
    log_ << "          stable step of " << p.stable_reference << ": dt <= " << p.stability_limit
         << "/omega = " << p.stable_dt << " s"
         << (scheme.conditionally_stable()
                 ? ""
                 : cat(" (", scheme.name(),
                       scheme.stability_limit() > 0 ? " is unconditionally stable)"
                                                    : " is unstable at any step)"))
         << "\n";
    log_limiting_element();
    log_time_step();
    describe_conditions();
    log_ << "time      " << scheme.name();
    if (!scheme.options_text().empty()) log_ << " (" << scheme.options_text() << ")";
    log_ << ", dt " << p.dt << ", " << p.steps << " steps to t = " << p.duration() << ", "
         << (c().mass == MassTreatment::lumped ? "lumped" : "consistent") << " mass, rayleigh "
         << p.rayleigh.coefficients.mass << " / " << p.rayleigh.coefficients.stiffness;
    if (c().velocity_damping > 0) log_ << ", velocity damping " << c().velocity_damping;
    if (!p.rayleigh.targets.empty()) log_rayleigh_targets();
    if (!system().is_linear())
      log_ << (scheme.newton() ? ", nonlinear: Newton (SNES) every step" : ", nonlinear");
    log_ << "\n";
    warn_close_rayleigh_targets();
    warn_fast_contact(p.dt);
  }

  /// How the plan chose dt (dt: auto, a given dt above the stable step, shortened), and the
  /// warnings about it.
  void log_time_step() {
    const RunPlan& p = plan_;
    const Scheme& scheme = c().scheme;
    if (c().dt_auto) {
      std::string how =
          cat(auto_dt_safety, " x the stable step ", p.auto_rounded, " s rounded down to 3 digits");
      if (c().steps == 0) {
        how += p.dt_source == DtSource::automatic
                   ? cat(", ", p.auto_fit_steps, " steps to end_time")
                   : cat(", then ", p.auto_fit_steps, " steps of end_time/", p.auto_fit_steps,
                         " to end exactly at end_time");
        if (p.auto_fit_steps == 1 && p.auto_unfitted > c().end_time)
          log_ << "warning   dt: auto would be " << p.auto_unfitted << " s, longer than end_time "
               << c().end_time << " s: the run is one step of " << p.dt
               << " s. Check the units (total mass, bounding box and highest frequency above)\n";
      }
      log_ << "          dt: auto = " << p.dt << " s (" << how << ")\n";
    } else if (!p.exceeds_stable.empty()) {
      refuse_unstable_dt(c(), p);
      log_ << "warning   " << p.exceeds_stable << "; running anyway (time.allow_unstable: true)\n";
    }
    if (p.steps > 100'000'000)
      log_ << "warning   the run is " << p.steps << " steps of " << p.dt
           << " s: check the units, a penalty or a material that sets so small a step\n";
    if (scheme.stability_limit() == 0)
      log_ << "warning   " << scheme.name()
           << " grows for an undamped oscillation at any time step; it is here for teaching. "
              "Prefer symplectic_euler, central_difference or rk4 (explicit), or an implicit "
              "scheme\n";
    if (!c().dt_auto && c().steps == 0 && c().dt_requested > c().end_time)
      log_ << "warning   time.dt " << c().dt_requested << " s is longer than end_time "
           << c().end_time << " s: the run is one step of " << p.dt
           << " s. Check the units (total mass, bounding box and highest frequency above)\n";
    else if (p.dt_source == DtSource::given_shortened)
      log_ << "          time.dt " << c().dt_requested << " s does not divide end_time "
           << c().end_time << " s: " << p.steps << " steps of end_time/" << p.steps << " = " << p.dt
           << " s instead, to end exactly at end_time\n";
  }

  /// Collective. Contact pairs catch a node crossing a face only within their catch distance (half
  /// the search margin) of it at an evaluation: bodies closing faster than that per step pass
  /// through each other. The closing speed of the initial velocities (the largest difference
  /// between two of them, or one and rest) against catch distance / dt: a warning per pair.
  void warn_fast_contact(double dt) {
    if (c().scheme.kind() == SchemeKind::static_solve || !(dt > 0)) return;
    std::vector<std::array<double, 3>> v{{0, 0, 0}};
    for (const auto& iv : c().initial_velocity) v.push_back(iv.value);
    double closing = 0;
    for (const auto& a : v)
      for (const auto& b : v)
        closing = std::max(closing, std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    for (const auto& t : system().terms()) {
      const auto* contact = dynamic_cast<const ContactTerm*>(t.get());
      if (!contact) continue;
      if (const auto w = contact->step_warning(dt, plan_.duration()); !w.empty())
        log_ << "warning   " << w << "\n";
      if (!(contact->catch_distance() > 0)) continue;
      const double limit = contact->catch_distance() / dt;
      if (closing > limit)
        log_ << "warning   contact '" << contact->name()
             << "': the initial velocities close at up to " << six(closing) << " m/s, "
             << six(closing * dt) << " m per step of " << six(dt) << " s, more than the "
             << six(contact->catch_distance())
             << " m within which the pair catches a node crossing a face (half its margin): "
                "above "
             << six(limit)
             << " m/s the bodies pass through each other; reduce dt or "
                "raise the pair's margin\n";
    }
  }

  /// time.rayleigh's damping ratios: the targets, the ratio's minimum and the highest
  /// frequency's (what the stiff modes get), continuing the "time" line.
  void log_rayleigh_targets() {
    const RayleighPlan& r = plan_.rayleigh;
    const RayleighDamping& rayleigh = r.coefficients;
    const auto& t = r.targets;
    auto where = [&](int i) {
      return c().rayleigh_modes.empty()
                 ? cat(t[i].second, " Hz")
                 : cat("mode ", c().rayleigh_modes[i], " (",
                       t[i].second > 0 ? cat(t[i].second, " Hz") : std::string("after modal"), ")");
    };
    log_ << "\nrayleigh  from damping ratios " << t[0].first << " at " << where(0) << " and "
         << t[1].first << " at " << where(1);
    if (t[0].second == 0)
      log_ << ": solved once the modal analysis has run (not with --check)";
    else
      log_ << ": alpha_M " << rayleigh.mass << " 1/s, alpha_K " << rayleigh.stiffness << " s";
    if (rayleigh.mass > 0 && rayleigh.stiffness > 0) {
      const double w_min = std::sqrt(rayleigh.mass / rayleigh.stiffness);
      log_ << "; lowest ratio " << rayleigh.ratio(w_min) << " at " << w_min / (2 * std::numbers::pi)
           << " Hz";
    }
    if (frequency_.power > 0 && t[0].second > 0)
      log_ << "; ratio " << rayleigh.ratio(frequency_.power) << " at the highest frequency ("
           << frequency_.power / (2 * std::numbers::pi) << " Hz)";
  }

  /// time.rayleigh's targets closer than a factor 1.5 in frequency (rayleigh_close_targets()).
  void warn_close_rayleigh_targets() {
    const auto& t = plan_.rayleigh.targets;
    if (t.empty() || t[0].second == 0) return;  // coefficients given, or modes not computed
    const std::string what =
        rayleigh_close_targets(t[0].first, t[0].second, t[1].first, t[1].second,
                               frequency_.power / (2 * std::numbers::pi));
    if (!what.empty()) log_ << "warning   time.rayleigh: " << what << "\n";
  }

  /// The solid element with the shortest wave transit time L / c (L its shortest corner-to-corner
  /// distance, c = sqrt((lambda + 2 mu) / rho) its material's dilatational wave speed), as Abaqus
  /// names the element that limits the stable step: where to look when the step is smaller than
  /// expected (a sliver element, a stiff or light material).
  void log_limiting_element() {
    const LocalMesh& lm = system().mesh();
    std::vector<double> wave_speed(lm.regions.size(), 0.0);
    for (const auto& m : system().spec().materials) {
      const auto& e = m.material;
      wave_speed[m.region] = std::sqrt((e.lambda() + 2 * e.mu()) / e.density);
    }
    struct {
      double time;
      int rank;
    } best{INFINITY, rank_of(comm_)};
    std::int64_t best_cell = -1;
    double best_length = 0;
    for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
      const int r = lm.cell_regions[k];
      if (!lm.cell_is_element[k] || r < 0 || wave_speed[r] <= 0) continue;
      const auto nodes = lm.nodes_of(k);
      const int corners = info(lm.cell_types[k]).num_corners;
      double length = INFINITY;
      for (int a = 0; a < corners; ++a)
        for (int b = a + 1; b < corners; ++b) {
          const double* x = &lm.coords[3 * nodes[a]];
          const double* y = &lm.coords[3 * nodes[b]];
          length = std::min(length, std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]));
        }
      if (length / wave_speed[r] < best.time) {
        best.time = length / wave_speed[r];
        best_cell = k;
        best_length = length;
      }
    }
    auto global = best;
    INERTIA_MPI(MPI_Allreduce(&best, &global, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm_));
    if (!std::isfinite(global.time)) return;  // no solid elements (springs and masses only)
    std::string line;
    if (global.rank == best.rank) {
      const int r = lm.cell_regions[best_cell];
      std::ostringstream out;
      out << std::setprecision(4) << "          smallest element transit time L/c = " << best.time
          << " s: element " << lm.cell_tags[best_cell] << " ("
          << info(lm.cell_types[best_cell]).name << ", region '" << printable(lm.regions[r].name)
          << "', L = " << best_length << ", c = " << wave_speed[r]
          << "), the element that limits explicit steps";
      line = out.str();
    }
    line = broadcast_string(comm_, line, global.rank);
    log_ << line << "\n";
  }

  /// The boundary conditions and the initial state as the run will apply them (after the case
  /// summary, once dt is known), then the warnings about the amplitudes. Collective.
  void describe_conditions() {
    log_amplitude_files();
    echo_conditions();
    log_initial_state();
    warn_fast_amplitudes();
    warn_amplitude_spans();
  }

  /// One line per amplitude read from a file: rows, time span, what was skipped.
  void log_amplitude_files() {
    for (const auto& [name, a] : c().amplitudes) {
      if (!a.file.empty()) {
        const auto format = a.read.format;
        log_ << "amplitude " << name << ": " << printable(a.file);
        if (format == RecordFormat::peer) log_ << " (PEER AT2: " << a.read.title << ")";
        if (format == RecordFormat::single) log_ << " (single column)";
        log_ << ", " << a.read.rows;
        if (format == RecordFormat::table)
          log_ << (a.read.rows == 1 ? " row" : " rows");
        else
          log_ << (a.read.rows == 1 ? " value" : " values") << " at dt = " << six(a.read.dt)
               << " s";
        log_ << ", t = " << six(a.points.front().first) << " to " << six(a.points.back().first)
             << " s";
        if (a.read.byte_order_mark) log_ << "; a UTF-8 byte-order mark skipped";
        if (a.read.header_line > 0)
          log_ << "; line " << a.read.header_line << " skipped as a header: '" << a.read.header
               << "'";
        log_ << "\n";
      }
      if (!a.units.empty() || a.scale != 1) {
        log_ << "amplitude " << name << ": values";
        if (!a.units.empty())
          log_ << " in " << a.units << " x " << six(*units_factor(a.units)) << " (to m/s^2)";
        if (a.scale != 1) log_ << " x " << six(a.scale) << " (scale)";
        log_ << "\n";
      }
      if (!a.baseline.method.empty()) {
        const auto& b = a.baseline;
        log_ << "amplitude " << name << ": baseline corrected (";
        if (b.method == "polynomial")
          log_ << "polynomial of degree " << b.degree << " fitted to the displacement";
        else
          log_ << "acausal Butterworth high-pass, order " << b.order << " each way, corner "
               << six(b.corner) << " Hz; zero pads of " << six(b.delay)
               << " s at each end: the record is delayed by " << six(b.delay) << " s";
        log_ << ", Boore and Bommer 2005): at t = " << six(a.points.back().first)
             << " s the ground's displacement " << six(b.final_displacement_before) << " -> "
             << six(b.final_displacement_after) << ", velocity " << six(b.final_velocity_before)
             << " -> " << six(b.final_velocity_after) << "; largest change of a value "
             << six(b.peak_correction) << "\n";
      }
      if (!a.units.empty()) {  // an accelerogram: is it one an engineer means?
        const RecordSource source{
            .name = cat("amplitude '", name, "'",
                        a.file.empty() ? "" : cat(" (", printable(a.file), ")")),
            .units = a.units,
            .units_from_file = !a.read.file_units.empty(),
            .units_option = "units:",
            .baseline_option = "baseline:",
            .corrected = !a.baseline.method.empty()};
        for (const auto& w : record_warnings({a.points.begin(), a.points.end()}, a.scale, source))
          log_ << "warning   " << w << "\n";
      }
    }
  }

  /// One line per boundary condition (and gravity): what it does, on which region and components,
  /// value x amplitude, and the peak of its motion or load over the run and when; for a base
  /// acceleration also the ground's velocity and displacement at the end (the drift of a record
  /// that is not baseline-corrected). The unit names assume SI.
  void echo_conditions() {
    ConditionEcho echo;
    echo.t_end = plan_.duration();
    echo.ramped = c().scheme.kind() == SchemeKind::static_solve;
    echo.amplitudes = &c().amplitudes;
    const ProblemSpec& spec = system().spec();
    std::size_t dirichlet = 0;  // resolve_problem made one Dirichlet condition per such entry
    for (std::size_t i = 0; i < c().boundary_conditions.size(); ++i) {
      const CaseBoundaryCondition& bc = c().boundary_conditions[i];
      echo.motion = bc.type->prescribes_motion
                        ? &spec.amplitudes.at(spec.dirichlet.at(dirichlet++).amplitude)
                        : nullptr;
      log_ << "condition "
           << (bc.origin.key.empty() ? cat("boundary_conditions[", i, "]") : bc.origin.key) << ": "
           << bc.type->describe(echo, bc) << "\n";
    }
    if (c().gravity) {
      const std::array<bool, 3> all{true, true, true};
      log_ << "condition gravity: " << on_components(*c().gravity, all)
           << echo.times(c().gravity_amplitude)
           << echo.peak(c().gravity_amplitude, norm_on(*c().gravity, all), "m/s^2") << "\n";
    }
  }

  /// The run's first state at t = 0: u = 0, the initial velocities (initial_conditions, in
  /// order), and the prescribed motion at t = 0 on the constrained DOFs.
  void set_initial_state(Vec u, Vec v) {
    set_given_velocity(v);
    system().apply_constraints(0.0, u, v, nullptr);
  }

  /// The initial velocities as the case gives them (initial_conditions, in order), before the
  /// constraints.
  void set_given_velocity(Vec v) {
    const LocalMesh& lm = system().mesh();
    for (const auto& iv : system().spec().initial_velocity) {
      petsc::Array x(v);
      if (iv.region < 0) {
        for (PetscInt i = 0; i < x.size(); ++i) x[i] = iv.value[i % 3];
      } else {
        for (auto n : lm.region_owned_nodes[iv.region])
          for (int i = 0; i < 3; ++i) x[3 * n + i] = iv.value[i];
      }
    }
  }

  /// Collective. An initial velocity given on constrained DOFs, which the supports override
  /// (fixed: 0; prescribed: the motion's rate): one warning with their count.
  void warn_constrained_initial_velocity(Vec v) {
    if (system().spec().initial_velocity.empty()) return;
    const petsc::Vector given = system().create_vector();
    set_given_velocity(given);
    std::int64_t overridden = 0;
    {
      PetscInt begin = 0, end = 0;  // constrained_dofs() are global
      INERTIA_PETSC(VecGetOwnershipRange(given, &begin, &end));
      petsc::ConstArray a(given), b(v);
      for (const PetscInt g : system().constrained_dofs())
        if (const PetscInt i = g - begin; a[i] != 0 && a[i] != b[i]) ++overridden;
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &overridden, 1, MPI_INT64_T, MPI_SUM, comm_));
    if (overridden > 0)
      log_ << "warning   " << printable(c().path.string())
           << ": initial_conditions.velocity: given on " << overridden
           << " constrained DOFs (fixed or prescribed components), where the "
              "supports win (0 where fixed); give the velocity to the moving region only\n";
  }

  /// What the initial conditions put in: the kinetic energy 1/2 v.M v and the momentum (the
  /// sum of M v per component) of the first state, on the mass matrix the run uses. Collective.
  void log_initial_state() {
    if (c().has_time && c().scheme.kind() == SchemeKind::static_solve) {
      // The prescribed motion's rates at t = 0 would show a kinetic energy a static run never has.
      log_ << "initial   static: no velocities or accelerations (each load step is an "
              "equilibrium)\n";
      return;
    }
    const petsc::Vector u = system().create_vector(), v = system().create_vector(),
                        mv = system().create_vector();
    set_initial_state(u, v);
    warn_constrained_initial_velocity(v);
    const double kinetic = system().kinetic_energy(v);
    system().mult_mass(v, mv);
    double momentum[3] = {0, 0, 0};
    {
      petsc::ConstArray m(mv);
      for (PetscInt i = 0; i < m.size(); ++i) momentum[i % 3] += m[i];
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, momentum, 3, MPI_DOUBLE, MPI_SUM, comm_));
    log_ << "initial   kinetic energy " << kinetic << " J, momentum (" << momentum[0] << ", "
         << momentum[1] << ", " << momentum[2] << ") kg m/s\n";
  }

  /// Tables and smooth steps that end before the run does, saying what each use of them does
  /// after (an acceleration stops, loads and displacements hold the last value); and records
  /// (tables of record_points or more) whose span is off the run's duration by more than 10x (times
  /// in ms against a run in s).
  void warn_amplitude_spans() {
    constexpr std::size_t record_points = 10;
    const double t_end = plan_.duration();
    for (const auto& [name, a] : c().amplitudes) {
      if (a.type == CaseAmplitude::Type::sine) continue;
      const auto [last, last_value] = a.points.back();
      std::string uses;
      auto add = [&](const std::string& use) { uses += (uses.empty() ? "" : "; ") + use; };
      for (const auto& bc : c().boundary_conditions) {
        if (bc.amplitude != name) continue;
        const std::string which =
            cat(bc.type->name, " of condition ", bc.origin.key, " (region ", bc.region, ")");
        if (bc.type->name == "acceleration")
          add(cat("as the ", which, " it is zero after ", six(last),
                  " s (the ground moves on at its final velocity)"));
        else
          add(cat("as the ", which, " it holds its last value ", six(last_value)));
      }
      if (c().gravity && c().gravity_amplitude == name)
        add(cat("as gravity's amplitude it holds its last value ", six(last_value)));
      if (uses.empty()) continue;  // unused: it changes nothing
      const std::string what = cat("amplitude '", name, "' (", describe_amplitude(a), ")");
      if (last < t_end * (1 - 1e-9))
        log_ << "warning   " << what << " ends at t = " << last << " s, before the run's end "
             << t_end << " s: " << uses << "\n";
      // Records only: a ramp and hold of a few points ([0, 0], [0.02, 1], [100, 1]) is no unit
      // mistake, however its span compares.
      if (a.type != CaseAmplitude::Type::table || a.points.size() < record_points) continue;
      const double span = last - a.points.front().first;
      if (span > 10 * t_end)
        log_ << "warning   " << what << " spans " << span << " s, " << std::lround(span / t_end)
             << "x the run's " << t_end << " s, of which the run sees the first "
             << std::setprecision(2) << 100 * t_end / span << " %" << std::setprecision(6)
             << ": are its times in the case's unit of time (ms where the run is in s)?\n";
      else if (10 * span < t_end)
        log_ << "warning   " << what << " spans " << span << " s, 1/" << std::lround(t_end / span)
             << " of the run's " << t_end
             << " s: are its times in the case's unit of time (s where the run is in ms)?\n";
    }
  }

  /// Amplitudes that change within less than a step (a 40 us pulse under a 2 ms step) are only
  /// sampled at the step times: a warning for each, with the time scale and dt.
  void warn_fast_amplitudes() {
    const double t_end = plan_.duration();
    for (const auto& [name, a] : c().amplitudes) {
      if (a.type == CaseAmplitude::Type::sine) {
        const double period = 1 / a.frequency;
        if (period < 10 * plan_.dt)
          log_ << "warning   amplitude '" << printable(name) << "': a period of " << period
               << " s is fewer than 10 steps of dt " << plan_.dt
               << " s: the sine is undersampled; use a smaller dt\n";
        continue;
      }
      for (std::size_t i = 0; i + 1 < a.points.size(); ++i) {
        const auto [t0, a0] = a.points[i];
        const auto [t1, a1] = a.points[i + 1];
        // Relative tolerance: a record sampled at 0.01 s has steps of 0.01 s only to round-off
        // (0.07 - 0.06 < 0.01), and a run at dt 0.01 samples every point of it.
        if (t1 - t0 < plan_.dt * (1 - 1e-6) && a1 != a0 && t0 < t_end && t1 > 0) {
          log_ << "warning   amplitude '" << printable(name) << "' changes from " << a0 << " to "
               << a1 << " within " << t1 - t0 << " s (t = " << t0 << " to " << t1
               << "), less than dt " << plan_.dt
               << " s: the steps sample it only at their times; use a smaller dt\n";
          break;
        }
      }
    }
  }

  /// The initial state (u = 0, the initial velocities, the prescribed motion at t = 0) and the
  /// integrator, which completes it (a_0, ...); the output directories exist since build().
  void initialize() {
    log_ << "output    " << printable(c().output_directory.string()) << "\n";
    bool probes_state = false;
    for (const auto& p : c().probes)
      probes_state = probes_state || std::ranges::count(p.fields, std::string("state")) > 0;
    if ((c().has_field("state") || c().has_field("nodal_state") || probes_state) &&
        system().point_states().empty())
      log_ << "warning   output: 'state'/'nodal_state' asked for, but no force term of this case "
              "has history variables: nothing is written for it\n";
    else
      for (const PointState* s : system().point_states())
        log_ << "state     " << s->layout().name << ": " << s->layout().components.size()
             << " components at up to " << s->layout().points << " points per cell\n";
    state_.u = system().create_vector();
    state_.v = system().create_vector();
    set_initial_state(state_.u, state_.v);
    integrator_ = c().scheme.create();
    Phases::Scope scope(phases_, "solver setup");
    stats_ = integrator_->initialize(system(), state_);
    linear_its_ = stats_.linear_iterations;
    build_monitors();
  }

  /// The run's monitors (app/monitors.hpp), in the loop's order: what each step's outputs are.
  void build_monitors() {
    const std::filesystem::path& out = c().output_directory;
    EnergyMonitor* energy = nullptr;
    if (c().energy) energy = add<EnergyMonitor>(system(), *integrator_, out / "energy.csv");
    BlowUpMonitor* blow_up = add<BlowUpMonitor>(model_size_, frequency_.power, energy);
    if (!c().probes.empty()) add<ProbesMonitor>(std::move(probe_sites_), out / "probes.csv");
    if (!c().sections.empty()) add<SectionsMonitor>(out / "sections.csv");
    if (!c().drifts.empty()) add<DriftsMonitor>(out / "drifts.csv");
    ReactionsMonitor* reactions = nullptr;
    {  // the regions of fixed, displacement and acceleration conditions
      std::vector<std::string> regions;
      for (const auto& bc : c().boundary_conditions)
        if (bc.type->prescribes_motion) regions.push_back(bc.region);
      if ((c().reactions || c().has_field("reaction")) && !regions.empty())
        reactions = add<ReactionsMonitor>(std::move(regions), c().has_field("reaction"));
    }
    {
      std::vector<const ContactTerm*> walls;
      for (const auto& t : system().terms())
        if (const auto* w = dynamic_cast<const ContactTerm*>(t.get())) walls.push_back(w);
      if (!walls.empty()) add<ContactMonitor>(system(), std::move(walls), out / "contact.csv");
    }
    if (plan_.schedule.frames()) add<SeriesMonitor>(reactions);
    if (c().checkpoint_every > 0 || args_.restart) {
      checkpoints_ =
          add<CheckpointMonitor>(comm_, c(), plan_, system(), state_, *integrator_, monitors_);
      checkpoints_->set_watch(blow_up);
      blow_up->set_checkpoints(checkpoints_);
    }
    add<ProgressMonitor>(energy, monitors_);
    for (const auto& m : monitors_) {
      (m->in_step() ? step_monitors_ : output_monitors_).push_back(m.get());
      wants_removed_kinetic_ = wants_removed_kinetic_ || m->wants_removed_kinetic();
    }
  }

  /// Appends a monitor to the list; returns it.
  template <class M, class... Args>
  M* add(Args&&... args) {
    auto m = std::make_unique<M>(std::forward<Args>(args)...);
    M* raw = m.get();
    monitors_.push_back(std::move(m));
    return raw;
  }

  /// --restart: the state, the step and the monitors' sums of the newest usable checkpoint (a
  /// damaged newer one is skipped, and the log says why); the plan continues from it.
  void restore_checkpoint() {
    Phases::Scope scope(phases_, "checkpoint");
    const auto [a, file] =
        checkpoints_->restore_from(*args_.restart, args_.allow_changed_model, log_);
    // The checkpoint's dt, whatever this rank count's estimate (dt: auto) or a changed end_time
    // would give: the steps repeat exactly, and the step count comes from end_time and that dt
    // (plan_run()).
    const bool modal_damping = !c().rayleigh_modes.empty();
    plan_inputs_.restart =
        PlanRestart{a.integers.at("step"), a.reals.at("time"), a.reals.at("dt"), std::nullopt};
    if (modal_damping)
      plan_inputs_.restart->rayleigh =
          RayleighDamping{a.reals.at("rayleigh.mass"), a.reals.at("rayleigh.stiffness")};
    plan_ = plan_run(c(), plan_inputs_);
    if (modal_damping) system().set_rayleigh(plan_.rayleigh.coefficients);
    state_.time = plan_.start_time;
    state_.step = plan_.first_step;
    for (const auto& m : monitors_) m->restore(a);
    resumed_ = true;
    const std::int64_t steps = plan_.steps;
    const double case_dt = plan_.case_dt;
    const double t_end = plan_.duration();
    log_ << "restart   from " << file.string() << ": step " << state_.step
         << ", t = " << state_.time << "; continuing to step " << steps << ", t = " << t_end
         << ", with the checkpoint's dt " << plan_.dt << " s";
    if (std::abs(case_dt - plan_.dt) > 1e-12 * plan_.dt)
      log_ << " (this case alone would step " << case_dt << " s)";
    if (c().steps == 0 && std::abs(t_end - c().end_time) > 1e-9 * c().end_time)
      log_ << "; end_time " << c().end_time
           << " s is not a whole number of its steps: the run ends " << t_end - c().end_time
           << " s past it";
    log_ << "\n";
  }

  /// Opens the outputs (continued after a restart) and records step 0: starts every monitor.
  void open_outputs() {
    // Room for the INCOMPLETE marks, should the disk fill (released by mark_failed()).
    int rank = 0;
    INERTIA_MPI(MPI_Comm_rank(comm_, &rank));
    if (rank == 0) reserve_.emplace(c().output_directory / ".inertia-reserve", 16 << 10);
    context_.emplace(
        RunContext{comm_, log_, c(), plan_, system(), *integrator_, state_, phases_, resumed_});
    for (const auto& m : monitors_) m->start(*context_);
  }

  void flush_monitors() {
    for (const auto& m : monitors_) m->flush();
  }

  /// Every step from the current one to the last, with its monitors; a failure marks the
  /// written files INCOMPLETE with the reason before it propagates, and a signal stops the loop
  /// after a complete step (stop()).
  void time_loop() {
    log_ << "\n";
    // An explicit step of a linear model has nothing that can fail and be retried: no snapshots.
    const int halvings =
        c().scheme.is_explicit() && system().is_linear() ? 0 : c().max_step_halvings;
    StepController steps(halvings,
                         [&](const std::string& what) { log_ << "retry     " << what << "\n"; });
    steps.on_within_step([&](const State& state, double dt) {
      for (Monitor* m : step_monitors_) m->within_step(state, dt);
    });
    loop_start_ = MPI_Wtime();
    first_step_ = state_.step;
    system().set_expected_solves(static_cast<double>(plan_.steps - state_.step));
    if (first_step_ >= plan_.steps)
      log_ << "nothing to do: the checkpoint is at or after the last step\n";
    int signal = 0;
    try {
      while (state_.step < plan_.steps && !signal) {
        activity_ = LoopActivity::step;
        const StepView step = advance(steps, signal);
        for (const auto& note : system().take_solver_notes())  // a warning brings its own tag
          log_ << (note.starts_with("warning   ") ? "" : "solver    ") << note << "\n";
        for (Monitor* m : output_monitors_) {
          activity_ = m->activity();
          m->after_step(step);
        }
      }
      activity_ = LoopActivity::output;
      flush_monitors();
      if (signal) stop(signal);
    } catch (const Interrupted&) {
      throw;
    } catch (const Error& e) {
      // Keep what was written (every listed step is complete) but mark it as a failed run.
      std::string reason = cat(activity(), ": ", e.what());
      if (c().scheme.is_explicit() && !system().is_linear() &&
          reason.find("inverted element") != std::string::npos)
        reason +=
            "; an explicit run keeps the dt chosen for the undeformed mesh: cells flattened "
            "by large deformation need a smaller time.dt";
      if (steps.failed_part_way()) record_reached(reason);
      mark_failed(reason);
      if (dynamic_cast<const SolverError*>(&e)) throw SolverError(reason);
      throw;
    }
  }

  /// A step that failed after parts of it converged (StepController::failed_part_way): the
  /// histories' rows at the end of the last part, numbered as the failed step, so that they end
  /// where the run got to (a restart from an earlier checkpoint drops them). `reason` gains a
  /// failure to record them.
  void record_reached(std::string& reason) {
    const std::int64_t step = state_.step;
    try {
      state_.step = step + 1;
      for (Monitor* m : step_monitors_) m->reached(state_);
    } catch (const Error& e) {
      reason += cat("; the rows of t = ", state_.time, " were not recorded: ", e.what());
    }
    state_.step = step;
  }

  /// What the loop was doing, for the INCOMPLETE marks.
  std::string activity() const {
    switch (activity_) {
      case LoopActivity::step:
        return cat("step ", state_.step + 1, " (from t = ", state_.time, ")");
      case LoopActivity::checkpoint:
        return cat("checkpoint of step ", state_.step, ", t = ", state_.time);
      case LoopActivity::check:
        return cat("after step ", state_.step, ", t = ", state_.time);
      case LoopActivity::output:
        break;
    }
    return cat("output of step ", state_.step, ", t = ", state_.time);
  }

  /// The outputs, then the histories, marked INCOMPLETE.
  void mark_failed(const std::string& reason) {
    reserve_.reset();
    for (Monitor* m : output_monitors_) m->mark_failed(reason);
    for (Monitor* m : step_monitors_) m->mark_failed(reason);
  }

  /// After a signal: a checkpoint of this step (if checkpoints are on), the files marked
  /// INCOMPLETE after their last complete step, and Interrupted for the exit status.
  void stop(int signal) {
    std::string checkpoint = "no checkpoint (output.checkpoint is off)";
    if (checkpoints_) {
      activity_ = LoopActivity::checkpoint;
      checkpoint = checkpoints_->write_for_stop();
    }
    const std::string what =
        interrupted_message(signal, cat("after step ", state_.step, " of ", plan_.steps,
                                        " (t = ", state_.time, "); ", checkpoint));
    mark_failed(what);
    throw Interrupted(signal, what);
  }

  /// One step with its velocity damping and the monitors that belong to it (history rows, the
  /// blow-up watch). `signal`: the signal received by any rank (0: none), agreed on every rank.
  StepView advance(StepController& steps, int& signal) {
    Phases::Scope scope(phases_, "time loop");
    for (Monitor* m : step_monitors_) m->before_step();
    state_.step_end = plan_.time_of(state_.step + 1);  // the scheme's t_{n+1}: n dt, not t_n + dt
    stats_ = steps.advance(system(), *integrator_, state_, plan_.dt);
    linear_its_ += stats_.linear_iterations;
    newton_its_ += stats_.nonlinear_iterations;
    state_.time = plan_.time_of(state_.step);
    double removed = 0;  // kinetic energy taken by velocity damping
    if (c().velocity_damping > 0) {
      const double before = wants_removed_kinetic_ ? system().kinetic_energy(state_.v) : 0;
      integrator_->scale_velocity(std::exp(-plan_.dt * c().velocity_damping), state_);
      system().apply_constraints(state_.time, nullptr, state_.v, nullptr);
      if (wants_removed_kinetic_) removed = before - system().kinetic_energy(state_.v);
    }
    // One reduction for both: the largest displacement (infinite where u is not finite), for
    // the blow-up watch, and whether a rank received a signal.
    double local[2] = {largest_magnitude(state_.u), static_cast<double>(interrupt_signal())};
    double global[2] = {0, 0};
    INERTIA_MPI(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm_));
    const StepView step{state_,      stats_,          plan_.schedule.history_row(state_.step),
                        removed,     steps.last_dt(), global[0],
                        first_step_, loop_start_};
    for (Monitor* m : step_monitors_) {
      activity_ = m->activity();
      m->after_step(step);
    }
    signal = static_cast<int>(global[1]);
    return step;
  }

  /// The closing summary, the timing table and timings.csv.
  void finish() {
    log_ << "\nfinished: " << plan_.steps - first_step_ << " steps, " << linear_its_
         << " linear iterations";
    if (newton_its_) log_ << ", " << newton_its_ << " Newton iterations";
    for (const Monitor* m : step_monitors_) m->summary(log_);
    for (const Monitor* m : output_monitors_) m->summary(log_);
    log_ << "\n";
    report_timings();
  }

  /// The timing table, timings.csv, the monitors' reports (memory) and the PETSc options
  /// nothing used: the end of every run.
  void report_timings() {
    phases_.print(comm_, log_);
    const double total = MPI_Wtime() - start_;
    log_ << "  " << std::left << std::setw(16) << "total" << std::right << std::setw(12)
         << std::fixed << std::setprecision(3) << total << "\n";
    phases_.write_csv(comm_, c().output_directory / "timings.csv", total);
    for (const auto& m : monitors_) m->finish();
    warn_unused_petsc_options();
  }

  /// The analyses before a transient (or alone): the modal analysis and what builds on its modes
  /// (the response-spectrum analysis), and the harmonic response (on the modes, or direct).
  void frequency_analyses() {
    ModalResult modes;
    if (c().modal_modes > 0) modes = modal_analysis();
    if (c().harmonic.enabled)
      harmonic(c().harmonic.method == CaseHarmonic::Method::modal ? &modes : nullptr);
  }

  /// modal.modes: the lowest modes with SLEPc (modal/modal.hpp), logged as a table with the
  /// effective masses against the total mass, written to modes.csv and <case>_modes.pvd (one
  /// entry per mode, "time" = the mode number, point data mode_shape). Fewer modes than asked
  /// (a model with fewer free DOFs, or SLEPc stopped early): those found, and a warning.
  ModalResult modal_analysis() {
    ModalResult modes;
    {
      Phases::Scope scope(phases_, "modal analysis");
      log_ << "modal     the " << c().modal_modes << " lowest modes (SLEPc)\n" << std::flush;
      try {
        modes = compute_modes(system(), c().modal_modes);
      } catch (const InputError& e) {  // the same on every rank: the model cannot have modes
        throw InputError(cat(c().path.string(), ": ", e.what()));
      }
    }
    // time.rayleigh.modes beyond the modes found: an error once they are written.
    std::string unusable;
    const auto found = static_cast<int>(modes.modes.size());
    if (const auto& m = c().rayleigh_modes; !m.empty() && std::max(m[0], m[1]) > found)
      unusable = cat(c().path.string(), ": time.rayleigh.modes: mode ", std::max(m[0], m[1]),
                     ", but the modal analysis found ", found, " modes",
                     modes.free_dofs < modes.asked
                         ? cat(" (the model has ", modes.free_dofs, " free DOFs)")
                         : std::string(),
                     "; modes.csv lists them");
    for (const Mode& m : modes.modes) plan_inputs_.modes.push_back({m.frequency, m.rigid});
    RayleighDamping rayleigh = c().rayleigh;
    if (!c().rayleigh_modes.empty() && unusable.empty()) {
      // time.rayleigh: {damping_ratios, modes}: the targets at those modes' frequencies.
      rayleigh = plan_rayleigh(c(), plan_inputs_.modes).coefficients;
      system().set_rayleigh(rayleigh);
    }
    const bool damped = rayleigh.mass != 0 || rayleigh.stiffness != 0;
    log_ << "modal     " << modes.modes.size() << " modes of K phi = omega^2 M phi ("
         << (c().mass == MassTreatment::lumped ? "lumped" : "consistent")
         << " mass), Krylov-Schur with shift-and-invert at sigma = " << modes.shift << ", "
         << modes.iterations << " iterations; inner solve of K - sigma M: " << modes.solver << "\n";
    log_ << "   mode   frequency (Hz)    omega (rad/s)   eff. mass x     eff. mass y     eff. mass "
            "z"
         << (damped ? "     Rayleigh ratio" : "") << "\n";
    std::array<double, 3> sums{};
    const std::string header =
        "mode,frequency,omega,generalized_mass,participation_x,participation_y,participation_z,"
        "effective_mass_x,effective_mass_y,effective_mass_z\n";
    std::ostringstream csv;
    csv << std::setprecision(17) << header;
    for (std::size_t i = 0; i < modes.modes.size(); ++i) {
      const Mode& m = modes.modes[i];
      log_ << std::setw(7) << i + 1 << std::setw(17) << std::setprecision(6) << m.frequency
           << std::setw(17) << m.omega;
      for (int d = 0; d < 3; ++d) {
        log_ << std::setw(16) << m.effective_mass[d];
        sums[d] += m.effective_mass[d];
      }
      if (damped && !m.rigid) log_ << std::setw(19) << rayleigh.ratio(m.omega);
      if (m.rigid) log_ << "   rigid-body mode (0 Hz)";
      log_ << "\n";
      csv << i + 1 << "," << m.frequency << "," << m.omega << "," << m.generalized_mass;
      for (double x : m.participation) csv << "," << x;
      for (double x : m.effective_mass) csv << "," << x;
      csv << "\n";
    }
    // Against the total mass: the effective masses include the supports' mass coupling (the
    // convention of modal.hpp), so their sum can pass the free DOFs' mass, never the total.
    log_ << "   sum of the effective masses against the total mass (every DOF; all modes together "
            "reach it less the mass that moves with the supports): ";
    for (int d = 0; d < 3; ++d)
      log_ << "xyz"[d] << " " << sums[d] << " of " << modes.total_mass[d] << " ("
           << std::setprecision(3)
           << (modes.total_mass[d] > 0 ? 100 * sums[d] / modes.total_mass[d] : 0.0) << " %)"
           << std::setprecision(6) << (d < 2 ? ", " : "\n");
    run_on_root(comm_,
                [&] { write_file_atomically(c().output_directory / "modes.csv", csv.str()); });
    // The mode shapes as a series ParaView steps through.
    OutputSeries series(comm_, c(), system(), std::nullopt, c().name + "_modes");
    for (std::size_t i = 0; i < modes.shapes.size(); ++i)
      series.write_point_field(static_cast<double>(i + 1), "mode_shape", modes.shapes[i]);
    modes_written_ = true;
    log_ << "modal     modes.csv and " << printable(series.series_path().string()) << " written\n";
    if (damped) warn_overdamped_modes(modes, rayleigh);
    if (modes.cluster_completion > 0) {
      const int n = modes.asked, k = modes.cluster_completion;
      log_ << "modal     " << (k == 1 ? "mode " : "modes ") << n + 1
           << (k == 1 ? "" : cat(" to ", n + k)) << " added: mode " << n << "'s frequency "
           << modes.modes[static_cast<std::size_t>(n - 1)].frequency << " Hz is repeated (within "
           << cluster_tolerance << " relative), and a truncation at " << n
           << " modes would keep an arbitrary part of that eigenspace\n";
    }
    if (found < modes.asked) {
      const auto count = [](auto n) { return cat(n, n == 1 ? " mode" : " modes"); };
      log_ << "warning   modal: " << count(modes.asked) << " asked, ";
      if (modes.free_dofs <= modes.asked)
        log_ << "the model has " << modes.free_dofs << " free DOFs";
      if (found == modes.free_dofs)
        log_ << ": " << count(found) << " computed and written\n";
      else
        log_ << (modes.free_dofs <= modes.asked ? "; " : "") << "SLEPc converged " << found
             << " in " << modes.iterations << " iterations: " << count(found)
             << " written (more with -eps_max_it)\n";
    }
    if (!unusable.empty()) throw InputError(unusable);
    if (c().response_spectrum.enabled) response_spectrum(modes);
    return modes;
  }

  /// Rayleigh damping given by target ratios at two frequencies that leaves a mode below them
  /// with more than twice the largest target (targets set above the modes that respond, rad/s
  /// taken for Hz): a warning naming the lowest such mode, its frequency and ratio. (Modes above
  /// the targets are damped more by design: Rayleigh damping filters them.)
  void warn_overdamped_modes(const ModalResult& modes, const RayleighDamping& rayleigh) {
    if (c().rayleigh_targets.empty() || !c().rayleigh_modes.empty()) return;
    double target = 0, lowest = INFINITY;
    for (const auto& [zeta, f] : c().rayleigh_targets)
      target = std::max(target, zeta), lowest = std::min(lowest, f);
    for (std::size_t i = 0; i < modes.modes.size(); ++i) {
      const Mode& m = modes.modes[i];
      if (m.rigid || m.frequency >= lowest || !(rayleigh.ratio(m.omega) > 2 * target)) continue;
      log_ << "warning   " << printable(c().path.string()) << ": time.rayleigh: mode " << i + 1
           << " (" << six(m.frequency) << " Hz) gets a damping ratio of "
           << six(rayleigh.ratio(m.omega)) << ", more than twice the largest target ("
           << six(target) << " at " << six(c().rayleigh_targets[0].second) << " and "
           << six(c().rayleigh_targets.back().second)
           << " Hz): put the targets around the modes that respond\n";
      return;
    }
  }

  /// harmonic: the steady-state response over the sweep by modal superposition on `modes` (or,
  /// null, by the direct solve), at the probes (harmonic.csv, harmonic.svg) and as fields at the
  /// chosen frequencies (<case>_harmonic.pvd).
  void harmonic(const ModalResult* modes) {
    const auto& h = c().harmonic;
    // The probes' nodes, whatever fields the probes ask of a transient.
    std::vector<CaseProbe> points = c().probes;
    for (auto& p : points) p.fields = {"displacement"};
    const ProbeSites probes = locate_probes(system(), points, c().path.string());
    HarmonicResult r;
    {
      Phases::Scope scope(phases_, "harmonic");
      log_ << "harmonic  sweeping " << c().harmonic.frequencies.size() << " frequencies ("
           << (modes ? "modal superposition" : "direct solve") << ")\n"
           << std::flush;
      r = harmonic_analysis(c(), system().spec(), system(), modes, probes);
    }
    const std::size_t np = probes.names.size();
    log_ << "harmonic  " << h.frequencies.size() << " frequencies from " << h.frequencies.front()
         << " to " << h.frequencies.back() << " Hz, ";
    if (modes)
      log_ << "superposing " << modes->modes.size() << " modes (viscous ratio " << h.damping;
    else
      log_ << "direct solve (" << r.solver << ", " << std::setprecision(3)
           << r.seconds_per_frequency << " s per frequency" << std::setprecision(6);
    if (h.rayleigh.mass != 0 || h.rayleigh.stiffness != 0)
      log_ << ", Rayleigh alpha_M " << h.rayleigh.mass << " alpha_K " << h.rayleigh.stiffness;
    log_ << ", structural " << h.structural_damping << "); ";
    if (r.phases.empty()) {
      log_ << "no loads\n";
    } else {
      log_ << r.phases.size() << (r.phases.size() == 1 ? " load" : " loads") << ", phases (deg)";
      for (double ph : r.phases) log_ << " " << ph * 180 / std::numbers::pi;
      log_ << "\n";
    }
    if (modes && h.residual)
      log_ << "harmonic  residual: the static response of the modes left out (one static solve), "
           << r.residual_fraction << " of K^-1 F's largest entry, added to every frequency\n";
    if (h.has_base)
      log_ << "harmonic  base acceleration (" << h.base_acceleration[0] << ", "
           << h.base_acceleration[1] << ", " << h.base_acceleration[2]
           << ") m/s^2, phase 0, moving every support of those components; the displacements "
              "are absolute (the ground's -A / Omega^2 included)\n";
    const double highest = modes && !modes->modes.empty() ? modes->modes.back().frequency : 0;
    if (modes && h.frequencies.back() > highest &&
        static_cast<PetscInt>(modes->modes.size()) < modes->free_dofs)
      log_ << "warning   harmonic: the sweep reaches " << h.frequencies.back()
           << " Hz, above the highest mode kept (" << highest
           << " Hz): ask modal for more modes (about 1.5 times the sweep's top)\n";
    if (np == 0)
      log_ << "warning   harmonic: no output.probes: harmonic.csv has frequencies only\n";
    // harmonic.csv: amplitude and phase (degrees) of each probe component.
    std::ostringstream csv;
    csv << std::setprecision(12) << "frequency";
    for (std::size_t p = 0; p < np; ++p)
      for (const char* k : {"ux", "uy", "uz"})
        csv << "," << probes.names[p] << "." << k << "_amplitude," << probes.names[p] << "." << k
            << "_phase";
    csv << "\n";
    std::vector<PlotPanel> panels(2);
    panels[0] = {"amplitude of the displacement", "frequency (Hz)", "|u|", h.log_spacing, true, {}};
    panels[1] = {
        "phase against the loads", "frequency (Hz)", "phase (degrees)", h.log_spacing, false, {}};
    double overall = 0;
    for (const auto& u : r.probe_values) overall = std::max(overall, std::abs(u));
    for (std::size_t f = 0; f < h.frequencies.size(); ++f) {
      csv << h.frequencies[f];
      for (std::size_t e = 0; e < np * 3; ++e) {
        const auto u = r.probe_values[f * np * 3 + e];
        csv << "," << std::abs(u) << "," << std::arg(u) * 180 / std::numbers::pi;
      }
      csv << "\n";
    }
    for (std::size_t e = 0; e < np * 3; ++e) {
      double peak = 0, at = 0;
      PlotSeries amplitude{cat(probes.names[e / 3], ".u", "xyz"[e % 3]), h.frequencies, {}},
          phase = amplitude;
      for (std::size_t f = 0; f < h.frequencies.size(); ++f) {
        const auto u = r.probe_values[f * np * 3 + e];
        amplitude.y.push_back(std::abs(u));
        phase.y.push_back(std::arg(u) * 180 / std::numbers::pi);
        if (std::abs(u) > peak) peak = std::abs(u), at = h.frequencies[f];
      }
      if (!(peak > 1e-3 * overall)) continue;  // a component the loads barely move
      log_ << "harmonic  " << amplitude.label << ": largest amplitude " << peak << " at " << at
           << " Hz\n";
      panels[0].series.push_back(std::move(amplitude));
      panels[1].series.push_back(std::move(phase));
    }
    run_on_root(comm_, [&] {
      write_file_atomically(c().output_directory / "harmonic.csv", csv.str());
      write_file_atomically(c().output_directory / "harmonic.svg",
                            svg_plot(panels, cat("harmonic response of ", c().name)));
    });
    if (!h.fields_at.empty()) {
      OutputSeries series(comm_, c(), system(), std::nullopt, c().name + "_harmonic");
      petsc::Vector real = system().create_vector(), imag = system().create_vector(),
                    amplitude = system().create_vector();
      // The cells' stress from the real and imaginary displacements (linear: the stress of U's
      // parts), and each component's amplitude.
      CellStress stress_real, stress_imag;
      std::vector<double> stress_amplitude;
      for (double f : h.fields_at) {
        harmonic_field(c(), modes, r, f, real, imag);
        {
          petsc::ConstArray re(real), im(imag);
          petsc::Array a(amplitude);
          for (std::size_t e = 0; e < a.span().size(); ++e)
            a.span()[e] = std::hypot(re.span()[e], im.span()[e]);
        }
        system().assembler().cell_stress(real, stress_real);
        system().assembler().cell_stress(imag, stress_imag);
        stress_amplitude.resize(stress_real.stress.size());
        for (std::size_t e = 0; e < stress_amplitude.size(); ++e)
          stress_amplitude[e] = std::hypot(stress_real.stress[e], stress_imag.stress[e]);
        series.write_fields(f,
                            {{"displacement_real", real.get()},
                             {"displacement_imag", imag.get()},
                             {"displacement_amplitude", amplitude.get()}},
                            {{"stress_real", &stress_real.stress},
                             {"stress_imag", &stress_imag.stress},
                             {"stress_amplitude", &stress_amplitude}});
      }
      log_ << "harmonic  " << printable(series.series_path().string()) << " written ("
           << h.fields_at.size()
           << " frequencies: the time in ParaView is the frequency; displacement and the cells' "
              "stress, real, imaginary and amplitude)\n";
    }
    log_ << "harmonic  harmonic.csv and harmonic.svg written\n";
  }

  /// response_spectrum: the combined peaks on the modes just computed, logged per mode and
  /// combined, written to rsa_modes.csv, rsa.csv and <case>_rsa.pvd.
  void response_spectrum(const ModalResult& modes) {
    const auto& spec = c().response_spectrum;
    RsaResult r;
    std::vector<std::string> drift_storeys;
    {
      Phases::Scope scope(phases_, "response spectrum");
      std::optional<SectionCuts> cuts;
      if (!c().sections.empty()) cuts.emplace(system(), c());
      std::optional<DriftLines> drifts;
      if (!c().drifts.empty()) drifts.emplace(system(), c());
      r = response_spectrum_analysis(c(), system(), modes, cuts ? &*cuts : nullptr,
                                     drifts ? &*drifts : nullptr);
      if (drifts) drift_storeys = drifts->storeys();
    }
    const char* rules[] = {"SRSS", "CQC", "ABS"};
    const int chosen = spec.combination == ModalRule::srss  ? 0
                       : spec.combination == ModalRule::cqc ? 1
                                                            : 2;
    log_ << "rsa       response spectrum: "
         << (spec.record.empty()
                 ? cat("design spectrum of ", spec.table.size(), " points",
                       spec.file.empty() ? std::string() : " from " + printable(spec.file))
             : spec.rayleigh_damping ? cat("the spectrum of record '", spec.record,
                                           "' at each mode's Rayleigh ratio (Nigam-Jennings)")
                                     : cat("the ", 100 * spec.damping, " % spectrum of record '",
                                           spec.record, "' (Nigam-Jennings)"))
         << (spec.scale != 1 ? cat(" x ", spec.scale) : std::string()) << "; " << rules[chosen]
         << " over the modes (damping "
         << (spec.rayleigh_damping ? std::string("per mode: rayleigh, in rsa_modes.csv")
                                   : cat(spec.damping))
         << ")";
    if (spec.directions.size() > 1)
      log_ << ", then " << (spec.directional == DirectionalRule::srss ? "SRSS" : "100/30")
           << " over the directions";
    log_ << "\n";
    if (r.held_below + r.held_above > 0)
      log_ << "warning   response_spectrum: " << r.held_below + r.held_above
           << " mode periods outside the spectrum's periods (" << r.held_below << " below, "
           << r.held_above << " above): the spectrum's end values used\n";
    const std::size_t n = modes.modes.size();
    std::ostringstream csv;
    csv << std::setprecision(17)
        << "direction,mode,period,sa,damping,participation,effective_mass,displacement_factor,"
           "base_fx,base_fy,base_fz\n";
    for (std::size_t k = 0; k < spec.directions.size(); ++k) {
      const char axis = "xyz"[spec.directions[k]];
      log_ << "   direction " << axis << ": mode, period (s), Sa, Gamma, eff. mass, base reaction "
           << axis << "\n";
      for (std::size_t i = 0; i < n; ++i) {
        const RsaModeRow& row = r.rows[k * n + i];
        log_ << std::setw(7) << row.mode << std::setw(14) << std::setprecision(6) << row.period
             << std::setw(14) << row.sa << std::setw(14) << row.participation << std::setw(14)
             << row.effective_mass << std::setw(14)
             << row.base[static_cast<std::size_t>(spec.directions[k])] << "\n";
        csv << axis << "," << row.mode << "," << row.period << "," << row.sa << "," << row.damping
            << "," << row.participation << "," << row.effective_mass << ","
            << row.displacement_factor;
        for (double b : row.base) csv << "," << b;
        csv << "\n";
      }
      const auto& by = r.base_by_rule[k];
      const auto d = static_cast<std::size_t>(spec.directions[k]);
      log_ << "   direction " << axis << ": base reaction " << axis << " " << by[0][d]
           << " (SRSS), " << by[1][d] << " (CQC), " << by[2][d]
           << " (ABS); the modes' effective mass " << std::setprecision(3)
           << 100 * r.mass_fraction[k] << " % of the total" << std::setprecision(6)
           << (r.mass_fraction[k] < 0.9 ? " (below 90 %: more modes)" : "") << "\n";
    }
    if (spec.missing_mass) {
      log_ << "rsa       missing mass at the ZPA " << r.zpa
           << " (static solve: " << r.missing_solver << "):";
      for (std::size_t k = 0; k < spec.directions.size(); ++k) {
        const auto d = static_cast<std::size_t>(spec.directions[k]);
        log_ << " "
             << "xyz"[d] << " " << r.missing_mass[k] << " (" << std::setprecision(3)
             << 100 * r.missing_mass[k] / modes.total_mass[d] << " % of the total mass)"
             << std::setprecision(6) << ", base reaction " << r.missing_base[k][d];
      }
      log_ << "; combined with the modes by SRSS\n";
    }
    log_ << "rsa       combined base reaction (x, y, z): " << r.base[0] << ", " << r.base[1] << ", "
         << r.base[2] << "\n";
    std::ostringstream combined;
    combined << std::setprecision(17) << "quantity,x,y,z\nbase_reaction";
    for (double b : r.base) combined << "," << b;
    double peak[3] = {0, 0, 0};
    {
      petsc::ConstArray u(r.displacement);
      for (std::size_t e = 0; e < u.span().size(); ++e)
        peak[e % 3] = std::max(peak[e % 3], u.span()[e]);
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, peak, 3, MPI_DOUBLE, MPI_MAX, comm_));
    combined << "\nmax_displacement";
    for (double x : peak) combined << "," << x;
    combined << "\n";
    for (std::size_t k = 0; k < r.sections.size(); ++k) {
      const auto& f = r.sections[k];
      combined << c().sections[k].name << ".force," << f[0] << "," << f[1] << "," << f[2] << "\n"
               << c().sections[k].name << ".moment," << f[3] << "," << f[4] << "," << f[5] << "\n";
      log_ << "rsa       section " << c().sections[k].name << ": force (" << f[0] << ", " << f[1]
           << ", " << f[2] << "), moment (" << f[3] << ", " << f[4] << ", " << f[5] << ")\n";
    }
    for (std::size_t k = 0; k < drift_storeys.size(); ++k) {
      combined << drift_storeys[k] << ".drift," << r.drifts[4 * k] << "," << r.drifts[4 * k + 1]
               << ",0\n"
               << drift_storeys[k] << ".ratio," << r.drifts[4 * k + 2] << "," << r.drifts[4 * k + 3]
               << ",0\n";
      log_ << "rsa       drift " << drift_storeys[k] << ": (" << r.drifts[4 * k] << ", "
           << r.drifts[4 * k + 1] << "), ratio (" << r.drifts[4 * k + 2] << ", "
           << r.drifts[4 * k + 3] << ")\n";
    }
    if (spec.missing_mass) {
      // Per excitation direction (its column): the mass the modes leave out, and its base
      // reaction along that direction at the ZPA.
      std::array<double, 3> mass{}, base{};
      for (std::size_t k = 0; k < spec.directions.size(); ++k) {
        const auto d = static_cast<std::size_t>(spec.directions[k]);
        mass[d] = r.missing_mass[k];
        base[d] = r.missing_base[k][d];
      }
      combined << "zpa," << r.zpa << "," << r.zpa << "," << r.zpa << "\nmissing_mass";
      for (double x : mass) combined << "," << x;
      combined << "\nmissing_mass_base_reaction";
      for (double x : base) combined << "," << x;
      combined << "\n";
    }
    run_on_root(comm_, [&] {
      write_file_atomically(c().output_directory / "rsa_modes.csv", csv.str());
      write_file_atomically(c().output_directory / "rsa.csv", combined.str());
    });
    OutputSeries series(comm_, c(), system(), std::nullopt, c().name + "_rsa");
    series.write_fields(0, {{"displacement", r.displacement.get()}, {"reaction", r.reaction.get()}},
                        {{"stress", &r.stress.stress}, {"strain", &r.stress.strain}});
    log_ << "rsa       rsa_modes.csv, rsa.csv and " << printable(series.series_path().string())
         << " written (combined peaks: displacement, reaction, stress and strain by component)\n";
  }

  /// The summary of a modal analysis without a transient.
  void finish_modal() {
    log_ << "\nfinished: modal analysis\n";
    report_timings();
  }

  /// PETSc options (command line or the case's `petsc:`) that no solver read: a typo such as
  /// -ksp_typo, or an option for a solver this run does not have (-pc_type in an explicit run).
  void warn_unused_petsc_options() {
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

  MPI_Comm comm_;
  const Arguments& args_;
  std::ostream& log_;
  const double start_;
  Phases phases_;
  std::optional<const CaseFile> case_;  ///< the case as parsed: never changed after
  Model model_;
  FrequencyEstimate frequency_;
  PlanInputs plan_inputs_;  ///< what the run measured for its plan
  RunPlan plan_;            ///< dt, steps, Rayleigh coefficients, output schedule (plan_run())
  State state_;
  std::unique_ptr<Integrator> integrator_;
  StepStats stats_;
  double model_size_ = 1;   ///< the bounding box's diagonal
  ProbeSites probe_sites_;  ///< located by describe(), handed to the probes' monitor
  /// The outputs and watches, in the loop's order; split into those of the step (history rows,
  /// the blow-up watch) and those after it (frames, checkpoints, the progress line).
  MonitorList monitors_;
  std::vector<Monitor*> step_monitors_, output_monitors_;
  bool wants_removed_kinetic_ = false;        ///< a monitor measures velocity damping's share
  CheckpointMonitor* checkpoints_ = nullptr;  ///< in monitors_, with checkpoints or --restart
  std::optional<RunContext> context_;         ///< what the monitors see, once the outputs open
  bool resumed_ = false;                      ///< --restart: continuing a checkpoint's run
  std::optional<SpaceReserve> reserve_;
  double loop_start_ = 0;
  std::int64_t first_step_ = 0, linear_its_ = 0, newton_its_ = 0;
  std::vector<DirectoryLock> locks_;  ///< rank 0: the output (and checkpoint) directory's
  bool modes_written_ = false;        ///< modes.csv and the mode shapes are complete
  LoopActivity activity_ = LoopActivity::step;
};

}  // namespace

int run_main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "spectrum")
    return spectrum_main(argc - 1, argv + 1);
  Arguments args;
  if (const auto status = parse_arguments(argc, argv, args)) return *status;
  std::optional<Session> session;
  try {
    session.emplace(&argc, &argv, args.petsc);
  } catch (const std::exception& e) {
    report_error(e.what());  // MPI or PETSc did not start: every process says so
    return 1;
  }
  // Errors are the same on every rank (they fail collectively) and are printed once, by rank 0,
  // while MPI is still up: a rank that exits non-zero first makes mpiexec abort the job, which
  // must not take the line with it.
  const bool root = rank_of(PETSC_COMM_WORLD) == 0;
  try {
    const InterruptGuard interrupts;
    return Run(PETSC_COMM_WORLD, args).run();
  } catch (const Interrupted& e) {
    if (root) report_error(e.what());
    return 128 + e.signal();
  } catch (const std::exception& e) {
    if (root) report_error(e.what());
    return 1;
  }
}

}  // namespace inertia
