#include "inertia/app/conditions.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "case_node.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

namespace {

using case_yaml::Node;
using case_yaml::parse_components;

/// The key a condition's region is named at, for messages.
Origin region_key(const CaseBoundaryCondition& bc) {
  return {bc.origin.line, bc.origin.key + ".region"};
}

// ---- parse: the keys each type allows (region and type first), and how it reads them ----

constexpr std::string_view fixed_keys[] = {"region", "type", "components"};
constexpr std::string_view motion_keys[] = {"region", "type", "components", "value", "amplitude"};
constexpr std::string_view load_keys[] = {"region", "type", "value", "amplitude"};

/// `components`: translations into bc.components, rotations (rx, ry, rz) into bc.rotations.
void parse_condition_dofs(const Node& n, CaseBoundaryCondition& bc) {
  const std::array<bool, 6> dofs = case_yaml::parse_dofs(n);
  for (int i = 0; i < 3; ++i) {
    bc.components[i] = dofs[i];
    bc.rotations[i] = dofs[3 + i];
  }
}

/// fixed: every DOF of the region's nodes by default (a beam node is clamped).
void parse_fixed(const Node& b, CaseBoundaryCondition& bc) {
  bc.rotations = {true, true, true};
  if (b.has("components")) parse_condition_dofs(b["components"], bc);
}

/// displacement, acceleration: `value` has one number per listed component (x, y, z by
/// default; rx, ry, rz in radians).
void parse_motion(const Node& b, CaseBoundaryCondition& bc) {
  if (!b.has("value")) b.fail("missing key 'value'");
  if (b.has("components")) parse_condition_dofs(b["components"], bc);
  const auto value = b["value"].numbers(1, 6);
  const int ncomp = static_cast<int>(std::count(bc.components.begin(), bc.components.end(), true) +
                                     std::count(bc.rotations.begin(), bc.rotations.end(), true));
  if (static_cast<int>(value.size()) != ncomp)
    b["value"].fail(cat("expected ", ncomp, " values, one per component"));
  // value[j] belongs to the j-th listed component (components: [z, x] -> value: [uz, ux]).
  for (std::size_t j = 0; j < value.size(); ++j) {
    const int k =
        b.has("components") ? case_yaml::dof_index(b["components"].at(j)) : static_cast<int>(j);
    (k < 3 ? bc.value[k] : bc.rotation_value[k - 3]) = value[j];
  }
}

/// pressure: one number, in value[0].
void parse_pressure(const Node& b, CaseBoundaryCondition& bc) {
  if (!b.has("value")) b.fail("missing key 'value'");
  bc.value[0] = b["value"].number();
}

/// traction, force: a vector.
void parse_vector_load(const Node& b, CaseBoundaryCondition& bc) {
  if (!b.has("value")) b.fail("missing key 'value'");
  bc.value = b["value"].vec3();
}

// ---- resolve: into the ProblemSpec ----

/// fixed, displacement: u_i(t) = value_i a(t) on the region's nodes.
void resolve_displacement(const ConditionResolver& r, const CaseBoundaryCondition& bc,
                          ProblemSpec& spec) {
  spec.dirichlet.push_back({r.region(bc.region, region_key(bc), -1), bc.components, bc.value,
                            r.amplitude(bc.amplitude), -1, bc.rotations, bc.rotation_value});
}

/// acceleration: the region follows u(t) = value x the double integral of the amplitude from 0.
void resolve_acceleration(const ConditionResolver& r, const CaseBoundaryCondition& bc,
                          ProblemSpec& spec) {
  if (r.c.scheme.kind() == SchemeKind::static_solve)
    throw InputError(cat(r.c.path.string(), ":", bc.origin.line, ": ", bc.origin.key,
                         ".type: an acceleration has no meaning for the static integrator; "
                         "use a displacement"));
  const int region = r.region(bc.region, region_key(bc), -1);
  spec.amplitudes.push_back(Amplitude::integrated(
      bc.amplitude.empty() ? Amplitude::constant() : spec.amplitudes[r.amplitude(bc.amplitude)]));
  // The record's identity: its amplitude's index (the constant acceleration: past them).
  const int record =
      bc.amplitude.empty() ? static_cast<int>(r.c.amplitudes.size()) : r.amplitude(bc.amplitude);
  spec.dirichlet.push_back({region, bc.components, bc.value,
                            static_cast<int>(spec.amplitudes.size()) - 1, record, bc.rotations,
                            bc.rotation_value});
}

template <Load::Kind kind, int dim>
void resolve_load(const ConditionResolver& r, const CaseBoundaryCondition& bc, ProblemSpec& spec) {
  spec.loads.push_back(
      {kind, r.region(bc.region, region_key(bc), dim), bc.value, r.amplitude(bc.amplitude)});
}

// ---- describe: the log line ----

/// The rotations a condition names, for its log line: ", rx, rz = (0.1, 0.2) rad" (empty for
/// none); with `values`, their values.
std::string rotation_names(const CaseBoundaryCondition& bc, bool values) {
  std::string names;
  for (int i = 0; i < 3; ++i)
    if (bc.rotations[i]) names += cat(", r", "xyz"[i]);
  if (names.empty() || !values) return names;
  return cat(names, " = ", on_components(bc.rotation_value, bc.rotations), " rad");
}

std::string describe_fixed(const ConditionEcho&, const CaseBoundaryCondition& bc) {
  const bool clamp = bc.components == std::array<bool, 3>{true, true, true} &&
                     bc.rotations == std::array<bool, 3>{true, true, true};
  return cat("fixed region ", printable(bc.region), " (", component_names(bc.components),
             clamp ? "; rotations of beam nodes too" : rotation_names(bc, false), ")");
}

std::string describe_displacement(const ConditionEcho& e, const CaseBoundaryCondition& bc) {
  const auto& on = bc.components;
  if (on == std::array<bool, 3>{false, false, false}) {  // rotations only: "(ry) = 2.38 rad"
    const std::string names = rotation_names(bc, false).substr(2);
    const double peak = norm_on(bc.rotation_value, bc.rotations);
    return cat("displacement of region ", printable(bc.region), " (", names,
               ") = ", on_components(bc.rotation_value, bc.rotations), " rad",
               e.times(bc.amplitude), e.peak(bc.amplitude, peak, "rad"));
  }
  return cat("displacement of region ", printable(bc.region), " (", component_names(on),
             rotation_names(bc, false), ") = ", on_components(bc.value, on),
             rotation_names(bc, true), e.times(bc.amplitude),
             e.peak(bc.amplitude, norm_on(bc.value, on), "m"));
}

std::string describe_line_load(const ConditionEcho& e, const CaseBoundaryCondition& bc) {
  const std::array<bool, 3> all{true, true, true};
  return cat("line load on the beams of region ", printable(bc.region), " = ",
             on_components(bc.value, all), " N/m", e.times(bc.amplitude),
             e.peak(bc.amplitude, norm_on(bc.value, all), "N/m"));
}

std::string describe_moment(const ConditionEcho& e, const CaseBoundaryCondition& bc) {
  const std::array<bool, 3> all{true, true, true};
  return cat("moment on region ", printable(bc.region), " = ", on_components(bc.value, all),
             " N m in total on its beam nodes", e.times(bc.amplitude),
             e.peak(bc.amplitude, norm_on(bc.value, all), "N m"));
}

/// Also the ground's velocity and displacement at the end (the drift of a record that is not
/// baseline-corrected).
std::string describe_acceleration(const ConditionEcho& e, const CaseBoundaryCondition& bc) {
  const auto& on = bc.components;
  std::string line = cat("acceleration of region ", printable(bc.region), " (", component_names(on),
                         ") = ", on_components(bc.value, on), e.times(bc.amplitude),
                         e.peak(bc.amplitude, norm_on(bc.value, on), "m/s^2"));
  // The ground's motion at the end: the acceleration integrated from rest, as the constraint
  // applies it (a table is zero after its last point). (The system's own integral: a record of
  // 10^7 points is integrated once.)
  const Amplitude a = e.amplitude_of(bc.amplitude);
  const Amplitude& ground = *e.motion;
  std::array<double, 3> velocity{}, displacement{};
  for (int k = 0; k < 3; ++k) {
    velocity[k] = bc.value[k] * ground.rate(e.t_end);
    displacement[k] = bc.value[k] * ground.value(e.t_end);
  }
  line += cat("; at the end (t = ", six(e.t_end), " s) the ground moves at ",
              on_components(velocity, on), " m/s and has moved ", on_components(displacement, on),
              " m");
  // Not small against what the peak acceleration could do over the run: a drift.
  const double scale = a.peak(0, e.t_end).value * e.t_end;
  if (std::abs(ground.rate(e.t_end)) > 1e-3 * scale ||
      std::abs(ground.value(e.t_end)) > 1e-3 * scale * e.t_end)
    line += " (an uncorrected record drifts)";
  return line;
}

std::string describe_traction(const ConditionEcho& e, const CaseBoundaryCondition& bc) {
  const auto& on = bc.components;
  return cat("traction on region ", printable(bc.region), " = ", on_components(bc.value, on),
             e.times(bc.amplitude), e.peak(bc.amplitude, norm_on(bc.value, on), "Pa"));
}

std::string describe_pressure(const ConditionEcho& e, const CaseBoundaryCondition& bc) {
  return cat("pressure on region ", printable(bc.region), " = ", six(bc.value[0]),
             e.times(bc.amplitude), e.peak(bc.amplitude, std::abs(bc.value[0]), "Pa"));
}

std::string describe_force(const ConditionEcho& e, const CaseBoundaryCondition& bc) {
  const auto& on = bc.components;
  return cat("force on region ", printable(bc.region), " = ", on_components(bc.value, on),
             " in total", e.times(bc.amplitude), e.peak(bc.amplitude, norm_on(bc.value, on), "N"));
}

/// One row per condition type: name, --help line, a `boundary_conditions:` block with one entry
/// of the type on region xmax (a box's face), whether it prescribes motion, its keys, and its
/// parse, resolve and describe functions. New types go at the end (the position is in the model's
/// fingerprint).
const ConditionType rows[] = {
    {{"fixed", "zero displacement on the region's nodes (components: [x, y, z] by default)",
      "boundary_conditions:\n  - {region: xmax, type: fixed}"},
     true,
     fixed_keys,
     parse_fixed,
     resolve_displacement,
     describe_fixed},
    {{"displacement", "prescribed displacement value x amplitude(t) on the listed components",
      "boundary_conditions:\n  - {region: xmax, type: displacement, components: [x], value: "
      "[0.001]}"},
     true,
     motion_keys,
     parse_motion,
     resolve_displacement,
     describe_displacement},
    {{"acceleration",
      "prescribed (base) acceleration value x amplitude(t), integrated from rest: a record",
      "boundary_conditions:\n  - {region: xmax, type: acceleration, components: [x], value: "
      "[9.81]}"},
     true,
     motion_keys,
     parse_motion,
     resolve_acceleration,
     describe_acceleration},
    {{"traction", "force per area [tx, ty, tz] on a surface region",
      "boundary_conditions:\n  - {region: xmax, type: traction, value: [0, 0, -1.0e5]}"},
     false,
     load_keys,
     parse_vector_load,
     resolve_load<Load::Kind::traction, 2>,
     describe_traction},
    {{"pressure", "force per area along the inward normal of a surface region",
      "boundary_conditions:\n  - {region: xmax, type: pressure, value: 2.0e5}"},
     false,
     load_keys,
     parse_pressure,
     resolve_load<Load::Kind::pressure, 2>,
     describe_pressure},
    {{"force", "total force [fx, fy, fz] shared by the region's nodes",
      "boundary_conditions:\n  - {region: xmax, type: force, value: [0, -10, 0]}"},
     false,
     load_keys,
     parse_vector_load,
     resolve_load<Load::Kind::force, -1>,
     describe_force},
    {{"moment", "total moment [mx, my, mz] shared by the region's beam nodes (their rotations)",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, shape: "
      "{type: tube, diameter: 0.1, wall_thickness: 0.005}}\nboundary_conditions:\n  - {region: "
      "root, type: fixed}\n  - {region: tip, type: moment, value: [0, 0, 1000]}"},
     false,
     load_keys,
     parse_vector_load,
     resolve_load<Load::Kind::moment, -1>,
     describe_moment},
    {{"line_load", "force per length [qx, qy, qz] (global axes) on the beams of a line region",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, shape: "
      "{type: rectangle, width: 0.1, height: 0.2}}\nboundary_conditions:\n  - {region: root, "
      "type: fixed}\n  - {region: beam, type: line_load, value: [0, 0, -5000]}"},
     false,
     load_keys,
     parse_vector_load,
     resolve_load<Load::Kind::line_load, 1>,
     describe_line_load},
};

}  // namespace

Registry<ConditionType> condition_types() { return {"condition type", rows}; }

std::vector<std::string_view> condition_keys() {
  std::vector<std::string_view> keys;
  for (const auto& t : rows)
    for (const auto k : t.keys)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  return keys;
}

Amplitude ConditionEcho::amplitude_of(const std::string& name) const {
  if (!name.empty()) return make_amplitude(amplitudes->at(name));
  return ramped ? Amplitude::ramp(t_end) : Amplitude::constant();
}

std::string ConditionEcho::times(const std::string& name) const {
  if (!name.empty()) return cat(" x ", name, "(t)");
  return ramped ? cat(" x t/", six(t_end), " (the static ramp)") : std::string(" (constant)");
}

std::string ConditionEcho::peak(const std::string& name, double size, const char* unit) const {
  if (name.empty() && !ramped) return std::string();
  const auto p = amplitude_of(name).peak(0, t_end);
  return cat("; peak ", six(size * p.value), " ", unit, " at t = ", six(p.time), " s");
}

std::string component_names(const std::array<bool, 3>& on) {
  std::string names;
  for (int i = 0; i < 3; ++i)
    if (on[i]) names += cat(names.empty() ? "" : ", ", "xyz"[i]);
  return names;
}

std::string on_components(const std::array<double, 3>& x, const std::array<bool, 3>& on) {
  std::vector<double> picked;
  for (int i = 0; i < 3; ++i)
    if (on[i]) picked.push_back(x[i]);
  if (picked.size() == 1) return six(picked[0]);
  std::string text = "(";
  for (std::size_t i = 0; i < picked.size(); ++i) text += cat(i ? ", " : "", six(picked[i]));
  return text + ")";
}

double norm_on(const std::array<double, 3>& x, const std::array<bool, 3>& on) {
  double sum = 0;
  for (int i = 0; i < 3; ++i)
    if (on[i]) sum += x[i] * x[i];
  return std::sqrt(sum);
}

}  // namespace inertia
