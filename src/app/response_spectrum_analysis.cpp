// Response-spectrum analysis on the modes of the modal analysis.

#include "inertia/app/response_spectrum_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <optional>
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

}  // namespace

RsaResult response_spectrum_analysis(const CaseFile& c, MechanicalSystem& system,
                                     const ModalResult& modes, const SectionCuts* cuts,
                                     const DriftLines* drifts) {
  const auto& spec = c.response_spectrum;
  // Linear-elastic materials only: the case file refuses others (case_file.cpp).
  const std::size_t n = modes.modes.size();
  for (std::size_t i = 0; i < n; ++i)
    if (modes.modes[i].rigid)
      throw InputError(cat(c.path.string(), ":", spec.origin.line, ": response_spectrum: mode ",
                           i + 1, " is a rigid-body mode: the structure needs supports"));
  RsaResult result;
  // Spectral accelerations at the modes' periods.
  std::vector<double> omega(n), period(n), sa(n), damping(n, spec.damping);
  for (std::size_t i = 0; i < n; ++i) {
    omega[i] = modes.modes[i].omega;
    period[i] = 2 * std::numbers::pi / omega[i];
  }
  if (!spec.record.empty()) {
    const auto& a = c.amplitudes.at(spec.record);
    std::vector<std::pair<double, double>> record(a.points.begin(), a.points.end());
    if (spec.rayleigh_damping) {
      // Each mode at its own Rayleigh ratio: its spectral value, and its ratio in CQC.
      for (std::size_t i = 0; i < n; ++i) {
        damping[i] = system.rayleigh().ratio(omega[i]);
        if (!(damping[i] < 1))
          throw InputError(cat(c.path.string(), ":", spec.origin.line,
                               ": response_spectrum: damping: rayleigh gives mode ", i + 1, " (",
                               1 / period[i], " Hz) the ratio ", damping[i],
                               ", overdamped: ask for fewer modes or give one damping ratio"));
        const auto s = response_spectrum(record, {period[i]}, {damping[i]});
        sa[i] = spec.scale * omega[i] * omega[i] * s.displacement[0][0];
      }
    } else {
      const auto s = response_spectrum(record, period, {spec.damping});
      for (std::size_t i = 0; i < n; ++i)
        sa[i] = spec.scale * omega[i] * omega[i] * s.displacement[0][i];
    }
  } else {
    for (std::size_t i = 0; i < n; ++i)
      sa[i] = table_sa(spec.table, period[i], result.held_below, result.held_above);
  }
  // A scale or table in absurd units (1e200) would give infinite or NaN peaks, written with
  // exit 0: refused here, naming the mode and its value.
  for (std::size_t i = 0; i < n; ++i)
    if (!(std::abs(sa[i]) < 1e100))
      throw InputError(cat(c.path.string(), ":", spec.origin.line,
                           ": response_spectrum: the spectral acceleration of mode ", i + 1, " is ",
                           sa[i],
                           " m/s^2, beyond what the combination can square: check the "
                           "spectrum's scale and units"));
  // Per mode: K phi / omega^2 - M phi on the constrained DOFs (the reaction per unit A_n), its
  // sum per component, and the cells' stresses of phi.
  std::vector<petsc::Vector> unit_reaction(n);
  std::vector<std::array<double, 3>> unit_base(n);
  std::vector<CellStress> unit_stress(n);
  petsc::Vector mphi = system.create_vector();
  const auto dofs = system.constrained_dofs();
  const PetscInt first = static_cast<PetscInt>(3 * system.mesh().node_begin);
  // The sum per component over the constrained DOFs (all ranks): a base reaction.
  auto base_sum = [&](Vec r) {
    std::array<double, 3> local{}, sum{};
    {
      petsc::ConstArray x(r);
      for (const PetscInt d : dofs) local[static_cast<std::size_t>(d % 3)] += x[d - first];
    }
    INERTIA_MPI(MPI_Allreduce(local.data(), sum.data(), 3, MPI_DOUBLE, MPI_SUM, system.comm()));
    return sum;
  };
  for (std::size_t i = 0; i < n; ++i) {
    unit_reaction[i] = system.create_vector();
    system.mult_stiffness(modes.shapes[i], unit_reaction[i]);
    system.mult_mass(modes.shapes[i], mphi);
    INERTIA_PETSC(VecAXPBY(unit_reaction[i], -1.0, 1.0 / (omega[i] * omega[i]), mphi));
    system.keep_constrained(unit_reaction[i]);
    unit_base[i] = base_sum(unit_reaction[i]);
    system.assembler().cell_stress(modes.shapes[i], unit_stress[i]);
  }
  // The modal amplitudes A (per direction, per mode) and the rows.
  const std::size_t nd = spec.directions.size();
  std::vector<double> amplitude(nd * n);
  result.mass_fraction.assign(nd, 0.0);
  for (std::size_t k = 0; k < nd; ++k) {
    const int d = spec.directions[k];
    for (std::size_t i = 0; i < n; ++i) {
      const Mode& m = modes.modes[i];
      const double gamma = m.participation[static_cast<std::size_t>(d)];
      const double a = spec.direction_factors[k] * gamma * sa[i];
      amplitude[k * n + i] = a;
      RsaModeRow row{d,
                     static_cast<int>(i + 1),
                     period[i],
                     sa[i],
                     damping[i],
                     gamma,
                     m.effective_mass[static_cast<std::size_t>(d)],
                     a / (omega[i] * omega[i]),
                     {}};
      for (int j = 0; j < 3; ++j)
        row.base[static_cast<std::size_t>(j)] = a * unit_base[i][static_cast<std::size_t>(j)];
      result.rows.push_back(row);
      result.mass_fraction[k] += m.effective_mass[static_cast<std::size_t>(d)];
    }
    if (modes.total_mass[static_cast<std::size_t>(d)] > 0)
      result.mass_fraction[k] /= modes.total_mass[static_cast<std::size_t>(d)];
  }
  // The missing mass: per direction, K_ff u = ZPA (M r_d - sum_n Gamma_n M phi_n)_f.
  std::vector<petsc::Vector> missing_u(nd), missing_reaction(nd), missing_w(nd);
  std::vector<CellStress> missing_stress(nd);
  result.missing_mass.assign(nd, 0.0);
  result.missing_base.assign(nd, {0, 0, 0});
  if (spec.missing_mass) {
    if (!spec.record.empty()) {
      for (const auto& [t, a] : c.amplitudes.at(spec.record).points)
        result.zpa = std::max(result.zpa, std::abs(a));
      result.zpa *= spec.scale;
    } else {
      result.zpa = spec.table.front().second;
    }
    petsc::Matrix K = system.create_operator();
    system.fill_operator(0.0, 1.0, 0.0, K);  // the constrained rows and columns: a diagonal
    petsc::Ksp ksp;
    INERTIA_PETSC(KSPCreate(system.comm(), ksp.out()));
    INERTIA_PETSC(KSPSetOptionsPrefix(ksp, "rsa_"));
    INERTIA_PETSC(KSPSetOperators(ksp, K, K));
    const SolverChoice choice =
        choose_solver(K, "rsa_", LinearSolverChoice::automatic, static_cast<double>(nd),
                      amg_products_per_solve, "response_spectrum.missing_mass");
    result.missing_solver = choice.why;
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
    petsc::Vector r = system.create_vector(), f = system.create_vector(),
                  rhs = system.create_vector();
    for (std::size_t k = 0; k < nd; ++k) {
      const auto d = static_cast<std::size_t>(spec.directions[k]);
      INERTIA_PETSC(VecSet(r, 0.0));
      {
        petsc::Array x(r);
        for (std::size_t e = d; e < x.span().size(); e += 3) x.span()[e] = 1.0;
      }
      system.mult_mass(r, f);  // M r_d
      for (std::size_t i = 0; i < n; ++i) {
        system.mult_mass(modes.shapes[i], mphi);
        INERTIA_PETSC(VecAXPY(f, -modes.modes[i].participation[d], mphi));
      }
      {
        petsc::ConstArray x(f);
        double local = 0;
        for (std::size_t e = d; e < x.span().size(); e += 3) local += x.span()[e];
        INERTIA_MPI(
            MPI_Allreduce(&local, &result.missing_mass[k], 1, MPI_DOUBLE, MPI_SUM, system.comm()));
      }
      INERTIA_PETSC(VecScale(f, spec.direction_factors[k] * result.zpa));
      if (cuts) {  // the unscaled rigid-body residue r_d - sum_n Gamma_n phi_n, for the sections
        missing_w[k] = system.create_vector();
        {
          petsc::Array x(missing_w[k]);
          for (std::size_t e = d; e < x.span().size(); e += 3) x.span()[e] = 1.0;
        }
        for (std::size_t i = 0; i < n; ++i)
          INERTIA_PETSC(VecAXPY(missing_w[k], -modes.modes[i].participation[d], modes.shapes[i]));
        INERTIA_PETSC(VecScale(missing_w[k], -spec.direction_factors[k] * result.zpa));
      }
      INERTIA_PETSC(VecCopy(f, rhs));
      system.zero_constrained(rhs);
      missing_u[k] = system.create_vector();
      INERTIA_PETSC(KSPSolve(ksp, rhs, missing_u[k]));
      KSPConvergedReason reason;
      INERTIA_PETSC(KSPGetConvergedReason(ksp, &reason));
      if (reason < 0)
        throw SolverError(cat("response_spectrum: the missing mass's static solve diverged (",
                              KSPConvergedReasons[reason], ")"));
      system.zero_constrained(missing_u[k]);
      missing_reaction[k] = system.create_vector();
      system.mult_stiffness(missing_u[k], missing_reaction[k]);
      INERTIA_PETSC(VecAXPY(missing_reaction[k], -1.0, f));
      system.keep_constrained(missing_reaction[k]);
      result.missing_base[k] = base_sum(missing_reaction[k]);
      system.assembler().cell_stress(missing_u[k], missing_stress[k]);
    }
  }
  const auto rho = modal_coefficients(spec.combination, omega, damping);
  // Combines one quantity whose value in mode i per unit amplitude is unit(i), scaled by
  // scale(k, i) in direction k: over the modes, then the directions.
  std::vector<double> q(n), per_direction(nd);
  // `missing(k)`: the missing mass's value in direction k (SRSS with the modes').
  auto combined_with = [&](auto&& unit, auto&& scale, auto&& missing) {
    for (std::size_t k = 0; k < nd; ++k) {
      for (std::size_t i = 0; i < n; ++i) q[i] = scale(k, i) * unit(i);
      per_direction[k] = combine_modes(spec.combination, q, rho);
      if (spec.missing_mass) per_direction[k] = std::hypot(per_direction[k], missing(k));
    }
    return combine_directions(spec.directional, per_direction);
  };
  auto by_amplitude = [&](std::size_t k, std::size_t i) { return amplitude[k * n + i]; };
  auto by_displacement = [&](std::size_t k, std::size_t i) {
    return amplitude[k * n + i] / (omega[i] * omega[i]);
  };
  // Base reactions: by each rule per direction (the log compares them), and the case's.
  result.base_by_rule.resize(nd);
  for (std::size_t k = 0; k < nd; ++k)
    for (int rule = 0; rule < 3; ++rule) {
      const ModalRule r = rule == 0 ? ModalRule::srss : rule == 1 ? ModalRule::cqc : ModalRule::abs;
      const auto coefficients = modal_coefficients(r, omega, damping);
      for (std::size_t j = 0; j < 3; ++j) {
        for (std::size_t i = 0; i < n; ++i) q[i] = amplitude[k * n + i] * unit_base[i][j];
        result.base_by_rule[k][static_cast<std::size_t>(rule)][j] =
            combine_modes(r, q, coefficients);
      }
    }
  for (std::size_t j = 0; j < 3; ++j)
    result.base[j] = combined_with([&](std::size_t i) { return unit_base[i][j]; }, by_amplitude,
                                   [&](std::size_t k) { return result.missing_base[k][j]; });
  // Sections: per mode K_A phi / omega^2 - M_A phi at the cut (per unit A_n, like the
  // reactions), and the missing mass's K_A u - M_A w.
  if (cuts && cuts->size() > 0) {
    const std::size_t ns = cuts->size();
    petsc::Vector zero = system.create_vector();
    std::vector<std::vector<double>> unit_section(n);
    std::vector<double> kphi, mphi_rows;
    for (std::size_t i = 0; i < n; ++i) {
      cuts->compute(modes.shapes[i], zero, nullptr, 0, 0, 0, kphi);
      cuts->compute(zero, zero, modes.shapes[i], 0, 0, 0, mphi_rows);
      unit_section[i].resize(6 * ns);
      for (std::size_t e = 0; e < 6 * ns; ++e)
        unit_section[i][e] = kphi[e] / (omega[i] * omega[i]) - mphi_rows[e];
    }
    std::vector<std::vector<double>> missing_section(nd);
    if (spec.missing_mass)
      for (std::size_t k = 0; k < nd; ++k)
        cuts->compute(missing_u[k], zero, missing_w[k], 0, 0, 0, missing_section[k]);
    result.sections.assign(ns, {0, 0, 0, 0, 0, 0});
    for (std::size_t sct = 0; sct < ns; ++sct)
      for (std::size_t j = 0; j < 6; ++j)
        result.sections[sct][j] =
            combined_with([&](std::size_t i) { return unit_section[i][6 * sct + j]; }, by_amplitude,
                          [&](std::size_t k) { return missing_section[k][6 * sct + j]; });
  }
  // Drifts: per mode the drifts of phi (scaled like displacements), and the missing mass's.
  if (drifts && !drifts->storeys().empty()) {
    std::vector<std::vector<double>> unit_drift(n), missing_drift(nd);
    for (std::size_t i = 0; i < n; ++i) drifts->compute(modes.shapes[i], unit_drift[i]);
    if (spec.missing_mass)
      for (std::size_t k = 0; k < nd; ++k) drifts->compute(missing_u[k], missing_drift[k]);
    result.drifts.assign(unit_drift.empty() ? 0 : unit_drift[0].size(), 0.0);
    for (std::size_t e = 0; e < result.drifts.size(); ++e)
      result.drifts[e] =
          combined_with([&](std::size_t i) { return unit_drift[i][e]; }, by_displacement,
                        [&](std::size_t k) { return missing_drift[k][e]; });
  }
  // Fields, entry by entry (the local form, ghosts included: the same arithmetic on every copy).
  result.displacement = system.create_vector();
  result.reaction = system.create_vector();
  {
    std::vector<petsc::GhostedRead> shapes, reactions;
    shapes.reserve(n);
    reactions.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      shapes.emplace_back(modes.shapes[i]);
      reactions.emplace_back(unit_reaction[i]);
    }
    std::vector<petsc::GhostedRead> missing_us, missing_rs;
    for (std::size_t k = 0; k < nd && spec.missing_mass; ++k) {
      missing_us.emplace_back(missing_u[k]);
      missing_rs.emplace_back(missing_reaction[k]);
    }
    petsc::GhostedArray u(result.displacement), r(result.reaction);
    const std::size_t size = u.span().size();
    for (std::size_t e = 0; e < size; ++e) {
      u.span()[e] =
          combined_with([&](std::size_t i) { return shapes[i].span()[e]; }, by_displacement,
                        [&](std::size_t k) { return missing_us[k].span()[e]; });
      r.span()[e] =
          combined_with([&](std::size_t i) { return reactions[i].span()[e]; }, by_amplitude,
                        [&](std::size_t k) { return missing_rs[k].span()[e]; });
    }
  }
  const std::size_t values = unit_stress.empty() ? 0 : unit_stress[0].stress.size();
  result.stress.stress.assign(values, 0.0);
  result.stress.strain.assign(values, 0.0);
  for (std::size_t e = 0; e < values; ++e) {
    result.stress.stress[e] =
        combined_with([&](std::size_t i) { return unit_stress[i].stress[e]; }, by_displacement,
                      [&](std::size_t k) { return missing_stress[k].stress[e]; });
    result.stress.strain[e] =
        combined_with([&](std::size_t i) { return unit_stress[i].strain[e]; }, by_displacement,
                      [&](std::size_t k) { return missing_stress[k].strain[e]; });
  }
  result.stress.von_mises.assign(values / 6, 0.0);
  return result;
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
