// Fiber sections and the fiber beam element (fe/beam_fiber.hpp): the uniaxial J2 law against its
// closed forms, the 1D rules' exactness, the elastic element against fe/beam.hpp's
// Euler-Bernoulli stiffness, tangents against finite differences, a rectangle's moment-curvature
// (monotonic and cyclic) against closed forms, a fixed-fixed beam's collapse load against
// 8 M_p / L and a cantilever's cyclic tip load-deflection against the fiber section integrated
// along the length.
//
// Closed forms used here.
// - Rectangle b x h (c = h / 2), bilinear law (E, tangent Et = E H / (E + H)), kappa >= kappa_y =
//   eps_y / c, elastic core z_e = eps_y / kappa:
//     M(kappa) = 2 b (E kappa z_e^3 / 3 + (sigma_y - Et eps_y)(c^2 - z_e^2) / 2
//                     + Et kappa (c^3 - z_e^3) / 3),
//   with Et = 0 M_p (1 - (1/3)(kappa_y / kappa)^2), M_p = sigma_y b h^2 / 4.
// - Cycles with linear kinematic hardening (H_iso = 0): every fiber reverses with an elastic
//   range 2 sigma_y and the same hardening, so its reversal branch is its virgin curve doubled
//   (Masing's rule); the fiber strains are linear in the curvature, so the section's is too:
//   from (kappa_r, M_r), M = M_r - 2 M_v((kappa_r - kappa) / 2) (and with the signs reversed).
// - A fiber section's monotonic M(kappa) is piecewise LINEAR in kappa (each fiber's stress is
//   linear in kappa on either side of its yield curvature eps_y / |z|), so kappa(M) is piecewise
//   linear through the breakpoints and a cantilever's tip deflection under a tip load P,
//     delta_v(P) = int_0^L kappa(P s) s ds = P^-2 int_0^{P L} kappa(m) m dm,
//   is exact by Simpson's rule between breakpoints. The cantilever is statically determinate
//   (M = P s at every section), so its cyclic branches follow Masing too:
//   delta = delta_r - 2 delta_v((P_r - P) / 2).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/fe/beam.hpp"
#include "inertia/fe/beam_fiber.hpp"

namespace inertia::fe {
namespace {

constexpr double E = 200e9, G = 80e9, sigma_y = 250e6;

UniaxialJ2 steel(double h_iso, double h_kin) {
  UniaxialJ2 m{};
  m.youngs_modulus = E;
  m.hardening.yield_stress = sigma_y;
  m.hardening.isotropic_modulus = h_iso;
  m.hardening.kinematic_modulus = h_kin;
  return m;
}

// ---- the uniaxial law ---------------------------------------------------------------------------

TEST(BeamFiber, UniaxialLawFollowsTheHardeningLineAndTheBauschingerShift) {
  const double H = 0.02 * E, eps_y = sigma_y / E;
  for (const bool kinematic : {true, false}) {
    const UniaxialJ2 m = kinematic ? steel(0, H) : steel(H, 0);
    double c[3] = {0, 0, 0}, s, et;
    // Monotonic to 5 eps_y in 10 steps: sigma = sigma_y + H eps_p, tangent E H / (E + H).
    for (int i = 1; i <= 10; ++i) uniaxial_j2_update(m, 0.5 * i * eps_y, c, c, s, et);
    const double eps_p = c[UniaxialJ2State::plastic_strain];
    EXPECT_NEAR(s, sigma_y + H * eps_p, 1e-9 * sigma_y);
    EXPECT_NEAR(s, E * (5 * eps_y - eps_p), 1e-9 * sigma_y);
    EXPECT_NEAR(et, E * H / (E + H), 1e-9 * E);
    EXPECT_NEAR(c[UniaxialJ2State::equivalent_plastic_strain], eps_p, 1e-18);
    const double s_max = s;
    // Unloading: elastic down to s_max - 2 sigma_y (kinematic) or -s_max (isotropic).
    const double reverse = kinematic ? s_max - 2 * sigma_y : -s_max;
    double tr[3];
    const double eps_rev = 5 * eps_y - (s_max - reverse) / E;
    EXPECT_EQ(uniaxial_j2_update(m, eps_rev + 1e-9 * eps_y, c, tr, s, et), 0);
    EXPECT_NEAR(s, reverse, 1e-6 * sigma_y);
    EXPECT_EQ(et, E);
    EXPECT_GT(uniaxial_j2_update(m, eps_rev - 1e-6 * eps_y, c, tr, s, et), 0);
  }
}

TEST(BeamFiber, UniaxialTangentIsTheDerivativeOfTheStressForLinearVoceAndCurveHardening) {
  UniaxialJ2 voce = steel(1e9, 3e9);
  voce.hardening.voce_saturation = 1e8;
  voce.hardening.voce_rate = 50;
  // A yield curve (alpha, k): (0, 250), (0.01, 300), (0.05, 320) MPa.
  const double curve_strain[3] = {0, 0.01, 0.05}, curve_stress[3] = {250e6, 300e6, 320e6};
  UniaxialJ2 curve = steel(0, 3e9);
  curve.hardening.yield_stress = 0;
  curve.hardening.curve_strain = curve_strain;
  curve.hardening.curve_stress = curve_stress;
  for (const UniaxialJ2& m : {steel(2e9, 3e9), voce, curve}) {
    check_uniaxial_j2(m);
    const double committed[3] = {1e-3, 3e6, 2e-3};
    for (double eps : {5e-3, -2e-3}) {
      double tr[3], s, et, sp, sm, dummy;
      EXPECT_GT(uniaxial_j2_update(m, eps, committed, tr, s, et), 0);
      const double h = 1e-9;
      uniaxial_j2_update(m, eps + h, committed, tr, sp, dummy);
      uniaxial_j2_update(m, eps - h, committed, tr, sm, dummy);
      EXPECT_NEAR(et, (sp - sm) / (2 * h), 1e-6 * E) << eps;
      // On the yield surface after the step: |sigma - beta| = k(alpha).
      uniaxial_j2_update(m, eps, committed, tr, s, et);
      double k, slope;
      j2_yield_stress(m.hardening, tr[UniaxialJ2State::equivalent_plastic_strain], k, slope);
      EXPECT_NEAR(std::abs(s - tr[UniaxialJ2State::back_stress]), k, 1e-7 * sigma_y);
    }
  }
}

TEST(BeamFiber, UniaxialLawIsThe3DLawInUniaxialStress) {
  // fe/plasticity.hpp's j2_return_map with the lateral strains found so that sigma_yy = sigma_zz
  // = 0, along a cycle 0 -> 5 eps_y -> -5 eps_y -> 3 eps_y, mixed hardening with Voce.
  const double nu = 0.3, eps_y = sigma_y / E;
  UniaxialJ2 m = steel(2e9, 5e9);
  m.hardening.voce_saturation = 8e7;
  m.hardening.voce_rate = 30;
  J2Parameters p3 = m.hardening;
  p3.lame = {E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))};
  double c1[3] = {0, 0, 0}, c3[J2State::size] = {}, lateral = 0, worst = 0;
  const double corners[4] = {0, 5 * eps_y, -5 * eps_y, 3 * eps_y};
  for (int leg = 0; leg < 3; ++leg)
    for (int i = 1; i <= 40; ++i) {
      const double eps = corners[leg] + (corners[leg + 1] - corners[leg]) * i / 40.0;
      double tr3[J2State::size], sigma3[6], A[81];
      for (int it = 0; it < 50; ++it) {
        const double e[6] = {eps, lateral, lateral, 0, 0, 0};
        j2_return_map(p3, e, c3, tr3, sigma3, A);
        if (std::abs(sigma3[1]) < 1e-9 * sigma_y) break;
        lateral -= sigma3[1] / (A[4 * 9 + 4] + A[4 * 9 + 8]);
      }
      std::copy(tr3, tr3 + J2State::size, c3);
      double s1, et;
      uniaxial_j2_update(m, eps, c1, c1, s1, et);
      worst = std::max(worst, std::abs(s1 - sigma3[0]));
      EXPECT_NEAR(c1[UniaxialJ2State::equivalent_plastic_strain],
                  c3[J2State::equivalent_plastic_strain], 1e-12);
    }
  std::printf(
      "[figure] uniaxial law vs the 3D law in uniaxial stress (Voce + kinematic, a cycle "
      "of +-5 eps_y): max |sigma_1D - sigma_3D| / sigma_y = %.1e\n",
      worst / sigma_y);
  EXPECT_LT(worst, 1e-7 * sigma_y);
}

TEST(BeamFiber, UniaxialWorkOverAStepIsTheChangeOfFreeEnergyPlusTheDissipation) {
  // One plastic step with linear hardening follows one straight stress path, so the trapezoidal
  // work is exact: W = delta psi + D (D = sigma_y delta alpha).
  const UniaxialJ2 m = steel(3e9, 5e9);
  const double eps_y = sigma_y / E;
  double c[3] = {0, 0, 0}, s0, et;
  uniaxial_j2_update(m, eps_y, c, c, s0, et);  // exactly at yield: elastic
  double tr[3], s1;
  uniaxial_j2_update(m, 4 * eps_y, c, tr, s1, et);
  const double work = 0.5 * (s0 + s1) * 3 * eps_y;
  const double change =
      uniaxial_j2_free_energy(m, 4 * eps_y, tr) - uniaxial_j2_free_energy(m, eps_y, c);
  const double dissipated = uniaxial_j2_dissipation(m, c, tr);
  EXPECT_NEAR(dissipated, sigma_y * tr[UniaxialJ2State::equivalent_plastic_strain], 1e-9);
  EXPECT_NEAR(work, change + dissipated, 1e-12 * work);
}

TEST(BeamFiber, BadLawsAndRulesAreRefused) {
  UniaxialJ2 m = steel(0, 0);
  check_uniaxial_j2(m);
  m.youngs_modulus = 0;
  EXPECT_THROW(check_uniaxial_j2(m), InputError);
  m = steel(-1, 0);
  EXPECT_THROW(check_uniaxial_j2(m), InputError);
  m = steel(0, 0);
  m.hardening.rate_sensitivity = 0.01;
  EXPECT_THROW(check_uniaxial_j2(m), InputError);
  m = steel(0, 0);
  m.hardening.yield_stress = 0;
  EXPECT_THROW(check_uniaxial_j2(m), InputError);
  using Rule = FiberBeamIntegration::Rule;
  EXPECT_THROW(fiber_beam_integration(Rule::lobatto, 2), InputError);
  EXPECT_THROW(fiber_beam_integration(Rule::legendre, 1), InputError);
  EXPECT_THROW(fiber_beam_integration(Rule::legendre, 11), InputError);
}

// ---- the 1D rules
// --------------------------------------------------------------------------------

TEST(BeamFiber, RulesIntegrateTheirDegreeExactlyAndNotOneMore) {
  using Rule = FiberBeamIntegration::Rule;
  const auto five = fiber_beam_integration();
  EXPECT_EQ(five.rule, Rule::lobatto);
  const double lobatto5[5] = {0, 0.5 - 0.5 * std::sqrt(3.0 / 7), 0.5,
                              0.5 + 0.5 * std::sqrt(3.0 / 7), 1};
  const double w5[5] = {0.05, 49.0 / 180, 32.0 / 90, 49.0 / 180, 0.05};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(five.xi[i], lobatto5[i], 1e-15);
    EXPECT_NEAR(five.weight[i], w5[i], 1e-15);
  }
  for (const Rule rule : {Rule::lobatto, Rule::legendre})
    for (int n = rule == Rule::lobatto ? 3 : 2; n <= FiberBeamIntegration::max_points; ++n) {
      const auto r = fiber_beam_integration(rule, n);
      const int exact = rule == Rule::lobatto ? 2 * n - 3 : 2 * n - 1;
      for (int degree = 0; degree <= exact + 1; ++degree) {
        double sum = 0;
        for (int i = 0; i < n; ++i) sum += r.weight[i] * std::pow(r.xi[i], degree);
        if (degree <= exact)
          EXPECT_NEAR(sum, 1.0 / (degree + 1), 1e-14) << n << " " << degree;
        else
          EXPECT_GT(std::abs(sum - 1.0 / (degree + 1)), 1e-13) << n << " " << degree;
      }
    }
}

// ---- the element -------------------------------------------------------------------------------

constexpr double X0[3] = {0.3, -0.2, 0.5};
constexpr double X1[3] = {1.8, 0.9, 2.1};
constexpr double orientation[3] = {0.3, 1.0, -0.4};

struct Element {
  std::vector<BeamFiber> fibers;
  FiberBeam beam;
  BeamSectionProperties props;
  std::array<double, 9> R{};
  std::vector<double> committed, trial;
};

Element make_element(const UniaxialJ2& m, FiberBeamIntegration rule) {
  Element e;
  const BeamShape shape{BeamShape::Kind::rectangle, 0.1, 0.2};
  e.fibers = section_fibers(shape, 8);
  e.props = section_properties(shape, 0.25);
  e.beam.section = {e.fibers, m};
  e.beam.shear_modulus = G;
  e.beam.torsion = e.props.torsion;
  e.beam.integration = rule;
  EXPECT_TRUE(beam_frame(X0, X1, orientation, e.R.data()));
  e.committed.assign(fiber_beam_state_size(e.beam), 0.0);
  e.trial = e.committed;
  return e;
}

TEST(BeamFiber, ElasticElementIsTheEulerBernoulliStiffness) {
  using Rule = FiberBeamIntegration::Rule;
  for (const auto& rule : {fiber_beam_integration(), fiber_beam_integration(Rule::lobatto, 3),
                           fiber_beam_integration(Rule::legendre, 2)}) {
    Element e = make_element(steel(0, 0), rule);
    std::array<double, 144> K, K_ref;
    std::array<double, 12> f, d;
    for (int i = 0; i < 12; ++i) d[i] = 1e-6 * std::sin(1.0 + 2.3 * i);  // far below yield
    fiber_beam_update(X0, X1, e.R.data(), e.beam, d.data(), e.committed, e.trial, f, K);
    beam_stiffness(X0, X1, e.R.data(), e.props, {E, G, 0}, false, K_ref.data());
    double scale = 0, diff = 0;
    for (int i = 0; i < 144; ++i) {
      scale = std::max(scale, std::abs(K_ref[i]));
      diff = std::max(diff, std::abs(K[i] - K_ref[i]));
    }
    EXPECT_LT(diff, 1e-10 * scale) << rule.points;
    for (int i = 0; i < 12; ++i) {
      double kd = 0;
      for (int j = 0; j < 12; ++j) kd += K_ref[12 * i + j] * d[j];
      EXPECT_NEAR(f[i], kd, 1e-10 * scale * 1e-6);
    }
    for (double v : e.trial) EXPECT_EQ(v, 0);
  }
}

TEST(BeamFiber, ElasticSectionForcesAtTheEndsAreTheBeamsEndForces) {
  // Lobatto's end points: N, My, Mz there are fe/beam.hpp's end section forces (exact for nodal
  // loads: linear moments, constant N).
  Element e = make_element(steel(0, 0), fiber_beam_integration());
  std::array<double, 12> d, ends;
  for (int i = 0; i < 12; ++i) d[i] = 1e-6 * std::cos(0.4 + 1.7 * i);
  std::array<double, 15> sections;
  fiber_beam_update(X0, X1, e.R.data(), e.beam, d.data(), e.committed, e.trial, {}, {}, sections);
  beam_section_forces(X0, X1, e.R.data(), e.props, {E, G, 0}, false, d.data(), ends.data());
  double scale = 0;
  for (double v : ends) scale = std::max(scale, std::abs(v));
  const int at[2][3] = {{0, 4, 5}, {6, 10, 11}};  // N, My, Mz at end 0 and end 1
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(sections[k], ends[at[0][k]], 1e-10 * scale) << k;
    EXPECT_NEAR(sections[12 + k], ends[at[1][k]], 1e-10 * scale) << k;
  }
  std::vector<double> short_state(e.committed.size() - 1);
  EXPECT_THROW(
      fiber_beam_update(X0, X1, e.R.data(), e.beam, d.data(), short_state, e.trial, {}, {}),
      InternalError);
  EXPECT_THROW(
      fiber_beam_update(X0, X0, e.R.data(), e.beam, d.data(), e.committed, e.trial, {}, {}),
      SolverError);
}

/// max |K - central differences of f| / max |K| at d, from e's committed state.
double tangent_error(Element& e, const std::array<double, 12>& d) {
  std::array<double, 144> K;
  std::array<double, 12> fp, fm;
  fiber_beam_update(X0, X1, e.R.data(), e.beam, d.data(), e.committed, e.trial, {}, K);
  double scale = 0, diff = 0;
  for (double v : K) scale = std::max(scale, std::abs(v));
  for (int j = 0; j < 12; ++j) {
    const double h = j < 6 ? 1e-9 : 1e-9 / 1.5;  // translations over the length for rotations
    auto dp = d, dm = d;
    dp[j] += h, dm[j] -= h;
    fiber_beam_update(X0, X1, e.R.data(), e.beam, dp.data(), e.committed, e.trial, fp, {});
    fiber_beam_update(X0, X1, e.R.data(), e.beam, dm.data(), e.committed, e.trial, fm, {});
    for (int i = 0; i < 12; ++i)
      diff = std::max(diff, std::abs((fp[i] - fm[i]) / (2 * h) - K[12 * i + j]));
  }
  return diff / scale;
}

TEST(BeamFiber, TangentIsTheDerivativeOfTheForceElasticAndPlastic) {
  Element e = make_element(steel(2e9, 4e9), fiber_beam_integration());
  std::array<double, 12> d;
  for (int i = 0; i < 12; ++i) d[i] = 1e-5 * std::sin(1.0 + 2.3 * i);
  const double elastic = tangent_error(e, d);
  EXPECT_LT(elastic, 1e-6);
  // Into the plastic range (rotations of a few 1e-2 over 2.3 m: curvatures ~ 10 kappa_y, with
  // stretching and twist), committed, then a trial step further on: most fibers flowing.
  std::array<double, 12> d1;
  for (int i = 0; i < 12; ++i) d1[i] = (i < 6 ? 4e-3 : 3e-2) * std::sin(0.7 + 1.9 * i);
  std::array<double, 12> f;
  const FiberEnergy w =
      fiber_beam_update(X0, X1, e.R.data(), e.beam, d1.data(), e.committed, e.trial, f, {});
  EXPECT_GT(w.dissipated, 0);
  e.committed = e.trial;
  for (int i = 0; i < 12; ++i) d1[i] *= 1.3;
  const double plastic = tangent_error(e, d1);
  int flowing = 0, n = 0;
  for (std::size_t i = 0; i < e.trial.size(); i += 3, ++n)
    flowing += e.trial[i + 2] > e.committed[i + 2];
  std::printf(
      "[figure] tangent vs central differences: elastic %.2e, plastic %.2e (%d of %d "
      "fibers flowing)\n",
      elastic, plastic, flowing, n);
  EXPECT_GT(flowing, n / 2);
  EXPECT_LT(plastic, 1e-5);
}

// ---- the section
// ---------------------------------------------------------------------------------

/// The rectangle's monotonic M(kappa) (file comment), kappa > 0.
double rectangle_moment(double b, double h, double et, double kappa) {
  const double c = h / 2, eps_y = sigma_y / E;
  if (kappa * c <= eps_y) return E * b * h * h * h / 12 * kappa;
  const double ze = eps_y / kappa;
  return 2 * b *
         (E * kappa * ze * ze * ze / 3 + (sigma_y - et * eps_y) * (c * c - ze * ze) / 2 +
          et * kappa * (c * c * c - ze * ze * ze) / 3);
}

/// The section's My at curvature kappa_y from the committed state (committed afterwards).
double section_moment(const FiberSection& s, std::vector<double>& state, double kappa) {
  const double e[3] = {0, kappa, 0};
  double f[3];
  fiber_section_update(s, e, state, state, f, nullptr);
  return f[1];
}

TEST(BeamFiber, RectangleMomentCurvatureConvergesToTheClosedFormWithTheFibers) {
  const double b = 0.1, h = 0.2, mp = sigma_y * b * h * h / 4, kappa_y = 2 * sigma_y / (E * h);
  const BeamShape shape{BeamShape::Kind::rectangle, b, h};
  double previous = 1;
  for (int divisions : {2, 4, 8, 16, 32}) {
    const auto fibers = section_fibers(shape, divisions);
    const FiberSection s{fibers, steel(0, 0)};
    std::vector<double> state(3 * fibers.size(), 0.0);
    double worst = 0;
    for (int i = 1; i <= 40; ++i) {
      const double kappa = 0.25 * i * kappa_y;  // to 10 kappa_y
      const double exact = rectangle_moment(b, h, 0, kappa);
      if (kappa > kappa_y) {
        EXPECT_NEAR(exact, mp * (1 - kappa_y * kappa_y / (3 * kappa * kappa)), 1e-12 * mp);
      }
      worst = std::max(worst, std::abs(section_moment(s, state, kappa) - exact) / mp);
    }
    std::printf(
        "[figure] moment-curvature, perfectly plastic rectangle, %d cells across the "
        "height (%zu fibers): max |M - M_closed| / M_p = %.2e to 10 kappa_y\n",
        divisions, fibers.size(), worst);
    EXPECT_LT(worst, 0.6 * previous);
    previous = worst;
  }
  EXPECT_LT(previous, 5e-4);
}

TEST(BeamFiber, CyclicMomentCurvatureWithKinematicHardeningIsMasingsClosedForm) {
  const double b = 0.1, h = 0.2, kappa_y = 2 * sigma_y / (E * h), H = 0.03 * E;
  const double et = E * H / (E + H), mp = sigma_y * b * h * h / 4;
  const BeamShape shape{BeamShape::Kind::rectangle, b, h};
  const auto virgin = [&](double k) {
    return k >= 0 ? rectangle_moment(b, h, et, k) : -rectangle_moment(b, h, et, -k);
  };
  const double k1 = 6 * kappa_y, m1 = virgin(k1);
  double previous = 1;
  for (int divisions : {4, 16, 64}) {
    const auto fibers = section_fibers(shape, divisions);
    const FiberSection s{fibers, steel(0, H)};
    std::vector<double> state(3 * fibers.size(), 0.0);
    // The fibers' own virgin curve (bilinear fibers summed), for Masing's rule without the
    // fiber discretization: the implementation alone.
    const auto fiber_virgin = [&](double k) {
      double m = 0;
      for (const auto& f : fibers) {
        const double eps = f.z * k, e = std::abs(eps), eps_y = sigma_y / E;
        const double sigma = e <= eps_y ? E * e : sigma_y + et * (e - eps_y);
        m += f.area * f.z * (eps >= 0 ? sigma : -sigma);
      }
      return m;
    };
    const double m1_fibers = fiber_virgin(k1);
    double worst = 0, worst_fibers = 0;
    const int n = 60;
    // 0 -> k1 -> -k1 -> k1 -> -k1: virgin, unloading, reloading, unloading again (the stable
    // loop: the second unloading is the first).
    for (int leg = 0; leg < 4; ++leg)
      for (int i = 1; i <= n; ++i) {
        const double t = double(i) / n;
        double kappa, exact, exact_fibers;
        if (leg == 0) {
          kappa = t * k1, exact = virgin(kappa), exact_fibers = fiber_virgin(kappa);
        } else if (leg % 2 == 1) {
          kappa = k1 - 2 * t * k1, exact = m1 - 2 * virgin((k1 - kappa) / 2);
          exact_fibers = m1_fibers - 2 * fiber_virgin((k1 - kappa) / 2);
        } else {
          kappa = -k1 + 2 * t * k1, exact = -m1 + 2 * virgin((kappa + k1) / 2);
          exact_fibers = -m1_fibers + 2 * fiber_virgin((kappa + k1) / 2);
        }
        const double m = section_moment(s, state, kappa);
        worst = std::max(worst, std::abs(m - exact) / mp);
        worst_fibers = std::max(worst_fibers, std::abs(m - exact_fibers) / mp);
      }
    std::printf(
        "[figure] cyclic moment-curvature +-6 kappa_y, H_kin = 0.03 E, %d cells (%zu "
        "fibers): max |M - M_Masing| / M_p = %.2e (the fibers' own Masing curve: %.1e)\n",
        divisions, fibers.size(), worst, worst_fibers);
    EXPECT_LT(worst_fibers, 1e-12);
    EXPECT_LT(worst, 0.5 * previous);
    previous = worst;
  }
  EXPECT_LT(previous, 2e-4);
}

TEST(BeamFiber, SectionTangentIsSymmetricAndTheDerivativeOfTheForces) {
  const BeamShape shape{BeamShape::Kind::i_section, 0.3, 0.15, 0.0107, 0.0071};
  const auto fibers = section_fibers(shape, 8);
  const FiberSection s{fibers, steel(1e9, 2e9)};
  std::vector<double> committed(3 * fibers.size(), 0.0), trial = committed;
  const double e1[3] = {4e-4, 2e-2, -1.2e-2};  // tension and biaxial bending, well into yield
  double f[3], k[9];
  fiber_section_update(s, e1, committed, trial, f, k);
  committed = trial;
  const double e[3] = {3e-4, 2.5e-2, -1.0e-2};
  fiber_section_update(s, e, committed, trial, f, k);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(k[3 * i + j], k[3 * j + i]);
      const double h = j == 0 ? 1e-10 : 1e-9;
      double ep[3] = {e[0], e[1], e[2]}, em[3] = {e[0], e[1], e[2]}, fp[3], fm[3];
      ep[j] += h, em[j] -= h;
      fiber_section_update(s, ep, committed, trial, fp, nullptr);
      fiber_section_update(s, em, committed, trial, fm, nullptr);
      EXPECT_NEAR(k[3 * i + j], (fp[i] - fm[i]) / (2 * h), 1e-5 * std::abs(k[4])) << i << j;
    }
}

// ---- beams along x: assembly and a Newton solver with prescribed displacements -----------------

struct Beam {
  int elements;
  double length;
  std::vector<BeamFiber> fibers;
  FiberBeam beam;
  std::vector<double> committed, trial;
  int state_size() const { return fiber_beam_state_size(beam); }
  int dofs() const { return 6 * (elements + 1); }
  // Node DOFs [ux uy uz rx ry rz]; the element's [u0, u1, th0, th1].
  int dof(int element, int j) const {
    const int block = j / 3, node = element + (block % 2);
    return 6 * node + (block >= 2 ? 3 : 0) + j % 3;
  }
};

Beam make_beam(int elements, double length, int divisions, const UniaxialJ2& m) {
  Beam b;
  b.elements = elements;
  b.length = length;
  b.fibers = section_fibers({BeamShape::Kind::rectangle, 0.1, 0.2}, divisions);
  b.beam.section = {b.fibers, m};
  b.beam.shear_modulus = G;
  b.beam.torsion = 1e-5;
  b.committed.assign(static_cast<std::size_t>(elements) * b.state_size(), 0.0);
  b.trial = b.committed;
  return b;
}

/// f(d) and K(d) from the committed state; returns the energies.
FiberEnergy assemble(Beam& b, const std::vector<double>& d, std::vector<double>& f,
                     std::vector<double>& K) {
  const int n = b.dofs(), ss = b.state_size();
  f.assign(n, 0.0);
  K.assign(static_cast<std::size_t>(n) * n, 0.0);
  const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  FiberEnergy total;
  for (int e = 0; e < b.elements; ++e) {
    const double h = b.length / b.elements;
    const double x0[3] = {e * h, 0, 0}, x1[3] = {(e + 1) * h, 0, 0};
    double de[12], fe[12], Ke[144];
    for (int j = 0; j < 12; ++j) de[j] = d[b.dof(e, j)];
    const auto w = fiber_beam_update(x0, x1, R, b.beam, de,
                                     std::span<const double>(b.committed).subspan(e * ss, ss),
                                     std::span<double>(b.trial).subspan(e * ss, ss), fe, Ke);
    total.stored += w.stored;
    total.dissipated += w.dissipated;
    for (int i = 0; i < 12; ++i) {
      f[b.dof(e, i)] += fe[i];
      for (int j = 0; j < 12; ++j)
        K[static_cast<std::size_t>(b.dof(e, i)) * n + b.dof(e, j)] += Ke[12 * i + j];
    }
  }
  return total;
}

/// Solves A x = r (n x n, dense, partial pivoting; A and r overwritten, x into r).
void solve(std::vector<double>& A, std::vector<double>& r, int n) {
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int i = c + 1; i < n; ++i)
      if (std::abs(A[i * n + c]) > std::abs(A[p * n + c])) p = i;
    for (int j = 0; j < n; ++j) std::swap(A[c * n + j], A[p * n + j]);
    std::swap(r[c], r[p]);
    for (int i = c + 1; i < n; ++i) {
      const double m = A[i * n + c] / A[c * n + c];
      for (int j = c; j < n; ++j) A[i * n + j] -= m * A[c * n + j];
      r[i] -= m * r[c];
    }
  }
  for (int c = n - 1; c >= 0; --c) {
    for (int j = c + 1; j < n; ++j) r[c] -= A[c * n + j] * r[j];
    r[c] /= A[c * n + c];
  }
}

/// The step from the converged d to the prescribed values `target` (at the prescribed DOFs; no
/// external force on the free ones): the predictor -K_ff^-1 K_fp (target - d)_p with the tangent
/// of the converged state, then Newton; commits the state. Returns the iterations (-1: none
/// converged) and the step's energies (its dissipation the step's).
int newton(Beam& b, std::vector<double>& d, const std::vector<bool>& prescribed,
           const std::vector<double>& target, std::vector<double>& f, FiberEnergy& energy) {
  std::vector<int> free;
  for (int i = 0; i < b.dofs(); ++i)
    if (!prescribed[i]) free.push_back(i);
  const int nf = static_cast<int>(free.size()), n = b.dofs();
  std::vector<double> K, A(static_cast<std::size_t>(nf) * nf), r(nf);
  const auto solve_free = [&](const std::vector<double>& rhs) {
    for (int a = 0; a < nf; ++a) {
      r[a] = rhs[a];
      for (int c = 0; c < nf; ++c)
        A[static_cast<std::size_t>(a) * nf + c] =
            K[static_cast<std::size_t>(free[a]) * n + free[c]];
    }
    solve(A, r, nf);
    for (int a = 0; a < nf; ++a) d[free[a]] += r[a];
  };
  assemble(b, d, f, K);
  std::vector<double> rhs(nf, 0.0);
  for (int a = 0; a < nf; ++a)
    for (int j = 0; j < n; ++j)
      if (prescribed[j])
        rhs[a] -= K[static_cast<std::size_t>(free[a]) * n + j] * (target[j] - d[j]);
  for (int j = 0; j < n; ++j)
    if (prescribed[j]) d[j] = target[j];
  solve_free(rhs);
  // Newton with backtracking on the residual's norm (a piecewise-linear law's Newton can cycle
  // between two sets of flowing fibers); converged at 1e-10 of the larger of the forces and the
  // section's squash load sigma_y A (the round-off floor near a load reversal, where P ~ 0).
  double reference = 0.1 * 0.2 * sigma_y;
  const auto residual = [&](std::vector<double>& KK) {
    energy = assemble(b, d, f, KK);
    double norm = 0;
    for (int i = 0; i < n; ++i) reference = std::max(reference, std::abs(f[i]));
    for (int a = 0; a < nf; ++a) norm += f[free[a]] * f[free[a]];
    return std::sqrt(norm);
  };
  double norm = residual(K);
  std::vector<double> K_trial, step(nf);
  for (int it = 0; it < 60; ++it) {
    if (norm <= 1e-10 * reference) {
      b.committed = b.trial;
      return it;
    }
    for (int a = 0; a < nf; ++a) rhs[a] = -f[free[a]];
    solve_free(rhs);
    step = r;
    double t = 1, next = residual(K_trial);
    for (int cut = 0; cut < 20 && next > norm; ++cut) {
      t *= 0.5;
      for (int a = 0; a < nf; ++a) d[free[a]] -= t * step[a];
      next = residual(K_trial);
    }
    norm = next;
    std::swap(K, K_trial);
  }
  return -1;
}

/// The prescribed DOFs of a plane problem in x-z: uy, rx, rz everywhere.
std::vector<bool> plane_xz(const Beam& b) {
  std::vector<bool> p(b.dofs(), false);
  for (int node = 0; node <= b.elements; ++node)
    for (int c : {1, 3, 5}) p[6 * node + c] = true;
  return p;
}

TEST(BeamFiber, FixedFixedBeamUnderACentralLoadCollapsesAt8MpOverL) {
  const double L = 4, b = 0.1, h = 0.2, mp = sigma_y * b * h * h / 4, collapse = 8 * mp / L;
  const double inertia = b * h * h * h / 12, my = sigma_y * b * h * h / 6;
  const double delta_y = 8 * my / L * L * L * L / (192 * E * inertia);  // first yield at the ends
  double previous = 1e9;
  for (int elements : {4, 8, 16, 32}) {
    Beam beam = make_beam(elements, L, 8, steel(0, 0));
    std::vector<bool> prescribed = plane_xz(beam);
    for (int c = 0; c < 6; ++c) prescribed[c] = prescribed[6 * elements + c] = true;
    const int centre = 6 * (elements / 2) + 2;
    prescribed[centre] = true;
    std::vector<double> d(beam.dofs(), 0.0), target = d, f;
    FiberEnergy energy;
    double load = 0, first_elastic = 0, max_iterations = 0;
    const int steps = 40;
    for (int s = 1; s <= steps; ++s) {
      target[centre] = -40.0 * delta_y * s / steps;  // downward, to 40 delta_y
      const int it = newton(beam, d, prescribed, target, f, energy);
      ASSERT_GE(it, 0) << elements << " elements, step " << s;
      max_iterations = std::max<double>(max_iterations, it);
      load = -f[centre];
      if (s == 1) first_elastic = load / (-d[centre]);
    }
    // The elastic stiffness 192 E I / L^3 (exact: Hermite cubics).
    EXPECT_NEAR(first_elastic, 192 * E * inertia / (L * L * L), 1e-8 * first_elastic);
    // The discrete collapse load. Displacement-based elements give an upper bound: a hinge
    // cannot localize in an element whose curvature is linear. The mechanism: rigid segments
    // turning by phi between hinge elements (at the supports and on each side of the centre),
    // each with its near node's deflection a phi h and curvature phi / h ((6a - 2) + (6 - 12a) xi).
    // While that curvature keeps its sign at the rule's points (a <= 2/3 with Lobatto's end
    // points) a hinge element dissipates M_p phi, as a true hinge, and the centre moves
    // phi (L / 2 - 2 (1 - a) h): at a = 2/3, P = 8 M_p / (L - 4 h / 3), O(h) above 8 M_p / L.
    // (Legendre 5, whose last point is xi = 0.953, allows a = 0.684: P = 8 M_p / (L - 1.264 h).)
    const double mechanism = 8 * mp / (L - 4 * (L / elements) / 3);
    std::printf(
        "[figure] fixed-fixed beam, %d elements (Lobatto 5, 128 fibers): P(40 delta_y) / "
        "(8 M_p / L) = %.5f; / (8 M_p / (L - 4h/3)) = %.6f; Newton <= %g iterations\n",
        elements, load / collapse, load / mechanism, max_iterations);
    EXPECT_GT(load, collapse);
    EXPECT_LT(load - collapse, 0.6 * (previous - collapse));
    // With 2 elements a half-span (4) another mechanism governs (1.395 against 1.5).
    if (elements >= 16) {
      EXPECT_NEAR(load / mechanism, 1, 1e-4);
    } else if (elements == 8) {
      EXPECT_NEAR(load / mechanism, 1, 1e-3);  // still rising at 40 delta_y
    }
    previous = load;
  }
  EXPECT_LT(previous / collapse - 1, 0.045);  // 8 M_p / L + 4.3 % at 32 elements
}

// ---- the cantilever: the fiber section's exact curve integrated along the length ----------------

/// The fiber section's monotonic My(kappa_y) for kappa >= 0 (bilinear fibers).
struct SectionCurve {
  std::vector<double> kappa, moment;  // breakpoints, from (0, 0)
  double slope_end = 0;               // dM/dkappa beyond the last
  double at(const std::vector<BeamFiber>& fibers, double k, double et) const {
    const double eps_y = sigma_y / E;
    double m = 0;
    for (const auto& f : fibers) {
      const double eps = std::abs(f.z) * k;
      const double s = eps <= eps_y ? E * eps : sigma_y + et * (eps - eps_y);
      m += f.area * std::abs(f.z) * s;
    }
    return m;
  }
  SectionCurve(const std::vector<BeamFiber>& fibers, double et) {
    const double eps_y = sigma_y / E;
    kappa.push_back(0);
    for (const auto& f : fibers) kappa.push_back(eps_y / std::abs(f.z));
    std::sort(kappa.begin(), kappa.end());
    kappa.erase(std::unique(kappa.begin(), kappa.end(),
                            [](double a, double b) { return std::abs(a - b) <= 1e-12 * b; }),
                kappa.end());
    for (double k : kappa) moment.push_back(at(fibers, k, et));
    slope_end = (at(fibers, 2 * kappa.back(), et) - moment.back()) / kappa.back();
  }
  /// kappa(M), M >= 0 (piecewise linear).
  double curvature(double m) const {
    const std::size_t n = moment.size();
    if (m >= moment[n - 1]) return kappa[n - 1] + (m - moment[n - 1]) / slope_end;
    const std::size_t i = std::upper_bound(moment.begin(), moment.end(), m) - moment.begin();
    const double t = (m - moment[i - 1]) / (moment[i] - moment[i - 1]);
    return kappa[i - 1] + t * (kappa[i] - kappa[i - 1]);
  }
  /// The tip deflection (along -kappa_y's w) of a cantilever of length L under a tip load of
  /// moment arm: P^-2 int_0^{P L} kappa(m) m dm, exact by Simpson between breakpoints; odd in P.
  double deflection(double P, double L) const {
    if (P == 0) return 0;
    const double top = std::abs(P) * L;
    std::vector<double> cuts = {0};
    for (double m : moment)
      if (m > 0 && m < top) cuts.push_back(m);
    cuts.push_back(top);
    double integral = 0;
    for (std::size_t i = 1; i < cuts.size(); ++i) {
      const double a = cuts[i - 1], c = cuts[i], mid = 0.5 * (a + c);
      integral += (c - a) / 6 * (curvature(a) * a + 4 * curvature(mid) * mid + curvature(c) * c);
    }
    return (P > 0 ? 1 : -1) * integral / (P * P);
  }
};

TEST(BeamFiber, CantileverCyclicTipLoadDeflectionConvergesToTheFiberSectionIntegratedAlongIt) {
  const double L = 2, b = 0.1, h = 0.2, H = 0.02 * E, et = E * H / (E + H);
  const double my = sigma_y * b * h * h / 6, inertia = b * h * h * h / 12;
  const double delta_y = my / L * L * L * L / (3 * E * inertia);
  const double delta_1 = 4 * delta_y;
  double previous = 1;
  for (int elements : {2, 4, 8, 16}) {
    Beam beam = make_beam(elements, L, 8, steel(0, H));
    const SectionCurve curve(beam.fibers, et);
    // The section's own check: the piecewise-linear curve is the element's section.
    {
      const FiberSection s{beam.fibers, steel(0, H)};
      std::vector<double> state(3 * beam.fibers.size(), 0.0);
      const double k = 7.3 * 2 * sigma_y / (E * h);
      EXPECT_NEAR(section_moment(s, state, k), curve.at(beam.fibers, k, et), 1e-9 * my);
    }
    std::vector<bool> prescribed = plane_xz(beam);
    for (int c = 0; c < 6; ++c) prescribed[c] = true;
    const int tip = 6 * elements + 2;
    prescribed[tip] = true;
    // The reference's peak load: delta_v(P_1) = delta_1 (bisection).
    double lo = 0, hi = 10 * my / L;
    for (int i = 0; i < 200; ++i)
      (curve.deflection(0.5 * (lo + hi), L) < delta_1 ? lo : hi) = 0.5 * (lo + hi);
    const double p1 = 0.5 * (lo + hi);
    std::vector<double> d(beam.dofs(), 0.0), target = d, f;
    FiberEnergy energy;
    double worst = 0, work = 0, load_before = 0, delta_before = 0, dissipated = 0;
    const int n = 24;
    for (int leg = 0; leg < 4; ++leg)
      for (int i = 1; i <= n; ++i) {
        const double t = double(i) / n;
        const double delta = leg == 0  ? t * delta_1
                             : leg % 2 ? delta_1 * (1 - 2 * t)
                                       : delta_1 * (-1 + 2 * t);
        target[tip] = delta;
        ASSERT_GE(newton(beam, d, prescribed, target, f, energy), 0)
            << elements << " " << leg << " " << i;
        const double load = f[tip];
        dissipated += energy.dissipated;
        work += 0.5 * (load + load_before) * (delta - delta_before);
        load_before = load, delta_before = delta;
        // Tip load along +z bends with kappa_y < 0 at the root; the deflection is the same
        // function of |P| as the curve's (symmetric section).
        const double exact = leg == 0       ? curve.deflection(load, L)
                             : leg % 2 == 1 ? delta_1 - 2 * curve.deflection((p1 - load) / 2, L)
                                            : -delta_1 + 2 * curve.deflection((load + p1) / 2, L);
        worst = std::max(worst, std::abs(delta - exact) / delta_1);
      }
    std::printf(
        "[figure] cantilever, tip +-4 delta_y, H_kin = 0.02 E, %d elements: max |delta - "
        "delta_exact(P)| / delta_1 = %.2e; tip work %.6g J vs stored + dissipated %.6g J "
        "(%.1e)\n",
        elements, worst, work, energy.stored + dissipated, work / (energy.stored + dissipated) - 1);
    EXPECT_LT(worst, 0.7 * previous);
    previous = worst;
    // The work's trapezoidal rule over 24 steps a leg errs where the path kinks (yielding,
    // reversals): -1.3e-3 .. -8.8e-4 here, -5.5e-5 .. -7.7e-5 with 96 steps (second order).
    EXPECT_NEAR(work / (energy.stored + dissipated), 1, 2e-3);
  }
  EXPECT_LT(previous, 0.01);
}

}  // namespace
}  // namespace inertia::fe
