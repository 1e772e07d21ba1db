#pragma once
/// \file record.hpp
/// Time-history files as they come: tables of time and value, PEER NGA accelerograms (.AT2), and
/// single-column equally spaced files; a record's units; and the baseline correction of an
/// accelerogram. Serial, no MPI: the case file reads them on one rank (app/load_case.cpp) and the
/// spectrum tool reads them alone.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "inertia/core/error.hpp"

namespace inertia {

/// How a time-history file is laid out.
/// - table: rows of time and value (comma, semicolon or white space between them);
/// - peer: a PEER NGA strong-motion file (.AT2): three lines of text (the third names the units),
///   a fourth with NPTS and DT ("NPTS= 3930, DT= .0100 SEC", or the older "3930 .0100 NPTS, DT"),
///   then NPTS values, several per line, the first at t = 0;
/// - single: values only, one or several per line, equally spaced by a given dt from t = 0
///   (OpenSees' Path -dt, Abaqus's EQUALLY SPACED).
enum class RecordFormat { table, peer, single };

/// "table", "peer", "single".
std::string_view record_format_name(RecordFormat format);
/// The format a name names, or nothing.
std::optional<RecordFormat> find_record_format(std::string_view name);
/// The format a file is read in when none is given: peer for a .AT2 name (any case), single when
/// a dt is given, a table otherwise.
RecordFormat default_record_format(const std::filesystem::path& path, bool has_dt);

/// What was read from a time-history file, for the log.
struct AmplitudeFileRead {
  RecordFormat format = RecordFormat::table;
  std::int64_t rows = 0;         ///< points read ([time, value] rows, or values)
  int header_line = 0;           ///< table, single: the line skipped as a header (0: none)
  std::string header;            ///< its text, at most ~80 characters of it
  bool byte_order_mark = false;  ///< a UTF-8 byte-order mark before the first line, skipped
  double dt = 0;                 ///< peer, single: the sample interval
  /// peer: the units the file's third line names, as units_factor spells them ("g", "cm/s2"),
  /// empty when it names none.
  std::string file_units;
  std::string title;  ///< peer: the file's second line (event, station, component), an excerpt
};

/// A time history's points and what was read.
struct AmplitudeTable {
  std::vector<std::pair<double, double>> points;
  AmplitudeFileRead read;
};

/// A file that cannot be opened: the system's reason ("No such file or directory", "Is a
/// directory"), which the case file's message places at its `file:` key.
class AmplitudeFileUnreadable : public InputError {
 public:
  using InputError::InputError;
};

/// Serial. A table from a file of two columns, time and value (comma, semicolon or white space
/// between them); `#` starts a comment, a UTF-8 byte-order mark is skipped, and a first line
/// that is not two numbers is a header. Throws AmplitudeFileUnreadable when the file cannot be
/// opened, InputError "<file>:<line>: ..." for its content (quoting at most ~80 characters of
/// the offending line).
AmplitudeTable read_amplitude_table(const std::filesystem::path& path);

/// Serial. A file in `format`; `dt` (> 0) is the sample interval of a single-column file and
/// must be 0 for the others (a table's rows and an AT2's header carry their times). Errors as
/// read_amplitude_table's; an AT2 whose NPTS disagrees with its values names the header line.
/// `abscissa`: what a table's first column holds, for messages ("time", "period").
AmplitudeTable read_record(const std::filesystem::path& path, RecordFormat format, double dt,
                           std::string_view abscissa = "time");

/// Standard gravity, m/s^2 (the g of records in g).
inline constexpr double standard_gravity = 9.80665;

/// The factor that turns a record in `units` into m/s^2: g (9.80665), m/s2, cm/s2 (also gal),
/// mm/s2; "m/s^2" spellings too. Nothing for other names.
std::optional<double> units_factor(std::string_view units);
/// The spellings units_factor knows, for messages and --help.
std::string_view known_units();

/// The units a record is converted from, with their factor to m/s^2: the units `given` (empty:
/// none), else those the file names (an AT2's third line), else none (factor 1, the values as
/// written). Throws InputError (a message without a place: the caller knows which key) for
/// unknown units, units that contradict the file's, and an AT2 file that names none when none
/// are given.
std::pair<std::string, double> record_units(const AmplitudeFileRead& read,
                                            const std::string& given);

/// What a baseline correction did, for the log: the ground's displacement and velocity at the
/// record's last point before and after it.
struct BaselineCorrection {
  std::string method;  ///< "" (none), "polynomial" or "butterworth"
  int degree = 0;      ///< polynomial: its degree
  double corner = 0;   ///< butterworth: the corner frequency (Hz)
  int order = 0;       ///< butterworth: the order of each pass
  double delay = 0;    ///< butterworth: the leading pad, by which the record is delayed (s)
  double final_displacement_before = 0, final_velocity_before = 0;
  double final_displacement_after = 0, final_velocity_after = 0;
  double peak_correction = 0;  ///< the largest |p''(t_i)| subtracted from the acceleration
};

/// The ground's displacement and velocity at the last point of a piecewise-linear acceleration
/// record that starts at rest at its first point (exact double integration).
std::pair<double, double> final_ground_motion(const std::vector<std::pair<double, double>>& points);

/// What record_warnings() needs to know of a record besides its values.
struct RecordSource {
  std::string name;              ///< the record for the message: "amplitude 'quake' (quake.AT2)"
  std::string units;             ///< the units its values were converted from ("g")
  bool units_from_file = false;  ///< an AT2 header named them (units: must agree with it)
  std::string units_option;      ///< how other units are given: "units:", "--units"
  std::string baseline_option;   ///< how a baseline correction is asked for: "baseline:", ...
  bool corrected = false;        ///< a baseline correction was applied to the values
};

/// The limits of a plausible accelerogram: the largest peak ground accelerations recorded are
/// about 3 to 4 g, and the largest permanent ground displacements a few metres (10 m and more
/// only across a fault rupture).
inline constexpr double plausible_peak_acceleration = 5 * standard_gravity;  // m/s^2
inline constexpr double plausible_ground_displacement = 10;                  // m

/// Serial, pure. One line each (without the `warning` tag), none for a plausible record: a peak
/// above plausible_peak_acceleration (the peak in g and the units, and the units in which the
/// values would be plausible), and a ground displacement (the exact double integral from rest,
/// at the record's points) above plausible_ground_displacement, at its peak or its end. `points`
/// / `scale`, in m/s^2: the record in its units, after any baseline correction (`points`: with
/// a `scale` applied, which the check takes out).
std::vector<std::string> record_warnings(std::span<const std::pair<double, double>> points,
                                         double scale, const RecordSource& source);

/// Baseline correction of an accelerogram (Boore and Bommer, Soil Dyn. Earthq. Eng. 25, 2005,
/// section 4: a polynomial fitted to the displacement). The displacement d(t) of the
/// piecewise-linear acceleration (at rest at the first point t_0) is fitted, in least squares
/// over the points, by p(t) = sum_{k=2..degree} c_k ((t - t_0) / T)^k (T the record's span; no
/// constant or linear term, so the ground still starts at rest), and p''(t_i) is subtracted
/// from each acceleration value. `degree` from 2 (a constant acceleration offset) to 6.
BaselineCorrection correct_baseline(std::vector<std::pair<double, double>>& points, int degree);

/// High-pass filtering of an accelerogram (Boore and Bommer 2005, section 5): an acausal
/// (zero-phase) Butterworth filter of `order` (even, 2 to 8) and corner `corner` (Hz), applied
/// forward then backward (gain 1 / (1 + (f_c / f)^(2 order)): one half at the corner), as
/// cascaded second-order sections from the bilinear transform with the corner prewarped. The
/// record is padded with zeros, 1.5 order / f_c in all (Converse and Brady 1992), half before
/// and half after, and kept padded: the filtered motion starts in the leading pad, so the record
/// is delayed by that pad (`delay`) and starts at rest at its first time. The values must be
/// equally spaced; InputError otherwise, or for a corner at or above the Nyquist frequency.
BaselineCorrection highpass_filter(std::vector<std::pair<double, double>>& points, double corner,
                                   int order);

}  // namespace inertia
