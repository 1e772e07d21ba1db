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

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/app/run.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

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

inertia runs the structural-dynamics case described by CASE.yaml (examples/guide/case_file.md):
it reads or generates the mesh, partitions it with METIS, assembles mass and stiffness into
PETSc, integrates in time, and writes ParaView output (.pvd/.pvtu/.vtu, or .xdmf/.h5),
probes.csv and energy.csv under output.directory.

initial_conditions: {velocity: [vx, vy, vz] | [{region, velocity}], static_equilibrium: true}:
  the start; static_equilibrium: u starts at the static equilibrium under the loads, gravity and
  prescribed motion at t = 0 (a gravity preload), then the transient runs from it.
time.integrator (examples/guide/time_integration.md):
)";
  for (const auto& e : scheme_entries())
    out << "  " << std::left << std::setw(24) << e.name << e.summary << "\n";
  out << R"(
output.fields (examples/guide/outputs.md), the arrays of the output frames:
)" << output_fields_help(FieldKind::frame)
      << R"(output.format: vtu (default) | xdmf (examples/guide/outputs.md): vtu writes <case>.pvd and per step a
  .pvtu and one .vtu per rank; xdmf writes one HDF5 file <case>.h5 for the run (every rank writes
  its share: the mesh once, one dataset per field and step) and <case>.xdmf, the series ParaView opens
  (its Xdmf3 readers): the file count does not grow with the ranks. After --restart the later
  steps go to <case>-r1.h5 (-r2, ...), listed in the same <case>.xdmf.
output.probes: [{name, point, fields}], the columns of probes.csv; fields: some of
  )" << join(output_field_names(FieldKind::probe))
      << R"(
  (default: displacement, velocity). u and v at the node nearest the point; stress, strain and
  von_mises at the point itself, in the element that holds it.
output.sections: [{name, plane: {point, normal}} | {name, regions: [A, B]}]
  (examples/guide/sections.md): sections.csv, the force and moment on the cells on the normal's
  side from the rest through the plane (or on region A's from region B's; storey shears; through
  the supports, the reaction), and their largest values in the log.
output.drifts: [{name, point: [x, y], levels: [z0, z1, ...]}]: drifts.csv, each storey's drift
  u(z_i) - u(z_i-1) in x and y at the nodes nearest the levels and its ratio to the height.
Tensors (stress, strain): 6 components xx yy zz xy yz xz, the strain's shear as a tensor.
modal: {modes: N, mass: consistent}: the N lowest modes with SLEPc (modes.csv, <case>_modes.pvd)
  before the transient, or alone when the case has no time: section.
harmonic (examples/guide/harmonic.md): the steady state under the case's loads (each load's
  value, the phase of its sine amplitude) {method: modal (default with modal:) | direct,
  frequencies: [f, ...] | {from, to, count, spacing: linear | log} (Hz), damping: xi (modal),
  rayleigh: {mass, stiffness} | {damping_ratios, frequencies}, structural_damping: eta,
  base_acceleration: [ax, ay, az] (the supports' motion), residual: false (modal: add the static
  response of the modes left out), fields_at: [f, ...]}: harmonic.csv (amplitude and phase at the probes), harmonic.svg,
  <case>_harmonic.pvd (displacement_real, _imag, _amplitude at fields_at). direct: MUMPS LDL^T
  of the real block form per frequency (-harmonic_ options), springs' dashpots included.
response_spectrum (examples/guide/response_spectrum.md), after modal: the combined peaks
  {spectrum: {record: AMPLITUDE} | {points: [[T, Sa], ...]} | {file: F.csv}, units, scale;
  directions: [x, y, z], direction_factors, directional_combination: srss | 100-30,
  combination: srss | cqc (default) | abs, damping: 0.05 | rayleigh, missing_mass: false}: rsa.csv (base
  reaction, largest displacement), rsa_modes.csv (per mode), <case>_rsa.pvd (displacement,
  reaction, stress and strain combined component by component: no von Mises of peaks).
)";
  out << "force terms (src/README.md), by the case-file section they come from:\n";
  for (const auto& e : force_term_entries()) {
    out << "  " << std::left << std::setw(24) << e.name << e.summary << "\n";
    if (e.parse && !e.example.empty())
      out << "  " << std::setw(24) << ""
          << "e.g. " << e.name << ": " << e.example << "\n";
  }
  out << "materials[] constitutive models (model: NAME, or the keyed row's key):\n";
  for (const auto& m : material::model_entries())
    out << "  " << std::left << std::setw(24) << m.name << m.summary << "\n"
        << std::string(26, ' ') << "e.g. " << m.example << "\n";
  out << "boundary_conditions[].type (examples/guide/case_file.md):\n";
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
--split they stop within seconds, nothing written). examples/guide/run_promises.md.
)";
  return out.str();
}

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
