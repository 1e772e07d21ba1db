// Harmonic response by modal superposition or by the direct solve of the real block form.

#include "inertia/app/harmonic_analysis.hpp"

#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "inertia/app/histories.hpp"
#include "inertia/app/output_series.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/svg_plot.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/direct_solver.hpp"

namespace inertia {

/// The direct solve (see the file's header): the block operator Z of 2N rows, DOF g's real part
/// in row 2g and its negated imaginary part in row 2g + 1 (the ownership of the DOFs doubled),
/// refilled and factored at each frequency; the pattern, the buffers and MUMPS's symbolic
/// analysis are made once.
class HarmonicDirect {
 public:
  HarmonicDirect(const CaseFile& c, MechanicalSystem& system, Vec f_real, Vec f_imag)
      : c_(c), system_(system) {
    a_ = system.create_operator();
    d_ = system.create_operator();
    INERTIA_PETSC(VecDuplicate(f_real, f_real_.out()));
    INERTIA_PETSC(VecCopy(f_real, f_real_));
    INERTIA_PETSC(VecDuplicate(f_imag, f_imag_.out()));
    INERTIA_PETSC(VecCopy(f_imag, f_imag_));
    PetscReal imag_norm = 0;
    INERTIA_PETSC(VecNorm(f_imag_, NORM_INFINITY, &imag_norm));
    in_phase_ = imag_norm == 0;
    const auto& h = c.harmonic;
    // Without damping D = 0: U's parts solve with A = K - Omega^2 M alone (N unknowns: an eighth
    // of the block form's factorisation), the imaginary one only for loads out of phase.
    undamped_ = h.rayleigh.mass == 0 && h.rayleigh.stiffness == 0 && h.structural_damping == 0 &&
                !system.has_dashpots();
    // MUMPS's LDL^T of the symmetric indefinite Z (Cholesky with a matrix not marked SPD); the
    // prefix harmonic_ lets options change it (-harmonic_pc_type lu, ...).
    INERTIA_PETSC(KSPCreate(system.comm(), ksp_.out()));
    INERTIA_PETSC(KSPSetOptionsPrefix(ksp_, "harmonic_"));
    use_mumps_cholesky(ksp_);
    INERTIA_PETSC(KSPSetFromOptions(ksp_));
    solver_ = undamped_ ? "MUMPS LDL^T of K - Omega^2 M (undamped: real), one factorisation per "
                          "frequency"
                        : "MUMPS LDL^T of the real 2N block form, one factorisation per frequency";
    if (solver_given_in_options("harmonic_")) solver_ = "as -harmonic_ options set it";
  }

  const std::string& solver() const { return solver_; }

 private:
  /// Z's pattern from a_'s (filled: the operators' pattern is complete once a fill has run),
  /// the row buffers, and the right-hand side.
  void create_block_operator() {
    INERTIA_PETSC(MatGetOwnershipRange(a_, &rstart_, &rend_));
    const PetscInt n = rend_ - rstart_;
    std::vector<PetscInt> d_nnz(static_cast<std::size_t>(2 * n)),
        o_nnz(static_cast<std::size_t>(2 * n));
    PetscInt widest = 0;
    for (PetscInt g = rstart_; g < rend_; ++g) {
      PetscInt ncols = 0;
      const PetscInt* cols = nullptr;
      const PetscScalar* values = nullptr;
      INERTIA_PETSC(MatGetRow(a_, g, &ncols, &cols, &values));
      PetscInt here = 0;
      for (PetscInt k = 0; k < ncols; ++k) here += cols[k] >= rstart_ && cols[k] < rend_;
      const auto i = static_cast<std::size_t>(2 * (g - rstart_));
      d_nnz[i] = d_nnz[i + 1] = 2 * here;
      o_nnz[i] = o_nnz[i + 1] = 2 * (ncols - here);
      widest = std::max(widest, ncols);
      INERTIA_PETSC(MatRestoreRow(a_, g, &ncols, &cols, &values));  // zeroes ncols
    }
    cols_.resize(static_cast<std::size_t>(2 * widest));
    values_.resize(static_cast<std::size_t>(2 * widest));
    INERTIA_PETSC(MatCreateAIJ(system_.comm(), 2 * n, 2 * n, PETSC_DETERMINE, PETSC_DETERMINE, 0,
                               d_nnz.data(), 0, o_nnz.data(), z_.out()));
    INERTIA_PETSC(MatSetOption(z_, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
    INERTIA_PETSC(MatSetOption(z_, MAT_SYMMETRIC, PETSC_TRUE));
    INERTIA_PETSC(MatSetOption(z_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
    INERTIA_PETSC(MatCreateVecs(z_, x_.out(), rhs_.out()));
    petsc::ConstArray re(f_real_), im(f_imag_);
    petsc::Array b(rhs_);
    for (std::size_t i = 0; i < re.span().size(); ++i) {
      b.span()[2 * i] = re.span()[i];
      b.span()[2 * i + 1] = im.span()[i];
    }
  }

 public:
  /// U at Omega (rad/s): its real and imaginary parts (owned entries).
  void solve(double frequency, Vec real, Vec imag) {
    const double omega = 2 * std::numbers::pi * frequency;
    const auto& h = c_.harmonic;
    system_.fill_operator(-omega * omega, 1.0, 0.0, a_);
    if (undamped_) {
      if (!operators_set_) {
        INERTIA_PETSC(MatSetOption(a_, MAT_SPD, PETSC_FALSE));
        INERTIA_PETSC(MatSetOption(a_, MAT_SYMMETRIC, PETSC_TRUE));
        INERTIA_PETSC(KSPSetOperators(ksp_, a_, a_));
        operators_set_ = true;
      }
      INERTIA_PETSC(KSPSolve(ksp_, f_real_, real));
      check(frequency);
      if (in_phase_) {
        INERTIA_PETSC(VecZeroEntries(imag));
      } else {
        INERTIA_PETSC(KSPSolve(ksp_, f_imag_, imag));
        check(frequency);
      }
      return;
    }
    system_.fill_operator(h.rayleigh.mass * omega,
                          h.structural_damping + h.rayleigh.stiffness * omega, omega, d_);
    if (!z_) create_block_operator();
    for (PetscInt g = rstart_; g < rend_; ++g) {
      PetscInt na = 0, nd = 0;
      const PetscInt *ca = nullptr, *cd = nullptr;
      const PetscScalar *va = nullptr, *vd = nullptr;
      INERTIA_PETSC(MatGetRow(a_, g, &na, &ca, &va));
      INERTIA_PETSC(MatGetRow(d_, g, &nd, &cd, &vd));
      INERTIA_CHECK(na == nd, InternalError, "harmonic: the operators' patterns differ in row ", g);
      for (PetscInt k = 0; k < na; ++k) {
        cols_[static_cast<std::size_t>(2 * k)] = 2 * ca[k];
        cols_[static_cast<std::size_t>(2 * k + 1)] = 2 * ca[k] + 1;
      }
      PetscInt row = 2 * g;  // A Re U + D (-Im U) = Re F
      for (PetscInt k = 0; k < na; ++k) {
        values_[static_cast<std::size_t>(2 * k)] = va[k];
        values_[static_cast<std::size_t>(2 * k + 1)] = vd[k];
      }
      INERTIA_PETSC(MatSetValues(z_, 1, &row, 2 * na, cols_.data(), values_.data(), INSERT_VALUES));
      row = 2 * g + 1;  // D Re U - A (-Im U) = Im F
      for (PetscInt k = 0; k < na; ++k) {
        values_[static_cast<std::size_t>(2 * k)] = vd[k];
        values_[static_cast<std::size_t>(2 * k + 1)] = -va[k];
      }
      INERTIA_PETSC(MatSetValues(z_, 1, &row, 2 * na, cols_.data(), values_.data(), INSERT_VALUES));
      INERTIA_PETSC(MatRestoreRow(d_, g, &nd, &cd, &vd));
      INERTIA_PETSC(MatRestoreRow(a_, g, &na, &ca, &va));
    }
    INERTIA_PETSC(MatAssemblyBegin(z_, MAT_FINAL_ASSEMBLY));
    INERTIA_PETSC(MatAssemblyEnd(z_, MAT_FINAL_ASSEMBLY));
    if (!operators_set_) {
      INERTIA_PETSC(KSPSetOperators(ksp_, z_, z_));
      operators_set_ = true;
    }
    INERTIA_PETSC(KSPSolve(ksp_, rhs_, x_));
    check(frequency);
    petsc::ConstArray x(x_);
    petsc::Array re(real), im(imag);
    for (std::size_t i = 0; i < re.span().size(); ++i) {
      re.span()[i] = x.span()[2 * i];
      im.span()[i] = -x.span()[2 * i + 1];
    }
  }

 private:
  /// A SolverError if the last solve failed.
  void check(double frequency) const {
    KSPConvergedReason reason;
    INERTIA_PETSC(KSPGetConvergedReason(ksp_, &reason));
    if (reason < 0)
      throw SolverError(cat(c_.path.string(), ":", c_.harmonic.origin.line,
                            ": harmonic: the direct solve at ", frequency, " Hz failed (",
                            KSPConvergedReasons[reason],
                            undamped_ ? "): without damping the operator is singular at a natural "
                                        "frequency; add rayleigh or structural_damping, or move "
                                        "the frequency"
                                      : ")"));
  }

  const CaseFile& c_;
  MechanicalSystem& system_;
  bool undamped_ = false, in_phase_ = false;
  petsc::Matrix a_, d_, z_;
  petsc::Vector f_real_, f_imag_, x_, rhs_;
  petsc::Ksp ksp_;
  PetscInt rstart_ = 0, rend_ = 0;
  std::vector<PetscInt> cols_;
  std::vector<PetscScalar> values_;
  std::string solver_;
  bool operators_set_ = false;
};

namespace {

/// For an interruption: how far the sweep got.
std::string sweep_position(std::size_t f, std::size_t count) {
  return cat("during the harmonic sweep (", f, " of its ", count, " frequencies solved)");
}

/// x = sum_d A_d r_d (r_d the unit translations): the ground's rigid acceleration.
void base_field(const std::array<double, 3>& a, const HarmonicResult& r, Vec x) {
  INERTIA_PETSC(VecZeroEntries(x));
  for (int d = 0; d < 3; ++d) INERTIA_PETSC(VecAXPY(x, a[d], r.unit_translation[d]));
}

/// The ground's displacement at `frequency` in component d (zero without base excitation).
double ground_displacement(const CaseFile& c, double frequency, std::size_t d) {
  const double omega = 2 * std::numbers::pi * frequency;
  return c.harmonic.has_base ? -c.harmonic.base_acceleration[d] / (omega * omega) : 0.0;
}

/// With base excitation, the ground's displacement added to U (relative to the ground, on the
/// translations): U absolute.
void add_ground(const CaseFile& c, const HarmonicResult& r, double frequency, Vec real) {
  if (!c.harmonic.has_base) return;
  for (int d = 0; d < 3; ++d)
    INERTIA_PETSC(VecAXPY(real, ground_displacement(c, frequency, static_cast<std::size_t>(d)),
                          r.unit_translation[d]));
}

/// q_n / (phi_n . F) at Omega (rad/s).
std::complex<double> modal_factor(const CaseFile& c, double omega_n, double omega) {
  const auto& h = c.harmonic;
  const double xi = h.damping + h.rayleigh.ratio(omega_n);
  const std::complex<double> den(
      omega_n * omega_n - omega * omega,
      omega_n * omega_n * h.structural_damping + 2 * xi * omega_n * omega);
  return 1.0 / den;
}

}  // namespace

void check_harmonic(const CaseFile& c, const ProblemSpec& spec, MechanicalSystem& system,
                    bool modal) {
  const std::string where = cat(c.path.string(), ":", c.harmonic.origin.line, ": harmonic: ");
  const auto& loads = system.load_vectors();
  const auto& h = c.harmonic;
  if (loads.empty() && !h.has_base)
    throw InputError(cat(where,
                         "the case has no loads (force, traction, pressure, gravity) and no "
                         "base_acceleration to drive it"));
  if (modal && system.has_dashpots())
    throw InputError(cat(where,
                         "the springs' dashpots are not modal damping (the undamped modes do not "
                         "uncouple them); use method: direct"));
  for (const auto& [amplitude, vector] : loads)
    for (const auto& [name, index] : spec.amplitude_index)
      if (index == amplitude && c.amplitudes.at(name).type != CaseAmplitude::Type::sine)
        throw InputError(cat(where, "a load's amplitude '", name,
                             "' is not a sine: a harmonic load has a sine amplitude (its phase) or "
                             "none (phase 0)"));
  if (!h.has_base) return;
  for (int d = 0; d < 3; ++d) {
    if (h.base_acceleration[static_cast<std::size_t>(d)] == 0) continue;
    std::int64_t held = 0;
    const PetscInt first = static_cast<PetscInt>(3 * system.mesh().node_begin);
    for (const PetscInt dof : system.constrained_dofs())  // translations, not rotations
      held +=
          dof % 3 == d && !system.mesh().is_rotation(static_cast<std::int32_t>((dof - first) / 3));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &held, 1, MPI_INT64_T, MPI_SUM, system.comm()));
    if (held == 0)
      throw InputError(cat(where, "base_acceleration in ", "xyz"[d],
                           ", but no support holds that component (the base moves the "
                           "supports)"));
  }
}

namespace {

/// F = sum_j F_j e^{i phi_j} (each load's amplitude a sine of its phase), and a base
/// acceleration's -M r A_g; zero on the constrained DOFs. The loads' phases into `phases`.
void harmonic_load(const CaseFile& c, const ProblemSpec& spec, MechanicalSystem& system,
                   const HarmonicResult& r, std::vector<double>& phases, Vec f_real, Vec f_imag) {
  // The amplitudes the case names, by their index in ProblemSpec::amplitudes.
  std::vector<const CaseAmplitude*> named(spec.amplitudes.size(), nullptr);
  for (const auto& [name, index] : spec.amplitude_index)
    if (index >= 0 && static_cast<std::size_t>(index) < named.size())
      named[static_cast<std::size_t>(index)] = &c.amplitudes.at(name);
  const auto& loads = system.load_vectors();
  // F = sum_j F_j e^{i phi_j}, zero on the constrained DOFs.
  for (const auto& [amplitude, vector] : loads) {
    double phase = 0;
    const CaseAmplitude* a = amplitude >= 0 && static_cast<std::size_t>(amplitude) < named.size()
                                 ? named[static_cast<std::size_t>(amplitude)]
                                 : nullptr;
    if (a) phase = a->phase;  // a sine (check_harmonic)
    phases.push_back(phase);
    INERTIA_PETSC(VecAXPY(f_real, std::cos(phase), vector));
    INERTIA_PETSC(VecAXPY(f_imag, std::sin(phase), vector));
  }
  if (c.harmonic.has_base) {
    // Uniform base excitation: in coordinates relative to the ground r u_g (r_d = 1 on every
    // d-DOF), the load -M r A_g; the supports' DOFs stay at zero relative motion.
    petsc::Vector ground = system.create_vector(), inertia = system.create_vector();
    base_field(c.harmonic.base_acceleration, r, ground);
    system.mult_mass(ground, inertia);
    INERTIA_PETSC(VecAXPY(f_real, -1.0, inertia));
  }
  system.zero_constrained(f_real);
  system.zero_constrained(f_imag);
}

/// Without modes: one complex solve per frequency (HarmonicDirect), the probes' values kept.
void direct_sweep(const CaseFile& c, MechanicalSystem& system, const ProbeSites& probes, Vec f_real,
                  Vec f_imag, HarmonicResult& result) {
  const std::size_t np = probes.owned_dof.size();
  result.direct = std::make_shared<HarmonicDirect>(c, system, f_real, f_imag);
  result.solver = result.direct->solver();
  petsc::Vector real = system.create_vector(), imag = system.create_vector();
  std::vector<double> re, im;
  const double start = MPI_Wtime();
  for (std::size_t f = 0; f < result.frequencies.size(); ++f) {
    stop_if_interrupted(system.comm(), sweep_position(f, result.frequencies.size()));
    result.direct->solve(result.frequencies[f], real, imag);
    values_at_sites(system.comm(), probes, real, re);
    values_at_sites(system.comm(), probes, imag, im);
    for (std::size_t e = 0; e < np * 3; ++e)
      result.probe_values[f * np * 3 + e] = {
          re[e] + ground_displacement(c, result.frequencies[f], e % 3), im[e]};
  }
  result.seconds_per_frequency =
      (MPI_Wtime() - start) / static_cast<double>(result.frequencies.size());
}

/// The static response of the modes left out: K^-1 F - sum_n phi_n (phi_n . F) / omega_n^2, its
/// share of the whole static response and its values at the probes.
void residual_response(const CaseFile& c, MechanicalSystem& system, const ModalResult& modes,
                       const ProbeSites& probes, Vec f_real, Vec f_imag, HarmonicResult& result) {
  const std::size_t n = modes.modes.size(), np = probes.owned_dof.size();
  const auto& h = c.harmonic;
  // The static response of the modes left out: K^-1 F - sum_n phi_n (phi_n . F) / omega_n^2.
  result.residual_real = system.create_vector();
  result.residual_imag = system.create_vector();
  PetscReal full = 0, left = 0;
  for (int part = 0; part < 2; ++part) {
    Vec x = part == 0 ? result.residual_real.get() : result.residual_imag.get();
    Vec f = part == 0 ? f_real : f_imag;
    PetscReal norm = 0;
    INERTIA_PETSC(VecNorm(f, NORM_INFINITY, &norm));
    if (norm == 0) continue;
    system.solve(0.0, 1.0, f, x);
    PetscReal whole = 0;
    INERTIA_PETSC(VecNorm(x, NORM_INFINITY, &whole));
    full = std::max(full, whole);
    for (std::size_t i = 0; i < n; ++i) {
      const double w = modes.modes[i].omega;
      const std::complex<double> q = result.modal_forces[i];
      INERTIA_PETSC(VecAXPY(x, -(part == 0 ? q.real() : q.imag()) / (w * w), modes.shapes[i]));
    }
    PetscReal rest = 0;
    INERTIA_PETSC(VecNorm(x, NORM_INFINITY, &rest));
    left = std::max(left, rest);
  }
  result.residual_fraction = full > 0 ? left / full : 0;
  std::vector<double> re, im;
  values_at_sites(system.comm(), probes, result.residual_real, re);
  values_at_sites(system.comm(), probes, result.residual_imag, im);
  const std::complex<double> soft(1.0, h.structural_damping);
  result.residual_at_probes.resize(np * 3);
  for (std::size_t e = 0; e < np * 3; ++e)
    result.residual_at_probes[e] = std::complex<double>(re[e], im[e]) / soft;
}

}  // namespace

HarmonicResult harmonic_analysis(const CaseFile& c, const ProblemSpec& spec,
                                 MechanicalSystem& system, const ModalResult* modes,
                                 const ProbeSites& probes) {
  HarmonicResult result;
  result.frequencies = c.harmonic.frequencies;
  check_harmonic(c, spec, system, modes != nullptr);
  const auto& h = c.harmonic;
  petsc::Vector f_real = system.create_vector(), f_imag = system.create_vector();
  if (h.has_base)
    for (int d = 0; d < 3; ++d) result.unit_translation[d] = system.assembler().unit_translation(d);
  harmonic_load(c, spec, system, result, result.phases, f_real, f_imag);
  const std::size_t np = probes.owned_dof.size();
  result.probe_values.assign(result.frequencies.size() * np * 3, {0.0, 0.0});
  if (!modes) {
    direct_sweep(c, system, probes, f_real, f_imag, result);
    return result;
  }
  const std::size_t n = modes->modes.size();
  result.modal_forces.assign(n, {0.0, 0.0});
  for (std::size_t i = 0; i < n; ++i) {
    PetscScalar re = 0, im = 0;
    INERTIA_PETSC(VecDot(modes->shapes[i], f_real, &re));
    INERTIA_PETSC(VecDot(modes->shapes[i], f_imag, &im));
    result.modal_forces[i] = {re, im};
  }
  // The mode shapes at the probes' nodes: at_probes[(3 p + k) n + i].
  std::vector<double> at_probes(np * 3 * n, 0.0), values;
  for (std::size_t i = 0; i < n; ++i) {
    values_at_sites(system.comm(), probes, modes->shapes[i], values);
    for (std::size_t e = 0; e < 3 * np; ++e) at_probes[e * n + i] = values[e];
  }
  if (h.residual) residual_response(c, system, *modes, probes, f_real, f_imag, result);
  std::vector<std::complex<double>> q(n);
  for (std::size_t f = 0; f < result.frequencies.size(); ++f) {
    // Every rank sweeps the same frequencies: the flags combined every 4096 (microseconds each).
    if (f % 4096 == 0)
      stop_if_interrupted(system.comm(), sweep_position(f, result.frequencies.size()));
    const double omega = 2 * std::numbers::pi * result.frequencies[f];
    for (std::size_t i = 0; i < n; ++i)
      q[i] = result.modal_forces[i] * modal_factor(c, modes->modes[i].omega, omega);
    for (std::size_t e = 0; e < np * 3; ++e) {
      std::complex<double> u(0.0, 0.0);
      for (std::size_t i = 0; i < n; ++i) u += at_probes[e * n + i] * q[i];
      if (h.residual) u += result.residual_at_probes[e];
      result.probe_values[f * np * 3 + e] =
          u + ground_displacement(c, result.frequencies[f], e % 3);
    }
  }
  return result;
}

void harmonic_field(const CaseFile& c, const ModalResult* modes, const HarmonicResult& r,
                    double frequency, Vec real, Vec imag) {
  if (r.direct) {
    r.direct->solve(frequency, real, imag);
    add_ground(c, r, frequency, real);
    return;
  }
  INERTIA_PETSC(VecZeroEntries(real));
  INERTIA_PETSC(VecZeroEntries(imag));
  const double omega = 2 * std::numbers::pi * frequency;
  for (std::size_t i = 0; i < modes->modes.size(); ++i) {
    const std::complex<double> q =
        r.modal_forces[i] * modal_factor(c, modes->modes[i].omega, omega);
    INERTIA_PETSC(VecAXPY(real, q.real(), modes->shapes[i]));
    INERTIA_PETSC(VecAXPY(imag, q.imag(), modes->shapes[i]));
  }
  if (r.residual_real) {  // + R / (1 + i eta)
    const double eta = c.harmonic.structural_damping, d = 1 + eta * eta;
    const Vec rr = r.residual_real, ri = r.residual_imag;
    INERTIA_PETSC(VecAXPY(real, 1 / d, rr));
    INERTIA_PETSC(VecAXPY(real, eta / d, ri));
    INERTIA_PETSC(VecAXPY(imag, 1 / d, ri));
    INERTIA_PETSC(VecAXPY(imag, -eta / d, rr));
  }
  add_ground(c, r, frequency, real);
}

namespace {

/// A harmonic analysis's run: the sweep, its log, harmonic.csv, harmonic.svg and the fields.
class HarmonicRun : AnalysisPart {
 public:
  using AnalysisPart::AnalysisPart;

  void run(const ModalResult* modes) {
    const auto& h = c().harmonic;
    // The probes' nodes, whatever fields the probes ask of a transient.
    std::vector<CaseProbe> points = c().probes;
    for (auto& p : points) p.fields = {"displacement"};
    const ProbeSites probes = locate_probes(system(), points, c().path.string());
    HarmonicResult r;
    {
      Phases::Scope scope(phases_, "harmonic");
      log_ << "harmonic  sweeping " << c().harmonic.frequencies.size() << " frequencies ("
           << (modes ? "modal superposition" : "direct solve") << ")\n"
           << std::flush;
      r = harmonic_analysis(c(), system().spec(), system(), modes, probes);
    }
    const std::size_t np = probes.names.size();
    log_ << "harmonic  " << h.frequencies.size() << " frequencies from " << h.frequencies.front()
         << " to " << h.frequencies.back() << " Hz, ";
    if (modes)
      log_ << "superposing " << modes->modes.size() << " modes (viscous ratio " << h.damping;
    else
      log_ << "direct solve (" << r.solver << ", " << std::setprecision(3)
           << r.seconds_per_frequency << " s per frequency" << std::setprecision(6);
    if (h.rayleigh.mass != 0 || h.rayleigh.stiffness != 0)
      log_ << ", Rayleigh alpha_M " << h.rayleigh.mass << " alpha_K " << h.rayleigh.stiffness;
    log_ << ", structural " << h.structural_damping << "); ";
    if (r.phases.empty()) {
      log_ << "no loads\n";
    } else {
      log_ << r.phases.size() << (r.phases.size() == 1 ? " load" : " loads") << ", phases (deg)";
      for (double ph : r.phases) log_ << " " << ph * 180 / std::numbers::pi;
      log_ << "\n";
    }
    if (modes && h.residual)
      log_ << "harmonic  residual: the static response of the modes left out (one static solve), "
           << r.residual_fraction << " of K^-1 F's largest entry, added to every frequency\n";
    if (h.has_base)
      log_ << "harmonic  base acceleration (" << h.base_acceleration[0] << ", "
           << h.base_acceleration[1] << ", " << h.base_acceleration[2]
           << ") m/s^2, phase 0, moving every support of those components; the displacements "
              "are absolute (the ground's -A / Omega^2 included)\n";
    const double highest = modes && !modes->modes.empty() ? modes->modes.back().frequency : 0;
    if (modes && h.frequencies.back() > highest &&
        static_cast<PetscInt>(modes->modes.size()) < modes->free_dofs)
      log_ << "warning   harmonic: the sweep reaches " << h.frequencies.back()
           << " Hz, above the highest mode kept (" << highest
           << " Hz): ask modal for more modes (about 1.5 times the sweep's top)\n";
    if (np == 0)
      log_ << "warning   harmonic: no output.probes: harmonic.csv has frequencies only\n";
    // harmonic.csv: amplitude and phase (degrees) of each probe component.
    std::ostringstream csv;
    csv << std::setprecision(12) << "frequency";
    for (std::size_t p = 0; p < np; ++p)
      for (const char* k : {"ux", "uy", "uz"})
        csv << "," << probes.names[p] << "." << k << "_amplitude," << probes.names[p] << "." << k
            << "_phase";
    csv << "\n";
    std::vector<PlotPanel> panels(2);
    panels[0] = {"amplitude of the displacement", "frequency (Hz)", "|u|", h.log_spacing, true, {}};
    panels[1] = {
        "phase against the loads", "frequency (Hz)", "phase (degrees)", h.log_spacing, false, {}};
    double overall = 0;
    for (const auto& u : r.probe_values) overall = std::max(overall, std::abs(u));
    for (std::size_t f = 0; f < h.frequencies.size(); ++f) {
      csv << h.frequencies[f];
      for (std::size_t e = 0; e < np * 3; ++e) {
        const auto u = r.probe_values[f * np * 3 + e];
        csv << "," << std::abs(u) << "," << std::arg(u) * 180 / std::numbers::pi;
      }
      csv << "\n";
    }
    for (std::size_t e = 0; e < np * 3; ++e) {
      double peak = 0, at = 0;
      PlotSeries amplitude{cat(probes.names[e / 3], ".u", "xyz"[e % 3]), h.frequencies, {}},
          phase = amplitude;
      for (std::size_t f = 0; f < h.frequencies.size(); ++f) {
        const auto u = r.probe_values[f * np * 3 + e];
        amplitude.y.push_back(std::abs(u));
        phase.y.push_back(std::arg(u) * 180 / std::numbers::pi);
        if (std::abs(u) > peak) peak = std::abs(u), at = h.frequencies[f];
      }
      if (!(peak > 1e-3 * overall)) continue;  // a component the loads barely move
      log_ << "harmonic  " << amplitude.label << ": largest amplitude " << peak << " at " << at
           << " Hz\n";
      panels[0].series.push_back(std::move(amplitude));
      panels[1].series.push_back(std::move(phase));
    }
    run_on_root(comm_, [&] {
      write_file_atomically(c().output_directory / "harmonic.csv", csv.str());
      write_file_atomically(c().output_directory / "harmonic.svg",
                            svg_plot(panels, cat("harmonic response of ", c().name)));
    });
    if (!h.fields_at.empty()) write_fields(modes, r);
    log_ << "harmonic  harmonic.csv and harmonic.svg written\n";
  }

 private:
  /// The displacement and the cells' stress (real, imaginary, amplitude) at the chosen
  /// frequencies: <case>_harmonic.pvd, whose time is the frequency.
  void write_fields(const ModalResult* modes, const HarmonicResult& r) {
    const auto& h = c().harmonic;
    OutputSeries series(comm_, c(), system(), std::nullopt, c().name + "_harmonic");
    petsc::Vector real = system().create_vector(), imag = system().create_vector(),
                  amplitude = system().create_vector();
    // The cells' stress from the real and imaginary displacements (linear: the stress of U's
    // parts), and each component's amplitude.
    CellStress stress_real, stress_imag;
    std::vector<double> stress_amplitude, shells_real, shells_imag, shells_amplitude;
    for (double f : h.fields_at) {
      harmonic_field(c(), modes, r, f, real, imag);
      {
        petsc::ConstArray re(real), im(imag);
        petsc::Array a(amplitude);
        for (std::size_t e = 0; e < a.span().size(); ++e)
          a.span()[e] = std::hypot(re.span()[e], im.span()[e]);
      }
      system().assembler().cell_stress(real, stress_real);
      system().assembler().cell_stress(imag, stress_imag);
      stress_amplitude.resize(stress_real.stress.size());
      for (std::size_t e = 0; e < stress_amplitude.size(); ++e)
        stress_amplitude[e] = std::hypot(stress_real.stress[e], stress_imag.stress[e]);
      std::vector<std::pair<std::string, const std::vector<double>*>> cells{
          {"stress_real", &stress_real.stress},
          {"stress_imag", &stress_imag.stress},
          {"stress_amplitude", &stress_amplitude}};
      // Shells: their resultants (linear in U: those of U's parts), and each one's amplitude.
      if (shell_resultant_values(system(), real, shells_real) &&
          shell_resultant_values(system(), imag, shells_imag)) {
        shells_amplitude.resize(shells_real.size());
        for (std::size_t e = 0; e < shells_real.size(); ++e)
          shells_amplitude[e] = std::hypot(shells_real[e], shells_imag[e]);
        cells.push_back({"shell_resultants_real", &shells_real});
        cells.push_back({"shell_resultants_imag", &shells_imag});
        cells.push_back({"shell_resultants_amplitude", &shells_amplitude});
      }
      series.write_fields(f,
                          {{"displacement_real", real.get()},
                           {"displacement_imag", imag.get()},
                           {"displacement_amplitude", amplitude.get()}},
                          cells);
    }
    log_ << "harmonic  " << printable(series.series_path().string()) << " written ("
         << h.fields_at.size()
         << " frequencies: the time in ParaView is the frequency; displacement and the cells' "
            "stress, real, imaginary and amplitude"
         << (shells_real.empty() ? "" : "; the shells' resultants likewise") << ")\n";
  }
};

}  // namespace

void run_harmonic(const AnalysisContext& context, const ModalResult* modes) {
  HarmonicRun(context).run(modes);
}

}  // namespace inertia
