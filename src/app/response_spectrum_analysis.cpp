// Response-spectrum analysis on the modes of the modal analysis.

#include "inertia/app/response_spectrum_analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <optional>
#include <span>
#include <sstream>

#include "inertia/app/output_series.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/seismic/response_spectrum.hpp"
#include "inertia/system/direct_solver.hpp"

namespace inertia {

namespace {

/// Sa at `period` from a table of (period, Sa), linear between its points; the end values beyond
/// them (counted in `below` / `above`).
double table_sa(const std::vector<std::pair<double, double>>& table, double period, int& below,
                int& above) {
  if (period <= table.front().first) {
    if (period < table.front().first) ++below;
    return table.front().second;
  }
  if (period >= table.back().first) {
    if (period > table.back().first) ++above;
    return table.back().second;
  }
  const auto it = std::upper_bound(table.begin(), table.end(), period,
                                   [](double t, const auto& p) { return t < p.first; });
  const auto& [t1, s1] = *it;
  const auto& [t0, s0] = *(it - 1);
  return s0 + (s1 - s0) * (period - t0) / (t1 - t0);
}

/// A quantity the analysis combines entry by entry: its values per unit modal amplitude A_n in
/// each mode, and the missing mass's per direction (empty without missing_mass). A quantity of
/// the displacement kind (displacements, strains, stresses, drifts) scales with A_n / omega_n^2,
/// one of the force kind (reactions, section forces) with A_n. A history quantity that the
/// transient records over time enters here with its per-mode values: one more Quantity.
struct Quantity {
  std::vector<std::span<const double>> unit;     ///< per mode
  std::vector<std::span<const double>> missing;  ///< per direction
  bool displacement_kind = true;
};

/// The analysis's steps on one model and one set of modes (response_spectrum_analysis).
class SpectrumCombination {
 public:
  SpectrumCombination(const CaseFile& c, MechanicalSystem& system, const ModalResult& modes)
      : c_(c),
        spec_(c.response_spectrum),
        system_(system),
        modes_(modes),
        n_(modes.modes.size()),
        nd_(spec_.directions.size()) {}

  RsaResult run(const SectionCuts* cuts, const DriftLines* drifts) {
    spectral_values();
    unit_responses();
    amplitudes();
    if (spec_.missing_mass) missing_mass(cuts != nullptr);
    rho_ = modal_coefficients(spec_.combination, omega_, damping_);
    base_reactions();
    if (cuts && cuts->size() > 0) sections(*cuts);
    if (drifts && !drifts->storeys().empty()) drift_ratios(*drifts);
    fields();
    return std::move(result_);
  }

 private:
  /// Per mode its period, damping ratio and spectral acceleration.
  void spectral_values();
  /// Per mode K phi / omega^2 - M phi on the constrained DOFs (the reaction per unit A_n), its
  /// sum per component, and the cells' stresses of phi.
  void unit_responses();
  /// The modal amplitudes A (per direction, per mode) and the per-mode rows.
  void amplitudes();
  /// The missing mass: per direction, K_ff u = ZPA (M r_d - sum_n Gamma_n M phi_n)_f.
  void missing_mass(bool for_sections);
  void base_reactions();
  /// Sections: per mode K_A phi / omega^2 - M_A phi at the cut (per unit A_n, like the
  /// reactions), and the missing mass's K_A u - M_A w.
  void sections(const SectionCuts& cuts);
  /// Drifts: per mode the drifts of phi (scaled like displacements), and the missing mass's.
  void drift_ratios(const DriftLines& drifts);
  /// The displacement, reaction, strain and stress fields, entry by entry (the local form,
  /// ghosts included: the same arithmetic on every copy).
  void fields();

  /// The sum per component over the constrained DOFs (all ranks): a base reaction.
  std::array<double, 3> base_sum(Vec r) const;
  /// Entry e of quantity q combined over the modes (the case's rule; the missing mass SRSS with
  /// them), then over the directions.
  double combined(const Quantity& q, std::size_t e);
  /// Every entry of q, into out (sized like q's entries).
  void combine(const Quantity& q, std::span<double> out) {
    for (std::size_t e = 0; e < out.size(); ++e) out[e] = combined(q, e);
  }
  /// Spans of the vectors' values (one per mode or direction).
  template <class Vectors>
  static std::vector<std::span<const double>> spans(const Vectors& vectors) {
    std::vector<std::span<const double>> out;
    for (const auto& v : vectors) out.emplace_back(v);
    return out;
  }

  const CaseFile& c_;
  const CaseResponseSpectrum& spec_;
  MechanicalSystem& system_;
  const ModalResult& modes_;
  const std::size_t n_, nd_;
  RsaResult result_;
  std::vector<double> omega_, period_, sa_, damping_, amplitude_, rho_;
  std::vector<petsc::Vector> unit_reaction_;
  std::vector<std::array<double, 3>> unit_base_;
  std::vector<CellStress> unit_stress_;
  std::vector<petsc::Vector> missing_u_, missing_reaction_, missing_w_;
  std::vector<CellStress> missing_stress_;
  std::vector<double> q_, per_direction_;  ///< combined()'s scratch
};

void SpectrumCombination::spectral_values() {
  for (std::size_t i = 0; i < n_; ++i)
    if (modes_.modes[i].rigid)
      throw InputError(cat(c_.path.string(), ":", spec_.origin.line, ": response_spectrum: mode ",
                           i + 1, " is a rigid-body mode: the structure needs supports"));
  omega_.resize(n_), period_.resize(n_), sa_.resize(n_), damping_.assign(n_, spec_.damping);
  for (std::size_t i = 0; i < n_; ++i) {
    omega_[i] = modes_.modes[i].omega;
    period_[i] = 2 * std::numbers::pi / omega_[i];
  }
  if (!spec_.record.empty()) {
    const auto& a = c_.amplitudes.at(spec_.record);
    std::vector<std::pair<double, double>> record(a.points.begin(), a.points.end());
    if (spec_.rayleigh_damping) {
      // Each mode at its own Rayleigh ratio: its spectral value, and its ratio in CQC.
      for (std::size_t i = 0; i < n_; ++i) {
        damping_[i] = system_.rayleigh().ratio(omega_[i]);
        if (!(damping_[i] < 1))
          throw InputError(cat(c_.path.string(), ":", spec_.origin.line,
                               ": response_spectrum: damping: rayleigh gives mode ", i + 1, " (",
                               1 / period_[i], " Hz) the ratio ", damping_[i],
                               ", overdamped: ask for fewer modes or give one damping ratio"));
        const auto s = response_spectrum(record, {period_[i]}, {damping_[i]});
        sa_[i] = spec_.scale * omega_[i] * omega_[i] * s.displacement[0][0];
      }
    } else {
      const auto s = response_spectrum(record, period_, {spec_.damping});
      for (std::size_t i = 0; i < n_; ++i)
        sa_[i] = spec_.scale * omega_[i] * omega_[i] * s.displacement[0][i];
    }
  } else {
    for (std::size_t i = 0; i < n_; ++i)
      sa_[i] = table_sa(spec_.table, period_[i], result_.held_below, result_.held_above);
  }
  // A scale or table in absurd units (1e200) would give infinite or NaN peaks, written with
  // exit 0: refused here, naming the mode and its value.
  for (std::size_t i = 0; i < n_; ++i)
    if (!(std::abs(sa_[i]) < 1e100))
      throw InputError(cat(c_.path.string(), ":", spec_.origin.line,
                           ": response_spectrum: the spectral acceleration of mode ", i + 1, " is ",
                           sa_[i],
                           " m/s^2, beyond what the combination can square: check the "
                           "spectrum's scale and units"));
}

std::array<double, 3> SpectrumCombination::base_sum(Vec r) const {
  const auto dofs = system_.constrained_dofs();
  const PetscInt first = static_cast<PetscInt>(3 * system_.mesh().node_begin);
  std::array<double, 3> local{}, sum{};
  {
    petsc::ConstArray x(r);
    for (const PetscInt d : dofs)  // forces: a beam node's moments are not summed
      if (!system_.mesh().is_rotation(static_cast<std::int32_t>((d - first) / 3)))
        local[static_cast<std::size_t>(d % 3)] += x[d - first];
  }
  INERTIA_MPI(MPI_Allreduce(local.data(), sum.data(), 3, MPI_DOUBLE, MPI_SUM, system_.comm()));
  return sum;
}

void SpectrumCombination::unit_responses() {
  unit_reaction_.resize(n_), unit_base_.resize(n_), unit_stress_.resize(n_);
  petsc::Vector mphi = system_.create_vector();
  for (std::size_t i = 0; i < n_; ++i) {
    unit_reaction_[i] = system_.create_vector();
    system_.mult_stiffness(modes_.shapes[i], unit_reaction_[i]);
    system_.mult_mass(modes_.shapes[i], mphi);
    INERTIA_PETSC(VecAXPBY(unit_reaction_[i], -1.0, 1.0 / (omega_[i] * omega_[i]), mphi));
    system_.keep_constrained(unit_reaction_[i]);
    unit_base_[i] = base_sum(unit_reaction_[i]);
    system_.assembler().cell_stress(modes_.shapes[i], unit_stress_[i]);
  }
}

void SpectrumCombination::amplitudes() {
  amplitude_.assign(nd_ * n_, 0.0);
  result_.mass_fraction.assign(nd_, 0.0);
  for (std::size_t k = 0; k < nd_; ++k) {
    const auto d = static_cast<std::size_t>(spec_.directions[k]);
    for (std::size_t i = 0; i < n_; ++i) {
      const Mode& m = modes_.modes[i];
      const double gamma = m.participation[d];
      const double a = spec_.direction_factors[k] * gamma * sa_[i];
      amplitude_[k * n_ + i] = a;
      RsaModeRow row{
          spec_.directions[k], static_cast<int>(i + 1),     period_[i], sa_[i], damping_[i], gamma,
          m.effective_mass[d], a / (omega_[i] * omega_[i]), {}};
      for (std::size_t j = 0; j < 3; ++j) row.base[j] = a * unit_base_[i][j];
      result_.rows.push_back(row);
      result_.mass_fraction[k] += m.effective_mass[d];
    }
    if (modes_.total_mass[d] > 0) result_.mass_fraction[k] /= modes_.total_mass[d];
  }
}

void SpectrumCombination::missing_mass(bool for_sections) {
  missing_u_.resize(nd_), missing_reaction_.resize(nd_), missing_w_.resize(nd_);
  missing_stress_.resize(nd_);
  result_.missing_mass.assign(nd_, 0.0);
  result_.missing_base.assign(nd_, {0, 0, 0});
  if (!spec_.record.empty()) {
    for (const auto& [t, a] : c_.amplitudes.at(spec_.record).points)
      result_.zpa = std::max(result_.zpa, std::abs(a));
    result_.zpa *= spec_.scale;
  } else {
    result_.zpa = spec_.table.front().second;
  }
  petsc::Matrix K = system_.create_operator();
  system_.fill_operator(0.0, 1.0, 0.0, K);  // the constrained rows and columns: a diagonal
  petsc::Ksp ksp;
  INERTIA_PETSC(KSPCreate(system_.comm(), ksp.out()));
  INERTIA_PETSC(KSPSetOptionsPrefix(ksp, "rsa_"));
  INERTIA_PETSC(KSPSetOperators(ksp, K, K));
  const SolverChoice choice =
      choose_solver(K, "rsa_", LinearSolverChoice::automatic, static_cast<double>(nd_),
                    amg_products_per_solve, "response_spectrum.missing_mass");
  result_.missing_solver = choice.why;
  PC pc;
  INERTIA_PETSC(KSPGetPC(ksp, &pc));
  if (choice.direct) {
    INERTIA_PETSC(MatSetOption(K, MAT_SPD, PETSC_TRUE));
    use_mumps_cholesky(ksp);
  } else {
    INERTIA_PETSC(KSPSetType(ksp, KSPCG));
    INERTIA_PETSC(PCSetType(pc, PCGAMG));
    INERTIA_PETSC(KSPSetTolerances(ksp, 1e-12, 1e-50, PETSC_DEFAULT, 10000));
  }
  INERTIA_PETSC(KSPSetFromOptions(ksp));
  petsc::Vector r = system_.create_vector(), f = system_.create_vector(),
                rhs = system_.create_vector(), mphi = system_.create_vector();
  // r_d: ones at the component d of every node.
  auto fill_direction = [](Vec x, std::size_t d) {
    INERTIA_PETSC(VecSet(x, 0.0));
    petsc::Array a(x);
    for (std::size_t e = d; e < a.span().size(); e += 3) a.span()[e] = 1.0;
  };
  for (std::size_t k = 0; k < nd_; ++k) {
    const auto d = static_cast<std::size_t>(spec_.directions[k]);
    fill_direction(r, d);
    system_.mult_mass(r, f);  // M r_d
    for (std::size_t i = 0; i < n_; ++i) {
      system_.mult_mass(modes_.shapes[i], mphi);
      INERTIA_PETSC(VecAXPY(f, -modes_.modes[i].participation[d], mphi));
    }
    {
      petsc::ConstArray x(f);
      double local = 0;
      for (std::size_t e = d; e < x.span().size(); e += 3) local += x.span()[e];
      INERTIA_MPI(
          MPI_Allreduce(&local, &result_.missing_mass[k], 1, MPI_DOUBLE, MPI_SUM, system_.comm()));
    }
    INERTIA_PETSC(VecScale(f, spec_.direction_factors[k] * result_.zpa));
    if (for_sections) {  // the unscaled rigid-body residue r_d - sum_n Gamma_n phi_n
      missing_w_[k] = system_.create_vector();
      fill_direction(missing_w_[k], d);
      for (std::size_t i = 0; i < n_; ++i)
        INERTIA_PETSC(VecAXPY(missing_w_[k], -modes_.modes[i].participation[d], modes_.shapes[i]));
      INERTIA_PETSC(VecScale(missing_w_[k], -spec_.direction_factors[k] * result_.zpa));
    }
    INERTIA_PETSC(VecCopy(f, rhs));
    system_.zero_constrained(rhs);
    missing_u_[k] = system_.create_vector();
    INERTIA_PETSC(KSPSolve(ksp, rhs, missing_u_[k]));
    KSPConvergedReason reason;
    INERTIA_PETSC(KSPGetConvergedReason(ksp, &reason));
    if (reason < 0)
      throw SolverError(cat("response_spectrum: the missing mass's static solve diverged (",
                            KSPConvergedReasons[reason], ")"));
    system_.zero_constrained(missing_u_[k]);
    missing_reaction_[k] = system_.create_vector();
    system_.mult_stiffness(missing_u_[k], missing_reaction_[k]);
    INERTIA_PETSC(VecAXPY(missing_reaction_[k], -1.0, f));
    system_.keep_constrained(missing_reaction_[k]);
    result_.missing_base[k] = base_sum(missing_reaction_[k]);
    system_.assembler().cell_stress(missing_u_[k], missing_stress_[k]);
  }
}

double SpectrumCombination::combined(const Quantity& q, std::size_t e) {
  q_.resize(n_), per_direction_.resize(nd_);
  for (std::size_t k = 0; k < nd_; ++k) {
    for (std::size_t i = 0; i < n_; ++i) {
      const double a = amplitude_[k * n_ + i];
      q_[i] = (q.displacement_kind ? a / (omega_[i] * omega_[i]) : a) * q.unit[i][e];
    }
    per_direction_[k] = combine_modes(spec_.combination, q_, rho_);
    if (spec_.missing_mass) per_direction_[k] = std::hypot(per_direction_[k], q.missing[k][e]);
  }
  return combine_directions(spec_.directional, per_direction_);
}

void SpectrumCombination::base_reactions() {
  // By each rule per direction (the log compares them), and the case's.
  std::vector<double> q(n_);
  result_.base_by_rule.resize(nd_);
  for (std::size_t k = 0; k < nd_; ++k)
    for (int rule = 0; rule < 3; ++rule) {
      const ModalRule r = rule == 0 ? ModalRule::srss : rule == 1 ? ModalRule::cqc : ModalRule::abs;
      const auto coefficients = modal_coefficients(r, omega_, damping_);
      for (std::size_t j = 0; j < 3; ++j) {
        for (std::size_t i = 0; i < n_; ++i) q[i] = amplitude_[k * n_ + i] * unit_base_[i][j];
        result_.base_by_rule[k][static_cast<std::size_t>(rule)][j] =
            combine_modes(r, q, coefficients);
      }
    }
  Quantity base{{}, {}, false};
  for (const auto& b : unit_base_) base.unit.emplace_back(b);
  for (const auto& b : result_.missing_base) base.missing.emplace_back(b);
  combine(base, result_.base);
}

void SpectrumCombination::sections(const SectionCuts& cuts) {
  const std::size_t ns = cuts.size();
  petsc::Vector zero = system_.create_vector();
  std::vector<std::vector<double>> unit(n_), missing(nd_);
  std::vector<double> kphi, mphi;
  for (std::size_t i = 0; i < n_; ++i) {
    cuts.compute(modes_.shapes[i], zero, nullptr, 0, 0, 0, kphi);
    cuts.compute(zero, zero, modes_.shapes[i], 0, 0, 0, mphi);
    unit[i].resize(6 * ns);
    for (std::size_t e = 0; e < 6 * ns; ++e)
      unit[i][e] = kphi[e] / (omega_[i] * omega_[i]) - mphi[e];
  }
  if (spec_.missing_mass)
    for (std::size_t k = 0; k < nd_; ++k)
      cuts.compute(missing_u_[k], zero, missing_w_[k], 0, 0, 0, missing[k]);
  std::vector<double> combined(6 * ns);
  combine({spans(unit), spans(missing), false}, combined);
  result_.sections.assign(ns, {0, 0, 0, 0, 0, 0});
  for (std::size_t s = 0; s < ns; ++s)
    std::copy_n(combined.begin() + static_cast<std::ptrdiff_t>(6 * s), 6,
                result_.sections[s].begin());
}

void SpectrumCombination::drift_ratios(const DriftLines& drifts) {
  std::vector<std::vector<double>> unit(n_), missing(nd_);
  for (std::size_t i = 0; i < n_; ++i) drifts.compute(modes_.shapes[i], unit[i]);
  if (spec_.missing_mass)
    for (std::size_t k = 0; k < nd_; ++k) drifts.compute(missing_u_[k], missing[k]);
  result_.drifts.assign(unit.empty() ? 0 : unit[0].size(), 0.0);
  combine({spans(unit), spans(missing), true}, result_.drifts);
}

void SpectrumCombination::fields() {
  result_.displacement = system_.create_vector();
  result_.reaction = system_.create_vector();
  {
    std::vector<petsc::GhostedRead> shapes, reactions, missing_us, missing_rs;
    shapes.reserve(n_), reactions.reserve(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      shapes.emplace_back(modes_.shapes[i]);
      reactions.emplace_back(unit_reaction_[i]);
    }
    for (std::size_t k = 0; k < nd_ && spec_.missing_mass; ++k) {
      missing_us.emplace_back(missing_u_[k]);
      missing_rs.emplace_back(missing_reaction_[k]);
    }
    auto views = [](const std::vector<petsc::GhostedRead>& reads) {
      std::vector<std::span<const double>> out;
      for (const auto& r : reads) out.push_back(r.span());
      return out;
    };
    petsc::GhostedArray u(result_.displacement), r(result_.reaction);
    combine({views(shapes), views(missing_us), true}, u.span());
    combine({views(reactions), views(missing_rs), false}, r.span());
  }
  const std::size_t values = unit_stress_.empty() ? 0 : unit_stress_[0].stress.size();
  Quantity stress, strain;
  for (const auto& s : unit_stress_)
    stress.unit.emplace_back(s.stress), strain.unit.emplace_back(s.strain);
  for (const auto& s : missing_stress_)
    stress.missing.emplace_back(s.stress), strain.missing.emplace_back(s.strain);
  result_.stress.stress.assign(values, 0.0);
  result_.stress.strain.assign(values, 0.0);
  combine(stress, result_.stress.stress);
  combine(strain, result_.stress.strain);
  result_.stress.von_mises.assign(values / 6, 0.0);
}

}  // namespace

RsaResult response_spectrum_analysis(const CaseFile& c, MechanicalSystem& system,
                                     const ModalResult& modes, const SectionCuts* cuts,
                                     const DriftLines* drifts) {
  // Linear-elastic materials only: the case file refuses others (case_file.cpp).
  return SpectrumCombination(c, system, modes).run(cuts, drifts);
}

namespace {

/// A response-spectrum analysis's run: the combination, its log, rsa_modes.csv, rsa.csv and
/// the combined fields.
class ResponseSpectrumRun : AnalysisPart {
 public:
  using AnalysisPart::AnalysisPart;

  void run(const ModalResult& modes) {
    const auto& spec = c().response_spectrum;
    RsaResult r;
    std::vector<std::string> drift_storeys;
    {
      Phases::Scope scope(phases_, "response spectrum");
      std::optional<SectionCuts> cuts;
      if (!c().sections.empty()) cuts.emplace(system(), c());
      if (cuts && cuts->nonlinear_cells())
        throw InputError(
            cat(c().path.string(), ":", spec.origin.line,
                ": response_spectrum: the cells at a section's cut are plastic, "
                "hyperelastic or corotational: a response spectrum combines linear responses "
                "(use linear elastic cells at the cut)"));
      std::optional<DriftLines> drifts;
      if (!c().drifts.empty()) drifts.emplace(system(), c());
      r = response_spectrum_analysis(c(), system(), modes, cuts ? &*cuts : nullptr,
                                     drifts ? &*drifts : nullptr);
      if (drifts) drift_storeys = drifts->storeys();
    }
    const char* rules[] = {"SRSS", "CQC", "ABS"};
    const int chosen = spec.combination == ModalRule::srss  ? 0
                       : spec.combination == ModalRule::cqc ? 1
                                                            : 2;
    log_ << "rsa       response spectrum: "
         << (spec.record.empty()
                 ? cat("design spectrum of ", spec.table.size(), " points",
                       spec.file.empty() ? std::string() : " from " + printable(spec.file))
             : spec.rayleigh_damping ? cat("the spectrum of record '", spec.record,
                                           "' at each mode's Rayleigh ratio (Nigam-Jennings)")
                                     : cat("the ", 100 * spec.damping, " % spectrum of record '",
                                           spec.record, "' (Nigam-Jennings)"))
         << (spec.scale != 1 ? cat(" x ", spec.scale) : std::string()) << "; " << rules[chosen]
         << " over the modes (damping "
         << (spec.rayleigh_damping ? std::string("per mode: rayleigh, in rsa_modes.csv")
                                   : cat(spec.damping))
         << ")";
    if (spec.directions.size() > 1)
      log_ << ", then " << (spec.directional == DirectionalRule::srss ? "SRSS" : "100/30")
           << " over the directions";
    log_ << "\n";
    if (r.held_below + r.held_above > 0)
      log_ << "warning   response_spectrum: " << r.held_below + r.held_above
           << " mode periods outside the spectrum's periods (" << r.held_below << " below, "
           << r.held_above << " above): the spectrum's end values used\n";
    const std::size_t n = modes.modes.size();
    std::ostringstream csv;
    csv << std::setprecision(17)
        << "direction,mode,period,sa,damping,participation,effective_mass,displacement_factor,"
           "base_fx,base_fy,base_fz\n";
    for (std::size_t k = 0; k < spec.directions.size(); ++k) {
      const char axis = "xyz"[spec.directions[k]];
      log_ << "   direction " << axis << ": mode, period (s), Sa, Gamma, eff. mass, base reaction "
           << axis << "\n";
      for (std::size_t i = 0; i < n; ++i) {
        const RsaModeRow& row = r.rows[k * n + i];
        log_ << std::setw(7) << row.mode << std::setw(14) << std::setprecision(6) << row.period
             << std::setw(14) << row.sa << std::setw(14) << row.participation << std::setw(14)
             << row.effective_mass << std::setw(14)
             << row.base[static_cast<std::size_t>(spec.directions[k])] << "\n";
        csv << axis << "," << row.mode << "," << row.period << "," << row.sa << "," << row.damping
            << "," << row.participation << "," << row.effective_mass << ","
            << row.displacement_factor;
        for (double b : row.base) csv << "," << b;
        csv << "\n";
      }
      const auto& by = r.base_by_rule[k];
      const auto d = static_cast<std::size_t>(spec.directions[k]);
      log_ << "   direction " << axis << ": base reaction " << axis << " " << by[0][d]
           << " (SRSS), " << by[1][d] << " (CQC), " << by[2][d]
           << " (ABS); the modes' effective mass " << std::setprecision(3)
           << 100 * r.mass_fraction[k] << " % of the total" << std::setprecision(6)
           << (r.mass_fraction[k] < 0.9 ? " (below 90 %: more modes)" : "") << "\n";
    }
    if (spec.missing_mass) {
      log_ << "rsa       missing mass at the ZPA " << r.zpa
           << " (static solve: " << r.missing_solver << "):";
      for (std::size_t k = 0; k < spec.directions.size(); ++k) {
        const auto d = static_cast<std::size_t>(spec.directions[k]);
        log_ << " "
             << "xyz"[d] << " " << r.missing_mass[k] << " (" << std::setprecision(3)
             << 100 * r.missing_mass[k] / modes.total_mass[d] << " % of the total mass)"
             << std::setprecision(6) << ", base reaction " << r.missing_base[k][d];
      }
      log_ << "; combined with the modes by SRSS\n";
    }
    const std::string combined = combined_csv(r, drift_storeys);
    run_on_root(comm_, [&] {
      write_file_atomically(c().output_directory / "rsa_modes.csv", csv.str());
      write_file_atomically(c().output_directory / "rsa.csv", combined);
    });
    OutputSeries series(comm_, c(), system(), std::nullopt, c().name + "_rsa");
    series.write_fields(0, {{"displacement", r.displacement.get()}, {"reaction", r.reaction.get()}},
                        {{"stress", &r.stress.stress}, {"strain", &r.stress.strain}});
    log_ << "rsa       rsa_modes.csv, rsa.csv and " << printable(series.series_path().string())
         << " written (combined peaks: displacement, reaction, stress and strain by component)\n";
  }

 private:
  /// The combined peaks in the log and as rsa.csv's text: the base reaction, the largest
  /// displacement, the sections, the drifts and the missing mass.
  std::string combined_csv(const RsaResult& r, const std::vector<std::string>& drift_storeys) {
    const auto& spec = c().response_spectrum;
    log_ << "rsa       combined base reaction (x, y, z): " << r.base[0] << ", " << r.base[1] << ", "
         << r.base[2] << "\n";
    std::ostringstream combined;
    combined << std::setprecision(17) << "quantity,x,y,z\nbase_reaction";
    for (double b : r.base) combined << "," << b;
    double peak[3] = {0, 0, 0};
    {
      petsc::ConstArray u(r.displacement);
      for (std::size_t e = 0; e < u.span().size(); ++e)
        if (!system().mesh().is_rotation(static_cast<std::int32_t>(e / 3)))  // not rotations
          peak[e % 3] = std::max(peak[e % 3], u.span()[e]);
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, peak, 3, MPI_DOUBLE, MPI_MAX, comm_));
    combined << "\nmax_displacement";
    for (double x : peak) combined << "," << x;
    combined << "\n";
    for (std::size_t k = 0; k < r.sections.size(); ++k) {
      const auto& f = r.sections[k];
      combined << c().sections[k].name << ".force," << f[0] << "," << f[1] << "," << f[2] << "\n"
               << c().sections[k].name << ".moment," << f[3] << "," << f[4] << "," << f[5] << "\n";
      log_ << "rsa       section " << c().sections[k].name << ": force (" << f[0] << ", " << f[1]
           << ", " << f[2] << "), moment (" << f[3] << ", " << f[4] << ", " << f[5] << ")\n";
    }
    for (std::size_t k = 0; k < drift_storeys.size(); ++k) {
      combined << drift_storeys[k] << ".drift," << r.drifts[4 * k] << "," << r.drifts[4 * k + 1]
               << ",0\n"
               << drift_storeys[k] << ".ratio," << r.drifts[4 * k + 2] << "," << r.drifts[4 * k + 3]
               << ",0\n";
      log_ << "rsa       drift " << drift_storeys[k] << ": (" << r.drifts[4 * k] << ", "
           << r.drifts[4 * k + 1] << "), ratio (" << r.drifts[4 * k + 2] << ", "
           << r.drifts[4 * k + 3] << ")\n";
    }
    if (spec.missing_mass) {
      // Per excitation direction (its column): the mass the modes leave out, and its base
      // reaction along that direction at the ZPA.
      std::array<double, 3> mass{}, base{};
      for (std::size_t k = 0; k < spec.directions.size(); ++k) {
        const auto d = static_cast<std::size_t>(spec.directions[k]);
        mass[d] = r.missing_mass[k];
        base[d] = r.missing_base[k][d];
      }
      combined << "zpa," << r.zpa << "," << r.zpa << "," << r.zpa << "\nmissing_mass";
      for (double x : mass) combined << "," << x;
      combined << "\nmissing_mass_base_reaction";
      for (double x : base) combined << "," << x;
      combined << "\n";
    }
    return combined.str();
  }
};

}  // namespace

void run_response_spectrum(const AnalysisContext& context, const ModalResult& modes) {
  ResponseSpectrumRun(context).run(modes);
}

}  // namespace inertia
