// The shapes of rigid walls: see wall_shapes.hpp (examples/guide/contact_walls.md).
#include "wall_shapes.hpp"

#include <cmath>

#include "inertia/system/contact.hpp"

namespace inertia::contact_input {

namespace {

std::array<double, 3> unit_vector(const case_yaml::Node& n) {
  auto v = n.vec3();
  const double l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(l > 0)) n.fail("must be a non-zero vector");
  for (auto& x : v) x /= l;
  return v;
}

void read_plane(const case_yaml::Node& p, WallInput& in) {
  p.expect_map({"point", "normal"});
  if (!p.has("point") || !p.has("normal"))
    p.fail("expected 'point' and 'normal' (the side the body stays on)");
  in.point = p["point"].vec3();
  in.direction = unit_vector(p["normal"]);
}

Gap plane_gap(const WallInput& w, std::array<double, 3> d) {
  Gap out;
  out.n = w.direction;
  out.g = d[0] * out.n[0] + d[1] * out.n[1] + d[2] * out.n[2];
  return out;
}

void read_sphere(const case_yaml::Node& p, WallInput& in) {
  p.expect_map({"center", "radius"});
  if (!p.has("center") || !p.has("radius")) p.fail("expected 'center' and 'radius'");
  in.point = p["center"].vec3();
  in.radius = p["radius"].positive();
}

/// A sphere's gap, or a cylinder's once d is projected off its axis: the distance from the
/// centre less the radius; on the centre, any direction (the first axis off `along`).
Gap round_gap(const WallInput& w, const std::array<double, 3>& d,
              const std::array<double, 3>& along) {
  Gap out;
  out.a = along;
  const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (r == 0) {
    out.n =
        std::abs(along[0]) > 0.9 ? std::array<double, 3>{0, 1, 0} : std::array<double, 3>{1, 0, 0};
    out.g = -w.radius;
    out.r = 0;
    return out;
  }
  for (int i = 0; i < 3; ++i) out.n[i] = d[i] / r;
  out.g = r - w.radius;
  out.c = out.g / r;
  out.r = r;
  return out;
}

Gap sphere_gap(const WallInput& w, std::array<double, 3> d) { return round_gap(w, d, {0, 0, 0}); }

void read_cylinder(const case_yaml::Node& p, WallInput& in) {
  p.expect_map({"point", "axis", "radius"});
  if (!p.has("point") || !p.has("axis") || !p.has("radius"))
    p.fail("expected 'point' (on the axis), 'axis' and 'radius'");
  in.point = p["point"].vec3();
  in.direction = unit_vector(p["axis"]);
  in.radius = p["radius"].positive();
}

Gap cylinder_gap(const WallInput& w, std::array<double, 3> d) {
  const double along = d[0] * w.direction[0] + d[1] * w.direction[1] + d[2] * w.direction[2];
  for (int i = 0; i < 3; ++i) d[i] -= along * w.direction[i];
  return round_gap(w, d, w.direction);
}

constexpr std::array<WallShapeEntry, 3> rows{{
    {{"plane", "an infinite plane {point, normal}: the body stays on the side the normal points to",
      "contact:\n  walls:\n    - {name: floor, region: xmax, plane: {point: [1.001, 0, 0], normal: "
      "[-1, 0, 0]}}"},
     Shape::plane,
     read_plane,
     plane_gap},
    {{"sphere", "a rigid sphere {center, radius}: the body stays outside it",
      "contact:\n  walls:\n    - {name: ball, region: xmax, sphere: {center: [1.6, 0.05, 0.05], "
      "radius: 0.5}}"},
     Shape::sphere,
     read_sphere,
     sphere_gap},
    {{"cylinder",
      "an infinite rigid cylinder {point (on the axis), axis, radius}: the body stays "
      "outside it",
      "contact:\n  walls:\n    - {name: roller, region: xmax, cylinder: {point: [1.6, 0, 0.05], "
      "axis: [0, 1, 0], radius: 0.5}}"},
     Shape::cylinder,
     read_cylinder,
     cylinder_gap},
}};

}  // namespace

Registry<WallShapeEntry> wall_shapes() { return {"wall shape", rows}; }

const WallShapeEntry& wall_shape(Shape s) {
  for (const auto& r : rows)
    if (r.shape == s) return r;
  return rows[0];
}

}  // namespace inertia::contact_input

namespace inertia {

std::vector<EntryInfo> wall_shape_rows() {
  std::vector<EntryInfo> out;
  for (const auto& r : contact_input::wall_shapes()) out.push_back(r);
  return out;
}

}  // namespace inertia
