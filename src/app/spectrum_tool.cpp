// inertia spectrum: response spectra of a record, to CSV and SVG.

#include "inertia/app/spectrum_tool.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "inertia/app/run.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/options.hpp"
#include "inertia/core/svg_plot.hpp"
#include "inertia/core/text.hpp"
#include "inertia/seismic/record.hpp"
#include "inertia/seismic/response_spectrum.hpp"

namespace inertia {

namespace {

const char* spectrum_usage =
    R"(usage: inertia spectrum RECORD [options]

The response spectra of a ground-acceleration record: the peak displacement Sd of linear
oscillators of each period and damping ratio under the record, computed exactly for the
piecewise-linear record (Nigam and Jennings 1969), and the pseudo-velocity PSv = omega Sd and
pseudo-acceleration PSa = omega^2 Sd. Writes RECORD's stem + _spectrum.csv (columns period,
frequency, then sd_X, psv_X, psa_X per damping ratio X) and _spectrum.svg (the three spectra
against the period), in the current directory unless --output says where.

RECORD: a table of time and value (.csv, .txt), a PEER NGA .AT2 file, or a single-column file
of equally spaced values (with --dt). The values are accelerations.

options:
  --format table|peer|single  how RECORD is laid out (default: peer for .AT2, single with --dt,
                              table otherwise)
  --dt DT                     the time between the values of a single-column file
  --units g|m/s2|cm/s2|mm/s2  the record's units, converted to m/s^2 (an AT2's header names
                              its own; without units the values are taken as written)
  --scale S                   multiplies the record (after the units)
  --baseline DEGREE           baseline correction: a polynomial of DEGREE (2 to 6) fitted to the
                              ground's displacement is removed (Boore and Bommer 2005)
  --highpass FC[,ORDER]       baseline correction: an acausal Butterworth high-pass filter,
                              corner FC (Hz), ORDER 2, 4 (default), 6 or 8 each way, zero pads
                              of 1.5 ORDER / FC kept (the record is delayed by half of that)
  --damping X[,X...]          damping ratios in [0, 1) (default 0.05)
  --periods T1,T2,...         periods (s), increasing, or FIRST:LAST:COUNT, COUNT periods evenly
                              spaced in log(T) (default 0.01:10:100)
  --output FILE.csv           where to write the CSV (the SVG goes next to it)
)";

std::vector<double> number_list(const std::string& option, const std::string& text) {
  std::vector<double> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    const auto v = parse_number(item);
    if (!v)
      throw InputError(
          cat(option, ": expected numbers separated by commas, got '", excerpt(text), "'"));
    out.push_back(*v);
  }
  if (out.empty()) throw InputError(cat(option, ": expected at least one number"));
  return out;
}

std::vector<double> parse_periods(const std::string& text) {
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ':')) parts.push_back(item);
    const auto first = parts.size() == 3 ? parse_number(parts[0]) : std::nullopt;
    const auto last = parts.size() == 3 ? parse_number(parts[1]) : std::nullopt;
    const auto count = parts.size() == 3 ? parse_number(parts[2]) : std::nullopt;
    if (!first || !last || !count || !(*first > 0) || !(*last > *first) || *count < 2 ||
        *count > 100000 || *count != std::floor(*count))
      throw InputError(
          cat("--periods: expected FIRST:LAST:COUNT with 0 < FIRST < LAST and COUNT in "
              "[2, 100000], got '",
              excerpt(text), "'"));
    return log_spaced(*first, *last, static_cast<int>(*count));
  }
  auto periods = number_list("--periods", text);
  for (std::size_t i = 0; i < periods.size(); ++i) {
    if (!(periods[i] > 0))
      throw InputError(cat("--periods: a period must be > 0, got ", periods[i]));
    if (i > 0 && !(periods[i] > periods[i - 1]))
      throw InputError(
          cat("--periods: periods must increase (", periods[i], " after ", periods[i - 1], ")"));
  }
  return periods;
}

std::string column(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

int run_spectrum(int argc, char** argv) {
  std::string record, format_name, units, output;
  double dt = 0, scale = 1;
  int baseline = 0;
  double corner = 0;
  int order = 4;
  std::vector<double> dampings{0.05};
  std::vector<double> periods = log_spaced(0.01, 10, 100);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw InputError(cat(a, " needs a value (see inertia spectrum --help)"));
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << spectrum_usage;
      return 0;
    } else if (a == "--format") {
      format_name = value();
      if (!find_record_format(format_name))
        throw InputError(cat("--format: unknown format '", excerpt(format_name),
                             "'; expected table, peer or single"));
    } else if (a == "--dt") {
      const auto v = parse_number(value());
      if (!v || !(*v > 0))
        throw InputError(cat("--dt: expected a number > 0, got '", excerpt(argv[i]), "'"));
      dt = *v;
    } else if (a == "--units") {
      units = value();
    } else if (a == "--scale") {
      const auto v = parse_number(value());
      if (!v || *v == 0)
        throw InputError(cat("--scale: expected a nonzero number, got '", excerpt(argv[i]), "'"));
      scale = *v;
    } else if (a == "--baseline") {
      const auto v = parse_number(value());
      if (!v || *v != std::floor(*v) || *v < 2 || *v > 6)
        throw InputError(cat("--baseline: expected a polynomial degree from 2 to 6, got '",
                             excerpt(argv[i]), "'"));
      baseline = static_cast<int>(*v);
    } else if (a == "--highpass") {
      const auto v = number_list("--highpass", value());
      if (v.empty() || v.size() > 2 || !(v[0] > 0))
        throw InputError(
            cat("--highpass: expected a corner frequency (Hz) > 0 and an optional "
                "order, got '",
                excerpt(argv[i]), "'"));
      corner = v[0];
      if (v.size() == 2) {
        if (v[1] != std::floor(v[1]) || v[1] < 2 || v[1] > 8 || static_cast<int>(v[1]) % 2 != 0)
          throw InputError(cat("--highpass: the order is 2, 4, 6 or 8, got ", v[1]));
        order = static_cast<int>(v[1]);
      }
    } else if (a == "--damping") {
      dampings = number_list("--damping", value());
      for (double x : dampings)
        if (!(x >= 0 && x < 1))
          throw InputError(cat("--damping: a damping ratio must be in [0, 1), got ", x));
    } else if (a == "--periods") {
      periods = parse_periods(value());
    } else if (a == "--output") {
      output = value();
    } else if (!a.empty() && a[0] != '-' && record.empty()) {
      record = a;
    } else {
      throw InputError(
          cat("spectrum: unexpected argument '", excerpt(a), "' (see inertia spectrum --help)"));
    }
  }
  if (record.empty()) throw InputError("spectrum: no record given (see inertia spectrum --help)");
  const std::filesystem::path path = record;
  const RecordFormat format =
      format_name.empty() ? default_record_format(path, dt > 0) : *find_record_format(format_name);
  if (format == RecordFormat::single && dt == 0)
    throw InputError("--dt: a single-column record needs the time between its values");
  if (format != RecordFormat::single && dt > 0)
    throw InputError(cat("--dt: only for a single-column record; ",
                         format == RecordFormat::peer ? "an AT2 file's header gives its DT"
                                                      : "a table's rows give their times"));
  AmplitudeTable table;
  try {
    table = read_record(path, format, dt);
  } catch (const AmplitudeFileUnreadable& e) {
    throw InputError(cat(printable(path.string()), ": cannot open: ", e.what()));
  }
  std::string used_units;
  double factor = 1;
  try {
    std::tie(used_units, factor) = record_units(table.read, units);
  } catch (const InputError& e) {
    throw InputError(cat(printable(path.string()), ": ", e.what()));
  }
  for (auto& p : table.points) p.second *= factor * scale;
  auto& points = table.points;
  // What was read.
  std::cout << "record " << printable(path.string());
  if (format == RecordFormat::peer) std::cout << " (PEER AT2: " << table.read.title << ")";
  std::cout << ": " << points.size() << (format == RecordFormat::table ? " rows" : " values");
  if (format != RecordFormat::table) std::cout << " at dt = " << table.read.dt << " s";
  std::cout << ", t = " << points.front().first << " to " << points.back().first << " s";
  if (!used_units.empty()) std::cout << ", in " << used_units << " x " << factor << " (to m/s^2)";
  if (scale != 1) std::cout << " x " << scale << " (scale)";
  std::cout << "\n";
  if (table.read.header_line > 0)
    std::cout << "line " << table.read.header_line << " skipped as a header: '" << table.read.header
              << "'\n";
  if (baseline > 0 && corner > 0)
    throw InputError("--baseline and --highpass are two corrections: choose one");
  if (corner > 0) {
    const auto b = highpass_filter(points, corner, order);
    std::cout << "baseline corrected (acausal Butterworth high-pass, order " << b.order
              << " each way, corner " << b.corner << " Hz, zero pads of " << b.delay
              << " s at each end: the record is delayed by " << b.delay
              << " s): final ground displacement " << b.final_displacement_before << " -> "
              << b.final_displacement_after << ", velocity " << b.final_velocity_before << " -> "
              << b.final_velocity_after << "\n";
  } else if (baseline > 0) {
    if (points.size() < 8)
      throw InputError(cat("--baseline: the record has ", points.size(), " points, fewer than 8"));
    const auto b = correct_baseline(points, baseline);
    std::cout << "baseline corrected (polynomial of degree " << b.degree
              << " fitted to the displacement): final ground displacement "
              << b.final_displacement_before << " -> " << b.final_displacement_after
              << ", velocity " << b.final_velocity_before << " -> " << b.final_velocity_after
              << "\n";
  } else {
    const auto [d, v] = final_ground_motion(points);
    std::cout << "the ground at the record's end: displacement " << d << ", velocity " << v
              << " (--baseline or --highpass corrects a drift)\n";
  }
  if (!used_units.empty()) {
    const RecordSource source{.name = printable(path.string()),
                              .units = used_units,
                              .units_from_file = !table.read.file_units.empty(),
                              .units_option = "--units",
                              .baseline_option = "--baseline or --highpass",
                              .corrected = baseline > 0 || corner > 0};
    for (const auto& w : record_warnings(points, scale, source))
      std::cout << "warning   " << w << "\n";
  }
  double pga = 0, pga_time = 0;
  for (const auto& [t, a] : points)
    if (std::abs(a) > pga) pga = std::abs(a), pga_time = t;
  std::cout << "peak ground acceleration " << pga << " at t = " << pga_time << " s\n";
  const auto spectrum = response_spectrum(points, periods, dampings);
  // Files.
  std::filesystem::path csv = output.empty()
                                  ? std::filesystem::path(path.stem().string() + "_spectrum.csv")
                                  : std::filesystem::path(output);
  std::filesystem::path svg = csv;
  svg.replace_extension(".svg");
  std::ostringstream text;
  text.precision(10);
  text << "period,frequency";
  for (double x : dampings)
    text << ",sd_" << column(x) << ",psv_" << column(x) << ",psa_" << column(x);
  text << "\n";
  for (std::size_t p = 0; p < periods.size(); ++p) {
    const double omega = 2 * std::numbers::pi / periods[p];
    text << periods[p] << "," << 1 / periods[p];
    for (std::size_t d = 0; d < dampings.size(); ++d) {
      const double sd = spectrum.displacement[d][p];
      text << "," << sd << "," << omega * sd << "," << omega * omega * sd;
    }
    text << "\n";
  }
  std::vector<PlotPanel> panels(3);
  const std::string unit = used_units.empty() ? "" : " (m/s^2)";
  panels[0] = {"pseudo-acceleration PSa = omega^2 Sd", "period (s)", "PSa" + unit, true, false, {}};
  panels[1] = {"pseudo-velocity PSv = omega Sd",
               "period (s)",
               used_units.empty() ? "PSv" : "PSv (m/s)",
               true,
               false,
               {}};
  panels[2] = {
      "displacement Sd", "period (s)", used_units.empty() ? "Sd" : "Sd (m)", true, false, {}};
  for (std::size_t d = 0; d < dampings.size(); ++d) {
    for (int k = 0; k < 3; ++k)
      panels[static_cast<std::size_t>(k)].series.push_back(
          {cat(column(100 * dampings[d]), " % damping"), periods, {}});
    for (std::size_t p = 0; p < periods.size(); ++p) {
      const double omega = 2 * std::numbers::pi / periods[p], sd = spectrum.displacement[d][p];
      panels[0].series.back().y.push_back(omega * omega * sd);
      panels[1].series.back().y.push_back(omega * sd);
      panels[2].series.back().y.push_back(sd);
    }
  }
  write_file_atomically(csv, text.str());
  write_file_atomically(svg,
                        svg_plot(panels, cat("response spectra of ", path.filename().string())));
  for (std::size_t d = 0; d < dampings.size(); ++d) {
    std::size_t best = 0;
    for (std::size_t p = 0; p < periods.size(); ++p)
      if (std::pow(periods[best], -2) * spectrum.displacement[d][best] <
          std::pow(periods[p], -2) * spectrum.displacement[d][p])
        best = p;
    const double omega = 2 * std::numbers::pi / periods[best];
    std::cout << "damping " << dampings[d] << ": largest PSa "
              << omega * omega * spectrum.displacement[d][best] << " at T = " << periods[best]
              << " s (of " << periods.size() << " periods from " << periods.front() << " to "
              << periods.back() << " s)\n";
  }
  std::cout << "wrote " << printable(csv.string()) << " and " << printable(svg.string()) << "\n";
  return 0;
}

}  // namespace

int spectrum_main(int argc, char** argv) {
  // A serial tool: under mpirun every rank would write the same files, so only rank 0 works.
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  if (rank == 0) {
    try {
      status = run_spectrum(argc, argv);
    } catch (const std::exception& e) {
      report_error(e.what());
      status = 1;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}

}  // namespace inertia
