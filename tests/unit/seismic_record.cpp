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

}  // namespace
}  // namespace inertia
