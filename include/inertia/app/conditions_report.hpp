#pragma once
/// \file conditions_report.hpp
/// The boundary conditions, amplitudes and initial state as a run applies them: the log's
/// lines and the warnings about them (once dt is known), and the first state itself.

#include <petscvec.h>

#include "inertia/app/analysis.hpp"

namespace inertia {

struct RunPlan;

/// Collective. The boundary conditions and the initial state as the run will apply them (after
/// the case summary, once dt is known), then the warnings about the amplitudes.
void describe_conditions(const AnalysisContext& context, const RunPlan& plan);

/// The run's first state at t = 0: u = 0, the initial velocities (initial_conditions, in
/// order), and the prescribed motion at t = 0 on the constrained DOFs.
void set_initial_state(MechanicalSystem& system, Vec u, Vec v);

}  // namespace inertia
