#include "inertia/system/rigid_body.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/system/amplitude.hpp"

namespace inertia {

namespace {

Mat3 mul(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) C[3 * i + j] += A[3 * i + k] * B[3 * k + j];
  return C;
}

Vec3 mul(const Mat3& A, const Vec3& x) {
  return {A[0] * x[0] + A[1] * x[1] + A[2] * x[2], A[3] * x[0] + A[4] * x[1] + A[5] * x[2],
          A[6] * x[0] + A[7] * x[1] + A[8] * x[2]};
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// R J0 R^T.
Mat3 spatial(const Mat3& R, const Mat3& J0) {
  const Mat3 RJ = mul(R, J0);
  Mat3 J{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) J[3 * i + j] += RJ[3 * i + k] * R[3 * j + k];
  return J;
}

/// Solves the n x n system (n <= 3, row-major in a, leading dimension 3) by Gaussian elimination
/// with partial pivoting; b is overwritten with the solution.
void solve_small(double a[9], double b[3], int n) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (std::abs(a[3 * i + k]) > std::abs(a[3 * p + k])) p = i;
    INERTIA_CHECK(a[3 * p + k] != 0, InternalError, "rigid body: a singular inertia tensor");
    if (p != k) {
      for (int j = 0; j < n; ++j) std::swap(a[3 * k + j], a[3 * p + j]);
      std::swap(b[k], b[p]);
    }
    for (int i = k + 1; i < n; ++i) {
      const double f = a[3 * i + k] / a[3 * k + k];
      for (int j = k; j < n; ++j) a[3 * i + j] -= f * a[3 * k + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    for (int j = k + 1; j < n; ++j) b[k] -= a[3 * k + j] * b[j];
    b[k] /= a[3 * k + k];
  }
}

}  // namespace

Mat3 rotation_exp(const Vec3& w) {
  const double t2 = dot(w, w), t = std::sqrt(t2);
  // sin(t)/t and (1 - cos t)/t^2, by their series near 0.
  const double s = t < 1e-4 ? 1 - t2 / 6 + t2 * t2 / 120 : std::sin(t) / t;
  const double c = t < 1e-4 ? 0.5 - t2 / 24 + t2 * t2 / 720 : (1 - std::cos(t)) / t2;
  const Mat3 W{0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
  const Mat3 W2 = mul(W, W);
  Mat3 R{1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int i = 0; i < 9; ++i) R[i] += s * W[i] + c * W2[i];
  return R;
}

double RigidDrive::at(int i, double t) const {
  return value[static_cast<std::size_t>(i)] * (amplitude ? amplitude->value(t) : 1.0);
}

bool RigidDrive::any() const {
  for (const bool d : driven)
    if (d) return true;
  return false;
}

RigidBody::RigidBody(const RigidMassProperties& p, const Vec3& v0, const Vec3& w0,
                     const RigidDrive& drive)
    : p_(p), drive_(drive), mass_(p.mass), c_(p.center), V_(v0), w_(w0) {
  for (int i = 0; i < 3; ++i) {
    if (drive_.driven[i]) V_[i] = drive_.at(i, 0);
    if (drive_.driven[3 + i]) w_[i] = drive_.at(3 + i, 0);
  }
  L_ = mul(p_.inertia, w_);
}

Vec3 RigidBody::omega(const Mat3& R, const Vec3& L, double t) const {
  const Mat3 J = spatial(R, p_.inertia);
  Vec3 w{0, 0, 0};
  int free[3], n = 0;
  for (int i = 0; i < 3; ++i)
    if (drive_.driven[3 + i])
      w[i] = drive_.at(3 + i, t);
    else
      free[n++] = i;
  if (n == 0) return w;
  double a[9], b[3];
  for (int r = 0; r < n; ++r) {
    b[r] = L[free[r]];
    for (int j = 0; j < 3; ++j)
      if (drive_.driven[3 + j]) b[r] -= J[3 * free[r] + j] * w[j];
    for (int s = 0; s < n; ++s) a[3 * r + s] = J[3 * free[r] + free[s]];
  }
  solve_small(a, b, n);
  for (int r = 0; r < n; ++r) w[free[r]] = b[r];
  return w;
}

void RigidBody::advance(double t, double h, double kick, const Vec3& F, const Vec3& M) {
  F_ = F, M_ = M;
  const double tm = t + 0.5 * h;
  Vec3 Vh, Lh;
  for (int i = 0; i < 3; ++i) {
    Vh[i] = drive_.driven[i] ? drive_.at(i, tm) : V_[i] + kick * F[i] / mass_;
    Lh[i] = L_[i] + kick * M[i];
    c_[i] += h * Vh[i];
  }
  // The midpoint rotation's angular velocity, by fixed-point iterations from the start's.
  Vec3 w = omega(R_, Lh, tm);
  Mat3 Rm = R_;
  iterations_ = 0;
  while (iterations_ < max_iterations) {
    ++iterations_;
    Rm = mul(rotation_exp({0.5 * h * w[0], 0.5 * h * w[1], 0.5 * h * w[2]}), R_);
    const Vec3 next = omega(Rm, Lh, tm);
    const double change =
        std::abs(next[0] - w[0]) + std::abs(next[1] - w[1]) + std::abs(next[2] - w[2]);
    w = next;
    if (change <= 1e-15 * (std::abs(w[0]) + std::abs(w[1]) + std::abs(w[2]))) break;
  }
  if (drive_.any()) Lh = mul(spatial(Rm, p_.inertia), w);  // the driven components' reaction
  R_ = mul(rotation_exp({h * w[0], h * w[1], h * w[2]}), R_);
  V_ = Vh, L_ = Lh, w_ = w;
}

void RigidBody::finish(double t1, double h, const Vec3& F, const Vec3& M) {
  F_ = F, M_ = M;
  for (int i = 0; i < 3; ++i) {
    V_[i] = drive_.driven[i] ? drive_.at(i, t1) : V_[i] + 0.5 * h * F[i] / mass_;
    L_[i] += 0.5 * h * M[i];
  }
  w_ = omega(R_, L_, t1);
  if (drive_.any()) L_ = mul(spatial(R_, p_.inertia), w_);
}

Vec3 RigidBody::position(const Vec3& X) const {
  const Vec3 r = mul(R_, Vec3{X[0] - p_.center[0], X[1] - p_.center[1], X[2] - p_.center[2]});
  return {c_[0] + r[0], c_[1] + r[1], c_[2] + r[2]};
}

Vec3 RigidBody::velocity_at(const Vec3& x) const {
  const Vec3 r{x[0] - c_[0], x[1] - c_[1], x[2] - c_[2]};
  const Vec3 wr = cross(w_, r);
  return {V_[0] + wr[0], V_[1] + wr[1], V_[2] + wr[2]};
}

Vec3 RigidBody::acceleration_at(const Vec3& x) const {
  // A = F / m (driven: 0 as far as the step knows); alpha = J^{-1} (M - w x J w).
  const Vec3 r{x[0] - c_[0], x[1] - c_[1], x[2] - c_[2]};
  const Mat3 J = spatial(R_, p_.inertia);
  const Vec3 Jw = mul(J, w_), wJw = cross(w_, Jw);
  double a[9], alpha[3] = {M_[0] - wJw[0], M_[1] - wJw[1], M_[2] - wJw[2]};
  for (int i = 0; i < 9; ++i) a[i] = J[i];
  solve_small(a, alpha, 3);
  const Vec3 ar = cross({alpha[0], alpha[1], alpha[2]}, r), wwr = cross(w_, cross(w_, r));
  Vec3 out;
  for (int i = 0; i < 3; ++i) out[i] = (drive_.driven[i] ? 0 : F_[i] / mass_) + ar[i] + wwr[i];
  return out;
}

double RigidBody::kinetic_energy() const { return 0.5 * (mass_ * dot(V_, V_) + dot(w_, L_)); }

Vec3 RigidBody::rotation_vector() const {
  const Mat3& R = R_;
  const double c = std::clamp(0.5 * (R[0] + R[4] + R[8] - 1), -1.0, 1.0), t = std::acos(c);
  const Vec3 axial{R[7] - R[5], R[2] - R[6], R[3] - R[1]};  // 2 sin(t) n
  const double s = std::sin(t);
  if (s > 1e-8) return {0.5 * t / s * axial[0], 0.5 * t / s * axial[1], 0.5 * t / s * axial[2]};
  if (c > 0) return {0.5 * axial[0], 0.5 * axial[1], 0.5 * axial[2]};  // small angles
  // Near pi: n n^T = (R + I) / 2.
  Vec3 n{std::sqrt(std::max(0.0, 0.5 * (R[0] + 1))), std::sqrt(std::max(0.0, 0.5 * (R[4] + 1))),
         std::sqrt(std::max(0.0, 0.5 * (R[8] + 1)))};
  if (R[1] + R[3] < 0) n[1] = -n[1];
  if (R[2] + R[6] < 0) n[2] = -n[2];
  return {t * n[0], t * n[1], t * n[2]};
}

std::vector<double> RigidBody::save() const {
  std::vector<double> s;
  s.reserve(state_size);
  for (const auto* part : {&c_, &V_, &L_, &w_, &F_, &M_})
    s.insert(s.end(), part->begin(), part->end());
  s.insert(s.end(), R_.begin(), R_.end());
  return s;
}

void RigidBody::load(std::span<const double> values) {
  INERTIA_CHECK(values.size() == state_size, InternalError, "rigid body: a state of ",
                values.size(), " values");
  std::size_t k = 0;
  for (auto* part : {&c_, &V_, &L_, &w_, &F_, &M_})
    for (double& x : *part) x = values[k++];
  for (double& x : R_) x = values[k++];
}

}  // namespace inertia
