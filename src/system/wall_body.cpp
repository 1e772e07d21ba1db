// A rigid wall with a mass: see wall_body.hpp (examples/guide/contact_walls.md).
#include "wall_body.hpp"

#include <stdexcept>

namespace inertia::contact_input {

std::array<double, 3> WallBody::offset(double t) const {
  const double s = t - t_, c = kick() * s / mass_;
  return {o_[0] + s * (w_[0] + c * force_[0]), o_[1] + s * (w_[1] + c * force_[1]),
          o_[2] + s * (w_[2] + c * force_[2])};
}

void WallBody::commit(double t, const std::array<double, 3>& force) {
  const double s = t - t_;
  if (s != 0) {
    const double c = kick() * s / mass_;
    for (int i = 0; i < 3; ++i) {
      w_[i] += c * force_[i];
      o_[i] += s * w_[i];
    }
    t_ = t;
    h_ = s;
    started_ = true;
  }
  force_ = force;
}

std::array<double, 3> WallBody::velocity() const {
  const double c = started_ ? 0.5 * h_ / mass_ : 0.0;
  return {w_[0] + c * force_[0], w_[1] + c * force_[1], w_[2] + c * force_[2]};
}

std::array<double, 3> WallBody::momentum() const {
  const auto w = velocity();
  return {mass_ * w[0], mass_ * w[1], mass_ * w[2]};
}

double WallBody::kinetic_energy() const {
  const auto w = velocity();
  return 0.5 * mass_ * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
}

std::vector<double> WallBody::save() const {
  return {w_[0],     w_[1],     w_[2],     o_[0], o_[1], o_[2],
          force_[0], force_[1], force_[2], t_,    h_,    started_ ? 1.0 : 0.0,
          mass_};
}

void WallBody::load(std::span<const double> v) {
  if (v.size() != state_size) throw std::logic_error("WallBody::load: wrong state size");
  for (int i = 0; i < 3; ++i) w_[i] = v[i], o_[i] = v[3 + i], force_[i] = v[6 + i];
  t_ = v[9];
  h_ = v[10];
  started_ = v[11] != 0;
}

}  // namespace inertia::contact_input
