#pragma once
/// \file time_step_choice.hpp
/// A transient's time step: the highest frequency (power iterations), the plan (dt, steps,
/// Rayleigh coefficients, outputs), and the log's account of both, with the conditions'.

#include "inertia/app/analysis.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/system/spectrum.hpp"

namespace inertia {

/// The estimate of the highest frequency and the run's plan made with it.
struct TimeStep {
  FrequencyEstimate frequency;
  RunPlan plan;
};

/// Collective. Estimates the highest frequency, sets dt (dt: auto) or checks it against the
/// scheme's stable step, plans the run with `plan_inputs` (which gains the highest frequency),
/// and logs the scheme, the element that limits the step, the conditions and the warnings
/// about them.
TimeStep choose_time_step(const AnalysisContext& context, PlanInputs& plan_inputs);

}  // namespace inertia
