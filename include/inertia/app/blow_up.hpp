#pragma once
/// \file blow_up.hpp
/// A run that grows without bound is stopped early (examples/guide/run_promises.md): a scheme
/// above its stable step, a damaged mesh, a material or load far off. Fed once per step with
/// numbers every rank agrees on (no MPI here), it says when the run blows up and since when the
/// solution has been growing.
///
/// Blow-up (any of):
/// - the solution is not finite;
/// - max |u| exceeds `size_factor` (10^6) times the model's size (its bounding-box diagonal);
/// - with the energy balance on: |balance| > half of the energy in play (|kinetic| + |strain| +
///   |work| + |dissipation| + the initial energy) at `persistence` (3) consecutive evaluations
///   (every step), the energy in play above Options::energy_floor (energies below it are
///   round-off: a static run without loads is not a blow-up).
///   A correct run keeps its balance to a small fraction of that; an unstable one has kinetic and
///   strain energy appearing from nowhere, so the ratio tends to 1. (The largest single term is
///   not a safe scale: in a growing mode kinetic and strain energy take turns, and the balance
///   exceeds the larger of them by only a few percent.)
/// Onset: the step since which the largest displacement has kept growing by at least
/// `growth_factor` (2) every `window` (10) steps, comparing windowed maxima (an oscillating
/// mode's maxima still grow), or since which the energy balance has been off. The same tests,
/// run every step, say which states are still trustworthy for checkpoints (last_steady_step()).
/// With Options::allow_growth (time.allow_unstable: true) the user has asked to see the growth:
/// only a non-finite solution stops the run; the first step that would have stopped it gives
/// one warning instead (take_warning()).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace inertia {

class BlowUpWatch {
 public:
  static constexpr double size_factor = 1e6;
  static constexpr int persistence = 3;
  static constexpr int window = 10;
  static constexpr double growth_factor = 2;

  struct Options {
    /// The energy in play (J) below which the balance is round-off: its strikes do not count.
    double energy_floor = 0;
    /// Growth is reported once (take_warning()) instead of stopping the run.
    bool allow_growth = false;
  };
  /// The energy floor of a model: 1e-18 of m omega_max^2 L^2 (total mass, highest frequency,
  /// bounding-box diagonal), the energy of displacements of 1e-9 L at the stiffest mode's
  /// stiffness: below it the energies are round-off (a hyperelastic energy near F = I carries
  /// about 1e-16 of mu V). 0 without an estimate.
  static double energy_floor(double total_mass, double highest_omega, double model_size);

  /// `model_size`: the bounding-box diagonal (> 0). `first_step`: the step of the state the run
  /// starts from (0, or a checkpoint's).
  BlowUpWatch(double model_size, std::int64_t first_step, Options options);
  /// With the default Options.
  BlowUpWatch(double model_size, std::int64_t first_step);

  /// The energy of one evaluation of the balance.
  struct Energy {
    double balance = 0;  ///< total - initial total
    double in_play = 0;  ///< |kinetic| + |strain| + |work| + |dissipation| + |initial|
  };
  /// After step `step`: `max_displacement` = max |u| over the model (non-finite: infinity or
  /// NaN), `energy` where the balance was evaluated at this step. Returns the one-line reason
  /// when the run blows up (allow_growth: only when the solution is not finite).
  std::optional<std::string> after_step(std::int64_t step, double max_displacement,
                                        std::optional<Energy> energy = std::nullopt);
  /// allow_growth: the one-line warning of the first step that would have stopped the run,
  /// once per run (then empty).
  std::optional<std::string> take_warning() { return std::exchange(warning_, std::nullopt); }

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
  Options options_;
  bool warned_ = false;                 ///< allow_growth: the warning was given
  std::optional<std::string> warning_;  ///< allow_growth: not yet taken
  std::vector<double> history_;         ///< max |u| of the last 2 windows, by step modulo 2 window
  std::int64_t first_step_;
  std::int64_t last_step_;      ///< the last step fed
  std::int64_t growing_since_;  ///< the first step of the current growth streak
  int energy_strikes_ = 0;
  std::int64_t first_strike_ = 0;  ///< the step of the first of the current energy strikes
  bool growing() const { return growing_since_ <= last_step_; }
  double max_of(std::int64_t from, std::int64_t to) const;  ///< over steps [from, to]
};

}  // namespace inertia
