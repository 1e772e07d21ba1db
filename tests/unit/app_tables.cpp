// The tables new physics and outputs are added to: the condition types (app/conditions.hpp) and
// the output fields (app/output_fields.hpp). Every row is checked the same way, so a new row is
// tested by being there: it parses, resolves, is listed by --help, and a misspelling is refused
// with a hint.

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {
namespace {

const std::string minimal_case =
    "mesh:\n"
    "  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}\n"
    "materials:\n"
    "  - {region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}\n"
    "time:\n"
    "  dt: 1.0e-4\n"
    "  steps: 10\n";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The message of the InputError parsing `text` throws (a test failure if none).
std::string parse_error(const std::string& text) {
  try {
    parse_case(text, "case.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError for:\n" << text;
  return {};
}

/// `inertia --help all` (every section), from the build's binary.
std::string help_text() {
  const std::string command = std::string(INERTIA_BINARY_DIR) + "/bin/inertia --help all";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {};
  std::string out;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  pclose(pipe);
  return out;
}

/// `entry` (YAML ending with a flow mapping "{...}") with `key: value` added before the closing
/// brace.
std::string with_key(std::string_view entry, const std::string& key, const std::string& value) {
  std::string e(entry);
  return e.substr(0, e.rfind('}')) + ", " + key + ": " + value + "}";
}

// ---- condition types ----

TEST(ConditionTypes, NamesAreUniqueAndEveryRowIsComplete) {
  std::set<std::string_view> names;
  for (const auto& t : condition_types()) {
    SCOPED_TRACE(std::string(t.name));
    EXPECT_TRUE(names.insert(t.name).second) << "a second row called " << t.name;
    EXPECT_FALSE(t.summary.empty());
    EXPECT_FALSE(t.example.empty());
    ASSERT_GE(t.keys.size(), 2u);
    EXPECT_EQ(t.keys[0], "region");
    EXPECT_EQ(t.keys[1], "type");
    EXPECT_TRUE(t.parse && t.resolve && t.describe);
    EXPECT_EQ(find_condition_type(t.name), &t);
    EXPECT_EQ(&condition_types()[condition_type_index(t)], &t);
  }
  EXPECT_EQ(find_condition_type("fixd"), nullptr);
}

TEST(ConditionTypes, EveryTypeParsesAndResolvesItsMinimalExample) {
  const std::vector<Region> regions{{"all", 3, 1}, {"xmax", 2, 2}};
  for (const auto& t : condition_types()) {
    SCOPED_TRACE(std::string(t.example));
    // The beams' types (moment, line_load) take their example's own beam mesh: unit.Examples
    // runs those; this box-region contract is for the others.
    if (t.example.find("mesh:") != std::string_view::npos) continue;
    const CaseFile c = parse_case(cat(minimal_case, t.example, "\n"), "case.yaml");
    ASSERT_EQ(c.boundary_conditions.size(), 1u);
    EXPECT_EQ(c.boundary_conditions[0].type, &t);
    EXPECT_EQ(c.boundary_conditions[0].region, "xmax");
    const ProblemSpec spec = resolve_problem(c, regions);
    EXPECT_EQ(spec.dirichlet.size(), t.prescribes_motion ? 1u : 0u);
    EXPECT_EQ(spec.loads.size(), t.prescribes_motion ? 0u : 1u);
    if (t.prescribes_motion) EXPECT_EQ(spec.dirichlet[0].region, 1);
    if (!t.prescribes_motion) EXPECT_EQ(spec.loads[0].region, 1);
  }
}

TEST(ConditionTypes, EveryTypeRefusesAnUnknownKeyAndHintsAMisspelledOne) {
  for (const auto& t : condition_types()) {
    SCOPED_TRACE(std::string(t.example));
    if (t.example.find("mesh:") != std::string_view::npos) continue;  // beams': see above
    const std::string unknown =
        parse_error(cat(minimal_case, with_key(t.example, "bogus", "1"), "\n"));
    EXPECT_TRUE(contains(unknown, "case.yaml:9: boundary_conditions[0]: unknown key 'bogus'"))
        << unknown;
    for (const auto key : t.keys) {
      if (key == "region" || key == "type") continue;
      const std::string typo(key.substr(0, key.size() - 1));  // "component", "valu"
      const std::string msg = parse_error(cat(minimal_case, with_key(t.example, typo, "1"), "\n"));
      EXPECT_TRUE(contains(msg, cat("unknown key '", typo, "'"))) << msg;
      EXPECT_TRUE(contains(msg, did_you_mean(typo, std::vector<std::string_view>{key}))) << msg;
    }
  }
  // A misspelled type: the hint and every registered type.
  const std::string msg =
      parse_error(minimal_case + "boundary_conditions:\n  - {region: face, type: tractoin}\n");
  EXPECT_TRUE(contains(msg, did_you_mean("tractoin", condition_type_names()))) << msg;
  EXPECT_TRUE(contains(msg, join(condition_type_names()))) << msg;
}

TEST(ConditionTypes, HelpListsEveryType) {
  const std::string help = help_text();
  ASSERT_TRUE(contains(help, "usage")) << "could not run inertia --help";
  for (const auto& t : condition_types())
    EXPECT_TRUE(contains(help, cat("  ", t.name, " ")) && contains(help, std::string(t.summary)))
        << t.name;
}

// ---- force terms ----

TEST(ForceTerms, HelpListsEveryKind) {
  const std::string help = help_text();
  ASSERT_TRUE(contains(help, "usage")) << "could not run inertia --help";
  ASSERT_FALSE(force_term_entries().empty());
  for (const auto& e : force_term_entries())
    EXPECT_TRUE(contains(help, cat("  ", e.name, " ")) && contains(help, std::string(e.summary)))
        << e.name;
}

// ---- output fields ----

TEST(OutputFields, NamesAreUniquePerKindAndRowsAreComplete) {
  for (const FieldKind kind : {FieldKind::frame, FieldKind::probe}) {
    std::set<std::string_view> names;
    for (const auto& f : output_fields()) {
      if (f.kind != kind) continue;
      SCOPED_TRACE(std::string(f.name));
      EXPECT_TRUE(names.insert(f.name).second) << "a second row called " << f.name;
      EXPECT_EQ(find_output_field(kind, f.name), &f);
      if (f.from_model) {  // named by the model's point states (OutputSeries, Probes fill it)
        EXPECT_EQ(f.components, 0);
        EXPECT_TRUE(f.columns.empty());
        if (kind == FieldKind::probe) EXPECT_EQ(f.location, FieldLocation::cell);
        EXPECT_TRUE(f.fill_frame == nullptr && f.fill_probe == nullptr);
        continue;
      }
      EXPECT_GE(f.components, 1);
      if (kind == FieldKind::frame) {
        EXPECT_TRUE(f.fill_frame != nullptr);
        EXPECT_FALSE(f.summary.empty());
        EXPECT_EQ(f.bytes(true), 8 * f.components);
        EXPECT_EQ(f.bytes(false), (f.integer ? 4 : 8) * f.components);
      } else {
        EXPECT_TRUE(f.fill_probe != nullptr);
        EXPECT_EQ(static_cast<int>(f.columns.size()), f.components);
      }
    }
    EXPECT_EQ(names.size(), output_field_names(kind).size());
  }
}

TEST(OutputFields, ValidationAcceptsEveryRowAndHintsAMisspelling) {
  for (const auto& f : output_fields()) {
    SCOPED_TRACE(std::string(f.name));
    const std::string name(f.name);
    const std::string typo = name.substr(0, name.size() - 1) + "x";  // "displacemenx"
    const std::string field =
        f.kind == FieldKind::frame
            ? cat("output:\n  fields: [", name, "]\n")
            : cat("output:\n  probes:\n    - {name: p, point: [0, 0, 0], fields: [", name, "]}\n");
    const CaseFile c = parse_case(minimal_case + field, "case.yaml");
    if (f.kind == FieldKind::frame) EXPECT_EQ(c.fields, std::vector<std::string>{name});
    if (f.kind == FieldKind::probe)
      EXPECT_EQ(c.probes.at(0).fields, std::vector<std::string>{name});
    std::string bad = field;
    bad.replace(bad.find(cat("[", name, "]")), name.size() + 2, cat("[", typo, "]"));
    const std::string msg = parse_error(minimal_case + bad);
    const auto names = output_field_names(f.kind);
    EXPECT_TRUE(contains(msg, cat("unknown value '", typo, "'"))) << msg;
    EXPECT_TRUE(contains(msg, did_you_mean(typo, names))) << msg;
    EXPECT_TRUE(contains(msg, join(names))) << msg;
  }
}

TEST(OutputFields, HelpListsEveryRow) {
  const std::string help = help_text();
  ASSERT_TRUE(contains(help, "usage")) << "could not run inertia --help";
  EXPECT_TRUE(contains(help, output_fields_help(FieldKind::frame)));
  for (const auto& f : output_fields()) EXPECT_TRUE(contains(help, std::string(f.name))) << f.name;
  EXPECT_TRUE(contains(help, join(output_field_names(FieldKind::probe))));
}

}  // namespace
}  // namespace inertia
