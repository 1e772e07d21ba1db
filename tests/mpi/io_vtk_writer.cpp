// VtkSeriesWriter: per-rank pieces, .pvtu and .pvd, read back with VTK's own readers on rank 0.
// Rank r owns a hex8 and a tet10 shifted by 3r in x; at np = 3 rank 2 owns nothing.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/io/vtk_writer.hpp"
#include "inertia/parallel/session.hpp"

namespace fs = std::filesystem;
using inertia::CellType;
using inertia::io::Field;
using inertia::io::PieceMesh;
using inertia::io::VtkSeriesWriter;

namespace {

MPI_Comm world() { return MPI_COMM_WORLD; }

/// A fresh directory per test and per process count (ctest may run np=1,2,3 at once).
fs::path fresh_dir(const std::string& test) {
  fs::path dir = fs::path(INERTIA_BINARY_DIR) / "test_output" / "io_vtk_writer" /
                 ("np" + std::to_string(inertia::size_of(world()))) / test;
  if (inertia::rank_of(world()) == 0) fs::remove_all(dir);
  MPI_Barrier(world());
  return dir;
}

// Expected values, as functions of position, step and owner so that they can be checked after
// VTK has appended the pieces.
std::array<double, 3> displacement_at(const double* x, int step) {
  return {0.01 * (step + 1) * x[0], -0.02 * (step + 1) * x[1], 0.5 * step + x[2]};
}
std::array<double, 3> velocity_at(const double* x, int step) {
  return {1.0 + step, x[0] * x[1], -x[2] - step};
}
int region_of(int vtk_type) { return vtk_type == 12 ? 7 : 9; }  // hex8 -> 7, tet10 -> 9
double von_mises_of(int rank, int vtk_type, int step) {
  return 1000.0 * rank + (vtk_type == 12 ? 0.0 : 1.0) + 0.125 * step;
}

/// One rank's piece and its fields.
struct Piece {
  std::vector<double> coords;
  std::vector<CellType> types;
  std::vector<std::int64_t> offsets, nodes;
  std::vector<double> displacement, velocity, von_mises, stress;
  std::vector<std::int32_t> rank, region;

  Piece(int r, bool empty, int step) {
    if (!empty) {
      const double x0 = 3.0 * r;
      const double hex[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
      for (auto& p : hex) coords.insert(coords.end(), {x0 + p[0], p[1], p[2]});
      const double tet[4][3] = {{1.5, 0, 0}, {2.5, 0, 0}, {1.5, 1, 0}, {1.5, 0, 1}};
      const int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};  // VTK order
      for (auto& p : tet) coords.insert(coords.end(), {x0 + p[0], p[1], p[2]});
      for (auto& e : edges)
        for (int k = 0; k < 3; ++k)
          coords.push_back(0.5 * (tet[e[0]][k] + tet[e[1]][k]) + (k == 0 ? x0 : 0.0));
      types = {CellType::hex8, CellType::tet10};
      offsets = {0, 8, 18};
      for (std::int64_t i = 0; i < 18; ++i) nodes.push_back(i);
    }
    for (std::size_t p = 0; p < coords.size() / 3; ++p) {
      auto d = displacement_at(&coords[3 * p], step);
      auto v = velocity_at(&coords[3 * p], step);
      displacement.insert(displacement.end(), d.begin(), d.end());
      velocity.insert(velocity.end(), v.begin(), v.end());
    }
    for (CellType t : types) {
      const int vtk = inertia::info(t).vtk_id;
      von_mises.push_back(von_mises_of(r, vtk, step));
      for (int k = 0; k < 6; ++k) stress.push_back(von_mises.back() + k);
      rank.push_back(r);
      region.push_back(region_of(vtk));
    }
  }

  PieceMesh mesh() const { return {coords, types, offsets, nodes}; }
  std::vector<Field> point_fields() const {
    return {{"displacement", 3, displacement, {}}, {"velocity", 3, velocity, {}}};
  }
  std::vector<Field> cell_fields() const {
    return {{"von_mises", 1, von_mises, {}},
            {"stress", 6, stress, {}},
            {"rank", 1, {}, rank},
            {"region", 1, {}, region}};
  }
};

struct PvdEntry {
  std::string timestep, file;
};

/// Parses a .pvd with VTK's XML parser; `valid` false if it is not a well-formed collection.
std::vector<PvdEntry> read_pvd(const fs::path& path, bool& valid) {
  std::vector<PvdEntry> entries;
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(path.c_str());
  valid = parser->Parse() == 1;
  vtkXMLDataElement* root = valid ? parser->GetRootElement() : nullptr;
  valid = root && std::string(root->GetName()) == "VTKFile" && root->GetAttribute("type") &&
          std::string(root->GetAttribute("type")) == "Collection";
  vtkXMLDataElement* collection = valid ? root->FindNestedElementWithName("Collection") : nullptr;
  valid = valid && collection;
  for (int i = 0; valid && i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* e = collection->GetNestedElement(i);
    const char* t = e->GetAttribute("timestep");
    const char* f = e->GetAttribute("file");
    valid = std::string(e->GetName()) == "DataSet" && t && f;
    if (valid) entries.push_back({t, f});
  }
  return entries;
}

std::int64_t bytes_on_disk(const fs::path& dir, const std::string& stem) {
  std::int64_t bytes = static_cast<std::int64_t>(fs::file_size(dir / (stem + ".pvtu")));
  for (const auto& entry : fs::directory_iterator(dir / stem))
    bytes += static_cast<std::int64_t>(fs::file_size(entry.path()));
  return bytes;
}

/// Rank 0: reads one .pvtu and checks everything against what the ranks wrote.
void check_step(const fs::path& pvtu, int step, int num_ranks, int num_nonempty) {
  SCOPED_TRACE(pvtu.string());
  vtkNew<vtkXMLPUnstructuredGridReader> reader;
  reader->SetFileName(pvtu.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0);
  EXPECT_EQ(reader->GetNumberOfPieces(), num_ranks);
  vtkUnstructuredGrid* grid = reader->GetOutput();
  ASSERT_NE(grid, nullptr);  // rank 0 only, no collective follows inside
  EXPECT_EQ(grid->GetNumberOfPoints(), 18 * num_nonempty);
  EXPECT_EQ(grid->GetNumberOfCells(), 2 * num_nonempty);
  EXPECT_EQ(grid->GetPoints() ? grid->GetPoints()->GetDataType() : -1, VTK_DOUBLE);

  auto* pd = grid->GetPointData();
  auto* cd = grid->GetCellData();
  EXPECT_EQ(pd->GetNumberOfArrays(), 2);
  EXPECT_EQ(cd->GetNumberOfArrays(), 4);
  struct Expect {
    vtkFieldData* data;
    const char* name;
    int components, type;
  };
  for (auto [data, name, components, type] :
       {Expect{pd, "displacement", 3, VTK_DOUBLE}, Expect{pd, "velocity", 3, VTK_DOUBLE},
        Expect{cd, "von_mises", 1, VTK_DOUBLE}, Expect{cd, "stress", 6, VTK_DOUBLE},
        Expect{cd, "rank", 1, VTK_INT}, Expect{cd, "region", 1, VTK_INT}}) {
    vtkDataArray* a = data->GetArray(name);
    EXPECT_NE(a, nullptr) << name;
    if (!a) return;
    EXPECT_EQ(a->GetNumberOfComponents(), components) << name;
    EXPECT_EQ(a->GetDataType(), type) << name;
  }
  EXPECT_STREQ(pd->GetVectors() ? pd->GetVectors()->GetName() : "", "displacement");

  vtkDataArray* disp = pd->GetArray("displacement");
  vtkDataArray* vel = pd->GetArray("velocity");
  int bad_points = 0;
  for (vtkIdType p = 0; p < grid->GetNumberOfPoints(); ++p) {
    double x[3];
    grid->GetPoint(p, x);
    auto d = displacement_at(x, step);
    auto v = velocity_at(x, step);
    for (int k = 0; k < 3; ++k)
      if (disp->GetComponent(p, k) != d[k] || vel->GetComponent(p, k) != v[k]) ++bad_points;
  }
  EXPECT_EQ(bad_points, 0);

  vtkDataArray* vm = cd->GetArray("von_mises");
  vtkDataArray* stress = cd->GetArray("stress");
  vtkDataArray* rank = cd->GetArray("rank");
  vtkDataArray* region = cd->GetArray("region");
  int bad_cells = 0;
  std::vector<int> cells_of_rank(num_ranks, 0);
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    const int type = grid->GetCellType(c);
    const int r = static_cast<int>(rank->GetComponent(c, 0));
    if (r < 0 || r >= num_ranks) {
      ++bad_cells;
      continue;
    }
    ++cells_of_rank[r];
    // VTK reads pieces in rank order: cell 2r is the hex8, 2r + 1 the tet10 (empty ranks last).
    if (type != (c % 2 == 0 ? 12 : 24) || r != c / 2) ++bad_cells;
    if (grid->GetCell(c)->GetNumberOfPoints() != (type == 12 ? 8 : 10)) ++bad_cells;
    if (region->GetComponent(c, 0) != region_of(type)) ++bad_cells;
    if (vm->GetComponent(c, 0) != von_mises_of(r, type, step)) ++bad_cells;
    for (int k = 0; k < 6; ++k)
      if (stress->GetComponent(c, k) != von_mises_of(r, type, step) + k) ++bad_cells;
  }
  EXPECT_EQ(bad_cells, 0);
  for (int r = 0; r < num_ranks; ++r) EXPECT_EQ(cells_of_rank[r], r < num_nonempty ? 2 : 0) << r;
}

}  // namespace

TEST(VtkSeriesWriter, WritesThreeStepsThatVtkReadsBack) {
  const int rank = inertia::rank_of(world()), size = inertia::size_of(world());
  const bool empty = size == 3 && rank == 2;
  const int nonempty = size == 3 ? 2 : size;
  const fs::path dir = fresh_dir("three_steps");
  const double times[3] = {0.0, 0.1, 0.25};
  const std::string expected_times[3] = {"0", "0.10000000000000001", "0.25"};

  bool ok = true;
  std::vector<std::int64_t> bytes;
  try {
    VtkSeriesWriter writer(world(), dir, "beam");
    EXPECT_EQ(writer.pvd_path(), dir / "beam.pvd");
    for (int step = 0; step < 3; ++step) {
      Piece piece(rank, empty, step);
      auto pf = piece.point_fields();
      auto cf = piece.cell_fields();
      bytes.push_back(writer.write(times[step], piece.mesh(), pf, cf));
      ok = ok && writer.steps_written() == step + 1;
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
    ok = false;
  }
  EXPECT_TRUE(inertia::all_true(world(), ok));
  // The byte count is a global sum: the same on every rank.
  std::int64_t first = bytes.empty() ? -1 : bytes[0], min_first = 0, max_first = 0;
  MPI_Allreduce(&first, &min_first, 1, MPI_INT64_T, MPI_MIN, world());
  MPI_Allreduce(&first, &max_first, 1, MPI_INT64_T, MPI_MAX, world());
  EXPECT_EQ(min_first, max_first);

  if (rank == 0 && bytes.size() == 3) {
    bool valid = false;
    auto entries = read_pvd(dir / "beam.pvd", valid);
    EXPECT_TRUE(valid);
    EXPECT_EQ(entries.size(), 3u);
    for (std::size_t s = 0; s < entries.size() && s < 3; ++s) {
      EXPECT_EQ(entries[s].timestep, expected_times[s]);
      EXPECT_DOUBLE_EQ(std::stod(entries[s].timestep), times[s]);
      char stem[32];
      std::snprintf(stem, sizeof stem, "beam_%06zu", s);
      EXPECT_EQ(entries[s].file, std::string(stem) + ".pvtu");
      EXPECT_EQ(bytes[s], bytes_on_disk(dir, stem)) << stem;
      EXPECT_TRUE(fs::exists(dir / stem / "piece_0000.vtu"));
      check_step(dir / entries[s].file, static_cast<int>(s), size, nonempty);
    }
    EXPECT_FALSE(fs::exists(dir / "beam.pvd.tmp"));
    if (size == 3) {
      // The empty piece is a valid .vtu on its own.
      vtkNew<vtkXMLUnstructuredGridReader> reader;
      reader->SetFileName((dir / "beam_000002" / "piece_0002.vtu").c_str());
      reader->Update();
      EXPECT_EQ(reader->GetErrorCode(), 0);
      EXPECT_EQ(reader->GetOutput()->GetNumberOfPoints(), 0);
      EXPECT_EQ(reader->GetOutput()->GetNumberOfCells(), 0);
      EXPECT_NE(reader->GetOutput()->GetCellData()->GetArray("rank"), nullptr);
    }
  }
  MPI_Barrier(world());
}

TEST(VtkSeriesWriter, PvdListsExactlyTheStepsWrittenSoFar) {
  const int rank = inertia::rank_of(world());
  const fs::path dir = fresh_dir("pvd_so_far");
  // An old series is replaced, not extended.
  if (rank == 0) {
    fs::create_directories(dir);
    std::ofstream(dir / "run.pvd") << "<VTKFile type=\"Collection\"><Collection>"
                                      "<DataSet timestep=\"9\" file=\"old.pvtu\"/>"
                                      "</Collection></VTKFile>\n";
  }
  MPI_Barrier(world());
  bool ok = true;
  try {
    VtkSeriesWriter writer(world(), dir, "run");
    for (int step = 0; step <= 4; ++step) {
      if (step > 0) {
        Piece piece(rank, rank == 1, step);  // rank 1 empty at np >= 2
        auto pf = piece.point_fields();
        auto cf = piece.cell_fields();
        writer.write(0.5 * step, piece.mesh(), pf, cf);
      }
      if (rank == 0) {
        bool valid = false;
        auto entries = read_pvd(writer.pvd_path(), valid);
        EXPECT_TRUE(valid) << "after " << step << " writes";
        EXPECT_EQ(entries.size(), static_cast<std::size_t>(step));
        for (std::size_t s = 0; s < entries.size(); ++s) {
          const char* expected[4] = {"0.5", "1", "1.5", "2"};
          EXPECT_EQ(entries[s].timestep, expected[s]);
          EXPECT_TRUE(fs::exists(dir / entries[s].file)) << entries[s].file;
        }
        EXPECT_FALSE(fs::exists(dir / "run.pvd.tmp"));
      }
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
    ok = false;
  }
  EXPECT_TRUE(inertia::all_true(world(), ok));
}

TEST(VtkSeriesWriter, UnwritableDirectoryThrowsOnEveryRank) {
  const fs::path dir = fresh_dir("unwritable");
  const fs::path file = dir / "regular_file";
  if (inertia::rank_of(world()) == 0) {
    fs::create_directories(dir);
    std::ofstream(file) << "not a directory\n";
  }
  MPI_Barrier(world());
  const fs::path bad = file / "out";
  bool threw_input_error = false, names_path = false;
  try {
    VtkSeriesWriter writer(world(), bad, "case");
  } catch (const inertia::InputError& e) {
    threw_input_error = true;
    names_path = std::string(e.what()).find(bad.string()) != std::string::npos;
  } catch (...) {
  }
  EXPECT_TRUE(inertia::all_true(world(), threw_input_error));
  EXPECT_TRUE(inertia::all_true(world(), names_path));
}

TEST(VtkSeriesWriter, BadFieldOnOneRankThrowsOnEveryRank) {
  const int rank = inertia::rank_of(world()), size = inertia::size_of(world());
  const fs::path dir = fresh_dir("bad_field");
  bool threw = false, constructed = false;
  try {
    VtkSeriesWriter writer(world(), dir, "bad");
    constructed = true;
    Piece piece(rank, false, 0);
    auto pf = piece.point_fields();
    auto cf = piece.cell_fields();
    if (rank == size - 1) pf[1].values = pf[1].values.first(5);  // wrong length on the last rank
    writer.write(0.0, piece.mesh(), pf, cf);
  } catch (const inertia::Error& e) {
    threw = std::string(e.what()).find("velocity") != std::string::npos;
  }
  EXPECT_TRUE(inertia::all_true(world(), constructed && threw));
  // Nothing was listed for the failed step.
  if (rank == 0) {
    bool valid = false;
    auto entries = read_pvd(dir / "bad.pvd", valid);
    EXPECT_TRUE(valid);
    EXPECT_TRUE(entries.empty());
  }
  MPI_Barrier(world());
}

TEST(VtkSeriesWriter, EmptyLastRankAndAllEmpty) {
  // The last rank is empty; at np = 1 the whole mesh is empty, still a valid series.
  const int rank = inertia::rank_of(world()), size = inertia::size_of(world());
  const fs::path dir = fresh_dir("empty_last");
  bool ok = true;
  std::int64_t bytes = 0;
  try {
    VtkSeriesWriter writer(world(), dir, "e");
    Piece piece(rank, rank == size - 1, 0);
    auto pf = piece.point_fields();
    auto cf = piece.cell_fields();
    bytes = writer.write(1e-3, piece.mesh(), pf, cf);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
    ok = false;
  }
  EXPECT_TRUE(inertia::all_true(world(), ok && bytes > 0));
  if (rank == 0 && ok) {
    vtkNew<vtkXMLPUnstructuredGridReader> reader;
    reader->SetFileName((dir / "e_000000.pvtu").c_str());
    reader->Update();
    EXPECT_EQ(reader->GetErrorCode(), 0);
    EXPECT_EQ(reader->GetOutput()->GetNumberOfPoints(), 18 * (size - 1));
    EXPECT_EQ(reader->GetOutput()->GetNumberOfCells(), 2 * (size - 1));
    EXPECT_NE(reader->GetOutput()->GetPointData()->GetArray("displacement"), nullptr);
    EXPECT_NE(reader->GetOutput()->GetCellData()->GetArray("rank"), nullptr);
    bool valid = false;
    auto entries = read_pvd(dir / "e.pvd", valid);
    EXPECT_TRUE(valid);
    EXPECT_EQ(entries.size(), 1u);
    if (!entries.empty()) {
      EXPECT_EQ(entries[0].timestep, "0.001");
    }
  }
  MPI_Barrier(world());
}

TEST(VtkSeriesWriter, FailedStepThrowsOnEveryRankAndIsNotListed) {
  const int rank = inertia::rank_of(world());
  const fs::path dir = fresh_dir("blocked_step");
  bool constructed = false, threw = false, nothing_written = false;
  try {
    VtkSeriesWriter writer(world(), dir, "blk");
    constructed = true;
    // A regular file where the step's piece directory goes: nobody can write a piece.
    if (rank == 0) std::ofstream(dir / "blk_000000") << "in the way\n";
    MPI_Barrier(world());
    Piece piece(rank, false, 0);
    auto pf = piece.point_fields();
    auto cf = piece.cell_fields();
    try {
      writer.write(0.0, piece.mesh(), pf, cf);
    } catch (const inertia::Error& e) {
      threw = std::string(e.what()).find((dir / "blk_000000").string()) != std::string::npos;
    }
    nothing_written = writer.steps_written() == 0;
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  EXPECT_TRUE(inertia::all_true(world(), constructed && threw && nothing_written));
  if (rank == 0) {
    bool valid = false;
    auto entries = read_pvd(dir / "blk.pvd", valid);
    EXPECT_TRUE(valid);
    EXPECT_TRUE(entries.empty());
    EXPECT_FALSE(fs::exists(dir / "blk_000000.pvtu"));
  }
  MPI_Barrier(world());
}
