// `inertia --help <topic>` and the keyword reference (help.hpp): the rows of the registries with
// their summaries and examples, and by hand the keys no registry holds yet.
#include "inertia/app/help.hpp"

#include <initializer_list>
#include <iomanip>
#include <limits>
#include <sstream>
#include <vector>

#include "inertia/app/analysis_sequence.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/options.hpp"
#include "inertia/core/text.hpp"
#include "inertia/material/constitutive.hpp"
#include "inertia/material/kinematics.hpp"
#include "inertia/mesh/cell_type.hpp"
#include "inertia/system/contact.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/time/scheme.hpp"

namespace inertia {

namespace {

constexpr int name_width = 24;  // the names' column of the lists
const std::string under(name_width + 2, ' ');

/// "  name                    text\n".
std::string row(std::string_view name, std::string_view text) {
  std::ostringstream out;
  out << "  " << std::left << std::setw(name_width) << name << text << "\n";
  return out.str();
}

/// An example under its row: "e.g. " before its first line, its other lines aligned with it.
std::string example_lines(std::string_view example) {
  if (example.empty()) return {};
  std::string out = under + "e.g. ";
  for (const char ch : example) out += ch == '\n' ? "\n" + under + "     " : std::string(1, ch);
  return out + "\n";
}

/// A row of a registry: name, summary, the extra lines, the example.
std::string entry(const EntryInfo& e, const std::vector<std::string>& lines = {}) {
  std::string out = row(e.name, e.summary);
  for (const auto& l : lines) out += under + l + "\n";
  return out + example_lines(e.example);
}

/// The option keys a scheme's configure function allows: it is called with none, and its
/// expect_keys() call says which it would take.
class AllowedKeys final : public OptionMap {
 public:
  mutable std::vector<std::string_view> keys;
  bool has(std::string_view) const override { return false; }
  void expect_keys(std::initializer_list<std::string_view> allowed) const override {
    keys.assign(allowed.begin(), allowed.end());
  }
  double number(std::string_view) const override { return 0; }
  bool boolean(std::string_view) const override { return false; }
  [[noreturn]] void fail(std::string_view key, const std::string& what) const override {
    throw InternalError(cat("a scheme's defaults fail at ", key, ": ", what));
  }
};

std::string scheme_entry(const SchemeEntry& e) {
  AllowedKeys allowed;
  const Scheme s = e.configure(allowed);
  const char* kind = s.kind() == SchemeKind::explicit_scheme   ? "explicit"
                     : s.kind() == SchemeKind::implicit_scheme ? "implicit"
                                                               : "static";
  const double limit = s.stability_limit();
  const std::string stability = limit == std::numeric_limits<double>::infinity()
                                    ? "stable at any step"
                                : limit > 0 ? cat("stable for omega h <= ", six(limit))
                                            : "grows at any step when undamped";
  std::vector<std::string> lines{cat(kind, "; ", stability,
                                     s.newton() ? "; Newton on nonlinear models" : "",
                                     s.refuses_damping().empty() ? "" : "; no Rayleigh damping")};
  if (!allowed.keys.empty())
    lines.push_back(
        cat("options time.", e.name, ": ", join(allowed.keys),
            s.options_text().empty() ? "" : cat(" (by default ", s.options_text(), ")")));
  return entry(e, lines);
}

std::string condition_entry(const ConditionType& t) {
  return entry(t, {cat("keys: ", join(t.keys),
                       t.prescribes_motion ? "; prescribes motion (reactions)" : "; a load")});
}

std::string cell_type_entry(const CellTypeInfo& t) {
  return entry(t, {cat(t.dim, "-D, ", t.num_nodes, " nodes; Gmsh type ", t.gmsh_id, ", VTK type ",
                       t.vtk_id)});
}

// ---- the sections ----

std::string run_page() {
  return R"(run (examples/guide/running.md): the command line
Options after the case file go to PETSc and override the case file's `petsc:` string, e.g.
  -ksp_type cg -pc_type gamg -ksp_rtol 1e-10 -ksp_monitor -log_view
Options that no solver read are listed as warnings at the end.
Exit status: 0 on success, 1 on bad input, a failed solve or a failed write (one line on stderr,
the written files marked INCOMPLETE), or an output directory in use by another run (each run
locks its output.directory), 128 + the signal after SIGTERM or SIGINT (in the time loop the
ranks finish the step and write a checkpoint of it first; in the set-up, a modal analysis or
--split they stop within seconds, nothing written). examples/guide/run_promises.md.
)";
}

std::string mesh_page() {
  std::string out = R"(mesh (examples/guide/case_file.md): {file: F.msh} | {box: {...}}, partitioner
  file                    a Gmsh MSH 2.2 or 4.1 file, ASCII or binary, with named physical groups
  box                     {lower: [x, y, z], upper: [x, y, z], cells: [nx, ny, nz], element: hex8
                          | tet4 | tet10}: regions all (volume), xmin xmax ymin ymax zmin zmax
  partitioner             metis (default) | block (deterministic, for tests)
cell types (elements.md):
)";
  for (const auto& t : cell_types) out += cell_type_entry(t);
  return out;
}

std::string terms_page() {
  std::string out = "force terms (src/README.md), by the case-file section they come from:\n";
  for (const auto& e : force_terms()) out += entry(e);
  out += "contact.walls[] shapes (examples/guide/contact_walls.md):\n";
  for (const auto& e : wall_shape_rows()) out += entry(e);
  return out;
}

std::string materials_page() {
  std::string out = "materials[] constitutive models (model: NAME, or the keyed row's key):\n";
  for (const auto& m : material::model_entries())
    out += cat("  ", m.name, std::string(m.name.size() < 24 ? 24 - m.name.size() : 1, ' '),
               m.summary, "\n", std::string(26, ' '), "e.g. ", m.example, "\n");
  out += "materials[].formulation, the kinematics (examples/guide/elements.md):\n";
  for (const auto& k : material::kinematics()) out += entry(k);
  return out +
         R"(materials[].failure, element erosion (examples/guide/erosion.md): one criterion; a cell that meets
  it at an accepted step leaves the model, its forces and mass (time.integrator: central_difference,
  time.mass: lumped; a nonlinear model). erosion.csv and the log report what the eroded cells
  carried away (mass, kinetic and strain energy, momentum; energy.csv's column eroded); the output
  field state shows erosion.eroded per cell. Contact pairs on volume regions follow the erosion
  (the faces eroded cells uncover join them; a pair's eroding: false: only the eroded faces leave).
  equivalent_plastic_strain: e_f      the cell's mean J2 equivalent plastic strain reaches e_f
  principal_strain: e_1               the largest principal strain at the cell's centre reaches e_1
                                      (the log strain for a finite-strain model)
  johnson_cook: {d1, d2, d3, d4, reference_rate}
                                      the damage sum of Delta e_p / e_f reaches 1, e_f = (d1 + d2
                                      exp(d3 p/q)) (1 + d4 ln max(1, rate / reference_rate))
  e.g. {region: plate, model: hencky, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3,
        plasticity: {yield_stress: 4.0e8}, failure: {equivalent_plastic_strain: 0.3}}
)";
}

std::string conditions_page() {
  std::string out = cat("boundary_conditions[].type (examples/guide/case_file.md):\n",
                        "  an entry's keys: ", join(condition_keys()), "\n");
  for (const auto& t : condition_types()) out += condition_entry(t);
  return out +
         R"(boundary_conditions type acceleration: the region's acceleration is value x amplitude(t), its
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
)";
}

std::string initial_conditions_page() {
  return R"(initial_conditions: {velocity: [vx, vy, vz] | [{region, velocity}], static_equilibrium: true}:
  the start; static_equilibrium: u starts at the static equilibrium under the loads, gravity and
  prescribed motion at t = 0 (a gravity preload), then the transient runs from it.
)";
}

std::string time_page() {
  std::string out = R"(time (examples/guide/time_integration.md): a transient or static run
  integrator              one of time.integrator below (newmark by default); its options in
                          time.<integrator>: {...} (inertia --help integrators)
  dt                      the step, or auto (the stable step of an explicit scheme; on a
                          nonlinear model with end_time recomputed every step from the
                          deforming cells' L/c)
  safety_factor           dt: auto is this x the stable step, in (0, 1] (0.9, LS-DYNA's TSSFAC)
  mass_scaling            {dt_min, warn_fraction}: mass added to the cells whose step is below
                          dt_min (dt: auto, lumped; the log and energy.csv's added_mass report
                          it; a warning past warn_fraction of the model's mass, 0.05)
  end_time | steps        the run's length: one of them
  mass                    consistent (default) | lumped
  rayleigh, linear_solver below
  velocity_damping        v <- exp(-dt c) v after every step
  allow_unstable          true: a dt above the stable step, and a growing run goes on
  max_step_halvings       a failed step is retried as two half steps, this many times (3)
  operator                assembled (default) | matrix_free: explicit schemes, linear hex8/tet4
time.integrator (examples/guide/time_integration.md):
)";
  for (const auto& e : schemes()) out += row(e.name, e.summary);
  return out +
         R"(time.rayleigh: {mass: alpha_M, stiffness: alpha_K}, or target damping ratios at two frequencies
  {damping_ratios: [0.05, 0.05], frequencies: [f1, f2]} (Hz) or modes: [i, j] (of modal:),
  solved for alpha_M and alpha_K.
time.linear_solver: auto (default) | direct | iterative: implicit solves of linear models with a
  MUMPS Cholesky factorisation computed once, or CG + GAMG; auto weighs MUMPS's estimate of the
  factorisation (flops, memory per rank) against the iterative solves of the run's steps and logs
  why. Newton's tangents (nonlinear models) choose the same way: MUMPS LDL^T preconditioning
  GMRES, refactored per step, or CG + GAMG. -ksp_type / -pc_type override it.
)";
}

std::string integrators_page() {
  std::string out = "time.integrator, each with its options section time.<name>:\n";
  for (const auto& e : schemes()) out += scheme_entry(e);
  return out;
}

std::string output_page() {
  std::string out =
      R"(output (examples/guide/outputs.md): directory, format, every | interval, history_every,
  fields, probes, sections, drifts, energy, reactions, checkpoint: {every, keep, directory}
output.fields (examples/guide/outputs.md), the arrays of the output frames:
)" + output_fields_help(FieldKind::frame) +
      example_lines(frame_fields()[0].example);
  out +=
      R"(output.format: vtu (default) | xdmf (examples/guide/outputs.md): vtu writes <case>.pvd and per step a
  .pvtu and one .vtu per rank; xdmf writes one HDF5 file <case>.h5 for the run (every rank writes
  its share: the mesh once, one dataset per field and step) and <case>.xdmf, the series ParaView opens
  (its Xdmf3 readers): the file count does not grow with the ranks. After --restart the later
  steps go to <case>-r1.h5 (-r2, ...), listed in the same <case>.xdmf.
output.probes: [{name, point, fields}], the columns of probes.csv; fields: some of
  )";
  out += join(output_field_names(FieldKind::probe)) + R"(
  (default: displacement, velocity). u and v at the node nearest the point; stress, strain and
  von_mises at the point itself, in the element that holds it.
)";
  for (const auto& f : probe_fields())
    out += row(f.name, f.columns.empty()
                           ? std::string(f.summary)
                           : cat(f.summary, "; columns <probe>.", join(f.columns, ", <probe>.")));
  out += example_lines(probe_fields()[0].example);
  out += R"(output.sections: [{name, plane: {point, normal}} | {name, regions: [A, B]}]
  (examples/guide/sections.md): sections.csv, the force and moment on the cells on the normal's
  side from the rest through the plane (or on region A's from region B's; storey shears; through
  the supports, the reaction), and their largest values in the log; plastic, hyperelastic and
  corotational cells count their own force at u.
output.drifts: [{name, point: [x, y], levels: [z0, z1, ...]}]: drifts.csv, each storey's drift
  u(z_i) - u(z_i-1) in x and y at the nodes nearest the levels and its ratio to the height.
Tensors (stress, strain): 6 components xx yy zz xy yz xz, the strain's shear as a tensor.
energy.csv: kinetic, strain, hourglass (reduced hex8 and belytschko_tsay shells: the part of
  strain in hourglass modes), external_work (loads and reactions), damping_dissipation, plastic_dissipation (plastic
  solids: from the return map, never negative) and plastic_work_error (the trapezoidal rule's
  work at the material points less their stored and dissipated energy), eroded (element erosion:
  the kinetic and strain energy the eroded cells carried away), algorithmic_dissipation
  (hht, generalized_alpha, non-trapezoidal newmark: what the scheme's balance removes), total
  (constant for a correct run).
output.reactions (default true): reactions.csv, the force each fixed/displacement region's support
  exerts on the body per step; output.fields: [..., reaction] adds it as point data.
)";
  return out;
}

std::string modal_page() {
  return R"(modal (examples/guide/modal.md):
modal: {modes: N, mass: consistent}: the N lowest modes with SLEPc (modes.csv, <case>_modes.pvd)
  before the transient, or alone when the case has no time: section. Effective masses along x, y,
  z and about the axes rx, ry, rz through reference_point: [x, y, z] (default: the centre of mass).
)";
}

std::string analyses_page() {
  std::string out =
      R"(analyses (examples/guide/analyses.md): [{name, type: static | transient | modal, ...}] in order
  over one model, each from the state the one before left, on one time line (a load without an
  amplitude is held): static {end_time, steps} (none: one equilibrium at the current time),
  transient {integrator, dt, end_time | steps, ...: time:'s keys but mass, rayleigh, operator,
  linear_solver, which stay in time:}, modal {modes} (about the current state's tangent); outputs
  in <output.directory>/<name>, <case>.pvd their frames on one time line.
analyses[].type:
)";
  for (const auto& a : analysis_types()) out += entry(a);
  return out;
}

std::string harmonic_page() {
  return R"(harmonic (examples/guide/harmonic.md): the steady state under the case's loads (each load's
  value, the phase of its sine amplitude) {method: modal (default with modal:) | direct,
  frequencies: [f, ...] | {from, to, count, spacing: linear | log} (Hz), damping: xi (modal),
  rayleigh: {mass, stiffness} | {damping_ratios, frequencies}, structural_damping: eta,
  base_acceleration: [ax, ay, az] (the supports' motion), residual: false (modal: add the static
  response of the modes left out), fields_at: [f, ...]}: harmonic.csv (amplitude and phase at the probes), harmonic.svg,
  <case>_harmonic.pvd (displacement_real, _imag, _amplitude at fields_at; shells: shell_resultants_ likewise). direct: MUMPS LDL^T
  of the real block form per frequency (-harmonic_ options), springs' dashpots included.
)";
}

std::string response_spectrum_page() {
  return R"(response_spectrum (examples/guide/response_spectrum.md), after modal: the combined peaks
  {spectrum: {record: AMPLITUDE} | {points: [[T, Sa], ...]} | {file: F.csv}, units, scale;
  directions: [x, y, z], direction_factors, directional_combination: srss | 100-30,
  combination: srss | cqc (default) | abs, damping: 0.05 | rayleigh, missing_mass: false}: rsa.csv (base
  reaction, largest displacement), rsa_modes.csv (per mode), <case>_rsa.pvd (displacement,
  reaction, stress and strain combined component by component: no von Mises of peaks).
)";
}

/// One section of the help: its name, its line in the overview, its page.
struct Section {
  std::string_view name;
  std::string_view summary;
  std::string (*page)();
};

constexpr Section sections[] = {
    {"run", "PETSc options on the command line, exit status", run_page},
    {"mesh", "mesh: a Gmsh file or a generated box; the cell types", mesh_page},
    {"terms", "the force-term kinds: materials, springs, point masses, loads, contact", terms_page},
    {"materials", "materials: the constitutive models and their keys", materials_page},
    {"conditions", "boundary_conditions: the condition types, amplitudes, records",
     conditions_page},
    {"initial_conditions", "initial_conditions: velocities, a static preload",
     initial_conditions_page},
    {"time", "time: the step, the run's length, damping, the solver; the integrators", time_page},
    {"integrators", "every integrator with its options and an example", integrators_page},
    {"output", "output: frames and their fields, probes, sections, drifts, energy", output_page},
    {"modal", "modal: the lowest modes", modal_page},
    {"analyses", "analyses: a sequence of static, transient and modal analyses", analyses_page},
    {"harmonic", "harmonic: the steady state under harmonic loads", harmonic_page},
    {"response_spectrum", "response_spectrum: peaks from the modes and a spectrum",
     response_spectrum_page},
};

std::vector<std::string_view> section_names() {
  std::vector<std::string_view> names;
  for (const auto& s : sections) names.push_back(s.name);
  return names;
}

}  // namespace

std::string help_overview() {
  std::string out = R"(usage: mpirun -n N inertia CASE.yaml [PETSc options ...]
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
       inertia --help [SECTION | all] | --help-reference | --version

inertia runs the structural-dynamics case described by CASE.yaml (examples/guide/case_file.md):
it reads or generates the mesh, partitions it with METIS, assembles mass and stiffness into
PETSc, integrates in time, and writes ParaView output (.pvd/.pvtu/.vtu, or .xdmf/.h5),
probes.csv and energy.csv under output.directory.

inertia --help SECTION prints one section (all: every one; examples/guide/reference.md holds them
all); also one integrator, force-term kind, condition type, cell type, constitutive model,
formulation, analysis type or wall shape by its name (inertia --help newmark):
)";
  for (const auto& s : sections) out += row(s.name, s.summary);
  return out;
}

std::optional<std::string> help_page(std::string_view topic) {
  for (const auto& s : sections)
    if (s.name == topic) return s.page();
  if (const auto* e = schemes().find(topic)) return scheme_entry(*e);
  if (const auto* e = force_terms().find(topic)) return entry(*e);
  if (const auto* t = condition_types().find(topic)) return condition_entry(*t);
  if (const auto* t = cell_types.find(topic)) return cell_type_entry(*t);
  for (const auto& m : material::model_entries())
    if (m.name == topic)
      return cat(row(m.name, m.summary), example_lines(cat("materials:\n  - ", m.example)));
  if (const auto* k = material::kinematics().find(topic)) return entry(*k);
  if (const auto* a = analysis_types().find(topic)) return entry(*a);
  for (const auto& e : wall_shape_rows())
    if (e.name == topic) return entry(e);
  return std::nullopt;
}

std::string unknown_help_topic(std::string_view topic) {
  std::vector<std::string_view> topics = section_names();
  for (const auto& names :
       {schemes().names(), force_terms().names(), condition_types().names(), cell_types.names(),
        material::kinematics().names(), analysis_types().names()})
    topics.insert(topics.end(), names.begin(), names.end());
  for (const auto& e : wall_shape_rows()) topics.push_back(e.name);
  for (const auto& m : material::model_entries()) topics.push_back(m.name);
  return cat(
      "unknown help section '", excerpt(topic), "'", did_you_mean(topic, topics), " (expected ",
      join(section_names()), ", all, or an integrator, force-term kind, ",
      "condition type, cell type, constitutive model, formulation, analysis type or wall shape)");
}

std::string help_all() {
  std::string out = help_overview();
  for (const auto& s : sections) {
    out += '\n';  // not "\n" + page: GCC 12 warns (-Wrestrict) of an overlap it imagines
    out += s.page();
  }
  return out;
}

std::string help_reference() {
  std::string out = R"(# Keyword reference

Every section of `inertia --help`, generated from the registries of the code (the integrators,
force-term kinds, condition types, output fields, cell types, constitutive models, formulations,
analysis types and wall shapes, each with its one-line summary
and a minimal example) by `inertia --help-reference > examples/guide/reference.md`; the test
e2e.help fails when this file and the binary differ. `inertia --help SECTION` prints one section,
`inertia --help NAME` one integrator, force-term kind, condition type, cell type, constitutive
model, formulation, analysis type or wall shape. Each example
is a block of a case file: with a small box case around it (tests/unit/app_registry_examples.cpp)
it passes `inertia --check` and runs.

)";
  for (const auto& s : sections)
    out += cat("## ", s.name, "\n\n", s.summary, "\n\n```text\n", s.page(), "```\n\n");
  out.pop_back();
  return out;
}

}  // namespace inertia
