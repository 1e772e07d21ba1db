#pragma once
/// \file analysis_sequence.hpp
/// A run as a sequence of analyses over one model (`analyses:`): gravity, then modes about the
/// loaded state, then an earthquake; a press, then its release. Each analysis starts from the
/// state the one before left: displacements, velocities, the plastic and contact state held by
/// the model's terms, on one time line (the amplitudes are functions of it, so a load without
/// one is held, and one with a table goes on as its table says). Each writes its outputs to
/// <output.directory>/<name>; <output.directory>/<case>.pvd lists every frame of the static
/// and transient analyses on that time line for ParaView.

#include <cstddef>
#include <filesystem>
#include <optional>

#include "inertia/app/analysis.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/core/registry.hpp"

namespace inertia {

namespace case_yaml {
struct Node;
}
struct Arguments;
struct ModelSummary;
struct PlanInputs;

/// A type of analysis of `analyses:` (core/registry.hpp): its row for --help and the reference
/// (its example runs in unit.Examples.EveryAnalysisType), and the reader of an entry's keys.
struct AnalysisTypeEntry : EntryInfo {
  CaseAnalysis::Type type;
  void (*read)(const case_yaml::Node& entry, CaseFile& c, CaseAnalysis& a);
};

/// Every type an `analyses:` entry can have: static, transient, modal.
Registry<AnalysisTypeEntry> analysis_types();

/// The case of analysis k of c.analyses: c with that analysis's time keys, start on the time line,
/// modal modes, and output (and default checkpoint) directory <output.directory>/<name>.
CaseFile analysis_case(const CaseFile& c, std::size_t k);

/// Whether only explicit schemes step the model of c (`only`), and whether one does (`some`): its
/// time: scheme, or with analyses: those of the static and transient analyses (a modal analysis
/// does not step). A model that a static or implicit analysis solves needs its walls' tangent in
/// Newton's Jacobian (an explicit model adds them node by node to a linear one); one that an
/// explicit analysis steps takes the explicit schemes' contact penalty.
struct ExplicitSteps {
  bool only = false;
  bool some = false;
};
ExplicitSteps explicit_steps(const CaseFile& c);

/// The analysis a checkpoint of a sequence belongs to: the index of the analysis whose
/// checkpoint directory holds `checkpoint` (a file or a directory), or nothing.
std::optional<std::size_t> analysis_of_checkpoint(const CaseFile& c,
                                                  const std::filesystem::path& checkpoint);

/// Collective. Runs c.analyses in order over the context's model (the case of the context is
/// the whole case); with `restart` (--restart of a checkpoint of analysis k), the analyses before
/// k are skipped (their outputs are complete) and k continues from the checkpoint. --check
/// (`check_only`) checks each analysis's time step and set-up without running it.
void run_analysis_sequence(const AnalysisContext& context, const Arguments& args,
                           PlanInputs& plan_inputs, const ModelSummary& model);

}  // namespace inertia
