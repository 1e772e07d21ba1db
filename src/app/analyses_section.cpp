// analyses: the sequence of analyses of a case (app/analysis_sequence.hpp), read after time:.

#include <array>
#include <set>

#include "case_node.hpp"
#include "inertia/app/analysis_sequence.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

namespace {

using case_yaml::Node;

/// A name that can be a folder's: letters, digits, '_', '-', '.', not starting with '.'.
void check_analysis_name(const Node& at, const std::string& name, std::set<std::string>& names) {
  const bool plain = !name.empty() && name[0] != '.' && name.size() <= 64 &&
                     name.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-.") == std::string::npos;
  if (!plain)
    at.fail(
        "must be a name of letters, digits, '_', '-' and '.' (its outputs' folder), at most "
        "64 characters, not starting with '.'");
  if (name == "checkpoints") at.fail("'checkpoints' is the folder of the checkpoints");
  if (!names.insert(name).second) at.fail(cat("analysis '", name, "' is given twice"));
}

/// A static analysis: one equilibrium at its start (no end_time), or `steps` load steps to
/// end_time.
void read_static(const Node& e, CaseFile& c, CaseAnalysis& a) {
  e.expect_map({"name", "type", "end_time", "steps", "max_step_halvings"});
  a.scheme = configure_scheme("static");
  a.max_step_halvings = c.max_step_halvings;
  if (e.has("max_step_halvings"))
    a.max_step_halvings = static_cast<int>(e["max_step_halvings"].integer_in(0, 20));
  a.steps = e.has("steps") ? e["steps"].integer_in(1, 1000000) : 1;
  if (!e.has("end_time")) {
    if (a.steps > 1)
      e["steps"].fail(
          "load steps need an end_time to step to (without one, the analysis is one "
          "equilibrium at its start)");
    return;  // duration 0, dt 0: the equilibrium at start_time
  }
  a.duration = e["end_time"].positive() - a.start_time;
  if (!(a.duration > 0))
    e["end_time"].fail(cat("must be after the analysis's start, t = ", a.start_time, " s"));
  a.dt = a.dt_requested = a.duration / static_cast<double>(a.steps);
}

/// The time keys an analysis carries, between a CaseFile (the section as read; the analysis's
/// case) and a CaseAnalysis, which name them alike; the span (end_time, duration) is not one.
template <class From, class To>
void copy_time_keys(const From& from, To& to) {
  to.scheme = from.scheme;
  to.dt = from.dt;
  to.dt_requested = from.dt_requested;
  to.dt_auto = from.dt_auto;
  to.safety_factor = from.safety_factor;
  to.steps = from.steps;
  to.allow_unstable = from.allow_unstable;
  to.max_step_halvings = from.max_step_halvings;
  to.velocity_damping = from.velocity_damping;
}

/// A transient analysis: the time: keys of the entry over those of time:.
void read_transient(const Node& e, CaseFile& c, CaseAnalysis& a) {
  CaseFile keys = c;  // time:'s values, which the entry's override
  keys.end_time = 0;
  keys.steps = 0;
  keys.matrix_free = false;  // the model's operator, which parse_analyses checks per analysis
  case_yaml::parse_time(e, keys, case_yaml::TimeKeys::analysis, a.start_time);
  if (keys.scheme.kind() == SchemeKind::static_solve)
    e["integrator"].fail("a static analysis is an entry of its own: {name: ..., type: static}");
  if (keys.steps > 0 && keys.dt_auto)
    e.fail("steps with dt: auto leaves the analysis's end unknown until it runs: give end_time");
  copy_time_keys(keys, a);
  a.duration = keys.steps > 0 ? keys.dt * static_cast<double>(keys.steps) : keys.end_time;
  // The entry's warnings (a scheme section the analysis ignores), after the case's so far.
  for (std::size_t i = c.warnings.size(); i < keys.warnings.size(); ++i)
    c.warnings.push_back(keys.warnings[i]);
}

/// A modal analysis: the lowest `modes` modes about the state reached (the tangent's).
void read_modal(const Node& e, CaseFile& c, CaseAnalysis& a) {
  e.expect_map({"name", "type", "modes"});
  if (!e.has("modes")) e.fail("missing key 'modes'");
  a.modes = static_cast<int>(e["modes"].integer_in(1, 10000));
  if (c.term_sections.count("contact"))
    e.fail(
        "the model has contact (contact:), which a modal analysis cannot represent (the "
        "surfaces that touch would be glued)");
  if (c.term_sections.count("couplings"))
    e.fail(
        "the model has couplings (couplings:), which a modal analysis does not take yet (its "
        "operators would leave them out: a hinge where the coupling welds)");
}

constexpr std::array<AnalysisTypeEntry, 3> analysis_rows{{
    {{"static",
      "equilibrium: one at the current time (no end_time), or load steps to end_time; loads "
      "held, not ramped",
      "analyses:\n  - {name: gravity, type: static}"},
     CaseAnalysis::Type::static_solve,
     read_static},
    {{"transient",
      "a time integration from the state reached: time:'s keys, the entry's own override them",
      "analyses:\n  - {name: gravity, type: static}\n  - {name: shake, type: transient, "
      "integrator: newmark, dt: 1.0e-5, steps: 3}"},
     CaseAnalysis::Type::transient,
     read_transient},
    {{"modal",
      "the lowest modes about the state reached (a finite-strain model's tangent: the geometric "
      "stiffness of its preload)",
      "analyses:\n  - {name: gravity, type: static}\n  - {name: modes, type: modal, modes: 3}"},
     CaseAnalysis::Type::modal,
     read_modal},
}};

/// An analysis that solves with the model's stiffness: a static one, an implicit transient, and
/// a modal one (its shift-and-invert factorisation).
bool solves_with_stiffness(const CaseAnalysis& a) {
  return a.type != CaseAnalysis::Type::transient || !a.scheme.is_explicit();
}

}  // namespace

Registry<AnalysisTypeEntry> analysis_types() { return {"analysis type", analysis_rows}; }

ExplicitSteps explicit_steps(const CaseFile& c) {
  if (c.analyses.empty()) return {c.scheme.is_explicit(), c.scheme.is_explicit()};
  ExplicitSteps r{true, false};
  for (const CaseAnalysis& a : c.analyses) {
    if (a.type == CaseAnalysis::Type::modal) continue;
    r.only = r.only && a.scheme.is_explicit();
    r.some = r.some || a.scheme.is_explicit();
  }
  return r;
}

void case_yaml::parse_analyses(const Node& top, CaseFile& c) {
  const Node list = top["analyses"];
  list.expect_sequence();
  if (list.size() == 0) list.fail("expected a list of analyses ({name, type, ...})");
  for (const char* single : {"modal", "harmonic", "response_spectrum"})
    if (top.has(single))
      top[single].fail(std::string(single) == "modal"
                           ? "with analyses:, a modal analysis is an entry of the list: {name: "
                             "modes, type: modal, modes: N}"
                           : "is not part of a sequence of analyses yet: run it in a case of its "
                             "own");
  if (c.static_equilibrium)
    top["initial_conditions"]["static_equilibrium"].fail(
        "with analyses:, a static analysis first gives the equilibrium: {name: gravity, type: "
        "static}");
  if (!c.rayleigh_modes.empty())
    top["time"]["rayleigh"].fail(
        "damping at the modes of a modal analysis is not available with analyses: yet; give the "
        "damping ratios at two frequencies");
  std::set<std::string> names;
  double t = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Node e = list.at(i);
    if (!e.node.IsMap()) e.fail("expected a mapping {name, type, ...}");
    if (!e.has("name")) e.fail("missing key 'name'");
    if (!e.has("type")) e.fail("missing key 'type' (static, transient or modal)");
    CaseAnalysis a;
    a.name = e["name"].text();
    check_analysis_name(e["name"], a.name, names);
    const auto types = analysis_types();
    const AnalysisTypeEntry& type = types.at(e["type"].choice(types.names()));
    a.origin = {e.line(), cat("analyses[", i, "]")};
    a.start_time = t;
    a.type = type.type;
    type.read(e, c, a);
    if (c.matrix_free && solves_with_stiffness(a))
      e.fail(cat("time.operator: matrix_free has no assembled stiffness, which a ", type.name,
                 a.type == CaseAnalysis::Type::transient ? cat(" analysis under ", a.scheme.name())
                                                         : std::string(" analysis"),
                 " solves with; use operator: assembled"));
    t = a.start_time + a.duration;
    c.analyses.push_back(std::move(a));
  }
}

CaseFile analysis_case(const CaseFile& c, std::size_t k) {
  const CaseAnalysis& a = c.analyses.at(k);
  CaseFile r = c;
  r.analyses.clear();
  r.start_time = a.start_time;
  r.has_time = a.type != CaseAnalysis::Type::modal;
  r.modal_modes = a.type == CaseAnalysis::Type::modal ? a.modes : 0;
  r.static_equilibrium = false;
  copy_time_keys(a, r);
  r.end_time = a.duration;
  r.in_sequence = true;
  r.sequence_end = c.analyses.back().start_time + c.analyses.back().duration;
  // A static analysis's loads are held (not ramped from zero as in a static run of its own):
  // the work of a load applied at once is not the energy it stores, so there is no balance.
  if (a.type == CaseAnalysis::Type::static_solve) r.energy = false;
  r.output_directory = c.output_directory / a.name;
  r.checkpoint_directory = c.checkpoint_directory == c.output_directory / "checkpoints"
                               ? r.output_directory / "checkpoints"
                               : c.checkpoint_directory / a.name;
  return r;
}

}  // namespace inertia
