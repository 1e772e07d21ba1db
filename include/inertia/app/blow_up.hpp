#pragma once
/// \file blow_up.hpp
/// A run that grows without bound is stopped early (README, "What a run promises"): a scheme
/// above its stable step, a damaged mesh, a material or load far off. Fed once per step with
/// numbers every rank agrees on (no MPI here), it says when the run blows up and since when the
/// solution has been growing.
///
/// Blow-up (any of):
/// - the solution is not finite;
/// - max |u| exceeds `size_factor` (10^6) times the model's size (its bounding-box diagonal);
/// - with the energy balance on: |balance| > half of the energy in play (|kinetic| + |strain| +
///   |work| + |dissipation| + the initial energy) at `persistence` (3) consecutive evaluations.
///   A correct run keeps its balance to a small fraction of that; an unstable one has kinetic and
///   strain energy appearing from nowhere, so the ratio tends to 1. (The largest single term is
///   not a safe scale: in a growing mode kinetic and strain energy take turns, and the balance
///   exceeds the larger of them by only a few percent.)
/// Onset: the step since which the largest displacement has kept growing by at least
/// `growth_factor` (2) every `window` (10) steps, comparing windowed maxima (an oscillating
/// mode's maxima still grow), or since which the energy balance has been off. The same tests,
/// run every step, say which states are still trustworthy for checkpoints (last_steady_step()).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inertia {

class BlowUpWatch {
 public:
  static constexpr double size_factor = 1e6;
  static constexpr int persistence = 3;
  static constexpr int window = 10;
  static constexpr double growth_factor = 2;

  /// `model_size`: the bounding-box diagonal (> 0). `first_step`: the step of the state the run
  /// starts from (0, or a checkpoint's).
  BlowUpWatch(double model_size, std::int64_t first_step);

  /// The energy of one evaluation of the balance.
  struct Energy {
    double balance = 0;  ///< total - initial total
    double in_play = 0;  ///< |kinetic| + |strain| + |work| + |dissipation| + |initial|
  };
  /// After step `step`: `max_displacement` = max |u| over the model (non-finite: infinity or
  /// NaN), `energy` where the balance was evaluated at this step. Returns the one-line reason
  /// when the run blows up.
  std::optional<std::string> after_step(std::int64_t step, double max_displacement,
                                        std::optional<Energy> energy = std::nullopt);

  /// The step since which the solution has been going wrong: the first step of the window
  /// before the first one whose displacement grew, or the first of the energy evaluations now
  /// failing, whichever is earlier (the current step + 1 when neither).
  std::int64_t onset() const;
  /// The last state that nothing says is part of a blow-up: onset() - 1 while one shows, else
  /// the state a window ago (a growth starting now would only show a window later). The newest
  /// checkpoint at or before it must be kept.
  std::int64_t last_steady_step() const;

 private:
  double size_;
  std::vector<double> history_;  ///< max |u| of the last 2 windows, by step modulo 2 window
  std::int64_t first_step_;
  std::int64_t last_step_;      ///< the last step fed
  std::int64_t growing_since_;  ///< the first step of the current growth streak
  int energy_strikes_ = 0;
  std::int64_t first_strike_ = 0;  ///< the step of the first of the current energy strikes
  bool growing() const { return growing_since_ <= last_step_; }
  double max_of(std::int64_t from, std::int64_t to) const;  ///< over steps [from, to]
};

}  // namespace inertia
