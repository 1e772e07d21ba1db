#include "inertia/system/stable_step.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

#include "beam_term.hpp"
#include "inertia/core/error.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {

namespace {

using Point = std::array<double, 3>;

Point at(std::span<const double> x, int a) { return {x[3 * a], x[3 * a + 1], x[3 * a + 2]}; }
Point minus(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const Point& a) { return std::sqrt(dot(a, a)); }

/// A quadrilateral face's area as half the cross product of its diagonals (exact when planar).
double quad_area(std::span<const double> x, int a, int b, int c, int d) {
  return 0.5 * norm(cross(minus(at(x, c), at(x, a)), minus(at(x, d), at(x, b))));
}

/// A trilinear hexahedron's volume: det J by 2 x 2 x 2 Gauss points, exact (det J is at most
/// quadratic in each reference coordinate). Gmsh's node order.
double hex_volume(std::span<const double> x) {
  static constexpr int sign[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                     {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const double g = 1 / std::sqrt(3.0);
  double volume = 0;
  for (int q = 0; q < 8; ++q) {
    const double xi[3] = {sign[q][0] * g, sign[q][1] * g, sign[q][2] * g};
    double J[3][3] = {};  // J[i][d] = dx_i / dxi_d
    for (int a = 0; a < 8; ++a) {
      const double s[3] = {1 + sign[a][0] * xi[0], 1 + sign[a][1] * xi[1], 1 + sign[a][2] * xi[2]};
      const double dN[3] = {sign[a][0] * s[1] * s[2] / 8, sign[a][1] * s[0] * s[2] / 8,
                            sign[a][2] * s[0] * s[1] / 8};
      for (int i = 0; i < 3; ++i)
        for (int d = 0; d < 3; ++d) J[i][d] += x[3 * a + i] * dN[d];
    }
    volume += J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
              J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
              J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
  }
  return volume;  // the weights are 1
}

double hex_length(std::span<const double> x) {
  static constexpr int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                      {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  double largest = 0;
  for (const auto& f : faces) largest = std::max(largest, quad_area(x, f[0], f[1], f[2], f[3]));
  return largest > 0 ? hex_volume(x) / largest : 0;
}

double tet_length(std::span<const double> x) {
  const Point p0 = at(x, 0), e1 = minus(at(x, 1), p0), e2 = minus(at(x, 2), p0),
              e3 = minus(at(x, 3), p0);
  const double six_volume = dot(e1, cross(e2, e3));
  static constexpr int faces[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
  double largest = 0;  // twice the largest face area
  for (const auto& f : faces)
    largest = std::max(
        largest, norm(cross(minus(at(x, f[1]), at(x, f[0])), minus(at(x, f[2]), at(x, f[0])))));
  // altitude = 3 V / A = (6 V) / (2 A)
  return largest > 0 ? std::abs(six_volume) / largest : 0;
}

double shortest_corner_distance(CellType type, std::span<const double> x) {
  const int corners = info(type).num_corners;
  double length = std::numeric_limits<double>::infinity();
  for (int a = 0; a < corners; ++a)
    for (int b = a + 1; b < corners; ++b)
      length = std::min(length, norm(minus(at(x, a), at(x, b))));
  return length;
}

constexpr const char* beam_modes[] = {"axial", "torsion", "bending"};

}  // namespace

BeamCriticalStep beam_critical_step(double length, const fe::BeamSectionProperties& s,
                                    const fe::BeamMaterial& m, bool shear_deformable) {
  BeamCriticalStep out;
  out.wave_speed = m.density > 0 ? std::sqrt(m.youngs_modulus / m.density) : 0.0;
  if (!(length > 0) || !(m.density > 0)) return out;
  const double x0[3] = {0, 0, 0}, x1[3] = {length, 0, 0};
  double lumped[12];
  fe::beam_lumped_mass(x0, x1, s, m, lumped);
  const double mass = 2 * lumped[0], rotary = lumped[6], L = length;
  double phi_y = 0, phi_z = 0;  // phi_y: bending in the local x-y plane (Iz), phi_z: x-z (Iy)
  fe::beam_shear_parameters(L, s, m, shear_deformable, phi_y, phi_z);
  struct Candidate {
    double omega2;
    int mode;
  };
  const auto deflection = [&](double I, double phi) -> Candidate {
    return {m.youngs_modulus * I / ((1 + phi) * L * L * L) * (48 / mass + 6 * L * L / rotary), 2};
  };
  const Candidate candidates[] = {{4 * m.youngs_modulus * s.area / (L * mass), 0},
                                  {2 * m.shear_modulus * s.torsion / (L * rotary), 1},
                                  deflection(s.iz, phi_y),
                                  deflection(s.iy, phi_z),
                                  {2 * m.youngs_modulus * std::max(s.iy, s.iz) / (L * rotary), 2}};
  Candidate top{0, 0};
  for (const Candidate& c : candidates)
    if (c.omega2 > top.omega2) top = c;
  out.time = top.omega2 > 0 ? 2 / std::sqrt(top.omega2) : INFINITY;
  out.mode = beam_modes[top.mode];
  return out;
}

std::vector<BeamStepSection> beam_step_sections(const ProblemSpec& spec, const LocalMesh& mesh) {
  std::vector<BeamStepSection> out(mesh.regions.size());
  const auto it = spec.term_sections.find("sections");
  if (it == spec.term_sections.end()) return out;
  for (const BeamInput& b : dynamic_cast<const BeamSection&>(*it->second).beams) {
    for (std::size_t r = 0; r < mesh.regions.size(); ++r) {
      if (mesh.regions[r].name != b.region) continue;
      for (const auto& m : spec.materials) {
        if (m.region != static_cast<int>(r) || !(m.material.density > 0)) continue;
        const auto& e = m.material.elastic();
        BeamStepSection& out_r = out[r];
        out_r.beam = true;
        out_r.material = {.youngs_modulus = e.youngs_modulus,
                          .shear_modulus = e.mu(),
                          .density = m.material.density};
        out_r.section = b.shape.empty()
                            ? b.properties
                            : fe::section_properties(beam_detail::beam_shape(b), e.poissons_ratio);
        // Plastic (fiber) beams are Euler-Bernoulli (term_beams.cpp).
        out_r.shear_deformable = b.shear_deformable && m.material.model->j2() == nullptr;
      }
    }
  }
  return out;
}

double cell_volume(CellType type, std::span<const double> x) {
  switch (type) {
    case CellType::hex8:
      return hex_volume(x);
    case CellType::tet4:
    case CellType::tet10: {
      const Point p0 = at(x, 0);
      return dot(minus(at(x, 1), p0), cross(minus(at(x, 2), p0), minus(at(x, 3), p0))) / 6;
    }
    default:
      return 0;
  }
}

/// A shell's: its area over its longest side (LS-DYNA's shell length), the area as half the
/// diagonals' cross product (a quadrilateral) or the triangle's.
double shell_length(CellType type, std::span<const double> x) {
  const int n = type == CellType::shell3 ? 3 : 4;
  double longest = 0;
  for (int a = 0; a < n; ++a)
    longest = std::max(longest, norm(minus(at(x, (a + 1) % n), at(x, a))));
  const double area = n == 4
                          ? quad_area(x, 0, 1, 2, 3)
                          : 0.5 * norm(cross(minus(at(x, 1), at(x, 0)), minus(at(x, 2), at(x, 0))));
  return longest > 0 ? (n == 3 ? 2 : 1) * area / longest : 0;
}

double characteristic_length(CellType type, std::span<const double> x) {
  switch (type) {
    case CellType::shell4:
    case CellType::shell3:
      return std::min(shell_length(type, x), shortest_corner_distance(type, x));
    case CellType::shell8:  // its corners' quadrilateral's, halved: the nodes' spacing
      return 0.5 * std::min(shell_length(type, x), shortest_corner_distance(type, x));
    case CellType::hex8:
      return hex_length(x);
    case CellType::tet4:
    case CellType::tet10:
      return tet_length(x);
    default:
      return shortest_corner_distance(type, x);
  }
}

StableStepKernel::StableStepKernel(const LocalMesh& mesh, std::vector<double> wave_speed,
                                   std::vector<double> cell_scale)
    : mesh_(mesh), wave_speed_(std::move(wave_speed)), cell_scale_(std::move(cell_scale)) {}

std::span<const double> StableStepKernel::corners(std::int64_t k, const PetscScalar* u) const {
  const auto nodes = mesh_.nodes_of(k);
  const int n = info(mesh_.cell_types[k]).num_corners;
  corners_.resize(3 * static_cast<std::size_t>(n));
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      corners_[3 * a + i] = mesh_.coords[3 * nodes[a] + i] + (u ? u[3 * nodes[a] + i] : 0.0);
  return corners_;
}

void StableStepKernel::transit_times(Vec u, std::vector<double>& out) const {
  const LocalMesh& lm = mesh_;
  out.assign(static_cast<std::size_t>(lm.num_cells()), std::numeric_limits<double>::infinity());
  std::optional<petsc::GhostedRead> ul;
  if (u) ul.emplace(u);
  for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
    const int r = lm.cell_regions[k];
    if (!lm.cell_is_element[k] || r < 0 || !(wave_speed_[r] > 0)) continue;
    if (skip_ && !skip_->empty() && (*skip_)[static_cast<std::size_t>(k)]) continue;  // eroded
    // An inverted or flat cell (or a non-finite u): 0, which the minimum reports.
    const auto x = corners(k, ul ? ul->data() : nullptr);
    const double scale = cell_scale_.empty() ? 1.0 : cell_scale_[k];
    if (lm.cell_types[k] == CellType::beam2 && !beams_.empty() && beams_[r].beam) {
      const BeamStepSection& b = beams_[r];
      const double length = norm(minus(at(x, 1), at(x, 0)));
      out[k] = scale * beam_critical_step(length, b.section, b.material, b.shear_deformable).time;
      if (!std::isfinite(out[k]) || !(length > 0)) out[k] = 0.0;
      continue;
    }
    const double length = characteristic_length(lm.cell_types[k], x);
    out[k] = length > 0 ? scale * length / wave_speed_[r] : 0.0;
  }
}

double StableStepKernel::smallest(MPI_Comm comm, Vec u) {
  transit_times(u, times_);
  double local = std::numeric_limits<double>::infinity();
  for (const double t : times_) local = std::min(local, t);
  INERTIA_MPI(MPI_Allreduce(&local, &last_, 1, MPI_DOUBLE, MPI_MIN, comm));
  return last_;
}

ControllingCell StableStepKernel::controlling(MPI_Comm comm) const {
  ControllingCell cell;
  cell.time = last_;
  if (!std::isfinite(last_)) return cell;
  // The smallest tag among the cells at the minimum, then its owner's description.
  std::int64_t mine = std::numeric_limits<std::int64_t>::max(), local_cell = -1;
  for (std::size_t k = 0; k < times_.size(); ++k)
    if (times_[k] == last_ && mesh_.cell_tags[k] < mine) {
      mine = mesh_.cell_tags[k];
      local_cell = static_cast<std::int64_t>(k);
    }
  std::int64_t tag = 0;
  INERTIA_MPI(MPI_Allreduce(&mine, &tag, 1, MPI_INT64_T, MPI_MIN, comm));
  double described[4] = {-1, -1, -1, -1};  // region, L, c, beam mode of the owner; -1 elsewhere
  if (local_cell >= 0 && mine == tag) {
    const int r = mesh_.cell_regions[local_cell];
    described[0] = r;
    described[2] = wave_speed_[r];
    described[1] = last_ * wave_speed_[r] / (cell_scale_.empty() ? 1.0 : cell_scale_[local_cell]);
    if (mesh_.cell_types[local_cell] == CellType::beam2 && !beams_.empty() && beams_[r].beam) {
      const BeamStepSection& b = beams_[r];
      const auto x = corners(local_cell, nullptr);
      described[1] = norm(minus(at(x, 1), at(x, 0)));
      const BeamCriticalStep step =
          beam_critical_step(described[1], b.section, b.material, b.shear_deformable);
      described[2] = step.wave_speed;
      for (int i = 0; i < 3; ++i)
        if (step.mode == std::string_view(beam_modes[i])) described[3] = i;
    }
  }
  double global[4];
  INERTIA_MPI(MPI_Allreduce(described, global, 4, MPI_DOUBLE, MPI_MAX, comm));
  cell.tag = tag;
  cell.region = static_cast<int>(global[0]);
  cell.length = global[1];
  cell.wave_speed = global[2];
  if (global[3] >= 0) cell.mode = beam_modes[static_cast<int>(global[3])];
  return cell;
}

}  // namespace inertia
