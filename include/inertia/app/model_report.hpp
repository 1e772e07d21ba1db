#pragma once
/// \file model_report.hpp
/// The model as the log describes it before any analysis: the mesh and its regions, the
/// materials, the DOFs and the mass, constraint overlaps, connected parts, locking, contact's
/// start checks, the bounding box, the partition and the probes.

#include "inertia/app/analysis.hpp"
#include "inertia/app/histories.hpp"

namespace inertia {

struct Model;

/// What the summary measured for the analyses: the bounding box's diagonal (the blow-up watch's
/// scale) and the probes, located.
struct ModelSummary {
  double size = 1;
  ProbeSites probes;
};

/// Collective. Logs the model's summary (rank 0 writes) and the warnings about it.
ModelSummary describe_model(const AnalysisContext& context, const Model& model);

}  // namespace inertia
