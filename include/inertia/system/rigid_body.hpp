#pragma once
/// \file rigid_body.hpp
/// A rigid body's six degrees of freedom (the case file's `rigid_bodies:`; LS-DYNA's *MAT_RIGID,
/// Abaqus's rigid body), advanced with the leap-frog of central difference in its velocity-Verlet
/// form, which is the same recurrence the body's neighbours follow:
///
///   V_{n+1/2} = V_n + k F_n / m,               L_{n+1/2} = L_n + k M_n,
///   c_{n+1}   = c_n + h V_{n+1/2},             R_{n+1}  = exp(h [w]) R_n,
///   V_{n+1}   = V_{n+1/2} + h/2 F_{n+1} / m,   L_{n+1}  = L_{n+1/2} + h/2 M_{n+1},
///
/// k = h/2 (k = h for SOFA's start, once). c is the centre of mass, R the rotation from the
/// reference configuration, V the velocity, L the angular momentum about c (spatial frame), F the
/// resultant and M the moment about c of every force on the body's nodes. The angular velocity w
/// of the step is that of the midpoint rotation, w = J(R_{n+1/2})^{-1} L_{n+1/2} with
/// J(R) = R J0 R^T and R_{n+1/2} = exp(h/2 [w]) R_n, solved by fixed-point iterations (the implicit
/// midpoint rule on the rotation group): a free body keeps L exactly and its energy to O(h^2),
/// without drift. Driven degrees of freedom (global axes) take their prescribed velocity; a held
/// one is driven at zero; the body's equations then give their reactions.
#include <array>
#include <span>
#include <vector>

namespace inertia {

class Amplitude;

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<double, 9>;  ///< row-major

/// The body's mass properties in the reference configuration.
struct RigidMassProperties {
  double mass = 0;
  Vec3 center{0, 0, 0};  ///< C0
  Mat3 inertia{};        ///< J0, about C0
};

/// The body's driven degrees of freedom, in the order x y z rx ry rz (global axes): velocity
/// value[i] a(t), a the amplitude (null: 1). Held: driven at 0.
struct RigidDrive {
  std::array<bool, 6> driven{};
  std::array<double, 6> value{};
  const Amplitude* amplitude = nullptr;
  double at(int i, double t) const;
  bool any() const;
};

class RigidBody {
 public:
  /// At rest in its reference configuration with velocity v0 and angular velocity w0 (rad/s,
  /// about the centre of mass; driven components replaced by their drive at time 0).
  RigidBody(const RigidMassProperties& p, const Vec3& v0, const Vec3& w0, const RigidDrive& drive);

  /// The step from t to t + h: F, M (about c) the force and moment at t, `kick` the share of the
  /// step the velocities take from them before the drift (h/2; h for SOFA's start).
  void advance(double t, double h, double kick, const Vec3& F, const Vec3& M);
  /// After advance(): the whole-step velocities at t + h from the force and moment there.
  void finish(double t1, double h, const Vec3& F, const Vec3& M);
  /// The force and moment at the current step without a kick (a restart, an erosion's rebuild).
  void set_load(const Vec3& F, const Vec3& M) { F_ = F, M_ = M; }

  /// The current position of the material point at reference position X; its velocity and
  /// acceleration (the rigid field at the whole step).
  Vec3 position(const Vec3& X) const;
  Vec3 velocity_at(const Vec3& x) const;
  Vec3 acceleration_at(const Vec3& x) const;

  const Vec3& center() const { return c_; }
  const Mat3& rotation() const { return R_; }
  const Vec3& velocity() const { return V_; }
  const Vec3& angular_momentum() const { return L_; }
  Vec3 angular_velocity() const { return w_; }
  const Vec3& force() const { return F_; }
  const Vec3& moment() const { return M_; }
  Vec3 momentum() const { return {mass_ * V_[0], mass_ * V_[1], mass_ * V_[2]}; }
  double kinetic_energy() const;
  /// The rotation as a rotation vector (axis times angle, rad).
  Vec3 rotation_vector() const;
  const RigidMassProperties& properties() const { return p_; }
  /// Fixed-point iterations the last step's rotation took (at most max_iterations).
  int iterations() const { return iterations_; }
  static constexpr int max_iterations = 100;

  /// The state for a checkpoint and back (the same values on every rank).
  std::vector<double> save() const;
  void load(std::span<const double> values);
  static constexpr std::size_t state_size = 3 + 9 + 3 + 3 + 3 + 3 + 3;

 private:
  /// The angular velocity with inertia J(R) for angular momentum L, the driven components at
  /// time t taking their drive (L's there become the reaction's).
  Vec3 omega(const Mat3& R, const Vec3& L, double t) const;

  RigidMassProperties p_;
  RigidDrive drive_;
  double mass_;
  Vec3 c_, V_, L_, w_, F_{0, 0, 0}, M_{0, 0, 0};
  Mat3 R_{1, 0, 0, 0, 1, 0, 0, 0, 1};
  int iterations_ = 0;
};

/// exp([w]) (Rodrigues' formula), the rotation by |w| about w.
Mat3 rotation_exp(const Vec3& w);

}  // namespace inertia
