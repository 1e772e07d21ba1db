// Time-history files (tables, PEER .AT2, single columns), units, and baseline correction.

#include "inertia/seismic/record.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>
#include <sstream>

#include "inertia/core/options.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

std::string_view record_format_name(RecordFormat format) {
  switch (format) {
    case RecordFormat::peer:
      return "peer";
    case RecordFormat::single:
      return "single";
    case RecordFormat::table:
      break;
  }
  return "table";
}

std::optional<RecordFormat> find_record_format(std::string_view name) {
  for (auto f : {RecordFormat::table, RecordFormat::peer, RecordFormat::single})
    if (record_format_name(f) == name) return f;
  return std::nullopt;
}

RecordFormat default_record_format(const std::filesystem::path& path, bool has_dt) {
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".at2") return RecordFormat::peer;
  return has_dt ? RecordFormat::single : RecordFormat::table;
}

std::optional<double> units_factor(std::string_view units) {
  if (units == "g") return standard_gravity;
  if (units == "m/s2" || units == "m/s^2") return 1.0;
  if (units == "cm/s2" || units == "cm/s^2" || units == "gal") return 0.01;
  if (units == "mm/s2" || units == "mm/s^2") return 0.001;
  return std::nullopt;
}

std::string_view known_units() { return "g, m/s2, cm/s2 (gal), mm/s2"; }

std::pair<std::string, double> record_units(const AmplitudeFileRead& read,
                                            const std::string& given) {
  if (!given.empty()) {
    const auto f = units_factor(given);
    if (!f)
      throw InputError(cat("unknown units '", excerpt(given), "'; expected one of: ", known_units(),
                           " (the record becomes m/s^2; a scale converts to other systems)"));
    if (!read.file_units.empty() && units_factor(read.file_units) != f)
      throw InputError(
          cat("the file says its values are in ", read.file_units, ", not ", excerpt(given)));
    return {given, *f};
  }
  if (read.format == RecordFormat::peer) {
    if (read.file_units.empty())
      throw InputError(
          cat("the AT2 file does not name its units on line 3: give them (", known_units(), ")"));
    return {read.file_units, *units_factor(read.file_units)};
  }
  return {std::string(), 1.0};
}

namespace {

/// A text file read line by line, with the checks every format shares: a regular file, not
/// absurdly large, no UTF-16; a UTF-8 byte-order mark skipped; `#` comments and the field
/// separators (comma, semicolon, tab, CR) turned into blanks.
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& path)
      : name_(printable(path.string())), in_(path, std::ios::binary) {
    // The system's reason where the open fails; a stream opens a directory or a device, so ask.
    if (!in_) throw AmplitudeFileUnreadable(std::strerror(errno));
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(status)) throw AmplitudeFileUnreadable("Is a directory");
    if (!std::filesystem::is_regular_file(status))
      throw AmplitudeFileUnreadable("not a regular file");
    // A record of 10^6 rows is a few tens of MiB; anything far larger is a wrong file.
    if (const auto bytes = std::filesystem::file_size(path, ec); !ec && bytes > (256ull << 20))
      throw InputError(
          cat(name_, ": ", bytes >> 20, " MiB, larger than 256 MiB: not an amplitude table"));
  }

  /// The next line: `original` as written (less a byte-order mark), `cleaned` without comment
  /// and with separators as blanks. False at the end.
  bool next(bool keep_comments = false) {
    if (!std::getline(in_, original)) {
      if (in_.bad()) throw AmplitudeFileUnreadable(std::strerror(errno));
      return false;
    }
    ++number;
    if (number == 1) {
      // Text editors on Windows write a UTF-8 byte-order mark; UTF-16 is another encoding.
      if (original.starts_with("\xEF\xBB\xBF")) {
        original.erase(0, 3);
        byte_order_mark = true;
      } else if (original.starts_with("\xFF\xFE") || original.starts_with("\xFE\xFF")) {
        fail("UTF-16 text: save the file as UTF-8 or ASCII");
      }
    }
    cleaned = original;
    if (!keep_comments)
      if (const auto hash = cleaned.find('#'); hash != std::string::npos) cleaned.erase(hash);
    for (char& ch : cleaned)
      if (ch == ',' || ch == ';' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f') ch = ' ';
    return true;
  }

  /// Up to `limit` blank-separated words of the cleaned line, split by hand (a record has
  /// millions of lines); returns how many there are, counting one more if the line has more.
  int words(std::string_view* out, int limit) const {
    int count = 0;
    for (std::size_t b = 0;;) {
      b = cleaned.find_first_not_of(' ', b);
      if (b == std::string::npos) break;
      if (count == limit) return limit + 1;
      const std::size_t e = std::min(cleaned.find(' ', b), cleaned.size());
      out[count++] = std::string_view(cleaned).substr(b, e - b);
      b = e;
    }
    return count;
  }

  [[noreturn]] void fail(const std::string& what, int line = 0) const {
    throw InputError(printable(cat(name_, ":", line > 0 ? line : std::max(number, 1), ": ", what)));
  }

  std::string name_;
  std::ifstream in_;
  std::string original, cleaned;
  int number = 0;
  bool byte_order_mark = false;
};

AmplitudeTable read_table(LineReader& in, std::string_view abscissa) {
  AmplitudeTable table;
  auto& points = table.points;
  bool header_allowed = true;
  while (in.next()) {
    std::string_view words[2];
    const int count = in.words(words, 2);
    if (count == 0) continue;
    std::optional<double> t, v;
    if (count == 2) t = parse_number(words[0]), v = parse_number(words[1]);
    if (!t || !v) {
      if (header_allowed) {
        header_allowed = false;
        table.read.header_line = in.number;
        table.read.header = excerpt(in.original);
        continue;
      }
      in.fail(cat("expected two finite numbers, ", abscissa, " and value; got '",
                  excerpt(in.original), "'"));
    }
    header_allowed = false;
    if (!points.empty() && !(*t > points.back().first))
      in.fail(cat(abscissa, "s must increase strictly (", *t, " after ", points.back().first, ")"));
    points.emplace_back(*t, *v);
  }
  if (points.empty()) in.fail(cat("no [", abscissa, ", value] rows"));
  return table;
}

/// The values of the lines that follow, several per line, at t = i dt; `header_allowed`: a first
/// line that is not numbers is a header (single-column files). Returns the line of the first
/// value beyond `limit` values (0: none) after reading them all.
void read_values(LineReader& in, AmplitudeTable& table, double dt, bool header_allowed,
                 std::int64_t limit, int& line_of_excess) {
  line_of_excess = 0;
  constexpr int per_line = 64;
  std::string_view words[per_line];
  while (in.next()) {
    const int count = in.words(words, per_line);
    if (count == 0) continue;
    if (count > per_line) in.fail(cat("more than ", per_line, " values on one line"));
    for (int w = 0; w < count; ++w) {
      const auto v = parse_number(words[w]);
      if (!v) {
        if (header_allowed && w == 0) {
          table.read.header_line = in.number;
          table.read.header = excerpt(in.original);
          break;
        }
        in.fail(cat("expected a finite number; got '", excerpt(words[w]), "' in '",
                    excerpt(in.original), "'"));
      }
      if (static_cast<std::int64_t>(table.points.size()) == limit && line_of_excess == 0)
        line_of_excess = in.number;
      table.points.emplace_back(static_cast<double>(table.points.size()) * dt, *v);
    }
    header_allowed = false;
  }
}

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

/// The units a PEER file's third line names ("ACCELERATION TIME SERIES IN UNITS OF G"), as
/// units_factor spells them; empty if it names none.
std::string peer_units(std::string_view line) {
  const std::string u = upper(line);
  const auto at = u.find("UNITS OF");
  std::string unit;
  if (at != std::string::npos) {
    std::size_t b = u.find_first_not_of(' ', at + 8);
    if (b != std::string::npos) unit = u.substr(b, u.find_first_of(" ,", b) - b);
  } else if (u.find(" IN G") != std::string::npos || u.ends_with(" G")) {
    unit = "G";
  }
  if (unit == "G" || unit == "G'S") return "g";
  for (std::string_view cm : {"CM/S/S", "CM/SEC/SEC", "CM/S2", "CM/SEC2", "CM/S^2", "CM/SEC^2",
                              "CM/S**2", "CM/SEC**2", "GAL"})
    if (unit == cm) return "cm/s2";
  for (std::string_view m : {"M/S/S", "M/SEC/SEC", "M/S2", "M/SEC2", "M/S^2", "M/SEC^2", "M/S**2"})
    if (unit == m) return "m/s2";
  return {};
}

/// NPTS and DT from a PEER file's fourth line: "NPTS=  3930, DT=   .0100 SEC" (NGA-West2) or
/// "3930   .0100   NPTS, DT" (the older PEER files).
bool peer_counts(const std::string& line, std::int64_t& npts, double& dt) {
  const std::string u = upper(line);
  auto number_after = [&](std::string_view key) -> std::optional<double> {
    const auto at = u.find(key);
    if (at == std::string::npos) return std::nullopt;
    std::size_t b = u.find_first_not_of(" =:", at + key.size());
    if (b == std::string::npos) return std::nullopt;
    const std::size_t e = u.find_first_of(" ,;\tSs\r", b);
    return parse_number(std::string_view(u).substr(b, e == std::string::npos ? e : e - b));
  };
  std::optional<double> n = number_after("NPTS"), d = number_after("DT");
  if (!n || !d) {
    // The older layout: two numbers, then "NPTS, DT".
    std::string cleaned = u;
    for (char& c : cleaned)
      if (c == ',' || c == '\t' || c == '\r') c = ' ';
    std::istringstream words(cleaned);
    std::string a, b, c;
    words >> a >> b >> c;
    if (c != "NPTS") return false;
    n = parse_number(a), d = parse_number(b);
    if (!n || !d) return false;
  }
  if (*n < 1 || *n > 1e9 || *n != std::floor(*n) || !(*d > 0)) return false;
  npts = static_cast<std::int64_t>(*n);
  dt = *d;
  return true;
}

AmplitudeTable read_peer(LineReader& in) {
  AmplitudeTable table;
  std::string lines[4];
  for (int i = 0; i < 4; ++i) {
    if (!in.next(true))
      in.fail(cat("a PEER .AT2 file has four header lines; this one ends at line ", in.number));
    lines[i] = in.original;
  }
  table.read.title = excerpt(lines[1]);
  const std::string third = upper(lines[2]);
  for (std::string_view other : {"VELOCITY", "DISPLACEMENT"})
    if (third.find(other) != std::string::npos && third.find("ACCELERATION") == std::string::npos)
      in.fail(cat("the header says a ", upper(other) == "VELOCITY" ? "velocity" : "displacement",
                  " time series ('", excerpt(lines[2]), "'): an accelerogram is needed"),
              3);
  table.read.file_units = peer_units(lines[2]);
  std::int64_t npts = 0;
  double dt = 0;
  if (!peer_counts(lines[3], npts, dt))
    in.fail(
        cat("expected NPTS and DT (as 'NPTS= 3930, DT= .0100 SEC'); got '", excerpt(lines[3]), "'"),
        4);
  table.read.dt = dt;
  int excess = 0;
  read_values(in, table, dt, false, npts, excess);
  const auto got = static_cast<std::int64_t>(table.points.size());
  if (got != npts)
    in.fail(cat("NPTS = ", npts, " but ", got, got == 1 ? " value follows" : " values follow",
                got > npts ? cat(" (the first beyond NPTS on line ", excess, ")") : std::string()),
            4);
  return table;
}

}  // namespace

AmplitudeTable read_record(const std::filesystem::path& path, RecordFormat format, double dt,
                           std::string_view abscissa) {
  LineReader in(path);
  AmplitudeTable table;
  switch (format) {
    case RecordFormat::table:
      table = read_table(in, abscissa);
      break;
    case RecordFormat::peer:
      table = read_peer(in);
      break;
    case RecordFormat::single: {
      if (!(dt > 0)) throw InputError("a single-column record needs its dt");
      int excess = 0;
      read_values(in, table, dt, true, -1, excess);
      if (table.points.empty()) in.fail("no values");
      table.read.dt = dt;
      break;
    }
  }
  table.read.format = format;
  table.read.byte_order_mark = in.byte_order_mark;
  table.read.rows = static_cast<std::int64_t>(table.points.size());
  return table;
}

AmplitudeTable read_amplitude_table(const std::filesystem::path& path) {
  return read_record(path, RecordFormat::table, 0);
}

std::pair<double, double> final_ground_motion(
    const std::vector<std::pair<double, double>>& points) {
  double v = 0, d = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double h = points[i].first - points[i - 1].first;
    const double a0 = points[i - 1].second, a1 = points[i].second;
    d += h * v + h * h * (2 * a0 + a1) / 6;
    v += h * (a0 + a1) / 2;
  }
  return {d, v};
}

std::vector<std::string> record_warnings(std::span<const std::pair<double, double>> points,
                                         double scale, const RecordSource& source) {
  std::vector<std::string> out;
  if (points.empty() || scale == 0) return out;
  const std::string units =
      cat(source.units, source.units_from_file ? " (from the file's header)" : "");
  const std::string check_units =
      source.units_from_file
          ? cat("check the file's units line (", source.units_option, " must agree with it)")
          : cat("check ", source.units_option);
  // The peak acceleration, and the units that would make it plausible.
  double peak = 0, peak_time = points.front().first;
  for (const auto& [t, a] : points)
    if (std::abs(a) > peak) peak = std::abs(a), peak_time = t;
  peak /= std::abs(scale);
  if (peak > plausible_peak_acceleration) {
    std::string instead;
    const double written = peak / units_factor(source.units).value_or(1.0);
    for (std::string_view other : {"g", "m/s2", "cm/s2", "mm/s2"}) {
      const double in_other = written * *units_factor(other);
      if (in_other <= plausible_peak_acceleration &&
          units_factor(other) != units_factor(source.units)) {
        instead = cat("in ", other, " it would be ", six(in_other / standard_gravity), " g; ");
        break;
      }
    }
    out.push_back(cat(source.name, ": peak acceleration ", six(peak / standard_gravity),
                      " g at t = ", six(peak_time), " s with the values in ", units,
                      ", more than any recorded earthquake's (",
                      plausible_peak_acceleration / standard_gravity, " g): ", instead,
                      check_units));
  }
  // The ground's displacement at the points (exact for the piecewise-linear record).
  double v = 0, d = 0, largest = 0, largest_time = points.front().first;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double h = points[i].first - points[i - 1].first;
    const double a0 = points[i - 1].second / scale, a1 = points[i].second / scale;
    d += h * v + h * h * (2 * a0 + a1) / 6;
    v += h * (a0 + a1) / 2;
    if (std::abs(d) > largest) largest = std::abs(d), largest_time = points[i].first;
  }
  if (largest > plausible_ground_displacement) {
    const bool at_end = largest_time == points.back().first;
    out.push_back(cat(
        source.name, ": the ground's displacement",
        source.corrected ? ", after the baseline correction," : "", " reaches ", six(largest),
        " m at ", at_end ? "the record's end, " : "", "t = ", six(largest_time), " s",
        at_end ? "" : cat(" (", six(d), " m at its end)"), " with the values in ", units,
        ", beyond what recorded earthquakes move the ground (", plausible_ground_displacement,
        " m): ", check_units,
        source.corrected ? "" : cat(", or correct the baseline (", source.baseline_option, ")")));
  }
  return out;
}

BaselineCorrection correct_baseline(std::vector<std::pair<double, double>>& points, int degree) {
  if (degree < 2 || degree > 6)
    throw InputError(cat("a baseline polynomial has degree 2 to 6, got ", degree));
  BaselineCorrection result;
  result.method = "polynomial";
  result.degree = degree;
  std::tie(result.final_displacement_before, result.final_velocity_before) =
      final_ground_motion(points);
  const std::size_t n = points.size();
  const int m = degree - 1;  // the terms tau^2 .. tau^degree
  if (n < static_cast<std::size_t>(m) + 1) {
    result.final_displacement_after = result.final_displacement_before;
    result.final_velocity_after = result.final_velocity_before;
    return result;
  }
  const double t0 = points.front().first, span = points.back().first - t0;
  // The displacement at the points, exactly (at rest at t0).
  std::vector<double> d(n, 0.0);
  {
    double v = 0;
    for (std::size_t i = 1; i < n; ++i) {
      const double h = points[i].first - points[i - 1].first;
      const double a0 = points[i - 1].second, a1 = points[i].second;
      d[i] = d[i - 1] + h * v + h * h * (2 * a0 + a1) / 6;
      v += h * (a0 + a1) / 2;
    }
  }
  // Least squares by modified Gram-Schmidt, twice (the powers of tau are far from orthogonal):
  // Q R = A with A's columns tau^k, then c = R^-1 Q^T d.
  std::vector<std::vector<double>> q(static_cast<std::size_t>(m), std::vector<double>(n));
  std::vector<double> r(static_cast<std::size_t>(m * m), 0.0);
  for (int k = 0; k < m; ++k) {
    auto& col = q[static_cast<std::size_t>(k)];
    for (std::size_t i = 0; i < n; ++i) col[i] = std::pow((points[i].first - t0) / span, k + 2);
    for (int pass = 0; pass < 2; ++pass)
      for (int j = 0; j < k; ++j) {
        const auto& qj = q[static_cast<std::size_t>(j)];
        double dot = 0;
        for (std::size_t i = 0; i < n; ++i) dot += qj[i] * col[i];
        for (std::size_t i = 0; i < n; ++i) col[i] -= dot * qj[i];
        r[static_cast<std::size_t>(j * m + k)] += dot;
      }
    double norm = 0;
    for (double x : col) norm += x * x;
    norm = std::sqrt(norm);
    if (!(norm > 0)) throw InputError("baseline correction: the record's points are too few");
    for (double& x : col) x /= norm;
    r[static_cast<std::size_t>(k * m + k)] = norm;
  }
  std::vector<double> c(static_cast<std::size_t>(m), 0.0);
  for (int k = 0; k < m; ++k) {
    double dot = 0;
    for (std::size_t i = 0; i < n; ++i) dot += q[static_cast<std::size_t>(k)][i] * d[i];
    c[static_cast<std::size_t>(k)] = dot;
  }
  for (int k = m - 1; k >= 0; --k) {
    double s = c[static_cast<std::size_t>(k)];
    for (int j = k + 1; j < m; ++j)
      s -= r[static_cast<std::size_t>(k * m + j)] * c[static_cast<std::size_t>(j)];
    c[static_cast<std::size_t>(k)] = s / r[static_cast<std::size_t>(k * m + k)];
  }
  // p''(t) = sum c_k k (k - 1) tau^(k-2) / span^2.
  for (auto& [t, a] : points) {
    const double tau = (t - t0) / span;
    double p2 = 0;
    for (int k = 0; k < m; ++k) {
      const int power = k + 2;
      p2 += c[static_cast<std::size_t>(k)] * power * (power - 1) * std::pow(tau, power - 2);
    }
    p2 /= span * span;
    a -= p2;
    result.peak_correction = std::max(result.peak_correction, std::abs(p2));
  }
  std::tie(result.final_displacement_after, result.final_velocity_after) =
      final_ground_motion(points);
  return result;
}

BaselineCorrection highpass_filter(std::vector<std::pair<double, double>>& points, double corner,
                                   int order) {
  if (order < 2 || order > 8 || order % 2 != 0)
    throw InputError(cat("a Butterworth filter's order is 2, 4, 6 or 8, got ", order));
  const std::size_t n = points.size();
  if (n < 8) throw InputError(cat("a filter needs 8 values or more, the record has ", n));
  const double t0 = points.front().first;
  const double dt = (points.back().first - t0) / static_cast<double>(n - 1);
  for (std::size_t i = 1; i < n; ++i) {
    const double h = points[i].first - points[i - 1].first;
    if (!(std::abs(h - dt) <= 1e-6 * dt))
      throw InputError(
          cat("a filter needs equally spaced values: the step from t = ", points[i - 1].first,
              " to ", points[i].first, " s is ", h, ", the record's mean step ", dt));
  }
  const double nyquist = 0.5 / dt;
  if (!(corner > 0 && corner < nyquist))
    throw InputError(cat("the filter's corner ", corner, " Hz must be above 0 and below the ",
                         "record's Nyquist frequency ", nyquist, " Hz"));
  BaselineCorrection result;
  result.method = "butterworth";
  result.corner = corner;
  result.order = order;
  std::tie(result.final_displacement_before, result.final_velocity_before) =
      final_ground_motion(points);
  // Zero pads of 1.5 order / f_c in all, half at each end.
  const auto pad = static_cast<std::size_t>(std::ceil(0.75 * order / corner / dt));
  std::vector<double> x(n + 2 * pad, 0.0);
  for (std::size_t i = 0; i < n; ++i) x[pad + i] = points[i].second;
  // Second-order sections H(z) = b0 (1 - z^-1)^2 / (1 + a1 z^-1 + a2 z^-2), one per pole pair
  // of the analog prototype, Q_k = 1 / (2 sin((2k - 1) pi / (2 order))), K = tan(pi f_c dt).
  const double K = std::tan(std::numbers::pi * corner * dt);
  auto pass = [&](auto begin, auto end) {
    for (int k = 1; k <= order / 2; ++k) {
      const double q = 1 / (2 * std::sin((2 * k - 1) * std::numbers::pi / (2 * order)));
      const double b0 = 1 / (1 + K / q + K * K);
      const double a1 = 2 * (K * K - 1) * b0, a2 = (1 - K / q + K * K) * b0;
      double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
      for (auto it = begin; it != end; ++it) {
        const double in = *it;
        const double out = b0 * (in - 2 * x1 + x2) - a1 * y1 - a2 * y2;
        x2 = x1, x1 = in, y2 = y1, y1 = out;
        *it = out;
      }
    }
  };
  pass(x.begin(), x.end());
  pass(x.rbegin(), x.rend());
  std::vector<std::pair<double, double>> filtered(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    filtered[i] = {t0 + static_cast<double>(i) * dt, x[i]};
    if (i >= pad && i < pad + n)
      result.peak_correction =
          std::max(result.peak_correction, std::abs(x[i] - points[i - pad].second));
  }
  result.delay = static_cast<double>(pad) * dt;
  points = std::move(filtered);
  std::tie(result.final_displacement_after, result.final_velocity_after) =
      final_ground_motion(points);
  return result;
}

}  // namespace inertia
