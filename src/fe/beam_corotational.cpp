#include "inertia/fe/beam_corotational.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/fe/beam_release.hpp"
#include "rotation_jet.hpp"

namespace inertia::fe {

namespace {

// The 12 DOFs' Jets and the rotation maps (rotation_jet.hpp).
constexpr int n_dof = 12;
template <bool Hess>
using Jet = rotation_jet::Jet<n_dof, Hess>;
using rotation_jet::atan2_;
using rotation_jet::cos_;
using rotation_jet::cross3;
using rotation_jet::dot3;
using rotation_jet::exp_rotation;
using rotation_jet::log_rotation;
using rotation_jet::series_below;
using rotation_jet::sin_;
using rotation_jet::sqrt_;
using rotation_jet::value;

/// What the kinematics need of the reference: the chord, L0 and the reference triad.
struct Reference {
  double chord[3];
  double length;
  double E[9];  // rows e_x, e_y, e_z (beam_frame)
};

Reference reference(const double X0[3], const double X1[3], const double orientation[3]) {
  Reference ref;
  for (int i = 0; i < 3; ++i) ref.chord[i] = X1[i] - X0[i];
  ref.length = beam_length(X0, X1);
  if (!(ref.length > 0) || !std::isfinite(ref.length))
    throw SolverError("a corotational beam element has zero length (or its ends are not finite)");
  if (!beam_frame(X0, X1, orientation, ref.E))
    throw SolverError("a corotational beam element's orientation is zero or parallel to it");
  return ref;
}

/// dl = (l - L0, theta_0, theta_1) of the file comment; Rr (rows r1, r2, r3) when not null.
template <class S>
void local_deformations(const Reference& ref, const S d[12], S dl[7], S* Rr) {
  // The chord c = chord0 + w (w = u1 - u0); l - L0 = (2 chord0 + w) . w / (l + L0), free of the
  // cancellation of l - L0 under small strains.
  S w[3], c[3], cw[3];
  for (int i = 0; i < 3; ++i) {
    w[i] = d[3 + i] - d[i];
    c[i] = w[i] + ref.chord[i];
    cw[i] = w[i] + 2 * ref.chord[i];
  }
  const S l = sqrt_(dot3(c, c));
  if (!(value(l) > 1e-12 * ref.length))
    throw SolverError(
        "a corotational beam element's chord has shrunk to zero length (or its "
        "state is not finite)");
  S r[3][3];
  for (int i = 0; i < 3; ++i) r[0][i] = c[i] / l;
  // The ends' triads: t[n][b] = exp(psi_n) e_b.
  S t[2][3][3];
  for (int n = 0; n < 2; ++n) {
    S Q[9];
    exp_rotation(d + 6 + 3 * n, Q);
    for (int b = 0; b < 3; ++b)
      for (int i = 0; i < 3; ++i)
        t[n][b][i] = Q[3 * i] * ref.E[3 * b] + Q[3 * i + 1] * ref.E[3 * b + 1] +
                     Q[3 * i + 2] * ref.E[3 * b + 2];
  }
  S q[3];
  for (int i = 0; i < 3; ++i) q[i] = (t[0][1][i] + t[1][1][i]) * 0.5;
  cross3(r[0], q, r[2]);
  const S n3 = sqrt_(dot3(r[2], r[2]));
  if (!(value(n3) > 1e-8))
    throw SolverError(
        "a corotational beam element has no frame (its chord is parallel to the "
        "mean of its ends' local y axes)");
  for (int i = 0; i < 3; ++i) r[2][i] = r[2][i] / n3;
  cross3(r[2], r[0], r[1]);
  dl[0] = dot3(cw, w) / (l + ref.length);
  for (int n = 0; n < 2; ++n) {
    S local[9];
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) local[3 * a + b] = dot3(r[a], t[n][b]);
    log_rotation(local, dl + 1 + 3 * n);
  }
  if (Rr)
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < 3; ++i) Rr[3 * a + i] = r[a][i];
}

/// The local element's DOFs that dl drives: u1x, theta_0, theta_1.
constexpr int local_dofs[7] = {3, 6, 7, 8, 9, 10, 11};

/// The local stiffness, condensed for end releases (fe/beam_release.hpp).
void local_stiffness(double length, const BeamSectionProperties& s, const BeamMaterial& m,
                     bool shear_deformable, unsigned released, double Kl[144]) {
  beam_local_stiffness(length, s, m, shear_deformable, Kl);
  if (!released) return;
  double T[144], full[144];
  beam_release_transform(Kl, released, T);
  std::copy(Kl, Kl + 144, full);
  beam_condense(T, full, Kl);
}

/// K7 = the (condensed) local stiffness restricted to local_dofs. Condensing the 12 x 12 matrix
/// and restricting it commute (the released DOFs are among local_dofs).
void reduced_stiffness(double length, const BeamSectionProperties& s, const BeamMaterial& m,
                       bool shear_deformable, unsigned released, double K7[49]) {
  double Kl[144];
  local_stiffness(length, s, m, shear_deformable, released, Kl);
  for (int a = 0; a < 7; ++a)
    for (int b = 0; b < 7; ++b) K7[7 * a + b] = Kl[12 * local_dofs[a] + local_dofs[b]];
}

/// E = 1/2 dl . K7 dl as a Jet of the 12 DOFs.
template <bool H>
Jet<H> energy_jet(const Reference& ref, const double K7[49], const double d[12]) {
  Jet<H> dj[12];
  for (int i = 0; i < 12; ++i) {
    dj[i].v = d[i];
    dj[i].g[i] = 1;
  }
  Jet<H> dl[7];
  local_deformations<Jet<H>>(ref, dj, dl, nullptr);
  Jet<H> e;
  for (int a = 0; a < 7; ++a) {
    Jet<H> p = dl[0] * K7[7 * a];
    for (int b = 1; b < 7; ++b) p = combine(p, 1.0, dl[b], K7[7 * a + b]);
    e = combine(e, 1.0, dl[a] * p, 0.5);
  }
  return e;
}

}  // namespace

void rotation_from_vector(const double psi[3], double R[9]) { exp_rotation(psi, R); }

void rotation_to_vector(const double R[9], double psi[3]) {
  const double c = (R[0] + R[4] + R[8] - 1) / 2;
  if (c >= 0) {
    log_rotation(R, psi);
    return;
  }
  // Beyond a quarter turn the axis from the symmetric part, n n^T = (sym R - c I) / (1 - c)
  // (accurate up to the half turn, where the axial vector vanishes), its sign from the axial one.
  const double v[3] = {(R[7] - R[5]) / 2, (R[2] - R[6]) / 2, (R[3] - R[1]) / 2};
  const double s = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  double B[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      B[3 * i + j] = ((R[3 * i + j] + R[3 * j + i]) / 2 - (i == j ? c : 0)) / (1 - c);
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (B[4 * i] > B[4 * k]) k = i;
  const double scale = 1 / std::sqrt(B[4 * k]);
  double n[3] = {B[3 * k] * scale, B[3 * k + 1] * scale, B[3 * k + 2] * scale};
  if (n[0] * v[0] + n[1] * v[1] + n[2] * v[2] < 0)
    for (double& x : n) x = -x;
  const double t = std::atan2(s, c);
  for (int i = 0; i < 3; ++i) psi[i] = t * n[i];
}

void corotational_beam_force(const double X0[3], const double X1[3], const double orientation[3],
                             const BeamSectionProperties& s, const BeamMaterial& m,
                             bool shear_deformable, const double d[12], double f[12], double* K,
                             double* energy, unsigned released) {
  const Reference ref = reference(X0, X1, orientation);
  double K7[49];
  reduced_stiffness(ref.length, s, m, shear_deformable, released, K7);
  if (K) {
    const Jet<true> e = energy_jet<true>(ref, K7, d);
    for (int i = 0; i < 12; ++i) f[i] = e.g[i];
    int k = 0;
    for (int i = 0; i < 12; ++i)
      for (int j = i; j < 12; ++j, ++k) K[12 * i + j] = K[12 * j + i] = e.h[k];
    if (energy) *energy = e.v;
  } else {
    const Jet<false> e = energy_jet<false>(ref, K7, d);
    for (int i = 0; i < 12; ++i) f[i] = e.g[i];
    if (energy) *energy = e.v;
  }
}

void corotational_beam_local_state(const double X0[3], const double X1[3],
                                   const double orientation[3], const BeamSectionProperties& s,
                                   const BeamMaterial& m, bool shear_deformable, const double d[12],
                                   double dl[7], double Rr[9], double* forces, unsigned released) {
  const Reference ref = reference(X0, X1, orientation);
  local_deformations<double>(ref, d, dl, Rr);
  if (!forces) return;
  double Kl[144], local[12] = {}, p[12] = {};
  local_stiffness(ref.length, s, m, shear_deformable, released, Kl);
  for (int a = 0; a < 7; ++a) local[local_dofs[a]] = dl[a];
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) p[i] += Kl[12 * i + j] * local[j];
  // Section forces (beam_section_forces' convention): -(K d) at end 0, +(K d) at end 1, each
  // (N, Vy, Vz, T, My, Mz): forces from the translation rows, moments from the rotation rows.
  for (int k = 0; k < 3; ++k) {
    forces[k] = -p[k];
    forces[3 + k] = -p[6 + k];
    forces[6 + k] = p[3 + k];
    forces[9 + k] = p[9 + k];
  }
}

}  // namespace inertia::fe
