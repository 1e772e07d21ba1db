// A volume region's skin (the contact surfaces of src/system/contact_surfaces.cpp) without the
// eroded cells, on any rank count: a 3 x 3 x 3 box has 54 boundary faces; with its centre cell
// eroded the 6 faces it covered join (60), a corner cell eroded takes its 3 boundary faces and
// uncovers 3 (54; both: 60); without the uncovered faces (a pair's `eroding: false`) the centre
// changes nothing (54) and the corner takes 3 (51).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "../../src/system/contact_section.hpp"
#include "../support/simulation.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;

namespace {

constexpr const char* box =
    "mesh: {box: {lower: [0, 0, 0], upper: [3, 3, 3], cells: [3, 3, 3]}}\n"
    "materials: [{region: all, model: hencky, density: 1000, youngs_modulus: 1.0e6, "
    "poissons_ratio: 0.3, plasticity: {yield_stress: 1.0e4}, "
    "failure: {equivalent_plastic_strain: 0.5}}]\n"
    "time: {integrator: central_difference, mass: lumped, dt: 1.0e-4, steps: 1}\n";

/// The skin's faces on all ranks with the cells whose centre is at one of `centres` eroded.
std::int64_t skin_faces(const MechanicalSystem& s,
                        const std::vector<std::array<double, 3>>& centres, bool uncovered) {
  const LocalMesh& mesh = s.mesh();
  std::vector<std::uint8_t> eroded(static_cast<std::size_t>(mesh.num_cells()), 0);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c]) continue;
    double x[3] = {0, 0, 0};
    const auto nodes = mesh.nodes_of(c);
    for (auto n : nodes)
      for (int i = 0; i < 3; ++i) x[i] += mesh.coords[3 * n + i] / nodes.size();
    for (const auto& p : centres)
      if (std::abs(x[0] - p[0]) + std::abs(x[1] - p[1]) + std::abs(x[2] - p[2]) < 1e-9)
        eroded[static_cast<std::size_t>(c)] = 1;
  }
  const TermInputs in{s.comm(), mesh, s.spec(), s.assembler(), s.assembler().elements()};
  const auto surface = contact_input::surface_faces(in, "all", "test", &eroded, uncovered);
  std::int64_t n = static_cast<std::int64_t>(surface.faces.size());
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT64_T, MPI_SUM, s.comm()));
  return n;
}

TEST(ErodedSkin, UncoveredFacesJoinAndErodedFacesLeave) {
  auto r = test::start(box);
  const MechanicalSystem& s = *r.model.system;
  const std::array<double, 3> centre{1.5, 1.5, 1.5}, corner{0.5, 0.5, 0.5};
  EXPECT_EQ(skin_faces(s, {}, true), 54);
  EXPECT_EQ(skin_faces(s, {centre}, true), 60);
  EXPECT_EQ(skin_faces(s, {corner}, true), 54);
  EXPECT_EQ(skin_faces(s, {centre, corner}, true), 60);
  EXPECT_EQ(skin_faces(s, {centre}, false), 54);
  EXPECT_EQ(skin_faces(s, {corner}, false), 51);
}

}  // namespace
