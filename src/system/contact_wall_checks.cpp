// A rigid wall's warnings at the start of a run (term_contact.cpp's RigidWallTerm;
// wall_shapes.hpp).
#include <mpi.h>

#include <cmath>

#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/amplitude.hpp"
#include "wall_shapes.hpp"

namespace inertia::contact_input {

std::string wall_step_warning(MPI_Comm comm, const WallInput& wall, std::span<const double> areas,
                              const Amplitude* motion, double dt, double t_end) {
  if (wall.mass > 0 && dt > 0) {
    const double spacing = node_spacing(comm, areas);
    const auto& w = wall.initial_velocity;
    const double travel = std::hypot(w[0], w[1], w[2]) * dt;
    if (!(travel > 0.5 * spacing)) return {};
    return cat(wall.where, ": drop weight '", wall.name, "' starts at ", g3(travel / dt), " m/s, ",
               g3(travel), " m per step, more than half the node spacing of region '", wall.region,
               "' (", g3(spacing),
               " m): the body's cells would invert; check the velocity's units or reduce dt");
  }
  if (!motion || !(dt > 0)) return {};
  const double spacing = node_spacing(comm, areas);
  const double length = std::hypot(wall.motion[0], wall.motion[1], wall.motion[2]);
  double travel = 0, at = 0, before = motion->value(0);
  const auto steps = static_cast<std::int64_t>(std::ceil(t_end / dt - 1e-9));
  for (std::int64_t n = 1; n <= steps && n <= 10'000'000; ++n) {
    const double a = motion->value(static_cast<double>(n) * dt);
    if (std::abs(a - before) * length > travel) travel = std::abs(a - before) * length, at = n * dt;
    before = a;
  }
  if (!(travel > 0.5 * spacing)) return {};
  return cat(wall.where, ": wall '", wall.name, "' moves ", g3(travel),
             " m in the step to t = ", g3(at), " s (", g3(travel / dt),
             " m/s), more than half the node spacing of region '", wall.region, "' (", g3(spacing),
             " m): the body's cells would invert; check the motion's units or reduce dt");
}

std::vector<std::string> wall_side_warnings(MPI_Comm comm, const LocalMesh& mesh,
                                            const WallInput& wall,
                                            std::span<const std::int32_t> nodes,
                                            const std::array<double, 3>& offset0) {
  std::vector<char> on_region(mesh.coords.size() / 3, 0);
  for (const auto n : nodes) on_region[static_cast<std::size_t>(n)] = 1;
  std::int64_t sides[2] = {0, 0};  // cells behind, in front
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c] || info(mesh.cell_types[c]).dim != 3) continue;
    const auto cell = mesh.nodes_of(c);
    double centre[3] = {0, 0, 0};
    bool touches = false;
    for (const auto n : cell) {
      touches = touches || (n < mesh.num_owned && on_region[static_cast<std::size_t>(n)]);
      for (int i = 0; i < 3; ++i) centre[i] += mesh.coords[3 * n + i] / cell.size();
    }
    if (touches) ++sides[gap(wall, centre, offset0).g < 0 ? 0 : 1];
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sides, 2, MPI_INT64_T, MPI_SUM, comm));
  if (sides[0] <= sides[1]) return {};
  const auto& d = wall.direction;
  return {cat(
      wall.where, ": wall '", wall.name, "': the body lies behind it (", sides[0], " of the ",
      sides[0] + sides[1], " cells at region '", wall.region, "' have their centres on the side ",
      wall.shape == Shape::plane ? cat("opposite the normal [", d[0], ", ", d[1], ", ", d[2], "]")
                                 : std::string("inside the surface"),
      "): the wall holds the body on the side its normal points to, so it never "
      "acts; flip the normal")};
}

}  // namespace inertia::contact_input
