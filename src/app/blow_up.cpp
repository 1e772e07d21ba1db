#include "inertia/app/blow_up.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

double BlowUpWatch::energy_floor(double total_mass, double highest_omega, double model_size) {
  const double scale = total_mass * highest_omega * highest_omega * model_size * model_size;
  return std::isfinite(scale) && scale > 0 ? 1e-18 * scale : 0.0;
}

BlowUpWatch::BlowUpWatch(double model_size, std::int64_t first_step)
    : BlowUpWatch(model_size, first_step, Options{}) {}

BlowUpWatch::BlowUpWatch(double model_size, std::int64_t first_step, Options options)
    : size_(model_size > 0 ? model_size : 1.0),
      options_(options),
      history_(2 * window, 0.0),
      first_step_(first_step),
      last_step_(first_step),
      growing_since_(first_step + 1) {}

double BlowUpWatch::max_of(std::int64_t from, std::int64_t to) const {
  double m = 0;
  for (std::int64_t s = std::max(from, first_step_); s <= to; ++s)
    m = std::max(m, history_[static_cast<std::size_t>(s % (2 * window))]);
  return m;
}

std::optional<std::string> BlowUpWatch::after_step(std::int64_t step, double max_displacement,
                                                   std::optional<Energy> energy) {
  // Energies overflow before the displacements do (u^2): a non-finite balance is a non-finite
  // solution too.
  const bool finite_energy =
      !energy || (std::isfinite(energy->balance) && std::isfinite(energy->in_play));
  const bool finite = std::isfinite(max_displacement) && finite_energy;
  const double m = finite ? max_displacement : HUGE_VAL;
  history_[static_cast<std::size_t>(step % (2 * window))] = m;
  last_step_ = step;
  if (step == first_step_) {  // the starting state: nothing to compare yet
    growing_since_ = step + 1;
    return std::nullopt;
  }
  // Growth: this window's largest value at least growth_factor times the previous window's
  // (a zero previous window grows by any displacement at all). Until a window has passed since
  // the start, the start's own state counts as the previous window.
  const double now = max_of(step - window + 1, step);
  const double before = step - window >= first_step_
                            ? max_of(step - 2 * window + 1, step - window)
                            : history_[static_cast<std::size_t>(first_step_ % (2 * window))];
  const bool growing = now > 0 && now >= growth_factor * before;
  if (!growing) growing_since_ = step + 1;
  if (energy) {
    const bool off = std::abs(energy->balance) > 0.5 * energy->in_play &&
                     energy->in_play > options_.energy_floor;
    if (off && energy_strikes_ == 0) first_strike_ = step;
    energy_strikes_ = off ? energy_strikes_ + 1 : 0;
  }
  auto since = [&] {
    if (!growing && energy_strikes_ == 0) return std::string();
    const std::int64_t s = onset();
    if (s == first_step_) return cat("; growing since the run's first state (step ", s, ")");
    return cat("; growing since step ", s);
  };
  if (!finite)
    return cat(finite_energy ? "the solution" : "the energy", " is not finite at step ", step,
               since(), "; reduce dt or check the model");
  std::string what;
  if (m > size_factor * size_)
    what = cat("the largest displacement is ", g3(m), " m at step ", step, ", ", g3(m / size_),
               " times the model's size (", g3(size_), " m)");
  else if (energy_strikes_ >= persistence)
    what = cat("the energy balance is ", g3(energy->balance), " J at step ", step,
               ", more than half of the ", g3(energy->in_play), " J in play, at the last ",
               persistence, " evaluations");
  if (what.empty()) return std::nullopt;
  if (!options_.allow_growth)
    return cat("the solution blows up: ", what, since(), "; reduce dt or check the model");
  if (!warned_)
    warning_ = cat("the solution grows: ", what, since(),
                   "; running on (time.allow_unstable: true): only a non-finite solution stops "
                   "the run");
  warned_ = true;
  return std::nullopt;
}

std::int64_t BlowUpWatch::onset() const {
  std::int64_t s = last_step_ + 1;
  if (growing()) s = std::max(first_step_, growing_since_ - window);
  if (energy_strikes_ > 0) s = std::min(s, first_strike_);
  return s;
}

std::int64_t BlowUpWatch::last_steady_step() const {
  if (growing() || energy_strikes_ > 0) return onset() - 1;
  return std::max(first_step_, last_step_ - window);
}

}  // namespace inertia
