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

/// The command line of `inertia spectrum`.
struct SpectrumOptions {
  bool help = false;  ///< --help: print the usage, nothing else
  std::string record, format_name, units, output;
  double dt = 0, scale = 1;
  int baseline = 0;   ///< the polynomial's degree (0: none)
  double corner = 0;  ///< the high-pass filter's corner, Hz (0: none)
  int order = 4;
  std::vector<double> dampings{0.05};
  std::vector<double> periods = log_spaced(0.01, 10, 100);
};

/// The options of `inertia spectrum`, checked one by one in the order given; --help stops the
/// reading. Throws InputError for an unknown or malformed option.
SpectrumOptions parse_spectrum_options(int argc, char** argv) {
  SpectrumOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw InputError(cat(a, " needs a value (see inertia spectrum --help)"));
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
      return o;
    } else if (a == "--format") {
      o.format_name = value();
      if (!find_record_format(o.format_name))
        throw InputError(cat("--format: unknown format '", excerpt(o.format_name),
                             "'; expected table, peer or single"));
    } else if (a == "--dt") {
      const auto v = parse_number(value());
      if (!v || !(*v > 0))
        throw InputError(cat("--dt: expected a number > 0, got '", excerpt(argv[i]), "'"));
      o.dt = *v;
    } else if (a == "--units") {
      o.units = value();
    } else if (a == "--scale") {
      const auto v = parse_number(value());
      if (!v || *v == 0)
        throw InputError(cat("--scale: expected a nonzero number, got '", excerpt(argv[i]), "'"));
      o.scale = *v;
    } else if (a == "--baseline") {
      const auto v = parse_number(value());
      if (!v || *v != std::floor(*v) || *v < 2 || *v > 6)
        throw InputError(cat("--baseline: expected a polynomial degree from 2 to 6, got '",
                             excerpt(argv[i]), "'"));
      o.baseline = static_cast<int>(*v);
    } else if (a == "--highpass") {
      const auto v = number_list("--highpass", value());
      if (v.empty() || v.size() > 2 || !(v[0] > 0))
        throw InputError(
            cat("--highpass: expected a corner frequency (Hz) > 0 and an optional "
                "order, got '",
                excerpt(argv[i]), "'"));
      o.corner = v[0];
      if (v.size() == 2) {
        if (v[1] != std::floor(v[1]) || v[1] < 2 || v[1] > 8 || static_cast<int>(v[1]) % 2 != 0)
          throw InputError(cat("--highpass: the order is 2, 4, 6 or 8, got ", v[1]));
        o.order = static_cast<int>(v[1]);
      }
    } else if (a == "--damping") {
      o.dampings = number_list("--damping", value());
      for (double x : o.dampings)
        if (!(x >= 0 && x < 1))
          throw InputError(cat("--damping: a damping ratio must be in [0, 1), got ", x));
    } else if (a == "--periods") {
      o.periods = parse_periods(value());
    } else if (a == "--output") {
      o.output = value();
    } else if (!a.empty() && a[0] != '-' && o.record.empty()) {
      o.record = a;
    } else {
      throw InputError(
          cat("spectrum: unexpected argument '", excerpt(a), "' (see inertia spectrum --help)"));
    }
  }
  if (o.record.empty()) throw InputError("spectrum: no record given (see inertia spectrum --help)");
  return o;
}

/// A record as read, in m/s^2 (when its units are known) and scaled.
struct ScaledRecord {
  std::filesystem::path path;
  RecordFormat format = RecordFormat::table;
  AmplitudeTable table;
  std::string used_units;  ///< empty: the values as written
  double factor = 1;       ///< the units' factor to m/s^2
};

/// Reads the record of the options in its format, converts its units and applies --scale.
/// Throws InputError for a format that does not fit --dt and for an unreadable file.
ScaledRecord read_scaled_record(const SpectrumOptions& o) {
  ScaledRecord r;
  r.path = o.record;
  r.format = o.format_name.empty() ? default_record_format(r.path, o.dt > 0)
                                   : *find_record_format(o.format_name);
  if (r.format == RecordFormat::single && o.dt == 0)
    throw InputError("--dt: a single-column record needs the time between its values");
  if (r.format != RecordFormat::single && o.dt > 0)
    throw InputError(cat("--dt: only for a single-column record; ",
                         r.format == RecordFormat::peer ? "an AT2 file's header gives its DT"
                                                        : "a table's rows give their times"));
  try {
    r.table = read_record(r.path, r.format, o.dt);
  } catch (const AmplitudeFileUnreadable& e) {
    throw InputError(cat(printable(r.path.string()), ": cannot open: ", e.what()));
  }
  try {
    std::tie(r.used_units, r.factor) = record_units(r.table.read, o.units);
  } catch (const InputError& e) {
    throw InputError(cat(printable(r.path.string()), ": ", e.what()));
  }
  for (auto& p : r.table.points) p.second *= r.factor * o.scale;
  return r;
}

/// Prints what was read: the file, its points, times and units, a skipped header line.
void report_record(const ScaledRecord& r, double scale) {
  const auto& points = r.table.points;
  std::cout << "record " << printable(r.path.string());
  if (r.format == RecordFormat::peer) std::cout << " (PEER AT2: " << r.table.read.title << ")";
  std::cout << ": " << points.size() << (r.format == RecordFormat::table ? " rows" : " values");
  if (r.format != RecordFormat::table) std::cout << " at dt = " << r.table.read.dt << " s";
  std::cout << ", t = " << points.front().first << " to " << points.back().first << " s";
  if (!r.used_units.empty())
    std::cout << ", in " << r.used_units << " x " << r.factor << " (to m/s^2)";
  if (scale != 1) std::cout << " x " << scale << " (scale)";
  std::cout << "\n";
  if (r.table.read.header_line > 0)
    std::cout << "line " << r.table.read.header_line << " skipped as a header: '"
              << r.table.read.header << "'\n";
}

/// Applies the baseline correction the options ask for (high-pass or polynomial) and prints
/// the ground's final displacement and velocity before and after; without one, prints them.
void correct_and_report_baseline(std::vector<std::pair<double, double>>& points,
                                 const SpectrumOptions& o) {
  if (o.baseline > 0 && o.corner > 0)
    throw InputError("--baseline and --highpass are two corrections: choose one");
  if (o.corner > 0) {
    const auto b = highpass_filter(points, o.corner, o.order);
    std::cout << "baseline corrected (acausal Butterworth high-pass, order " << b.order
              << " each way, corner " << b.corner << " Hz, zero pads of " << b.delay
              << " s at each end: the record is delayed by " << b.delay
              << " s): final ground displacement " << b.final_displacement_before << " -> "
              << b.final_displacement_after << ", velocity " << b.final_velocity_before << " -> "
              << b.final_velocity_after << "\n";
  } else if (o.baseline > 0) {
    if (points.size() < 8)
      throw InputError(cat("--baseline: the record has ", points.size(), " points, fewer than 8"));
    const auto b = correct_baseline(points, o.baseline);
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
}

/// Prints the record's warnings (when its units are known) and its peak ground acceleration.
void report_warnings_and_peak(const ScaledRecord& r, const SpectrumOptions& o) {
  const auto& points = r.table.points;
  if (!r.used_units.empty()) {
    const RecordSource source{.name = printable(r.path.string()),
                              .units = r.used_units,
                              .units_from_file = !r.table.read.file_units.empty(),
                              .units_option = "--units",
                              .baseline_option = "--baseline or --highpass",
                              .corrected = o.baseline > 0 || o.corner > 0};
    for (const auto& w : record_warnings(points, o.scale, source))
      std::cout << "warning   " << w << "\n";
  }
  double pga = 0, pga_time = 0;
  for (const auto& [t, a] : points)
    if (std::abs(a) > pga) pga = std::abs(a), pga_time = t;
  std::cout << "peak ground acceleration " << pga << " at t = " << pga_time << " s\n";
}

/// The CSV: period, frequency, then sd_X, psv_X, psa_X per damping ratio X.
std::string spectrum_csv(const std::vector<double>& periods, const std::vector<double>& dampings,
                         const ResponseSpectrum& spectrum) {
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
  return text.str();
}

/// The SVG's three panels (PSa, PSv, Sd against the period), a curve per damping ratio; units
/// on the axes when the record's are known.
std::vector<PlotPanel> spectrum_panels(const std::vector<double>& periods,
                                       const std::vector<double>& dampings,
                                       const ResponseSpectrum& spectrum, bool units_known) {
  std::vector<PlotPanel> panels(3);
  const std::string unit = units_known ? " (m/s^2)" : "";
  panels[0] = {"pseudo-acceleration PSa = omega^2 Sd", "period (s)", "PSa" + unit, true, false, {}};
  panels[1] = {"pseudo-velocity PSv = omega Sd",
               "period (s)",
               units_known ? "PSv (m/s)" : "PSv",
               true,
               false,
               {}};
  panels[2] = {"displacement Sd", "period (s)", units_known ? "Sd (m)" : "Sd", true, false, {}};
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
  return panels;
}

/// Prints, per damping ratio, the largest PSa and its period.
void report_peaks(const std::vector<double>& periods, const std::vector<double>& dampings,
                  const ResponseSpectrum& spectrum) {
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
}

int run_spectrum(int argc, char** argv) {
  const SpectrumOptions o = parse_spectrum_options(argc, argv);
  if (o.help) {
    std::cout << spectrum_usage;
    return 0;
  }
  ScaledRecord r = read_scaled_record(o);
  report_record(r, o.scale);
  correct_and_report_baseline(r.table.points, o);
  report_warnings_and_peak(r, o);
  const auto spectrum = response_spectrum(r.table.points, o.periods, o.dampings);
  // Files.
  std::filesystem::path csv = o.output.empty()
                                  ? std::filesystem::path(r.path.stem().string() + "_spectrum.csv")
                                  : std::filesystem::path(o.output);
  std::filesystem::path svg = csv;
  svg.replace_extension(".svg");
  write_file_atomically(csv, spectrum_csv(o.periods, o.dampings, spectrum));
  write_file_atomically(
      svg, svg_plot(spectrum_panels(o.periods, o.dampings, spectrum, !r.used_units.empty()),
                    cat("response spectra of ", r.path.filename().string())));
  report_peaks(o.periods, o.dampings, spectrum);
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
