#pragma once
/// \file case_file.hpp
/// The case file (YAML), parsed and validated in full before any work
/// (examples/guide/case_file.md). Every error is an InputError of one line: "<file>:<line>: <key>:
/// <what is wrong>". Region names are checked against the mesh later (resolve_problem), since the
/// mesh is read after the case.

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/core/origin.hpp"
#include "inertia/mesh/box.hpp"
#include "inertia/partition/partition.hpp"
#include "inertia/seismic/modal_combination.hpp"
#include "inertia/seismic/record.hpp"
#include "inertia/system/problem.hpp"
#include "inertia/time/scheme.hpp"

namespace inertia {

struct CaseMaterial {
  std::string region;
  std::string model;  ///< the model for the log: "neo_hookean", "hencky + J2 plasticity"
  material::SolidMaterial material;
  Origin origin;
};

struct CaseSpring {
  std::string region;  ///< line2 region, or the surface whose edges become springs
  bool edges_of_surface = false;
  SpringProperties properties;
  Origin origin;
};

struct CasePointMass {
  std::string region;
  double mass = 0;
  /// The rotary inertia (kg m^2) about each global axis at the region's beam nodes (their
  /// rotation DOFs); 0: none.
  double rotary_inertia = 0;
  Origin origin;
};

struct ConditionType;

/// A `boundary_conditions` entry; its type's row (app/conditions.hpp) parses, resolves and
/// describes it.
struct CaseBoundaryCondition {
  const ConditionType* type = nullptr;  ///< never null once parsed
  std::string region;
  std::array<bool, 3> components{true, true, true};
  std::array<double, 3> value{0, 0, 0};  ///< pressure in value[0]; moment: [Mx, My, Mz]
  /// rx, ry, rz: the rotations of the nodes that have them (beam nodes); `fixed` without
  /// components clamps them too.
  std::array<bool, 3> rotations{false, false, false};
  std::array<double, 3> rotation_value{0, 0, 0};
  std::string amplitude;  ///< empty: none
  Origin origin;
};

enum class OutputFormat { vtu, xdmf };

/// How parse_case reads amplitude files (read_record, or a collective version of it).
using AmplitudeFileReader = std::function<AmplitudeTable(const std::filesystem::path&, RecordFormat,
                                                         double dt, std::string_view abscissa)>;

struct CaseAmplitude {
  enum class Type { table, sine, smooth_step };
  Type type = Type::table;
  AmplitudePoints points;
  double frequency = 0, phase = 0;
  int continuity = 2;  ///< smooth_step: 1 (zero rate at the points) or 2 (and zero acceleration)
  std::string file;    ///< table: the file its points came from, as the case names it (or empty)
  AmplitudeFileRead read;  ///< table from a file: what was read
  std::string units;       ///< table: the units the values were converted from (empty: as written)
  double scale = 1;        ///< table: the factor after the units' (`scale`)
  BaselineCorrection baseline;  ///< table: the baseline correction applied (degree 0: none)
};

/// The time function of an `amplitudes` entry.
Amplitude make_amplitude(const CaseAmplitude& a);

struct CaseProbe {
  std::string name;
  std::array<double, 3> point{0, 0, 0};
  Origin origin;
  /// Probe fields (app/output_fields.hpp), in the order given (their columns come in that order).
  std::vector<std::string> fields{"displacement", "velocity"};
};

/// An `output.sections` entry: the cut through a plane (app/sections.hpp).
struct CaseSection {
  std::string name;
  std::array<double, 3> point{0, 0, 0};   ///< on the plane; the moments are about it
  std::array<double, 3> normal{0, 0, 1};  ///< towards side A, the part the force acts on
  /// Or a cut between two regions: side A (the force acts on it) and side B; empty for a plane.
  std::string region_a, region_b;
  Origin origin;
};

/// An `output.drifts` entry: storey drifts along a vertical line (app/drifts.hpp).
struct CaseDrift {
  std::string name;
  std::array<double, 2> point{0, 0};  ///< x, y of the line
  std::vector<double> levels;         ///< z, increasing: storey i lies between levels i-1 and i
  Origin origin;
};

struct CaseInitialVelocity {
  std::string region;  ///< empty: every node
  std::array<double, 3> value{0, 0, 0};
  Origin origin;
  /// The rates of the rotations rx, ry, rz (rad/s) at the region's beam nodes.
  std::array<double, 3> angular{0, 0, 0};
};

/// `response_spectrum`: a response-spectrum analysis on the modes of `modal`
/// (app/response_spectrum_analysis.hpp).
struct CaseResponseSpectrum {
  bool enabled = false;
  std::string record;  ///< the spectrum of this amplitude (a record), or empty: `table`
  /// A design spectrum: (period, spectral acceleration) points, periods increasing; scaled.
  std::vector<std::pair<double, double>> table;
  std::string file;                       ///< the table's file, as the case names it (or empty)
  std::string units;                      ///< the table's units (empty: as written)
  double scale = 1;                       ///< applied to the spectrum (after units)
  std::vector<int> directions;            ///< 0, 1, 2 (x, y, z), in the order given
  std::vector<double> direction_factors;  ///< per direction (default 1)
  ModalRule combination = ModalRule::cqc;
  DirectionalRule directional = DirectionalRule::srss;
  double damping = 0.05;          ///< every mode's damping ratio (CQC; the record's spectrum)
  bool rayleigh_damping = false;  ///< damping: rayleigh: each mode's ratio from time.rayleigh
  bool missing_mass = false;  ///< the static response of the mass the modes leave out, at the ZPA
  Origin origin;
};

/// `harmonic`: the steady-state response to harmonic loads, by modal superposition or by the
/// direct solve (app/harmonic_analysis.hpp).
struct CaseHarmonic {
  enum class Method { modal, direct };
  bool enabled = false;
  Method method = Method::modal;    ///< default: modal with `modal:`, direct without
  std::vector<double> frequencies;  ///< Hz, increasing
  bool log_spacing = false;         ///< frequencies spaced in log (the plot's axis too)
  double damping = 0;               ///< every mode's viscous damping ratio (modal)
  RayleighDamping rayleigh;         ///< C = alpha_M M + alpha_K K
  double structural_damping = 0;    ///< the loss factor eta: K (1 + i eta)
  /// Modal: add the static response of the modes left out (K^-1 F less the kept modes' static
  /// parts, over 1 + i eta): one static solve.
  bool residual = false;
  /// Uniform base excitation: the supports' acceleration amplitude (phase 0), per component.
  std::array<double, 3> base_acceleration{0, 0, 0};
  bool has_base = false;
  std::vector<double> fields_at;  ///< Hz: frames of the complex displacement
  Origin origin;
};

/// One entry of `analyses:` (app/analysis_sequence.hpp): a static, transient or modal analysis
/// that starts from the state the one before it left, on the run's one time line.
struct CaseAnalysis {
  enum class Type { static_solve, transient, modal };
  std::string name;  ///< unique; its outputs go to <output.directory>/<name>
  Type type = Type::transient;
  Origin origin;
  double start_time = 0;  ///< where it starts on the run's time line (s)
  double duration = 0;    ///< static: 0 is one equilibrium at start_time
  // static and transient: the time keys (the `time:` section's, overridden by the entry's)
  Scheme scheme = configure_scheme("newmark");
  double dt = 0, dt_requested = 0;
  bool dt_auto = false;
  double safety_factor = 0.9;
  std::int64_t steps = 0;  ///< given as steps (0: from the duration and dt)
  bool allow_unstable = false;
  int max_step_halvings = 3;
  double velocity_damping = 0;
  int modes = 0;  ///< modal
};

struct CaseFile {
  std::filesystem::path path;       ///< the case file as given
  std::filesystem::path directory;  ///< its folder: relative paths are resolved against it
  std::string name;                 ///< file stem: output names use it
  /// Set-ups that are legal but almost surely not meant, found while reading (a scheme's section
  /// that another scheme ignores, implausible units, friction above 1): one line each, logged as
  /// warnings by the run and by --check.
  std::vector<std::string> warnings;

  // mesh
  std::optional<std::filesystem::path> mesh_file;  ///< resolved against directory
  std::optional<BoxSpec> box;
  Partitioner partitioner = Partitioner::metis;

  std::vector<CaseMaterial> materials;
  std::vector<CaseSpring> springs;
  std::vector<CasePointMass> point_masses;
  std::vector<CaseBoundaryCondition> boundary_conditions;
  std::map<std::string, CaseAmplitude> amplitudes;
  std::optional<std::array<double, 3>> gravity;
  std::string gravity_amplitude;
  std::vector<CaseInitialVelocity> initial_velocity;
  /// initial_conditions.static_equilibrium: the transient starts from the static equilibrium
  /// under the loads, gravity and prescribed motion at t = 0 (a gravity preload), not from u = 0.
  bool static_equilibrium = false;

  // modal (a modal analysis before the transient, or alone without `time:`)
  int modal_modes = 0;  ///< modal.modes (0: no modal analysis)
  /// modal.reference_point: the point the rotational effective masses turn about (none: the
  /// centre of mass)
  std::optional<std::array<double, 3>> modal_reference_point;
  CaseResponseSpectrum response_spectrum;  ///< response_spectrum (enabled: after modal)
  CaseHarmonic harmonic;                   ///< harmonic (enabled: after modal)
  bool has_time = true;                    ///< a `time:` section: a transient (or static) run
  /// analyses: the analyses in order, each from the state the one before left (empty: the
  /// single analysis of `time:` and `modal:`). The run makes each one's case with
  /// analysis_case() (app/analysis_sequence.hpp).
  std::vector<CaseAnalysis> analyses;
  /// Where this case's time loop starts on the run's time line (an analysis of a sequence).
  double start_time = 0;
  /// The case of one analysis of a sequence (analysis_case()): its loads follow their
  /// amplitudes, never the static ramp of a static run alone.
  bool in_sequence = false;
  double sequence_end = 0;  ///< in_sequence: where the last analysis ends on the time line

  // time
  Scheme scheme = configure_scheme("newmark");  ///< time.integrator with its options
  /// time.dt, or with end_time the step that ends exactly at end_time (steps_to_end_time of
  /// time.dt); 0 with dt_auto. The run's dt is the run plan's (app/run_plan.hpp).
  double dt = 0;
  double dt_requested = 0;  ///< time.dt as written (0 with dt_auto)
  bool dt_auto = false;
  /// time.safety_factor: dt: auto is this times the stable step (LS-DYNA's TSSFAC).
  double safety_factor = 0.9;
  /// time.mass_scaling: {dt_min, warn_fraction}: mass added to the cells whose step is below
  /// dt_min (app/mass_scaling.hpp); dt_min 0: none.
  double mass_scaling_dt_min = 0;
  double mass_scaling_warn_fraction = 0.05;
  double end_time = 0;  ///< end_time or steps (one of them)
  std::int64_t steps = 0;
  MassTreatment mass = MassTreatment::consistent;
  RayleighDamping rayleigh;
  /// time.rayleigh given as damping ratios: (zeta, frequency in Hz) at two frequencies, from
  /// which `rayleigh` was solved; empty when the coefficients were given.
  std::vector<std::pair<double, double>> rayleigh_targets;
  /// time.rayleigh with `modes: [i, j]`: the targets' modes (1-based); their frequencies (and
  /// `rayleigh`) are filled in once the modal analysis has run.
  std::vector<int> rayleigh_modes;
  double velocity_damping = 0;
  bool allow_unstable = false;  ///< run explicit schemes above their stable step (at your risk)
  int max_step_halvings = 3;    ///< a failed step is retried as two half steps this many times
  bool matrix_free = false;     ///< time.operator: matrix_free (explicit schemes, linear solids)
  /// time.linear_solver: auto (chosen from the problem), direct or iterative
  LinearSolverChoice linear_solver = LinearSolverChoice::automatic;

  // output
  std::filesystem::path output_directory;  ///< resolved against directory
  /// output.format: vtu (a .pvd series of per-rank .vtu pieces) or xdmf (one HDF5 file and a
  /// .xdmf series: a file count that does not grow with the ranks)
  OutputFormat output_format = OutputFormat::vtu;
  int output_every = 10;       ///< VTK every N steps (0: none), unless output_interval > 0
  double output_interval = 0;  ///< output.interval: VTK every this much simulated time (s)
  int history_every = 1;       ///< output.history_every: probe and energy rows every N steps
  /// output.fields: frame fields (app/output_fields.hpp), as given.
  std::vector<std::string> fields{"displacement", "velocity", "acceleration", "von_mises",
                                  "stress",       "strain",   "rank",         "region"};
  std::vector<CaseProbe> probes;
  std::vector<CaseSection> sections;  ///< output.sections: sections.csv
  std::vector<CaseDrift> drifts;      ///< output.drifts: drifts.csv
  bool energy = true;
  bool reactions = true;     ///< output.reactions: reactions.csv for the fixed/displacement regions
  int checkpoint_every = 0;  ///< output.checkpoint.every: steps between checkpoints (0: none)
  int checkpoint_keep = 2;   ///< how many checkpoints to keep (the newest)
  std::filesystem::path checkpoint_directory;  ///< default <output.directory>/checkpoints

  std::string petsc_options;
  /// The sections of the force-term kinds that have their own (ForceTermEntry::parse), by name.
  TermSections term_sections;

  bool has_field(const std::string& f) const;
  /// Number of time steps: `steps`, or steps_to_end_time(end_time, dt).steps (end_time / dt when
  /// that is a whole number to 1e-9, else rounded up; 0 with dt: auto: see the run plan).
  std::int64_t num_steps() const;
};

/// N steps of dt.
struct StepsToEndTime {
  std::int64_t steps = 0;
  double dt = 0;
};

/// The steps of equal size, none longer than max_dt, that end exactly at end_time: end_time /
/// max_dt steps of max_dt when that is a whole number to 1e-9 relative (0.3 / 0.1: 3 steps of
/// 0.1), else N = ceil(end_time / max_dt) steps of end_time / N (at least one step). The same
/// bits for the same arguments on every rank count; N dt is end_time to the last bit or two.
StepsToEndTime steps_to_end_time(double end_time, double max_dt);

/// alpha_M, alpha_K giving damping ratio zeta1 at f1 and zeta2 at f2 (Hz), or nothing when one
/// would be negative; rayleigh_ratio_problem() says why in words.
std::optional<RayleighDamping> rayleigh_from_ratios(double zeta1, double f1, double zeta2,
                                                    double f2);
std::string rayleigh_ratio_problem(double zeta1, double f1, double zeta2, double f2);

/// Rayleigh targets closer than this factor in frequency fit a curve that says little about the
/// modes outside them: the stiffness term then grows from the targets' own ratio, so the modes
/// above get far more damping than either target (and unequal ratios make the fit steep).
inline constexpr double rayleigh_target_spread = 1.5;
/// For targets closer than rayleigh_target_spread: a warning (without the "time.rayleigh: "
/// key) with the ratio of the frequencies and the damping ratio the fit gives between them (at
/// sqrt(f1 f2)) and at `highest` (Hz; the model's highest frequency, 0 if unknown). Empty
/// otherwise.
std::string rayleigh_close_targets(double zeta1, double f1, double zeta2, double f2,
                                   double highest);

/// Collective. Reads and validates a case file: rank 0 reads the case file and each amplitude
/// file once and broadcasts their content (a table's points, not its text), every rank parses.
/// Throws InputError on every rank.
CaseFile load_case(MPI_Comm comm, const std::filesystem::path& file);
/// Same from YAML text (serial, for tests); `file` is used in messages and to resolve paths;
/// amplitude files are read with `reader`.
CaseFile parse_case(const std::string& text, const std::filesystem::path& file,
                    const AmplitudeFileReader& reader = read_record);

/// Resolves region and amplitude names against the mesh regions into the typed ProblemSpec.
/// Throws InputError naming the case key, the unknown region and the known ones. With
/// `cells_per_region` (the whole mesh's cell count of each region), a region the case names that
/// holds no cells is an error too.
ProblemSpec resolve_problem(const CaseFile& c, const std::vector<Region>& regions,
                            std::span<const std::int64_t> cells_per_region = {});

/// Name of the line region made of the edges of surface region `surface` (springs edges_of).
std::string edge_region_name(const std::string& surface);

/// Serial (rank 0). For every `springs` entry with `edges_of: surface`, adds a line2 cell per
/// distinct edge of the surface's faces, in a new region named edge_region_name(surface).
void add_edge_springs(const CaseFile& c, MeshData& mesh);

/// Marks the cells that carry mass or stiffness: 3D cells of a material region, line2 cells of a
/// spring region, and 0D/1D cells of a point-mass region.
std::vector<char> element_cells(const CaseFile& c, const MeshData& mesh);

}  // namespace inertia
