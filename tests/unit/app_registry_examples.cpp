// Every row of every registry (core/registry.hpp) carries a minimal case-file example, the one
// `inertia --help` and examples/guide/reference.md show: here each is put in a small box case (its
// top-level blocks replace the box case's of the same name), `inertia --check` must accept it
// and a run of it (a few steps, or the analysis) must end with status 0. So an example that no
// longer parses, names a key that moved, or fails to run fails here with the entry's name.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "inertia/app/analysis_sequence.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/core/error.hpp"
#include "inertia/material/constitutive.hpp"
#include "inertia/material/kinematics.hpp"
#include "inertia/mesh/cell_type.hpp"
#include "inertia/system/contact.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/time/scheme.hpp"

namespace inertia {
namespace {

namespace fs = std::filesystem;

/// The box case, block by block: a steel bar fixed at one end, a force at the other, 3 Newmark
/// steps, a frame per step.
const std::vector<std::pair<std::string, std::string>> box_case{
    {"mesh",
     "mesh:\n  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], "
     "element: hex8}\n  partitioner: block\n"},
    {"materials",
     "materials:\n  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\n"},
    {"boundary_conditions",
     "boundary_conditions:\n  - {region: xmin, type: fixed}\n"
     "  - {region: xmax, type: force, value: [0, 0, -1000]}\n"},
    {"time", "time: {integrator: newmark, dt: 1.0e-5, steps: 3}\n"},
    {"output", "output: {directory: out, every: 1}\n"},
};

/// The names of the top-level blocks of a YAML text ("time" of "time: {...}").
std::set<std::string> top_level_keys(std::string_view yaml) {
  std::set<std::string> keys;
  std::size_t start = 0;
  while (start < yaml.size()) {
    std::size_t end = yaml.find('\n', start);
    if (end == std::string_view::npos) end = yaml.size();
    const std::string_view line = yaml.substr(start, end - start);
    const std::size_t colon = line.find(':');
    if (!line.empty() && line[0] != ' ' && line[0] != '-' && line[0] != '#' &&
        colon != std::string_view::npos)
      keys.emplace(line.substr(0, colon));
    start = end + 1;
  }
  return keys;
}

/// The box case with `example`'s blocks in place of its own of the same names.
std::string case_with(std::string_view example) {
  const auto replaced = top_level_keys(example);
  std::string text;
  for (const auto& [key, block] : box_case)
    if (!replaced.count(key)) text += block;
  return text + std::string(example) + "\n";
}

/// The exit status and the output (stdout and stderr) of `inertia <arguments>`, run in `dir`.
std::pair<int, std::string> inertia(const fs::path& dir, const std::string& arguments) {
  const std::string command =
      cat("cd '", dir.string(), "' && ", INERTIA_BINARY_DIR, "/bin/inertia ", arguments, " 2>&1");
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string out;
  char buffer[4096];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// A fresh directory for one test's cases, removed at the end.
class Examples : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           cat("inertia_registry_examples_", ::getpid(), "_", test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  /// `inertia --check` accepts the example of `e` in the box case, and a run of it succeeds.
  void check(std::string_view registry, const EntryInfo& e) {
    const std::string name = cat(registry, "_", e.name);
    SCOPED_TRACE(cat(registry, " '", e.name, "', example:\n", e.example));
    ASSERT_FALSE(e.example.empty());
    const fs::path dir = dir_ / name;
    fs::create_directories(dir);
    // Examples that need line cells (beams) read the repository's meshes/ as `meshes/...`.
    fs::create_directory_symlink(fs::path(INERTIA_SOURCE_DIR) / "meshes", dir / "meshes");
    std::ofstream(dir / "case.yaml") << case_with(e.example);
    const auto [check_status, check_log] = inertia(dir, "--check case.yaml");
    EXPECT_EQ(check_status, 0) << check_log;
    EXPECT_NE(check_log.find("check     OK"), std::string::npos) << check_log;
    if (check_status != 0) return;
    const auto [run_status, run_log] = inertia(dir, "case.yaml");
    EXPECT_EQ(run_status, 0) << run_log;
    ++checked_;
  }

  fs::path dir_;
  int checked_ = 0;
};

TEST(RegistryExamples, TheBoxCaseTakesAnExampleInPlaceOfItsBlocks) {
  EXPECT_EQ(top_level_keys("time: {dt: 1}\namplitudes:\n  a: {type: sine}\n# c: 1\n  - b: 2"),
            (std::set<std::string>{"time", "amplitudes"}));
  const std::string c = case_with("time: {integrator: rk4, dt: 1.0e-6, steps: 2}");
  EXPECT_EQ(c.find("newmark"), std::string::npos) << c;
  EXPECT_NE(c.find("rk4"), std::string::npos) << c;
  EXPECT_NE(c.find("mesh:"), std::string::npos) << c;
}

TEST_F(Examples, EveryIntegrator) {
  for (const auto& e : schemes()) check("integrator", e);
  EXPECT_EQ(checked_, static_cast<int>(schemes().size()));
}

TEST_F(Examples, EveryForceTermKind) {
  for (const auto& e : force_terms()) check("force_term", e);
  EXPECT_EQ(checked_, static_cast<int>(force_terms().size()));
}

TEST_F(Examples, EveryConditionType) {
  for (const auto& t : condition_types()) check("condition", t);
  EXPECT_EQ(checked_, static_cast<int>(condition_types().size()));
}

TEST_F(Examples, EveryOutputField) {
  for (const auto& f : output_fields()) check(f.kind == FieldKind::frame ? "field" : "probe", f);
  EXPECT_EQ(checked_, static_cast<int>(output_fields().size()));
}

TEST_F(Examples, EveryConstitutiveModel) {
  // A model's example is a materials[] entry: the box case's materials block made of it.
  for (const auto& m : material::model_entries()) {
    const std::string example = cat("materials:\n  - ", m.example);
    check("model", EntryInfo{m.name, m.summary, example});
  }
  EXPECT_EQ(checked_, static_cast<int>(material::model_entries().size()));
}

TEST_F(Examples, EveryKinematics) {
  for (const auto& k : material::kinematics()) check("formulation", k);
  EXPECT_EQ(checked_, static_cast<int>(material::kinematics().size()));
}

TEST_F(Examples, EveryAnalysisType) {
  for (const auto& a : analysis_types()) check("analysis", a);
  EXPECT_EQ(checked_, static_cast<int>(analysis_types().size()));
}

TEST_F(Examples, EveryWallShape) {
  for (const auto& e : wall_shape_rows()) check("wall", e);
  EXPECT_EQ(checked_, static_cast<int>(wall_shape_rows().size()));
  EXPECT_EQ(checked_, 3);
}

TEST_F(Examples, EveryCellTypeWithAnExample) {
  int with_example = 0;
  for (const auto& t : cell_types) {
    // The volume types have one (mesh.box); faces, lines and points come from mesh files.
    if (t.example.empty()) {
      EXPECT_NE(t.dim, 3) << t.name << " has no example";
      continue;
    }
    ++with_example;
    check("cell_type", t);
  }
  EXPECT_EQ(checked_, with_example);
}

}  // namespace
}  // namespace inertia
