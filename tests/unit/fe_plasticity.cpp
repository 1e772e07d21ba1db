// J2 plasticity at small strain (fe/plasticity.hpp): the return map against closed forms
// (uniaxial stress with linear isotropic and kinematic hardening, monotonic and reversed), its
// consistency (the returned stress lies on the yield surface) and its consistent tangent against
// central differences.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/plasticity.hpp"

namespace inertia::fe {
namespace {

using State = std::array<double, J2State::size>;
constexpr double E = 200e9, nu = 0.3, sy = 250e6;

J2Parameters steel(double h_iso, double h_kin) {
  return {lame_from_young_poisson(E, nu), sy, h_iso, h_kin};
}

/// Uniaxial stress: the lateral strains (equal) that make sigma_yy = sigma_zz = 0 at axial strain
/// `axial`, by Newton on the consistent tangent, from state `s`, which is then updated. Returns
/// sigma_xx.
double uniaxial(const J2Parameters& p, double axial, double& lateral, State& s) {
  double stress[6], A[81];
  State next;
  for (int it = 0; it < 50; ++it) {
    const double eps[6] = {axial, lateral, lateral, 0, 0, 0};
    j2_return_map(p, eps, s.data(), next.data(), stress, A);
    if (std::abs(stress[1]) < 1e-9 * sy) break;
    lateral -= stress[1] / (A[4 * 9 + 4] + A[4 * 9 + 8]);  // d sigma_yy / d(eps_yy + eps_zz)
  }
  EXPECT_LT(std::abs(stress[1]), 1e-6 * sy);
  EXPECT_LT(std::abs(stress[2]), 1e-6 * sy);
  s = next;
  return stress[0];
}

/// The largest difference between the tangent A and central differences of the stress, from
/// state s at strain eps, and the largest |A| entry (scale). A tensor-shear component d moves
/// eps_kl and eps_lk: d sigma / d eps_d = A_ijkl + A_ijlk.
double tangent_error(const J2Parameters& p, const double* eps, const State& s, const double* A,
                     double& scale) {
  constexpr int I[6] = {0, 1, 2, 0, 1, 0}, J[6] = {0, 1, 2, 1, 2, 2};
  State t;
  double worst = 0;
  scale = 0;
  for (int d = 0; d < 6; ++d) {
    const double h = 1e-8;
    double plus[6], minus[6], e[6];
    for (int c = 0; c < 6; ++c) e[c] = eps[c];
    e[d] += h;
    j2_return_map(p, e, s.data(), t.data(), plus);
    e[d] -= 2 * h;
    j2_return_map(p, e, s.data(), t.data(), minus);
    for (int c = 0; c < 6; ++c) {
      const double fd = (plus[c] - minus[c]) / (2 * h);
      const int row = 3 * I[c] + J[c], k = I[d], l = J[d];
      const double exact =
          d < 3 ? A[row * 9 + 3 * k + l] : A[row * 9 + 3 * k + l] + A[row * 9 + 3 * l + k];
      worst = std::max(worst, std::abs(fd - exact));
      scale = std::max(scale, std::abs(exact));
    }
  }
  return worst;
}

TEST(J2, IsElasticBelowYieldAndLeavesTheStateAlone) {
  const J2Parameters p = steel(1e9, 1e9);
  const double eps[6] = {5e-4, -1e-4, 2e-4, 1e-4, -3e-4, 2e-4};
  State s{}, t;
  double stress[6];
  EXPECT_EQ(j2_return_map(p, eps, s.data(), t.data(), stress), 0.0);
  const double tr = eps[0] + eps[1] + eps[2];
  for (int c = 0; c < 6; ++c)
    EXPECT_NEAR(stress[c], 2 * p.lame.mu * eps[c] + (c < 3 ? p.lame.lambda * tr : 0.0), 1e-6);
  for (double x : t) EXPECT_EQ(x, 0.0);
}

TEST(J2, UniaxialStressCurveIsExactForLinearHardening) {
  // sigma = sigma_y + E_t (eps - sigma_y / E), E_t = E H / (E + H), H = H_iso + H_kin, for any
  // split of H between the two kinds (monotonic loading: the same curve).
  for (const auto& [h_iso, h_kin] : {std::pair{10e9, 0.0}, {0.0, 10e9}, {4e9, 6e9}}) {
    const J2Parameters p = steel(h_iso, h_kin);
    const double H = h_iso + h_kin, Et = E * H / (E + H);
    State s{};
    double lateral = 0;
    for (int i = 1; i <= 40; ++i) {
      const double axial = 1e-4 * i;  // to 4e-3, 3.2 times the yield strain
      const double sigma = uniaxial(p, axial, lateral, s);
      const double exact = axial <= sy / E ? E * axial : sy + Et * (axial - sy / E);
      EXPECT_NEAR(sigma / exact, 1.0, 1e-10) << "H_iso " << h_iso << ", eps " << axial;
    }
    // The plastic strain is the axial one beyond the elastic part, and alpha equals it.
    const double sigma = sy + Et * (4e-3 - sy / E);
    EXPECT_NEAR(s[J2State::plastic_strain] / (4e-3 - sigma / E), 1.0, 1e-9);
    EXPECT_NEAR(s[J2State::equivalent_plastic_strain] / s[J2State::plastic_strain], 1.0, 1e-12);
  }
}

/// Steel with Voce hardening (sigma_y + 2 GPa alpha + 150 MPa (1 - exp(-30 alpha))), a yield
/// curve (rising, then flat beyond its last point), or linear hardening with Johnson-Cook's rate
/// factor.
const std::vector<double> curve_strain{0, 2e-3, 5e-3, 1e-2}, curve_stress{sy, 2.9e8, 3.2e8, 3.3e8};
J2Parameters hardening(int kind) {
  J2Parameters p = steel(kind == 1 ? 0.0 : 2e9, 0.0);
  if (kind == 0) p.voce_saturation = 1.5e8, p.voce_rate = 30;
  if (kind == 1) p.curve_strain = curve_strain, p.curve_stress = curve_stress;
  if (kind == 2) p.rate_sensitivity = 0.02, p.reference_rate = 1.0, p.dt = 1e-4;
  return p;
}
constexpr const char* hardening_name[3] = {"Voce", "yield curve", "Johnson-Cook"};

TEST(J2, UniaxialStressFollowsNonlinearHardeningExactly) {
  // Monotonic uniaxial loading flows along one direction, so the return map's state lies on the
  // curve at any step size: sigma = k(alpha) R and eps = sigma / E + alpha, here in steps of
  // 1e-4 to 1.5e-2 (past the curve's last point: perfectly plastic there).
  for (int kind = 0; kind < 3; ++kind) {
    const J2Parameters p = hardening(kind);
    State s{};
    double lateral = 0;
    for (int i = 1; i <= 150; ++i) {
      const double axial = 1e-4 * i;
      const double before = s[J2State::equivalent_plastic_strain];
      const double sigma = uniaxial(p, axial, lateral, s);
      const double alpha = s[J2State::equivalent_plastic_strain];
      double k, slope;
      j2_yield_stress(p, alpha, k, slope);
      double R = 1;
      if (kind == 2 && alpha > before)
        R = 1 + 0.02 * std::log(std::max(1.0, (alpha - before) / p.dt / p.reference_rate));
      if (alpha == 0) {
        EXPECT_NEAR(sigma, E * axial, 1e-9 * sy) << hardening_name[kind];
        continue;
      }
      EXPECT_NEAR(sigma, k * R, 1e-9 * sy) << hardening_name[kind] << ", eps " << axial;
      EXPECT_NEAR(axial, sigma / E + alpha, 1e-12) << hardening_name[kind] << ", eps " << axial;
    }
    if (kind == 1) {  // beyond the last point: flat at 330 MPa
      EXPECT_GT(s[J2State::equivalent_plastic_strain], 1e-2);
      double k, slope;
      j2_yield_stress(p, s[J2State::equivalent_plastic_strain], k, slope);
      EXPECT_EQ(k, 3.3e8);
      EXPECT_EQ(slope, 0.0);
    }
  }
  // The rate factor at 1e-4 strain per 1e-4 s (1 / s, the reference) is 1: use 10x faster.
  J2Parameters fast = hardening(2), slow = hardening(2);
  fast.dt = 1e-5, slow.dt = 1e3;
  State a{}, b{};
  double la = 0, lb = 0, sa = 0, sb = 0;
  for (int i = 1; i <= 30; ++i)
    sa = uniaxial(fast, 1e-4 * i, la, a), sb = uniaxial(slow, 1e-4 * i, lb, b);
  EXPECT_GT(sa, sb * 1.03);  // 10 per second against 1e-7: ln 10 x 0.02 = 4.6 % more
}

TEST(J2, ARateDependentStateIsItsOwnReturnWithoutTimePassing) {
  // After a step at a rate above the reference, the stress carries Johnson-Cook's overstress.
  // Evaluated again at the same strain without time passing (dt = 0, the committed rate
  // frozen: a reaction or energy after the step), the state must not flow on.
  J2Parameters p = hardening(2);
  const double eps[6] = {4e-3, -1e-3, -1.5e-3, 1e-3, -5e-4, 8e-4};
  State virgin{}, flowed, again;
  double stress[6], stress_again[6];
  ASSERT_GT(j2_return_map(p, eps, virgin.data(), flowed.data(), stress), 0.0);
  const double rate = flowed[J2State::equivalent_plastic_strain] / p.dt;
  ASSERT_GT(rate, 10 * p.reference_rate);
  J2Parameters frozen = p;
  frozen.dt = 0, frozen.frozen_rate = rate;
  EXPECT_EQ(j2_return_map(frozen, eps, flowed.data(), again.data(), stress_again), 0.0);
  for (int c = 0; c < 6; ++c) EXPECT_NEAR(stress_again[c], stress[c], 1e-9 * sy);
  // Without the frozen rate the overstress would relax (what the frozen rate prevents).
  J2Parameters relaxed = p;
  relaxed.dt = 0;
  EXPECT_GT(j2_return_map(relaxed, eps, flowed.data(), again.data(), stress_again), 0.0);
}

TEST(J2, NonlinearHardeningTangentsMatchCentralDifferences) {
  for (int kind = 0; kind < 3; ++kind) {
    const J2Parameters p = hardening(kind);
    State s{};
    s[J2State::plastic_strain + 0] = 1e-3, s[J2State::plastic_strain + 1] = -5e-4;
    s[J2State::plastic_strain + 2] = -5e-4;
    s[J2State::equivalent_plastic_strain] = 1.2e-3;
    const double eps[6] = {4e-3, -1e-3, -1.5e-3, 1e-3, -5e-4, 8e-4};
    double stress[6], A[81];
    State t;
    ASSERT_GT(j2_return_map(p, eps, s.data(), t.data(), stress, A), 0.0);
    // On the yield surface afterwards.
    double xi[6], k, slope;
    const double tr = eps[0] + eps[1] + eps[2];
    for (int c = 0; c < 6; ++c)
      xi[c] = stress[c] - (c < 3 ? tr * (p.lame.lambda + 2 * p.lame.mu / 3) : 0.0);
    double norm = 0;
    for (int c = 0; c < 6; ++c) norm += (c < 3 ? 1 : 2) * xi[c] * xi[c];
    j2_yield_stress(p, t[J2State::equivalent_plastic_strain], k, slope);
    if (kind != 2) {
      EXPECT_NEAR(std::sqrt(norm), std::sqrt(2.0 / 3.0) * k, 1e-10 * sy) << hardening_name[kind];
    }
    double scale = 0;
    const double worst = tangent_error(p, eps, s, A, scale);
    EXPECT_LT(worst, 1e-6 * scale) << hardening_name[kind];
  }
}

TEST(J2, HardeningEnergyIsTheIntegralOfTheHardening) {
  // d psi / d alpha at fixed strain and plastic strain = k(alpha) - k(0): the stored part of the
  // isotropic hardening (the rest of the plastic work is dissipated).
  for (int kind = 0; kind < 2; ++kind) {
    const J2Parameters p = hardening(kind);
    const double eps[6] = {1e-3, 0, 0, 0, 0, 0};
    for (const double alpha : {5e-4, 3e-3, 7e-3, 2e-2}) {
      State lo{}, hi{};
      const double h = 1e-7;
      lo[J2State::equivalent_plastic_strain] = alpha - h;
      hi[J2State::equivalent_plastic_strain] = alpha + h;
      const double fd =
          (j2_free_energy(p, eps, hi.data()) - j2_free_energy(p, eps, lo.data())) / (2 * h);
      double k, k0, slope;
      j2_yield_stress(p, alpha, k, slope);
      j2_yield_stress(p, 0, k0, slope);
      EXPECT_NEAR(fd, k - k0, 1e-6 * sy) << hardening_name[kind] << ", alpha " << alpha;
    }
  }
}

TEST(J2, ReversedLoadingShowsTheBauschingerEffectWithKinematicHardening) {
  // Loaded to eps = 3e-3 in tension, then reversed: elastic until sigma_max - 2 sigma_y
  // (kinematic) or -sigma_max (isotropic), then along the same tangent E_t.
  for (const bool kinematic : {true, false}) {
    const double H = 10e9, Et = E * H / (E + H);
    const J2Parameters p = kinematic ? steel(0, H) : steel(H, 0);
    State s{};
    double lateral = 0;
    double sigma_max = 0;
    for (int i = 1; i <= 30; ++i) sigma_max = uniaxial(p, 1e-4 * i, lateral, s);
    const double reverse_yield = kinematic ? sigma_max - 2 * sy : -sigma_max;
    const double eps_yield = 3e-3 - (sigma_max - reverse_yield) / E;  // where it yields again
    for (int i = 1; i <= 60; ++i) {
      const double axial = 3e-3 - 1e-4 * i;
      const double sigma = uniaxial(p, axial, lateral, s);
      const double exact = axial >= eps_yield ? sigma_max - E * (3e-3 - axial)
                                              : reverse_yield + Et * (axial - eps_yield);
      EXPECT_NEAR(sigma, exact, 1e-9 * sigma_max)
          << (kinematic ? "kinematic" : "isotropic") << ", eps " << axial;
    }
  }
}

TEST(J2, ReturnedStressLiesOnTheYieldSurface) {
  const J2Parameters p = steel(3e9, 5e9);
  State s{};
  s[J2State::equivalent_plastic_strain] = 2e-3;
  for (int c = 0; c < 6; ++c) s[J2State::back_stress + c] = (c < 3 ? 1.0 : 0.5) * 1e6 * (c - 2);
  s[J2State::back_stress + 0] = -(s[J2State::back_stress + 1] + s[J2State::back_stress + 2]);
  const double eps[6] = {3e-3, -1e-3, -5e-4, 2e-3, -1e-3, 5e-4};
  State t;
  double stress[6];
  ASSERT_GT(j2_return_map(p, eps, s.data(), t.data(), stress), 0.0);
  const double mean = (stress[0] + stress[1] + stress[2]) / 3;
  double xi2 = 0;
  for (int c = 0; c < 6; ++c) {
    const double x = stress[c] - (c < 3 ? mean : 0.0) - t[J2State::back_stress + c];
    xi2 += (c < 3 ? 1.0 : 2.0) * x * x;
  }
  const double radius =
      std::sqrt(2.0 / 3.0) * (sy + p.isotropic_modulus * t[J2State::equivalent_plastic_strain]);
  EXPECT_NEAR(std::sqrt(xi2) / radius, 1.0, 1e-12);
  // The plastic strain stays deviatoric.
  EXPECT_NEAR(t[0] + t[1] + t[2], 0.0, 1e-15);
}

TEST(J2, ConsistentTangentMatchesCentralDifferences) {
  const J2Parameters p = steel(3e9, 5e9);
  State s{};
  s[J2State::plastic_strain + 0] = 1e-3, s[J2State::plastic_strain + 1] = -5e-4;
  s[J2State::plastic_strain + 2] = -5e-4, s[J2State::plastic_strain + 3] = 2e-4;
  s[J2State::equivalent_plastic_strain] = 1.2e-3;
  const double eps0[6] = {4e-3, -1e-3, -1.5e-3, 1e-3, -5e-4, 8e-4};
  for (const double scale : {1.0, 1e-3}) {  // plastic, then elastic (inside the surface)
    double eps[6], stress[6], A[81];
    for (int c = 0; c < 6; ++c) eps[c] = scale * eps0[c] + (scale < 1 ? s[c] : 0.0);
    State t;
    const double dgamma = j2_return_map(p, eps, s.data(), t.data(), stress, A);
    EXPECT_EQ(dgamma > 0, scale == 1.0);
    double norm = 0;
    const double worst = tangent_error(p, eps, s, A, norm);
    EXPECT_LT(worst, 1e-6 * norm) << (scale == 1.0 ? "plastic" : "elastic");
    // Both minor and the major symmetry (associated flow).
    for (int a = 0; a < 9; ++a)
      for (int b = 0; b < 9; ++b) EXPECT_NEAR(A[a * 9 + b], A[b * 9 + a], 1e-6 * norm);
  }
}

TEST(J2, OnTheYieldSurfaceTheTangentIsTheLoadingOne) {
  // A point that flowed sits on its yield surface at the start of the next step: its tangent is
  // the one-sided derivative in the direction of further flow (the elastic-plastic response),
  // not the elastic one of unloading.
  const J2Parameters p = steel(3e9, 5e9);
  const double eps[6] = {4e-3, -1e-3, -1.5e-3, 1e-3, -5e-4, 8e-4};
  State virgin{}, flowed, again;
  double stress[6], A[81];
  ASSERT_GT(j2_return_map(p, eps, virgin.data(), flowed.data(), stress), 0.0);
  EXPECT_EQ(j2_return_map(p, eps, flowed.data(), again.data(), stress, A), 0.0);
  double N[6], dn = 0;  // the flow direction: the plastic strain's increment, normalised
  for (int c = 0; c < 6; ++c) N[c] = flowed[J2State::plastic_strain + c];
  for (int c = 0; c < 6; ++c) dn += (c < 3 ? 1 : 2) * N[c] * N[c];
  for (double& v : N) v /= std::sqrt(dn);
  constexpr int I[6] = {0, 1, 2, 0, 1, 0}, J[6] = {0, 1, 2, 1, 2, 2};
  double AN[6];  // A : N, full index
  for (int c = 0; c < 6; ++c) {
    AN[c] = 0;
    for (int d = 0; d < 6; ++d) {
      const int row = 3 * I[c] + J[c];
      AN[c] += N[d] * (d < 3 ? A[row * 9 + 3 * I[d] + J[d]]
                             : A[row * 9 + 3 * I[d] + J[d]] + A[row * 9 + 3 * J[d] + I[d]]);
    }
  }
  const double h = 1e-9;
  double e[6], loading[6], unloading[6], worst_load = 0, worst_unload = 0, scale = 0;
  for (int c = 0; c < 6; ++c) e[c] = eps[c] + h * N[c];
  j2_return_map(p, e, flowed.data(), again.data(), loading);
  for (int c = 0; c < 6; ++c) e[c] = eps[c] - h * N[c];
  j2_return_map(p, e, flowed.data(), again.data(), unloading);
  for (int c = 0; c < 6; ++c) {
    worst_load = std::max(worst_load, std::abs((loading[c] - stress[c]) / h - AN[c]));
    worst_unload = std::max(worst_unload, std::abs((stress[c] - unloading[c]) / h - AN[c]));
    scale = std::max(scale, std::abs(AN[c]));
  }
  EXPECT_LT(worst_load, 1e-4 * scale);
  EXPECT_GT(worst_unload, 0.5 * scale);  // the elastic side is much stiffer along N
}

TEST(J2, FreeEnergyIsTheStressPotentialAtFixedState) {
  const J2Parameters p = steel(3e9, 5e9);
  State s{};
  s[J2State::plastic_strain + 0] = 1e-3, s[J2State::plastic_strain + 1] = -5e-4;
  s[J2State::plastic_strain + 2] = -5e-4;
  const double eps[6] = {1.2e-3, -4e-4, -6e-4, 1e-4, 0, 5e-5};
  // Elastic at this state (inside the surface): d psi / d eps = sigma.
  State t;
  double stress[6];
  ASSERT_EQ(j2_return_map(p, eps, s.data(), t.data(), stress), 0.0);
  for (int d = 0; d < 6; ++d) {
    const double h = 1e-7;
    double e[6];
    for (int c = 0; c < 6; ++c) e[c] = eps[c];
    e[d] += h;
    const double up = j2_free_energy(p, e, s.data());
    e[d] -= 2 * h;
    const double down = j2_free_energy(p, e, s.data());
    const double fd = (up - down) / (2 * h) / (d < 3 ? 1.0 : 2.0);
    EXPECT_NEAR(fd, stress[d], 1e-6 * std::abs(stress[0])) << d;
  }
}

// ---- element kernel --------------------------------------------------------------------------

/// Reference nodes (VTK order) of tet4, tet10 and hex8, mapped by a fixed affine map and moved
/// by a fixed random perturbation (hex8: a non-affine cell).
std::vector<double> cell(CellType t) {
  std::vector<double> r;
  if (t == CellType::hex8) {
    r = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
  } else {
    r = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (t == CellType::tet10) {
      constexpr int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
      for (const auto& e : edges)
        for (int i = 0; i < 3; ++i) r.push_back(0.5 * (r[3 * e[0] + i] + r[3 * e[1] + i]));
    }
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  const double M[9] = {0.1, 0.02, 0.0, -0.01, 0.12, 0.03, 0.0, 0.01, 0.09};  // metres
  std::vector<double> x(r.size());
  for (std::size_t a = 0; a < r.size() / 3; ++a)
    for (int i = 0; i < 3; ++i)
      x[3 * a + i] = M[3 * i] * r[3 * a] + M[3 * i + 1] * r[3 * a + 1] +
                     M[3 * i + 2] * r[3 * a + 2] + (t == CellType::hex8 ? 0.1 * jitter(rng) : 0.0);
  return x;
}

/// u = G x at every node (a uniform strain sym(G)) plus `wobble` times a fixed random field.
std::vector<double> displacement(const std::vector<double>& x, const double* G, double wobble) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> r(-1, 1);
  std::vector<double> u(x.size());
  for (std::size_t a = 0; a < x.size() / 3; ++a)
    for (int i = 0; i < 3; ++i)
      u[3 * a + i] = G[3 * i] * x[3 * a] + G[3 * i + 1] * x[3 * a + 1] +
                     G[3 * i + 2] * x[3 * a + 2] + wobble * r(rng);
  return u;
}

constexpr std::array<CellType, 3> solids{CellType::tet4, CellType::tet10, CellType::hex8};

TEST(J2Element, BelowYieldIsTheLinearElasticElement) {
  const J2Parameters p = steel(1e9, 1e9);
  const double G[9] = {2e-4, 1e-4, 0, -5e-5, -1e-4, 3e-5, 0, 2e-5, 1e-4};
  for (const CellType t : solids) {
    const std::vector<double> x = cell(t), u = displacement(x, G, 1e-7);
    const std::size_t nd = x.size(), points = stiffness_rule(t).num_points;
    std::vector<double> committed(points * J2State::size, 0.0), trial(committed.size());
    std::vector<double> f(nd), K(nd * nd), Ke(nd * nd);
    j2_element(t, x, u, p, committed, trial, f, K);
    stiffness_linear_elastic(t, x, p.lame.lambda, p.lame.mu, Ke);
    double worst = 0, scale = 0;
    for (std::size_t k = 0; k < nd * nd; ++k)
      worst = std::max(worst, std::abs(K[k] - Ke[k])), scale = std::max(scale, std::abs(Ke[k]));
    EXPECT_LT(worst, 1e-12 * scale) << info(t).name;
    for (std::size_t r = 0; r < nd; ++r) {
      double ku = 0;
      for (std::size_t c = 0; c < nd; ++c) ku += Ke[r * nd + c] * u[c];
      EXPECT_NEAR(f[r], ku, 1e-10 * scale * 1e-4) << info(t).name;
    }
    for (const double v : trial) EXPECT_EQ(v, 0.0);
  }
}

TEST(J2Element, UniformStrainGivesEveryPointTheSameState) {
  const J2Parameters p = steel(2e9, 3e9);
  const double G[9] = {4e-3, 1e-3, 0, 0, -1.5e-3, 5e-4, 0, 0, -1e-3};
  for (const CellType t : solids) {
    const std::vector<double> x = cell(t), u = displacement(x, G, 0.0);
    const std::size_t points = stiffness_rule(t).num_points;
    std::vector<double> committed(points * J2State::size, 0.0), trial(committed.size());
    j2_element(t, x, u, p, committed, trial, {}, {});
    EXPECT_GT(trial[J2State::equivalent_plastic_strain], 1e-3) << info(t).name;
    // Each kind to 1e-9 of its largest component (plastic strain, alpha, back stress in Pa).
    auto scale = [&](int k) {
      const int lo = k < 6 ? 0 : k == 6 ? 6 : 7, hi = k < 6 ? 6 : k == 6 ? 7 : 13;
      double m = 0;
      for (int i = lo; i < hi; ++i) m = std::max(m, std::abs(trial[i]));
      return m;
    };
    for (std::size_t q = 1; q < points; ++q)
      for (int k = 0; k < J2State::size; ++k)
        EXPECT_NEAR(trial[q * J2State::size + k], trial[k], 1e-9 * scale(k))
            << info(t).name << " point " << q << " component " << k;
  }
}

TEST(J2Element, TangentIsTheDerivativeOfTheForce) {
  // In the plastic range, from a committed state with plastic strain, back stress and hardening
  // at every point; central differences on every displacement.
  const J2Parameters p = steel(2e9, 3e9);
  const double G[9] = {4e-3, 1e-3, 0, 0, -1.5e-3, 5e-4, 0, 0, -1e-3};
  for (const CellType t : solids) {
    const std::vector<double> x = cell(t), u = displacement(x, G, 2e-5);
    const std::size_t nd = x.size(), points = stiffness_rule(t).num_points;
    std::vector<double> committed(points * J2State::size, 0.0), trial(committed.size());
    for (std::size_t q = 0; q < points; ++q) {
      double* c = &committed[q * J2State::size];
      c[0] = 1e-3, c[1] = -6e-4, c[2] = -4e-4, c[3] = 1e-4 * static_cast<double>(q);
      c[J2State::equivalent_plastic_strain] = 1.1e-3;
      c[J2State::back_stress] = 2e6, c[J2State::back_stress + 1] = -1e6;
      c[J2State::back_stress + 2] = -1e6;
    }
    std::vector<double> f(nd), K(nd * nd), plus(nd), minus(nd);
    j2_element(t, x, u, p, committed, trial, f, K);
    double worst = 0, scale = 0;
    for (std::size_t d = 0; d < nd; ++d) {
      std::vector<double> v = u;
      const double h = 1e-9;
      v[d] += h;
      j2_element(t, x, v, p, committed, trial, plus, {});
      v[d] -= 2 * h;
      j2_element(t, x, v, p, committed, trial, minus, {});
      for (std::size_t r = 0; r < nd; ++r) {
        worst = std::max(worst, std::abs((plus[r] - minus[r]) / (2 * h) - K[r * nd + d]));
        scale = std::max(scale, std::abs(K[r * nd + d]));
      }
    }
    EXPECT_LT(worst, 1e-5 * scale) << info(t).name;
  }
}

TEST(J2Element, Hex8FormulationsBelowYieldAreTheirLinearElements) {
  const J2Parameters p = steel(1e9, 1e9);
  const double G[9] = {1e-4, 2e-5, 0, -1e-5, -3e-5, 1e-5, 0, 2e-5, 4e-5};
  const std::vector<double> x = cell(CellType::hex8), u = displacement(x, G, 1e-7);
  const std::size_t nd = x.size();
  for (const Formulation f : {Formulation::bbar, Formulation::reduced}) {
    const Technology tech{f, 0.05};
    const int points = j2_points(CellType::hex8, f);
    EXPECT_EQ(points, f == Formulation::reduced ? 1 : 8);
    std::vector<double> committed(points * J2State::size, 0.0), trial(committed.size());
    std::vector<double> force(nd), K(nd * nd), Ke(nd * nd);
    double hourglass = -1;
    j2_element(CellType::hex8, x, u, p, committed, trial, force, K, J2State::size, tech,
               &hourglass);
    stiffness_linear_elastic(CellType::hex8, x, p.lame.lambda, p.lame.mu, tech, Ke);
    double worst = 0, scale = 0;
    for (std::size_t k = 0; k < nd * nd; ++k)
      worst = std::max(worst, std::abs(K[k] - Ke[k])), scale = std::max(scale, std::abs(Ke[k]));
    EXPECT_LT(worst, 1e-12 * scale) << name(f);
    double uKu = 0;
    for (std::size_t r = 0; r < nd; ++r) {
      double ku = 0;
      for (std::size_t c = 0; c < nd; ++c) ku += Ke[r * nd + c] * u[c];
      EXPECT_NEAR(force[r], ku, 1e-10 * scale * 1e-4) << name(f);
      uKu += u[r] * ku;
    }
    EXPECT_EQ(hourglass > 0, f == Formulation::reduced) << name(f);
    const double energy =
        j2_element(CellType::hex8, x, u, p, committed, trial, {}, {}, J2State::size, tech);
    EXPECT_NEAR(energy, 0.5 * uKu, 1e-10 * energy) << name(f);
  }
}

TEST(J2Element, Hex8FormulationTangentsAreTheDerivativeOfTheForce) {
  const J2Parameters p = steel(2e9, 3e9);
  const double G[9] = {4e-3, 1e-3, 0, 0, -1.5e-3, 5e-4, 0, 0, -1e-3};
  const std::vector<double> x = cell(CellType::hex8), u = displacement(x, G, 2e-5);
  const std::size_t nd = x.size();
  for (const Formulation f : {Formulation::bbar, Formulation::reduced}) {
    const Technology tech{f, 0.05};
    const auto points = static_cast<std::size_t>(j2_points(CellType::hex8, f));
    std::vector<double> committed(points * J2State::size, 0.0), trial(committed.size());
    for (std::size_t q = 0; q < points; ++q) {
      double* c = &committed[q * J2State::size];
      c[0] = 1e-3, c[1] = -6e-4, c[2] = -4e-4, c[3] = 1e-4 * static_cast<double>(q);
      c[J2State::equivalent_plastic_strain] = 1.1e-3;
      c[J2State::back_stress] = 2e6, c[J2State::back_stress + 1] = -1e6;
      c[J2State::back_stress + 2] = -1e6;
    }
    std::vector<double> force(nd), K(nd * nd), plus(nd), minus(nd);
    j2_element(CellType::hex8, x, u, p, committed, trial, force, K, J2State::size, tech);
    EXPECT_GT(trial[J2State::equivalent_plastic_strain], 1.1e-3) << name(f);  // plastic
    double worst = 0, scale = 0;
    for (std::size_t d = 0; d < nd; ++d) {
      std::vector<double> v = u;
      const double h = 1e-9;
      v[d] += h;
      j2_element(CellType::hex8, x, v, p, committed, trial, plus, {}, J2State::size, tech);
      v[d] -= 2 * h;
      j2_element(CellType::hex8, x, v, p, committed, trial, minus, {}, J2State::size, tech);
      for (std::size_t r = 0; r < nd; ++r) {
        worst = std::max(worst, std::abs((plus[r] - minus[r]) / (2 * h) - K[r * nd + d]));
        scale = std::max(scale, std::abs(K[r * nd + d]));
      }
    }
    EXPECT_LT(worst, 1e-5 * scale) << name(f);
    if (f == Formulation::reduced) {  // the precomputed geometry gives the same element
      double geometry[hex8_reduced_values];
      hex8_reduced_geometry(x, geometry);
      std::vector<double> f2(nd), K2(nd * nd);
      j2_element(CellType::hex8, x, u, p, committed, trial, f2, K2, J2State::size, tech, nullptr,
                 geometry);
      for (std::size_t r = 0; r < nd; ++r) EXPECT_NEAR(f2[r], force[r], 1e-12 * scale * 1e-4);
      for (std::size_t k = 0; k < nd * nd; ++k) EXPECT_NEAR(K2[k], K[k], 1e-12 * scale);
    }
    // Symmetric (associative flow, B-bar and the hourglass term symmetric too).
    for (std::size_t r = 0; r < nd; ++r)
      for (std::size_t c = 0; c < nd; ++c)
        EXPECT_NEAR(K[r * nd + c], K[c * nd + r], 1e-9 * scale) << name(f);
  }
}

// ---- finite strain (the logarithmic strain space) --------------------------------------------

J2Parameters finite(double h_iso, double h_kin) {
  J2Parameters p = steel(h_iso, h_kin);
  p.finite_strain = true;
  return p;
}

TEST(J2Finite, PrincipalStretchesFollowTheSmallStrainLawInLogStrainAndKirchhoffStress) {
  // F = diag(l1, l2, l3): E = diag(ln l_i), and the Kirchhoff stress J sigma is the small-strain
  // return map's stress at E (the axes stay fixed). Loading, then reversed loading (kinematic
  // hardening's Bauschinger effect) from the committed state: to round-off.
  const J2Parameters p = finite(2e9, 3e9);
  const double stretches[2][3] = {{1.25, 0.92, 0.97}, {0.85, 1.05, 1.1}};
  for (const CellType t : solids) {
    const std::vector<double> x = cell(t);
    const std::size_t points = stiffness_rule(t).num_points;
    const int stride = J2State::with_history;
    std::vector<double> committed(points * stride, 0.0), trial(committed.size());
    State small{};
    for (const auto& l : stretches) {
      const double G[9] = {l[0] - 1, 0, 0, 0, l[1] - 1, 0, 0, 0, l[2] - 1};
      const std::vector<double> u = displacement(x, G, 0.0);
      j2_element(t, x, u, p, committed, trial, {}, {}, stride);
      const double eps[6] = {std::log(l[0]), std::log(l[1]), std::log(l[2]), 0, 0, 0};
      double stress[6];
      j2_return_map(steel(2e9, 3e9), eps, small.data(), small.data(), stress);
      const double J = l[0] * l[1] * l[2];
      for (std::size_t q = 0; q < points; ++q) {
        const double* s = &trial[q * stride];
        for (int k = 0; k < J2State::size; ++k)
          EXPECT_NEAR(s[k], small[k], 1e-12 * (k < 7 ? 1.0 : sy)) << info(t).name << " " << k;
        for (int k = 0; k < 6; ++k) {
          EXPECT_NEAR(s[J2State::strain + k], eps[k], 1e-14) << info(t).name;
          EXPECT_NEAR(J * s[J2State::stress + k], stress[k], 1e-11 * sy) << info(t).name;
        }
      }
      EXPECT_GT(small[J2State::equivalent_plastic_strain], 0.05);
      committed = trial;
    }
  }
}

TEST(J2Finite, ARigidRotationRotatesTheForcesAndTheStressAndKeepsTheState) {
  const J2Parameters p = finite(2e9, 3e9);
  const double G[9] = {0.2, 0.05, 0, 0.02, -0.1, 0.03, 0, 0.01, -0.05};
  const double c = std::cos(0.7), s = std::sin(0.7);
  const double R[9] = {c, -s, 0, s * 0.6, c * 0.6, -0.8, s * 0.8, c * 0.8, 0.6};  // rotation
  double RF[9];  // G' = R (I + G) - I
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double v = 0;
      for (int k = 0; k < 3; ++k) v += R[3 * i + k] * ((k == j) + G[3 * k + j]);
      RF[3 * i + j] = v - (i == j);
    }
  for (const CellType t : solids) {
    const std::vector<double> x = cell(t), u = displacement(x, G, 0.0),
                              ur = displacement(x, RF, 0.0);
    const std::size_t nd = x.size(), points = stiffness_rule(t).num_points;
    const int stride = J2State::with_history;
    std::vector<double> committed(points * stride, 0.0), trial(committed.size()),
        rotated(committed.size()), f(nd), fr(nd);
    const double e = j2_element(t, x, u, p, committed, trial, f, {}, stride);
    const double er = j2_element(t, x, ur, p, committed, rotated, fr, {}, stride);
    EXPECT_NEAR(er, e, 1e-12 * e) << info(t).name;
    double scale = 0;
    for (const double v : f) scale = std::max(scale, std::abs(v));
    for (std::size_t a = 0; a < nd / 3; ++a)
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(fr[3 * a + i],
                    R[3 * i] * f[3 * a] + R[3 * i + 1] * f[3 * a + 1] + R[3 * i + 2] * f[3 * a + 2],
                    1e-11 * scale)
            << info(t).name;
    for (std::size_t q = 0; q < points; ++q) {
      const double* a = &trial[q * stride];
      const double* b = &rotated[q * stride];
      for (int k = 0; k < 7; ++k) EXPECT_NEAR(b[k], a[k], 1e-12) << info(t).name << " " << k;
      EXPECT_GT(a[J2State::equivalent_plastic_strain], 0.05);
      // sigma' = R sigma R^T
      constexpr int I[6] = {0, 1, 2, 0, 1, 0}, J[6] = {0, 1, 2, 1, 2, 2};
      double S[9];
      for (int k = 0; k < 6; ++k) S[3 * I[k] + J[k]] = S[3 * J[k] + I[k]] = a[J2State::stress + k];
      for (int k = 0; k < 6; ++k) {
        double v = 0;
        for (int m = 0; m < 3; ++m)
          for (int n = 0; n < 3; ++n) v += R[3 * I[k] + m] * S[3 * m + n] * R[3 * J[k] + n];
        EXPECT_NEAR(b[J2State::stress + k], v, 1e-11 * sy) << info(t).name;
      }
    }
  }
}

TEST(J2Finite, TangentIsTheDerivativeOfTheForce) {
  // Strains of 10-20 %, a plastic committed state, every cell and the reduced hex8; central
  // differences on every displacement (the tangent's numerical part is good to about 1e-10).
  J2Parameters p = finite(2e9, 3e9);
  const double G[9] = {0.2, 0.05, 0, 0.02, -0.1, 0.03, 0, 0.01, -0.05};
  for (const Formulation form : {Formulation::full, Formulation::reduced, Formulation::fbar})
    for (const CellType t : solids) {
      if (!available(form, t)) continue;
      const Technology tech{form, 0.05};
      const std::vector<double> x = cell(t), u = displacement(x, G, 2e-3);
      const std::size_t nd = x.size();
      const auto points = static_cast<std::size_t>(j2_points(t, form));
      std::vector<double> committed(points * J2State::size, 0.0), trial(committed.size());
      for (std::size_t q = 0; q < points; ++q) {
        double* c = &committed[q * J2State::size];
        c[0] = 0.05, c[1] = -0.03, c[2] = -0.02, c[3] = 0.005 * static_cast<double>(q);
        c[J2State::equivalent_plastic_strain] = 0.06;
        c[J2State::back_stress] = 2e7, c[J2State::back_stress + 1] = -1e7;
        c[J2State::back_stress + 2] = -1e7;
      }
      std::vector<double> f(nd), K(nd * nd), plus(nd), minus(nd);
      j2_element(t, x, u, p, committed, trial, f, K, J2State::size, tech);
      EXPECT_GT(trial[J2State::equivalent_plastic_strain], 0.06) << info(t).name;
      double worst = 0, scale = 0;
      for (std::size_t d = 0; d < nd; ++d) {
        std::vector<double> v = u;
        const double h = 1e-8;
        v[d] += h;
        j2_element(t, x, v, p, committed, trial, plus, {}, J2State::size, tech);
        v[d] -= 2 * h;
        j2_element(t, x, v, p, committed, trial, minus, {}, J2State::size, tech);
        for (std::size_t r = 0; r < nd; ++r) {
          worst = std::max(worst, std::abs((plus[r] - minus[r]) / (2 * h) - K[r * nd + d]));
          scale = std::max(scale, std::abs(K[r * nd + d]));
        }
      }
      EXPECT_LT(worst, 1e-6 * scale) << info(t).name << " " << name(form);
    }
}

TEST(J2Finite, SmallStrainsGiveTheSmallStrainElementAndBbarIsRefused) {
  const double G[9] = {2e-7, 1e-7, 0, -5e-8, -1e-7, 3e-8, 0, 2e-8, 1e-7};
  for (const CellType t : solids) {
    const std::vector<double> x = cell(t), u = displacement(x, G, 1e-10);
    const std::size_t nd = x.size(), points = stiffness_rule(t).num_points;
    std::vector<double> committed(points * J2State::size, 0.0), trial(committed.size());
    std::vector<double> f(nd), K(nd * nd), fs(nd), Ks(nd * nd);
    j2_element(t, x, u, finite(1e9, 1e9), committed, trial, f, K);
    j2_element(t, x, u, steel(1e9, 1e9), committed, trial, fs, Ks);
    double worst = 0, scale = 0, fworst = 0, fscale = 0;
    for (std::size_t k = 0; k < nd * nd; ++k)
      worst = std::max(worst, std::abs(K[k] - Ks[k])), scale = std::max(scale, std::abs(Ks[k]));
    for (std::size_t k = 0; k < nd; ++k)
      fworst = std::max(fworst, std::abs(f[k] - fs[k])), fscale = std::max(fscale, std::abs(fs[k]));
    EXPECT_LT(worst, 1e-5 * scale) << info(t).name;
    EXPECT_LT(fworst, 1e-5 * fscale) << info(t).name;
  }
  const std::vector<double> x = cell(CellType::hex8);
  std::vector<double> s(8 * J2State::size, 0.0), f(24);
  EXPECT_THROW(j2_element(CellType::hex8, x, std::vector<double>(24, 0.0), finite(0, 0), s, s, f,
                          {}, J2State::size, Technology{Formulation::bbar, 0.05}),
               InternalError);
}

TEST(J2Finite, FbarOfAUniformDeformationIsTheFullElementAndItsVolumeIsTheMeanOne) {
  // A homogeneous F: F_bar = F at every point, so fbar equals full (force, state). A non-uniform
  // field: every point of an F-bar cell sees det F_bar = det F0.
  const J2Parameters p = finite(2e9, 3e9);
  const std::vector<double> x = cell(CellType::hex8);
  const double G[9] = {0.2, 0.05, 0, 0.02, -0.1, 0.03, 0, 0.01, -0.05};
  const int stride = J2State::with_history;
  for (const double wobble : {0.0, 3e-3}) {
    const std::vector<double> u = displacement(x, G, wobble);
    std::vector<double> c(8 * stride, 0.0), full(c.size()), fbar(c.size()), ff(24), fb(24);
    j2_element(CellType::hex8, x, u, p, c, full, ff, {}, stride);
    j2_element(CellType::hex8, x, u, p, c, fbar, fb, {}, stride, Technology{Formulation::fbar});
    double scale = 0, worst = 0;
    for (int k = 0; k < 24; ++k)
      scale = std::max(scale, std::abs(ff[k])), worst = std::max(worst, std::abs(ff[k] - fb[k]));
    if (wobble == 0) {
      EXPECT_LT(worst, 1e-12 * scale);
      for (std::size_t k = 0; k < c.size(); ++k)
        EXPECT_NEAR(fbar[k], full[k], 1e-9 * (1 + std::abs(full[k])));
    } else {
      EXPECT_GT(worst, 1e-3 * scale);  // the wobble makes them differ
      double b[24];
      hex8_mean_gradients(x, b);
      double F0[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) F0[3 * i + j] += u[3 * a + i] * b[3 * a + j];
      const double J0 = F0[0] * (F0[4] * F0[8] - F0[5] * F0[7]) -
                        F0[1] * (F0[3] * F0[8] - F0[5] * F0[6]) +
                        F0[2] * (F0[3] * F0[7] - F0[4] * F0[6]);
      for (int q = 0; q < 8; ++q) {  // the log strain's trace is ln det F_bar
        const double* s = &fbar[q * stride + J2State::strain];
        EXPECT_NEAR(s[0] + s[1] + s[2], std::log(J0), 1e-13) << q;
      }
    }
  }
}

}  // namespace
}  // namespace inertia::fe

// ---- dissipation (J2State::dissipation, booked from the return map) -------------------------

namespace inertia::fe {
namespace {

/// Drives a hex8 cell (non-affine) through the uniform strains sym(G_n), n = 1..N, committing
/// each step, and returns the first point's history state after each step.
std::vector<std::vector<double>> history_path(const J2Parameters& p,
                                              const std::vector<std::array<double, 9>>& path) {
  const std::vector<double> x = cell(CellType::hex8);
  const int stride = J2State::with_history, points = 8;
  std::vector<double> committed(points * stride, 0.0), trial(committed.size());
  std::vector<std::vector<double>> states;
  for (const auto& G : path) {
    j2_element(CellType::hex8, x, displacement(x, G.data(), 0.0), p, committed, trial, {}, {},
               stride);
    for (int q = 1; q < points; ++q)  // a uniform strain: every point the same
      EXPECT_NEAR(trial[q * stride + J2State::dissipation], trial[J2State::dissipation],
                  1e-9 * (1 + std::abs(trial[J2State::dissipation])));
    states.emplace_back(trial.begin(), trial.begin() + stride);
    committed = trial;
  }
  return states;
}

/// Uniaxial strain eps_xx = e_n.
std::vector<std::array<double, 9>> uniaxial_strain(const std::vector<double>& e) {
  std::vector<std::array<double, 9>> path;
  for (const double v : e) path.push_back({v, 0, 0, 0, 0, 0, 0, 0, 0});
  return path;
}

TEST(J2Dissipation, AUniaxialCycleBooksTheHysteresisLoopsAreaAndNeverDecreases) {
  // Uniaxial strain eps_xx = e with kinematic hardening: in the direction n of dev(e_x e_x) the
  // deviatoric strain is q = sqrt(2/3) e, the plastic strain p n, the back stress (2/3 H p) n and
  // the yield condition |2 mu (q - p) - 2/3 H p| = R0 = sqrt(2/3) sigma_y. From 0 to Q the flow
  // reaches p = P = (2 mu sqrt(2/3) Q - R0) / (2 mu + 2/3 H); each later branch Q -> -Q -> Q
  // moves it by 2P. The loop Q -> -Q -> Q encloses R0 4P (the stored back-stress energy comes
  // back), the dissipation sigma_y alpha of that cycle. Coarse steps (7 and 13 per branch): the
  // yield crossings fall inside steps, where the trapezoidal rule errs (the old booking).
  const double H = 10e9, Q = 5e-3;
  const J2Parameters p = steel(0, H);
  const double mu = p.lame.mu, R0 = std::sqrt(2.0 / 3.0) * sy;
  const double P = (2 * mu * std::sqrt(2.0 / 3.0) * Q - R0) / (2 * mu + 2.0 / 3.0 * H);
  std::vector<double> e;
  for (int n = 1; n <= 7; ++n) e.push_back(Q * n / 7);
  for (int n = 1; n <= 13; ++n) e.push_back(Q - 2 * Q * n / 13);
  for (int n = 1; n <= 13; ++n) e.push_back(-Q + 2 * Q * n / 13);
  const auto states = history_path(p, uniaxial_strain(e));
  double previous = 0, worst_rule = 0;
  for (const auto& s : states) {
    EXPECT_GE(s[J2State::dissipation], previous);
    previous = s[J2State::dissipation];
    worst_rule = std::max(worst_rule, std::abs(s[J2State::work_error]));
  }
  const double first_peak = states[6][J2State::dissipation];
  EXPECT_NEAR(first_peak, R0 * P, 1e-12 * R0 * P);
  EXPECT_NEAR(states.back()[J2State::dissipation] - first_peak, 4 * R0 * P, 1e-12 * R0 * P);
  EXPECT_NEAR(states.back()[J2State::equivalent_plastic_strain], std::sqrt(2.0 / 3.0) * 5 * P,
              1e-12 * P);
  // The rule's error is the work error's, not the dissipation's: a few % of a branch's here.
  EXPECT_GT(worst_rule, 1e-3 * R0 * P);

  // The loop's area from the stresses of a fine path (the trapezoidal rule, whose error at the
  // two yield crossings shrinks as the step squared): the closed form to 1e-6.
  std::vector<double> fine{Q};
  for (int n = 1; n <= 2000; ++n) fine.push_back(Q - 2 * Q * n / 2000);
  for (int n = 1; n <= 2000; ++n) fine.push_back(-Q + 2 * Q * n / 2000);
  const auto loop = history_path(p, uniaxial_strain(fine));
  double area = 0;  // sigma_xx d eps_xx (the other strains are zero)
  for (std::size_t n = 1; n < loop.size(); ++n)
    area +=
        0.5 * (loop[n][J2State::stress] + loop[n - 1][J2State::stress]) * (fine[n] - fine[n - 1]);
  EXPECT_NEAR(area, 4 * R0 * P, 1e-6 * 4 * R0 * P);
}

TEST(J2Dissipation, IsTheInitialYieldStressTimesAlphaForEveryRateIndependentHardening) {
  // The stored hardening energy is int_0^alpha (k - k(0)) (isotropic) and 3/(4 H_kin) beta:beta
  // (kinematic): the rest of the plastic work is k(0) alpha, whatever the path (loading,
  // elastic unloading, reloading, reversed flow) and the step.
  J2Parameters linear = steel(4e9, 6e9), voce = steel(1e9, 2e9), curve = steel(0, 0);
  voce.voce_saturation = 1e8, voce.voce_rate = 40;
  const double xs[] = {0, 0.002, 0.01}, ys[] = {3e8, 3.5e8, 3.8e8};
  curve.curve_strain = xs, curve.curve_stress = ys;
  const std::vector<double> e = {2e-3, 5e-3, 8e-3, 6e-3, 1e-2, 4e-3, -2e-3, -8e-3, 0};
  for (const auto& [p, k0] : {std::pair{linear, sy}, std::pair{voce, sy}, std::pair{curve, 3e8}}) {
    double previous = 0;
    for (const auto& s : history_path(p, uniaxial_strain(e))) {
      const double alpha = s[J2State::equivalent_plastic_strain];
      EXPECT_NEAR(s[J2State::dissipation], k0 * alpha, 1e-12 * k0 * alpha);
      EXPECT_GE(s[J2State::dissipation], previous);
      previous = s[J2State::dissipation];
    }
    EXPECT_GT(previous, k0 * 0.01);
  }
}

TEST(J2Dissipation, AtFiniteStrainItStaysTheYieldStressTimesAlphaAlongATurningPath) {
  // Hencky + J2 through stretches and shears whose axes turn (the log strain's increments are
  // not proportional): the dissipation is sigma_y alpha at every step, never decreasing.
  const J2Parameters p = finite(2e9, 3e9);
  std::vector<std::array<double, 9>> path;
  for (int n = 1; n <= 12; ++n) {
    const double t = 0.05 * n, c = std::cos(0.4 * n), s = std::sin(0.4 * n);
    path.push_back(
        {t * c, 0.3 * t * s, 0, 0.1 * t, -0.5 * t * c, 0.2 * t * s, 0, 0.05 * t, -0.3 * t});
  }
  double previous = 0;
  for (const auto& st : history_path(p, path)) {
    const double alpha = st[J2State::equivalent_plastic_strain];
    EXPECT_NEAR(st[J2State::dissipation], sy * alpha, 1e-12 * sy * alpha);
    EXPECT_GE(st[J2State::dissipation], previous);
    previous = st[J2State::dissipation];
  }
  EXPECT_GT(previous, sy * 0.05);
}

}  // namespace
}  // namespace inertia::fe
