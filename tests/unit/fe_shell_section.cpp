// The shell section law with plane-stress J2 plasticity through the thickness
// (fe/shell_section.hpp): the thickness rules' exactness (Lobatto, Legendre, Simpson), the elastic
// section against its closed form for every rule and offset, the consistent tangent against
// central differences with every hardening law, uniaxial membrane tension against the uniaxial J2
// curve, a strip bent to its elastic limit and towards its plastic moment, a wide plate to the
// plane-strain limits, elastic unloading, the point stresses, plane-stress von Mises yield (equal
// biaxial, pure shear, any direction), the eps_zz iteration on large steps and near
// incompressibility, agreement with Simo and Taylor's plane-stress return map, the energy balance
// along a path, in-plane objectivity, aliasing, bad input, and the cost of a call.
//
// Closed forms used here (E, nu, t, sigma_y; H = H_iso + H_kin for linear hardening).
// - Uniaxial membrane stress (N22 = N12 = 0): sigma = sigma_y + H eps_p, eps_p = e11 - sigma / E,
//   so sigma = (sigma_y + H e11) / (1 + H / E) past e11 = sigma_y / E (the radial return is exact).
// - A strip (N = 0, M22 = M12 = 0) bent by k11: elastic M11 = E t^3 / 12 k11 (anticlastic
//   k22 = -nu k11), first yield at k_y = 2 sigma_y / (E t), M = sigma_y t^2 / 6; as k11 grows
//   (perfect plasticity) every point off the reference surface flows in uniaxial stress and M11
//   tends to sigma_y sum_q w_q |z_q| (the rule's estimate of M_p = sigma_y t^2 / 4).
// - Plane-stress von Mises: s11^2 - s11 s22 + s22^2 + 3 s12^2 = k^2; equal biaxial strain e yields
//   at e = (1 - nu) sigma_y / E, pure shear at s12 = sigma_y / sqrt(3).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/fe/beam_fiber.hpp"
#include "inertia/fe/shell_section.hpp"

namespace inertia::fe {
namespace {

using Rule = ShellLayers::Rule;
constexpr double E = 200e9, nu = 0.3, t = 0.01, sigma_y = 250e6;
constexpr int S = J2State::size;

/// The hardening laws the tests run: linear isotropic, linear kinematic, mixed, perfect, Voce, a
/// yield curve and the Johnson-Cook rate factor (on linear isotropic hardening; with the step's
/// rate, or frozen at a given rate as in an evaluation without time passing).
enum class Law { isotropic, kinematic, mixed, perfect, voce, curve, rate, frozen };
constexpr Law laws[] = {Law::isotropic, Law::kinematic, Law::mixed, Law::perfect,
                        Law::voce,      Law::curve,     Law::rate,  Law::frozen};
const char* law_name(Law l) {
  constexpr const char* names[] = {"isotropic", "kinematic", "mixed",        "perfect",
                                   "Voce",      "curve",     "Johnson-Cook", "Johnson-Cook frozen"};
  return names[static_cast<int>(l)];
}
const std::vector<double> curve_strain{0, 2e-3, 5e-3, 1e-2},
    curve_stress{sigma_y, 2.9e8, 3.2e8, 3.3e8};

ShellLayers section(Law law = Law::perfect, Rule rule = Rule::lobatto, int points = 5,
                    double offset = 0) {
  ShellLayers s;
  s.elastic.thickness = t;
  s.elastic.youngs_modulus = E;
  s.elastic.poissons_ratio = nu;
  s.plastic = true;
  s.rule = rule;
  s.points = points;
  s.elastic.offset = offset;
  J2Parameters& p = s.j2;
  p.yield_stress = sigma_y;
  if (law == Law::isotropic || law == Law::mixed || law == Law::rate || law == Law::frozen)
    p.isotropic_modulus = 0.02 * E;
  if (law == Law::kinematic || law == Law::mixed) p.kinematic_modulus = 0.01 * E;
  if (law == Law::voce) p.isotropic_modulus = 2e9, p.voce_saturation = 1.5e8, p.voce_rate = 30;
  if (law == Law::curve) p.curve_strain = curve_strain, p.curve_stress = curve_stress;
  if (law == Law::rate) p.rate_sensitivity = 0.02, p.reference_rate = 1.0, p.dt = 1e-4;
  if (law == Law::frozen) p.rate_sensitivity = 0.02, p.reference_rate = 1.0, p.frozen_rate = 100;
  return s;
}

/// Every rule kind, and its point counts (first, step): Lobatto 3..15, Legendre 2..15, Simpson
/// 3, 5, .., 15.
constexpr Rule rule_kinds[] = {Rule::lobatto, Rule::legendre, Rule::simpson};
int first_points(Rule r) { return r == Rule::legendre ? 2 : 3; }
int points_step(Rule r) { return r == Rule::simpson ? 2 : 1; }
const char* rule_name(Rule r) {
  return r == Rule::lobatto ? "Lobatto" : r == Rule::legendre ? "Legendre" : "Simpson";
}

/// The section's state: committed and trial.
struct State {
  std::vector<double> committed, trial;
  explicit State(const ShellLayers& s)
      : committed(shell_layers_state_size(s), 0.0), trial(committed) {}
  FiberEnergy update(const ShellLayers& s, const double ek[6], double nm[6], double* D = nullptr) {
    return shell_layers_update(s, ek, committed, trial, nm, D);
  }
  void commit() { committed = trial; }
  /// The largest equivalent plastic strain of the trial state (the committed one after commit).
  double max_alpha() const {
    double a = 0;
    for (std::size_t q = 0; q * S < trial.size(); ++q)
      a = std::max(a, trial[q * S + J2State::equivalent_plastic_strain]);
    return a;
  }
};

/// Solves A x = b (n x n, dense, partial pivoting); b becomes x.
void solve(std::vector<double> A, std::vector<double>& b, int n) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (std::abs(A[i * n + k]) > std::abs(A[p * n + k])) p = i;
    for (int j = 0; j < n; ++j) std::swap(A[k * n + j], A[p * n + j]);
    std::swap(b[k], b[p]);
    for (int i = k + 1; i < n; ++i) {
      const double f = A[i * n + k] / A[k * n + k];
      for (int j = k; j < n; ++j) A[i * n + j] -= f * A[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    for (int j = k + 1; j < n; ++j) b[k] -= A[k * n + j] * b[j];
    b[k] /= A[k * n + k];
  }
}

/// Newton on the free components of ek (the others prescribed) until their resultants vanish
/// (1e-12 of sigma_y t, sigma_y t^2); the trial state holds the result (not committed). Returns
/// the iterations.
int solve_free(const ShellLayers& s, State& st, double ek[6], const std::vector<int>& free,
               double nm[6]) {
  const int n = static_cast<int>(free.size());
  double D[36];
  for (int it = 0; it < 100; ++it) {
    st.update(s, ek, nm, D);
    double worst = 0;
    std::vector<double> r(n), K(n * n);
    for (int a = 0; a < n; ++a) {
      r[a] = -nm[free[a]];
      worst = std::max(worst, std::abs(nm[free[a]]) / (sigma_y * t * (free[a] < 3 ? 1 : t)));
      for (int b = 0; b < n; ++b) K[a * n + b] = D[6 * free[a] + free[b]];
    }
    if (worst < 1e-12) return it;
    solve(K, r, n);
    for (int a = 0; a < n; ++a) ek[free[a]] += r[a];
  }
  ADD_FAILURE() << "solve_free: no convergence";
  return -1;
}

// ---- the rules and the elastic section ----------------------------------------------------------

TEST(ShellSection, ThicknessRulesAreExactToTheirDegreeAndMatchTheBeamsTables) {
  double worst = 0, worst_beam = 0;
  for (const Rule rule : rule_kinds) {
    std::printf("%s: the plastic moment sigma_y sum w |z| / M_p at %d..15 points:", rule_name(rule),
                first_points(rule));
    for (int n = first_points(rule); n <= ShellLayers::max_points; n += points_step(rule)) {
      ShellLayers s = section(Law::perfect, rule, n, 0.1 * t);
      const ShellThicknessPoints r = shell_layers_points(s);
      ASSERT_EQ(r.points, n);
      double moment = 0;
      for (int q = 0; q < n; ++q) moment += r.weight[q] * std::abs(r.z[q] + s.elastic.offset);
      std::printf(" %.4f", moment / (t * t / 4));
      // Simpson's rule (h / 3 [1 4 2 ... 4 1]) integrates a piecewise linear |z| exactly when the
      // mid-surface is a panel's end: 5, 9, 13 points.
      if (rule == Rule::simpson && n % 4 == 1) {
        EXPECT_NEAR(moment / (t * t / 4), 1.0, 1e-14);
      }
      // int over [-t/2 - o, t/2 - o] of z^k, exact up to degree 2n - 1 (Legendre), 2n - 3
      // (Lobatto), 3 (Simpson).
      const int degree = rule == Rule::lobatto ? 2 * n - 3 : rule == Rule::legendre ? 2 * n - 1 : 3;
      const double a = -0.5 * t - s.elastic.offset, b = 0.5 * t - s.elastic.offset;
      for (int k = 0; k <= degree; ++k) {
        double sum = 0;
        for (int q = 0; q < n; ++q) sum += r.weight[q] * std::pow(r.z[q], k);
        const double exact = (std::pow(b, k + 1) - std::pow(a, k + 1)) / (k + 1);
        worst = std::max(
            worst, std::abs(sum - exact) / std::pow(0.5 * t + std::abs(s.elastic.offset), k + 1));
      }
      for (int q = 1; q < n; ++q) EXPECT_GT(r.z[q], r.z[q - 1]);
      if (rule != Rule::simpson && n <= FiberBeamIntegration::max_points) {
        const FiberBeamIntegration beam =
            fiber_beam_integration(rule == Rule::lobatto ? FiberBeamIntegration::Rule::lobatto
                                                         : FiberBeamIntegration::Rule::legendre,
                                   n);
        for (int q = 0; q < n; ++q)
          worst_beam =
              std::max({worst_beam, std::abs((r.z[q] + s.elastic.offset) / t - (beam.xi[q] - 0.5)),
                        std::abs(r.weight[q] / t - beam.weight[q])});
      }
    }
    std::printf("\n");
  }
  std::printf("rules: worst moment error %.2e, worst difference from the beam's tables %.2e\n",
              worst, worst_beam);
  EXPECT_LT(worst, 1e-14);
  EXPECT_LT(worst_beam, 1e-15);
}

TEST(ShellSection, ElasticSectionIsTheClosedFormForEveryRuleAndOffset) {
  const double ek[6] = {4e-4, -2.5e-4, 3e-4, 0.05, -0.03, 0.04};  // below yield everywhere
  double worst = 0;
  for (const double offset : {0.0, 0.25 * t, -0.5 * t, 0.5 * t}) {
    ShellLayers elastic = section();
    elastic.plastic = false;
    elastic.elastic.offset = offset;
    double nm0[6], D0[36];
    const FiberEnergy e0 = shell_layers_update(elastic, ek, {}, {}, nm0, D0);
    // The closed form: with C the plane-stress matrix, A = C t, B = -C t o, D = C (t^3/12 + t o^2).
    const double c = E / (1 - nu * nu), C[9] = {c, c * nu, 0, c * nu, c, 0, 0, 0, c * (1 - nu) / 2};
    const double a[3] = {t, -t * offset, t * t * t / 12 + t * offset * offset};
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j)
        EXPECT_NEAR(D0[6 * i + j], C[3 * (i % 3) + j % 3] * a[(i >= 3) + (j >= 3)],
                    1e-13 * std::abs(D0[6 * (i % 3) + j % 3]) + 1e-300);
    for (const Rule rule : rule_kinds)
      for (int n = first_points(rule); n <= ShellLayers::max_points; n += points_step(rule)) {
        const ShellLayers s = section(Law::mixed, rule, n, offset);
        State st(s);
        double nm[6], D[36];
        const FiberEnergy e = st.update(s, ek, nm, D);
        EXPECT_EQ(st.max_alpha(), 0.0);
        EXPECT_EQ(e.dissipated, 0.0);
        worst = std::max(worst, std::abs(e.stored - e0.stored) / e0.stored);
        for (int i = 0; i < 6; ++i) {
          const double scale_i = std::sqrt(D0[6 * (i % 3) + i % 3] * D0[7 * i]);
          worst = std::max(worst, std::abs(nm[i] - nm0[i]) / std::abs(nm0[i]));
          for (int j = 0; j < 6; ++j)
            worst = std::max(worst, std::abs(D[6 * i + j] - D0[6 * i + j]) /
                                        std::sqrt(D0[7 * i] * D0[7 * j]) * (scale_i > 0));
        }
      }
  }
  std::printf("elastic plastic-section vs closed form: worst relative difference %.2e\n", worst);
  EXPECT_LT(worst, 1e-12);
}

// ---- the consistent tangent ---------------------------------------------------------------------

/// The largest |D - D_fd| / sqrt(De_ii De_jj) (De the elastic section's) at ek from the state.
double tangent_error(const ShellLayers& s, const State& from, const double ek[6], double* dgamma) {
  State st = from, without = from;
  double nm[6], D[36], nm_without[6];
  st.update(s, ek, nm, D);
  *dgamma = st.max_alpha();
  without.update(s, ek, nm_without);  // the explicit path, without the tangent: the same
  for (int i = 0; i < 6; ++i) EXPECT_EQ(nm_without[i], nm[i]);
  EXPECT_EQ(without.trial, st.trial);
  ShellLayers elastic = s;
  elastic.plastic = false;
  double nme[6], De[36];
  shell_layers_update(elastic, ek, {}, {}, nme, De);
  double worst = 0;
  for (int j = 0; j < 6; ++j) {
    const double h = j < 3 ? 1e-8 : 2e-8 / t;
    double e[6], plus[6], minus[6];
    std::copy(ek, ek + 6, e);
    e[j] = ek[j] + h;
    State a = from;
    a.update(s, e, plus);
    e[j] = ek[j] - h;
    State b = from;
    b.update(s, e, minus);
    for (int i = 0; i < 6; ++i)
      worst = std::max(worst, std::abs(D[6 * i + j] - (plus[i] - minus[i]) / (2 * h)) /
                                  std::sqrt(De[7 * i] * De[7 * j]));
  }
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < i; ++j)
      EXPECT_NEAR(D[6 * i + j], D[6 * j + i], 1e-10 * std::sqrt(De[7 * i] * De[7 * j]));
  return worst;
}

TEST(ShellSection, ConsistentTangentMatchesCentralDifferencesWithEveryHardeningLaw) {
  // The states: virgin and elastic; plastic loading from virgin; two committed plastic steps
  // along one direction, then a step that turns (every point that flowed keeps flowing).
  const double dir[6] = {1.5e-3, -0.4e-3, 0.8e-3, 0.3, 0.1, -0.15};
  const double turn[6] = {0.2e-3, 0.3e-3, -0.1e-3, 0.05, -0.08, 0.02};
  for (const Law law : laws)
    for (const auto& [rule, n, offset] :
         {std::tuple{Rule::lobatto, 5, 0.0}, std::tuple{Rule::legendre, 4, 0.2 * t},
          std::tuple{Rule::simpson, 5, -0.1 * t}}) {
      const ShellLayers s = section(law, rule, n, offset);
      State virgin(s);
      double ek[6], alpha, worst[3];
      for (int i = 0; i < 6; ++i) ek[i] = 0.2 * dir[i];
      worst[0] = tangent_error(s, virgin, ek, &alpha);
      EXPECT_EQ(alpha, 0.0) << law_name(law);
      for (int i = 0; i < 6; ++i) ek[i] = 1.3 * dir[i];
      worst[1] = tangent_error(s, virgin, ek, &alpha);
      EXPECT_GT(alpha, 0.0) << law_name(law);
      State path(s);
      double nm[6];
      for (const double f : {1.0, 2.0}) {
        for (int i = 0; i < 6; ++i) ek[i] = f * dir[i];
        path.update(s, ek, nm);
        path.commit();
      }
      for (int i = 0; i < 6; ++i) ek[i] = 2.6 * dir[i] + turn[i];
      worst[2] = tangent_error(s, path, ek, &alpha);
      EXPECT_GT(alpha, path.max_alpha()) << law_name(law);
      std::printf(
          "tangent vs central differences, %s, %s %d, offset %g t: elastic %.1e, "
          "plastic from virgin %.1e, after a path %.1e\n",
          law_name(law), rule_name(rule), n, offset / t, worst[0], worst[1], worst[2]);
      for (const double w : worst) EXPECT_LT(w, 1e-6) << law_name(law);
    }
}

// ---- uniaxial membrane tension and unloading ----------------------------------------------------

TEST(ShellSection, UniaxialMembraneTensionFollowsTheUniaxialJ2CurveAndUnloadsElastically) {
  const double eps_y = sigma_y / E;
  for (const Law law : {Law::isotropic, Law::kinematic, Law::mixed, Law::voce, Law::curve,
                        Law::rate, Law::frozen}) {
    const ShellLayers s = section(law);
    const J2Parameters& p = s.j2;
    const double H = p.isotropic_modulus + p.kinematic_modulus;
    State st(s);
    double ek[6] = {0, 0, 0, 0, 0, 0}, nm[6], worst = 0, worst_strain = 0, alpha_n = 0;
    for (int step = 1; step <= 40; ++step) {
      ek[0] = 0.25 * step * eps_y;  // to 10 eps_y
      solve_free(s, st, ek, {1, 2}, nm);
      st.commit();
      const double sigma = nm[0] / t, alpha = st.committed[J2State::equivalent_plastic_strain];
      double expected;
      if (law == Law::isotropic || law == Law::kinematic || law == Law::mixed) {
        expected = ek[0] <= eps_y ? E * ek[0] : (sigma_y + H * ek[0]) / (1 + H / E);
      } else {  // k(alpha) R + H_kin alpha, R the Johnson-Cook factor of the step's rate
        double k, slope;
        j2_yield_stress(p, alpha, k, slope);
        const double rate = law == Law::frozen ? p.frozen_rate : (alpha - alpha_n) / p.dt;
        const double R = (law == Law::rate || law == Law::frozen) && rate > p.reference_rate
                             ? 1 + p.rate_sensitivity * std::log(rate / p.reference_rate)
                             : 1.0;
        expected = alpha > 0 ? k * R : E * ek[0];
      }
      alpha_n = alpha;
      worst = std::max(worst, std::abs(sigma - expected) / expected);
      // Uniaxial flow: eps_p,11 = alpha, e11 = sigma / E + alpha, e22 = -nu sigma / E - alpha / 2.
      worst_strain = std::max({worst_strain, std::abs(st.committed[0] - alpha) / ek[0],
                               std::abs(ek[0] - sigma / E - alpha) / ek[0],
                               std::abs(ek[1] + nu * sigma / E + 0.5 * alpha) / ek[0]});
    }
    // Unloading by 1.5 eps_y (within the elastic range 2 sigma_y) is elastic: dN11 = E t de11.
    const double n_top = nm[0], alpha_top = st.max_alpha(), e_top = ek[0];
    double worst_unload = 0;
    for (int step = 1; step <= 3; ++step) {
      ek[0] = e_top - 0.5 * step * eps_y;
      solve_free(s, st, ek, {1, 2}, nm);
      st.commit();
      worst_unload = std::max(worst_unload, std::abs(nm[0] - n_top - E * t * (ek[0] - e_top)) /
                                                (E * t * (e_top - ek[0])));
      EXPECT_EQ(st.max_alpha(), alpha_top) << law_name(law);
    }
    std::printf(
        "uniaxial membrane, %s: stress vs the uniaxial curve %.1e, strains %.1e, "
        "unloading vs E %.1e (N11 / t at 10 eps_y: %.4g MPa)\n",
        law_name(law), worst, worst_strain, worst_unload, n_top / t * 1e-6);
    EXPECT_LT(worst, 1e-12) << law_name(law);
    EXPECT_LT(worst_strain, 1e-11) << law_name(law);
    EXPECT_LT(worst_unload, 1e-11) << law_name(law);
  }
}

// ---- a strip in bending -------------------------------------------------------------------------

TEST(ShellSection, StripBendingReachesTheElasticLimitAndTendsToTheRulesPlasticMoment) {
  const double k_y = 2 * sigma_y / (E * t), M_e = sigma_y * t * t / 6, M_p = sigma_y * t * t / 4;
  const std::vector<int> free{0, 1, 2, 4, 5};  // N = 0, M22 = M12 = 0; k11 prescribed
  for (const auto& [rule, n] : {std::pair{Rule::lobatto, 5}, std::pair{Rule::lobatto, 7},
                                std::pair{Rule::lobatto, 9}, std::pair{Rule::simpson, 5}}) {
    const ShellLayers s = section(Law::perfect, rule, n);
    const ShellThicknessPoints r = shell_layers_points(s);
    double M_rule = 0;  // the rule's plastic moment, sigma_y sum w |z|
    for (int q = 0; q < n; ++q) M_rule += sigma_y * r.weight[q] * std::abs(r.z[q]);
    State st(s);
    double ek[6] = {0, 0, 0, 0, 0, 0}, nm[6];
    // Elastic to first yield: M = E t^3 / 12 k (the anticlastic strip), sigma_y t^2 / 6 at k_y.
    ek[3] = 0.999 * k_y;
    solve_free(s, st, ek, free, nm);
    EXPECT_EQ(st.trial[J2State::equivalent_plastic_strain], 0.0);
    EXPECT_NEAR(nm[3], 0.999 * M_e, 1e-12 * M_e);
    EXPECT_NEAR(ek[4], -nu * ek[3], 1e-12 * k_y);
    ek[3] = k_y;
    solve_free(s, st, ek, free, nm);
    const double at_yield = nm[3] / M_e;
    EXPECT_NEAR(at_yield, 1.0, 1e-12);
    ek[3] = 1.001 * k_y;  // the outer points (Lobatto samples the faces) flow
    solve_free(s, st, ek, free, nm);
    EXPECT_GT(st.trial[J2State::equivalent_plastic_strain], 0.0);
    // Loading in steps of 5 % to 1000 k_y.
    std::printf("strip, %s %d: M / M_e at k_y %.15f; M / M_p at k / k_y =", rule_name(rule), n,
                at_yield);
    double k = k_y, M_top = 0;
    for (int step = 0; k < 1000 * k_y; ++step) {
      k = k_y * std::pow(1.05, step);
      ek[3] = k;
      solve_free(s, st, ek, free, nm);
      st.commit();
      for (const double mark : {2.0, 5.0, 10.0, 100.0})
        if (k >= mark * k_y && k / 1.05 < mark * k_y)
          std::printf(" %g: %.4f", k / k_y, nm[3] / M_p);
      EXPECT_LT(nm[3], 1.0001 * M_rule);
      M_top = nm[3];
    }
    std::printf(" %g: %.5f; the rule's limit sigma_y sum w|z| = %.5f M_p\n", k / k_y, M_top / M_p,
                M_rule / M_p);
    EXPECT_NEAR(M_top / M_rule, 1.0, 1e-4);
    // Unloading by 1.5 k_y is elastic: dM = E t^3 / 12 dk, no point flows.
    const double alpha_top = st.max_alpha(), k_top = ek[3];
    for (int step = 1; step <= 3; ++step) {
      ek[3] = k_top - 0.5 * step * k_y;
      solve_free(s, st, ek, free, nm);
      st.commit();
      EXPECT_NEAR(nm[3] - M_top, E * t * t * t / 12 * (ek[3] - k_top), 1e-10 * M_e);
      EXPECT_EQ(st.max_alpha(), alpha_top);
    }
  }
}

TEST(ShellSection, WidePlateInCylindricalBendingReachesThePlaneStrainLimits) {
  // e22 = k22 = 0 (a wide plate), N11 = N12 = M12 = 0 solved, perfect plasticity. Elastic
  // M = E t^3 / (12 (1 - nu^2)) k with s22 = nu s11: first yield at s11 = sigma_y / sqrt(1 - nu +
  // nu^2); at collapse s22 = s11 / 2, s11 = 2 sigma_y / sqrt(3): M -> 2 / sqrt(3) sigma_y sum w|z|.
  const double root = std::sqrt(1 - nu + nu * nu);
  const double k_y = 2 * sigma_y * (1 - nu * nu) / (E * t * root);
  const double M_e = sigma_y * t * t / (6 * root);
  const ShellLayers s = section(Law::perfect, Rule::lobatto, 7);
  const ShellThicknessPoints r = shell_layers_points(s);
  double M_rule = 0;
  for (int q = 0; q < r.points; ++q)
    M_rule += 2 / std::sqrt(3.0) * sigma_y * r.weight[q] * std::abs(r.z[q]);
  State st(s);
  double ek[6] = {0, 0, 0, 0, 0, 0}, nm[6];
  const std::vector<int> free{0, 2, 5};
  ek[3] = 0.999 * k_y;
  solve_free(s, st, ek, free, nm);
  EXPECT_EQ(st.max_alpha(), 0.0);
  EXPECT_NEAR(nm[3] / M_e, 0.999, 1e-12);
  EXPECT_NEAR(nm[4] / nm[3], nu, 1e-12);
  ek[3] = 1.001 * k_y;
  solve_free(s, st, ek, free, nm);
  EXPECT_GT(st.max_alpha(), 0.0);
  for (int step = 1; step <= 100; ++step) {
    ek[3] = k_y * std::pow(1.1, step);  // to 13800 k_y
    solve_free(s, st, ek, free, nm);
    st.commit();
  }
  std::printf(
      "wide plate, Lobatto 7: M11 / (2 / sqrt(3) sigma_y sum w|z|) at %.0f k_y: %.8f, "
      "M22 / M11 %.6f (1/2 at collapse)\n",
      ek[3] / k_y, nm[3] / M_rule, nm[4] / nm[3]);
  EXPECT_NEAR(nm[3] / M_rule, 1.0, 1e-5);
  EXPECT_NEAR(nm[4] / nm[3], 0.5, 1e-5);
}

TEST(ShellSection, TrialMayAliasCommitted) {
  const ShellLayers s = section(Law::voce, Rule::legendre, 6, -0.3 * t);
  const double ek1[6] = {1.5e-3, -0.4e-3, 0.8e-3, 0.3, 0.1, -0.15};
  const double ek2[6] = {2.5e-3, -0.2e-3, 0.9e-3, 0.5, 0.05, -0.25};
  State separate(s);
  std::vector<double> one(shell_layers_state_size(s), 0.0);
  double nm[6], nm_alias[6], D[36], D_alias[36];
  for (const double* ek : {ek1, ek2}) {
    const FiberEnergy a = separate.update(s, ek, nm, D);
    separate.commit();
    const FiberEnergy b = shell_layers_update(s, ek, one, one, nm_alias, D_alias);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(nm_alias[i], nm[i]);
    for (int i = 0; i < 36; ++i) EXPECT_EQ(D_alias[i], D[i]);
    EXPECT_EQ(a.stored, b.stored);
    EXPECT_EQ(a.dissipated, b.dissipated);
    EXPECT_EQ(one, separate.committed);
  }
  EXPECT_GT(separate.max_alpha(), 0.0);
}

TEST(ShellSection, PointStressesIntegrateToTheResultants) {
  // Along a path (plastic, turning), the stresses at the points from the updated state integrate
  // to the update's resultants; every rule kind, an offset, an elastic section.
  const double dir[6] = {1.5e-3, -0.4e-3, 0.8e-3, 0.3, 0.1, -0.15};
  const double bend[6] = {0.2e-3, 0.3e-3, -0.1e-3, 0.05, -0.08, 0.02};
  double worst = 0;
  for (const auto& [law, rule, n, offset, plastic] :
       {std::tuple{Law::mixed, Rule::lobatto, 5, 0.0, true},
        std::tuple{Law::perfect, Rule::legendre, 4, 0.3 * t, true},
        std::tuple{Law::voce, Rule::lobatto, 9, -0.1 * t, true},
        std::tuple{Law::mixed, Rule::lobatto, 3, 0.2 * t, false}}) {
    ShellLayers s = section(law, rule, n, offset);
    s.plastic = plastic;
    State st(s);
    const ShellThicknessPoints r = shell_layers_points(s);
    for (int step = 1; step <= 5; ++step) {
      double ek[6], nm[6], sigma[3 * ShellLayers::max_points];
      for (int k = 0; k < 6; ++k)
        ek[k] = std::min(step, 3) * dir[k] + std::max(0, step - 3) * bend[k];
      st.update(s, ek, nm);
      st.commit();
      shell_layers_stresses(s, ek, st.committed, sigma);
      double sum[6] = {0, 0, 0, 0, 0, 0};
      for (int q = 0; q < n; ++q)
        for (int i = 0; i < 3; ++i) {
          sum[i] += r.weight[q] * sigma[3 * q + i];
          sum[3 + i] += r.weight[q] * r.z[q] * sigma[3 * q + i];
        }
      for (int i = 0; i < 6; ++i)
        worst = std::max(worst, std::abs(sum[i] - nm[i]) / (sigma_y * t * (i < 3 ? 1 : t)));
    }
    EXPECT_EQ(st.max_alpha() > 0, plastic);
  }
  std::printf("point stresses integrated vs the resultants: worst %.1e (of sigma_y t, t^2)\n",
              worst);
  EXPECT_LT(worst, 1e-12);
}

// ---- plane-stress von Mises ---------------------------------------------------------------------

TEST(ShellSection, YieldFollowsPlaneStressVonMises) {
  const ShellLayers s = section(Law::perfect);
  const double G = E / (2 * (1 + nu)), e_b = (1 - nu) * sigma_y / E;
  double nm[6];
  // Equal biaxial: elastic N / t = E e / (1 - nu) to e_b, then sigma_y in both directions.
  for (const double f : {0.999, 1.001, 5.0}) {
    State st(s);
    const double ek[6] = {f * e_b, f * e_b, 0, 0, 0, 0};
    st.update(s, ek, nm);
    EXPECT_EQ(st.max_alpha() > 0, f > 1);
    const double expected = f < 1 ? E * f * e_b / (1 - nu) : sigma_y;
    if (f != 1.001) {
      EXPECT_NEAR(nm[0] / t, expected, 1e-12 * sigma_y);
    }
    EXPECT_NEAR(nm[1], nm[0], 1e-12 * sigma_y * t);
    EXPECT_NEAR(nm[2], 0, 1e-12 * sigma_y * t);
  }
  // Pure shear yields at sigma_y / sqrt(3).
  for (const double f : {0.999, 3.0}) {
    State st(s);
    const double g_y = sigma_y / (std::sqrt(3.0) * G), ek[6] = {0, 0, f * g_y, 0, 0, 0};
    st.update(s, ek, nm);
    EXPECT_EQ(st.max_alpha() > 0, f > 1);
    EXPECT_NEAR(nm[2] / t, std::min(f, 1.0) * sigma_y / std::sqrt(3.0), 1e-12 * sigma_y);
  }
  // Any plane-stress direction: the point's stress on the yield surface (perfect plasticity and
  // linear isotropic hardening, k = sigma_y + H alpha), sigma_zz = 0.
  double worst = 0;
  for (const Law law : {Law::perfect, Law::isotropic, Law::kinematic})
    for (int a = 0; a < 12; ++a)
      for (int b = -2; b <= 2; ++b) {
        J2Parameters p = section(law).j2;
        p.lame = {E * nu / ((1 + nu) * (1 - 2 * nu)), G};
        const double th = 0.5236 * a + 0.1, ph = 0.5 * b;
        const double e[3] = {5 * sigma_y / E * std::cos(th) * std::cos(ph),
                             5 * sigma_y / E * std::sin(th) * std::cos(ph),
                             10 * sigma_y / E * std::sin(ph)};
        double c[S] = {}, tr[S], sg[3];
        plane_stress_j2_update(p, e, c, tr, sg, nullptr);
        const double* beta = tr + J2State::back_stress;  // plane stress: beta_zz = -beta11 - beta22
        const double x11 = sg[0] - (beta[0] - beta[2]), x22 = sg[1] - (beta[1] - beta[2]),
                     x12 = sg[2] - beta[3];
        const double k = sigma_y + p.isotropic_modulus * tr[J2State::equivalent_plastic_strain];
        const double eq = std::sqrt(x11 * x11 - x11 * x22 + x22 * x22 + 3 * x12 * x12);
        EXPECT_GT(tr[J2State::equivalent_plastic_strain], 0.0);
        worst = std::max(worst, std::abs(eq - k) / k);
      }
  std::printf("plane-stress von Mises: worst |sigma_eq - k| / k over 180 directions %.1e\n", worst);
  EXPECT_LT(worst, 1e-12);
}

TEST(ShellSection, PlaneStressIterationConvergesOnLargeStepsAndNearIncompressibility) {
  // Random steps of up to 5 % strain (250 yield strains) from random committed states, every law,
  // nu = 0.3 and 0.49: the returned eps_zz makes sigma_zz vanish, with the state's plastic strain.
  unsigned seed = 12345;
  const auto uniform = [&seed] {  // in [-1, 1)
    seed = seed * 1664525u + 1013904223u;
    return static_cast<double>(seed >> 8) / (1u << 23) - 1.0;
  };
  double worst = 0;
  int flowed = 0, samples = 0;
  for (const double poisson : {0.3, 0.49})
    for (const Law law : laws) {
      J2Parameters p = section(law).j2;
      p.lame = {E * poisson / ((1 + poisson) * (1 - 2 * poisson)), E / (2 * (1 + poisson))};
      for (int sample = 0; sample < 40; ++sample) {
        double c[S] = {}, tr[S], sigma[3], C[9], e[3];
        for (int step = 0; step < 4; ++step) {
          const double size = step == 3 ? 0.05 : 0.002;
          for (double& v : e) v = size * uniform();
          double dgamma;
          const double ez = plane_stress_j2_update(p, e, c, tr, sigma, C, &dgamma);
          const double szz = p.lame.lambda * (e[0] + e[1] + ez) +
                             2 * p.lame.mu * (ez - tr[J2State::plastic_strain + 2]);
          worst = std::max(worst, std::abs(szz) / (std::abs(sigma[0]) + std::abs(sigma[1]) +
                                                   std::abs(sigma[2])));
          flowed += dgamma > 0;
          ++samples;
          std::copy(tr, tr + S, c);
        }
      }
    }
  std::printf(
      "plane-stress iteration: worst |sigma_zz| / |sigma| %.1e over %d steps (%d plastic)\n", worst,
      samples, flowed);
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(flowed, samples / 2);
}

/// Simo and Taylor's plane-stress return map (Simo and Hughes 1998, sec. 3.4) for linear
/// isotropic hardening, written here independently: with P = 1/3 [2 -1 0; -1 2 0; 0 0 6]
/// (sigma^T P sigma = |dev sigma|^2, engineering shear), the backward-Euler equations
///   (I + dg C P) sigma = C (e - ep_n),  1/2 sigma^T P sigma = 1/3 (sigma_y + H alpha)^2,
///   alpha = alpha_n + dg sqrt(2/3 sigma^T P sigma),  ep = ep_n + dg P sigma,
/// solved for dg by bisection. ep (3, engineering shear) and alpha are updated in place.
void simo_taylor(double H, const double e[3], double ep[3], double& alpha, double sigma[3]) {
  const double c = E / (1 - nu * nu), C[9] = {c, c * nu, 0, c * nu, c, 0, 0, 0, c * (1 - nu) / 2};
  const double P[9] = {2.0 / 3, -1.0 / 3, 0, -1.0 / 3, 2.0 / 3, 0, 0, 0, 2};
  double trial[3];
  for (int i = 0; i < 3; ++i) {
    trial[i] = 0;
    for (int j = 0; j < 3; ++j) trial[i] += C[3 * i + j] * (e[j] - ep[j]);
  }
  const auto at = [&](double dg, double* sg, double& f) {  // sigma(dg) and the yield function
    std::vector<double> A(9), b(trial, trial + 3);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double cp = 0;
        for (int k = 0; k < 3; ++k) cp += C[3 * i + k] * P[3 * k + j];
        A[3 * i + j] = (i == j) + dg * cp;
      }
    solve(A, b, 3);
    double sps = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) sps += b[i] * P[3 * i + j] * b[j];
    const double k = sigma_y + H * (alpha + dg * std::sqrt(2.0 / 3.0 * sps));
    f = 0.5 * sps - k * k / 3;
    std::copy(b.begin(), b.end(), sg);
  };
  double f;
  at(0, sigma, f);
  if (f <= 0) return;
  double lo = 0, hi = 1e-12;
  for (at(hi, sigma, f); f > 0; at(hi, sigma, f)) lo = hi, hi *= 2;
  for (int it = 0; it < 200 && hi - lo > 1e-17 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    at(mid, sigma, f);
    (f > 0 ? lo : hi) = mid;
  }
  const double dg = 0.5 * (lo + hi);
  at(dg, sigma, f);
  double sps = 0, Ps[3];
  for (int i = 0; i < 3; ++i) {
    Ps[i] = 0;
    for (int j = 0; j < 3; ++j) Ps[i] += P[3 * i + j] * sigma[j];
    sps += sigma[i] * Ps[i];
  }
  alpha += dg * std::sqrt(2.0 / 3.0 * sps);
  for (int i = 0; i < 3; ++i) ep[i] += dg * Ps[i];
}

TEST(ShellSection, PointAgreesWithSimoAndTaylorsPlaneStressReturnMap) {
  // Random non-proportional paths of six steps (up to 10 yield strains a component), perfect and
  // linear isotropic hardening: the stress, plastic strain and alpha of both algorithms.
  unsigned seed = 2024;
  const auto uniform = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<double>(seed >> 8) / (1u << 23) - 1.0;
  };
  double worst = 0;
  for (const Law law : {Law::perfect, Law::isotropic}) {
    J2Parameters p = section(law).j2;
    p.lame = {E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))};
    for (int path = 0; path < 20; ++path) {
      double c[S] = {}, ep[3] = {0, 0, 0}, alpha = 0;
      for (int step = 0; step < 6; ++step) {
        double e[3], sg[3], st[3];
        for (double& v : e) v = 10 * sigma_y / E * uniform();
        plane_stress_j2_update(p, e, c, c, sg, nullptr);
        simo_taylor(p.isotropic_modulus, e, ep, alpha, st);
        for (int i = 0; i < 3; ++i) worst = std::max(worst, std::abs(sg[i] - st[i]) / sigma_y);
        worst = std::max({worst, std::abs(c[0] - ep[0]) * E / sigma_y,
                          std::abs(c[1] - ep[1]) * E / sigma_y,
                          std::abs(2 * c[3] - ep[2]) * E / sigma_y,
                          std::abs(c[J2State::equivalent_plastic_strain] - alpha) * E / sigma_y});
      }
      EXPECT_GT(alpha, 0.0);
    }
  }
  std::printf(
      "against Simo and Taylor's plane-stress return map: worst difference %.1e (of "
      "sigma_y, eps_y)\n",
      worst);
  EXPECT_LT(worst, 1e-10);
}

// ---- energy -------------------------------------------------------------------------------------

/// Along 0 -> P1 -> P2 -> P3 -> 0 in n increments per leg (plastic loading, a turn, reversal and
/// back), the trapezoidal work sum 1/2 (nm_i + nm_i+1) . (ek_i+1 - ek_i) against the stored energy
/// at the end plus the dissipation: returns |W - psi - D| / D.
double energy_error(const ShellLayers& s, int n, double* dissipated) {
  const double P[5][6] = {{0, 0, 0, 0, 0, 0},
                          {4.5e-3, -1.2e-3, 2.4e-3, 0.9, 0.3, -0.45},
                          {5.5e-3, 0.3e-3, 1.9e-3, 1.15, -0.1, -0.35},
                          {-3e-3, 0.8e-3, -1.6e-3, -0.6, -0.2, 0.3},
                          {0, 0, 0, 0, 0, 0}};
  State st(s);
  double prev[6] = {0, 0, 0, 0, 0, 0}, ek_prev[6] = {0, 0, 0, 0, 0, 0}, nm[6];
  double work = 0, dissipation = 0, stored = 0;
  for (int leg = 0; leg < 4; ++leg)
    for (int i = 1; i <= n; ++i) {
      double ek[6];
      for (int k = 0; k < 6; ++k) ek[k] = P[leg][k] + (P[leg + 1][k] - P[leg][k]) * i / n;
      const FiberEnergy e = st.update(s, ek, nm);
      st.commit();
      for (int k = 0; k < 6; ++k) work += 0.5 * (prev[k] + nm[k]) * (ek[k] - ek_prev[k]);
      std::copy(nm, nm + 6, prev);
      std::copy(ek, ek + 6, ek_prev);
      dissipation += e.dissipated;
      stored = e.stored;
    }
  *dissipated = dissipation;
  return std::abs(work - stored - dissipation) / dissipation;
}

TEST(ShellSection, StoredPlusDissipatedEnergyEqualsTheWorkAlongAPath) {
  for (const Law law : laws) {
    const ShellLayers s = section(law);
    double errors[4], dissipated = 0;
    const int steps[4] = {25, 50, 100, 200};
    for (int i = 0; i < 4; ++i) errors[i] = energy_error(s, steps[i], &dissipated);
    std::printf(
        "energy, %s: |W - psi - D| / D at 25, 50, 100, 200 steps a leg: %.1e %.1e %.1e "
        "%.1e (D = %.4g J/m^2)\n",
        law_name(law), errors[0], errors[1], errors[2], errors[3], dissipated);
    EXPECT_GT(dissipated, 0.0);
    EXPECT_LT(errors[3], 2e-4) << law_name(law);
    // Converges: about second order (1/16 over two halvings; the frozen rate factor, whose
    // dissipation j2_dissipation sums as (R - 1) k(alpha_n+1) d alpha, 1/10).
    EXPECT_LT(errors[3], 0.15 * errors[1]) << law_name(law);
  }
}

// ---- the rate factor with the state's own time (the force terms' sections) -------------------

TEST(ShellSection, RateHistoryTakesTheStepFromThePointsTimeAndFreezesWithoutTimePassing) {
  // Perfectly plastic, C 0.05, reference rate 0.01 / s: a membrane pulled at 10 / s in steps of
  // 1e-4 s (the free strains solved for N22 = N12 = 0). The step is the time from each point's
  // state to j2.time (no j2.dt given): once flowing, sigma = sigma_y (1 + C ln(rate / rate_0))
  // with the rate of alpha over the step, which the state keeps, and tends to the pulling rate
  // (R = 1.345). An evaluation again at the committed time is the committed state's own return
  // (its rate frozen); the state's dissipation is the sum of sigma_y R d alpha.
  ShellLayers s = section(Law::perfect);
  s.rate_history = true;
  s.j2.rate_sensitivity = 0.05, s.j2.reference_rate = 0.01;
  ASSERT_EQ(shell_layers_state_size(s), s.points * ShellRateState::size);
  const double dt = 1e-4, rate = 10, C = 0.05;
  State st(s);
  double ek[6] = {0, 0, 0, 0, 0, 0}, nm[6], worst = 0, dissipation = 0, alpha_n = 0;
  double last_rate = 0;
  for (int step = 1; step <= 60; ++step) {
    ek[0] = rate * dt * step;
    s.j2.time = dt * step;
    solve_free(s, st, ek, {1, 2}, nm);
    st.commit();
    const double* c = st.committed.data();  // the bottom point (a membrane: all alike)
    const double alpha = c[J2State::equivalent_plastic_strain];
    EXPECT_EQ(c[ShellRateState::time], s.j2.time);
    EXPECT_NEAR(c[ShellRateState::rate], (alpha - alpha_n) / dt, 1e-9 * rate);
    if (alpha - alpha_n > 0) {
      // The plane-stress Mises stress of the membrane (N22 = 0, N12 = 0: uniaxial).
      const double R = std::max(1.0, 1 + C * std::log((alpha - alpha_n) / dt / 0.01));
      worst = std::max(worst, std::abs(nm[0] / t - sigma_y * R) / sigma_y);
      dissipation += sigma_y * R * (alpha - alpha_n);
      EXPECT_NEAR(c[ShellRateState::dissipation], dissipation, 1e-9 * dissipation);
    }
    last_rate = (alpha - alpha_n) / dt;
    alpha_n = alpha;
  }
  std::printf("rate history: stress against sigma_y R(step's rate) %.1e; last rate %.6g / s\n",
              worst, last_rate);
  EXPECT_LT(worst, 1e-9);
  EXPECT_NEAR(last_rate, rate, 1e-6 * rate);
  EXPECT_NEAR(nm[0] / t, sigma_y * (1 + C * std::log(rate / 0.01)), 1e-6 * sigma_y);
  // Again at the committed time: the same resultants, the same state.
  double again[6];
  State frozen = st;
  frozen.update(s, ek, again);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(again[i], nm[i], 1e-9 * sigma_y * t) << i;
  for (std::size_t k = 0; k < st.committed.size(); ++k)
    EXPECT_NEAR(frozen.trial[k], st.committed[k], 1e-12 * (1 + std::abs(st.committed[k]))) << k;
  // Without the history (the caller's j2.dt, rate-free here): the state is the J2 state alone.
  ShellLayers plain = s;
  plain.rate_history = false;
  EXPECT_EQ(shell_layers_state_size(plain), s.points * J2State::size);
}

// ---- objectivity in the plane -------------------------------------------------------------------

/// Tensor components [a11, a22, a12] in axes turned by angle th.
std::array<double, 3> turn(const double a[3], double th) {
  const double c = std::cos(th), s = std::sin(th);
  return {c * c * a[0] + s * s * a[1] + 2 * c * s * a[2],
          s * s * a[0] + c * c * a[1] - 2 * c * s * a[2],
          -c * s * a[0] + c * s * a[1] + (c * c - s * s) * a[2]};
}

/// ek (engineering shear and twist) or nm (tensor components) in turned axes.
void turn6(const double v[6], double th, bool engineering, double out[6]) {
  for (int b = 0; b < 2; ++b) {
    const double f = engineering ? 0.5 : 1.0;
    const double a[3] = {v[3 * b], v[3 * b + 1], f * v[3 * b + 2]};
    const auto r = turn(a, th);
    out[3 * b] = r[0], out[3 * b + 1] = r[1], out[3 * b + 2] = r[2] / f;
  }
}

TEST(ShellSection, TurningTheStrainsInThePlaneTurnsTheResultants) {
  const double dir[6] = {1.5e-3, -0.4e-3, 0.8e-3, 0.3, 0.1, -0.15};
  const double bend[6] = {0.2e-3, 0.3e-3, -0.1e-3, 0.05, -0.08, 0.02};
  for (const Law law : {Law::mixed, Law::voce}) {
    const ShellLayers s = section(law, Rule::lobatto, 5, 0.1 * t);
    double worst = 0, worst_energy = 0, worst_tangent = 0, alpha = 0;
    for (const double th : {0.7, -2.1}) {
      State a(s), b(s);
      for (int step = 1; step <= 6; ++step) {
        double ek[6], ekr[6], nm[6], nmr[6], nm_turned[6], D[36], Dr[36];
        for (int k = 0; k < 6; ++k)
          ek[k] = std::min(step, 3) * dir[k] + std::max(0, step - 3) * bend[k];
        turn6(ek, th, true, ekr);
        const FiberEnergy ea = a.update(s, ek, nm, D), eb = b.update(s, ekr, nmr, Dr);
        a.commit(), b.commit();
        turn6(nm, th, false, nm_turned);
        for (int k = 0; k < 6; ++k)
          worst =
              std::max(worst, std::abs(nmr[k] - nm_turned[k]) / (sigma_y * t * (k < 3 ? 1 : t)));
        worst_energy = std::max({worst_energy, std::abs(ea.stored - eb.stored) / ea.stored,
                                 std::abs(ea.dissipated - eb.dissipated) / (ea.stored)});
        // The tangent turns too: Dr (turned v) = turned (D v).
        for (const double* v : {dir, bend}) {
          double vr[6], Dv[6], Dv_turned[6], Drvr[6];
          turn6(v, th, true, vr);
          for (int i = 0; i < 6; ++i) {
            Dv[i] = Drvr[i] = 0;
            for (int j = 0; j < 6; ++j)
              Dv[i] += D[6 * i + j] * v[j], Drvr[i] += Dr[6 * i + j] * vr[j];
          }
          turn6(Dv, th, false, Dv_turned);
          for (int i = 0; i < 6; ++i)
            worst_tangent = std::max(
                worst_tangent, std::abs(Drvr[i] - Dv_turned[i]) / (E * t * 1e-3 * (i < 3 ? 1 : t)));
        }
      }
      alpha = a.max_alpha();
    }
    std::printf("objectivity, %s: resultants %.1e, energies %.1e, tangent %.1e\n", law_name(law),
                worst, worst_energy, worst_tangent);
    EXPECT_GT(alpha, 0.0);
    EXPECT_LT(worst, 1e-11);
    EXPECT_LT(worst_energy, 1e-11);
    EXPECT_LT(worst_tangent, 1e-9);
  }
}

// ---- bad input and the cost ---------------------------------------------------------------------

TEST(ShellSection, BadSectionsAreRefused) {
  const double ek[6] = {1e-3, 0, 0, 0, 0, 0};
  double nm[6];
  const auto refused = [&](ShellLayers s) {
    std::vector<double> state(S * ShellLayers::max_points * 2, 0.0);
    EXPECT_THROW(shell_layers_update(s, ek, state, state, nm, nullptr), InputError);
  };
  ShellLayers s = section();
  s.points = 2;  // Lobatto needs 3
  refused(s);
  s.points = 16;
  refused(s);
  s.rule = Rule::simpson;
  s.points = 4;  // Simpson takes odd counts
  refused(s);
  s.rule = Rule::legendre;
  s.points = 1;
  refused(s);
  s = section();
  s.j2.yield_stress = 0;
  refused(s);
  s = section();
  s.j2.voce_saturation = 1e8;  // no rate
  refused(s);
  s = section();
  s.j2.rate_sensitivity = 0.02;  // no reference rate
  refused(s);
  s = section();
  s.elastic.offset = std::nan("");  // any finite offset is a section (a stiffener's axis below)
  refused(s);
  s = section(Law::curve);
  s.j2.curve_stress = s.j2.curve_stress.first(3);  // one stress short
  refused(s);
  s = section();
  s.elastic.poissons_ratio = 0.5;
  refused(s);
  s = section();
  s.rule = Rule::legendre;
  s.points = 2;
  EXPECT_NO_THROW(shell_layers_points(s));
  std::vector<double> short_state(S * 4, 0.0);
  s = section();  // 5 points need 65 doubles
  EXPECT_THROW(shell_layers_update(s, ek, short_state, short_state, nm, nullptr), InternalError);
}

TEST(ShellSection, CostOfACall) {
  // Not asserted: the time of a plastic 5-point call with its tangent, from a committed plastic
  // state on a step that flows at every point but the middle one.
  const ShellLayers s = section(Law::mixed);
  State st(s);
  const double dir[6] = {1.5e-3, -0.4e-3, 0.8e-3, 0.3, 0.1, -0.15};
  double nm[6], D[36], ek[6];
  for (int k = 0; k < 6; ++k) ek[k] = 2 * dir[k];
  st.update(s, ek, nm, D);
  st.commit();
  for (int k = 0; k < 6; ++k) ek[k] = 2.2 * dir[k];
  const int calls = 20000;
  double sum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {
    ek[0] = 2.2 * dir[0] * (1 + 1e-9 * (i % 7));
    st.update(s, ek, nm, D);
    sum += nm[0];
  }
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  const auto start_f = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {  // without the tangent (explicit)
    ek[0] = 2.2 * dir[0] * (1 + 1e-9 * (i % 7));
    st.update(s, ek, nm);
    sum += nm[0];
  }
  const double us_f =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_f).count();
  ShellLayers elastic = s;
  elastic.plastic = false;
  const auto start_e = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {
    ek[0] = 2.2 * dir[0] * (1 + 1e-9 * (i % 7));
    shell_layers_update(elastic, ek, {}, {}, nm, D);
    sum += nm[0];
  }
  const double us_e =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_e).count();
  std::printf(
      "cost: plastic 5-point section with its tangent %.2f us a call, without %.2f us, elastic "
      "%.3f us (checksum %.3g)\n",
      us / calls, us_f / calls, us_e / calls, sum);
  EXPECT_GT(st.trial[4 * S + J2State::equivalent_plastic_strain],
            st.committed[4 * S + J2State::equivalent_plastic_strain]);
}

}  // namespace
}  // namespace inertia::fe
