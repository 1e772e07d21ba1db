#pragma once
/// \file conditions.hpp
/// The types of `boundary_conditions` entries (fixed, displacement, acceleration, traction,
/// pressure, force), one row each in a registry like the schemes' (time/scheme.hpp).
///
/// A condition type is one row of the registry in src/app/conditions.cpp plus its three
/// functions there: parse (its keys, validated, into a CaseBoundaryCondition), resolve (into the
/// ProblemSpec's DirichletCondition or Load) and describe (its line in the log). The case-file
/// parser, resolve_problem, the log, the reactions, the fingerprint and --help ask the registry;
/// nothing else compares condition type names.

#include <array>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/core/registry.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {

namespace case_yaml {
struct Node;
}

/// What resolve functions need besides the condition: the region lookup (with the case key
/// for messages, and the dimension the region must have, -1 for any), the index in
/// spec.amplitudes of an amplitude name (a defined one: its position in c.amplitudes; empty: the
/// constant, or the static ramp under `static`), and the case.
struct ConditionResolver {
  const CaseFile& c;
  std::function<int(const std::string& region, const Origin& origin, int want_dim)> region;
  std::function<int(const std::string& amplitude)> amplitude;
};

/// What describe functions need for the log line: the run's end time, and how an amplitude
/// name reads in the log.
struct ConditionEcho {
  double t_end = 0;
  bool ramped = false;  ///< under `static`: no amplitude means the ramp over the run
  const std::map<std::string, CaseAmplitude>* amplitudes = nullptr;
  /// For conditions that prescribe motion: the resolved DirichletCondition's amplitude (the
  /// system's own, e.g. an acceleration's double integral); null otherwise.
  const Amplitude* motion = nullptr;

  /// A condition's time function: its amplitude, else constant (the static ramp under static).
  Amplitude amplitude_of(const std::string& name) const;
  /// " x name(t)", " x t/T (the static ramp)" or " (constant)".
  std::string times(const std::string& name) const;
  /// "; peak <size x peak> <unit> at t = <t> s", or nothing for a constant.
  std::string peak(const std::string& name, double size, const char* unit) const;
};

/// One registered condition type: its name is the `type:` value, its example a
/// `boundary_conditions:` block with one entry of the type on region xmax, a surface (the unit
/// tests parse and resolve it).
struct ConditionType : EntryInfo {
  /// Prescribes motion (a DirichletCondition: reactions, constraint overlaps) rather than a load.
  bool prescribes_motion = false;
  /// The keys an entry of this type allows (region and type first), in the order messages list
  /// them.
  std::span<const std::string_view> keys;
  /// Reads the entry's keys other than region, type and amplitude (which the caller reads);
  /// fails with the case file's messages.
  void (*parse)(const case_yaml::Node& entry, CaseBoundaryCondition& bc) = nullptr;
  /// Adds the condition to the ProblemSpec (a DirichletCondition or a Load).
  void (*resolve)(const ConditionResolver& r, const CaseBoundaryCondition& bc,
                  ProblemSpec& spec) = nullptr;
  /// The log line after "condition <key>: " (no newline).
  std::string (*describe)(const ConditionEcho& e, const CaseBoundaryCondition& bc) = nullptr;
};

/// Every registered condition type, in the order --help lists them. A type's position
/// (condition_types().index(type)) is part of the model's fingerprint (checkpoints): new types go
/// at the end.
Registry<ConditionType> condition_types();
/// The registered condition type called `name`, or null.
inline const ConditionType* find_condition_type(std::string_view name) {
  return condition_types().find(name);
}
/// Names of the registered condition types, in registration order.
inline std::vector<std::string_view> condition_type_names() { return condition_types().names(); }
/// The keys any type allows, in registration order (the first check of an entry).
std::vector<std::string_view> condition_keys();
/// The position of `type` in condition_types().
inline int condition_type_index(const ConditionType& type) {
  return static_cast<int>(condition_types().index(type));
}

/// "x", "y, z": the components a condition acts on.
std::string component_names(const std::array<bool, 3>& on);
/// A condition's vector on its components: "9.81" for one, "(0.01, 0, 0)" for more.
std::string on_components(const std::array<double, 3>& x, const std::array<bool, 3>& on);
/// The Euclidean norm of x on the components.
double norm_on(const std::array<double, 3>& x, const std::array<bool, 3>& on);

}  // namespace inertia
