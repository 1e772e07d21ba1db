// Behaviour of the Gmsh MSH reader: the four formats on files written by gmsh, the VTK node order,
// tags and regions, the production meshes, and (most of this file) hostile input: every malformed
// file must give a one-line InputError, never a crash, a hang or an out-of-bounds read.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/mesh/gmsh_reader.hpp"

namespace inertia {
namespace {

namespace fs = std::filesystem;

fs::path data_file(const std::string& name) {
  return fs::path(INERTIA_SOURCE_DIR) / "tests" / "data" / "gmsh" / name;
}
fs::path production_mesh(const std::string& name) {
  return fs::path(INERTIA_SOURCE_DIR) / "meshes" / name;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A private temporary folder for inline test files, removed at the end of the test.
class TempFiles {
 public:
  TempFiles() {
    static int counter = 0;
    dir_ = fs::temp_directory_path() /
           ("inertia_gmsh_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  ~TempFiles() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  TempFiles(const TempFiles&) = delete;
  TempFiles& operator=(const TempFiles&) = delete;
  fs::path write(const std::string& name, std::string_view content) const {
    const fs::path p = dir_ / name;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return p;
  }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

/// Checks the structural invariants every MeshData from the reader must satisfy.
void expect_consistent(const MeshData& m) {
  ASSERT_EQ(m.coords.size(), 3 * m.node_tags.size());
  ASSERT_EQ(m.cell_offsets.size(), m.cell_types.size() + 1);
  ASSERT_EQ(m.cell_regions.size(), m.cell_types.size());
  ASSERT_EQ(m.cell_tags.size(), m.cell_types.size());
  ASSERT_EQ(m.cell_offsets.front(), 0);
  ASSERT_EQ(m.cell_offsets.back(), static_cast<std::int64_t>(m.cell_nodes.size()));
  std::vector<char> used(m.node_tags.size(), 0);
  for (std::int64_t c = 0; c < m.num_cells(); ++c) {
    ASSERT_EQ(m.cell_offsets[c + 1] - m.cell_offsets[c], info(m.cell_types[c]).num_nodes);
    ASSERT_GE(m.cell_regions[c], 0);
    ASSERT_LT(m.cell_regions[c], static_cast<std::int32_t>(m.regions.size()));
    EXPECT_EQ(m.regions[m.cell_regions[c]].dim, info(m.cell_types[c]).dim);
    for (std::int64_t n : m.nodes_of(c)) {
      ASSERT_GE(n, 0);
      ASSERT_LT(n, m.num_nodes());
      used[n] = 1;
    }
  }
  EXPECT_TRUE(std::all_of(used.begin(), used.end(), [](char u) { return u == 1; }))
      << "unused nodes must be dropped";
  EXPECT_EQ(std::set<std::int64_t>(m.node_tags.begin(), m.node_tags.end()).size(),
            m.node_tags.size());
}

/// The InputError message of reading `file`; a test failure if it does not throw one.
std::string error_of(const fs::path& file) {
  try {
    read_gmsh(file);
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << file << ": expected InputError, got another exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << file << ": expected InputError, but the file was read";
  return "";
}

/// A one-line "<file>: <what> (line N)" or "(byte N)" message.
void expect_well_formed_message(const std::string& message, const fs::path& file) {
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << message;
  EXPECT_TRUE(std::regex_search(message, std::regex(R"( \((line|byte) [0-9]+\)$)"))) << message;
}

/// Cells of a region as sorted text "type:tag tag ...", independent of cell and node order.
std::multiset<std::string> region_cells(const MeshData& m, const std::string& region) {
  const int r = m.find_region(region);
  std::multiset<std::string> out;
  for (std::int64_t c = 0; c < m.num_cells(); ++c) {
    if (m.cell_regions[c] != r) continue;
    std::string s(info(m.cell_types[c]).name);
    s += ':';
    for (std::int64_t n : m.nodes_of(c)) s += std::to_string(m.node_tags[n]) + ' ';
    out.insert(s);
  }
  return out;
}

std::int64_t count_cells(const MeshData& m, const std::string& region) {
  const int r = m.find_region(region);
  return std::count(m.cell_regions.begin(), m.cell_regions.end(), r);
}

/// Indices of the nodes of a region's cells.
std::set<std::int64_t> region_nodes(const MeshData& m, const std::string& region) {
  const int r = m.find_region(region);
  std::set<std::int64_t> out;
  for (std::int64_t c = 0; c < m.num_cells(); ++c)
    if (m.cell_regions[c] == r)
      for (std::int64_t n : m.nodes_of(c)) out.insert(n);
  return out;
}

std::array<double, 3> point(const MeshData& m, std::int64_t n) {
  return {m.coords[3 * n], m.coords[3 * n + 1], m.coords[3 * n + 2]};
}

/// Sum of the volumes of the tetrahedra (by their corners) of a region.
double tet_volume(const MeshData& m, const std::string& region) {
  const int r = m.find_region(region);
  double v = 0;
  for (std::int64_t c = 0; c < m.num_cells(); ++c) {
    if (m.cell_regions[c] != r) continue;
    const auto n = m.nodes_of(c);
    const auto a = point(m, n[0]), b = point(m, n[1]), cc = point(m, n[2]), d = point(m, n[3]);
    double e[3][3];
    for (int k = 0; k < 3; ++k)
      e[0][k] = b[k] - a[k], e[1][k] = cc[k] - a[k], e[2][k] = d[k] - a[k];
    v += (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
          e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
          e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) /
         6.0;
  }
  return v;
}

void expect_midpoint(const MeshData& m, std::int64_t mid, std::int64_t a, std::int64_t b) {
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(m.coords[3 * mid + k], 0.5 * (m.coords[3 * a + k] + m.coords[3 * b + k]), 1e-12);
}

/// Same nodes (coordinates up to the 16 digits of Gmsh's ASCII files), regions and cells.
void expect_same_mesh(const MeshData& a, const MeshData& b) {
  EXPECT_EQ(a.node_tags, b.node_tags);
  ASSERT_EQ(a.coords.size(), b.coords.size());
  double difference = 0;
  for (std::size_t i = 0; i < a.coords.size(); ++i)
    difference = std::max(difference, std::abs(a.coords[i] - b.coords[i]));
  EXPECT_LT(difference, 1e-15);
  ASSERT_EQ(a.regions.size(), b.regions.size());
  for (std::size_t r = 0; r < a.regions.size(); ++r) {
    EXPECT_EQ(a.regions[r].name, b.regions[r].name);
    EXPECT_EQ(a.regions[r].dim, b.regions[r].dim);
    EXPECT_EQ(a.regions[r].tag, b.regions[r].tag);
    EXPECT_EQ(region_cells(a, a.regions[r].name), region_cells(b, b.regions[r].name))
        << "region " << a.regions[r].name;
  }
}

// ------------------------------------------------------------------------------------------------
// Files written by gmsh

TEST(GmshReader, ReadsTheBoxFromAllFourFormatsAlike) {
  const MeshData reference = read_gmsh(data_file("box_41.msh"));
  expect_consistent(reference);
  EXPECT_EQ(reference.num_nodes(), 360);
  ASSERT_EQ(reference.regions.size(), 5u);
  const std::vector<std::tuple<std::string, int, int>> expected{
      {"corner", 0, 8}, {"left", 2, 2}, {"both", 2, 7}, {"body", 3, 1}, {"physical_2_20", 2, 20}};
  for (std::size_t r = 0; r < expected.size(); ++r) {
    EXPECT_EQ(reference.regions[r].name, std::get<0>(expected[r]));
    EXPECT_EQ(reference.regions[r].dim, std::get<1>(expected[r]));
    EXPECT_EQ(reference.regions[r].tag, std::get<2>(expected[r]));
  }
  // node tag 1 is the geometry's first point, (0, 0, 0.5), in the file
  ASSERT_EQ(reference.node_tags[0], 1);
  EXPECT_EQ(point(reference, 0), (std::array<double, 3>{0, 0, 0.5}));
  EXPECT_GT(count_cells(reference, "body"), 500);
  for (const char* name : {"box_41_bin.msh", "box_22.msh", "box_22_bin.msh"}) {
    SCOPED_TRACE(name);
    const MeshData m = read_gmsh(data_file(name));
    expect_consistent(m);
    EXPECT_EQ(m.num_cells(), reference.num_cells());
    expect_same_mesh(m, reference);
  }
}

TEST(GmshReader, StoresACellOncePerPhysicalGroup) {
  for (const char* name : {"box_41.msh", "box_41_bin.msh", "box_22.msh", "box_22_bin.msh"}) {
    SCOPED_TRACE(name);
    const MeshData m = read_gmsh(data_file(name));
    const auto left = region_cells(m, "left");
    const auto both = region_cells(m, "both");
    ASSERT_FALSE(left.empty());
    EXPECT_TRUE(std::includes(both.begin(), both.end(), left.begin(), left.end()));
    EXPECT_EQ(both.size(), 2 * left.size());  // x = 0 and x = 1 faces, meshed alike
    for (std::int64_t n : region_nodes(m, "left")) EXPECT_EQ(m.coords[3 * n], 0.0);
    for (std::int64_t n : region_nodes(m, "physical_2_20")) EXPECT_EQ(m.coords[3 * n + 2], 0.0);
    // the physical point
    ASSERT_EQ(count_cells(m, "corner"), 1);
    const auto corner = region_nodes(m, "corner");
    EXPECT_EQ(point(m, *corner.begin()), (std::array<double, 3>{1, 0.5, 0.5}));
  }
}

TEST(GmshReader, IgnoresParametricCoordinatesOfNodes) {
  const MeshData reference = read_gmsh(data_file("box_41.msh"));
  for (const char* name : {"box_41_param.msh", "box_41_param_bin.msh"}) {
    SCOPED_TRACE(name);
    if (std::string(name).find("bin") == std::string::npos) {
      ASSERT_NE(slurp(data_file(name)).find("\n2 1 1 "), std::string::npos)
          << "the file should have a parametric node block";
    }
    const MeshData m = read_gmsh(data_file(name));
    expect_consistent(m);
    expect_same_mesh(m, reference);
  }
}

TEST(GmshReader, DropsElementsOutsideThePhysicalGroups) {
  const MeshData all = read_gmsh(data_file("box_41_all.msh"));  // saved with Mesh.SaveAll
  expect_consistent(all);
  expect_same_mesh(all, read_gmsh(data_file("box_41.msh")));
}

TEST(GmshReader, PutsEverythingInAllRegionsWhenThereAreNoPhysicalGroups) {
  const MeshData m = read_gmsh(data_file("plain_22.msh"));
  expect_consistent(m);
  ASSERT_EQ(m.regions.size(), 4u);
  EXPECT_EQ(m.regions[0].name, "all");
  EXPECT_EQ(m.regions[0].dim, 3);
  EXPECT_EQ(m.regions[1].name, "all_2d");
  EXPECT_EQ(m.regions[2].name, "all_1d");
  EXPECT_EQ(m.regions[3].name, "all_0d");
  EXPECT_EQ(count_cells(m, "all_0d"), 8);  // the box corners
  EXPECT_NEAR(tet_volume(m, "all"), 0.25, 1e-12);
}

TEST(GmshReader, StoresTet10NodesInVtkOrder) {
  for (const char* name : {"box_tet10_41.msh", "box_tet10_22_bin.msh"}) {
    SCOPED_TRACE(name);
    const MeshData m = read_gmsh(data_file(name));
    expect_consistent(m);
    ASSERT_GT(count_cells(m, "body"), 0);
    for (std::int64_t c = 0; c < m.num_cells(); ++c) {
      if (m.cell_types[c] != CellType::tet10) continue;
      const auto n = m.nodes_of(c);
      expect_midpoint(m, n[4], n[0], n[1]);
      expect_midpoint(m, n[5], n[1], n[2]);
      expect_midpoint(m, n[6], n[2], n[0]);
      expect_midpoint(m, n[7], n[0], n[3]);
      expect_midpoint(m, n[8], n[1], n[3]);  // Gmsh's node 9
      expect_midpoint(m, n[9], n[2], n[3]);  // Gmsh's node 8
    }
    EXPECT_NEAR(tet_volume(m, "body"), 0.25, 1e-12);
  }
}

TEST(GmshReader, ReadsTheSecondOrderFacesOfATet10MeshAsTri6) {
  for (const char* name : {"box_tet10_41.msh", "box_tet10_22_bin.msh"}) {
    SCOPED_TRACE(name);
    const MeshData m = read_gmsh(data_file(name));
    const int left = m.find_region("left");
    ASSERT_GE(left, 0);
    EXPECT_EQ(m.regions[left].dim, 2);
    std::int64_t faces = 0;
    for (std::int64_t c = 0; c < m.num_cells(); ++c) {
      if (m.cell_regions[c] != left) continue;
      ++faces;
      ASSERT_EQ(m.cell_types[c], CellType::tri6);
      const auto n = m.nodes_of(c);
      for (std::int64_t node : n) EXPECT_EQ(m.coords[3 * node], 0.0);
      expect_midpoint(m, n[3], n[0], n[1]);
      expect_midpoint(m, n[4], n[1], n[2]);
      expect_midpoint(m, n[5], n[2], n[0]);
    }
    EXPECT_GT(faces, 0);
  }
}

TEST(GmshReader, KeepsNonContiguousNodeTagsAndDropsUnsavedNodes) {
  const MeshData a = read_gmsh(data_file("two_boxes_41.msh"));
  const MeshData b = read_gmsh(data_file("two_boxes_41_bin.msh"));
  for (const MeshData* m : {&a, &b}) {
    expect_consistent(*m);
    const auto [lo, hi] = std::minmax_element(m->node_tags.begin(), m->node_tags.end());
    EXPECT_GT(*hi - *lo + 1, m->num_nodes()) << "the test file should have gaps in its node tags";
    for (std::int64_t n = 0; n < m->num_nodes(); ++n) EXPECT_GE(m->coords[3 * n], 1.0);
    EXPECT_NEAR(tet_volume(*m, "second"), 1.0, 1e-12);
  }
  expect_same_mesh(a, b);
}

TEST(GmshReader, SkipsUnknownSections) {
  TempFiles tmp;
  std::string text = slurp(data_file("box_22.msh"));
  const std::string extra_front =
      "$Comments\nsome $EndComments text\n$EndCommentsX\n$EndComment\n$EndComments\n";
  text.insert(text.find("$PhysicalNames"), extra_front);
  text +=
      "$NodeData\n1\n\"u\"\n1\n0.0\n3\n0\n1\n1\n1 0.5\n$EndNodeData\n"
      "$Periodic\n0\n$EndPeriodic\n";
  const MeshData m = read_gmsh(tmp.write("extra.msh", text));
  expect_same_mesh(m, read_gmsh(data_file("box_22.msh")));

  std::string binary = slurp(data_file("box_41_bin.msh"));
  std::string blob = "$Parametrizations\n";
  for (int i = 0; i < 256; ++i) blob += static_cast<char>(i);  // binary payload
  blob += "\n$EndParametrizations\n";
  binary.insert(binary.find("$Entities"), blob);
  expect_same_mesh(read_gmsh(tmp.write("extra_bin.msh", binary)),
                   read_gmsh(data_file("box_41_bin.msh")));
}

// ------------------------------------------------------------------------------------------------
// Production meshes (meshes/)

TEST(GmshReader, ReadsTheCantileverMesh) {
  const MeshData m = read_gmsh(production_mesh("cantilever.msh"));
  expect_consistent(m);
  EXPECT_GE(m.num_nodes(), 2000);
  EXPECT_LE(m.num_nodes(), 6000);
  for (const auto& [name, dim] : std::vector<std::pair<std::string, int>>{
           {"beam", 3}, {"clamp", 2}, {"tip", 2}, {"top", 2}}) {
    const int r = m.find_region(name);
    ASSERT_GE(r, 0) << name;
    EXPECT_EQ(m.regions[r].dim, dim) << name;
    EXPECT_GT(count_cells(m, name), 0) << name;
  }
  const int beam = m.find_region("beam");
  for (std::int64_t c = 0; c < m.num_cells(); ++c)
    if (m.cell_regions[c] == beam) {
      EXPECT_EQ(m.cell_types[c], CellType::tet10);
    }
  EXPECT_NEAR(tet_volume(m, "beam"), 0.01, 1e-12);
  for (std::int64_t n : region_nodes(m, "clamp")) EXPECT_NEAR(m.coords[3 * n], 0.0, 1e-12);
  for (std::int64_t n : region_nodes(m, "tip")) EXPECT_NEAR(m.coords[3 * n], 1.0, 1e-12);
  for (std::int64_t n : region_nodes(m, "top")) EXPECT_NEAR(m.coords[3 * n + 2], 0.1, 1e-12);
}

TEST(GmshReader, ReadsThePlateWithHoleMesh) {
  const MeshData m = read_gmsh(production_mesh("plate_with_hole.msh"));
  expect_consistent(m);
  for (const char* name : {"plate", "left", "right", "hole"}) EXPECT_GT(count_cells(m, name), 0);
  EXPECT_EQ(m.regions[m.find_region("plate")].dim, 3);
  const double exact = 0.2 * 0.1 * 0.01 - M_PI * 0.02 * 0.02 * 0.01;
  EXPECT_NEAR(tet_volume(m, "plate"), exact, 0.01 * exact);  // straight-sided corners
  for (std::int64_t n : region_nodes(m, "hole"))
    EXPECT_NEAR(std::hypot(m.coords[3 * n] - 0.1, m.coords[3 * n + 1] - 0.05), 0.02, 1e-6);
  for (std::int64_t n : region_nodes(m, "left")) EXPECT_NEAR(m.coords[3 * n], 0.0, 1e-12);
  for (std::int64_t n : region_nodes(m, "right")) EXPECT_NEAR(m.coords[3 * n], 0.2, 1e-12);
}

TEST(GmshReader, ReadsTheUnitCubeMesh) {
  const MeshData m = read_gmsh(production_mesh("unit_cube_tet.msh"));
  expect_consistent(m);
  EXPECT_GE(m.num_nodes(), 1000);
  EXPECT_LE(m.num_nodes(), 3000);
  EXPECT_NEAR(tet_volume(m, "cube"), 1.0, 1e-12);
  const std::vector<std::tuple<std::string, int, double>> faces{{"xmin", 0, 0.0}, {"xmax", 0, 1.0},
                                                                {"ymin", 1, 0.0}, {"ymax", 1, 1.0},
                                                                {"zmin", 2, 0.0}, {"zmax", 2, 1.0}};
  for (const auto& [name, axis, value] : faces) {
    ASSERT_GT(count_cells(m, name), 0) << name;
    EXPECT_EQ(m.regions[m.find_region(name)].dim, 2);
    for (std::int64_t n : region_nodes(m, name))
      EXPECT_NEAR(m.coords[3 * n + axis], value, 1e-12) << name;
  }
}

// ------------------------------------------------------------------------------------------------
// Small inline files

// Lines:          1            2            3               4                5    6
const std::string tiny_22 =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n2 5 \"face\"\n"
    // 7                 8                  9        10   11          12
    "3 1 \"my solid\"\n$EndPhysicalNames\n$Nodes\n5\n10 0 0 0\n20 1 0 0\n"
    // 13        14          15          16          17           18
    "30 0 1 0\n40 0 0 1\n99 5 5 5\n$EndNodes\n$Elements\n2\n"
    // 19                          20                     21
    "1 4 2 1 1 10 20 30 40\n2 2 2 5 1 10 20 30\n$EndElements\n";

const std::string tiny_41 =
    "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
    "$Entities\n0 0 1 1\n"
    "3 0 0 0 1 1 0 2 5 6 0\n"  // surface 3 in physical groups 5 and 6
    "1 0 0 0 1 1 1 1 7 1 3\n"  // volume 1 in physical group 7, bounded by surface 3
    "$EndEntities\n"
    "$Nodes\n2 5 1 1000000000000\n"
    "2 3 0 3\n1\n1000000000000\n7\n0 0 0\n1 0 0\n0 1 0\n"
    "3 1 0 2\n55\n56\n0 0 1\n9 9 9\n"
    "$EndNodes\n"
    "$Elements\n2 2 1 2\n"
    "2 3 2 1\n1 1 1000000000000 7\n"
    "3 1 4 1\n2 1 1000000000000 7 55\n"
    "$EndElements\n";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(GmshReader, ReadsASmallHandWrittenMsh22File) {
  TempFiles tmp;
  const MeshData m = read_gmsh(tmp.write("tiny.msh", tiny_22));
  expect_consistent(m);
  EXPECT_EQ(m.num_nodes(), 4);  // node 99 is unused
  EXPECT_EQ(m.node_tags, (std::vector<std::int64_t>{10, 20, 30, 40}));
  ASSERT_EQ(m.num_cells(), 2);
  EXPECT_EQ(m.cell_types[0], CellType::tet4);
  EXPECT_EQ(m.cell_tags[1], 2);
  EXPECT_EQ(m.regions[m.cell_regions[0]].name, "my solid");  // names may contain spaces
  EXPECT_EQ(m.regions[m.cell_regions[1]].name, "face");
}

TEST(GmshReader, ReadsASmallHandWrittenMsh41FileWithHugeSparseTags) {
  TempFiles tmp;
  const MeshData m = read_gmsh(tmp.write("tiny41.msh", tiny_41));
  expect_consistent(m);
  EXPECT_EQ(m.num_nodes(), 4);  // node 56 is unused
  EXPECT_EQ(m.node_tags, (std::vector<std::int64_t>{1, 1000000000000, 7, 55}));
  EXPECT_EQ(point(m, 3), (std::array<double, 3>{0, 0, 1}));
  ASSERT_EQ(m.num_cells(), 3);  // the triangle is in two groups
  EXPECT_EQ(count_cells(m, "physical_2_5"), 1);
  EXPECT_EQ(count_cells(m, "physical_2_6"), 1);
  EXPECT_EQ(count_cells(m, "physical_3_7"), 1);
}

/// A one-tet MSH 4.1 binary file written field by field, with size_t fields of `size_bytes`.
std::string tiny_41_binary(int size_bytes) {
  std::string s = "$MeshFormat\n4.1 1 " + std::to_string(size_bytes) + "\n";
  auto put = [&s](auto value) { s.append(reinterpret_cast<const char*>(&value), sizeof value); };
  auto size = [&](std::uint64_t v) {
    if (size_bytes == 4)
      put(static_cast<std::uint32_t>(v));
    else
      put(v);
  };
  put(std::int32_t{1});
  s += "\n$EndMeshFormat\n$Entities\n";
  size(0), size(0), size(0), size(1);                      // one volume
  put(std::int32_t{1});                                    // its tag
  for (double x : {0.0, 0.0, 0.0, 1.0, 1.0, 1.0}) put(x);  // bounding box
  size(1), put(std::int32_t{7}), size(0);                  // physical group 7, no boundary
  s += "\n$EndEntities\n$Nodes\n";
  size(1), size(4), size(11), size(14);
  put(std::int32_t{3}), put(std::int32_t{1}), put(std::int32_t{1}), size(4);  // parametric
  for (std::uint64_t tag : {11, 12, 13, 14}) size(tag);
  for (double x : {0., 0., 0., .1, .2, .3, 1., 0., 0., .1, .2, .3,
                   0., 1., 0., .1, .2, .3, 0., 0., 1., .1, .2, .3})
    put(x);  // x y z u v w
  s += "\n$EndNodes\n$Elements\n";
  size(1), size(1), size(5), size(5);
  put(std::int32_t{3}), put(std::int32_t{1}), put(std::int32_t{4}), size(1);
  for (std::uint64_t v : {5, 11, 12, 13, 14}) size(v);
  s += "\n$EndElements\n";
  return s;
}

TEST(GmshReader, ReadsMsh41BinaryWithFourAndEightByteSizes) {
  TempFiles tmp;
  for (int size_bytes : {4, 8}) {
    SCOPED_TRACE(size_bytes);
    const std::string text = tiny_41_binary(size_bytes);
    const MeshData m = read_gmsh(tmp.write("tiny41b.msh", text));
    expect_consistent(m);
    EXPECT_EQ(m.node_tags, (std::vector<std::int64_t>{11, 12, 13, 14}));
    EXPECT_EQ(point(m, 3), (std::array<double, 3>{0, 0, 1}));
    ASSERT_EQ(m.num_cells(), 1);
    EXPECT_EQ(m.cell_tags[0], 5);
    EXPECT_EQ(m.regions[m.cell_regions[0]].name, "physical_3_7");
    EXPECT_NEAR(tet_volume(m, "physical_3_7"), 1.0 / 6.0, 1e-15);
  }
}

TEST(GmshReader, KeepsSecondOrderLinesOnABoundaryAsTwoLines) {
  TempFiles tmp;
  // a line3 (type 8) in a physical group of a 3D mesh becomes the line2 cells (10, 99) and
  // (99, 20): the group holds its middle node (a condition on a quad8 shell's edge holds it)
  const std::string text =
      replaced(tiny_22, "$Elements\n2\n", "$Elements\n3\n3 8 2 9 1 10 20 99\n");
  const MeshData m = read_gmsh(tmp.write("line3.msh", text));
  expect_consistent(m);
  ASSERT_EQ(count_cells(m, "physical_1_9"), 2);
  const int r = m.find_region("physical_1_9");
  std::vector<std::int64_t> tags;
  for (std::int64_t c = 0; c < m.num_cells(); ++c)
    if (m.cell_regions[c] == r) {
      EXPECT_EQ(m.cell_types[c], CellType::line2);
      for (const auto n : m.nodes_of(c)) tags.push_back(m.node_tags[static_cast<std::size_t>(n)]);
    }
  EXPECT_EQ(tags, (std::vector<std::int64_t>{10, 99, 99, 20}));
  EXPECT_EQ(m.num_nodes(), 5);  // the midpoint 99 is kept
}

TEST(GmshReader, SkipsUnsupportedLowerDimensionalElementsOutsideGroups) {
  TempFiles tmp;
  const std::string text =
      replaced(tiny_22, "$Elements\n2\n", "$Elements\n3\n3 16 2 0 1 10 20 30 40 10 20 30 40\n");
  const MeshData m = read_gmsh(tmp.write("quad8.msh", text));
  EXPECT_EQ(m.num_cells(), 2);
}

// ------------------------------------------------------------------------------------------------
// Malformed input: one-line InputError naming the file, the problem and the line

struct BadCase {
  std::string name;
  std::string text;
  std::string expected_part;  // a part of the message
  std::string where;          // "(line N)" or empty
};

TEST(GmshReader, RejectsMalformedAsciiFilesWithOneLineMessages) {
  TempFiles tmp;
  const std::vector<BadCase> cases{
      {"node_out_of_range", replaced(tiny_22, "1 1 10 20 30 40", "1 1 10 20 30 41"),
       "element 1 references node tag 41", "(line 19)"},
      {"negative_count", replaced(tiny_22, "$Nodes\n5\n", "$Nodes\n-5\n"), "negative", "(line 10)"},
      {"huge_count", replaced(tiny_22, "$Nodes\n5\n", "$Nodes\n9223372036854775807\n"),
       "more than the rest of the file", "(line 10)"},
      {"count_out_of_range", replaced(tiny_22, "$Nodes\n5\n", "$Nodes\n99999999999999999999999\n"),
       "out of range", "(line 10)"},
      {"huge_element_count", replaced(tiny_22, "$Elements\n2\n", "$Elements\n2000000000\n"),
       "more than the rest of the file", "(line 18)"},
      {"huge_tag_count", replaced(tiny_22, "1 4 2 1 1", "1 4 2000000000 1 1"),
       "more than the rest of the file", "(line 19)"},
      {"unknown_type", replaced(tiny_22, "2 2 2 5 1", "2 99 2 5 1"),
       "unknown Gmsh element type 99 (element tag 2)", "(line 20)"},
      {"unsupported_type_in_group",
       replaced(tiny_22, "1 4 2 1 1 10 20 30 40", "1 6 2 1 1 10 20 30 40 10 20"),
       "unsupported Gmsh element type 6 (prism6) for element tag 1 in physical group \"my solid\"",
       "(line 19)"},
      {"unsupported_3d_type_outside_groups",
       replaced(tiny_22, "$Elements\n2\n", "$Elements\n3\n3 6 2 0 1 10 20 30 40 10 20\n"),
       "unsupported Gmsh element type 6 (prism6) for element tag 3", "(line 19)"},
      {"second_order_line_as_only_cells",
       "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 2 0 0\n$EndNodes\n"
       "$Elements\n1\n1 8 2 1 1 1 3 2\n$EndElements\n",
       "Gmsh element type 8 (line3, element tag 1) is supported only on boundaries", "(line 12)"},
      {"missing_end_nodes", replaced(tiny_22, "$EndNodes\n", ""),
       "expected $EndNodes, found '$Elements'", "(line 16)"},
      {"wrong_section_end", replaced(tiny_22, "$EndNodes\n", "$EndNode\n"),
       "expected $EndNodes, found '$EndNode'", "(line 16)"},
      {"duplicate_node_tag", replaced(tiny_22, "20 1 0 0", "10 1 0 0"), "duplicate node tag 10",
       "(line 12)"},
      {"garbage_coordinate", replaced(tiny_22, "20 1 0 0", "20 1 abc 0"),
       "expected a finite node coordinate, found 'abc'", "(line 12)"},
      {"nan_coordinate", replaced(tiny_22, "20 1 0 0", "20 1 nan 0"), "finite", "(line 12)"},
      {"negative_node_tag", replaced(tiny_22, "20 1 0 0", "-20 1 0 0"), "negative node tag",
       "(line 12)"},
      {"elements_before_nodes",
       "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Elements\n0\n$EndElements\n",
       "$Elements before $Nodes", "(line 4)"},
      {"no_elements", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n",
       "no $Elements section", "(line 7)"},
      {"missing_end_of_unknown_section", replaced(tiny_22, "$Nodes\n", "$Foo\nbar\n$Nodes\n"),
       "section $Foo has no $EndFoo", "(line 9)"},
      {"unexpected_end_marker", replaced(tiny_22, "$Nodes\n", "$EndFoo\n$Nodes\n"),
       "unexpected $EndFoo", "(line 9)"},
      {"stray_text", replaced(tiny_22, "$Nodes\n", "hello\n$Nodes\n"), "expected a section header",
       "(line 9)"},
      {"unterminated_name", replaced(tiny_22, "\"face\"", "\"face"),
       "physical name without closing quote", "(line 6)"},
      {"bad_name_dimension", replaced(tiny_22, "2 5 \"face\"", "7 5 \"face\""),
       "physical group dimension 7 is out of range", "(line 6)"},
      {"msh40", replaced(tiny_22, "2.2 0 8", "4 0 8"), "MSH 4.0 is not supported", "(line 2)"},
      {"msh3", replaced(tiny_22, "2.2 0 8", "3.0 0 8"), "unsupported MSH version 3.0", "(line 2)"},
      {"bad_file_type", replaced(tiny_22, "2.2 0 8", "2.2 2 8"), "file type 2", "(line 2)"},
      {"second_nodes_section", replaced(tiny_22, "$Elements", "$Nodes\n0\n$EndNodes\n$Elements"),
       "second $Nodes section", "(line 17)"},
      {"block_count_mismatch_41", replaced(tiny_41, "$Nodes\n2 5 ", "$Nodes\n2 6 "),
       "$Nodes declares 6 nodes but its blocks hold 5", "(line 22)"},
      {"too_many_nodes_in_blocks_41", replaced(tiny_41, "$Nodes\n2 5 ", "$Nodes\n2 4 "),
       "node blocks hold more nodes than the declared 4", "(line 18)"},
      {"huge_node_count_41", replaced(tiny_41, "$Nodes\n2 5 ", "$Nodes\n2 18446744073709551615 "),
       "out of range", "(line 10)"},
      {"huge_block_count_41", replaced(tiny_41, "$Elements\n2 2 ", "$Elements\n200000000000 2 "),
       "more than the rest of the file", "(line 25)"},
      {"unknown_entity_41", replaced(tiny_41, "3 1 4 1\n", "3 4 4 1\n"),
       "element block of entity (dim 3, tag 4), which is not in $Entities", "(line 28)"},
      {"dimension_mismatch_41", replaced(tiny_41, "3 1 4 1\n", "2 3 4 1\n"),
       "element type 4 (tet4) in a block of dimension 2", "(line 28)"},
      {"bad_parametric_flag_41", replaced(tiny_41, "2 3 0 3\n", "2 3 5 3\n"),
       "bad parametric flag 5", "(line 11)"},
      {"duplicate_entity_41", replaced(tiny_41, "0 0 1 1\n3 0", "0 0 2 1\n3 0 0 0 1 1 0 0 0\n3 0"),
       "duplicate entity (dim 2, tag 3)", "(line 7)"},
      {"partitioned_41", replaced(tiny_41, "$Nodes\n", "$PartitionedEntities\n$Nodes\n"),
       "partitioned MSH files are not supported", "(line 9)"},
      {"unknown_type_41", replaced(tiny_41, "2 3 2 1\n", "2 3 77 1\n"),
       "unknown Gmsh element type 77 (element tag 1)", "(line 27)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path file = tmp.write(c.name + ".msh", c.text);
    const std::string message = error_of(file);
    EXPECT_NE(message.find(c.expected_part), std::string::npos) << message;
    expect_well_formed_message(message, file);
    if (!c.where.empty()) {
      EXPECT_TRUE(message.ends_with(c.where)) << message;
    }
  }
}

// Each file below has the right number of numbers in every section, but not on the right lines:
// a reader that takes the section as one stream of numbers reads all of them (in the first case a
// tet4 is lost and a stray tri3 appears). Every ASCII line must hold exactly its fields.
TEST(GmshReader, RejectsLinesWithTheWrongNumberOfFields) {
  TempFiles tmp;
  const std::vector<BadCase> cases{
      // MSH 2.2
      {"element_line_with_an_extra_field_22",
       replaced(tiny_22, "1 4 2 1 1 10 20 30 40\n2 2 2 5 1 10 20 30\n",
                "1 2 2 5 1 10 20 30 7\n2 4 2 1 1 10 20 30 40\n"),
       "element line has 9 fields, expected 8", "(line 19)"},
      {"element_line_missing_a_field_22",
       replaced(tiny_22, "1 4 2 1 1 10 20 30 40\n2 2 2 5 1 10 20 30\n",
                "1 4 2 1 1 10 20 30\n40 2 2 2 5 1 10 20 30\n"),
       "element line has 8 fields, expected 9", "(line 19)"},
      {"node_line_with_an_extra_field_22",
       replaced(tiny_22, "20 1 0 0\n30 0 1 0\n", "20 1 0 0 30\n0 1 0\n"),
       "node line has 5 fields, expected 4", "(line 12)"},
      {"physical_name_line_with_an_extra_field_22",
       replaced(tiny_22, "2 5 \"face\"\n3 1 ", "2 5 \"face\" 3\n1 "),
       "physical name line has 4 fields, expected 3", "(line 6)"},
      {"format_line_split_22", replaced(tiny_22, "2.2 0 8\n", "2.2 0\n8\n"),
       "format line has 2 fields, expected 3", "(line 2)"},
      {"count_on_the_section_header_22", replaced(tiny_22, "$Nodes\n5\n", "$Nodes 5\n"),
       "section header line has 2 fields, expected 1", "(line 9)"},
      {"count_with_the_first_node_22", replaced(tiny_22, "$Nodes\n5\n10 ", "$Nodes\n5 10 "),
       "node count line has 5 fields, expected 1", "(line 10)"},
      {"end_marker_after_the_last_node_22",
       replaced(tiny_22, "99 5 5 5\n$EndNodes", "99 5 5 5 $EndNodes"),
       "node line has 5 fields, expected 4", "(line 15)"},
      {"end_marker_after_the_last_name_22",
       replaced(tiny_22, "\"my solid\"\n$EndPhysicalNames", "\"my solid\" $EndPhysicalNames"),
       "physical name line has 4 fields, expected 3", "(line 7)"},
      {"next_header_after_the_end_marker_22",
       replaced(tiny_22, "$EndNodes\n$Elements\n", "$EndNodes $Elements\n"),
       "section end line has 2 fields, expected 1", "(line 16)"},
      // MSH 4.1
      {"entity_counts_split_41", replaced(tiny_41, "0 0 1 1\n", "0 0\n1 1\n"),
       "entity count line has 2 fields, expected 4", "(line 5)"},
      {"entity_line_split_41",
       replaced(tiny_41, "3 0 0 0 1 1 0 2 5 6 0\n", "3 0 0 0 1 1 0 2 5 6\n0\n"),
       "entity line has 10 fields, expected 11", "(line 6)"},
      {"nodes_header_split_41",
       replaced(tiny_41, "$Nodes\n2 5 1 1000000000000\n", "$Nodes\n2 5\n1 1000000000000\n"),
       "$Nodes header line has 2 fields, expected 4", "(line 10)"},
      {"node_block_header_split_41", replaced(tiny_41, "2 3 0 3\n", "2 3 0\n3\n"),
       "node block header line has 3 fields, expected 4", "(line 11)"},
      {"node_tags_on_one_line_41",
       replaced(tiny_41, "1\n1000000000000\n7\n", "1 1000000000000 7\n"),
       "node tag line has 3 fields, expected 1", "(line 12)"},
      {"node_coordinates_shifted_41", replaced(tiny_41, "0 0 0\n1 0 0\n", "0 0 0 1\n0 0\n"),
       "node coordinates line has 4 fields, expected 3", "(line 15)"},
      {"elements_header_split_41",
       replaced(tiny_41, "$Elements\n2 2 1 2\n", "$Elements\n2 2\n1 2\n"),
       "$Elements header line has 2 fields, expected 4", "(line 25)"},
      {"element_block_header_split_41", replaced(tiny_41, "2 3 2 1\n", "2 3\n2 1\n"),
       "element block header line has 2 fields, expected 4", "(line 26)"},
      {"element_line_with_an_extra_field_41",
       replaced(tiny_41, "1 1 1000000000000 7\n3 1 4 1\n", "1 1 1000000000000 7 3\n1 4 1\n"),
       "element line has 5 fields, expected 4", "(line 27)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path file = tmp.write(c.name + ".msh", c.text);
    const std::string message = error_of(file);
    EXPECT_NE(message.find(c.expected_part), std::string::npos) << message;
    expect_well_formed_message(message, file);
    EXPECT_TRUE(message.ends_with(c.where)) << message;
  }
}

// Binary data must end exactly where its counts say: the section end marker follows the data's
// line break directly. Blank bytes there (undeclared data that happens to look like white space)
// must not be skipped.
TEST(GmshReader, RejectsBinaryDataThatDoesNotEndWhereItsCountsSay) {
  TempFiles tmp;
  auto inserted_before = [](std::string text, const std::string& marker, const std::string& what) {
    const auto at = text.rfind(marker);
    EXPECT_NE(at, std::string::npos) << marker;
    if (at != std::string::npos) text.insert(at, what);
    return text;
  };
  const std::string tiny4 = tiny_41_binary(4);
  const std::string box22 = slurp(data_file("box_22_bin.msh"));
  const std::string box41 = slurp(data_file("box_41_bin.msh"));
  const std::vector<BadCase> cases{
      {"blank_line_before_end_of_nodes_41", inserted_before(tiny4, "\n$EndNodes", "\n"),
       "expected $EndNodes right after the binary data", ""},
      {"blank_field_after_the_last_element_41",
       inserted_before(tiny4, "\n$EndElements", std::string(8, ' ')),
       "expected $EndElements right after the binary data", ""},
      {"blank_byte_before_end_of_entities_41", inserted_before(box41, "\n$EndEntities", "\t"),
       "expected $EndEntities right after the binary data", ""},
      {"blank_line_before_end_of_format_41", inserted_before(box41, "\n$EndMeshFormat", "\n"),
       "expected $EndMeshFormat right after the binary data", ""},
      {"blank_byte_before_end_of_elements_22", inserted_before(box22, "\n$EndElements", " "),
       "expected $EndElements right after the binary data", ""},
      {"blank_line_before_end_of_nodes_22", inserted_before(box22, "\n$EndNodes", "\n"),
       "expected $EndNodes right after the binary data", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path file = tmp.write(c.name + ".msh", c.text);
    const std::string message = error_of(file);
    EXPECT_NE(message.find(c.expected_part), std::string::npos) << message;
    expect_well_formed_message(message, file);
    EXPECT_NE(message.find("(byte "), std::string::npos) << message;
  }
}

TEST(GmshReader, RejectsFilesThatAreNotMeshes) {
  TempFiles tmp;
  const std::vector<std::pair<std::string, std::string>> cases{
      {"empty", ""},
      {"blank", "  \n\n \t\n"},
      {"yaml", "mesh:\n  file: beam.msh\nmaterials:\n  - region: beam\n"},
      {"text", "The quick brown fox jumps over the lazy dog.\n"},
      {"binary_noise", std::string("\x7f"
                                   "ELF\x02\x01\x01\0\0\0",
                                   10)},
      {"header_only", "$MeshFormat\n"},
      {"format_only", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"},
  };
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    const fs::path file = tmp.write(name + ".msh", text);
    expect_well_formed_message(error_of(file), file);
  }
  const std::string missing = error_of(tmp.dir() / "does_not_exist.msh");
  EXPECT_NE(missing.find("does_not_exist.msh: cannot open"), std::string::npos) << missing;
  const std::string directory = error_of(tmp.dir());
  EXPECT_NE(directory.find("not a regular file"), std::string::npos) << directory;
}

TEST(GmshReader, RejectsMalformedBinaryFiles) {
  TempFiles tmp;
  const std::string good = slurp(data_file("box_41_bin.msh"));
  auto patched = [&](std::size_t at, std::uint64_t value, std::size_t bytes) {
    std::string text = good;
    std::memcpy(text.data() + at, &value, bytes);
    return text;
  };
  const std::size_t marker = good.find("8\n") + 2;
  const std::size_t nodes = good.find("$Nodes\n") + 7;
  const std::size_t elements = good.find("$Elements\n") + 10;
  const std::vector<BadCase> cases{
      {"other_byte_order", patched(marker, 0x01000000, 4), "other byte order", ""},
      {"bad_marker", patched(marker, 7, 4), "endianness marker", ""},
      {"huge_node_count", patched(nodes + 8, ~std::uint64_t{0}, 8), "more than the rest", ""},
      {"huge_node_blocks", patched(nodes, std::uint64_t{1} << 62, 8), "more than the rest", ""},
      {"huge_element_count", patched(elements + 8, std::uint64_t{1} << 40, 8), "more than the rest",
       ""},
      {"bad_entity_dim", patched(elements + 32, 9, 4), "bad entity dimension 9", ""},
      {"unknown_element_type", patched(elements + 40, 1000, 4),
       "unknown Gmsh element type 1000 (element tag 1)", ""},
      {"node_tag_out_of_range", patched(elements + 32 + 20 + 8, 123456789, 8),
       "references node tag 123456789", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path file = tmp.write(c.name + ".msh", c.text);
    const std::string message = error_of(file);
    EXPECT_NE(message.find(c.expected_part), std::string::npos) << message;
    expect_well_formed_message(message, file);
  }
  // MSH 2.2 binary: an element header claiming more elements than declared
  const std::string good22 = slurp(data_file("box_22_bin.msh"));
  std::string bad22 = good22;
  const std::size_t header = bad22.find('\n', bad22.find("$Elements\n") + 10) + 1;
  const std::int32_t huge = 2000000000;
  std::memcpy(bad22.data() + header + 4, &huge, 4);
  const fs::path file = tmp.write("bad22.msh", bad22);
  const std::string message = error_of(file);
  EXPECT_NE(message.find("bad element count 2000000000"), std::string::npos) << message;
}

/// Every truncation of `text` that cuts into its final $EndElements or before must be rejected.
void expect_truncations_rejected(const std::string& text, const TempFiles& tmp,
                                 const std::string& name) {
  const std::size_t complete = text.rfind("$EndElements") + std::string("$EndElements").size();
  std::set<std::size_t> lengths;
  for (std::size_t n = 0; n < std::min<std::size_t>(complete, 1500); ++n) lengths.insert(n);
  for (std::size_t n = 0; n < complete; n += 37) lengths.insert(n);
  for (std::size_t at = text.find('$'); at != std::string::npos && at < complete;
       at = text.find('$', at + 1))
    for (std::size_t n = at > 3 ? at - 3 : 0; n < std::min(at + 16, complete); ++n)
      lengths.insert(n);
  for (std::size_t n = complete - std::min<std::size_t>(complete, 300); n < complete; ++n)
    lengths.insert(n);
  // write once, then cut the file shorter and shorter
  const fs::path file = tmp.write(name, std::string_view(text).substr(0, complete));
  int rejected = 0;
  for (auto it = lengths.rbegin(); it != lengths.rend(); ++it) {
    const std::size_t n = *it;
    fs::resize_file(file, n);
    try {
      read_gmsh(file);
      ADD_FAILURE() << name << " truncated to " << n << " bytes was read";
    } catch (const InputError& e) {
      ++rejected;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_EQ(rejected, static_cast<int>(lengths.size()));
}

TEST(GmshReader, RejectsEveryTruncationOfAsciiFiles) {
  TempFiles tmp;
  expect_truncations_rejected(tiny_22, tmp, "tiny22.msh");
  expect_truncations_rejected(tiny_41, tmp, "tiny41.msh");
  expect_truncations_rejected(slurp(data_file("box_41.msh")), tmp, "box41.msh");
  expect_truncations_rejected(slurp(data_file("box_22.msh")), tmp, "box22.msh");
}

TEST(GmshReader, RejectsEveryTruncationOfBinaryFiles) {
  TempFiles tmp;
  expect_truncations_rejected(tiny_41_binary(4), tmp, "tiny41b4.msh");
  expect_truncations_rejected(tiny_41_binary(8), tmp, "tiny41b8.msh");
  expect_truncations_rejected(slurp(data_file("box_41_bin.msh")), tmp, "box41b.msh");
  expect_truncations_rejected(slurp(data_file("box_22_bin.msh")), tmp, "box22b.msh");
  expect_truncations_rejected(slurp(data_file("box_41_param_bin.msh")), tmp, "box41pb.msh");
}

TEST(GmshReader, SurvivesRandomCorruption) {
  TempFiles tmp;
  std::mt19937 random(12345);
  const std::string alphabet = "0123456789-+.e $\n\"\t";
  int parsed = 0, rejected = 0;
  for (const char* name : {"box_41.msh", "box_22.msh", "box_41_bin.msh", "box_22_bin.msh",
                           "box_tet10_22_bin.msh", "two_boxes_41.msh"}) {
    const std::string good = slurp(data_file(name));
    for (int trial = 0; trial < 150; ++trial) {
      std::string text = good;
      const int changes = 1 + static_cast<int>(random() % 8);
      for (int k = 0; k < changes; ++k) {
        const std::size_t at = random() % text.size();
        text[at] = (random() % 2) ? alphabet[random() % alphabet.size()]
                                  : static_cast<char>(random() % 256);
      }
      const fs::path file = tmp.write("corrupt.msh", text);
      try {
        const MeshData m = read_gmsh(file);
        expect_consistent(m);
        ++parsed;
      } catch (const InputError& e) {
        ++rejected;
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind(file.string() + ": ", 0), 0u) << e.what();
      }
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_EQ(parsed + rejected, 6 * 150);
}

}  // namespace
}  // namespace inertia
