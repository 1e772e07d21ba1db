// Offset shells in contact (src/system/contact_offsets.hpp): the contact point of a node is its
// mid-surface point X'_n + u_n + (R(psi_r) - I) d_n, turned with the node's rotation. A shell
// plate with its nodes on its top surface turned rigidly by 90 degrees has its points where the
// rigid motion puts its mid-surface (to 1e-12), and the forces of a wall and of a pair on it (on
// the translations and, through the offset, on the rotations) are the gradient of the contact's
// penalty energy: central differences in every DOF of the turned shells against the forces
// (1e-7 of the largest). The reference shift alone (not turned) had the points 5 mm off and no
// moment on the rotations.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "../../src/system/contact_offsets.hpp"
#include "../../src/system/contact_section.hpp"
#include "../support/simulation.hpp"
#include "inertia/fe/beam_corotational.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/contact.hpp"

using namespace inertia;

namespace {

using V3 = std::array<double, 3>;

const std::string meshes = std::string(INERTIA_SOURCE_DIR) + "/meshes/";

/// A plate of shells (1 x 1 m at z = 0, t 10 mm) with its nodes on its top surface (its
/// mid-surface 5 mm below) over a floor 20 mm below the nodes.
const std::string wall_case = "mesh: {file: " + meshes +
                              "shell_plate_4.msh}\n"
                              "materials: [{region: plate, density: 7800, youngs_modulus: 2.0e11, "
                              "poissons_ratio: 0.3}]\n"
                              "shells: [{region: plate, thickness: 0.01, offset: top}]\n"
                              "contact: {walls: [{name: floor, region: plate, penalty: 1.0e9, "
                              "plane: {point: [0, 0, -0.02], normal: [0, 0, 1]}}]}\n"
                              "time: {integrator: central_difference, dt: 1.0e-6, steps: 1}\n";

/// The 0.5 m plate (t 20 mm, nodes on its bottom surface) 30 mm over the 1 m one (t 10 mm, nodes
/// on its top surface), a pair between them.
const std::string pair_case = "mesh: {file: " + meshes +
                              "shell_contact.msh}\n"
                              "materials:\n"
                              "  - {region: lower, density: 7800, youngs_modulus: 2.0e11, "
                              "poissons_ratio: 0.3}\n"
                              "  - {region: upper, density: 7800, youngs_modulus: 2.0e11, "
                              "poissons_ratio: 0.3}\n"
                              "  - {region: block, density: 7800, youngs_modulus: 2.0e11, "
                              "poissons_ratio: 0.3}\n"
                              "shells:\n"
                              "  - {region: lower, thickness: 0.01, offset: top}\n"
                              "  - {region: upper, thickness: 0.02, offset: bottom}\n"
                              "contact: {pairs: [{name: hit, surfaces: [upper, lower], "
                              "penalty: 1.0e9}]}\n"
                              "time: {integrator: central_difference, dt: 1.0e-6, steps: 1}\n";

/// A rigid motion of a region: x -> Q (x - c) + c + shift, Q = exp(psi).
struct Motion {
  std::string region;
  V3 psi, centre, shift;
  V3 at(const V3& x) const {
    double Q[9];
    fe::rotation_from_vector(psi.data(), Q);
    V3 out{};
    for (int i = 0; i < 3; ++i) {
      out[i] = centre[i] + shift[i];
      for (int j = 0; j < 3; ++j) out[i] += Q[3 * i + j] * (x[j] - centre[j]);
    }
    return out;
  }
};

int region_of(const LocalMesh& mesh, const std::string& name) {
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (mesh.regions[r].name == name) return static_cast<int>(r);
  return -1;
}

/// u of the motion at the region's owned nodes (rotation nodes: psi).
void set_motion(const LocalMesh& mesh, const Motion& m, Vec u) {
  petsc::Array a(u);
  for (const std::int32_t n : mesh.region_owned_nodes[region_of(mesh, m.region)]) {
    const double* X = &mesh.coords[3 * n];
    const V3 x = m.at({X[0], X[1], X[2]});
    for (int i = 0; i < 3; ++i) a[3 * n + i] = mesh.is_rotation(n) ? m.psi[i] : x[i] - X[i];
  }
}

const ContactTerm& contact_term(const MechanicalSystem& s, const std::string& name) {
  for (const auto& t : s.terms())
    if (const auto* c = dynamic_cast<const ContactTerm*>(t.get()); c && c->name() == name)
      return *c;
  throw std::runtime_error("no contact term " + name);
}

double energy(const MechanicalSystem& s, const ContactTerm& term, Vec u) {
  term.gather(u, 0.0);
  petsc::ConstArray ua(u);
  double e = term.energy(TermPoint{ua.span(), {}, 0.0});
  MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_SUM, s.comm());
  return e;
}

/// The term's internal force at u (add_nodal_force after gather).
petsc::Vector force(const MechanicalSystem& s, const ContactTerm& term, Vec u) {
  petsc::Vector f = s.create_vector();
  term.gather(u, 0.0);
  petsc::ConstArray ua(u);
  petsc::Array fa(f);
  term.add_nodal_force(ua.span(), 0.0, 1.0, {}, fa.span());
  return f;
}

struct Check {
  double largest = 0, worst = 0, largest_moment = 0;
  std::int64_t dofs = 0;
};

/// Central differences of the energy in every DOF of the region's nodes against the force.
Check differences(const MechanicalSystem& s, const ContactTerm& term, Vec u,
                  const std::string& region) {
  const LocalMesh& mesh = s.mesh();
  const petsc::Vector f = force(s, term, u);
  // The region's owned DOFs (global numbers), every rank's, in one order.
  std::vector<std::int64_t> mine;
  for (const std::int32_t n : mesh.region_owned_nodes[region_of(mesh, region)])
    for (int i = 0; i < 3; ++i) mine.push_back(3 * mesh.global_node(n) + i);
  int count = static_cast<int>(mine.size()), size = 1;
  MPI_Comm_size(s.comm(), &size);
  std::vector<int> counts(static_cast<std::size_t>(size)), at(counts.size());
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, s.comm());
  int total = 0;
  for (int q = 0; q < size; ++q) at[q] = total, total += counts[q];
  std::vector<std::int64_t> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), at.data(), MPI_INT64_T,
                 s.comm());
  const std::int64_t begin = 3 * mesh.node_begin, end = 3 * (mesh.node_begin + mesh.num_owned);
  Check c;
  std::vector<double> analytic, numeric;
  std::vector<char> rotation;
  for (const std::int64_t g : all) {
    const bool ours = g >= begin && g < end;
    const std::int32_t n = static_cast<std::int32_t>(g / 3 - mesh.node_begin);
    double v[2] = {0, 0};  // force, rotation
    if (ours) {
      petsc::ConstArray fa(f);
      v[0] = fa[g - begin];
      v[1] = mesh.is_rotation(n) ? 1 : 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, s.comm());
    const double h = v[1] > 0 ? 1e-6 : 1e-8;  // rad, m
    auto shifted = [&](double by) {
      if (ours) {
        petsc::Array a(u);
        a[g - begin] += by;
      }
      return energy(s, term, u);
    };
    const double plus = shifted(h), minus = shifted(-2 * h);
    shifted(h);
    analytic.push_back(v[0]);
    numeric.push_back((plus - minus) / (2 * h));
    rotation.push_back(v[1] > 0 ? 1 : 0);
  }
  for (std::size_t k = 0; k < analytic.size(); ++k) {
    c.largest = std::max(c.largest, std::abs(analytic[k]));
    if (rotation[k]) c.largest_moment = std::max(c.largest_moment, std::abs(analytic[k]));
  }
  for (std::size_t k = 0; k < analytic.size(); ++k)
    c.worst = std::max(c.worst, std::abs(analytic[k] - numeric[k]) / c.largest);
  c.dofs = static_cast<std::int64_t>(analytic.size());
  return c;
}

TEST(TurnedOffsets, PointsFollowARigidQuarterTurn) {
  auto r = test::start(wall_case);
  const MechanicalSystem& s = r.system();
  const LocalMesh& mesh = s.mesh();
  const TermInputs in{s.comm(), mesh, s.spec(), s.assembler(), s.assembler().elements()};
  const auto shifted = contact_input::offset_mesh(in, {"plate"});
  ASSERT_TRUE(shifted);
  const auto turn = contact_input::TurnedOffsets::make(in, shifted.get());
  // A quarter turn about x through (0.5, 0.5, 0), lifted by 0.1 m.
  const Motion m{"plate", {-std::numbers::pi / 2, 0, 0}, {0.5, 0.5, 0}, {0, 0, 0.1}};
  petsc::Vector u = s.create_vector();
  set_motion(mesh, m, u);
  petsc::ConstArray x(turn->points(u));
  double worst = 0, moved = 0;
  std::int64_t count = 0;
  for (const std::int32_t n : mesh.region_owned_nodes[region_of(mesh, "plate")]) {
    if (mesh.is_rotation(n)) continue;
    const double* Xs = &shifted->coords[3 * n];
    const V3 want = m.at({Xs[0], Xs[1], Xs[2]});  // the mid-surface point, turned
    double unturned = 0;
    for (int i = 0; i < 3; ++i) {
      worst = std::max(worst, std::abs(Xs[i] + x[3 * n + i] - want[i]));
      const double* X = &mesh.coords[3 * n];
      unturned += std::pow(Xs[i] + (m.at({X[0], X[1], X[2]})[i] - X[i]) - want[i], 2);
    }
    moved = std::max(moved, std::sqrt(unturned));
    ++count;
  }
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, s.comm());
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_DOUBLE, MPI_MAX, s.comm());
  MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, s.comm());
  EXPECT_EQ(count, 25);
  EXPECT_LT(worst, 1e-12);
  // The reference shift alone leaves each point off by |(Q - I) d| = sqrt(2) x 5 mm.
  EXPECT_NEAR(moved, std::sqrt(2.0) * 0.005, 1e-12);
}

TEST(TurnedOffsets, WallForcesAreTheEnergysGradient) {
  auto r = test::start(wall_case);
  const MechanicalSystem& s = r.system();
  const ContactTerm& wall = contact_term(s, "floor");
  EXPECT_TRUE(wall.traits().gathers);
  // Turned 1.3 rad about x (and a little about y and z) round the plate's middle line, 0.3 m
  // up: one half of the plate dips through the floor.
  const Motion m{"plate", {-1.3, 0.2, 0.1}, {0.5, 0.5, 0}, {0, 0, 0.3}};
  petsc::Vector u = s.create_vector();
  set_motion(s.mesh(), m, u);
  EXPECT_GT(energy(s, wall, u), 0);
  const Check c = differences(s, wall, u, "plate");
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("wall: %lld DOFs, largest force %.6g, largest moment %.6g, worst %.3g\n",
                static_cast<long long>(c.dofs), c.largest, c.largest_moment, c.worst);
  EXPECT_EQ(c.dofs, 150);
  EXPECT_GT(c.largest_moment, 1e-4 * c.largest);
  EXPECT_LT(c.worst, 1e-7);
}

TEST(TurnedOffsets, PairForcesAreTheEnergysGradient) {
  auto r = test::start(pair_case);
  const MechanicalSystem& s = r.system();
  const ContactTerm& pair = contact_term(s, "hit");
  // The upper plate tilted 0.05 rad about x (and a little about y) round its middle, 25 mm
  // down: its low side presses into the lower plate.
  const Motion m{"upper", {0.05, 0.01, 0}, {0.5, 0.5, 0.03}, {0, 0, -0.025}};
  petsc::Vector u = s.create_vector();
  set_motion(s.mesh(), m, u);
  EXPECT_GT(energy(s, pair, u), 0);
  for (const char* region : {"upper", "lower"}) {
    const Check c = differences(s, pair, u, region);
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf("pair, %s: %lld DOFs, largest force %.6g, largest moment %.6g, worst %.3g\n",
                  region, static_cast<long long>(c.dofs), c.largest, c.largest_moment, c.worst);
    // The lower plate is not turned: its moments only from the contact normal's tilt.
    EXPECT_GT(c.largest_moment, (region == std::string("upper") ? 1e-4 : 1e-5) * c.largest);
    EXPECT_LT(c.worst, 1e-7);
  }
}

/// Shells (t 20 mm, nodes on their top surface) on the top face of a solid block, sharing its
/// nodes, under a wall 50 mm over it: at 2 and 3 ranks the block partition puts the shells on the
/// last rank and the skin nodes are owned by a rank of their solid cells, apart from their
/// rotation nodes (the rotation node's owner turns them, through ghost entries).
const std::string skin_case = "mesh: {file: " + meshes +
                              "shell_on_block.msh, partitioner: block}\n"
                              "materials:\n"
                              "  - {region: block, density: 7800, youngs_modulus: 2.0e11, "
                              "poissons_ratio: 0.3}\n"
                              "  - {region: skin, density: 7800, youngs_modulus: 2.0e11, "
                              "poissons_ratio: 0.3}\n"
                              "shells: [{region: skin, thickness: 0.02, offset: top}]\n"
                              "contact: {walls: [{name: lid, region: skin, penalty: 1.0e9, "
                              "plane: {point: [0, 0, 0.25], normal: [0, 0, -1]}}]}\n"
                              "time: {integrator: central_difference, dt: 1.0e-6, steps: 1}\n";

TEST(TurnedOffsets, ShellNodesOwnedApartFromTheirRotations) {
  auto r = test::start(skin_case);
  const MechanicalSystem& s = r.system();
  const LocalMesh& mesh = s.mesh();
  // The skin nodes this rank owns whose rotation node it does not own (a ghost, or not here).
  std::int64_t apart = 0;
  for (const std::int32_t n : mesh.region_owned_nodes[region_of(mesh, "skin")]) {
    const std::int32_t rn = mesh.rotation_of[static_cast<std::size_t>(n)];
    if (!mesh.is_rotation(n) && (rn < 0 || rn >= mesh.num_owned)) ++apart;
  }
  MPI_Allreduce(MPI_IN_PLACE, &apart, 1, MPI_INT64_T, MPI_SUM, s.comm());
  const ContactTerm& wall = contact_term(s, "lid");
  // The block and its skin turned 0.3 rad about x (0.1 about y) round the block's centre, 0.1 m
  // up: one side of the skin dips into the wall.
  const Motion m{"block", {0.3, 0.1, 0}, {0.5, 0.5, 0.1}, {0, 0, 0.1}};
  petsc::Vector u = s.create_vector();
  set_motion(mesh, m, u);
  set_motion(mesh, Motion{"skin", m.psi, m.centre, m.shift}, u);
  EXPECT_GT(energy(s, wall, u), 0);
  const Check c = differences(s, wall, u, "skin");
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "shells on a solid: %lld shell nodes owned apart from their rotation nodes, %lld "
        "DOFs, largest force %.6g, largest moment %.6g, worst %.3g\n",
        static_cast<long long>(apart), static_cast<long long>(c.dofs), c.largest, c.largest_moment,
        c.worst);
  if (size_of(MPI_COMM_WORLD) > 1) {
    EXPECT_GT(apart, 0);
  }
  EXPECT_EQ(c.dofs, 150);
  EXPECT_GT(c.largest_moment, 1e-4 * c.largest);
  EXPECT_LT(c.worst, 1e-7);
}

}  // namespace
