#pragma once
/// \file modal_analysis.hpp
/// The modal analysis of a run (`modal:`): the modes computed (modal/modal.hpp), logged, and
/// written; the Rayleigh damping given at modes solved with them.

#include "inertia/app/analysis.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/modal/modal.hpp"

namespace inertia {

class ModalAnalysis : AnalysisPart {
 public:
  /// `plan_inputs` gains the modes' frequencies (for a transient's plan after it).
  ModalAnalysis(const AnalysisContext& context, PlanInputs& plan_inputs)
      : AnalysisPart(context), plan_inputs_(plan_inputs) {}

  /// modal.modes: the lowest modes with SLEPc (modal/modal.hpp), logged as a table with the
  /// effective masses against the total mass, written to modes.csv and <case>_modes.pvd (one
  /// entry per mode, "time" = the mode number, point data mode_shape). Fewer modes than asked
  /// (a model with fewer free DOFs, or SLEPc stopped early): those found, and a warning.
  /// Collective.
  ModalResult run();

  /// modes.csv and the mode shapes are complete (for the message of an interruption after).
  bool written() const { return written_; }

 private:
  /// Rayleigh damping given by target ratios at two frequencies that leaves a mode below them
  /// with more than twice the largest target (targets set above the modes that respond, rad/s
  /// taken for Hz): a warning naming the lowest such mode, its frequency and ratio. (Modes above
  /// the targets are damped more by design: Rayleigh damping filters them.)
  void warn_overdamped_modes(const ModalResult& modes, const RayleighDamping& rayleigh);

  PlanInputs& plan_inputs_;
  bool written_ = false;
};

}  // namespace inertia
