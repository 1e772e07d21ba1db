// The analyses of `analyses:` in order, each from the state the one before left
// (app/analysis_sequence.hpp).

#include "inertia/app/analysis_sequence.hpp"

#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include "inertia/app/command_line.hpp"
#include "inertia/app/modal_analysis.hpp"
#include "inertia/app/model_report.hpp"
#include "inertia/app/monitors.hpp"
#include "inertia/app/time_step_choice.hpp"
#include "inertia/app/transient_analysis.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

std::optional<std::size_t> analysis_of_checkpoint(const CaseFile& c,
                                                  const std::filesystem::path& checkpoint) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path where = fs::weakly_canonical(checkpoint, ec);
  if (ec) return std::nullopt;
  if (!fs::is_directory(where, ec)) where = where.parent_path();
  for (std::size_t k = 0; k < c.analyses.size(); ++k) {
    const fs::path dir = fs::weakly_canonical(analysis_case(c, k).checkpoint_directory, ec);
    if (!ec && dir == where) return k;
  }
  return std::nullopt;
}

namespace {

const char* type_name(CaseAnalysis::Type t) {
  switch (t) {
    case CaseAnalysis::Type::static_solve:
      return "static";
    case CaseAnalysis::Type::modal:
      return "modal";
    case CaseAnalysis::Type::transient:
      break;
  }
  return "transient";
}

/// The frames of every static and transient analysis on one time line: the DataSet lines of
/// their .pvd files, with the files' paths relative to the output directory. A time listed by
/// two analyses (a static equilibrium at the start of the transient after it) keeps the later
/// analysis's frame. Rank 0, after each analysis; written atomically.
class TimeLine {
 public:
  explicit TimeLine(const CaseFile& c) : c_(c) {}

  void add(const CaseFile& analysis) {
    if (c_.output_format != OutputFormat::vtu) return;  // XDMF: each analysis's own .xdmf
    const auto pvd = analysis.output_directory / (c_.name + ".pvd");
    std::ifstream in(pvd);
    if (!in) return;  // no frames written
    std::stringstream text;
    text << in.rdbuf();
    const std::string folder = analysis.output_directory.filename().string();
    static const std::regex entry(R"re(<DataSet timestep="([^"]*)"([^>]*)file="([^"]*)"\s*/>)re");
    const std::string s = text.str();
    for (std::sregex_iterator i(s.begin(), s.end(), entry), end; i != end; ++i) {
      const double t = std::stod((*i)[1]);
      while (!entries_.empty() && entries_.back().first >= t) entries_.pop_back();
      entries_.emplace_back(t, cat("    <DataSet timestep=\"", (*i)[1].str(), "\"", (*i)[2].str(),
                                   "file=\"", folder, "/", (*i)[3].str(), "\"/>\n"));
    }
    std::string out =
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
        "  <!-- every frame of the analyses of this case, on the run's time line -->\n"
        "  <Collection>\n";
    for (const auto& [t, line] : entries_) out += line;
    out += "  </Collection>\n</VTKFile>\n";
    write_file_atomically(c_.output_directory / (c_.name + ".pvd"), out);
  }

 private:
  const CaseFile& c_;
  std::vector<std::pair<double, std::string>> entries_;
};

class Sequence : AnalysisPart {
 public:
  Sequence(const AnalysisContext& context, const Arguments& args, PlanInputs& plan_inputs,
           const ModelSummary& model)
      : AnalysisPart(context),
        args_(args),
        plan_inputs_(plan_inputs),
        model_(model),
        time_line_(c()) {}

  void run() {
    std::optional<std::size_t> from;
    if (args_.restart) {
      from = analysis_of_checkpoint(c(), *args_.restart);
      if (!from)
        throw InputError(cat("--restart ", args_.restart->string(),
                             ": not in the checkpoint directory of an analysis of ",
                             c().path.string(), " (<output.directory>/<analysis>/checkpoints)"));
    }
    const std::size_t n = c().analyses.size();
    for (std::size_t k = 0; k < n; ++k) {
      const CaseAnalysis& a = c().analyses[k];
      log_ << "\nanalysis  " << k + 1 << " of " << n << ": '" << a.name << "' ("
           << type_name(a.type) << "), from t = " << a.start_time << " s\n";
      if (from && k < *from) {
        log_ << "analysis  skipped: before the checkpoint's analysis (its outputs are kept)\n";
        if (a.type != CaseAnalysis::Type::modal)
          run_on_root(comm_, [&] { time_line_.add(analysis_case(c(), k)); });
        continue;
      }
      const CaseFile ck = analysis_case(c(), k);
      const AnalysisContext context{comm_, log_, ck, system(), phases_};
      if (!args_.check)
        run_on_root(comm_, [&] { prepare_directory(ck.output_directory, "analysis output"); });
      if (a.type == CaseAnalysis::Type::modal)
        modal(context);
      else
        time_analysis(context, from && k == *from);
    }
    if (!args_.check) log_ << "\nfinished: " << n << " analyses\n";
  }

 private:
  /// Modes about the state reached: the tangent there (with the geometric stiffness of a
  /// finite-strain model, and the plastic one of yielded points).
  void modal(const AnalysisContext& context) {
    if (args_.check) return;
    if (have_state_ && !system().is_linear()) {
      system().update_tangent(carried_.u);
      log_ << "modal     about the state at t = " << carried_.time
           << " s: the tangent stiffness there\n";
    } else if (have_state_ && largest_magnitude(carried_.u) > 0) {
      log_ << "warning   analysis '" << context.c.output_directory.filename().string()
           << "': the model is linear, so its modes about the loaded state are those at rest (a "
              "preload's geometric stiffness needs a finite-strain model: "
              "saint_venant_kirchhoff, neo_hookean, hencky)\n";
    }
    ModalAnalysis(context, plan_inputs_).run();
  }

  void time_analysis(const AnalysisContext& context, bool restarting) {
    TimeStep step = choose_time_step(context, plan_inputs_);
    if (args_.check) return;
    MonitorList monitors;
    TransientAnalysis t(context,
                        TransientInputs{std::move(step), plan_inputs_, model_.size, model_.probes},
                        monitors, restarting);
    t.initialize(have_state_ ? &carried_ : nullptr);
    if (restarting) t.restore_checkpoint(*args_.restart, args_.allow_changed_model);
    t.open_outputs();
    t.time_loop();
    t.summary();
    t.finish_monitors();
    keep(t.state());
    run_on_root(comm_, [&] { time_line_.add(context.c); });
  }

  void keep(const State& s) {
    if (!have_state_) carried_.u = system().create_vector(), carried_.v = system().create_vector();
    INERTIA_PETSC(VecCopy(s.u, carried_.u));
    INERTIA_PETSC(VecCopy(s.v, carried_.v));
    carried_.time = s.time;
    have_state_ = true;
  }

  const Arguments& args_;
  PlanInputs& plan_inputs_;
  const ModelSummary& model_;  ///< its size and probes, located once
  TimeLine time_line_;
  bool have_state_ = false;
  State carried_;  ///< the state the last static or transient analysis reached
};

}  // namespace

void run_analysis_sequence(const AnalysisContext& context, const Arguments& args,
                           PlanInputs& plan_inputs, const ModelSummary& model) {
  Sequence(context, args, plan_inputs, model).run();
}

}  // namespace inertia
