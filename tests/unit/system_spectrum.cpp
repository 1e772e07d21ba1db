// The rounding of the stable step that dt: auto takes (system/spectrum.hpp): down, to 3
// significant digits, to the double nearest the decimal, so that estimates 1e-15 apart (two rank
// counts) give the same bits.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "inertia/system/spectrum.hpp"

namespace inertia {
namespace {

TEST(RoundDownToDigits, KeepsThreeSignificantDigitsAndNeverRoundsUp) {
  // The np 1, 2, 3 estimates of the issue: 7.17875e-7, 7.17789e-7 would both be 7.17e-7.
  EXPECT_EQ(round_down_to_digits(7.17875e-7, 3), 7.17e-7);
  EXPECT_EQ(round_down_to_digits(7.17789e-7, 3), 7.17e-7);
  EXPECT_EQ(round_down_to_digits(7.20375e-7, 3), 7.2e-7);
  EXPECT_EQ(round_down_to_digits(8.61663e-7, 3), 8.61e-7);
  // Estimates one ulp apart on either side of a decimal: the same bits unless they straddle it.
  EXPECT_EQ(round_down_to_digits(std::nextafter(8.61663e-7, 0.0), 3),
            round_down_to_digits(std::nextafter(8.61663e-7, 1.0), 3));
  EXPECT_EQ(round_down_to_digits(7.17e-7, 3), 7.17e-7);  // already 3 digits: itself
  EXPECT_EQ(round_down_to_digits(std::nextafter(7.17e-7, 0.0), 3), 7.16e-7);
  EXPECT_EQ(round_down_to_digits(1000.0, 3), 1000.0);  // a power of 10 (log10 exact)
  EXPECT_EQ(round_down_to_digits(999.9999999, 3), 999.0);
  EXPECT_EQ(round_down_to_digits(0.1 + 0.2, 3), 0.3);  // 0.30000000000000004
  EXPECT_EQ(round_down_to_digits(123456.0, 2), 120000.0);
  EXPECT_TRUE(std::isinf(round_down_to_digits(INFINITY, 3)));  // no stable step: none
  // Over many magnitudes (time steps from 1e-20 to 1e20 s): never above x, the double nearest a
  // 3-digit decimal (printf's %.2e reads it back), and the next decimal up is above x.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(-46, 46);
  int failures = 0;
  for (int i = 0; i < 100000; ++i) {
    const double x = std::exp(exponent(random));
    const double r = round_down_to_digits(x, 3);
    char text[32], next[48];
    std::snprintf(text, sizeof text, "%.2e", r);
    int whole = 0, tenths = 0, hundredths = 0, power = 0;
    std::sscanf(text, "%1d.%1d%1de%d", &whole, &tenths, &hundredths, &power);
    std::snprintf(next, sizeof next, "%de%d", 100 * whole + 10 * tenths + hundredths + 1,
                  power - 2);
    if (r > x || std::strtod(text, nullptr) != r || std::strtod(next, nullptr) <= x) ++failures;
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace inertia
