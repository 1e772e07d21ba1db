// Record files (PEER .AT2, single column, tables), units and baseline correction.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "inertia/seismic/record.hpp"

namespace inertia {
namespace {

std::filesystem::path write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("inertia_seismic_record_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::filesystem::path& path, RecordFormat format, double dt = 0) {
  try {
    read_record(path, format, dt);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError for " << path;
  return {};
}

const std::string peer_header =
    "PEER NGA STRONG MOTION DATABASE RECORD\n"
    "IMPERIAL VALLEY 10/15/79 2316, EL CENTRO ARRAY #6, 230\n"
    "ACCELERATION TIME SERIES IN UNITS OF G\n";
const std::string seven_values =
    "  .1000000E-02  .2000000E-02 -.3000000E-02  .4000000E-02  .5000000E-02\n"
    "  -.6000000E-02  .7000000E-02\n";

TEST(PeerRecord, ReadsTheNgaWest2Header) {
  const auto path = write("a.AT2", peer_header + "NPTS=    7, DT=   .0050 SEC\n" + seven_values);
  EXPECT_EQ(default_record_format(path, false), RecordFormat::peer);
  const auto r = read_record(path, RecordFormat::peer, 0);
  ASSERT_EQ(r.points.size(), 7u);
  EXPECT_EQ(r.read.file_units, "g");
  EXPECT_EQ(r.read.dt, 0.005);
  EXPECT_EQ(r.read.title, "IMPERIAL VALLEY 10/15/79 2316, EL CENTRO ARRAY #6, 230");
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(r.points[static_cast<std::size_t>(i)].first, i * 0.005);
    EXPECT_DOUBLE_EQ(std::abs(r.points[static_cast<std::size_t>(i)].second), (i + 1) * 1e-3);
  }
  EXPECT_LT(r.points[2].second, 0);
}

TEST(PeerRecord, ReadsTheOlderHeaderAndOtherUnits) {
  const auto path = write("b.at2",
                          "PEER STRONG MOTION DATABASE RECORD\nNORTHRIDGE, 000\n"
                          "ACCELERATION TIME HISTORY IN UNITS OF CM/S/S\n"
                          "    7    .01000    NPTS, DT\n" +
                              seven_values);
  const auto r = read_record(path, default_record_format(path, false), 0);
  EXPECT_EQ(r.points.size(), 7u);
  EXPECT_EQ(r.read.dt, 0.01);
  EXPECT_EQ(r.read.file_units, "cm/s2");
  EXPECT_EQ(record_units(r.read, "").second, 0.01);
}

TEST(PeerRecord, AWrongNptsNamesTheHeaderLine) {
  auto path = write("c.AT2", peer_header + "NPTS=    8, DT=   .0050 SEC\n" + seven_values);
  EXPECT_NE(error_of(path, RecordFormat::peer).find("c.AT2:4: NPTS = 8 but 7 values follow"),
            std::string::npos)
      << error_of(path, RecordFormat::peer);
  path = write("d.AT2", peer_header + "NPTS=    6, DT=   .0050 SEC\n" + seven_values);
  EXPECT_NE(error_of(path, RecordFormat::peer)
                .find("d.AT2:4: NPTS = 6 but 7 values follow (the first beyond NPTS on line 6)"),
            std::string::npos)
      << error_of(path, RecordFormat::peer);
}

TEST(PeerRecord, BadHeadersAndValuesAreRefusedWithTheirLine) {
  auto path = write("e.AT2", peer_header + "NPTS=    x, DT=   .0050 SEC\n" + seven_values);
  EXPECT_NE(error_of(path, RecordFormat::peer).find("e.AT2:4: expected NPTS and DT"),
            std::string::npos);
  path = write("f.AT2", peer_header);
  EXPECT_NE(error_of(path, RecordFormat::peer).find("four header lines"), std::string::npos);
  path = write("g.AT2", peer_header + "NPTS=    7, DT=   .0050 SEC\n .1E-2 .2E-2 abc\n");
  EXPECT_NE(error_of(path, RecordFormat::peer).find("g.AT2:5: expected a finite number; got 'abc'"),
            std::string::npos);
  path = write("h.VT2",
               "PEER NGA STRONG MOTION DATABASE RECORD\nX\n"
               "VELOCITY TIME SERIES IN UNITS OF CM/S\nNPTS=    7, DT=   .0050 SEC\n" +
                   seven_values);
  EXPECT_NE(
      error_of(path, RecordFormat::peer).find("h.VT2:3: the header says a velocity time series"),
      std::string::npos);
}

TEST(RecordUnits, GivenUnitsAgreeWithTheFileOrAreRefused) {
  AmplitudeFileRead peer;
  peer.format = RecordFormat::peer;
  peer.file_units = "g";
  EXPECT_EQ(record_units(peer, "").second, standard_gravity);
  EXPECT_EQ(record_units(peer, "g").second, standard_gravity);
  EXPECT_THROW(record_units(peer, "m/s2"), InputError);
  peer.file_units.clear();
  EXPECT_THROW(record_units(peer, ""), InputError);  // an AT2 that does not say
  EXPECT_EQ(record_units(peer, "gal").second, 0.01);
  AmplitudeFileRead table;
  EXPECT_EQ(record_units(table, "").second, 1.0);  // as written
  EXPECT_EQ(record_units(table, "mm/s^2").second, 0.001);
  EXPECT_THROW(record_units(table, "ft/s2"), InputError);
}

TEST(SingleColumnRecord, ValuesSeveralPerLineAtDt) {
  const auto path = write("s.txt", "acceleration (g)\n0.0\n0.1 0.2\n\n# comment\n0.3, 0.4\n");
  EXPECT_EQ(default_record_format(path, true), RecordFormat::single);
  EXPECT_EQ(default_record_format(path, false), RecordFormat::table);
  const auto r = read_record(path, RecordFormat::single, 0.02);
  ASSERT_EQ(r.points.size(), 5u);
  EXPECT_EQ(r.read.header_line, 1);
  EXPECT_EQ(r.points[4].first, 4 * 0.02);
  EXPECT_EQ(r.points[4].second, 0.4);
  EXPECT_NE(error_of(write("t.txt", "0.1\n0.2\nx\n"), RecordFormat::single, 0.01).find("t.txt:3:"),
            std::string::npos);
  EXPECT_NE(error_of(write("u.txt", "# nothing\n"), RecordFormat::single, 0.01).find("no values"),
            std::string::npos);
}

TEST(Baseline, FinalGroundMotionIsExactForAPiecewiseLinearRecord) {
  // a = 1 on [0, 1], then falls linearly to 0 at t = 2: v(2) = 1.5, d(2) = 0.5 + 1 + 1/3.
  const auto [d, v] = final_ground_motion({{0, 1}, {1, 1}, {2, 0}});
  EXPECT_DOUBLE_EQ(v, 1.5);
  EXPECT_DOUBLE_EQ(d, 0.5 + 1.0 + 1.0 / 3.0);
}

TEST(Baseline, APolynomialDriftIsRemovedExactly) {
  // d(t) = c2 t^2 + c3 t^3 is in the fitted space: the corrected record is zero.
  std::vector<std::pair<double, double>> points;
  for (int i = 0; i <= 2000; ++i) {
    const double t = 0.01 * i;
    points.emplace_back(t, 2 * 0.03 + 6 * (-0.002) * t);
  }
  const auto b = correct_baseline(points, 3);
  EXPECT_GT(std::abs(b.final_displacement_before), 1);
  double largest = 0;
  for (const auto& p : points) largest = std::max(largest, std::abs(p.second));
  EXPECT_LT(largest, 1e-11);
  EXPECT_LT(std::abs(b.final_displacement_after), 1e-9);
  EXPECT_LT(std::abs(b.final_velocity_after), 1e-10);
}

TEST(Baseline, AnOffsetOnARecordThatEndsAtRestIsRemoved) {
  // d(t) = D sin^2(pi t / T) sin(w t): the ground starts and ends at rest. Its acceleration with
  // a constant offset of 0.5 % of its peak drifts by half a metre; degree 2 takes it out.
  const double T = 20, D = 0.05, w = 2 * std::numbers::pi * 1.3, pi = std::numbers::pi;
  std::vector<std::pair<double, double>> points;
  double peak = 0;
  for (int i = 0; i <= 4000; ++i) {
    const double t = 0.005 * i, s = std::sin(pi * t / T), c = std::cos(pi * t / T);
    // d = D s^2 sin(wt): d'' = D [2 (pi/T)^2 (c^2 - s^2) sin + 4 (pi/T) s c w cos - s^2 w^2 sin].
    const double k = pi / T;
    const double a = D * (2 * k * k * (c * c - s * s) * std::sin(w * t) +
                          4 * k * s * c * w * std::cos(w * t) - s * s * w * w * std::sin(w * t));
    points.emplace_back(t, a);
    peak = std::max(peak, std::abs(a));
  }
  const auto [d0, v0] = final_ground_motion(points);
  EXPECT_LT(std::abs(d0), 1e-5);  // the exact record ends at rest
  for (auto& p : points) p.second += 0.005 * peak;
  const auto b = correct_baseline(points, 2);
  EXPECT_GT(std::abs(b.final_displacement_before), 0.3);
  EXPECT_LT(std::abs(b.final_displacement_after), 0.01 * std::abs(b.final_displacement_before));
  EXPECT_LT(std::abs(b.final_velocity_after), 0.02 * std::abs(b.final_velocity_before));
  EXPECT_NEAR(b.peak_correction, 0.005 * peak, 0.05 * 0.005 * peak);
  EXPECT_THROW(correct_baseline(points, 7), InputError);
  EXPECT_THROW(correct_baseline(points, 1), InputError);
}

/// Samples of a sine of frequency f (Hz), every dt from 0 to `span`.
std::vector<std::pair<double, double>> sine(double f, double dt, double span) {
  std::vector<std::pair<double, double>> points;
  const auto n = static_cast<int>(std::lround(span / dt));
  for (int i = 0; i <= n; ++i)
    points.emplace_back(i * dt, std::sin(2 * std::numbers::pi * f * i * dt));
  return points;
}

/// The largest difference between a filtered sine and gain x the sine at its delayed times, over
/// the middle third of the original record (away from the ends' transients).
double sine_error(const std::vector<std::pair<double, double>>& filtered, double f, double gain,
                  double delay, double span) {
  double worst = 0;
  for (const auto& [t, a] : filtered) {
    const double original = t - delay;
    if (original < span / 3 || original > 2 * span / 3) continue;
    worst = std::max(worst, std::abs(a - gain * std::sin(2 * std::numbers::pi * f * original)));
  }
  return worst;
}

TEST(HighPass, GainOneHalfAtTheCornerAndOneWellAboveItWithoutPhase) {
  // Two passes of a digital Butterworth filter of order n (bilinear, corner prewarped): gain
  // 1 / (1 + (tan(pi f_c dt) / tan(pi f dt))^(2 n)), one half at the corner, no phase. Measured
  // 1e-13 in the middle third of a 200 s sine, at the corner and at 10 f_c.
  const double fc = 0.5, dt = 0.01, span = 200;
  const auto gain = [&](double f, int order) {
    return 1 /
           (1 + std::pow(std::tan(std::numbers::pi * fc * dt) / std::tan(std::numbers::pi * f * dt),
                         2 * order));
  };
  for (int order : {2, 4, 8}) {
    auto at_corner = sine(fc, dt, span);
    const auto b = highpass_filter(at_corner, fc, order);
    EXPECT_EQ(b.method, "butterworth");
    EXPECT_NEAR(b.delay, std::ceil(0.75 * order / fc / dt) * dt, 1e-12);
    EXPECT_DOUBLE_EQ(at_corner.front().first, 0.0);  // delayed: the pad starts the record
    EXPECT_NEAR(at_corner.back().first, span + 2 * b.delay, 1e-9);
    EXPECT_LT(sine_error(at_corner, fc, 0.5, b.delay, span), 1e-9) << "order " << order;
    auto above = sine(10 * fc, dt, span);
    const auto c = highpass_filter(above, fc, order);
    EXPECT_LT(sine_error(above, 10 * fc, gain(10 * fc, order), c.delay, span), 1e-9)
        << "order " << order;
  }
}

TEST(HighPass, AnOffsetDriftIsRemovedAndTheRecordStartsAtRest) {
  // A 1.3 Hz burst with a constant offset of 0.5 % of its peak: the ground drifts by metres;
  // a 0.1 Hz corner takes the offset out (measured: final displacement 1.0 -> 1.1e-4 m,
  // velocity 0.1 -> 1.4e-6 m/s; the first and last values 1.4e-7 and 2.2e-6 of the peak).
  std::vector<std::pair<double, double>> points;
  const double T = 20, pi = std::numbers::pi;
  for (int i = 0; i <= 4000; ++i) {
    const double t = 0.005 * i;
    points.emplace_back(t, std::pow(std::sin(pi * t / T), 2) * std::sin(2 * pi * 1.3 * t) + 0.005);
  }
  const auto b = highpass_filter(points, 0.1, 4);
  EXPECT_GT(std::abs(b.final_displacement_before), 0.9);
  EXPECT_LT(std::abs(b.final_displacement_after), 1e-3 * std::abs(b.final_displacement_before));
  EXPECT_LT(std::abs(b.final_velocity_after), 1e-4 * std::abs(b.final_velocity_before));
  EXPECT_LT(std::abs(points.front().second), 1e-5);
  EXPECT_LT(std::abs(points.back().second), 1e-5);
}

TEST(HighPass, RefusesUnevenSpacingACornerAboveNyquistAndOddOrders) {
  auto points = sine(1, 0.01, 10);
  auto uneven = points;
  uneven[5].first += 0.003;
  try {
    highpass_filter(uneven, 0.1, 4);
    ADD_FAILURE() << "uneven spacing accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a filter needs equally spaced values"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(highpass_filter(points, 50, 4), InputError);  // Nyquist: 50 Hz
  EXPECT_THROW(highpass_filter(points, 0.1, 3), InputError);
  EXPECT_THROW(highpass_filter(points, 0.1, 10), InputError);
}

TEST(RecordWarnings, ARecordInCmPerS2UnderAGHeaderIsNamedAndASaneOneIsNot) {
  // Issue 42: an AT2 record in cm/s^2 under a "UNITS OF G" header: a peak of 294 (cm/s^2)
  // read as 294 g, and hundreds of metres of ground drift.
  std::vector<std::pair<double, double>> sane, wrong;
  for (int i = 0; i <= 2000; ++i) {
    // 0.3 g, drifting by 0.13 m over 20 s.
    const double t = 0.01 * i,
                 a = 0.3 * std::cos(2 * std::numbers::pi * 1.5 * t) * std::exp(-0.2 * t);
    sane.emplace_back(t, a * standard_gravity);
    wrong.emplace_back(t, 980 * a * standard_gravity);  // its cm/s^2 taken as g
  }
  const RecordSource source{.name = "amplitude 'quake' (quake.AT2)",
                            .units = "g",
                            .units_from_file = true,
                            .units_option = "units:",
                            .baseline_option = "baseline:"};
  EXPECT_TRUE(record_warnings(sane, 1.0, source).empty());
  const auto warnings = record_warnings(wrong, 1.0, source);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].find("amplitude 'quake' (quake.AT2): peak acceleration 2"), 0u)
      << warnings[0];
  EXPECT_NE(warnings[0].find(" g at t = 0 s with the values in g (from the file's header), more "
                             "than any recorded earthquake's (5 g): in cm/s2 it would be 0.2"),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("check the file's units line (units: must agree with it)"),
            std::string::npos)
      << warnings[0];
  EXPECT_EQ(warnings[1].find("amplitude 'quake' (quake.AT2): the ground's displacement reaches "),
            0u)
      << warnings[1];
  EXPECT_NE(warnings[1].find("or correct the baseline (baseline:)"), std::string::npos)
      << warnings[1];
  // A scale (a unit system, or a record scaled up) is taken out: the record as its units say.
  auto scaled = sane;
  for (auto& p : scaled) p.second *= 1000;
  EXPECT_TRUE(record_warnings(scaled, 1000.0, source).empty());
  // A drift alone: a constant 0.02 m/s^2 offset over 40 s is 16 m.
  std::vector<std::pair<double, double>> drifting{{0, 0.02}, {40, 0.02}};
  const auto drift = record_warnings(drifting, 1.0, source);
  ASSERT_EQ(drift.size(), 1u);
  EXPECT_NE(drift[0].find("reaches 16 m at the record's end, t = 40 s with the values in g"),
            std::string::npos)
      << drift[0];
}

}  // namespace
}  // namespace inertia
