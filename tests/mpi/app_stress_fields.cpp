// Stress, strain and von Mises at probe points (probes.csv) and averaged at the nodes (the
// nodal_* VTK point arrays): a linear displacement and a uniaxial static tension give their
// constant stress exactly everywhere, on every element type and rank count; a probe samples the
// stress at its point, not at a node or as the cell average; the nodal averages are the same on
// every rank count and closer to beam theory than the faceted cell values; the frames carry them.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridReader.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/app/output_series.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;
namespace fs = std::filesystem;

namespace {

MPI_Comm world() { return MPI_COMM_WORLD; }
bool root() { return rank_of(world()) == 0; }

/// A fresh directory per test and per process count (ctest runs np = 1, 2, 3 at once).
fs::path fresh_dir(const std::string& test) {
  const fs::path dir = fs::path(INERTIA_BINARY_DIR) / "test_output" / "app_stress_fields" /
                       ("np" + std::to_string(size_of(world()))) / test;
  if (root()) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  MPI_Barrier(world());
  return dir;
}

constexpr double young = 2.0e5, poisson = 0.3;
constexpr double lambda = young * poisson / ((1 + poisson) * (1 - 2 * poisson));
constexpr double mu = young / (2 * (1 + poisson));

std::string materials_section(const std::string& region, double nu = poisson) {
  return "materials: [{region: " + region +
         ", density: 1.0, youngs_modulus: " + test::number(young) +
         ", poissons_ratio: " + test::number(nu) + "}]\n";
}
const std::string time_section = "time: {integrator: newmark, dt: 0.01, steps: 1}\n";

/// A mesh of the tests: the case's mesh section, its volume region and points inside it.
struct Mesh {
  std::string name, section, region;
  std::vector<std::array<double, 3>> points;  ///< inside, none a node nor a cell centre
};

Mesh box(const std::string& element) {
  return {"box_" + element,
          "mesh: {box: {lower: [0, 0, 0], upper: [2.0, 0.5, 0.25], cells: [6, 3, 2], element: " +
              element + "}}\n",
          "all",
          {{0.37, 0.13, 0.071}, {1.234, 0.4321, 0.2}, {1.9, 0.05, 0.21}}};
}

std::vector<Mesh> meshes() {
  return {box("hex8"),
          box("tet4"),
          box("tet10"),
          // no two cells parallelepipeds
          {"skewed_block",
           "mesh: {file: " INERTIA_SOURCE_DIR "/meshes/skewed_block.msh}\n",
           "block",
           {{0.5, 0.3, 0.25}, {0.21, 0.42, 0.3}, {0.8, 0.2, 0.12}}},
          // unstructured, partitioned by METIS
          {"unit_cube_tet",
           "mesh: {file: " INERTIA_SOURCE_DIR "/meshes/unit_cube_tet.msh}\n",
           "cube",
           {{0.3, 0.6, 0.45}, {0.91, 0.12, 0.77}, {0.5, 0.5, 0.5}}},
          {"cantilever",
           "mesh: {file: " INERTIA_SOURCE_DIR "/meshes/cantilever.msh}\n",
           "beam",
           {{0.37, 0.031, 0.066}, {0.9, 0.08, 0.02}, {0.05, 0.05, 0.05}}}};
}

/// Hooke's law for a displacement gradient G[3 i + j] = du_i / dx_j: strain, stress (VTK order).
void hooke(const double* G, double* strain, double* stress) {
  strain[0] = G[0], strain[1] = G[4], strain[2] = G[8];
  strain[3] = 0.5 * (G[1] + G[3]), strain[4] = 0.5 * (G[5] + G[7]), strain[5] = 0.5 * (G[2] + G[6]);
  const double tr = strain[0] + strain[1] + strain[2];
  for (int k = 0; k < 6; ++k) stress[k] = 2 * mu * strain[k] + (k < 3 ? lambda * tr : 0.0);
}

double von_mises(const double* s) {
  return std::sqrt(0.5 * ((s[0] - s[1]) * (s[0] - s[1]) + (s[1] - s[2]) * (s[1] - s[2]) +
                          (s[2] - s[0]) * (s[2] - s[0])) +
                   3 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

/// A displacement field and its gradient.
struct Field {
  std::function<std::array<double, 3>(const double*)> u;
  std::function<void(const double*, double*)> gradient;
};

/// Sets the owned DOFs of u (ghosts are updated by their readers).
void set_displacement(const MechanicalSystem& s, Vec u, const Field& f) {
  petsc::Array a(u);
  for (std::int32_t n = 0; n < s.mesh().num_owned; ++n) {
    const auto value = f.u(&s.mesh().coords[3 * n]);
    for (int i = 0; i < 3; ++i) a[3 * n + i] = value[i];
  }
}

/// u = b + A x.
Field linear_field() {
  static const double A[9] = {1.0e-3, 0.4e-3, -0.3e-3, -0.2e-3, -0.6e-3,
                              0.5e-3, 0.7e-3, 0.1e-3,  0.8e-3};
  static const double b[3] = {1e-3, -2e-3, 0.5e-3};
  return {[](const double* x) {
            std::array<double, 3> v{};
            for (int i = 0; i < 3; ++i)
              v[i] = b[i] + A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
            return v;
          },
          [](const double*, double* G) { std::copy(A, A + 9, G); }};
}

/// u = 1e-3 (sin(2x + y), cos(x - 3z), sin(yz + x)): no element represents it, so cell values,
/// point values and nodal averages all differ.
Field smooth_field() {
  return {[](const double* x) {
            return std::array<double, 3>{1e-3 * std::sin(2 * x[0] + x[1]),
                                         1e-3 * std::cos(x[0] - 3 * x[2]),
                                         1e-3 * std::sin(x[1] * x[2] + x[0])};
          },
          [](const double* x, double* G) {
            const double a = std::cos(2 * x[0] + x[1]), b = std::sin(x[0] - 3 * x[2]),
                         c = std::cos(x[1] * x[2] + x[0]);
            const double g[9] = {2 * a, a, 0, -b, 0, 3 * b, c, x[2] * c, x[1] * c};
            for (int k = 0; k < 9; ++k) G[k] = 1e-3 * g[k];
          }};
}

/// One probes.csv row: the column names (after step,time), the values, the header comments.
struct ProbeRow {
  std::vector<std::string> columns;
  std::vector<double> values;
  std::string comments;

  double at(const std::string& column) const {
    for (std::size_t k = 0; k < columns.size() && k < values.size(); ++k)
      if (columns[k] == column) return values[k];
    ADD_FAILURE() << "no column " << column;
    return NAN;
  }
};

/// Collective over s's communicator. Locates `probes`, writes one row of `state` to `file` with
/// the probes.csv writer, and reads it back (on every rank).
ProbeRow record_probes(const MechanicalSystem& s, const std::vector<CaseProbe>& probes,
                       const State& state, const fs::path& file) {
  {
    Probes p(s.comm(), s.assembler(), locate_probes(s, probes, "test.yaml"), file);
    p.record(state);
    p.flush();
  }
  MPI_Barrier(s.comm());
  ProbeRow row;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("#")) {
      row.comments += line + "\n";
      continue;
    }
    std::vector<std::string> fields;
    std::stringstream text(line);
    for (std::string f; std::getline(text, f, ',');) fields.push_back(f);
    if (fields.size() < 2) continue;
    if (fields[0] == "step")
      row.columns.assign(fields.begin() + 2, fields.end());
    else
      for (std::size_t k = 2; k < fields.size(); ++k) row.values.push_back(std::stod(fields[k]));
  }
  return row;
}

CaseProbe probe(const std::string& name, const std::array<double, 3>& point,
                std::vector<std::string> fields) {
  return CaseProbe{name, point, Origin{}, std::move(fields)};
}

/// "p<i>" (built by cat: GCC 12 warns wrongly about "p" + std::to_string(i)).
std::string probe_name(std::size_t i) { return cat("p", i); }

const char* const stress_names[6] = {"sxx", "syy", "szz", "sxy", "syz", "sxz"};
const char* const strain_names[6] = {"exx", "eyy", "ezz", "exy", "eyz", "exz"};

double max_abs(const double* v, int n) {
  double m = 0;
  for (int k = 0; k < n; ++k) m = std::max(m, std::abs(v[k]));
  return m;
}

double max_over_ranks(double x) {
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, world());
  return x;
}

/// Worst difference over this rank's local nodes (owned and ghosts) between the nodal averages
/// and a constant strain and stress, relative to their largest component.
double worst_nodal_error(const NodalStress& nodal, const double* strain, const double* stress) {
  const double es = max_abs(strain, 6), ss = max_abs(stress, 6);
  double worst = 0;
  for (std::size_t n = 0; n < nodal.von_mises.size(); ++n) {
    for (int k = 0; k < 6; ++k) {
      worst = std::max(worst, std::abs(nodal.stress[6 * n + k] - stress[k]) / ss);
      worst = std::max(worst, std::abs(nodal.strain[6 * n + k] - strain[k]) / es);
    }
    worst = std::max(worst, std::abs(nodal.von_mises[n] - von_mises(stress)) / ss);
  }
  return worst;
}

class EveryMesh : public testing::TestWithParam<int> {};

std::string mesh_name(const testing::TestParamInfo<int>& info) { return meshes()[info.param].name; }

}  // namespace

TEST_P(EveryMesh, ALinearDisplacementGivesItsConstantStressAtProbesAndAtEveryNode) {
  const Mesh m = meshes()[GetParam()];
  Model model = build_model(
      world(), parse_case(m.section + materials_section(m.region) + time_section, "patch.yaml"));
  const MechanicalSystem& s = *model.system;
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  const Assembler& assembler = s.assembler();
  // First at u = 0, then at the field: the nodal sums start afresh at every call.
  CellStress cells;
  NodalStress nodal;
  assembler.cell_stress(state.u, cells);
  assembler.nodal_average(cells, nodal);
  const Field f = linear_field();
  set_displacement(s, state.u, f);
  assembler.cell_stress(state.u, cells);
  assembler.nodal_average(cells, nodal);
  double G[9], strain[6], stress[6];
  f.gradient(nullptr, G);
  hooke(G, strain, stress);
  EXPECT_EQ(nodal.von_mises.size(), static_cast<std::size_t>(s.mesh().num_local_nodes()));
  const double nodal_error = max_over_ranks(worst_nodal_error(nodal, strain, stress));
  EXPECT_LT(nodal_error, 1e-12);

  // A probe with the default fields keeps exactly the columns of before; the others list theirs
  // in the order given.
  std::vector<CaseProbe> probes{probe("plain", m.points[0], {"displacement", "velocity"})};
  std::vector<std::string> expected{"plain.ux", "plain.uy", "plain.uz",
                                    "plain.vx", "plain.vy", "plain.vz"};
  for (std::size_t i = 0; i < m.points.size(); ++i) {
    const std::string name = probe_name(i);
    probes.push_back(probe(name, m.points[i], {"von_mises", "stress", "strain", "displacement"}));
    expected.push_back(name + ".von_mises");
    for (auto c : stress_names) expected.push_back(name + "." + c);
    for (auto c : strain_names) expected.push_back(name + "." + c);
    for (auto c : {"ux", "uy", "uz"}) expected.push_back(name + "." + c);
  }
  const ProbeRow row = record_probes(s, probes, state, fresh_dir("patch_" + m.name) / "probes.csv");
  EXPECT_EQ(row.columns, expected);
  double probe_error = 0;
  for (std::size_t i = 0; i < m.points.size(); ++i) {
    const std::string name = probe_name(i) + ".";
    for (int k = 0; k < 6; ++k) {
      probe_error = std::max(
          probe_error, std::abs(row.at(name + stress_names[k]) - stress[k]) / max_abs(stress, 6));
      probe_error = std::max(
          probe_error, std::abs(row.at(name + strain_names[k]) - strain[k]) / max_abs(strain, 6));
    }
    probe_error = std::max(
        probe_error, std::abs(row.at(name + "von_mises") - von_mises(stress)) / max_abs(stress, 6));
  }
  if (root())
    std::printf("  %s: largest relative error %.2e at the probes, %.2e at the nodes\n",
                m.name.c_str(), probe_error, nodal_error);
  EXPECT_LT(probe_error, 1e-12);
  EXPECT_NE(row.comments.find("components xx yy zz xy yz xz"), std::string::npos) << row.comments;
}

INSTANTIATE_TEST_SUITE_P(Meshes, EveryMesh, testing::Range(0, 6), mesh_name);

namespace {

class BoxElement : public testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(BoxElement, UniaxialStaticTensionGivesForceOverAreaAtProbesAndAtEveryNode) {
  // A bar on symmetry supports pulled by a traction T on its end: sigma_xx = F / A = T, the
  // other components zero, strain T / E and -nu T / E, wherever it is sampled.
  const double T = 150.0;
  const Mesh m = box(GetParam());
  Model model =
      build_model(world(), parse_case(m.section + materials_section(m.region) +
                                          "boundary_conditions:\n"
                                          "  - {region: xmin, type: fixed, components: [x]}\n"
                                          "  - {region: ymin, type: fixed, components: [y]}\n"
                                          "  - {region: zmin, type: fixed, components: [z]}\n"
                                          "  - {region: xmax, type: traction, value: [" +
                                          test::number(T) + ", 0, 0]}\n" + time_section,
                                      "tension.yaml"));
  MechanicalSystem& s = *model.system;
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  petsc::Vector f = s.create_vector();
  s.external_force(0.0, f);
  s.solve(0.0, 1.0, f, state.u);  // K u = f
  const double stress[6] = {T, 0, 0, 0, 0, 0};
  const double strain[6] = {T / young, -poisson * T / young, -poisson * T / young, 0, 0, 0};
  CellStress cells;
  NodalStress nodal;
  s.assembler().cell_stress(state.u, cells);
  s.assembler().nodal_average(cells, nodal);
  const double nodal_error = max_over_ranks(worst_nodal_error(nodal, strain, stress));
  std::vector<CaseProbe> probes;
  for (std::size_t i = 0; i < m.points.size(); ++i)
    probes.push_back(probe(probe_name(i), m.points[i], {"stress", "strain"}));
  const ProbeRow row = record_probes(
      s, probes, state, fresh_dir(std::string("tension_") + GetParam()) / "probes.csv");
  double probe_error = 0;
  for (std::size_t i = 0; i < m.points.size(); ++i)
    for (int k = 0; k < 6; ++k) {
      const std::string name = probe_name(i) + ".";
      probe_error = std::max(probe_error, std::abs(row.at(name + stress_names[k]) - stress[k]) / T);
      probe_error =
          std::max(probe_error, std::abs(row.at(name + strain_names[k]) - strain[k]) / strain[0]);
    }
  if (root())
    std::printf(
        "  %s: sigma_xx = F/A = %g; largest relative error %.2e at the probes, %.2e at "
        "the nodes\n",
        GetParam(), T, probe_error, nodal_error);
  // The solve stops at a relative residual of 1e-10.
  EXPECT_LT(probe_error, 1e-7);
  EXPECT_LT(nodal_error, 1e-7);
}

INSTANTIATE_TEST_SUITE_P(Elements, BoxElement, testing::Values("hex8", "tet4", "tet10"),
                         [](const auto& info) { return std::string(info.param); });

namespace {

/// A displacement that `element` represents exactly on the box of box() but whose stress varies
/// in space: quadratic for tet10, trilinear (x y, y z, z x, x y z) for hex8 (the box's cells are
/// axis-aligned, so hex8's trilinear reference space is trilinear in x, y, z).
Field varying_field(const std::string& element) {
  if (element == "tet10")
    return {[](const double* x) {
              return std::array<double, 3>{
                  1e-3 * (x[0] * x[0] + 2 * x[1] * x[2] - 0.5 * x[0] * x[2]),
                  1e-3 * (0.7 * x[0] * x[1] - x[2] * x[2]),
                  1e-3 * (1.3 * x[0] * x[2] + 0.4 * x[1] * x[1])};
            },
            [](const double* x, double* G) {
              const double g[9] = {2 * x[0] - 0.5 * x[2],
                                   2 * x[2],
                                   2 * x[1] - 0.5 * x[0],
                                   0.7 * x[1],
                                   0.7 * x[0],
                                   -2 * x[2],
                                   1.3 * x[2],
                                   0.8 * x[1],
                                   1.3 * x[0]};
              for (int k = 0; k < 9; ++k) G[k] = 1e-3 * g[k];
            }};
  return {[](const double* x) {
            return std::array<double, 3>{1e-3 * (x[0] * x[1] + 2 * x[1] * x[2]),
                                         1e-3 * (-0.5 * x[0] * x[2] + 3 * x[0] * x[1] * x[2]),
                                         1e-3 * (0.8 * x[0] * x[1] - x[1] * x[2])};
          },
          [](const double* x, double* G) {
            const double g[9] = {x[1],
                                 x[0] + 2 * x[2],
                                 2 * x[1],
                                 -0.5 * x[2] + 3 * x[1] * x[2],
                                 3 * x[0] * x[2],
                                 -0.5 * x[0] + 3 * x[0] * x[1],
                                 0.8 * x[1],
                                 0.8 * x[0] - x[2],
                                 -x[1]};
            for (int k = 0; k < 9; ++k) G[k] = 1e-3 * g[k];
          }};
}

class VaryingStress : public testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(VaryingStress, ProbesSampleTheStressAtTheirPointNotAtANodeNorAsTheCellAverage) {
  const std::string element = GetParam();
  const Mesh m = box(element);
  Model model = build_model(
      world(), parse_case(m.section + materials_section(m.region) + time_section, "varying.yaml"));
  const MechanicalSystem& s = *model.system;
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  const Field f = varying_field(element);
  set_displacement(s, state.u, f);
  // The exact stress at each probe point, at the point's nearest node, and the average over the
  // cell that contains it: the probe must give the first, which differs from the other two by far
  // more than the tolerance.
  CellStress cells;
  s.assembler().cell_stress(state.u, cells);
  std::vector<CaseProbe> probes;
  for (std::size_t i = 0; i < m.points.size(); ++i)
    probes.push_back(probe(probe_name(i), m.points[i], {"stress", "strain", "von_mises"}));
  const ProbeRow row =
      record_probes(s, probes, state, fresh_dir(std::string("varying_") + element) / "probes.csv");
  double probe_error = 0, node_difference = 1e300, cell_difference = 1e300;
  for (std::size_t i = 0; i < m.points.size(); ++i) {
    const double* p = m.points[i].data();
    double G[9], strain[6], stress[6];
    f.gradient(p, G);
    hooke(G, strain, stress);
    const double scale = max_abs(stress, 6), strain_scale = max_abs(strain, 6);
    const std::string name = probe_name(i) + ".";
    for (int k = 0; k < 6; ++k) {
      probe_error =
          std::max(probe_error, std::abs(row.at(name + stress_names[k]) - stress[k]) / scale);
      probe_error = std::max(probe_error,
                             std::abs(row.at(name + strain_names[k]) - strain[k]) / strain_scale);
    }
    probe_error =
        std::max(probe_error, std::abs(row.at(name + "von_mises") - von_mises(stress)) / scale);
    // The nearest node's exact stress (what sampling at the node would give at best).
    const LocalMesh& mesh = s.mesh();
    struct {
      double d;
      int rank;
    } mine{1e300, rank_of(world())}, best{};
    double node[3] = {0, 0, 0};
    for (std::int32_t n = 0; n < mesh.num_owned; ++n) {
      const double* x = &mesh.coords[3 * n];
      const double d = std::hypot(x[0] - p[0], x[1] - p[1], x[2] - p[2]);
      if (d < mine.d) mine.d = d, std::copy(x, x + 3, node);
    }
    MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MINLOC, world());
    MPI_Bcast(node, 3, MPI_DOUBLE, best.rank, world());
    double node_G[9], node_strain[6], node_stress[6];
    f.gradient(node, node_G);
    hooke(node_G, node_strain, node_stress);
    double d = 0;
    for (int k = 0; k < 6; ++k) d = std::max(d, std::abs(node_stress[k] - stress[k]) / scale);
    node_difference = std::min(node_difference, d);
    // The containing cell's average, on the rank that holds it.
    const SolidPoint at = s.assembler().solid_containing(m.points[i]);
    d = 0;
    if (at.cell >= 0 && at.distance == 0)
      for (int k = 0; k < 6; ++k)
        d = std::max(d, std::abs(cells.stress[6 * at.cell + k] - stress[k]) / scale);
    cell_difference = std::min(cell_difference, max_over_ranks(d));
  }
  if (root())
    std::printf(
        "  %s: probe error %.2e; the nearest node's stress differs by %.2e, the cell "
        "average by %.2e (relative)\n",
        element.c_str(), probe_error, node_difference, cell_difference);
  EXPECT_LT(probe_error, 1e-12);
  EXPECT_GT(node_difference, 1e-3);
  EXPECT_GT(cell_difference, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Elements, VaryingStress, testing::Values("hex8", "tet10"),
                         [](const auto& info) { return std::string(info.param); });

TEST_P(VaryingStress, APointJustOutsideIsSampledAtTheNearestPointOfTheNearestElementAndSaysSo) {
  // 0.03 beyond the end face x = 2 (the cells there are 1/3 long: not outside the mesh): sampled
  // at (2, 0.2, 0.1) on the face, where the field's stress is represented exactly.
  const std::string element = GetParam();
  const Mesh m = box(element);
  Model model = build_model(
      world(), parse_case(m.section + materials_section(m.region) + time_section, "outside.yaml"));
  const MechanicalSystem& s = *model.system;
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  const Field f = varying_field(element);
  set_displacement(s, state.u, f);
  const ProbeRow row = record_probes(s, {probe("beyond", {2.03, 0.2, 0.1}, {"stress"})}, state,
                                     fresh_dir(std::string("outside_") + element) / "probes.csv");
  const double on_face[3] = {2.0, 0.2, 0.1};
  double G[9], strain[6], stress[6];
  f.gradient(on_face, G);
  hooke(G, strain, stress);
  double error = 0;
  for (int k = 0; k < 6; ++k)
    error = std::max(error, std::abs(row.at(std::string("beyond.") + stress_names[k]) - stress[k]) /
                                max_abs(stress, 6));
  EXPECT_LT(error, 1e-12);
  EXPECT_NE(row.comments.find("(2.03, 0.2, 0.1) is in no element; sampled at (2, 0.2, 0.1)"),
            std::string::npos)
      << row.comments;
  EXPECT_NE(row.comments.find("the nearest point of the nearest element"), std::string::npos)
      << row.comments;
  EXPECT_NE(row.comments.find("distance 0.03"), std::string::npos) << row.comments;
}

namespace {

/// The nodal averages and probe rows of the smooth field on a mesh, on one communicator.
struct Sampled {
  Model model;
  CellStress cells;
  NodalStress nodal;
  ProbeRow row;
};

Sampled sample_smooth_field(MPI_Comm comm, const Mesh& m, const fs::path& file) {
  Sampled r{build_model(comm, parse_case(m.section + materials_section(m.region) + time_section,
                                         "smooth.yaml")),
            {},
            {},
            {}};
  const MechanicalSystem& s = *r.model.system;
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  set_displacement(s, state.u, smooth_field());
  s.assembler().cell_stress(state.u, r.cells);
  s.assembler().nodal_average(r.cells, r.nodal);
  std::vector<CaseProbe> probes;
  for (std::size_t i = 0; i < m.points.size(); ++i)
    probes.push_back(probe(probe_name(i), m.points[i], {"stress", "strain", "von_mises"}));
  r.row = record_probes(s, probes, state, file);
  return r;
}

/// Index of each local node of a serial model by its coordinates.
std::map<std::array<double, 3>, std::size_t> nodes_by_position(const LocalMesh& mesh) {
  std::map<std::array<double, 3>, std::size_t> index;
  for (std::int32_t n = 0; n < mesh.num_local_nodes(); ++n)
    index[{mesh.coords[3 * n], mesh.coords[3 * n + 1], mesh.coords[3 * n + 2]}] =
        static_cast<std::size_t>(n);
  return index;
}

}  // namespace

TEST_P(EveryMesh, NodalAveragesAndProbesAreTheSameOnEveryRankCount) {
  // The field of no element: every node's average sums cells of several ranks at np > 1. The
  // serial answer is computed on every rank (MPI_COMM_SELF) and compared node by node, owned and
  // ghost nodes alike, and probe by probe.
  const Mesh m = meshes()[GetParam()];
  const fs::path dir = fresh_dir("ranks_" + m.name);
  const Sampled parallel = sample_smooth_field(world(), m, dir / "probes.csv");
  fs::create_directories(dir / cat("serial", rank_of(world())));
  const Sampled serial =
      sample_smooth_field(MPI_COMM_SELF, m, dir / cat("serial", rank_of(world())) / "probes.csv");
  const auto index = nodes_by_position(serial.model.system->mesh());
  const LocalMesh& mesh = parallel.model.system->mesh();
  double scale = 0, worst = 0;
  for (double v : serial.nodal.stress) scale = std::max(scale, std::abs(v));
  double strain_scale = 0;
  for (double v : serial.nodal.strain) strain_scale = std::max(strain_scale, std::abs(v));
  int missing = 0;
  for (std::int32_t n = 0; n < mesh.num_local_nodes(); ++n) {
    const auto it =
        index.find({mesh.coords[3 * n], mesh.coords[3 * n + 1], mesh.coords[3 * n + 2]});
    if (it == index.end()) {
      ++missing;
      continue;
    }
    const std::size_t k = it->second;
    for (int c = 0; c < 6; ++c) {
      worst = std::max(
          worst,
          std::abs(parallel.nodal.stress[6 * n + c] - serial.nodal.stress[6 * k + c]) / scale);
      worst = std::max(worst,
                       std::abs(parallel.nodal.strain[6 * n + c] - serial.nodal.strain[6 * k + c]) /
                           strain_scale);
    }
    worst =
        std::max(worst, std::abs(parallel.nodal.von_mises[n] - serial.nodal.von_mises[k]) / scale);
  }
  worst = max_over_ranks(worst);
  EXPECT_EQ(missing, 0);
  // The probes: the same cell and the same arithmetic, so the same digits.
  EXPECT_EQ(parallel.row.columns, serial.row.columns);
  EXPECT_EQ(parallel.row.values, serial.row.values);
  EXPECT_EQ(parallel.row.comments, serial.row.comments);
  // The averages really vary: not a constant field in disguise.
  double spread = 0;
  for (std::size_t n = 0; n < serial.nodal.von_mises.size(); ++n)
    spread = std::max(spread, std::abs(serial.nodal.von_mises[n] - serial.nodal.von_mises[0]));
  if (root())
    std::printf(
        "  %s: nodal averages at np %d vs np 1: largest relative difference %.2e (von "
        "Mises spread %.2e of %.2e)\n",
        m.name.c_str(), size_of(world()), worst, spread, scale);
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(spread, 0.1 * scale);
}

TEST(Bending, NodalVonMisesIsCloserToBeamTheoryThanTheFacetedCellValues) {
  // A cantilever (tet10, nu = 0: no anticlastic curvature) clamped at x = 0 under a tip shear
  // F: beam theory gives sigma_xx = F (L - x)(z - h/2) / I and tau_xz = F/(2I) (h^2/4 - (z -
  // h/2)^2). Away from the ends (L/4 <= x <= 3L/4) and from the surfaces (where an average of
  // the cells around a node cannot reach the extreme fibre), the nodal von Mises stress is
  // compared with the beam's at the node, and so is each cell's value at each of its nodes (what
  // a faceted plot shows there).
  // The nodal values are also those of a serial run (every rank solves it on MPI_COMM_SELF), to
  // the solver's tolerance.
  const double L = 1.0, h = 0.1, T = 1.0, F = T * h * h, I = h * h * h * h / 12;
  struct Solved {
    Model model;
    State state;
    CellStress cells;
    NodalStress nodal;
  };
  auto solve = [&](MPI_Comm comm) {
    Solved r{build_model(
                 comm,
                 parse_case("mesh: {box: {lower: [0, 0, 0], upper: [1.0, 0.1, 0.1], cells: [20, 4, "
                            "4], element: tet10}}\n" +
                                materials_section("all", 0.0) +
                                "boundary_conditions: [{region: xmin, type: fixed},\n"
                                "  {region: xmax, type: traction, value: [0, 0, -1.0]}]\n" +
                                time_section,
                            "bending.yaml")),
             {},
             {},
             {}};
    MechanicalSystem& s = *r.model.system;
    r.state = State{0.0, 0, s.create_vector(), s.create_vector()};
    petsc::Vector f = s.create_vector();
    s.external_force(0.0, f);
    s.solve(0.0, 1.0, f, r.state.u);  // K u = f
    s.assembler().cell_stress(r.state.u, r.cells);
    s.assembler().nodal_average(r.cells, r.nodal);
    return r;
  };
  const Solved parallel = solve(world());
  const Solved serial = solve(MPI_COMM_SELF);
  const MechanicalSystem& s = *parallel.model.system;
  const State& state = parallel.state;
  const CellStress& cells = parallel.cells;
  const NodalStress& nodal = parallel.nodal;
  const LocalMesh& mesh = s.mesh();
  const auto index = nodes_by_position(serial.model.system->mesh());
  double rank_difference = 0;
  for (std::int32_t n = 0; n < mesh.num_local_nodes(); ++n) {
    const std::size_t k =
        index.at({mesh.coords[3 * n], mesh.coords[3 * n + 1], mesh.coords[3 * n + 2]});
    rank_difference =
        std::max(rank_difference, std::abs(nodal.von_mises[n] - serial.nodal.von_mises[k]));
    for (int c = 0; c < 6; ++c)
      rank_difference = std::max(
          rank_difference, std::abs(nodal.stress[6 * n + c] - serial.nodal.stress[6 * k + c]));
  }
  auto beam = [&](const double* x) {
    const double sigma = F * (L - x[0]) * (x[2] - h / 2) / I;
    const double tau = F / (2 * I) * (h * h / 4 - (x[2] - h / 2) * (x[2] - h / 2));
    return std::sqrt(sigma * sigma + 3 * tau * tau);
  };
  auto interior = [&](std::int64_t n) {
    const double* x = &mesh.coords[3 * n];
    const double e = 1e-9;
    return x[0] >= L / 4 - e && x[0] <= 3 * L / 4 + e && x[1] > e && x[1] < h - e && x[2] > e &&
           x[2] < h - e;
  };
  // sums: nodal squared error, nodes, cell squared error, (cell, node) pairs, largest beam value
  double sums[5] = {0, 0, 0, 0, 0};
  for (std::int32_t n = 0; n < mesh.num_owned; ++n)
    if (interior(n)) {
      const double exact = beam(&mesh.coords[3 * n]);
      sums[0] += (nodal.von_mises[n] - exact) * (nodal.von_mises[n] - exact);
      sums[1] += 1;
      sums[4] = std::max(sums[4], exact);
    }
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (info(mesh.cell_types[c]).dim != 3) continue;
    for (auto n : mesh.nodes_of(c))
      if (interior(n)) {
        const double error = cells.von_mises[c] - beam(&mesh.coords[3 * n]);
        sums[2] += error * error;
        sums[3] += 1;
      }
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_DOUBLE, MPI_SUM, world());
  sums[4] = max_over_ranks(sums[4]);
  const double nodal_rms = std::sqrt(sums[0] / sums[1]) / sums[4];
  const double cell_rms = std::sqrt(sums[2] / sums[3]) / sums[4];
  // And a stress probe inside, off the nodes: sigma_xx at the point against the beam's.
  const std::array<double, 3> p{0.5, 0.0371, 0.0853};
  const ProbeRow row = record_probes(s, {probe("inside", p, {"stress", "von_mises"})}, state,
                                     fresh_dir("bending") / "probes.csv");
  const double sigma_xx = F * (L - p[0]) * (p[2] - h / 2) / I;
  rank_difference = max_over_ranks(rank_difference) / sums[4];
  if (root())
    std::printf(
        "  %g nodes, %g (cell, node) pairs: rms error of the von Mises stress against "
        "beam theory, relative to its largest value %.4g there: nodal %.4f, cell values "
        "%.4f; probe sigma_xx %.6g, beam %.6g; nodal stress np %d vs np 1: %.2e\n",
        sums[1], sums[3], sums[4], nodal_rms, cell_rms, row.at("inside.sxx"), sigma_xx,
        size_of(world()), rank_difference);
  EXPECT_GT(sums[1], 100);
  EXPECT_LT(nodal_rms, 0.01);
  EXPECT_LT(nodal_rms, 0.1 * cell_rms);
  EXPECT_NEAR(row.at("inside.sxx") / sigma_xx, 1.0, 0.02);
  EXPECT_LT(rank_difference, 1e-8);  // the solves stop at a relative residual of 1e-10
}

TEST(Frames, CarryTheNodalAveragesAsPointDataOnEveryPieceOwnedAndGhostNodesAlike) {
  // The smooth field on the METIS-partitioned cantilever mesh: every point of every piece (a node
  // on several pieces appears once per piece) carries the serial nodal average.
  const Mesh m = meshes()[5];
  const fs::path dir = fresh_dir("frames");
  auto case_with = [&](const std::string& fields) {
    return parse_case(m.section + materials_section(m.region) + time_section +
                          "output: {directory: " + dir.string() + ", every: 1, fields: [" + fields +
                          "]}\n",
                      "frames.yaml");
  };
  const CaseFile without = case_with("displacement, von_mises");
  const CaseFile with =
      case_with("displacement, nodal_von_mises, von_mises, nodal_stress, nodal_strain");
  Model model = build_model(world(), with);
  const MechanicalSystem& s = *model.system;
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  set_displacement(s, state.u, smooth_field());
  std::int64_t extra = 0;
  {
    OutputSeries plain(world(), without, s, std::nullopt);
    OutputSeries series(world(), with, s, std::nullopt);
    series.write(state, nullptr);
    extra = series.raw_bytes_per_frame() - plain.raw_bytes_per_frame();
  }
  // Every point of every piece: 8 + 48 + 48 bytes more per frame.
  std::int64_t points = s.mesh().num_local_nodes();
  MPI_Allreduce(MPI_IN_PLACE, &points, 1, MPI_INT64_T, MPI_SUM, world());
  EXPECT_EQ(extra, points * (8 + 48 + 48));
  if (!root()) return;
  Model serial_model = build_model(MPI_COMM_SELF, with);
  const MechanicalSystem& serial = *serial_model.system;
  State serial_state{0.0, 0, serial.create_vector(), serial.create_vector()};
  set_displacement(serial, serial_state.u, smooth_field());
  CellStress cells;
  NodalStress nodal;
  serial.assembler().cell_stress(serial_state.u, cells);
  serial.assembler().nodal_average(cells, nodal);
  const auto index = nodes_by_position(serial.mesh());

  vtkNew<vtkXMLPUnstructuredGridReader> reader;
  reader->SetFileName((dir / "frames_000000.pvtu").c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  ASSERT_NE(grid, nullptr);
  EXPECT_EQ(grid->GetNumberOfPoints(), points);
  vtkPointData* pd = grid->GetPointData();
  struct Array {
    const char* name;
    int components;
    const std::vector<double>* expected;
  };
  for (auto [name, components, expected] :
       {Array{"nodal_von_mises", 1, &nodal.von_mises}, Array{"nodal_stress", 6, &nodal.stress},
        Array{"nodal_strain", 6, &nodal.strain}}) {
    vtkDataArray* a = pd->GetArray(name);
    ASSERT_NE(a, nullptr) << name;
    EXPECT_EQ(a->GetNumberOfComponents(), components) << name;
    double scale = 0, worst = 0;
    for (double v : *expected) scale = std::max(scale, std::abs(v));
    int missing = 0;
    for (vtkIdType q = 0; q < grid->GetNumberOfPoints(); ++q) {
      double x[3];
      grid->GetPoint(q, x);
      const auto it = index.find({x[0], x[1], x[2]});
      if (it == index.end()) {
        ++missing;
        continue;
      }
      for (int c = 0; c < components; ++c)
        worst = std::max(
            worst,
            std::abs(a->GetComponent(q, c) - (*expected)[components * it->second + c]) / scale);
    }
    EXPECT_EQ(missing, 0) << name;
    EXPECT_LT(worst, 1e-12) << name;
  }
  EXPECT_NE(grid->GetCellData()->GetArray("von_mises"), nullptr);
}
