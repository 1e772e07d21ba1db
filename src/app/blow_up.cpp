#include "inertia/app/blow_up.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "inertia/core/error.hpp"

namespace inertia {

namespace {

/// x with 3 significant digits, for the message.
std::string g3(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

}  // namespace

BlowUpWatch::BlowUpWatch(double model_size, std::int64_t first_step)
    : size_(model_size > 0 ? model_size : 1.0),
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
  const bool finite = std::isfinite(max_displacement);
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
    const bool off = std::abs(energy->balance) > 0.5 * energy->in_play && energy->in_play > 0;
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
    return cat("the solution is not finite at step ", step, since(),
               "; reduce dt or check the model");
  if (m > size_factor * size_)
    return cat("the solution blows up: the largest displacement is ", g3(m), " m at step ", step,
               ", ", g3(m / size_), " times the model's size (", g3(size_), " m)", since(),
               "; reduce dt or check the model");
  if (energy_strikes_ >= persistence)
    return cat("the solution blows up: the energy balance is ", g3(energy->balance), " J at step ",
               step, ", more than half of the ", g3(energy->in_play), " J in play, at the last ",
               persistence, " evaluations", since(), "; reduce dt or check the model");
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
