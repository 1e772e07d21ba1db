#pragma once
/// \file wall_shapes.hpp
/// Internal to src/system: the shapes of rigid walls (contact.walls[]), one row each
/// (core/registry.hpp): its block's reader and its signed distance. A new shape is a row of
/// wall_shapes.cpp: the wall term (term_contact.cpp) asks the row for the gap, its normal and
/// curvature, and builds the force, the tangent and the friction from them alone.

#include <mpi.h>

#include <array>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "contact_section.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/core/registry.hpp"

namespace inertia::contact_input {

/// The signed distance g of a point to the wall (negative behind it), the wall's outward unit
/// normal n at the point's projection, and the curvature factor c = g / r of the tangent
/// k (n n^T + c P), P = I - n n^T - a a^T the projector on the directions in which the wall
/// curves (a: the direction along which it is straight, a cylinder's axis; zero otherwise; a
/// plane has c = 0).
struct Gap {
  double g = 0;
  std::array<double, 3> n{0, 0, 0};
  double c = 0;
  std::array<double, 3> a{0, 0, 0};
  double r = INFINITY;  ///< the point's distance from the centre or the axis (a plane: infinite)
};

struct WallShapeEntry : EntryInfo {
  Shape shape;
  /// Reads the shape's block (contact.walls[i].<name>) into in's point, direction and radius.
  void (*read)(const case_yaml::Node& block, WallInput& in);
  /// The gap of a point at d = x - (the wall's point, moved) from the wall.
  Gap (*gap)(const WallInput& w, std::array<double, 3> d);
};

/// plane, sphere, cylinder.
Registry<WallShapeEntry> wall_shapes();
/// The row of a shape.
const WallShapeEntry& wall_shape(Shape s);

/// The gap of x from wall w moved by `offset` (its translation at the evaluation's time), less
/// `half` (a shell node: half its thickness, the wall holds its mid-surface that far away).
inline Gap gap(const WallInput& w, const double* x, const std::array<double, 3>& offset,
               double half = 0) {
  Gap out =
      wall_shape(w.shape).gap(w, {x[0] - w.point[0] - offset[0], x[1] - w.point[1] - offset[1],
                                  x[2] - w.point[2] - offset[2]});
  if (half > 0) {
    out.g -= half;
    out.c = std::isfinite(out.r) && out.r > 0 ? out.g / out.r : 0.0;
  }
  return out;
}

/// A moving wall that travels more than half its region's node spacing in one step (a speed in
/// mm/s given as m/s), or a drop weight that starts so fast: the body's nodes are pushed through
/// a cell per step and the cells invert. Sampled at the run's steps; "" when it moves slower.
/// Collective (contact_wall_checks.cpp; ForceTerm::step_warning). `areas`: the wall's nodes'
/// area shares; `motion`: its amplitude (null: fixed, or a drop weight).
std::string wall_step_warning(MPI_Comm comm, const WallInput& wall, std::span<const double> areas,
                              const Amplitude* motion, double dt, double t_end);
/// Collective. The body on the wrong side: the solid cells at the wall's (owned) nodes with their
/// centres behind the wall (moved by offset0) outnumber those in front. The wall then never acts
/// (the body's face on it, the rest behind): a warning line (ForceTerm::start_warnings).
std::vector<std::string> wall_side_warnings(MPI_Comm comm, const LocalMesh& mesh,
                                            const WallInput& wall,
                                            std::span<const std::int32_t> nodes,
                                            const std::array<double, 3>& offset0);

}  // namespace inertia::contact_input
