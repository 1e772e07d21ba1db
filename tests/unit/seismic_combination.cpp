// Modal (SRSS, CQC, ABS) and directional (SRSS, 100/30) combination.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "inertia/seismic/modal_combination.hpp"

namespace inertia {
namespace {

TEST(ModalCombination, CqcCoefficientsOfDerKiureghian) {
  // Equal damping xi: rho = 8 xi^2 (1 + r) r^1.5 / ((1 - r^2)^2 + 4 xi^2 r (1 + r)^2), the
  // form in Wilson, Der Kiureghian and Bayo (1981), from the general one.
  for (double xi : {0.02, 0.05, 0.1})
    for (double r : {0.5, 0.8, 0.9, 0.95}) {
      const double equal = 8 * xi * xi * (1 + r) * std::pow(r, 1.5) /
                           ((1 - r * r) * (1 - r * r) + 4 * xi * xi * r * (1 + r) * (1 + r));
      EXPECT_NEAR(cqc_correlation(10.0, 10.0 * r, xi, xi), equal, 1e-14);
      EXPECT_NEAR(cqc_correlation(10.0, 10.0 * r, xi, xi), cqc_correlation(10.0 * r, 10.0, xi, xi),
                  1e-14);  // symmetric for equal damping
    }
  // Close modes correlate, separated ones do not: at 5 %, 0.473 at r = 0.9 (0.032445 / 0.06859)
  // and 0.0185 at r = 0.5 (0.0106066 / 0.57375), both by hand from the formula.
  EXPECT_NEAR(cqc_correlation(1.0, 0.9, 0.05, 0.05), 0.4730, 5e-4);
  EXPECT_NEAR(cqc_correlation(1.0, 0.5, 0.05, 0.05), 0.018486, 1e-6);
  EXPECT_EQ(cqc_correlation(3.0, 3.0, 0.05, 0.05), 1.0);
  EXPECT_NEAR(cqc_correlation(3.0, 3.0 * (1 + 1e-9), 0.05, 0.05), 1.0, 1e-9);  // continuous
  EXPECT_EQ(cqc_correlation(1.0, 0.9, 0.0, 0.0), 0.0);  // no damping: no correlation
}

TEST(ModalCombination, CqcIsSrssForSeparatedModesAndAddsTheCrossTermForCloseOnes) {
  const std::vector<double> q{3.0, -2.0, 1.0};
  const std::vector<double> xi(3, 0.05);
  const std::vector<double> separated{1.0, 3.0, 9.0}, close{1.0, 1.05, 9.0};
  const double srss = std::sqrt(9.0 + 4.0 + 1.0);
  const auto identity = modal_coefficients(ModalRule::srss, separated, xi);
  EXPECT_DOUBLE_EQ(combine_modes(ModalRule::srss, q, identity), srss);
  EXPECT_DOUBLE_EQ(combine_modes(ModalRule::abs, q, identity), 6.0);
  const auto far = modal_coefficients(ModalRule::cqc, separated, xi);
  EXPECT_NEAR(combine_modes(ModalRule::cqc, q, far) / srss, 1, 0.01);
  const auto near = modal_coefficients(ModalRule::cqc, close, xi);
  const double rho = cqc_correlation(1.0, 1.05, 0.05, 0.05);
  EXPECT_GT(rho, 0.7);
  // Modes 1 and 2 of opposite signs: the cross term lowers the peak below SRSS.
  EXPECT_NEAR(combine_modes(ModalRule::cqc, q, near),
              std::sqrt(9.0 + 4.0 + 1.0 + 2 * rho * 3.0 * -2.0 + 2 * near[2] * 3.0 * 1.0 +
                        2 * near[5] * -2.0 * 1.0),
              1e-12);
  EXPECT_LT(combine_modes(ModalRule::cqc, q, near), 0.8 * srss);
  // A repeated frequency (a symmetric tower's x and y pair, in any rotation SLEPc returns):
  // fully correlated, so CQC gives |q1 + q2|, the invariant answer, where SRSS does not.
  const std::vector<double> pair{2.0, 2.0};
  const auto same = modal_coefficients(ModalRule::cqc, pair, std::vector<double>{0.05, 0.05});
  EXPECT_DOUBLE_EQ(combine_modes(ModalRule::cqc, std::vector<double>{0.6, 0.8}, same), 1.4);
}

TEST(DirectionalCombination, SrssAndTheHundredThirtyRule) {
  const std::vector<double> r{3.0, -4.0, 1.0};
  EXPECT_DOUBLE_EQ(combine_directions(DirectionalRule::srss, r), std::sqrt(26.0));
  // max(3 + 0.3 (4 + 1), 4 + 0.3 (3 + 1), 1 + 0.3 (3 + 4)) = 5.2
  EXPECT_DOUBLE_EQ(combine_directions(DirectionalRule::percent_100_30, r), 5.2);
  EXPECT_DOUBLE_EQ(combine_directions(DirectionalRule::percent_100_30, std::vector<double>{-2.0}),
                   2.0);
}

}  // namespace
}  // namespace inertia
