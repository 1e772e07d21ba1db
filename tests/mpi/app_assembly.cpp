// Assembly invariance: the same global K x and M x (as functions of node positions) on 1, 2 and 3
// ranks, with METIS and block partitions, for every element type; mass totals; ranks without cells.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;

namespace {

std::string box_case(const std::string& element, const std::string& partitioner,
                     const std::string& mass, const std::string& cells = "[4, 3, 2]") {
  return "mesh: {box: {lower: [0, 0, 0], upper: [1.0, 0.6, 0.4], cells: " + cells +
         ", element: " + element + "}, partitioner: " + partitioner +
         "}\n"
         "materials: [{region: all, density: 7.5, youngs_modulus: 210.0, poissons_ratio: 0.3}]\n"
         "boundary_conditions: [{region: xmin, type: fixed, components: [x]}]\n"
         "time: {integrator: newmark, dt: 0.1, steps: 1, mass: " +
         mass + "}\n";
}

Model model_of(MPI_Comm comm, const std::string& yaml) {
  return build_model(comm, parse_case(yaml, "assembly_case.yaml"));
}

/// Rows of (x, y, z, value0, value1, value2) for the owned nodes of `v`, gathered on rank 0 and
/// sorted by position.
std::vector<std::array<double, 6>> by_position(const MechanicalSystem& s, Vec v) {
  const LocalMesh& m = s.mesh();
  std::vector<double> mine;
  {
    petsc::ConstArray a(v);
    for (std::int32_t n = 0; n < m.num_owned; ++n)
      for (double q : {m.coords[3 * n], m.coords[3 * n + 1], m.coords[3 * n + 2], a[3 * n],
                       a[3 * n + 1], a[3 * n + 2]})
        mine.push_back(q);
  }
  const MPI_Comm comm = s.comm();
  const int size = size_of(comm);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int p = 0; p < size; ++p) displs[p] = total, total += counts[p];
  std::vector<double> all(rank_of(comm) == 0 ? total : 0);
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
              0, comm);
  std::vector<std::array<double, 6>> rows(all.size() / 6);
  for (std::size_t r = 0; r < rows.size(); ++r)
    std::copy(all.begin() + 6 * r, all.begin() + 6 * r + 6, rows[r].begin());
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// x_i = smooth function of the node position, so it does not depend on the numbering.
void fill_smooth(const MechanicalSystem& s, Vec x) {
  const LocalMesh& m = s.mesh();
  petsc::Array a(x);
  for (std::int32_t n = 0; n < m.num_owned; ++n) {
    const double* p = &m.coords[3 * n];
    a[3 * n] = std::sin(1.3 * p[0] + 0.7 * p[1]) + p[2];
    a[3 * n + 1] = std::cos(0.9 * p[1] - 1.1 * p[2]) * p[0];
    a[3 * n + 2] = p[0] * p[1] - 0.5 * p[2] * p[2];
  }
}

struct Products {
  std::vector<std::array<double, 6>> Kx, Mx;
};

Products products(MPI_Comm comm, const std::string& yaml) {
  Model model = model_of(comm, yaml);
  MechanicalSystem& s = *model.system;
  petsc::Vector x = s.create_vector(), y = s.create_vector();
  fill_smooth(s, x);
  Products p;
  s.mult_stiffness(x, y);
  p.Kx = by_position(s, y);
  s.mult_mass(x, y);
  p.Mx = by_position(s, y);
  return p;
}

double max_relative_difference(const std::vector<std::array<double, 6>>& a,
                               const std::vector<std::array<double, 6>>& b) {
  if (a.size() != b.size()) return INFINITY;
  double scale = 0, diff = 0;
  for (std::size_t r = 0; r < a.size(); ++r)
    for (int k = 0; k < 6; ++k) {
      if (k < 3 && a[r][k] != b[r][k]) return INFINITY;  // positions must match exactly
      if (k >= 3) {
        scale = std::max(scale, std::abs(a[r][k]));
        diff = std::max(diff, std::abs(a[r][k] - b[r][k]));
      }
    }
  return diff / scale;
}

class AssemblyInvariance
    : public testing::TestWithParam<std::tuple<std::string, std::string, std::string>> {};

}  // namespace

TEST_P(AssemblyInvariance, KxAndMxDoNotDependOnTheNumberOfRanksOrThePartitioner) {
  const auto& [element, partitioner, mass] = GetParam();
  const std::string yaml = box_case(element, partitioner, mass);
  const Products parallel = products(MPI_COMM_WORLD, yaml);
  double kx = 0, mx = 0;
  if (rank_of(MPI_COMM_WORLD) == 0) {
    const Products serial = products(MPI_COMM_SELF, yaml);
    kx = max_relative_difference(parallel.Kx, serial.Kx);
    mx = max_relative_difference(parallel.Mx, serial.Mx);
  }
  MPI_Bcast(&kx, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(&mx, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_LT(kx, 1e-13) << element << " " << partitioner;
  EXPECT_LT(mx, 1e-13) << element << " " << partitioner;
}

INSTANTIATE_TEST_SUITE_P(EveryElementAndPartitioner, AssemblyInvariance,
                         testing::Combine(testing::Values("hex8", "tet4", "tet10"),
                                          testing::Values("metis", "block"),
                                          testing::Values("consistent", "lumped")));

TEST(Assembly, TotalMassIsDensityTimesVolumeForEveryElementAndMassTreatment) {
  for (const char* element : {"hex8", "tet4", "tet10"})
    for (const char* mass : {"consistent", "lumped"}) {
      Model model = model_of(MPI_COMM_WORLD, box_case(element, "metis", mass));
      MechanicalSystem& s = *model.system;
      // 1^T M 1 per component = total mass.
      petsc::Vector ones = s.create_vector(), y = s.create_vector();
      {
        petsc::Array a(ones);
        for (PetscInt i = 0; i < a.size(); i += 3) a[i] = 1.0;
      }
      s.mult_mass(ones, y);
      PetscScalar total = 0;
      VecDot(ones, y, &total);
      const double expected = 7.5 * 1.0 * 0.6 * 0.4;
      EXPECT_NEAR(total, expected, 1e-12 * expected) << element << " " << mass;
      EXPECT_NEAR(s.total_mass(), expected, 1e-12 * expected) << element;
    }
}

TEST(Assembly, RigidTranslationsAndRotationsProduceNoElasticForce) {
  Model model = model_of(MPI_COMM_WORLD, box_case("tet10", "metis", "consistent"));
  MechanicalSystem& s = *model.system;
  const LocalMesh& m = s.mesh();
  petsc::Vector x = s.create_vector(), y = s.create_vector();
  {
    // translation (1, 2, 3) plus infinitesimal rotation about (0.3, -0.2, 0.5)
    petsc::Array a(x);
    const double w[3] = {0.3, -0.2, 0.5};
    for (std::int32_t n = 0; n < m.num_owned; ++n) {
      const double* p = &m.coords[3 * n];
      a[3 * n] = 1 + w[1] * p[2] - w[2] * p[1];
      a[3 * n + 1] = 2 + w[2] * p[0] - w[0] * p[2];
      a[3 * n + 2] = 3 + w[0] * p[1] - w[1] * p[0];
    }
  }
  s.mult_stiffness(x, y);
  PetscReal fnorm = 0, knorm = 0;
  VecNorm(y, NORM_INFINITY, &fnorm);
  MatNorm(s.stiffness(), NORM_INFINITY, &knorm);
  EXPECT_LT(fnorm, 1e-12 * knorm * 4);
}

TEST(Assembly, RanksWithoutCellsTakePartWithEmptyRanges) {
  // One cell: at np > 1 every rank but one has no cells and no nodes.
  Model model = model_of(MPI_COMM_WORLD, box_case("hex8", "metis", "consistent", "[1, 1, 1]"));
  MechanicalSystem& s = *model.system;
  EXPECT_EQ(s.num_global_dofs(), 24);
  long cells = 0;
  for (auto e : model.partition.elements_per_rank) cells += e;
  EXPECT_EQ(cells, 1);
  petsc::Vector x = s.create_vector(), y = s.create_vector();
  fill_smooth(s, x);
  s.mult_stiffness(x, y);
  PetscReal norm = 0;
  VecNorm(y, NORM_2, &norm);
  EXPECT_GT(norm, 0.0);
}

TEST(Assembly, ValuesCopyBetweenMatrixFormatsEntryForEntry) {
  // Assembler::copy_values: an AIJ operator into its BAIJ(3) copy (the Krylov operator of the
  // iterative implicit solves) and back, for every element; the block partition gives rows
  // whose blocks other ranks add and off-diagonal parts on both sides of the owned columns.
  using Format = Assembler::MatrixFormat;
  for (const char* element : {"hex8", "tet4", "tet10"})
    for (const char* partitioner : {"metis", "block"}) {
      Model model = model_of(MPI_COMM_WORLD, box_case(element, partitioner, "consistent"));
      MechanicalSystem& s = *model.system;
      const Assembler& a = s.assembler();
      const std::string what = std::string(element) + " " + partitioner;
      // K assembled in each format; the AIJ one copied into BAIJ equals the BAIJ assembly.
      petsc::Matrix K = a.create_matrix(), K_blocked = a.create_matrix(Format::blocked),
                    copy = a.create_matrix(Format::blocked), back = a.create_matrix();
      s.assemble_stiffness(K);
      s.assemble_stiffness(K_blocked);
      a.copy_values(K, copy);
      MatAXPY(copy, -1.0, K_blocked, SAME_NONZERO_PATTERN);
      PetscReal difference = 0, norm = 0;
      MatNorm(copy, NORM_FROBENIUS, &difference);
      MatNorm(K, NORM_FROBENIUS, &norm);
      EXPECT_GT(norm, 0.0);
      EXPECT_EQ(difference, 0.0) << what;
      // Distinct values in every entry (the mass added, each row scaled differently): AIJ ->
      // BAIJ -> AIJ gives the same entries, and the BAIJ products equal the AIJ ones.
      s.assemble_consistent_mass(back);
      MatAXPY(K, 0.37, back, SAME_NONZERO_PATTERN);
      petsc::Vector d = s.create_vector(), x = s.create_vector(), y = s.create_vector(),
                    z = s.create_vector();
      fill_smooth(s, d);
      VecShift(d, 3.0);
      MatDiagonalScale(K, d, nullptr);
      a.copy_values(K, copy);
      a.copy_values(copy, back);
      MatAXPY(back, -1.0, K, SAME_NONZERO_PATTERN);
      MatNorm(back, NORM_FROBENIUS, &difference);
      EXPECT_EQ(difference, 0.0) << what;
      fill_smooth(s, x);
      MatMult(K, x, y);
      MatMult(copy, x, z);
      PetscReal ynorm = 0, znorm = 0;
      VecNorm(y, NORM_INFINITY, &ynorm);
      VecAXPY(z, -1.0, y);
      VecNorm(z, NORM_INFINITY, &znorm);
      EXPECT_LT(znorm, 1e-13 * ynorm) << what;
    }
}
