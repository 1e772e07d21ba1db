// The case-file parser and validator (app/case_file.hpp) against the manual's "The case file"
// (examples/guide/case_file.md): its annotated case, examples/case_file.yaml, parses into the
// expected typed values and the manual shows that file as it is; every kind of bad input is an
// InputError of one line that names the file, the line, the key path and, for unknown names, a
// did-you-mean hint.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <regex>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/time/alpha_schemes.hpp"
#include "inertia/time/newmark.hpp"

namespace inertia {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A minimal valid case; tests replace or append pieces of it.
const std::string mesh_box =
    "mesh:\n"
    "  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}\n";
const std::string materials_all =
    "materials:\n"
    "  - {region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}\n";
const std::string time_newmark =
    "time:\n"
    "  dt: 1.0e-4\n"
    "  steps: 10\n";

std::string minimal_case() { return mesh_box + materials_all + time_newmark; }

/// Parses text expecting an InputError; returns its message (empty and a test failure otherwise).
std::string parse_error(const std::string& text, const fs::path& file = "case.yaml") {
  try {
    parse_case(text, file);
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected an InputError, got another exception: " << e.what();
    return e.what();
  } catch (...) {
    ADD_FAILURE() << "expected an InputError, got a non-standard exception";
    return {};
  }
  ADD_FAILURE() << "expected an InputError for:\n" << text;
  return {};
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

/// The contract of every message: one line, "<file>:<line>: ..." with the given line, the key
/// path and each of the extra fragments.
void expect_message(const std::string& msg, int line, const std::string& key,
                    const std::vector<std::string>& fragments = {},
                    const std::string& file = "case.yaml") {
  SCOPED_TRACE("message: " + msg);
  EXPECT_FALSE(msg.empty());
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "the message must be a single line";
  EXPECT_EQ(msg.find('\r'), std::string::npos) << "the message must be a single line";
  EXPECT_TRUE(contains(msg, file)) << "the message must name the file " << file;
  if (line > 0) {
    EXPECT_TRUE(contains(msg, file + ":" + std::to_string(line) + ":"))
        << "the message must give line " << line;
  }
  if (!key.empty()) {
    EXPECT_TRUE(contains(msg, key)) << "the message must name the key " << key;
  }
  for (const auto& f : fragments) EXPECT_TRUE(contains(msg, f)) << "missing '" << f << "'";
}

std::string did_you_mean(const std::string& word) { return "did you mean '" + word + "'"; }

/// Regions as the box generator defines them.
std::vector<Region> box_regions() {
  return {{"all", 3, 1},  {"xmin", 2, 2}, {"xmax", 2, 3}, {"ymin", 2, 4},
          {"ymax", 2, 5}, {"zmin", 2, 6}, {"zmax", 2, 7}};
}

// ---------------------------------------------------------------------------------------------
// Valid input
// ---------------------------------------------------------------------------------------------

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The 1-based line of `text` that starts with `start` (0: none).
int line_starting(const std::string& text, const std::string& start) {
  int line = 1;
  for (std::size_t pos = 0; pos < text.size(); ++line) {
    if (text.compare(pos, start.size(), start) == 0) return line;
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return 0;
}

/// The manual's annotated case: every key of the case file (examples/guide/case_file.md shows it).
const fs::path reference_case = fs::path(INERTIA_SOURCE_DIR) / "examples" / "case_file.yaml";

TEST(CaseFile, ReferenceCaseParsesIntoTypedValues) {
  const std::string text = read_text(reference_case);
  ASSERT_FALSE(text.empty());
  // Its record (quake.csv, in g) is not in the repository: a reader stands in for the file.
  std::vector<fs::path> asked;
  const AmplitudeFileReader reader = [&asked](const fs::path& path, RecordFormat format, double dt,
                                              std::string_view) {
    asked.push_back(path);
    EXPECT_EQ(format, RecordFormat::table);
    EXPECT_EQ(dt, 0);
    AmplitudeTable table;
    table.points = {{0, 0}, {0.01, 0.5}, {0.02, -0.25}};
    table.read.rows = 3;
    return table;
  };
  const CaseFile c = parse_case(text, reference_case, reader);
  EXPECT_EQ(c.directory, reference_case.parent_path());
  EXPECT_EQ(c.name, "case_file");
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0].lexically_normal(), (c.directory / "quake.csv").lexically_normal());

  // mesh
  ASSERT_TRUE(c.mesh_file.has_value());
  EXPECT_EQ(c.mesh_file->lexically_normal(), (c.directory / "beam.msh").lexically_normal());
  EXPECT_FALSE(c.box.has_value());
  EXPECT_EQ(c.partitioner, Partitioner::metis);

  // materials
  ASSERT_EQ(c.materials.size(), 1u);
  EXPECT_EQ(c.materials[0].region, "beam");
  EXPECT_EQ(c.materials[0].model, "linear_elastic");
  EXPECT_DOUBLE_EQ(c.materials[0].material.density, 2700);
  EXPECT_DOUBLE_EQ(c.materials[0].material.elastic().youngs_modulus, 7.0e10);
  EXPECT_DOUBLE_EQ(c.materials[0].material.elastic().poissons_ratio, 0.3);
  EXPECT_EQ(c.materials[0].origin.line, line_starting(text, "  - {region: beam,"));
  EXPECT_EQ(c.materials[0].origin.key, "materials[0]");

  // boundary conditions
  const auto& bc = c.boundary_conditions;
  ASSERT_EQ(bc.size(), 7u);
  EXPECT_EQ(bc[0].type->name, "fixed");
  EXPECT_EQ(bc[0].region, "clamp");
  EXPECT_EQ(bc[0].components, (std::array<bool, 3>{true, true, true}));
  EXPECT_EQ(bc[0].value, (std::array<double, 3>{0, 0, 0}));
  EXPECT_TRUE(bc[0].amplitude.empty());
  EXPECT_EQ(bc[0].origin.line, line_starting(text, "  - {region: clamp,"));
  EXPECT_EQ(bc[0].origin.key, "boundary_conditions[0]");

  EXPECT_EQ(bc[1].type->name, "fixed");
  EXPECT_EQ(bc[1].region, "slider");
  EXPECT_EQ(bc[1].components, (std::array<bool, 3>{false, true, true}));

  EXPECT_EQ(bc[2].type->name, "traction");
  EXPECT_EQ(bc[2].region, "tip");
  EXPECT_EQ(bc[2].value, (std::array<double, 3>{0, 0, -1.0e5}));
  EXPECT_EQ(bc[2].amplitude, "pulse");

  EXPECT_EQ(bc[3].type->name, "pressure");
  EXPECT_EQ(bc[3].region, "top");
  EXPECT_DOUBLE_EQ(bc[3].value[0], 2.0e5);
  EXPECT_TRUE(bc[3].amplitude.empty());

  EXPECT_EQ(bc[4].type->name, "force");
  EXPECT_EQ(bc[4].region, "load_pt");
  EXPECT_EQ(bc[4].value, (std::array<double, 3>{0, -10, 0}));

  EXPECT_EQ(bc[5].type->name, "displacement");
  EXPECT_EQ(bc[5].region, "base");
  EXPECT_EQ(bc[5].components, (std::array<bool, 3>{true, false, false}));
  EXPECT_DOUBLE_EQ(bc[5].value[0], 0.001);
  EXPECT_EQ(bc[5].amplitude, "shake");

  EXPECT_EQ(bc[6].type->name, "acceleration");
  EXPECT_EQ(bc[6].region, "ground");
  EXPECT_EQ(bc[6].components, (std::array<bool, 3>{true, false, false}));
  EXPECT_DOUBLE_EQ(bc[6].value[0], 1);
  EXPECT_EQ(bc[6].amplitude, "quake");

  // amplitudes
  ASSERT_EQ(c.amplitudes.size(), 4u);
  const auto& pulse = c.amplitudes.at("pulse");
  EXPECT_EQ(pulse.type, CaseAmplitude::Type::table);
  ASSERT_EQ(pulse.points.size(), 3u);
  EXPECT_DOUBLE_EQ(pulse.points[1].first, 0.001);
  EXPECT_DOUBLE_EQ(pulse.points[1].second, 1);
  EXPECT_DOUBLE_EQ(pulse.points[2].first, 0.002);
  EXPECT_DOUBLE_EQ(pulse.points[2].second, 0);
  const auto& shake = c.amplitudes.at("shake");
  EXPECT_EQ(shake.type, CaseAmplitude::Type::sine);
  EXPECT_DOUBLE_EQ(shake.frequency, 50.0);
  EXPECT_DOUBLE_EQ(shake.phase, 0.0);
  const auto& press = c.amplitudes.at("press");
  EXPECT_EQ(press.type, CaseAmplitude::Type::smooth_step);
  ASSERT_EQ(press.points.size(), 2u);
  EXPECT_DOUBLE_EQ(press.points[1].first, 0.02);
  EXPECT_DOUBLE_EQ(press.points[1].second, 1);
  EXPECT_EQ(press.continuity, 2);
  const auto& quake = c.amplitudes.at("quake");
  EXPECT_EQ(quake.type, CaseAmplitude::Type::table);
  EXPECT_EQ(quake.file, "quake.csv");
  EXPECT_EQ(quake.units, "g");
  ASSERT_EQ(quake.points.size(), 3u);  // the values in g, converted to m/s^2
  EXPECT_DOUBLE_EQ(quake.points[1].first, 0.01);
  EXPECT_DOUBLE_EQ(quake.points[1].second, 0.5 * 9.80665);
  EXPECT_DOUBLE_EQ(quake.points[2].second, -0.25 * 9.80665);

  // gravity, initial conditions, modal
  ASSERT_TRUE(c.gravity.has_value());
  EXPECT_EQ(*c.gravity, (std::array<double, 3>{0, 0, -9.81}));
  EXPECT_TRUE(c.gravity_amplitude.empty());
  ASSERT_EQ(c.initial_velocity.size(), 1u);
  EXPECT_TRUE(c.initial_velocity[0].region.empty());
  EXPECT_EQ(c.initial_velocity[0].value, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(c.modal_modes, 6);
  EXPECT_TRUE(c.has_time);
  EXPECT_FALSE(c.response_spectrum.enabled);
  EXPECT_FALSE(c.harmonic.enabled);

  // time: the sections of the schemes that do not run are read, and each is a warning
  EXPECT_EQ(c.scheme.name(), "newmark");
  EXPECT_DOUBLE_EQ(c.scheme.params<NewmarkParams>().beta, 0.25);
  EXPECT_DOUBLE_EQ(c.scheme.params<NewmarkParams>().gamma, 0.5);
  for (const char* unused : {"time.hht", "time.generalized_alpha", "time.euler_implicit",
                             "time.variational_symplectic", "time.central_difference"}) {
    int count = 0;
    std::string all;
    for (const auto& w : c.warnings) {
      count += contains(w, unused) ? 1 : 0;
      all += w + "\n";
    }
    EXPECT_EQ(count, 1) << unused << " is not named by one warning of:\n" << all;
  }
  EXPECT_DOUBLE_EQ(c.dt, 1.0e-4);
  EXPECT_FALSE(c.dt_auto);
  EXPECT_FALSE(c.allow_unstable);
  EXPECT_DOUBLE_EQ(c.end_time, 0.03);
  EXPECT_EQ(c.steps, 0);
  EXPECT_EQ(c.num_steps(), 300);
  EXPECT_EQ(c.mass, MassTreatment::consistent);
  EXPECT_DOUBLE_EQ(c.rayleigh.mass, 0);
  EXPECT_DOUBLE_EQ(c.rayleigh.stiffness, 0);
  EXPECT_TRUE(c.rayleigh_targets.empty());
  EXPECT_DOUBLE_EQ(c.velocity_damping, 0);
  EXPECT_FALSE(c.matrix_free);
  EXPECT_EQ(c.linear_solver, LinearSolverChoice::automatic);
  EXPECT_EQ(c.max_step_halvings, 3);

  // output
  EXPECT_EQ(c.output_directory.lexically_normal(), (c.directory / "out").lexically_normal());
  EXPECT_EQ(c.output_format, OutputFormat::vtu);
  EXPECT_EQ(c.output_every, 10);
  EXPECT_EQ(c.output_interval, 0);
  EXPECT_EQ(c.history_every, 1);
  EXPECT_EQ(c.fields,
            (std::vector<std::string>{"displacement", "velocity", "acceleration", "von_mises",
                                      "stress", "strain", "rank", "region"}));
  ASSERT_EQ(c.probes.size(), 2u);
  EXPECT_EQ(c.probes[0].name, "tip");
  EXPECT_EQ(c.probes[0].point, (std::array<double, 3>{1.0, 0.05, 0.05}));
  EXPECT_EQ(c.probes[0].fields, (std::vector<std::string>{"displacement", "velocity"}));
  EXPECT_EQ(c.probes[1].name, "root");
  EXPECT_EQ(c.probes[1].point, (std::array<double, 3>{0.1, 0.05, 0.1}));
  EXPECT_EQ(c.probes[1].fields, (std::vector<std::string>{"stress", "von_mises"}));
  EXPECT_TRUE(c.energy);
  EXPECT_TRUE(c.reactions);
  ASSERT_EQ(c.sections.size(), 1u);
  EXPECT_EQ(c.sections[0].name, "storey1");
  EXPECT_EQ(c.sections[0].point, (std::array<double, 3>{0, 0, 3}));
  EXPECT_EQ(c.sections[0].normal, (std::array<double, 3>{0, 0, 1}));
  ASSERT_EQ(c.drifts.size(), 1u);
  EXPECT_EQ(c.drifts[0].name, "tower");
  EXPECT_EQ(c.drifts[0].point, (std::array<double, 2>{0.2, 0.2}));
  EXPECT_EQ(c.drifts[0].levels, (std::vector<double>{0, 3, 6}));
  EXPECT_EQ(c.checkpoint_every, 100);
  EXPECT_EQ(c.checkpoint_keep, 2);

  EXPECT_EQ(c.petsc_options, "-ksp_type cg -pc_type gamg");
}

/// The blocks of a Markdown file that follow a line `<!-- shows PATH -->`: (PATH, the block's text
/// between its fences).
std::vector<std::pair<std::string, std::string>> shown_files(const std::string& markdown) {
  std::vector<std::pair<std::string, std::string>> shown;
  const std::regex marker(R"(<!-- shows (\S+) -->\n+```[a-z]*\n)");
  for (auto it = std::sregex_iterator(markdown.begin(), markdown.end(), marker);
       it != std::sregex_iterator(); ++it) {
    const std::size_t begin = it->position() + it->length();
    const std::size_t end = markdown.find("\n```", begin - 1);
    if (end == std::string::npos) break;
    shown.emplace_back((*it)[1].str(), markdown.substr(begin, end + 1 - begin));
  }
  return shown;
}

TEST(CaseFile, TheManualShowsItsCaseFilesAsTheyAre) {
  const fs::path root(INERTIA_SOURCE_DIR);
  std::vector<std::string> shown;
  for (const fs::path& md : {root / "README.md", root / "examples" / "guide" / "case_file.md"}) {
    for (const auto& [path, block] : shown_files(read_text(md))) {
      SCOPED_TRACE(md.string() + " shows " + path);
      EXPECT_EQ(block, read_text(root / path)) << "the manual's copy differs from the file";
      shown.push_back(path);
    }
  }
  EXPECT_NE(std::find(shown.begin(), shown.end(), "examples/case_file.yaml"), shown.end());
  EXPECT_NE(std::find(shown.begin(), shown.end(), "examples/cantilever/cantilever.yaml"),
            shown.end());
}

/// Values other than the defaults reach their fields (the annotated case mostly shows defaults).
TEST(CaseFile, NonDefaultValuesReachTheirFields) {
  const std::string text = R"(mesh:
  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}
  partitioner: block
materials:
  - {region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: displacement, components: [z, x], value: [3, 4], amplitude: shake}
amplitudes:
  shake: {type: sine, frequency: 50.0, phase: 0.25}
initial_conditions:
  velocity: [1, 2, 3]
time:
  integrator: newmark
  newmark: {beta: 0.3025, gamma: 0.6}
  dt: 1.0e-4
  end_time: 0.03
  mass: lumped
  rayleigh: {mass: 0.5, stiffness: 1.0e-6}
  velocity_damping: 0.1
output:
  directory: out/beam
  every: 5
  fields: [displacement, von_mises, region]
  probes:
    - {name: tip, point: [1.0, 0.05, 0.05]}
    - {name: mid, point: [0.5, 0.05, 0.05]}
  energy: false
)";
  const CaseFile c = parse_case(text, "cases/beam.yaml");
  EXPECT_EQ(c.path, fs::path("cases/beam.yaml"));
  EXPECT_EQ(c.directory, fs::path("cases"));
  EXPECT_EQ(c.name, "beam");
  EXPECT_EQ(c.partitioner, Partitioner::block);

  // Values go to their components, whatever the order in which the components are listed.
  ASSERT_EQ(c.boundary_conditions.size(), 1u);
  EXPECT_EQ(c.boundary_conditions[0].components, (std::array<bool, 3>{true, false, true}));
  EXPECT_DOUBLE_EQ(c.boundary_conditions[0].value[0], 4);
  EXPECT_DOUBLE_EQ(c.boundary_conditions[0].value[2], 3);
  EXPECT_DOUBLE_EQ(c.amplitudes.at("shake").phase, 0.25);

  ASSERT_EQ(c.initial_velocity.size(), 1u);
  EXPECT_EQ(c.initial_velocity[0].value, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(c.mass, MassTreatment::lumped);
  EXPECT_DOUBLE_EQ(c.rayleigh.mass, 0.5);
  EXPECT_DOUBLE_EQ(c.rayleigh.stiffness, 1.0e-6);
  EXPECT_DOUBLE_EQ(c.velocity_damping, 0.1);
  EXPECT_DOUBLE_EQ(c.scheme.params<NewmarkParams>().beta, 0.3025);
  EXPECT_DOUBLE_EQ(c.scheme.params<NewmarkParams>().gamma, 0.6);

  EXPECT_EQ(c.output_directory.lexically_normal(), fs::path("cases/out/beam"));
  EXPECT_EQ(c.output_every, 5);
  EXPECT_EQ(c.fields, (std::vector<std::string>{"displacement", "von_mises", "region"}));
  EXPECT_TRUE(c.has_field("von_mises"));
  EXPECT_FALSE(c.has_field("velocity"));
  ASSERT_EQ(c.probes.size(), 2u);
  EXPECT_EQ(c.probes[1].name, "mid");
  EXPECT_FALSE(c.energy);
}

TEST(CaseFile, DefaultsOfAMinimalCase) {
  const CaseFile c = parse_case(minimal_case(), "case.yaml");
  ASSERT_TRUE(c.box.has_value());
  EXPECT_FALSE(c.mesh_file.has_value());
  EXPECT_EQ(c.box->lower, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(c.box->upper, (std::array<double, 3>{1, 0.1, 0.1}));
  EXPECT_EQ(c.box->cells, (std::array<std::int64_t, 3>{4, 1, 1}));
  EXPECT_EQ(c.box->element, CellType::hex8);
  EXPECT_EQ(c.partitioner, Partitioner::metis);  // the spec's default
  EXPECT_EQ(c.scheme.name(), "newmark");
  EXPECT_EQ(c.steps, 10);
  EXPECT_EQ(c.num_steps(), 10);
  EXPECT_DOUBLE_EQ(c.scheme.params<NewmarkParams>().beta, 0.25);
  EXPECT_DOUBLE_EQ(c.scheme.params<NewmarkParams>().gamma, 0.5);
  EXPECT_EQ(c.mass, MassTreatment::consistent);
  EXPECT_DOUBLE_EQ(c.rayleigh.mass, 0);
  EXPECT_DOUBLE_EQ(c.rayleigh.stiffness, 0);
  EXPECT_TRUE(c.boundary_conditions.empty());
  EXPECT_FALSE(c.gravity.has_value());
  EXPECT_TRUE(c.initial_velocity.empty());
  EXPECT_TRUE(c.energy);
  EXPECT_TRUE(c.probes.empty());
  EXPECT_GE(c.output_every, 0);
  EXPECT_TRUE(c.petsc_options.empty());
  // The default output directory lies in the case folder.
  EXPECT_EQ(c.output_directory.lexically_normal().begin()->string(), "out");
}

TEST(CaseFile, MeshFileIsRelativeToTheCaseFolder) {
  const std::string rest = materials_all + time_newmark;
  {
    const CaseFile c = parse_case("mesh: {file: beam.msh}\n" + rest, "case.yaml");
    ASSERT_TRUE(c.mesh_file);
    EXPECT_EQ(c.mesh_file->lexically_normal(), fs::path("beam.msh"));
  }
  {
    const CaseFile c = parse_case("mesh: {file: ../meshes/beam.msh}\n" + rest, "/a/b/case.yaml");
    ASSERT_TRUE(c.mesh_file);
    EXPECT_EQ(c.mesh_file->lexically_normal(), fs::path("/a/meshes/beam.msh"));
    EXPECT_EQ(c.output_directory.lexically_normal(), fs::path("/a/b/out/case"));
  }
  {
    const CaseFile c = parse_case("mesh: {file: /abs/beam.msh}\n" + rest, "/a/b/case.yaml");
    ASSERT_TRUE(c.mesh_file);
    EXPECT_EQ(*c.mesh_file, fs::path("/abs/beam.msh"));
  }
}

TEST(CaseFile, BoxElementsAndPartitioners) {
  const std::string rest = materials_all + time_newmark;
  for (auto [name, type] :
       {std::pair{"hex8", CellType::hex8}, {"tet4", CellType::tet4}, {"tet10", CellType::tet10}}) {
    const CaseFile c =
        parse_case(std::string("mesh:\n  box: {upper: [2, 1, 1], cells: [2, 3, 4], element: ") +
                       name + "}\n  partitioner: metis\n" + rest,
                   "case.yaml");
    ASSERT_TRUE(c.box);
    EXPECT_EQ(c.box->element, type);
    EXPECT_EQ(c.box->cells, (std::array<std::int64_t, 3>{2, 3, 4}));
    EXPECT_EQ(c.partitioner, Partitioner::metis);
  }
}

TEST(CaseFile, GravityWithAmplitudeAndInitialVelocityPerRegion) {
  const CaseFile c = parse_case(minimal_case() +
                                    "amplitudes:\n"
                                    "  ramp: {type: table, points: [[0, 0], [1, 1]]}\n"
                                    "gravity: {value: [0, -9.81, 0], amplitude: ramp}\n"
                                    "initial_conditions:\n"
                                    "  velocity:\n"
                                    "    - {region: all, velocity: [1, 0, 0]}\n"
                                    "    - {region: xmax, velocity: [0, 0, 2]}\n",
                                "case.yaml");
  ASSERT_TRUE(c.gravity);
  EXPECT_EQ(*c.gravity, (std::array<double, 3>{0, -9.81, 0}));
  EXPECT_EQ(c.gravity_amplitude, "ramp");
  ASSERT_EQ(c.initial_velocity.size(), 2u);
  EXPECT_EQ(c.initial_velocity[0].region, "all");
  EXPECT_EQ(c.initial_velocity[0].value, (std::array<double, 3>{1, 0, 0}));
  EXPECT_EQ(c.initial_velocity[1].region, "xmax");
  EXPECT_EQ(c.initial_velocity[1].value, (std::array<double, 3>{0, 0, 2}));
}

TEST(CaseFile, StepsFromEndTimeRoundToTheNearestInteger) {
  const CaseFile c =
      parse_case(mesh_box + materials_all + "time: {dt: 0.1, end_time: 0.3}\n", "case.yaml");
  EXPECT_EQ(c.num_steps(), 3);  // 0.3 / 0.1 = 2.9999999999999996
}

TEST(CaseFile, ADtThatDoesNotDivideEndTimeIsShortenedToEndExactlyThere) {
  // 0.3 / 0.07 = 4.29 steps: 5 equal steps of 0.06, none longer than the given 0.07 (today's
  // nearest-integer rounding ran 4 steps of 0.07, to t = 0.28).
  const CaseFile c =
      parse_case(mesh_box + materials_all + "time: {dt: 0.07, end_time: 0.3}\n", "case.yaml");
  EXPECT_EQ(c.dt_requested, 0.07);
  EXPECT_EQ(c.num_steps(), 5);
  EXPECT_EQ(c.dt, 0.3 / 5);  // one division: the same bits wherever it is computed
  EXPECT_NEAR(c.dt * static_cast<double>(c.num_steps()), 0.3, 1e-16);
  // A dt that divides end_time (to 1e-9 relative) is kept as written, bit for bit.
  const CaseFile d =
      parse_case(mesh_box + materials_all + "time: {dt: 0.1, end_time: 0.3}\n", "case.yaml");
  EXPECT_EQ(d.dt, 0.1);
  EXPECT_EQ(d.num_steps(), 3);
  // `steps:` runs the given dt that many times, as before.
  const CaseFile e =
      parse_case(mesh_box + materials_all + "time: {dt: 0.07, steps: 4}\n", "case.yaml");
  EXPECT_EQ(e.dt, 0.07);
  EXPECT_EQ(e.num_steps(), 4);
}

TEST(CaseFile, StepsToEndTimeAreEqualAndNoLongerThanTheLimit) {
  const StepsToEndTime whole = steps_to_end_time(0.03, 2.0e-4);
  EXPECT_EQ(whole.steps, 150);
  EXPECT_EQ(whole.dt, 2.0e-4);
  const StepsToEndTime near_whole = steps_to_end_time(1.0, 0.1 * (1 + 5e-10));  // 1e-9 to 10
  EXPECT_EQ(near_whole.steps, 10);
  EXPECT_EQ(near_whole.dt, 0.1 * (1 + 5e-10));
  const StepsToEndTime beyond = steps_to_end_time(1.0, 0.1 * (1 - 2e-9));  // 10.00000002 steps
  EXPECT_EQ(beyond.steps, 11);
  EXPECT_EQ(beyond.dt, 1.0 / 11);
  const StepsToEndTime longer = steps_to_end_time(0.002, 0.01);  // one step, of end_time
  EXPECT_EQ(longer.steps, 1);
  EXPECT_EQ(longer.dt, 0.002);
  const StepsToEndTime auto_step = steps_to_end_time(0.006, 0.9 * 7.17e-7);  // 9298.0009 steps
  EXPECT_EQ(auto_step.steps, 9299);
  EXPECT_LE(auto_step.dt, 0.9 * 7.17e-7);
  EXPECT_NEAR(auto_step.dt * 9299, 0.006, 2e-18);
}

TEST(CaseFile, PetscOptionsAndOutputEveryZero) {
  const CaseFile c = parse_case(minimal_case() +
                                    "output: {every: 0, fields: [], energy: true}\n"
                                    "petsc: \"-ksp_type gmres -ksp_rtol 1e-12\"\n",
                                "case.yaml");
  EXPECT_EQ(c.output_every, 0);
  EXPECT_TRUE(c.fields.empty());
  EXPECT_EQ(c.petsc_options, "-ksp_type gmres -ksp_rtol 1e-12");
}

// ---------------------------------------------------------------------------------------------
// Unknown keys
// ---------------------------------------------------------------------------------------------

TEST(CaseFileErrors, UnknownTopLevelKey) {
  const auto msg = parse_error(minimal_case() + "gravty: [0, 0, -9.81]\n");
  expect_message(msg, 8, "gravty", {"unknown key", did_you_mean("gravity")});
}

TEST(CaseFileErrors, UnknownTopLevelKeyWithoutNearMatchStillErrors) {
  const auto msg = parse_error(minimal_case() + "frobnicate: 3\n");
  expect_message(msg, 8, "frobnicate", {"unknown key"});
}

TEST(CaseFileErrors, UnknownMaterialKey) {
  const auto msg = parse_error(mesh_box +
                               "materials:\n"
                               "  - region: all\n"
                               "    densty: 2700\n"
                               "    youngs_modulus: 7.0e10\n"
                               "    poissons_ratio: 0.3\n" +
                               time_newmark);
  expect_message(msg, 5, "materials[0]", {"densty", did_you_mean("density")});
}

TEST(CaseFileErrors, UnknownNestedKeysEverywhere) {
  struct Case {
    std::string text;
    int line;
    std::string key, word, hint;
  };
  const std::vector<Case> cases{
      {"mesh:\n  box: {upper: [1, 1, 1], cells: [1, 1, 1], elemnt: hex8}\n" + materials_all +
           time_newmark,
       2, "mesh.box", "elemnt", "element"},
      {"mesh:\n  fille: beam.msh\n" + materials_all + time_newmark, 2, "mesh", "fille", "file"},
      {mesh_box + materials_all + "time:\n  dt: 1.0e-4\n  steps: 10\n  integrater: newmark\n", 8,
       "time", "integrater", "integrator"},
      {mesh_box + materials_all + "time:\n  dt: 1.0e-4\n  steps: 10\n  newmark: {betta: 0.25}\n", 8,
       "time.newmark", "betta", "beta"},
      {mesh_box + materials_all + "time:\n  dt: 1.0e-4\n  steps: 10\n  rayleigh: {stifness: 0}\n",
       8, "time.rayleigh", "stifness", "stiffness"},
      {minimal_case() + "output:\n  directory: out\n  probe: []\n", 10, "output", "probe",
       "probes"},
      {minimal_case() + "output:\n  probes:\n    - {name: a, piont: [0, 0, 0]}\n", 10,
       "output.probes[0]", "piont", "point"},
      {minimal_case() + "boundary_conditions:\n  - {region: xmin, type: fixed, compnents: [x]}\n",
       9, "boundary_conditions[0]", "compnents", "components"},
      {minimal_case() + "amplitudes:\n  a: {type: sine, frequncy: 1}\n", 9, "amplitudes.a",
       "frequncy", "frequency"},
      {minimal_case() + "gravity: {valu: [0, 0, 1]}\n", 8, "gravity", "valu", "value"},
      {minimal_case() + "initial_conditions: {velocty: [0, 0, 0]}\n", 8, "initial_conditions",
       "velocty", "velocity"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const auto msg = parse_error(c.text);
    expect_message(msg, c.line, c.key, {"unknown key '" + c.word + "'", did_you_mean(c.hint)});
  }
}

TEST(CaseFileErrors, MisspelledRequiredKeyOfABoundaryConditionIsNamed) {
  // A typo in 'type' itself must still be reported as the unknown key it is.
  const auto msg =
      parse_error(minimal_case() + "boundary_conditions:\n  - {region: xmin, typ: fixed}\n");
  expect_message(msg, 9, "boundary_conditions[0]", {"typ", did_you_mean("type")});
}

// ---------------------------------------------------------------------------------------------
// Bad numbers
// ---------------------------------------------------------------------------------------------

std::string with_time(const std::string& time_body) {
  return mesh_box + materials_all + "time:\n" + time_body;
}

TEST(CaseFileErrors, DtMustBePositive) {
  for (const char* dt : {"0", "-1", "-1.0e-4", "0.0"}) {
    SCOPED_TRACE(dt);
    const auto msg = parse_error(with_time(std::string("  steps: 10\n  dt: ") + dt + "\n"));
    expect_message(msg, 7, "time.dt", {"> 0"});
  }
}

TEST(CaseFileErrors, DtMustBeANumber) {
  for (const char* dt : {"fast", "1e-4s", "[1]", "nan", ".inf", "''"}) {
    SCOPED_TRACE(dt);
    const auto msg = parse_error(with_time(std::string("  steps: 10\n  dt: ") + dt + "\n"));
    expect_message(msg, 7, "time.dt");
  }
}

TEST(CaseFile, LinearSolverChoice) {
  EXPECT_EQ(parse_case(with_time("  steps: 10\n  dt: 1.0e-4\n"), "c.yaml").linear_solver,
            LinearSolverChoice::automatic);
  const std::pair<const char*, LinearSolverChoice> choices[] = {
      {"auto", LinearSolverChoice::automatic},
      {"direct", LinearSolverChoice::direct},
      {"iterative", LinearSolverChoice::iterative}};
  for (const auto& [text, choice] : choices) {
    const CaseFile c = parse_case(
        with_time(std::string("  steps: 10\n  dt: 1.0e-4\n  linear_solver: ") + text + "\n"),
        "c.yaml");
    EXPECT_EQ(c.linear_solver, choice) << text;
    EXPECT_EQ(resolve_problem(c, {{"all", 3, 1}}).linear_solver, choice) << text;
  }
  const auto msg = parse_error(with_time("  steps: 10\n  dt: 1.0e-4\n  linear_solver: cholesky\n"));
  expect_message(msg, 8, "time.linear_solver", {"auto", "direct", "iterative"});
}

TEST(CaseFileErrors, MultiLineValueStillGivesOneLine) {
  // A block scalar carries newlines into the value echoed back; the message must stay one line.
  const auto msg = parse_error(with_time("  steps: 10\n  dt: |\n    1.0\n    2.0\n"));
  expect_message(msg, 7, "time.dt");
}

TEST(CaseFileErrors, ASecondEntryForOneRegionIsRefusedWhereItWouldReplaceOrAdd) {
  // A second spring for one region replaced the first, a second point mass added to it, a
  // second initial velocity replaced it: each is an error naming both entries.
  const std::string springs = mesh_box + time_newmark +
                              "springs:\n"
                              "  - {region: edges, stiffness: 400.0}\n"
                              "  - {region: edges, stiffness: 200.0}\n";
  expect_message(parse_error(springs), 8, "springs[1].region",
                 {"region 'edges' already has a spring (springs[0], line 7)"});
  const std::string masses = mesh_box + time_newmark +
                             "point_masses:\n"
                             "  - {region: corner, mass: 1}\n"
                             "  - {region: other, mass: 1}\n"
                             "  - {region: corner, mass: 2}\n";
  expect_message(parse_error(masses), 9, "point_masses[2].region",
                 {"region 'corner' already has a point mass (point_masses[0], line 7)"});
  const std::string velocities = minimal_case() +
                                 "initial_conditions:\n"
                                 "  velocity:\n"
                                 "    - {region: xmax, velocity: [1, 0, 0]}\n"
                                 "    - {region: xmax, velocity: [0, 0, 2]}\n";
  expect_message(parse_error(velocities), 11, "initial_conditions.velocity[1].region",
                 {"region 'xmax' already has an initial velocity"});
  // Springs on a surface's edges and on a line region of another name are two regions.
  EXPECT_NO_THROW(parse_case(mesh_box + time_newmark +
                                 "springs:\n"
                                 "  - {region: skin, stiffness: 1, edges_of: surface}\n"
                                 "  - {region: skin_line, stiffness: 1}\n",
                             "case.yaml"));
}

TEST(CaseFileErrors, ASecondYamlDocumentIsRefused) {
  // YAML::Load read the first document only: the second one's keys were never seen.
  expect_message(parse_error(minimal_case() + "---\ntime: {dt: 1, steps: 1}\n"), 8, "",
                 {"a second YAML document"});
  // A document marker before the only document, or a lone one after it, holds nothing more.
  EXPECT_NO_THROW(parse_case("---\n" + minimal_case() + "---\n", "case.yaml"));
  EXPECT_NO_THROW(parse_case(minimal_case() + "---\n~\n---\nnull\n", "case.yaml"));
  // Inputs on which YAML::LoadAll never returns (found by the fuzz campaign): one error each.
  for (const std::string& text : {std::string(",\x9a"), std::string("!m0.2, atiionl ")})
    EXPECT_FALSE(parse_error(text).empty()) << text;
}

TEST(CaseFileErrors, MaterialValues) {
  struct Case {
    std::string fields, key, what;
  };
  const std::vector<Case> cases{
      {"density: -2700, youngs_modulus: 7e10, poissons_ratio: 0.3", "materials[0].density", "> 0"},
      {"density: 0, youngs_modulus: 7e10, poissons_ratio: 0.3", "materials[0].density", "> 0"},
      {"density: 2700, youngs_modulus: 0, poissons_ratio: 0.3", "materials[0].youngs_modulus",
       "> 0"},
      {"density: 2700, youngs_modulus: -7e10, poissons_ratio: 0.3", "materials[0].youngs_modulus",
       "> 0"},
      {"density: 2700, youngs_modulus: 7e10, poissons_ratio: 0.5", "materials[0].poissons_ratio",
       "0.5"},
      {"density: 2700, youngs_modulus: 7e10, poissons_ratio: 0.7", "materials[0].poissons_ratio",
       "0.5"},
      {"density: 2700, youngs_modulus: 7e10, poissons_ratio: -1", "materials[0].poissons_ratio",
       "-1"},
      {"density: 2700, youngs_modulus: 7e10, poissons_ratio: -1.5", "materials[0].poissons_ratio",
       "-1"},
      {"density: heavy, youngs_modulus: 7e10, poissons_ratio: 0.3", "materials[0].density",
       "heavy"},
      {"youngs_modulus: 7e10, poissons_ratio: 0.3", "materials[0]", "density"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fields);
    const auto msg =
        parse_error(mesh_box + "materials:\n  - {region: all, " + c.fields + "}\n" + time_newmark);
    expect_message(msg, 4, c.key, {c.what});
  }
  // Limits that are valid: nu just above -1 and just below 0.5.
  for (const char* nu : {"-0.99", "0.49", "0"}) {
    SCOPED_TRACE(nu);
    EXPECT_NO_THROW(parse_case(mesh_box +
                                   "materials:\n  - {region: all, density: 1, "
                                   "youngs_modulus: 1, poissons_ratio: " +
                                   nu + "}\n" + time_newmark,
                               "case.yaml"));
  }
}

TEST(CaseFile, AcceptsEveryMaterialModel) {
  const std::pair<const char*, const fe::MaterialLaw*> models[] = {
      {"linear_elastic", &fe::material_law("linear_elastic")},
      {"corotational", &fe::material_law("corotational")},
      {"saint_venant_kirchhoff", &fe::material_law("saint_venant_kirchhoff")},
      {"neo_hookean", &fe::material_law("neo_hookean")}};
  for (const auto& [name, model] : models) {
    const CaseFile c =
        parse_case(mesh_box + "materials:\n  - {region: all, model: " + name +
                       ", density: 1, youngs_modulus: 1, poissons_ratio: 0.3}\n" + time_newmark,
                   "case.yaml");
    EXPECT_EQ(&c.materials.at(0).material.law(), model) << name;
  }
}

TEST(CaseFileErrors, UnknownMaterialModelWithHint) {
  const auto typo = parse_error(mesh_box +
                                "materials:\n  - {region: all, model: linear_elastc, density: 1, "
                                "youngs_modulus: 1, poissons_ratio: 0.3}\n" +
                                time_newmark);
  expect_message(typo, 4, "materials[0].model", {did_you_mean("linear_elastic")});
}

TEST(CaseFileErrors, NegativeRayleighAndDamping) {
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  rayleigh: {mass: -0.1}\n")), 8,
                 "time.rayleigh.mass", {">= 0"});
  expect_message(
      parse_error(with_time("  dt: 1\n  steps: 1\n  rayleigh: {mass: 0, stiffness: -1e-6}\n")), 8,
      "time.rayleigh.stiffness", {">= 0"});
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  velocity_damping: -1\n")), 8,
                 "time.velocity_damping", {">= 0"});
}

TEST(CaseFile, RayleighFromDampingRatiosPassesThroughBothTargets) {
  const CaseFile c = parse_case(
      with_time("  dt: 1\n  steps: 1\n  rayleigh: {damping_ratios: [0.05, 0.02], frequencies: "
                "[2, 10]}\n"),
      "case.yaml");
  const double w1 = 2 * std::numbers::pi * 2, w2 = 2 * std::numbers::pi * 10;
  auto zeta = [&](double w) { return c.rayleigh.mass / (2 * w) + c.rayleigh.stiffness * w / 2; };
  EXPECT_NEAR(zeta(w1), 0.05, 1e-15);
  EXPECT_NEAR(zeta(w2), 0.02, 1e-15);
  EXPECT_GT(c.rayleigh.mass, 0);
  EXPECT_GT(c.rayleigh.stiffness, 0);
  ASSERT_EQ(c.rayleigh_targets.size(), 2u);
  EXPECT_DOUBLE_EQ(c.rayleigh_targets[1].second, 10);
}

TEST(CaseFile, RayleighTargetsCloserThanAFactorOneAndAHalfAreNamedWithTheDampingTheFitGives) {
  // The two members of a mode pair, 0.7 % apart, at 5 % each: the fit meets 5 % there but gives
  // z (f1 f2 / f + f) / (f1 + f2) at f, 12.4 at 39.7 kHz. The message prints frequencies to 6
  // digits, factors and ratios to 4.
  const double f1 = 80, f2 = 80.56, top = 39707.7, z = 0.05;
  const auto fit = [&](double f) { return z * (f1 * f2 / f + f) / (f1 + f2); };
  const std::string what = rayleigh_close_targets(z, f1, z, f2, top);
  const std::string number = "([-+0-9.e]+)";
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      what, m,
      std::regex("target frequencies 80 and 80.56 Hz are only a factor " + number +
                 " apart \\(less than 1.5\\): the fit gives a damping ratio of " + number + " at " +
                 number + " Hz between them and " + number + " at the highest frequency, " +
                 number + " Hz")))
      << what;
  EXPECT_NEAR(std::stod(m[1]), f2 / f1, 5e-4);
  const double between = std::sqrt(f1 * f2);
  EXPECT_NEAR(std::stod(m[2]), fit(between), 5e-4 * fit(between));
  EXPECT_NEAR(std::stod(m[3]), between, 5e-6 * between);
  EXPECT_NEAR(std::stod(m[4]), fit(top), 5e-4 * fit(top));
  EXPECT_NEAR(std::stod(m[5]), top, 5e-6 * top);
  // Unequal ratios, the highest frequency unknown: no clause for it.
  const std::string unknown = rayleigh_close_targets(0.02, 10, 0.05, 12, 0);
  EXPECT_NE(unknown.find("factor 1.2 apart"), std::string::npos) << unknown;
  EXPECT_EQ(unknown.find("at the highest frequency,"), std::string::npos) << unknown;
  // A factor 1.5 apart or more: nothing to say.
  EXPECT_EQ(rayleigh_close_targets(z, 2, z, 3, 100), "");
  EXPECT_EQ(rayleigh_close_targets(z, 30, z, 2, 100), "");
  EXPECT_NE(rayleigh_close_targets(z, 2, z, 2.999, 100), "");
}

TEST(CaseFileErrors, RayleighDampingRatiosMisused) {
  const std::string t = "  dt: 1\n  steps: 1\n  rayleigh: ";
  expect_message(parse_error(with_time(t + "{damping_ratios: [0.05, 0.05]}\n")), 8, "time.rayleigh",
                 {"frequencies"});
  expect_message(parse_error(with_time(t + "{damping_ratios: [0.05, 0.05], frequencies: [2, 2], "
                                           "}\n")),
                 8, "time.rayleigh.frequencies", {"must differ"});
  expect_message(
      parse_error(with_time(t + "{mass: 1, damping_ratios: [0.05, 0.05], frequencies: [1, 2]}\n")),
      8, "time.rayleigh", {"not both"});
  expect_message(parse_error(with_time(t + "{damping_ratios: [0.05, 1.5], frequencies: [1, 2]}\n")),
                 8, "time.rayleigh.damping_ratios[1]", {"[0, 1)"});
  // Falling from 0.2 to 0.01 over a factor 2 in frequency is steeper than alpha_M / (2 omega).
  expect_message(parse_error(with_time(t + "{damping_ratios: [0.2, 0.01], frequencies: [1, 2]}\n")),
                 8, "time.rayleigh", {"negative coefficient"});
}

TEST(CaseFileErrors, NewmarkParametersOutOfRange) {
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  newmark: {beta: 0}\n")), 8,
                 "time.newmark.beta");
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  newmark: {beta: 0.6}\n")), 8,
                 "time.newmark.beta");
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  newmark: {gamma: -0.5}\n")), 8,
                 "time.newmark.gamma");
}

TEST(CaseFileErrors, AlphaSchemeParametersOutOfRange) {
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  hht: {alpha: 0.1}\n")), 8,
                 "time.hht.alpha", {"[-1/3, 0]", "got 0.1"});
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  hht: {alpha: -0.4}\n")), 8,
                 "time.hht.alpha");
  expect_message(
      parse_error(with_time("  dt: 1\n  steps: 1\n  generalized_alpha: {rho_infinity: 1.2}\n")), 8,
      "time.generalized_alpha.rho_infinity", {"[0, 1]"});
  expect_message(
      parse_error(with_time("  dt: 1\n  steps: 1\n  generalized_alpha: {rho_infinity: -0.1}\n")), 8,
      "time.generalized_alpha.rho_infinity");
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  hht: {alfa: -0.1}\n")), 8,
                 "time.hht", {"alfa", "alpha"});
  expect_message(
      parse_error(with_time("  dt: 1\n  steps: 1\n  generalized_alpha: {rho_inf: 0.5}\n")), 8,
      "time.generalized_alpha", {"rho_inf", "rho_infinity"});
}

TEST(CaseFile, AlphaSchemeOptions) {
  const CaseFile hht = parse_case(with_time("  integrator: hht\n  dt: 1\n  steps: 1\n"
                                            "  hht: {alpha: -0.1}\n"),
                                  "case.yaml");
  EXPECT_EQ(hht.scheme.name(), "hht");
  EXPECT_DOUBLE_EQ(hht.scheme.params<HhtParams>().alpha, -0.1);
  const AlphaCoefficients c = hht.scheme.params<HhtParams>().coefficients();
  EXPECT_DOUBLE_EQ(c.alpha_m, 0.0);
  EXPECT_DOUBLE_EQ(c.alpha_f, 0.1);
  EXPECT_DOUBLE_EQ(c.beta, 1.1 * 1.1 / 4);
  EXPECT_DOUBLE_EQ(c.gamma, 0.6);
  EXPECT_TRUE(hht.scheme.newton());
  EXPECT_FALSE(hht.scheme.conditionally_stable());
  // The defaults, and alpha = 0: Newmark's coefficients exactly.
  EXPECT_DOUBLE_EQ(configure_scheme("hht").params<HhtParams>().alpha, -0.05);
  const AlphaCoefficients newmark = HhtParams{0.0}.coefficients();
  EXPECT_EQ(newmark.alpha_f, 0.0);
  EXPECT_EQ(newmark.beta, 0.25);
  EXPECT_EQ(newmark.gamma, 0.5);

  const CaseFile ga = parse_case(with_time("  integrator: generalized_alpha\n  dt: 1\n  steps: 1\n"
                                           "  generalized_alpha: {rho_infinity: 0.5}\n"),
                                 "case.yaml");
  EXPECT_EQ(ga.scheme.name(), "generalized_alpha");
  const AlphaCoefficients g = ga.scheme.params<GeneralizedAlphaParams>().coefficients();
  EXPECT_DOUBLE_EQ(g.alpha_m, 0.0);
  EXPECT_DOUBLE_EQ(g.alpha_f, 1.0 / 3);
  EXPECT_DOUBLE_EQ(
      configure_scheme("generalized_alpha").params<GeneralizedAlphaParams>().rho_infinity, 0.8);
  // rho_infinity = 1: the trapezoidal rule's beta and gamma, balanced at the mid-step.
  const AlphaCoefficients one = GeneralizedAlphaParams{1.0}.coefficients();
  EXPECT_EQ(one.alpha_m, 0.5);
  EXPECT_EQ(one.alpha_f, 0.5);
  EXPECT_EQ(one.beta, 0.25);
  EXPECT_EQ(one.gamma, 0.5);
}

// ---------------------------------------------------------------------------------------------
// Time integration choices
// ---------------------------------------------------------------------------------------------

TEST(CaseFileErrors, UnknownIntegratorWithHint) {
  const auto msg = parse_error(with_time("  integrator: newmrk\n  dt: 1\n  steps: 1\n"));
  expect_message(msg, 6, "time.integrator", {"newmrk", did_you_mean("newmark")});
}

TEST(CaseFile, AcceptsEverySchemeOfTheSpec) {
  for (const char* name : {"euler_explicit", "symplectic_euler", "central_difference", "rk2",
                           "heun", "rk4", "euler_implicit", "newmark", "hht", "generalized_alpha",
                           "variational_symplectic", "static"}) {
    SCOPED_TRACE(name);
    const CaseFile c = parse_case(
        with_time(std::string("  integrator: ") + name + "\n  dt: 1\n  steps: 1\n"), "case.yaml");
    EXPECT_EQ(c.scheme.name(), name);
  }
}

TEST(CaseFileErrors, SchemeOptionConflictsAreFoundByTheCaseCheckWithTheirLine) {
  // Found when the case is read (so by --check), not when the run creates the integrator.
  expect_message(parse_error(with_time("  integrator: euler_implicit\n  dt: 1\n  steps: 1\n"
                                       "  euler_implicit: {trapezoidal: true, newton: true}\n")),
                 9, "time.euler_implicit.newton", {"trapezoidal"});
  expect_message(
      parse_error(with_time("  integrator: euler_implicit\n  dt: 1\n  steps: 1\n"
                            "  euler_implicit: {trapezoidal: true, first_order: true}\n")),
      9, "time.euler_implicit.first_order", {"trapezoidal"});
  // The options of a scheme that is not the chosen one are validated too.
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  euler_implicit:\n"
                                       "    newton: true\n    first_order: true\n")),
                 9, "time.euler_implicit.newton");
}

TEST(CaseFileErrors, EverySchemeSectionRejectsUnknownKeys) {
  for (const auto& e : scheme_entries()) {
    SCOPED_TRACE(std::string(e.name));
    const std::string section = std::string(e.name);
    expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  " + section + ": {bogus: 1}\n")),
                   8, "time." + section, {"bogus"});
  }
}

TEST(CaseFileErrors, FirstOrderImplicitEulerRefusesRayleighDampingAtTheCaseCheck) {
  expect_message(parse_error(with_time("  integrator: euler_implicit\n  dt: 1\n  steps: 1\n"
                                       "  euler_implicit: {first_order: true}\n"
                                       "  rayleigh: {mass: 1}\n")),
                 10, "time.rayleigh", {"first_order"});
}

TEST(CaseFileErrors, AutomaticStepNeedsAConditionallyStableScheme) {
  const auto msg = parse_error(with_time("  integrator: newmark\n  dt: auto\n  steps: 1\n"));
  expect_message(msg, 7, "time.dt", {"auto", "newmark"});
  const CaseFile c = parse_case(with_time("  integrator: central_difference\n"
                                          "  dt: auto\n  end_time: 1\n"),
                                "case.yaml");
  EXPECT_TRUE(c.dt_auto);
}

TEST(CaseFileErrors, EndTimeAndStepsAreExclusive) {
  const auto both = parse_error(with_time("  dt: 0.1\n  end_time: 1\n  steps: 10\n"));
  // A block mapping is located at its first key.
  expect_message(both, 6, "time", {"end_time", "steps"});
  const auto neither = parse_error(with_time("  dt: 0.1\n"));
  expect_message(neither, 6, "time", {"end_time", "steps"});
  expect_message(parse_error(with_time("  dt: 0.1\n  steps: 0\n")), 7, "time.steps");
  expect_message(parse_error(with_time("  dt: 0.1\n  steps: 2.5\n")), 7, "time.steps");
  expect_message(parse_error(with_time("  dt: 0.1\n  end_time: -1\n")), 7, "time.end_time");
}

TEST(CaseFileErrors, MissingSections) {
  expect_message(parse_error(materials_all + time_newmark), 0, "", {"mesh"});
  expect_message(parse_error(mesh_box + time_newmark), 0, "", {"materials"});
  expect_message(parse_error(mesh_box + materials_all), 0, "", {"time"});
  expect_message(parse_error(mesh_box + materials_all + "time: {steps: 3}\n"), 5, "time", {"dt"});
}

// ---------------------------------------------------------------------------------------------
// YAML itself
// ---------------------------------------------------------------------------------------------

TEST(CaseFileErrors, YamlSyntaxErrorGivesTheLine) {
  const auto msg = parse_error(mesh_box + materials_all + "time:\n  dt: [1, 2\n  steps: 3\n");
  expect_message(msg, 0, "", {"YAML"});
  // The error is on or just after the unclosed bracket of line 6.
  bool line_ok = false;
  for (int line : {6, 7, 8})
    line_ok = line_ok || contains(msg, "case.yaml:" + std::to_string(line) + ":");
  EXPECT_TRUE(line_ok) << msg;

  const auto tab = parse_error("mesh:\n  box: {cells: [1, 1, 1]}\n materials: x\n");
  expect_message(tab, 0, "");
  EXPECT_TRUE(contains(tab, "case.yaml:3:")) << tab;
}

TEST(CaseFileErrors, YamlErrorsQuotingControlCharactersStayOnOneLine) {
  // yaml-cpp quotes the offending character of a bad escape raw (found by fuzz_case_file): a
  // control character after the backslash is shown escaped, the message stays one line.
  for (const char* bad : {"\x01", "\x1b", "\x7f"}) {
    const auto msg = parse_error(mesh_box + materials_all + time_newmark +
                                 "output: {directory: \"a\\" + std::string(bad) + "\"}\n");
    expect_message(msg, 0, "", {"YAML", "escape"});
    for (char c : msg) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << msg;
    EXPECT_TRUE(contains(msg, printable(bad))) << msg;
  }
}

TEST(CaseFileErrors, AHugeBadValueIsQuotedAsAnExcerptWithItsLength) {
  // A 5 MB number (a broken generator, a paste gone wrong) was echoed whole.
  const std::string huge = "1.5e" + std::string(1 << 20, '7') + "x";
  for (const std::string& where :
       {"  dt: " + huge + "\n", "  steps: " + huge + "\n", "  integrator: " + huge + "\n"}) {
    const auto msg = parse_error(mesh_box + materials_all + "time:\n" + where +
                                 (where.starts_with("  dt") ? "  steps: 10\n" : "  dt: 1.0e-4\n"));
    expect_message(msg, 6, "time.");
    EXPECT_LT(msg.size(), 400u) << msg.substr(0, 400);
    EXPECT_TRUE(contains(msg, "'1.5e777")) << msg.substr(0, 400);
    EXPECT_FALSE(contains(msg, std::string(80, '7'))) << msg.substr(0, 400);
    EXPECT_TRUE(contains(msg, cat("... (", huge.size(), " bytes)'"))) << msg.substr(0, 300);
  }
}

TEST(CaseFileErrors, CountsOutOfRangeSayTheRange) {
  // 3000000000 does not fit an int: it was refused as "must be >= 0".
  for (const char* value : {"3000000000", "-1", "2.5", "1e20"})
    expect_message(
        parse_error(minimal_case() + "output: {every: " + std::string(value) + "}\n"), 8,
        "output.every",
        {cat("must be an integer in [0, 2147483647] (0: no VTK output), got '", value, "'")});
  expect_message(parse_error(minimal_case() + "output: {history_every: 0}\n"), 8,
                 "output.history_every", {"must be an integer in [1, 2147483647], got '0'"});
  expect_message(parse_error(minimal_case() + "output: {checkpoint: {every: 2147483648}}\n"), 8,
                 "output.checkpoint.every",
                 {"must be an integer in [0, 2147483647] (0: no checkpoints), got '2147483648'"});
  EXPECT_EQ(parse_case(minimal_case() + "output: {every: 2147483647}\n", "case.yaml").output_every,
            2147483647);
}

TEST(CaseFileErrors, EmptyOrNonMappingDocument) {
  expect_message(parse_error(""), 0, "");
  expect_message(parse_error("# nothing but a comment\n"), 0, "");
  expect_message(parse_error("- just\n- a list\n"), 1, "");
  expect_message(parse_error("hello\n"), 1, "");
}

// ---------------------------------------------------------------------------------------------
// Mesh section
// ---------------------------------------------------------------------------------------------

TEST(CaseFileErrors, MeshNeedsExactlyOneOfFileAndBox) {
  const std::string rest = materials_all + time_newmark;
  expect_message(parse_error("mesh: {partitioner: block}\n" + rest), 1, "mesh", {"file", "box"});
  expect_message(parse_error("mesh:\n  file: a.msh\n  box: {cells: [1, 1, 1]}\n" + rest), 2, "mesh",
                 {"file", "box"});
  expect_message(parse_error("mesh: {file: a.msh, partitioner: scotch}\n" + rest), 1,
                 "mesh.partitioner", {"scotch", "metis"});
}

TEST(CaseFileErrors, BadBoxCells) {
  const std::string rest = materials_all + time_newmark;
  for (const char* cells : {"[0, 1, 1]", "[4, -1, 1]", "[4, 1, 1.5]", "[4, 1, x]", "[4, 1]", "4"}) {
    SCOPED_TRACE(cells);
    const auto msg = parse_error(std::string("mesh:\n  box:\n    cells: ") + cells + "\n" + rest);
    expect_message(msg, 3, "mesh.box.cells");
  }
  expect_message(parse_error("mesh:\n  box:\n    upper: [1, 1, 1]\n" + rest), 3, "mesh.box",
                 {"cells"});
  expect_message(parse_error("mesh:\n  box: {upper: [1, 0, 1], cells: [1, 1, 1]}\n" + rest), 2,
                 "mesh.box", {"upper"});
  expect_message(parse_error("mesh:\n  box: {cells: [1, 1, 1], element: hex20}\n" + rest), 2,
                 "mesh.box.element", {"hex20"});
}

// ---------------------------------------------------------------------------------------------
// Boundary conditions and amplitudes
// ---------------------------------------------------------------------------------------------

TEST(CaseFileErrors, UnknownAmplitudeReferencedByALoad) {
  const auto msg =
      parse_error(minimal_case() +
                  "amplitudes:\n"
                  "  pulse: {type: table, points: [[0, 0], [1, 1]]}\n"
                  "boundary_conditions:\n"
                  "  - {region: xmin, type: fixed}\n"
                  "  - {region: xmax, type: force, value: [0, 0, 1], amplitude: puls}\n");
  expect_message(msg, 12, "boundary_conditions[1].amplitude", {"puls", did_you_mean("pulse")});

  const auto none = parse_error(minimal_case() + "gravity: {value: [0, 0, -1], amplitude: ramp}\n");
  expect_message(none, 8, "gravity.amplitude", {"ramp"});
}

TEST(CaseFileErrors, TableAmplitudeTimesMustIncrease) {
  const auto msg = parse_error(minimal_case() +
                               "amplitudes:\n"
                               "  pulse:\n"
                               "    type: table\n"
                               "    points:\n"
                               "      - [0, 0]\n"
                               "      - [0.002, 1]\n"
                               "      - [0.001, 0]\n");
  expect_message(msg, 14, "amplitudes.pulse.points[2]", {"increase"});
  const auto equal =
      parse_error(minimal_case() + "amplitudes:\n  p: {type: table, points: [[0, 0], [0, 1]]}\n");
  expect_message(equal, 9, "amplitudes.p.points[1]", {"increase"});
  const auto bad_point =
      parse_error(minimal_case() + "amplitudes:\n  p: {type: table, points: [[0, 0, 1]]}\n");
  expect_message(bad_point, 9, "amplitudes.p.points[0]");
  const auto bad_type =
      parse_error(minimal_case() + "amplitudes:\n  p: {type: sin, frequency: 1}\n");
  expect_message(bad_type, 9, "amplitudes.p.type", {did_you_mean("sine")});
  const auto bad_freq =
      parse_error(minimal_case() + "amplitudes:\n  p: {type: sine, frequency: -5}\n");
  expect_message(bad_freq, 9, "amplitudes.p.frequency");
}

TEST(CaseFile, SmoothStepAmplitude) {
  const CaseFile c = parse_case(minimal_case() +
                                    "amplitudes:\n"
                                    "  squeeze: {type: smooth_step, points: [[0, 0], [0.5, 1]]}\n"
                                    "  soft: {type: smooth_step, points: [[0, 0], [1, 2]], "
                                    "continuity: 1}\n",
                                "case.yaml");
  const auto& squeeze = c.amplitudes.at("squeeze");
  EXPECT_EQ(squeeze.type, CaseAmplitude::Type::smooth_step);
  EXPECT_EQ(squeeze.continuity, 2);
  ASSERT_EQ(squeeze.points.size(), 2u);
  EXPECT_EQ(c.amplitudes.at("soft").continuity, 1);
  expect_message(parse_error(minimal_case() +
                             "amplitudes:\n  p: {type: smooth_step, points: [[0, 0], [1, 1]], "
                             "continuity: 3}\n"),
                 9, "amplitudes.p.continuity", {"1 or 2"});
  expect_message(parse_error(minimal_case() +
                             "amplitudes:\n  p: {type: smooth_step, points: [[1, 0], [0, 1]]}\n"),
                 9, "amplitudes.p.points[1]", {"increase"});
}

TEST(CaseFile, OutputIntervalAndHistoryEvery) {
  const CaseFile c =
      parse_case(minimal_case() + "output: {directory: out, interval: 0.002, history_every: 5}\n",
                 "case.yaml");
  EXPECT_EQ(c.output_interval, 0.002);
  EXPECT_EQ(c.history_every, 5);
  const CaseFile d = parse_case(minimal_case(), "case.yaml");
  EXPECT_EQ(d.output_interval, 0.0);
  EXPECT_EQ(d.history_every, 1);
  expect_message(parse_error(minimal_case() + "output: {every: 10, interval: 0.002}\n"), 8,
                 "output.interval", {"not both"});
  expect_message(parse_error(minimal_case() + "output: {interval: -1}\n"), 8, "output.interval");
  expect_message(parse_error(minimal_case() + "output: {history_every: 0}\n"), 8,
                 "output.history_every");
}

TEST(CaseFileErrors, BoundaryConditionComponentsAndValues) {
  auto bc = [](const std::string& entry) {
    return parse_error(minimal_case() + "boundary_conditions:\n  - " + entry + "\n");
  };
  expect_message(bc("{region: xmin, type: fixed, components: [x, w]}"), 9,
                 "boundary_conditions[0].components[1]", {"'w'"});
  expect_message(bc("{region: xmin, type: fixed, components: [x, x]}"), 9,
                 "boundary_conditions[0].components[1]", {"twice"});
  expect_message(bc("{region: xmin, type: fixed, components: []}"), 9,
                 "boundary_conditions[0].components");
  expect_message(bc("{region: xmin, type: displacement, components: [x, y], value: [0.1]}"), 9,
                 "boundary_conditions[0].value", {"2 values"});
  expect_message(bc("{region: xmin, type: displacement, components: [x], value: [0.1, 0, 0]}"), 9,
                 "boundary_conditions[0].value", {"1 values"});
  expect_message(bc("{region: xmin, type: displacement, value: [0.1]}"), 9,
                 "boundary_conditions[0].value", {"3 values"});
  expect_message(bc("{region: xmin, type: displacement}"), 9, "boundary_conditions[0]", {"value"});
  expect_message(bc("{region: xmin, type: traction, value: [0, 1]}"), 9,
                 "boundary_conditions[0].value");
  expect_message(bc("{region: xmin, type: pressure, value: [0, 0, 1]}"), 9,
                 "boundary_conditions[0].value");
  expect_message(bc("{region: xmin, type: fixd}"), 9, "boundary_conditions[0].type",
                 {did_you_mean("fixed")});
  expect_message(bc("{region: xmin, type: fixed, value: [1, 2, 3]}"), 9, "boundary_conditions[0]",
                 {"value"});
  expect_message(bc("{type: fixed}"), 9, "boundary_conditions[0]", {"region"});
}

// ---------------------------------------------------------------------------------------------
// Output section
// ---------------------------------------------------------------------------------------------

TEST(CaseFileErrors, OutputValues) {
  expect_message(parse_error(minimal_case() + "output:\n  fields: [displacement, von_mieses]\n"), 9,
                 "output.fields[1]", {"von_mieses", did_you_mean("von_mises")});
  expect_message(parse_error(minimal_case() + "output:\n"
                                              "  probes:\n"
                                              "    - {name: tip, point: [1, 0, 0]}\n"
                                              "    - {name: tip, point: [0, 0, 0]}\n"),
                 11, "output.probes[1].name", {"duplicate", "tip"});
  expect_message(parse_error(minimal_case() + "output: {every: -1}\n"), 8, "output.every");
  expect_message(parse_error(minimal_case() + "output: {energy: maybe}\n"), 8, "output.energy");
  expect_message(
      parse_error(minimal_case() + "output:\n  probes:\n    - {name: a, point: [0, 0]}\n"), 10,
      "output.probes[0].point");
}

TEST(CaseFile, ProbeFieldsAndNodalOutputFields) {
  const CaseFile c =
      parse_case(minimal_case() +
                     "output:\n"
                     "  fields: [nodal_von_mises, nodal_stress, nodal_strain, von_mises]\n"
                     "  probes:\n"
                     "    - {name: tip, point: [1, 0, 0]}\n"
                     "    - {name: root, point: [0.1, 0, 0], fields: [von_mises, stress, "
                     "strain, displacement]}\n",
                 "case.yaml");
  EXPECT_EQ(c.fields, (std::vector<std::string>{"nodal_von_mises", "nodal_stress", "nodal_strain",
                                                "von_mises"}));
  ASSERT_EQ(c.probes.size(), 2u);
  EXPECT_EQ(c.probes[0].fields, (std::vector<std::string>{"displacement", "velocity"}));
  EXPECT_EQ(c.probes[1].fields,
            (std::vector<std::string>{"von_mises", "stress", "strain", "displacement"}));
  // The default fields list no nodal arrays: frames keep their size.
  for (const char* f : {"nodal_von_mises", "nodal_stress", "nodal_strain"})
    EXPECT_FALSE(parse_case(minimal_case(), "case.yaml").has_field(f)) << f;
}

TEST(CaseFileErrors, ProbeFields) {
  auto probe = [](const std::string& fields) {
    return parse_error(minimal_case() + "output:\n  probes:\n    - {name: a, point: [0, 0, 0], " +
                       "fields: " + fields + "}\n");
  };
  // An unknown field: the key, the word, a hint and every choice, on one line.
  expect_message(probe("[stress, von_mieses]"), 10, "output.probes[0].fields[1]",
                 {"'von_mieses'", did_you_mean("von_mises"),
                  "displacement, velocity, stress, strain, von_mises"});
  expect_message(probe("[strain, nodal_stress]"), 10, "output.probes[0].fields[1]",
                 {"'nodal_stress'", "displacement, velocity, stress, strain, von_mises"});
  expect_message(probe("[stress, stress]"), 10, "output.probes[0].fields[1]", {"twice"});
  expect_message(probe("[]"), 10, "output.probes[0].fields",
                 {"displacement, velocity, stress, strain, von_mises"});
  expect_message(probe("stress"), 10, "output.probes[0].fields", {"list"});
  expect_message(
      parse_error(minimal_case() + "output:\n  probes:\n"
                                   "    - {name: a, point: [0, 0, 0], field: [stress]}\n"),
      10, "output.probes[0]", {"unknown key 'field'", did_you_mean("fields")});
  expect_message(parse_error(minimal_case() + "output:\n  fields: [nodal_vonmises]\n"), 9,
                 "output.fields[0]", {did_you_mean("nodal_von_mises"), "nodal_stress"});
}

TEST(CaseFile, OutputFormat) {
  EXPECT_EQ(parse_case(minimal_case(), "case.yaml").output_format, OutputFormat::vtu);
  EXPECT_EQ(parse_case(minimal_case() + "output: {format: xdmf}\n", "case.yaml").output_format,
            OutputFormat::xdmf);
  EXPECT_EQ(parse_case(minimal_case() + "output: {format: vtu}\n", "case.yaml").output_format,
            OutputFormat::vtu);
}

TEST(CaseFileErrors, UnknownOutputFormat) {
  // The key, the word, a hint and both choices, on one line.
  expect_message(parse_error(minimal_case() + "output:\n  format: xdfm\n"), 9, "output.format",
                 {"'xdfm'", did_you_mean("xdmf"), "vtu", "xdmf"});
  expect_message(parse_error(minimal_case() + "output:\n  format: hdf5\n"), 9, "output.format",
                 {"'hdf5'", "vtu, xdmf"});
  expect_message(parse_error(minimal_case() + "output:\n  formt: xdmf\n"), 9, "output",
                 {"unknown key 'formt'", did_you_mean("format")});
}

TEST(CaseFileErrors, SectionsOfTheWrongShape) {
  expect_message(parse_error(mesh_box + "materials: {region: all}\n" + time_newmark), 3,
                 "materials", {"list"});
  expect_message(parse_error(minimal_case() + "gravity: [0, -9.81]\n"), 8, "gravity");
  expect_message(parse_error(minimal_case() + "initial_conditions: {velocity: [0, 0]}\n"), 8,
                 "initial_conditions.velocity");
  expect_message(parse_error(minimal_case() + "petsc: [-ksp_type, cg]\n"), 8, "petsc");
}

TEST(CaseFileErrors, DuplicateKeysAreRejected) {
  // YAML parsers keep one of the duplicates: the other value would escape validation.
  expect_message(parse_error(with_time("  dt: 1\n  steps: 1\n  dt: -1\n")), 8, "time",
                 {"'dt'", "more than once"});
  expect_message(parse_error(minimal_case() + "time: {dt: 2, steps: 1}\n"), 8, "", {"'time'"});
  expect_message(parse_error(minimal_case() + "amplitudes:\n"
                                              "  a: {type: sine, frequency: 1}\n"
                                              "  a: {type: sine, frequency: 2}\n"),
                 10, "amplitudes", {"'a'"});
}

TEST(CaseFileErrors, KeyThatIsNotANameIsAnInputError) {
  expect_message(parse_error(minimal_case() + "[a, b]: 1\n"), 8, "");
  expect_message(parse_error(minimal_case() + "amplitudes: {[a]: {type: sine, frequency: 1}}\n"), 8,
                 "amplitudes");
}

TEST(CaseFileErrors, FileNameAppearsAsGiven) {
  const auto msg = parse_error(minimal_case() + "gravty: [0, 0, 1]\n", "some/dir/my_case.yaml");
  expect_message(msg, 8, "gravty", {}, "some/dir/my_case.yaml");
}

// ---------------------------------------------------------------------------------------------
// Region resolution against the mesh
// ---------------------------------------------------------------------------------------------

std::string resolve_error(const std::string& text) {
  const CaseFile c = parse_case(text, "case.yaml");
  try {
    resolve_problem(c, box_regions());
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError from resolve_problem for:\n" << text;
  return {};
}

TEST(CaseFileRegions, ResolvesNamesToIndices) {
  const CaseFile c = parse_case(minimal_case() +
                                    "amplitudes:\n"
                                    "  pulse: {type: table, points: [[0, 0], [1, 2]]}\n"
                                    "  shake: {type: sine, frequency: 0.25}\n"
                                    "boundary_conditions:\n"
                                    "  - {region: xmin, type: fixed}\n"
                                    "  - {region: ymin, type: displacement, components: [y], "
                                    "value: [0.5], amplitude: shake}\n"
                                    "  - {region: xmax, type: traction, value: [0, 0, -1], "
                                    "amplitude: pulse}\n"
                                    "  - {region: zmax, type: pressure, value: 7}\n"
                                    "  - {region: all, type: force, value: [1, 0, 0]}\n"
                                    "gravity: [0, 0, -9.81]\n"
                                    "initial_conditions:\n"
                                    "  velocity: [{region: xmax, velocity: [0, 1, 0]}]\n",
                                "case.yaml");
  const ProblemSpec spec = resolve_problem(c, box_regions());
  ASSERT_EQ(spec.materials.size(), 1u);
  EXPECT_EQ(spec.materials[0].region, 0);
  EXPECT_DOUBLE_EQ(spec.materials[0].material.density, 2700);

  ASSERT_EQ(spec.dirichlet.size(), 2u);
  EXPECT_EQ(spec.dirichlet[0].region, 1);
  EXPECT_EQ(spec.dirichlet[0].amplitude, 0);  // constant
  EXPECT_EQ(spec.dirichlet[1].region, 3);
  EXPECT_EQ(spec.dirichlet[1].components, (std::array<bool, 3>{false, true, false}));
  EXPECT_DOUBLE_EQ(spec.dirichlet[1].value[1], 0.5);
  // sin(2 pi 0.25 t) at t = 1 is 1.
  ASSERT_LT(static_cast<std::size_t>(spec.dirichlet[1].amplitude), spec.amplitudes.size());
  EXPECT_NEAR(spec.amplitudes[spec.dirichlet[1].amplitude].value(1.0), 1.0, 1e-12);

  ASSERT_EQ(spec.loads.size(), 4u);  // traction, pressure, force, gravity
  EXPECT_EQ(spec.loads[0].kind, Load::Kind::traction);
  EXPECT_EQ(spec.loads[0].region, 2);
  ASSERT_LT(static_cast<std::size_t>(spec.loads[0].amplitude), spec.amplitudes.size());
  EXPECT_NEAR(spec.amplitudes[spec.loads[0].amplitude].value(0.5), 1.0, 1e-12);
  EXPECT_EQ(spec.loads[1].kind, Load::Kind::pressure);
  EXPECT_EQ(spec.loads[1].region, 6);
  EXPECT_DOUBLE_EQ(spec.loads[1].value[0], 7);
  EXPECT_EQ(spec.loads[2].kind, Load::Kind::force);
  EXPECT_EQ(spec.loads[2].region, 0);
  EXPECT_EQ(spec.loads[3].kind, Load::Kind::gravity);
  EXPECT_EQ(spec.loads[3].value, (std::array<double, 3>{0, 0, -9.81}));
  EXPECT_EQ(spec.loads[3].amplitude, 0);

  ASSERT_EQ(spec.initial_velocity.size(), 1u);
  EXPECT_EQ(spec.initial_velocity[0].region, 2);
  EXPECT_EQ(spec.initial_velocity[0].value, (std::array<double, 3>{0, 1, 0}));
}

TEST(CaseFileRegions, UnknownRegionNamesTheKnownOnes) {
  const auto msg = resolve_error(minimal_case() +
                                 "boundary_conditions:\n"
                                 "  - {region: xmin, type: fixed}\n"
                                 "  - {region: xmx, type: force, value: [0, 0, 1]}\n");
  expect_message(msg, 10, "boundary_conditions[1].region",
                 {"unknown region 'xmx'", did_you_mean("xmax"), "all", "xmin", "ymax", "zmax"});

  const auto material = resolve_error(
      mesh_box +
      "materials:\n  - {region: al, density: 1, youngs_modulus: 1, poissons_ratio: 0}\n" +
      time_newmark);
  expect_message(material, 4, "materials[0].region", {"'al'", did_you_mean("all")});

  const auto velocity = resolve_error(minimal_case() +
                                      "initial_conditions:\n"
                                      "  velocity:\n"
                                      "    - {region: nowhere, velocity: [0, 0, 0]}\n");
  expect_message(velocity, 10, "initial_conditions.velocity[0].region", {"'nowhere'", "xmin"});
}

TEST(CaseFileRegions, MaterialOnASurfaceRegionIsRejected) {
  const auto msg = resolve_error(
      mesh_box +
      "materials:\n  - {region: xmin, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}\n" +
      time_newmark);
  expect_message(msg, 4, "materials[0].region", {"xmin", "dimension 2"});
}

TEST(CaseFileRegions, TractionOnAVolumeRegionIsRejected) {
  const auto traction = resolve_error(minimal_case() +
                                      "boundary_conditions:\n"
                                      "  - {region: all, type: traction, value: [0, 0, 1]}\n");
  expect_message(traction, 9, "boundary_conditions[0].region", {"all", "dimension 3"});
  const auto pressure = resolve_error(minimal_case() +
                                      "boundary_conditions:\n"
                                      "  - {region: all, type: pressure, value: 1}\n");
  expect_message(pressure, 9, "boundary_conditions[0].region", {"all", "dimension 3"});
}

TEST(CaseFileRegions, TwoMaterialsOnOneRegionAreRejected) {
  const auto msg =
      resolve_error(mesh_box +
                    "materials:\n"
                    "  - {region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}\n"
                    "  - {region: all, density: 2, youngs_modulus: 1, poissons_ratio: 0.3}\n" +
                    time_newmark);
  expect_message(msg, 5, "materials[1].region", {"all"});
}

// ---------------------------------------------------------------------------------------------
// Base acceleration and amplitudes from files
// ---------------------------------------------------------------------------------------------

namespace {

fs::path scratch(const std::string& test) {
  const fs::path dir = fs::path(INERTIA_BINARY_DIR) / "test_output" / "app_case_file" / test;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string quake_case(const std::string& file) {
  return mesh_box + materials_all +
         "boundary_conditions:\n"
         "  - {region: xmin, type: acceleration, components: [x, y], value: [9.81, 4.0], "
         "amplitude: quake}\n"
         "amplitudes:\n"
         "  quake: {type: table, file: " +
         file + "}\n" + time_newmark;
}

TEST(CaseFileInitialConditions, StaticEquilibriumStartsADynamicRunOnly) {
  EXPECT_FALSE(parse_case(minimal_case(), "case.yaml").static_equilibrium);
  EXPECT_TRUE(
      parse_case(minimal_case() + "initial_conditions: {static_equilibrium: true}\n", "case.yaml")
          .static_equilibrium);
  const auto static_run = parse_error(mesh_box + materials_all +
                                      "time: {integrator: static, dt: 1, end_time: 1}\n"
                                      "initial_conditions: {static_equilibrium: true}\n");
  expect_message(static_run, 6, "initial_conditions.static_equilibrium", {"static integrator"});
  const auto modal_only = parse_error(mesh_box + materials_all + "modal: {modes: 2}\n" +
                                      "initial_conditions: {static_equilibrium: true}\n");
  expect_message(modal_only, 6, "initial_conditions.static_equilibrium", {"needs a time"});
  const auto not_bool =
      parse_error(minimal_case() + "initial_conditions: {static_equilibrium: 2}\n");
  expect_message(not_bool, 8, "initial_conditions.static_equilibrium", {});
}

}  // namespace

TEST(CaseFile, ModalAloneOrBeforeATransient) {
  const CaseFile alone =
      parse_case(mesh_box + materials_all + "modal: {modes: 4, mass: lumped}\n", "case.yaml");
  EXPECT_EQ(alone.modal_modes, 4);
  EXPECT_FALSE(alone.has_time);
  EXPECT_EQ(alone.mass, MassTreatment::lumped);
  const CaseFile both = parse_case(minimal_case() + "modal: {modes: 2}\n", "case.yaml");
  EXPECT_EQ(both.modal_modes, 2);
  EXPECT_TRUE(both.has_time);
}

TEST(CaseFileErrors, ModalMisused) {
  expect_message(parse_error(mesh_box + materials_all), 0, "", {"missing key 'time'", "modal"});
  expect_message(parse_error(mesh_box + materials_all + "modal: {modes: 0}\n"), 5, "modal.modes",
                 {"must be an integer in [1, 10000], got '0'"});
  expect_message(parse_error(mesh_box + materials_all + "modal: {mode: 3}\n"), 5, "modal",
                 {"unknown key 'mode'"});
  expect_message(parse_error(minimal_case() + "  mass: lumped\nmodal: {modes: 2, mass: "
                                              "consistent}\n"),
                 9, "modal.mass", {"time.mass"});
}

TEST(CaseFile, AccelerationConditionWithATableFromAFile) {
  const fs::path dir = scratch("quake");
  std::ofstream(dir / "quake.csv") << "# a recorded accelerogram (g)\ntime,acceleration\n"
                                      "0, 0\n0.01, 0.2  # peak\n0.02,-0.1\n\n0.03;0\n";
  const CaseFile c = parse_case(quake_case("quake.csv"), dir / "case.yaml");
  ASSERT_EQ(c.boundary_conditions.size(), 1u);
  EXPECT_EQ(c.boundary_conditions[0].type->name, "acceleration");
  EXPECT_EQ(c.boundary_conditions[0].value, (std::array<double, 3>{9.81, 4.0, 0}));
  const auto& points = c.amplitudes.at("quake").points;
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[1], (std::pair<double, double>{0.01, 0.2}));
  EXPECT_EQ(points[3], (std::pair<double, double>{0.03, 0.0}));
}

TEST(CaseFile, AmplitudeFilesSayWhatWasReadAndSkipAByteOrderMark) {
  const fs::path dir = scratch("read_quake");
  // A UTF-8 byte-order mark before a header-less table: its first row is data, not a header.
  std::ofstream(dir / "bom.csv") << "\xEF\xBB\xBF"
                                 << "0,0.5\n0.01,0.2\n0.02,0\n";
  const CaseFile bom = parse_case(quake_case("bom.csv"), dir / "case.yaml");
  const CaseAmplitude& a = bom.amplitudes.at("quake");
  ASSERT_EQ(a.points.size(), 3u);
  EXPECT_EQ(a.points[0], (std::pair<double, double>{0, 0.5}));
  EXPECT_TRUE(a.read.byte_order_mark);
  EXPECT_EQ(a.read.header_line, 0);
  EXPECT_EQ(a.read.rows, 3);
  // A header after comments and blank lines: its line and text are kept for the log.
  std::ofstream(dir / "header.csv") << "# record\n\ntime [s], acceleration [g]\n0,0\n1,1\n";
  const CaseFile header = parse_case(quake_case("header.csv"), dir / "case.yaml");
  const CaseAmplitude& h = header.amplitudes.at("quake");
  EXPECT_FALSE(h.read.byte_order_mark);
  EXPECT_EQ(h.read.header_line, 3);
  EXPECT_EQ(h.read.header, "time [s], acceleration [g]");
  EXPECT_EQ(h.read.rows, 2);
}

TEST(CaseFileErrors, AmplitudeFilesNameTheFileAndLine) {
  const fs::path dir = scratch("bad_quake");
  std::ofstream(dir / "backwards.csv") << "time,value\n0,0\n0.02,1\n0.01,2\n";
  std::ofstream(dir / "word.csv") << "0,0\n0.01,abc\n";
  std::ofstream(dir / "three.csv") << "# t a\n0 0\n0.01 1 2\n";
  std::ofstream(dir / "empty.csv") << "# nothing\n";
  std::ofstream(dir / "nan.csv") << "0,0\n0.01,nan\n";
  auto error = [&](const std::string& file) {
    return parse_error(quake_case(file), dir / "case.yaml");
  };
  expect_message(error("backwards.csv"), 4, "", {"times must increase strictly"}, "backwards.csv");
  expect_message(error("word.csv"), 2, "", {"two finite numbers"}, "word.csv");
  expect_message(error("three.csv"), 3, "", {"two finite numbers"}, "three.csv");
  expect_message(error("empty.csv"), 1, "", {"no [time, value] rows"}, "empty.csv");
  expect_message(error("nan.csv"), 2, "", {"two finite numbers"}, "nan.csv");
  // The system's reason, at the case file's key.
  expect_message(error("missing.csv"), 8, "amplitudes.quake.file",
                 {"cannot open", "No such file or directory"});
  fs::create_directories(dir / "folder.csv");
  expect_message(error("folder.csv"), 8, "amplitudes.quake.file", {"Is a directory"});
  expect_message(error("/dev/zero"), 8, "amplitudes.quake.file", {"not a regular file"});
  // UTF-16 (a spreadsheet's "Unicode text") is named, not read as a header and garbage.
  std::ofstream(dir / "utf16.csv") << "\xFF\xFE"
                                   << "0\0,\0"
                                   << "0\0\n\0";
  expect_message(error("utf16.csv"), 1, "", {"UTF-16"}, "utf16.csv");
  // A bad line is quoted in at most ~80 characters, with its length.
  std::ofstream(dir / "long.csv") << "0,0\n1," << std::string(100000, '7') << "x\n";
  const std::string long_message = error("long.csv");
  expect_message(long_message, 2, "", {"... (100003 bytes)"}, "long.csv");
  EXPECT_LT(long_message.size(), 250u);
  // An acceleration needs a dynamic scheme.
  const fs::path d2 = scratch("static_quake");
  std::ofstream(d2 / "q.csv") << "0,0\n1,1\n";
  const CaseFile c = parse_case(quake_case("q.csv") + "  integrator: static\n", d2 / "case.yaml");
  const std::vector<Region> regions{{"all", 3, 1}, {"xmin", 2, 2}};
  EXPECT_THROW(resolve_problem(c, regions), InputError);
}

}  // namespace
}  // namespace inertia
