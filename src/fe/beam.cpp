#include "inertia/fe/beam.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "inertia/core/error.hpp"
#include "inertia/fe/beam_release.hpp"

namespace inertia::fe {

namespace {

constexpr double pi = std::numbers::pi;

// Local DOF indices (the order of the file comment, local axes).
constexpr int u0 = 0, u1 = 3, t0 = 6, t1 = 9;

double norm3(const double a[3]) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

void cross3(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/// The length, checked: throws for a zero-length or non-finite element.
double checked_length(const double x0[3], const double x1[3]) {
  const double l = beam_length(x0, x1);
  if (!(l > 0) || !std::isfinite(l))
    throw SolverError("a beam element has zero length (or its ends are not finite)");
  return l;
}

/// Adds the 2 x 2 block c [[1, -1], [-1, 1]] on DOFs i, j.
void add_bar(double* A, int i, int j, double c) {
  A[i * 12 + i] += c;
  A[j * 12 + j] += c;
  A[i * 12 + j] -= c;
  A[j * 12 + i] -= c;
}

/// Adds the 2 x 2 block c [[2, 1], [1, 2]] on DOFs i, j (a linear field's consistent mass).
void add_bar_mass(double* A, int i, int j, double c) {
  A[i * 12 + i] += 2 * c;
  A[j * 12 + j] += 2 * c;
  A[i * 12 + j] += c;
  A[j * 12 + i] += c;
}

/// Adds a 4 x 4 bending block b (in the DOFs v0, th0, v1, th1 with th = dv/dx) on the local DOFs
/// dofs[4]; sign = -1 when the element's rotation DOF is -dv/dx (bending in x-z).
void add_bending(double* A, const int dofs[4], double sign, const double b[4][4]) {
  const double s[4] = {1, sign, 1, sign};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) A[dofs[i] * 12 + dofs[j]] += s[i] * s[j] * b[i][j];
}

/// Przemieniecki's bending stiffness (th = dv/dx).
void bending_stiffness(double ei, double phi, double l, double b[4][4]) {
  const double c = ei / ((1 + phi) * l * l * l);
  const double l2 = l * l;
  const double k[4][4] = {{12, 6 * l, -12, 6 * l},
                          {6 * l, (4 + phi) * l2, -6 * l, (2 - phi) * l2},
                          {-12, -6 * l, 12, -6 * l},
                          {6 * l, (2 - phi) * l2, -6 * l, (4 + phi) * l2}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) b[i][j] = c * k[i][j];
}

/// Przemieniecki's consistent bending mass (th = dv/dx): translational inertia rho_a = rho A and
/// rotary inertia rho_i = rho I, each over (1 + phi)^2.
void bending_mass(double rho_a, double rho_i, double phi, double l, double b[4][4]) {
  const double p = phi, p2 = phi * phi, l2 = l * l;
  const double ct = rho_a * l / ((1 + p) * (1 + p));
  const double m11 = 13.0 / 35 + 7.0 / 10 * p + p2 / 3;
  const double m12 = (11.0 / 210 + 11.0 / 120 * p + p2 / 24) * l;
  const double m13 = 9.0 / 70 + 3.0 / 10 * p + p2 / 6;
  const double m14 = -(13.0 / 420 + 3.0 / 40 * p + p2 / 24) * l;
  const double m22 = (1.0 / 105 + p / 60 + p2 / 120) * l2;
  const double m24 = -(1.0 / 140 + p / 60 + p2 / 120) * l2;
  const double t[4][4] = {
      {m11, m12, m13, m14}, {m12, m22, -m14, m24}, {m13, -m14, m11, -m12}, {m14, m24, -m12, m22}};
  const double cr = rho_i / ((1 + p) * (1 + p) * l);
  const double r11 = 6.0 / 5;
  const double r12 = (1.0 / 10 - p / 2) * l;
  const double r22 = (2.0 / 15 + p / 6 + p2 / 3) * l2;
  const double r24 = (-1.0 / 30 - p / 6 + p2 / 6) * l2;
  const double r[4][4] = {
      {r11, r12, -r11, r12}, {r12, r22, -r12, r24}, {-r11, -r12, r11, -r12}, {r12, r24, -r12, r22}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) b[i][j] = ct * t[i][j] + cr * r[i][j];
}

// The bending DOFs: x-y plane (v, th_z), x-z plane (w, th_y; th_y = -dw/dx).
constexpr int bending_xy[4] = {u0 + 1, t0 + 2, u1 + 1, t1 + 2};
constexpr int bending_xz[4] = {u0 + 2, t0 + 1, u1 + 2, t1 + 1};

void check_dimensions(bool ok, const char* shape) {
  if (!ok) throw InputError(cat("beam section '", shape, "': bad dimensions"));
}

bool positive(double v) { return v > 0 && std::isfinite(v); }

/// St Venant torsion constant of a solid rectangle (Timoshenko and Goodier's series).
double rectangle_torsion(double p, double q) {
  const double a = std::max(p, q), b = std::min(p, q);
  double sum = 0;
  for (int n = 1; n < 200; n += 2) sum += std::tanh(n * pi * a / (2 * b)) / std::pow(n, 5);
  return a * b * b * b * (1.0 / 3 - 64 / std::pow(pi, 5) * (b / a) * sum);
}

double rectangle_shear_factor(double nu) { return 10 * (1 + nu) / (12 + 11 * nu); }

/// Fibers of the rectangle [yc -+ wy/2] x [zc -+ hz/2]: cells with 2 x 2 Gauss points.
void rectangle_fibers(double yc, double zc, double wy, double hz, int divisions,
                      std::vector<BeamFiber>& out) {
  const bool y_long = wy >= hz;
  const double ratio = y_long ? hz / wy : wy / hz;
  const int n_thick = std::max(1, static_cast<int>(std::lround(divisions * ratio)));
  const int ny = y_long ? divisions : n_thick, nz = y_long ? n_thick : divisions;
  const double dy = wy / ny, dz = hz / nz, g = 0.5 / std::sqrt(3.0);
  for (int i = 0; i < ny; ++i)
    for (int j = 0; j < nz; ++j) {
      const double y = yc - wy / 2 + (i + 0.5) * dy, z = zc - hz / 2 + (j + 0.5) * dz;
      for (double sy : {-g, g})
        for (double sz : {-g, g}) out.push_back({y + sy * dy, z + sz * dz, dy * dz / 4});
    }
}

/// Fibers of the annulus r_in..r_out: rings of equal sectors (see the header).
void annulus_fibers(double r_in, double r_out, int rings, int sectors,
                    std::vector<BeamFiber>& out) {
  const double dr = (r_out - r_in) / rings, dt = 2 * pi / sectors;
  for (int i = 0; i < rings; ++i) {
    const double a = r_in + i * dr, b = i + 1 == rings ? r_out : a + dr;
    const double r = std::sqrt((a * a + b * b) / 2), area = (b * b - a * a) / 2 * dt;
    for (int k = 0; k < sectors; ++k) {
      const double t = (k + 0.5) * dt;
      out.push_back({r * std::cos(t), r * std::sin(t), area});
    }
  }
}

}  // namespace

double beam_length(const double x0[3], const double x1[3]) {
  const double d[3] = {x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]};
  return norm3(d);
}

bool beam_frame(const double x0[3], const double x1[3], const double orientation[3], double R[9]) {
  const double l = beam_length(x0, x1);
  const double on = norm3(orientation);
  if (!(l > 0) || !std::isfinite(l) || !(on > 0) || !std::isfinite(on)) return false;
  const double ex[3] = {(x1[0] - x0[0]) / l, (x1[1] - x0[1]) / l, (x1[2] - x0[2]) / l};
  double ez[3];
  cross3(ex, orientation, ez);
  const double zn = norm3(ez);
  if (!(zn > 1e-8 * on)) return false;
  for (double& c : ez) c /= zn;
  double ey[3];
  cross3(ez, ex, ey);
  for (int i = 0; i < 3; ++i) {
    R[i] = ex[i];
    R[3 + i] = ey[i];
    R[6 + i] = ez[i];
  }
  return true;
}

void default_beam_orientation(const double x0[3], const double x1[3], double orientation[3]) {
  const double l = beam_length(x0, x1);
  orientation[0] = 0;
  orientation[1] = 1;
  orientation[2] = 0;
  if (!(l > 0) || !std::isfinite(l)) return;
  const double ex[3] = {(x1[0] - x0[0]) / l, (x1[1] - x0[1]) / l, (x1[2] - x0[2]) / l};
  if (std::abs(ex[2]) >= 0.999) return;
  const double z[3] = {0, 0, 1};
  cross3(z, ex, orientation);
}

void beam_shear_parameters(double length, const BeamSectionProperties& s, const BeamMaterial& m,
                           bool shear_deformable, double& phi_y, double& phi_z) {
  phi_y = phi_z = 0;
  if (!shear_deformable) return;
  if ((s.shear_area_y > 0 || s.shear_area_z > 0) && !(m.shear_modulus > 0))
    throw InputError("a shear-deformable beam with a shear area needs a shear modulus > 0");
  const double l2 = length * length;
  if (s.shear_area_y > 0)
    phi_y = 12 * m.youngs_modulus * s.iz / (m.shear_modulus * s.shear_area_y * l2);
  if (s.shear_area_z > 0)
    phi_z = 12 * m.youngs_modulus * s.iy / (m.shear_modulus * s.shear_area_z * l2);
}

void beam_local_stiffness(double length, const BeamSectionProperties& s, const BeamMaterial& m,
                          bool shear_deformable, double K[144]) {
  const double l = length;
  double phi_y, phi_z;
  beam_shear_parameters(l, s, m, shear_deformable, phi_y, phi_z);
  std::fill(K, K + 144, 0.0);
  add_bar(K, u0, u1, m.youngs_modulus * s.area / l);
  add_bar(K, t0, t1, m.shear_modulus * s.torsion / l);
  double b[4][4];
  bending_stiffness(m.youngs_modulus * s.iz, phi_y, l, b);
  add_bending(K, bending_xy, 1, b);
  bending_stiffness(m.youngs_modulus * s.iy, phi_z, l, b);
  add_bending(K, bending_xz, -1, b);
}

void beam_local_consistent_mass(double length, const BeamSectionProperties& s,
                                const BeamMaterial& m, bool shear_deformable, double M[144]) {
  const double l = length, rho = m.density;
  double phi_y, phi_z;
  beam_shear_parameters(l, s, m, shear_deformable, phi_y, phi_z);
  std::fill(M, M + 144, 0.0);
  add_bar_mass(M, u0, u1, rho * s.area * l / 6);
  add_bar_mass(M, t0, t1, rho * (s.iy + s.iz) * l / 6);
  double b[4][4];
  bending_mass(rho * s.area, rho * s.iz, phi_y, l, b);
  add_bending(M, bending_xy, 1, b);
  bending_mass(rho * s.area, rho * s.iy, phi_z, l, b);
  add_bending(M, bending_xz, -1, b);
}

void beam_to_global(const double R[9], const double A_local[144], double A_global[144]) {
  // Block (a, b) of T^T A T is R^T A_ab R.
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      double AR[3][3];  // A_ab R
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double v = 0;
          for (int k = 0; k < 3; ++k) v += A_local[(3 * a + i) * 12 + 3 * b + k] * R[3 * k + j];
          AR[i][j] = v;
        }
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double v = 0;
          for (int k = 0; k < 3; ++k) v += R[3 * k + i] * AR[k][j];
          A_global[(3 * a + i) * 12 + 3 * b + j] = v;
        }
    }
}

void beam_stiffness(const double x0[3], const double x1[3], const double R[9],
                    const BeamSectionProperties& s, const BeamMaterial& m, bool shear_deformable,
                    double K[144]) {
  double local[144];
  beam_local_stiffness(checked_length(x0, x1), s, m, shear_deformable, local);
  beam_to_global(R, local, K);
}

void beam_consistent_mass(const double x0[3], const double x1[3], const double R[9],
                          const BeamSectionProperties& s, const BeamMaterial& m,
                          bool shear_deformable, double M[144]) {
  double local[144];
  beam_local_consistent_mass(checked_length(x0, x1), s, m, shear_deformable, local);
  beam_to_global(R, local, M);
}

void beam_lumped_mass(const double x0[3], const double x1[3], const BeamSectionProperties& s,
                      const BeamMaterial& m, double mass[12]) {
  const double l = checked_length(x0, x1), rho = m.density;
  const double translation = rho * s.area * l / 2;
  const double hrz = rho * s.area * l * l * l / 78;
  const double rotation =
      std::max({rho * (s.iy + s.iz) * l / 2, rho * s.iy * l / 2 + hrz, rho * s.iz * l / 2 + hrz});
  for (int i = 0; i < 6; ++i) mass[i] = translation;
  for (int i = 6; i < 12; ++i) mass[i] = rotation;
}

void beam_section_forces(const double x0[3], const double x1[3], const double R[9],
                         const BeamSectionProperties& s, const BeamMaterial& m,
                         bool shear_deformable, const double d[12], double forces[12],
                         unsigned released) {
  double K[144];
  beam_local_stiffness(checked_length(x0, x1), s, m, shear_deformable, K);
  if (released) {  // the condensed element: its rows at the released DOFs are zero
    double T[144], full[144];
    beam_release_transform(K, released, T);
    std::copy(K, K + 144, full);
    beam_condense(T, full, K);
  }
  double dl[12];  // local displacements, block by block
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      dl[3 * a + i] =
          R[3 * i] * d[3 * a] + R[3 * i + 1] * d[3 * a + 1] + R[3 * i + 2] * d[3 * a + 2];
  double f[12];
  for (int i = 0; i < 12; ++i) {
    double v = 0;
    for (int j = 0; j < 12; ++j) v += K[i * 12 + j] * dl[j];
    f[i] = v;
  }
  // N, Vy, Vz from the node's force, T, My, Mz from its moment; end 0 with the opposite sign.
  for (int i = 0; i < 3; ++i) {
    forces[i] = -f[u0 + i];
    forces[3 + i] = -f[t0 + i];
    forces[6 + i] = f[u1 + i];
    forces[9 + i] = f[t1 + i];
  }
}

BeamSectionProperties rectangle_section(double width_y, double height_z, double nu) {
  check_dimensions(positive(width_y) && positive(height_z), "rectangle");
  const double b = width_y, h = height_z;
  BeamSectionProperties p;
  p.area = b * h;
  p.iy = b * h * h * h / 12;
  p.iz = h * b * b * b / 12;
  p.torsion = rectangle_torsion(b, h);
  p.shear_area_y = p.shear_area_z = rectangle_shear_factor(nu) * p.area;
  p.plastic_modulus_y = b * h * h / 4;
  p.plastic_modulus_z = h * b * b / 4;
  return p;
}

BeamSectionProperties circle_section(double diameter, double nu) {
  check_dimensions(positive(diameter), "circle");
  const double d = diameter, d2 = d * d;
  BeamSectionProperties p;
  p.area = pi * d2 / 4;
  p.iy = p.iz = pi * d2 * d2 / 64;
  p.torsion = pi * d2 * d2 / 32;
  p.shear_area_y = p.shear_area_z = 6 * (1 + nu) / (7 + 6 * nu) * p.area;
  p.plastic_modulus_y = p.plastic_modulus_z = d2 * d / 6;
  return p;
}

BeamSectionProperties tube_section(double outer_diameter, double wall_thickness, double nu) {
  check_dimensions(
      positive(outer_diameter) && positive(wall_thickness) && 2 * wall_thickness <= outer_diameter,
      "tube");
  const double D = outer_diameter, d = std::max(0.0, D - 2 * wall_thickness);
  const double D2 = D * D, d2 = d * d, m = d / D, m2 = m * m;
  BeamSectionProperties p;
  p.area = pi * (D2 - d2) / 4;
  p.iy = p.iz = pi * (D2 * D2 - d2 * d2) / 64;
  p.torsion = pi * (D2 * D2 - d2 * d2) / 32;
  const double q = (1 + m2) * (1 + m2);
  const double k = 6 * (1 + nu) * q / ((7 + 6 * nu) * q + (20 + 12 * nu) * m2);
  p.shear_area_y = p.shear_area_z = k * p.area;
  p.plastic_modulus_y = p.plastic_modulus_z = (D2 * D - d2 * d) / 6;
  return p;
}

BeamSectionProperties i_section(double height, double flange_width, double flange_thickness,
                                double web_thickness, double nu) {
  const double h = height, b = flange_width, tf = flange_thickness, tw = web_thickness;
  check_dimensions(
      positive(h) && positive(b) && positive(tf) && positive(tw) && 2 * tf < h && tw <= b,
      "i_section");
  const double hw = h - 2 * tf;  // the web's clear height
  BeamSectionProperties p;
  p.area = 2 * b * tf + hw * tw;
  p.iy = (b * h * h * h - (b - tw) * hw * hw * hw) / 12;
  p.iz = 2 * tf * b * b * b / 12 + hw * tw * tw * tw / 12;
  p.torsion = (2 * b * tf * tf * tf + hw * tw * tw * tw) / 3;
  const double hm = h - tf, m = 2 * b * tf / (hm * tw), n = b / hm;
  const double m2 = m * m, m3 = m2 * m;
  const double kz = 10 * (1 + nu) * (1 + 3 * m) * (1 + 3 * m) /
                    ((12 + 72 * m + 150 * m2 + 90 * m3) + nu * (11 + 66 * m + 135 * m2 + 90 * m3) +
                     10 * n * n * ((3 + nu) * m + 3 * m2));
  p.shear_area_z = kz * p.area;
  p.shear_area_y = rectangle_shear_factor(nu) * 2 * b * tf;
  p.plastic_modulus_y = b * tf * (h - tf) + tw * hw * hw / 4;
  p.plastic_modulus_z = tf * b * b / 2 + hw * tw * tw / 4;
  return p;
}

BeamSectionProperties section_properties(const BeamShape& shape, double nu) {
  switch (shape.kind) {
    case BeamShape::Kind::rectangle:
      return rectangle_section(shape.a, shape.b, nu);
    case BeamShape::Kind::circle:
      return circle_section(shape.a, nu);
    case BeamShape::Kind::tube:
      return tube_section(shape.a, shape.b, nu);
    case BeamShape::Kind::i_section:
      return i_section(shape.a, shape.b, shape.c, shape.d, nu);
  }
  throw InternalError("unknown beam shape kind");
}

std::vector<BeamFiber> section_fibers(const BeamShape& shape, int divisions) {
  if (divisions < 1) throw InputError("beam section fibers: divisions must be >= 1");
  section_properties(shape, 0.3);  // checks the dimensions
  std::vector<BeamFiber> fibers;
  switch (shape.kind) {
    case BeamShape::Kind::rectangle:
      rectangle_fibers(0, 0, shape.a, shape.b, divisions, fibers);
      break;
    case BeamShape::Kind::circle:
      annulus_fibers(0, shape.a / 2, divisions, 4 * divisions, fibers);
      break;
    case BeamShape::Kind::tube: {
      const double r = shape.a / 2, r_in = std::max(0.0, r - shape.b);
      annulus_fibers(r_in, r, std::max(1, divisions / 4), 4 * divisions, fibers);
      break;
    }
    case BeamShape::Kind::i_section: {
      const double h = shape.a, b = shape.b, tf = shape.c, tw = shape.d, hw = h - 2 * tf;
      rectangle_fibers(0, (h - tf) / 2, b, tf, divisions, fibers);
      rectangle_fibers(0, -(h - tf) / 2, b, tf, divisions, fibers);
      rectangle_fibers(0, 0, tw, hw, divisions, fibers);
      break;
    }
  }
  return fibers;
}

void beam_uniform_load(const double x0[3], const double x1[3], const double q[3], double f[12]) {
  const double d[3] = {x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]};
  const double L = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  // (L^2 / 12) e_x x q = (L / 12) d x q.
  const double m[3] = {L / 12 * (d[1] * q[2] - d[2] * q[1]), L / 12 * (d[2] * q[0] - d[0] * q[2]),
                       L / 12 * (d[0] * q[1] - d[1] * q[0])};
  for (int i = 0; i < 3; ++i) {
    f[i] = f[3 + i] = q[i] * L / 2;
    f[6 + i] = m[i];
    f[9 + i] = -m[i];
  }
}

}  // namespace inertia::fe
