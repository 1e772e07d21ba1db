#include "inertia/app/case_file.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "case_node.hpp"
#include "inertia/app/analysis_sequence.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/app/plausibility.hpp"
#include "inertia/core/text.hpp"
#include "inertia/mesh/mesh_data.hpp"
#include "inertia/system/beams.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/shells.hpp"

namespace inertia {

namespace {

using case_yaml::Node;
using case_yaml::one_line;
using case_yaml::parse_components;

/// The first entry of a list that named each region, for a second entry on the same region.
class RegionOnce {
 public:
  explicit RegionOnce(const char* what) : what_(what) {}
  /// Fails at `entry` when `region` was named by an earlier entry of the list.
  void claim(const Node& entry, const std::string& region);

 private:
  const char* what_;
  std::map<std::string, std::pair<std::string, int>> first_;  ///< region -> (key, line)
};
/// The largest count an int holds (output.every, ...).
constexpr std::int64_t int_max = std::numeric_limits<int>::max();

void RegionOnce::claim(const Node& entry, const std::string& region) {
  const auto [it, inserted] = first_.try_emplace(region, entry.key, entry.line());
  if (!inserted)
    entry["region"].fail(cat("region '", region, "' already has ", what_, " (", it->second.first,
                             it->second.second ? cat(", line ", it->second.second) : std::string(),
                             "); give one entry per region"));
}

/// A component's options section (a scheme's time.<name>) as an OptionMap over its YAML node;
/// an absent section has no keys.
class YamlOptions final : public OptionMap {
 public:
  explicit YamlOptions(Node n) : n_(std::move(n)) {
    if (n_.node && !n_.node.IsNull() && !n_.node.IsMap()) n_.fail("expected a mapping of keys");
  }
  bool has(std::string_view key) const override {
    return n_.node && n_.node.IsMap() && n_.has(std::string(key).c_str());
  }
  void expect_keys(std::initializer_list<std::string_view> allowed) const override {
    if (n_.node && n_.node.IsMap()) n_.expect_map(allowed);
  }
  double number(std::string_view key) const override { return at(key).number(); }
  bool boolean(std::string_view key) const override { return at(key).boolean(); }
  [[noreturn]] void fail(std::string_view key, const std::string& what) const override {
    if (has(key)) at(key).fail(what);
    n_.fail(what);
  }

 private:
  Node at(std::string_view key) const { return n_[std::string(key).c_str()]; }
  Node n_;
};

CellType element_type(const Node& n) {
  const std::string s = n.choice({"hex8", "tet4", "tet10"});
  return s == "hex8" ? CellType::hex8 : s == "tet4" ? CellType::tet4 : CellType::tet10;
}

void parse_mesh(const Node& n, CaseFile& c) {
  n.expect_map({"file", "box", "partitioner"});
  if (n.has("file") == n.has("box")) n.fail("give exactly one of 'file' or 'box'");
  if (n.has("file")) {
    const std::filesystem::path p = n["file"].text();
    c.mesh_file = p.is_absolute() ? p : c.directory / p;
  } else {
    const Node b = n["box"];
    b.expect_map({"lower", "upper", "cells", "element"});
    BoxSpec box;
    if (b.has("lower")) box.lower = b["lower"].vec3();
    if (b.has("upper")) box.upper = b["upper"].vec3();
    if (!b.has("cells")) b.fail("missing key 'cells'");
    const Node cells = b["cells"];
    if (!cells.node.IsSequence() || cells.size() != 3) cells.fail("expected a list of 3 integers");
    for (std::size_t i = 0; i < 3; ++i) {
      box.cells[i] = cells.at(i).integer();
      if (box.cells[i] <= 0) cells.at(i).fail("must be a positive integer");
    }
    for (int d = 0; d < 3; ++d)
      if (!(box.upper[d] > box.lower[d])) b.fail("upper must exceed lower in every direction");
    if (b.has("element")) box.element = element_type(b["element"]);
    c.box = box;
  }
  if (n.has("partitioner"))
    c.partitioner = n["partitioner"].choice({"metis", "block"}) == "metis" ? Partitioner::metis
                                                                           : Partitioner::block;
}

void parse_materials(const Node& n, CaseFile& c) {
  n.expect_sequence();
  for (std::size_t i = 0; i < n.size(); ++i) {
    const Node m = n.at(i);
    CaseMaterial mat;
    mat.material = material::parse_solid_material(m);  // the model reads its own keys
    mat.origin = m.origin();
    mat.region = m["region"].text();
    mat.model = mat.material.model->describe();
    c.materials.push_back(mat);
  }
}

void parse_springs(const Node& n, CaseFile& c) {
  n.expect_sequence();
  RegionOnce once("a spring");
  for (std::size_t i = 0; i < n.size(); ++i) {
    const Node s = n.at(i);
    s.expect_map({"region", "stiffness", "damping", "rest_length", "edges_of"});
    for (const char* k : {"region", "stiffness"})
      if (!s.has(k)) s.fail(cat("missing key '", k, "'"));
    CaseSpring spring;
    spring.origin = s.origin();
    spring.region = s["region"].text();
    once.claim(s, s.has("edges_of") ? edge_region_name(spring.region) : spring.region);
    spring.properties.stiffness = s["stiffness"].positive();
    if (s.has("damping")) spring.properties.damping = s["damping"].non_negative();
    if (s.has("rest_length")) {
      const Node r = s["rest_length"];
      if (!(r.node.IsScalar() && r.text() == "mesh")) {
        spring.properties.rest_length = r.number();
        if (!(spring.properties.rest_length >= 0))
          r.fail(cat("must be 'mesh' or a length >= 0 (got ", r.text(), ")"));
      }
    }
    if (s.has("edges_of")) {
      s["edges_of"].choice({"surface"});
      spring.edges_of_surface = true;
    }
    c.springs.push_back(spring);
  }
}

void parse_point_masses(const Node& n, CaseFile& c) {
  n.expect_sequence();
  RegionOnce once("a point mass");
  for (std::size_t i = 0; i < n.size(); ++i) {
    const Node p = n.at(i);
    p.expect_map({"region", "mass", "rotary_inertia"});
    for (const char* k : {"region", "mass"})
      if (!p.has(k)) p.fail(cat("missing key '", k, "'"));
    once.claim(p, p["region"].text());
    c.point_masses.push_back({p["region"].text(), p["mass"].positive(),
                              p.has("rotary_inertia") ? p["rotary_inertia"].non_negative() : 0.0,
                              p.origin()});
  }
}

/// Each entry is read by its type's row (app/conditions.hpp): the keys any type allows first,
/// then region and type, then the type's own keys and values.
void parse_boundary_conditions(const Node& n, CaseFile& c) {
  n.expect_sequence();
  const std::vector<std::string_view> any_keys = condition_keys();
  for (std::size_t i = 0; i < n.size(); ++i) {
    const Node b = n.at(i);
    b.expect_map(any_keys);
    if (!b.has("type")) b.fail("missing key 'type'");
    if (!b.has("region")) b.fail("missing key 'region'");
    CaseBoundaryCondition bc;
    bc.origin = b.origin();
    bc.region = b["region"].text();
    bc.type = find_condition_type(b["type"].choice(condition_type_names()));
    b.expect_map(bc.type->keys);
    bc.type->parse(b, bc);
    if (b.has("amplitude")) bc.amplitude = b["amplitude"].text();
    c.boundary_conditions.push_back(bc);
  }
}

/// A table's units, scale and baseline correction (`units`, `scale`, `baseline`), applied to its
/// points as read.
void condition_record(const Node& a, CaseAmplitude& amp) {
  std::vector<std::pair<double, double>> points(amp.points.begin(), amp.points.end());
  double factor = 1;
  try {
    std::tie(amp.units, factor) = record_units(amp.read, a.has("units") ? a["units"].text() : "");
  } catch (const InputError& e) {
    (a.has("units") ? a["units"] : a["file"]).fail(e.what());
  }
  if (a.has("scale")) {
    amp.scale = a["scale"].number();
    if (amp.scale == 0) a["scale"].fail("must not be 0");
  }
  factor *= amp.scale;
  if (factor != 1)
    for (auto& p : points) p.second *= factor;
  if (a.has("baseline")) {
    const Node b = a["baseline"];
    b.expect_map({"method", "degree", "corner", "order"});
    const bool filter =
        b.has("method") && b["method"].choice({"polynomial", "butterworth"}) == "butterworth";
    const std::vector<std::string> foreign =
        filter ? std::vector<std::string>{"degree"} : std::vector<std::string>{"corner", "order"};
    for (const auto& key : foreign)
      if (b.has(key.c_str()))
        b[key.c_str()].fail(cat("is a key of method: ", filter ? "polynomial" : "butterworth"));
    if (points.size() < 8)
      b.fail(cat("a baseline correction needs 8 points or more, the record has ", points.size()));
    if (filter) {
      if (!b.has("corner")) b.fail("missing key 'corner' (the high-pass filter's corner, Hz)");
      const double corner = b["corner"].positive();
      const int order = b.has("order") ? static_cast<int>(b["order"].integer_in(2, 8)) : 4;
      if (order % 2 != 0) b["order"].fail(cat("must be even (2, 4, 6 or 8), got ", order));
      try {
        amp.baseline = highpass_filter(points, corner, order);
      } catch (const InputError& e) {
        b.fail(e.what());
      }
    } else {
      const int degree = b.has("degree") ? static_cast<int>(b["degree"].integer_in(2, 6)) : 3;
      amp.baseline = correct_baseline(points, degree);
    }
  }
  amp.points = std::move(points);
}

void parse_amplitudes(const Node& n, CaseFile& c, const AmplitudeFileReader& reader) {
  if (!n.node.IsMap()) n.fail("expected a mapping of amplitude names");
  for (const auto& kv : n.node) {
    const std::string name = n.key_name(kv.first);
    const Node a{kv.second, n.key + "." + name, n.file};
    if (!a.node.IsMap() || !a.has("type")) a.fail("expected a mapping with a 'type'");
    CaseAmplitude amp;
    const std::string type = a["type"].choice({"table", "smooth_step", "sine"});
    if (type == "table" && a.has("file")) {
      a.expect_map({"type", "file", "format", "dt", "units", "scale", "baseline"});
      amp.file = a["file"].text();
      const std::filesystem::path path = c.directory / amp.file;
      const double dt = a.has("dt") ? a["dt"].positive() : 0;
      RecordFormat format = default_record_format(path, dt > 0);
      if (a.has("format"))
        format = *find_record_format(a["format"].choice({"table", "peer", "single"}));
      if (format == RecordFormat::single && dt == 0)
        a.fail("a single-column file needs dt: (the time between its values)");
      if (format != RecordFormat::single && dt > 0)
        a["dt"].fail(cat("only for a single-column file (format: single); ",
                         format == RecordFormat::peer ? "an AT2 file's header gives its DT"
                                                      : "a table's rows give their times"));
      try {
        AmplitudeTable table = reader(path, format, dt, "time");
        amp.points = std::move(table.points);
        amp.read = std::move(table.read);
      } catch (const AmplitudeFileUnreadable& e) {
        a["file"].fail(cat("cannot open '", path.string(), "': ", e.what()));
      }
      condition_record(a, amp);
    } else if (type == "table" || type == "smooth_step") {
      if (type == "table") {
        a.expect_map({"type", "points", "file", "units", "scale", "baseline"});
      } else {
        a.expect_map({"type", "points", "continuity"});
        amp.type = CaseAmplitude::Type::smooth_step;
        if (a.has("continuity")) {
          const double k = a["continuity"].number();
          if (k != 1 && k != 2) a["continuity"].fail("expected 1 or 2");
          amp.continuity = static_cast<int>(k);
        }
      }
      if (!a.has("points")) a.fail("missing key 'points'");
      const Node pts = a["points"];
      if (!pts.node.IsSequence() || pts.size() == 0) pts.fail("expected a list of [time, value]");
      std::vector<std::pair<double, double>> points;
      for (std::size_t i = 0; i < pts.size(); ++i) {
        const auto p = pts.at(i).numbers(2, 2);
        if (!points.empty() && !(p[0] > points.back().first))
          pts.at(i).fail("times must increase strictly");
        points.emplace_back(p[0], p[1]);
      }
      amp.points = std::move(points);
      if (type == "table") condition_record(a, amp);
    } else {
      a.expect_map({"type", "frequency", "phase"});
      amp.type = CaseAmplitude::Type::sine;
      if (!a.has("frequency")) a.fail("missing key 'frequency'");
      amp.frequency = a["frequency"].positive();
      if (a.has("phase")) amp.phase = a["phase"].number();
    }
    c.amplitudes[name] = amp;
  }
}

/// A modal damping ratio: a number in [0, 1).
double damping_ratio(const Node& n) {
  const double x = n.number();
  if (!(x >= 0 && x < 1)) n.fail(cat("a damping ratio must be in [0, 1), got ", x));
  return x;
}

/// response_spectrum: {spectrum: {record | points | file, units, scale}, directions,
/// direction_factors, directional_combination, combination, damping, missing_mass}.
void parse_response_spectrum(const Node& n, CaseFile& c, const AmplitudeFileReader& reader) {
  n.expect_map({"spectrum", "directions", "direction_factors", "directional_combination",
                "combination", "damping", "missing_mass"});
  auto& r = c.response_spectrum;
  r.enabled = true;
  r.origin = {n.line(), n.key};
  if (!n.has("spectrum"))
    n.fail("missing key 'spectrum' ({record: NAME}, {points: [[T, Sa], ...]} or {file: F})");
  const Node s = n["spectrum"];
  s.expect_map({"record", "points", "file", "units", "scale"});
  const int given = s.has("record") + s.has("points") + s.has("file");
  if (given != 1) s.fail("expected one of record (an amplitude), points or file");
  if (s.has("record")) {
    r.record = s["record"].text();
    if (!c.amplitudes.count(r.record)) {
      std::vector<std::string_view> known;
      for (const auto& [k, v] : c.amplitudes) known.push_back(k);
      s["record"].fail(
          cat("unknown amplitude '", excerpt(r.record), "'", did_you_mean(r.record, known),
              known.empty() ? "; no amplitudes are defined" : "; defined: " + join(known)));
    }
    if (c.amplitudes.at(r.record).type != CaseAmplitude::Type::table)
      s["record"].fail(
          cat("'", excerpt(r.record), "' is not a table: a record is a table of accelerations"));
    if (s.has("units"))
      s["units"].fail("the record's units are its amplitude's (amplitudes." + r.record + ".units)");
  } else {
    AmplitudeFileRead read;
    if (s.has("points")) {
      const Node pts = s["points"];
      if (!pts.node.IsSequence() || pts.size() == 0)
        pts.fail("expected a list of [period, acceleration]");
      for (std::size_t i = 0; i < pts.size(); ++i) {
        const auto p = pts.at(i).numbers(2, 2);
        if (!r.table.empty() && !(p[0] > r.table.back().first))
          pts.at(i).fail(
              cat("periods must increase strictly (", p[0], " after ", r.table.back().first, ")"));
        r.table.emplace_back(p[0], p[1]);
      }
    } else {
      r.file = s["file"].text();
      const std::filesystem::path path = c.directory / r.file;
      try {
        AmplitudeTable table = reader(path, RecordFormat::table, 0, "period");
        r.table = std::move(table.points);
      } catch (const AmplitudeFileUnreadable& e) {
        s["file"].fail(cat("cannot open '", path.string(), "': ", e.what()));
      }
    }
    for (std::size_t i = 0; i < r.table.size(); ++i) {
      if (r.table[i].first < 0)
        (s.has("points") ? s["points"].at(i) : s["file"])
            .fail(cat("a period must be >= 0, got ", r.table[i].first));
      if (r.table[i].second < 0)
        (s.has("points") ? s["points"].at(i) : s["file"])
            .fail(cat("a spectral acceleration must be >= 0, got ", r.table[i].second));
    }
    double factor = 1;
    try {
      std::tie(r.units, factor) = record_units(read, s.has("units") ? s["units"].text() : "");
    } catch (const InputError& e) {
      s["units"].fail(e.what());
    }
    for (auto& p : r.table) p.second *= factor;
  }
  if (s.has("scale")) {
    r.scale = s["scale"].positive();
    for (auto& p : r.table) p.second *= r.scale;
  }
  if (!n.has("directions")) n.fail("missing key 'directions' (e.g. [x] or [x, y])");
  const Node d = n["directions"];
  if (!d.node.IsSequence() || d.size() < 1 || d.size() > 3)
    d.fail("expected a list of 1 to 3 of x, y, z");
  for (std::size_t i = 0; i < d.size(); ++i) {
    const std::string name = d.at(i).choice({"x", "y", "z"});
    const int k = name[0] - 'x';
    if (std::find(r.directions.begin(), r.directions.end(), k) != r.directions.end())
      d.at(i).fail("given twice");
    r.directions.push_back(k);
  }
  r.direction_factors.assign(r.directions.size(), 1.0);
  if (n.has("direction_factors")) {
    const auto f = n["direction_factors"].numbers(r.directions.size(), r.directions.size());
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (!(f[i] > 0)) n["direction_factors"].at(i).fail(cat("must be > 0 (got ", f[i], ")"));
      r.direction_factors[i] = f[i];
    }
  }
  if (n.has("directional_combination")) {
    if (r.directions.size() < 2) n["directional_combination"].fail("needs two or three directions");
    r.directional = n["directional_combination"].choice({"srss", "100-30"}) == "srss"
                        ? DirectionalRule::srss
                        : DirectionalRule::percent_100_30;
  }
  if (n.has("combination")) {
    const std::string rule = n["combination"].choice({"srss", "cqc", "abs"});
    r.combination = rule == "srss"  ? ModalRule::srss
                    : rule == "cqc" ? ModalRule::cqc
                                    : ModalRule::abs;
  }
  if (n.has("missing_mass")) r.missing_mass = n["missing_mass"].boolean();
  if (n.has("damping")) {
    if (n["damping"].node.IsScalar() && n["damping"].node.as<std::string>() == "rayleigh") {
      r.rayleigh_damping = true;  // checked against time.rayleigh once that is read
      if (r.record.empty())
        n["damping"].fail(
            "damping: rayleigh needs a record's spectrum (spectrum: {record: ...}), computed at "
            "each mode's ratio; a design table holds one damping ratio");
    } else {
      r.damping = damping_ratio(n["damping"]);
    }
  }
}

void parse_rayleigh(const Node& r, int modal_modes, RayleighDamping& out,
                    std::vector<std::pair<double, double>>& targets, std::vector<int>* modes);

/// harmonic: {method, frequencies: [f, ...] | {from, to, count, spacing}, damping, rayleigh,
/// structural_damping, fields_at}.
void parse_harmonic(const Node& n, CaseFile& c) {
  n.expect_map({"method", "frequencies", "damping", "rayleigh", "structural_damping",
                "base_acceleration", "residual", "fields_at"});
  auto& h = c.harmonic;
  h.enabled = true;
  h.origin = {n.line(), n.key};
  h.method = c.modal_modes > 0 ? CaseHarmonic::Method::modal : CaseHarmonic::Method::direct;
  if (n.has("method")) {
    h.method = n["method"].choice({"modal", "direct"}) == "modal" ? CaseHarmonic::Method::modal
                                                                  : CaseHarmonic::Method::direct;
    if (h.method == CaseHarmonic::Method::modal && c.modal_modes == 0)
      n["method"].fail("modal superposition needs modal: {modes: N} (the modes it superposes)");
  }
  if (!n.has("frequencies"))
    n.fail("missing key 'frequencies' (a list in Hz, or {from: 1, to: 100, count: 200})");
  const Node f = n["frequencies"];
  if (f.node.IsMap()) {
    f.expect_map({"from", "to", "count", "spacing"});
    for (const char* key : {"from", "to", "count"})
      if (!f.has(key)) f.fail(cat("missing key '", key, "'"));
    const double from = f["from"].positive(), to = f["to"].positive();
    if (!(to > from)) f["to"].fail(cat("must be above from (", from, ")"));
    const auto count = static_cast<int>(f["count"].integer_in(2, 1000000));
    if (f.has("spacing")) h.log_spacing = f["spacing"].choice({"linear", "log"}) == "log";
    for (int i = 0; i < count; ++i) {
      const double x = static_cast<double>(i) / (count - 1);
      h.frequencies.push_back(i == count - 1  ? to
                              : h.log_spacing ? from * std::pow(to / from, x)
                                              : from + (to - from) * x);
    }
  } else {
    if (!f.node.IsSequence() || f.size() == 0)
      f.fail("expected a list of frequencies (Hz) or {from, to, count}");
    for (std::size_t i = 0; i < f.size(); ++i) {
      const double x = f.at(i).positive();
      if (!h.frequencies.empty() && !(x > h.frequencies.back()))
        f.at(i).fail(
            cat("frequencies must increase strictly (", x, " after ", h.frequencies.back(), ")"));
      h.frequencies.push_back(x);
    }
  }
  if (n.has("damping")) {
    h.damping = damping_ratio(n["damping"]);
  }
  if (n.has("damping") && h.method == CaseHarmonic::Method::direct)
    n["damping"].fail(
        "a modal damping ratio has no meaning for the direct solve; give rayleigh: {mass, "
        "stiffness} (or damping_ratios at two frequencies) or structural_damping");
  if (n.has("rayleigh")) {
    std::vector<std::pair<double, double>> targets;
    parse_rayleigh(n["rayleigh"], c.modal_modes, h.rayleigh, targets, nullptr);
  }
  if (n.has("structural_damping")) h.structural_damping = n["structural_damping"].non_negative();
  if (n.has("residual")) {
    h.residual = n["residual"].boolean();
    if (h.residual && h.method == CaseHarmonic::Method::direct)
      n["residual"].fail("is for modal superposition (the direct solve has every mode)");
  }
  if (n.has("base_acceleration")) {
    h.base_acceleration = n["base_acceleration"].vec3();
    h.has_base = h.base_acceleration != std::array<double, 3>{0, 0, 0};
    if (!h.has_base) n["base_acceleration"].fail("must not be zero");
  }
  if (n.has("fields_at")) {
    const Node a = n["fields_at"];
    if (!a.node.IsSequence()) a.fail("expected a list of frequencies (Hz)");
    for (std::size_t i = 0; i < a.size(); ++i) h.fields_at.push_back(a.at(i).positive());
  }
}

/// rayleigh: {mass, stiffness} or {damping_ratios: [z1, z2], frequencies: [f1, f2] (Hz)} (or,
/// where `modes` is given, modes: [i, j] of the modal analysis, solved once it has run).
void parse_rayleigh(const Node& r, int modal_modes, RayleighDamping& out,
                    std::vector<std::pair<double, double>>& targets, std::vector<int>* modes) {
  if (modes)
    r.expect_map({"mass", "stiffness", "damping_ratios", "frequencies", "modes"});
  else
    r.expect_map({"mass", "stiffness", "damping_ratios", "frequencies"});
  if (r.has("damping_ratios") || r.has("frequencies") || r.has("modes")) {
    // Target ratios zeta_i at two frequencies (or at two modes of the modal analysis, solved
    // once it has run): zeta(omega) = alpha_M / (2 omega) + alpha_K omega / 2 through both.
    if (r.has("mass") || r.has("stiffness"))
      r.fail("give either mass/stiffness or damping_ratios with frequencies, not both");
    if (!r.has("damping_ratios") || r.has("frequencies") == r.has("modes"))
      r.fail(modes
                 ? "damping_ratios come with frequencies (Hz) or with modes (numbers), two of each"
                 : "damping_ratios come with frequencies (Hz), two of each");
    const auto zeta = r["damping_ratios"].numbers(2, 2);
    for (int i = 0; i < 2; ++i)
      if (!(zeta[i] >= 0 && zeta[i] < 1))
        r["damping_ratios"].at(i).fail(cat("a damping ratio is in [0, 1) (got ", zeta[i], ")"));
    if (r.has("modes")) {
      const auto m = r["modes"].numbers(2, 2);
      for (int i = 0; i < 2; ++i)
        if (m[i] != std::floor(m[i]) || m[i] < 1 || m[i] > modal_modes)
          r["modes"].at(i).fail(
              modal_modes == 0
                  ? std::string("needs a modal analysis (modal: {modes: N}) to number modes")
                  : cat("a mode number from 1 to modal.modes = ", modal_modes, " (got ", m[i],
                        ")"));
      if (m[0] == m[1]) r["modes"].fail("the two modes must differ");
      targets = {{zeta[0], 0.0}, {zeta[1], 0.0}};
      *modes = {static_cast<int>(m[0]), static_cast<int>(m[1])};
    } else {
      const auto f = r["frequencies"].numbers(2, 2);
      for (int i = 0; i < 2; ++i)
        if (!(f[i] > 0)) r["frequencies"].at(i).fail(cat("must be > 0 Hz (got ", f[i], ")"));
      if (!(std::abs(f[0] - f[1]) > 1e-9 * std::max(f[0], f[1])))
        r["frequencies"].fail("the two frequencies must differ");
      const auto solved = rayleigh_from_ratios(zeta[0], f[0], zeta[1], f[1]);
      if (!solved) r.fail(rayleigh_ratio_problem(zeta[0], f[0], zeta[1], f[1]));
      out = *solved;
      targets = {{zeta[0], f[0]}, {zeta[1], f[1]}};
    }
  }
  if (r.has("mass")) out.mass = r["mass"].non_negative();
  if (r.has("stiffness")) out.stiffness = r["stiffness"].non_negative();
}

}  // namespace

namespace {

/// time.mass_scaling: {dt_min, warn_fraction}: dt: auto of an explicit scheme, lumped masses, a
/// single transient (the added mass belongs to the model, which a sequence's analyses share).
/// time.safety_factor: in (0, 1]; a warning where dt is given (it scales dt: auto only).
void parse_safety_factor(const Node& f, CaseFile& c) {
  c.safety_factor = f.positive();
  if (c.safety_factor > 1) f.fail(cat("must be in (0, 1] (got ", c.safety_factor, ")"));
  if (!c.dt_auto)
    c.warnings.push_back(cat(*f.file, ":", f.line(), ": time.safety_factor: scales dt: auto; ",
                             "with a given dt it does nothing"));
}

void parse_mass_scaling(const Node& m, CaseFile& c, case_yaml::TimeKeys which) {
  m.expect_map({"dt_min", "warn_fraction"});
  if (which != case_yaml::TimeKeys::run)
    m.fail("mass scaling is for a single transient run, not a sequence of analyses");
  if (!m.has("dt_min")) m.fail("missing key 'dt_min' (the step below which cells get mass)");
  c.mass_scaling_dt_min = m["dt_min"].positive();
  if (m.has("warn_fraction")) c.mass_scaling_warn_fraction = m["warn_fraction"].positive();
  if (!c.dt_auto || !c.scheme.is_explicit())
    m.fail("needs dt: auto and an explicit scheme (it raises the stable step of dt: auto)");
  if (c.mass != MassTreatment::lumped)
    m.fail("needs mass: lumped (the added mass is spread to the cells' nodes)");
}

}  // namespace

void case_yaml::parse_time(const Node& n, CaseFile& c, TimeKeys which, double start) {
  // Every registered scheme's options section is allowed (a case switches schemes by one line)
  // and validated by the scheme itself; the chosen one configures the run.
  std::vector<std::string_view> keys{"integrator",
                                     "dt",
                                     "end_time",
                                     "steps",
                                     "mass",
                                     "rayleigh",
                                     "velocity_damping",
                                     "allow_unstable",
                                     "max_step_halvings",
                                     "safety_factor",
                                     "mass_scaling",
                                     "operator",
                                     "linear_solver"};
  for (const auto& e : scheme_entries()) keys.push_back(e.name);
  if (which == TimeKeys::analysis) {
    // An analysis of a sequence steps the one model: what the model is stays in time:.
    for (const char* model : {"mass", "rayleigh", "operator", "linear_solver", "mass_scaling"})
      if (n.has(model))
        n[model].fail("belongs to the model, which every analysis shares: give it in time:");
    keys.insert(keys.end(), {"name", "type"});
  }
  n.expect_map(keys);
  if (n.has("operator"))
    c.matrix_free = n["operator"].choice({"assembled", "matrix_free"}) == "matrix_free";
  if (n.has("linear_solver")) {
    const std::string choice = n["linear_solver"].choice({"auto", "direct", "iterative"});
    c.linear_solver = choice == "direct"      ? LinearSolverChoice::direct
                      : choice == "iterative" ? LinearSolverChoice::iterative
                                              : LinearSolverChoice::automatic;
  }
  std::string integrator(which == TimeKeys::analysis ? c.scheme.name() : "newmark");
  if (n.has("integrator")) {
    integrator = n["integrator"].text();
    if (!find_scheme(integrator)) {
      const auto names = integrator_names();
      n["integrator"].fail(cat("unknown integrator '", excerpt(integrator), "'",
                               did_you_mean(integrator, names), "; available: ", join(names)));
    }
  }
  for (const auto& e : scheme_entries()) {
    const std::string name(e.name);
    if (!n.has(name.c_str()) && e.name != integrator) continue;
    if (!n.has(name.c_str()) && which == TimeKeys::analysis && integrator == c.scheme.name())
      continue;  // an analysis keeps the scheme time: configured
    const Scheme scheme = e.configure(YamlOptions(n[name.c_str()]));
    if (e.name == integrator)
      c.scheme = scheme;
    else
      c.warnings.push_back(cat(*n.file, ":", n[name.c_str()].line(), ": time.", name,
                               ": configures the ", name, " scheme, but the run uses ", integrator,
                               ": this section does nothing"));
  }
  if (!n.has("dt") && which == TimeKeys::run) n.fail("missing key 'dt'");
  if (!n.has("dt") && which == TimeKeys::analysis && !c.dt_auto && !(c.dt_requested > 0))
    n.fail("missing key 'dt' (neither the analysis nor time: gives one)");
  if (!n.has("dt")) {
    // time: of a sequence without dt, or an analysis with time:'s
  } else if (n["dt"].node.IsScalar() && n["dt"].text() == "auto") {
    if (!c.scheme.conditionally_stable()) {
      std::vector<std::string_view> stable;
      for (const auto& e : scheme_entries())
        if (e.configure(OptionList{}).conditionally_stable()) stable.push_back(e.name);
      n["dt"].fail(
          cat("dt: auto needs an explicit scheme with a stable step (", join(stable),
              ", variational_symplectic with explicit: true), not '", c.scheme.name(),
              c.scheme.options_text().empty() ? "" : " (" + c.scheme.options_text() + ")'"));
    }
    c.dt_auto = true;
  } else {
    c.dt = c.dt_requested = n["dt"].positive();
    c.dt_auto = false;
  }
  if (c.dt_auto && !c.scheme.conditionally_stable())
    n.fail(cat("dt: auto (from time:) needs an explicit scheme with a stable step, not '",
               c.scheme.name(), "'"));
  if (which == TimeKeys::defaults && !n.has("end_time") && !n.has("steps")) {
    // time: of a sequence: each analysis gives its span
  } else if (n.has("end_time") == n.has("steps")) {
    n.fail("give exactly one of 'end_time' or 'steps'");
  } else if (n.has("end_time")) {
    c.steps = 0;
    c.end_time = n["end_time"].positive() - start;
    if (!(c.end_time > 0))
      n["end_time"].fail(cat("must be after the analysis's start, t = ", start, " s"));
    if (!c.dt_auto && c.end_time / c.dt > 1e12) n["end_time"].fail("end_time / dt is too large");
    // Steps of equal size, no longer than the given one, that end exactly at end_time.
    if (!c.dt_auto) c.dt = steps_to_end_time(c.end_time, c.dt).dt;
  } else {
    c.steps = n["steps"].integer();
    if (c.steps <= 0) n["steps"].fail(cat("must be a positive integer (got ", c.steps, ")"));
    if (c.dt_auto == false && !(c.dt > 0)) n.fail("steps needs a dt");
  }
  if (n.has("mass"))
    c.mass = n["mass"].choice({"consistent", "lumped"}) == "consistent" ? MassTreatment::consistent
                                                                        : MassTreatment::lumped;
  if (n.has("rayleigh"))
    parse_rayleigh(n["rayleigh"], c.modal_modes, c.rayleigh, c.rayleigh_targets, &c.rayleigh_modes);
  if (n.has("velocity_damping")) {
    c.velocity_damping = n["velocity_damping"].non_negative();
  }
  // Damping a scheme cannot have is refused rather than silently ignored.
  const std::string& undamped = c.scheme.refuses_damping();
  if (!undamped.empty() &&
      (c.rayleigh.mass != 0 || c.rayleigh.stiffness != 0 || !c.rayleigh_modes.empty()))
    n["rayleigh"].fail(cat("Rayleigh damping has no meaning for ", undamped, "; remove it"));
  if (c.scheme.kind() == SchemeKind::static_solve && c.velocity_damping != 0)
    n["velocity_damping"].fail(cat("velocity damping has no meaning for ", undamped));
  if (c.matrix_free && !c.scheme.is_explicit())
    n["operator"].fail(cat("matrix_free needs an explicit scheme (", c.scheme.name(),
                           " solves with the assembled stiffness); use operator: assembled"));
  if (n.has("allow_unstable")) c.allow_unstable = n["allow_unstable"].boolean();
  if (n.has("safety_factor")) parse_safety_factor(n["safety_factor"], c);
  if (n.has("max_step_halvings")) {
    c.max_step_halvings = static_cast<int>(n["max_step_halvings"].integer_in(0, 20));
  }
  if (n.has("mass_scaling")) parse_mass_scaling(n["mass_scaling"], c, which);
}

namespace {

/// An output entry's name, a prefix of CSV columns: non-empty, no commas, spaces or quotes, and
/// not given twice among `names` (which it joins).
void check_column_name(const Node& at, const std::string& name, std::set<std::string>& names,
                       const char* what) {
  if (name.empty() || name.find_first_of(", \t\"") != std::string::npos)
    at.fail("must be a non-empty name without commas, spaces or quotes");
  if (!names.insert(name).second) at.fail(cat("duplicate ", what, " '", name, "'"));
}

/// output.probes: each probe's name, point and fields, appended to `probes`.
void parse_probes(const Node& p, std::vector<CaseProbe>& probes) {
  p.expect_sequence();
  std::set<std::string> names;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Node q = p.at(i);
    q.expect_map({"name", "point", "fields"});
    if (!q.has("name") || !q.has("point")) q.fail("a probe needs 'name' and 'point'");
    CaseProbe probe{q["name"].text(), q["point"].vec3(), q["point"].origin()};
    if (q.has("fields")) {
      const Node f = q["fields"];
      const std::vector<std::string_view> choices = output_field_names(FieldKind::probe);
      f.expect_sequence();
      if (f.size() == 0) f.fail(cat("expected a list of some of: ", join(choices)));
      probe.fields.clear();
      for (std::size_t k = 0; k < f.size(); ++k) {
        const std::string field = f.at(k).choice(choices);
        if (std::find(probe.fields.begin(), probe.fields.end(), field) != probe.fields.end())
          f.at(k).fail(cat("field ", field, " listed twice"));
        probe.fields.push_back(field);
      }
    }
    check_column_name(q["name"], probe.name, names, "probe");
    probes.push_back(probe);
  }
}

/// output.sections: each section's name and plane or pair of regions, appended to `sections`.
void parse_sections(const Node& p, std::vector<CaseSection>& sections) {
  p.expect_sequence();
  std::set<std::string> names;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Node q = p.at(i);
    q.expect_map({"name", "plane", "regions"});
    if (!q.has("name") || q.has("plane") == q.has("regions"))
      q.fail("a section needs 'name' and either 'plane' or 'regions'");
    CaseSection section;
    section.name = q["name"].text();
    section.origin = {q.line(), q.key};
    if (q.has("plane")) {
      const Node plane = q["plane"];
      plane.expect_map({"point", "normal"});
      if (!plane.has("point") || !plane.has("normal"))
        plane.fail("a plane needs 'point' and 'normal'");
      section.point = plane["point"].vec3();
      section.normal = plane["normal"].vec3();
      if (!(std::hypot(section.normal[0], section.normal[1], section.normal[2]) > 0))
        plane["normal"].fail("must not be zero");
    } else {
      const Node r = q["regions"];
      if (!r.node.IsSequence() || r.size() != 2)
        r.fail("expected two regions: [A, B] (the force on A from B)");
      section.region_a = r.at(0).text();
      section.region_b = r.at(1).text();
      if (section.region_a == section.region_b) r.fail("the two regions must differ");
    }
    check_column_name(q["name"], section.name, names, "section");
    sections.push_back(section);
  }
}

/// output.drifts: each drift line's name, point (x, y) and levels, appended to `drifts`.
void parse_drifts(const Node& p, std::vector<CaseDrift>& drifts) {
  p.expect_sequence();
  std::set<std::string> names;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Node q = p.at(i);
    q.expect_map({"name", "point", "levels"});
    if (!q.has("name") || !q.has("point") || !q.has("levels"))
      q.fail("a drift line needs 'name', 'point' ([x, y]) and 'levels' ([z0, z1, ...])");
    CaseDrift drift{q["name"].text(), {}, {}, {q.line(), q.key}};
    const auto xy = q["point"].numbers(2, 2);
    drift.point = {xy[0], xy[1]};
    const Node levels = q["levels"];
    if (!levels.node.IsSequence() || levels.size() < 2)
      levels.fail("expected a list of two or more heights (z), increasing");
    for (std::size_t k = 0; k < levels.size(); ++k) {
      const double z = levels.at(k).number();
      if (!drift.levels.empty() && !(z > drift.levels.back()))
        levels.at(k).fail(
            cat("levels must increase strictly (", z, " after ", drift.levels.back(), ")"));
      drift.levels.push_back(z);
    }
    check_column_name(q["name"], drift.name, names, "drift line");
    drifts.push_back(drift);
  }
}

/// output.checkpoint: every, keep and directory (relative to the case file's directory).
void parse_checkpoint(const Node& k, CaseFile& c) {
  k.expect_map({"every", "keep", "directory"});
  if (!k.has("every")) k.fail("needs 'every' (write a checkpoint every N steps)");
  c.checkpoint_every = static_cast<int>(k["every"].integer_in(0, int_max, "0: no checkpoints"));
  if (k.has("keep")) c.checkpoint_keep = static_cast<int>(k["keep"].integer_in(1, 1000));
  if (k.has("directory")) {
    const std::filesystem::path p = k["directory"].text();
    c.checkpoint_directory = p.is_absolute() ? p : c.directory / p;
  }
}

void parse_output(const Node& n, CaseFile& c) {
  n.expect_map({"directory", "format", "every", "interval", "history_every", "fields", "probes",
                "sections", "drifts", "energy", "reactions", "checkpoint"});
  if (n.has("format"))
    c.output_format =
        n["format"].choice({"vtu", "xdmf"}) == "xdmf" ? OutputFormat::xdmf : OutputFormat::vtu;
  if (n.has("every") && n.has("interval"))
    n["interval"].fail("give either 'every' (steps) or 'interval' (seconds), not both");
  if (n.has("interval")) c.output_interval = n["interval"].positive();
  if (n.has("history_every")) {
    c.history_every = static_cast<int>(n["history_every"].integer_in(1, int_max));
  }
  if (n.has("directory")) {
    const std::filesystem::path p = n["directory"].text();
    c.output_directory = p.is_absolute() ? p : c.directory / p;
  }
  if (n.has("every")) {
    c.output_every = static_cast<int>(n["every"].integer_in(0, int_max, "0: no VTK output"));
  }
  if (n.has("fields")) {
    const Node f = n["fields"];
    f.expect_sequence();
    c.fields.clear();
    const std::vector<std::string_view> choices = output_field_names(FieldKind::frame);
    for (std::size_t i = 0; i < f.size(); ++i) c.fields.push_back(f.at(i).choice(choices));
  }
  if (n.has("probes")) parse_probes(n["probes"], c.probes);
  if (n.has("sections")) parse_sections(n["sections"], c.sections);
  if (n.has("drifts")) parse_drifts(n["drifts"], c.drifts);
  if (n.has("energy")) c.energy = n["energy"].boolean();
  if (n.has("reactions")) c.reactions = n["reactions"].boolean();
  c.checkpoint_directory = c.output_directory / "checkpoints";
  if (n.has("checkpoint")) parse_checkpoint(n["checkpoint"], c);
}

}  // namespace

bool CaseFile::has_field(const std::string& f) const {
  return std::find(fields.begin(), fields.end(), f) != fields.end();
}

std::int64_t CaseFile::num_steps() const {
  if (steps > 0) return steps;
  if (!(dt > 0)) return 0;
  return steps_to_end_time(end_time, dt).steps;
}

StepsToEndTime steps_to_end_time(double end_time, double max_dt) {
  const double n = end_time / max_dt;
  const double nearest = std::round(n);
  // A whole number of steps but for the rounding of end_time and dt (0.3 / 0.1 =
  // 2.9999999999999996): the given step, unchanged.
  if (nearest >= 1 && std::abs(n - nearest) <= 1e-9 * nearest)
    return {static_cast<std::int64_t>(nearest), max_dt};
  // Otherwise the fewest equal steps no longer than max_dt, rather than a short last step: the
  // schemes would see a change of dt there (a jolt for central difference's half-step velocity).
  // One division: the same bits wherever it is computed.
  const auto steps = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(n)));
  return {steps, end_time / static_cast<double>(steps)};
}

namespace {

// Listens to one document's events: whether it holds anything but a null, and where it starts.
class DocumentProbe final : public YAML::EventHandler {
 public:
  bool has_content = false;
  int line = -1;  // 0-based line of the document's first node

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { note(mark, false); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { note(mark, true); }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                const std::string& value) override {
    const bool null = tag == "?" && (value.empty() || value == "~" || value == "null" ||
                                     value == "Null" || value == "NULL");
    note(mark, !null);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    note(mark, true);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    note(mark, true);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& mark, bool content) {
    if (line < 0) line = mark.line;
    has_content = has_content || content;
  }
};

// The line (0-based) of the first node of a second document that holds anything but a null
// (an empty document, a lone trailing '---', holds nothing to ignore), if there is one.
// Throws YAML::Exception on a syntax error in any document.
std::optional<int> second_document_line(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  const std::size_t bound =
      2 + static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  for (std::size_t document = 0; document < bound; ++document) {
    DocumentProbe probe;
    if (!parser.HandleNextDocument(probe)) return std::nullopt;
    if (document > 0 && probe.has_content) return probe.line;
  }
  return std::nullopt;
}

/// The case file's YAML, one document (a syntax error or a second document: one error line).
YAML::Node load_case_yaml(const std::string& text, const std::string& file_name) {
  YAML::Node root;
  try {
    // A second document (after '---') would otherwise be ignored. Documents are walked with a
    // parser of our own rather than YAML::LoadAll, which loops forever on some malformed inputs
    // (a comma followed by a non-UTF-8 byte): at most one document per line, plus one.
    if (const std::optional<int> second = second_document_line(text)) {
      // The separator's line: the last '---' before the document's first node.
      int line = *second;
      std::vector<std::string_view> lines;
      for (std::size_t b = 0; b <= text.size();) {
        const std::size_t e = std::min(text.find('\n', b), text.size());
        lines.push_back(std::string_view(text).substr(b, e - b));
        b = e + 1;
      }
      for (int l = std::min<int>(line, static_cast<int>(lines.size()) - 1); l >= 0; --l)
        if (lines[l].starts_with("---")) {
          line = l;
          break;
        }
      throw InputError(one_line(cat(file_name, line >= 0 ? cat(":", line + 1) : std::string(),
                                    ": a second YAML document (after '---'); a case file is one "
                                    "document: remove the separator or the second part")));
    }
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(
        one_line(cat(file_name, ":", e.mark.line + 1, ": YAML syntax error: ", e.msg)));
  }
  return root;
}

/// The force terms' sections (the registry's parse; force_term_entries()).
void parse_term_sections(const Node& top, const std::string& file_name, CaseFile& c) {
  for (const auto& e : force_term_entries()) {
    const std::string name(e.name);
    if (!e.parse || !top.has(name.c_str())) continue;
    const Node section = top[name.c_str()];
    auto parsed = e.parse(section);
    parsed->where = cat(file_name, ":", section.line(), ": ", name);
    YAML::Emitter text;
    text << section.node;
    parsed->source = text.c_str();
    c.warnings.insert(c.warnings.end(), parsed->warnings.begin(), parsed->warnings.end());
    c.term_sections.emplace(name, std::move(parsed));
  }
}

/// gravity: a vector, or {value, amplitude}.
void parse_gravity(const Node& top, CaseFile& c) {
  if (top.has("gravity")) {
    const Node g = top["gravity"];
    if (g.node.IsMap()) {
      g.expect_map({"value", "amplitude"});
      if (!g.has("value")) g.fail("missing key 'value'");
      c.gravity = g["value"].vec3();
      if (g.has("amplitude")) c.gravity_amplitude = g["amplitude"].text();
    } else {
      c.gravity = g.vec3();
    }
  }
}

/// initial_conditions: velocity (one, or per region) and static_equilibrium.
void parse_initial_conditions(const Node& top, CaseFile& c) {
  if (top.has("initial_conditions")) {
    const Node ic = top["initial_conditions"];
    ic.expect_map({"velocity", "static_equilibrium"});
    if (ic.has("static_equilibrium")) c.static_equilibrium = ic["static_equilibrium"].boolean();
    if (ic.has("velocity")) {
      const Node v = ic["velocity"];
      if (v.node.IsSequence() && v.size() > 0 && v.node[0].IsMap()) {
        RegionOnce once("an initial velocity");
        for (std::size_t i = 0; i < v.size(); ++i) {
          const Node e = v.at(i);
          e.expect_map({"region", "velocity", "angular_velocity"});
          if (!e.has("region") || !(e.has("velocity") || e.has("angular_velocity")))
            e.fail("needs 'region' and 'velocity' (or 'angular_velocity' for beam nodes)");
          once.claim(e, e["region"].text());
          c.initial_velocity.push_back(
              {e["region"].text(),
               e.has("velocity") ? e["velocity"].vec3() : std::array<double, 3>{0, 0, 0},
               e.origin(),
               e.has("angular_velocity") ? e["angular_velocity"].vec3()
                                         : std::array<double, 3>{0, 0, 0}});
        }
      } else {
        c.initial_velocity.push_back({"", v.vec3(), v.origin()});
      }
    }
  }
}

/// Modes superpose only in a linear model: the response spectrum refuses a nonlinear material,
/// the harmonic response warns that it uses the elastic part.
void check_linear_analyses(const std::string& file_name, CaseFile& c) {
  // Modes superpose only in a linear model: linear-elastic solids (springs enter linearised at
  // the undeformed state, as the modal analysis takes them). A harmonic analysis is linear too.
  for (const auto& m : c.materials) {
    if (m.material.is_linear()) continue;
    if (c.response_spectrum.enabled)
      throw InputError(cat(file_name, ":", m.origin.line, ": ", m.origin.key,
                           ": response_spectrum needs linear-elastic materials (modes superpose "
                           "only in a linear model)"));
    if (c.harmonic.enabled)
      c.warnings.push_back(cat(file_name, ":", m.origin.line, ": ", m.origin.key,
                               ": harmonic: region '", m.region, "' is ",
                               m.material.plastic() ? "plastic" : "nonlinear",
                               ", but the harmonic response is linear elastic about the "
                               "undeformed state (its plasticity or large deformation unused)"));
  }
}

/// Erosion (a material's failure:) runs in one explicit transient with lumped masses (contact
/// with it: contact_pair_erosion.cpp).
void check_erosion(const Node& top, const std::string& file_name, const CaseFile& c) {
  for (const auto& m : c.materials) {
    if (!m.material.failure) continue;
    const auto refuse = [&](const std::string& why) {
      throw InputError(cat(file_name, ":", m.origin.line, ": ", m.origin.key, ": region '",
                           m.region, "': failure: ", why));
    };
    if (top.has("analyses") || !c.has_time || c.scheme.name() != "central_difference")
      refuse("element erosion runs in a transient with time.scheme: central_difference");
    if (c.mass != MassTreatment::lumped) refuse("element erosion needs time.mass: lumped");
  }
}

/// Every amplitude named (conditions, gravity) is defined.
void check_amplitudes_named(const Node& top, const std::string& file_name, const CaseFile& c) {
  // Amplitude names used must exist.
  auto check_amplitude = [&](const std::string& name, const std::string& key, int line) {
    if (name.empty() || c.amplitudes.count(name)) return;
    std::vector<std::string_view> known;
    for (const auto& [k, v] : c.amplitudes) known.push_back(k);
    throw InputError(
        one_line(cat(file_name, ":", line, ": ", key, ": unknown amplitude '", excerpt(name), "'",
                     did_you_mean(name, known),
                     known.empty() ? "; no amplitudes are defined" : "; defined: " + join(known))));
  };
  for (const auto& bc : c.boundary_conditions)
    check_amplitude(bc.amplitude, bc.origin.key + ".amplitude", bc.origin.line);
  if (top.has("gravity"))
    check_amplitude(c.gravity_amplitude, "gravity.amplitude", top["gravity"].line());
}

}  // namespace

CaseFile parse_case(const std::string& text, const std::filesystem::path& file,
                    const AmplitudeFileReader& reader) {
  const std::string file_name = file.string();
  const YAML::Node root = load_case_yaml(text, file_name);
  CaseFile c;
  c.path = file;
  c.directory = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
  c.name = file.stem().string();
  c.output_directory = c.directory / "out" / c.name;
  const Node top{root, "", &file_name};
  if (!root.IsMap()) top.fail("expected a YAML mapping with keys mesh, materials, time, ...");
  std::vector<std::string_view> sections{"mesh",
                                         "materials",
                                         "springs",
                                         "point_masses",
                                         "boundary_conditions",
                                         "amplitudes",
                                         "gravity",
                                         "initial_conditions",
                                         "modal",
                                         "response_spectrum",
                                         "harmonic",
                                         "time",
                                         "analyses",
                                         "output",
                                         "petsc"};
  for (const auto& e : force_term_entries())
    if (e.parse) sections.push_back(e.name);
  top.expect_map(sections);
  if (!top.has("mesh")) top.fail("missing key 'mesh'");
  if (!top.has("time") && !top.has("modal") && !top.has("harmonic") && !top.has("analyses"))
    top.fail(
        "missing key 'time' (a transient or static run), 'modal' (a modal analysis), 'harmonic' "
        "(a harmonic response) or 'analyses' (a sequence of them)");
  if (!top.has("materials") && !top.has("springs") && !top.has("point_masses"))
    top.fail("missing key 'materials' (or 'springs' / 'point_masses' for a mass-spring system)");
  parse_mesh(top["mesh"], c);
  if (top.has("materials")) parse_materials(top["materials"], c);
  if (top.has("springs")) parse_springs(top["springs"], c);
  if (top.has("point_masses")) parse_point_masses(top["point_masses"], c);
  if (top.has("amplitudes")) parse_amplitudes(top["amplitudes"], c, reader);
  if (top.has("boundary_conditions")) parse_boundary_conditions(top["boundary_conditions"], c);
  parse_term_sections(top, file_name, c);
  // Contact is one-sided and its penalty springs act only where surfaces touch: the operators
  // of a modal, harmonic or response-spectrum analysis would hold every touching node as if
  // glued (a cantilever resting on a floor loses its bending modes toward it).
  for (const char* analysis : {"modal", "harmonic", "response_spectrum"})
    if (top.has(analysis) && c.term_sections.count("contact"))
      top[analysis].fail(
          "the model has contact (contact:), which a linear analysis cannot represent (the "
          "surfaces that touch would be glued, pulling as well as pushing); run it without "
          "contact:, with the support it stands for as a boundary condition");
  // Couplings are gathering terms that the linear analyses' operators leave out.
  for (const char* analysis : {"modal", "harmonic", "response_spectrum"})
    if (top.has(analysis) && c.term_sections.count("couplings"))
      top[analysis].fail(
          "the model has couplings (couplings:), which a linear analysis does not take yet (its "
          "operators would leave them out: a hinge where the coupling welds); run a transient or "
          "static analysis");
  parse_gravity(top, c);
  parse_initial_conditions(top, c);
  std::optional<MassTreatment> modal_mass;
  if (top.has("modal")) {
    const Node m = top["modal"];
    m.expect_map({"modes", "mass", "reference_point"});
    if (!m.has("modes")) m.fail("missing key 'modes'");
    c.modal_modes = static_cast<int>(m["modes"].integer_in(1, 10000));
    if (m.has("reference_point")) {
      const auto p = m["reference_point"].numbers(3, 3);
      c.modal_reference_point = std::array<double, 3>{p[0], p[1], p[2]};
    }
    if (m.has("mass"))
      modal_mass = m["mass"].choice({"consistent", "lumped"}) == "consistent"
                       ? MassTreatment::consistent
                       : MassTreatment::lumped;
  }
  if (top.has("harmonic")) parse_harmonic(top["harmonic"], c);
  if (top.has("response_spectrum")) {
    if (!top.has("modal"))
      top["response_spectrum"].fail("needs modal: {modes: N} (the modes it combines)");
    parse_response_spectrum(top["response_spectrum"], c, reader);
  }
  c.has_time = top.has("time") || top.has("analyses");
  if (top.has("time")) {
    parse_time(top["time"], c,
               top.has("analyses") ? case_yaml::TimeKeys::defaults : case_yaml::TimeKeys::run);
    if (modal_mass && top["time"].has("mass") && *modal_mass != c.mass)
      top["modal"]["mass"].fail("differs from time.mass: the model has one mass matrix");
  } else {
    c.steps = 1;  // no time loop; keeps num_steps() meaningful for the static ramp
    c.dt = 1;
  }
  if (modal_mass) c.mass = *modal_mass;
  if (top.has("analyses")) case_yaml::parse_analyses(top, c);
  if (c.response_spectrum.rayleigh_damping && c.rayleigh.mass == 0 && c.rayleigh.stiffness == 0 &&
      c.rayleigh_modes.empty())
    top["response_spectrum"]["damping"].fail(
        "damping: rayleigh takes each mode's ratio from time.rayleigh, which the case does not "
        "give");
  if (top.has("output")) parse_output(top["output"], c);
  for (auto& w : material_warnings(c)) c.warnings.push_back(std::move(w));
  check_linear_analyses(file_name, c);
  check_erosion(top, file_name, c);
  if (c.checkpoint_directory.empty()) c.checkpoint_directory = c.output_directory / "checkpoints";
  if (top.has("petsc")) c.petsc_options = top["petsc"].text();
  check_amplitudes_named(top, file_name, c);
  if (c.static_equilibrium && (!c.has_time || c.scheme.kind() == SchemeKind::static_solve))
    top["initial_conditions"]["static_equilibrium"].fail(
        c.has_time ? "the static integrator solves the equilibrium at every load step already; "
                     "static_equilibrium is the start of a dynamic run"
                   : "needs a time integration (time:): it is the start of a dynamic run");
  return c;
}

std::optional<RayleighDamping> rayleigh_from_ratios(double zeta1, double f1, double zeta2,
                                                    double f2) {
  const auto r =
      RayleighDamping::through(zeta1, 2 * std::numbers::pi * f1, zeta2, 2 * std::numbers::pi * f2);
  if (!(r.mass >= 0 && r.stiffness >= 0)) return std::nullopt;
  return r;
}

std::string rayleigh_ratio_problem(double zeta1, double f1, double zeta2, double f2) {
  const auto r =
      RayleighDamping::through(zeta1, 2 * std::numbers::pi * f1, zeta2, 2 * std::numbers::pi * f2);
  return cat("damping ratios ", zeta1, " at ", f1, " Hz and ", zeta2, " at ", f2,
             " Hz need alpha_M = ", r.mass, ", alpha_K = ", r.stiffness,
             ": a negative coefficient; Rayleigh damping cannot make the ratio fall that fast or "
             "rise that fast between the two frequencies");
}

std::string rayleigh_close_targets(double zeta1, double f1, double zeta2, double f2,
                                   double highest) {
  const double spread = std::max(f1, f2) / std::min(f1, f2);
  if (!(spread < rayleigh_target_spread)) return {};
  const auto r =
      RayleighDamping::through(zeta1, 2 * std::numbers::pi * f1, zeta2, 2 * std::numbers::pi * f2);
  const double between = std::sqrt(f1 * f2);
  // Frequencies as the log prints them (6 digits), factors and ratios to 4.
  const auto six = [](double f) {
    std::ostringstream text;
    text << std::setprecision(6) << f;
    return text.str();
  };
  std::ostringstream out;
  out << std::setprecision(4) << "the target frequencies " << six(f1) << " and " << six(f2)
      << " Hz are only a factor " << spread << " apart (less than " << rayleigh_target_spread
      << "): the fit gives a damping ratio of " << r.ratio(2 * std::numbers::pi * between) << " at "
      << six(between) << " Hz between them";
  if (highest > std::max(f1, f2))
    out << " and " << r.ratio(2 * std::numbers::pi * highest) << " at the highest frequency, "
        << six(highest) << " Hz";
  out << "; place the targets at the lowest and the highest frequency that matter";
  return out.str();
}

namespace {

int region_index(const CaseFile& c, const std::vector<Region>& regions,
                 std::span<const std::int64_t> cells_per_region, const std::string& name,
                 const Origin& origin, int want_dim) {
  for (std::size_t r = 0; r < regions.size(); ++r)
    if (regions[r].name == name) {
      // A physical group named in the mesh but holding no cells: nothing would be applied there.
      if (!cells_per_region.empty() && cells_per_region[r] == 0)
        throw InputError(
            one_line(cat(c.path.string(), ":", origin.line, ": ", origin.key, ": region '",
                         excerpt(name), "' (tag ", regions[r].tag, ", dimension ", regions[r].dim,
                         ") holds no mesh cells of dimension ", regions[r].dim,
                         regions[r].dim == 3 ? ": the mesh has no volume cells there (a mesh made "
                                               "with gmsh -2 has none: mesh with gmsh -3)"
                                             : ": check the physical group in the mesh")));
      if (want_dim >= 0 && regions[r].dim != want_dim)
        throw InputError(
            one_line(cat(c.path.string(), ":", origin.line, ": ", origin.key, ": region '",
                         excerpt(name), "' has dimension ", regions[r].dim, ", expected ", want_dim,
                         want_dim == 3 && regions[r].dim == 2
                             ? " (a volume; a surface's material is for its shells: give the "
                               "region a shells: entry)"
                         : want_dim == 3 && regions[r].dim == 1
                             ? " (a volume; a line's material is for its beams: give the region a "
                               "sections: entry)"
                         : want_dim == 3 ? " (a volume)"
                         : want_dim == 2 ? " (a surface)"
                         : want_dim == 1 ? " (lines)"
                                         : " (points)")));
      return static_cast<int>(r);
    }
  std::vector<std::string_view> known;
  std::string listed;  // the mesh's names, a long one (a broken mesh file) as an excerpt
  for (const auto& r : regions) {
    known.push_back(r.name);
    listed += cat(listed.empty() ? "" : ", ", excerpt(r.name));
  }
  throw InputError(
      one_line(cat(c.path.string(), ":", origin.line, ": ", origin.key, ": unknown region '",
                   excerpt(name), "'", did_you_mean(name, known), "; the mesh has: ", listed)));
}

}  // namespace

Amplitude make_amplitude(const CaseAmplitude& a) {
  switch (a.type) {
    case CaseAmplitude::Type::table:
      return Amplitude::table(a.points);
    case CaseAmplitude::Type::smooth_step:
      return Amplitude::smooth_step(a.points, a.continuity);
    case CaseAmplitude::Type::sine:
      break;
  }
  return Amplitude::sine(a.frequency, a.phase);
}

ProblemSpec resolve_problem(const CaseFile& c, const std::vector<Region>& regions,
                            std::span<const std::int64_t> cells_per_region) {
  ProblemSpec spec;
  spec.term_sections = c.term_sections;
  std::map<std::string, int> amplitude_index;
  for (const auto& [name, a] : c.amplitudes) {
    amplitude_index[name] = static_cast<int>(spec.amplitudes.size());
    spec.amplitudes.push_back(make_amplitude(a));
  }
  // Under `static`, time is a load factor: loads and prescribed displacements without an
  // amplitude ramp from zero at t = 0 to full value at the end time (as *STATIC does).
  int unnamed = 0;
  if (c.scheme.kind() == SchemeKind::static_solve) {
    unnamed = static_cast<int>(spec.amplitudes.size());
    spec.amplitudes.push_back(Amplitude::ramp(c.dt * static_cast<double>(c.num_steps())));
  }
  auto amp = [&](const std::string& name) {
    return name.empty() ? unnamed : amplitude_index.at(name);
  };
  spec.amplitude_index.insert(amplitude_index.begin(), amplitude_index.end());
  spec.default_amplitude = unnamed;
  // The regions of `sections:` are beams: their material is on lines; those of `shells:` on
  // surfaces.
  std::vector<std::string> beam_regions, shell_regions;
  if (const auto it = c.term_sections.find("sections"); it != c.term_sections.end())
    for (const BeamInput& b : dynamic_cast<const BeamSection&>(*it->second).beams)
      beam_regions.push_back(b.region);
  if (const auto it = c.term_sections.find("shells"); it != c.term_sections.end())
    for (const ShellInput& b : dynamic_cast<const ShellSectionList&>(*it->second).shells)
      shell_regions.push_back(b.region);
  for (const auto& m : c.materials) {
    const Origin o{m.origin.line, m.origin.key + ".region"};
    const bool beam =
        std::find(beam_regions.begin(), beam_regions.end(), m.region) != beam_regions.end();
    const bool shell =
        std::find(shell_regions.begin(), shell_regions.end(), m.region) != shell_regions.end();
    const int r = region_index(c, regions, cells_per_region, m.region, o, beam ? 1 : shell ? 2 : 3);
    for (const auto& other : spec.materials)
      if (other.region == r)
        throw InputError(one_line(cat(c.path.string(), ":", o.line, ": ", o.key, ": region '",
                                      excerpt(m.region), "' has two materials")));
    spec.materials.push_back({r, m.material});
  }
  for (const auto& sp : c.springs) {
    const Origin o{sp.origin.line, sp.origin.key + ".region"};
    int r = -1;
    if (sp.edges_of_surface) {
      region_index(c, regions, cells_per_region, sp.region, o,
                   2);  // the surface must exist and be 2D
      r = region_index(c, regions, cells_per_region, edge_region_name(sp.region), o, 1);
    } else {
      r = region_index(c, regions, cells_per_region, sp.region, o, 1);
    }
    spec.springs.push_back({r, sp.properties});
  }
  for (const auto& pm : c.point_masses)
    spec.point_masses.push_back({region_index(c, regions, cells_per_region, pm.region,
                                              {pm.origin.line, pm.origin.key + ".region"}, -1),
                                 pm.mass, pm.rotary_inertia});
  const ConditionResolver resolver{c,
                                   [&](const std::string& region, const Origin& o, int want_dim) {
                                     return region_index(c, regions, cells_per_region, region, o,
                                                         want_dim);
                                   },
                                   amp};
  for (const auto& bc : c.boundary_conditions) bc.type->resolve(resolver, bc, spec);
  if (c.gravity)
    spec.loads.push_back({Load::Kind::gravity, -1, *c.gravity, amp(c.gravity_amplitude)});
  for (const auto& iv : c.initial_velocity)
    spec.initial_velocity.push_back(
        {iv.region.empty() ? -1
                           : region_index(c, regions, cells_per_region, iv.region,
                                          {iv.origin.line, iv.origin.key + ".region"}, -1),
         iv.value, iv.angular});
  spec.mass = c.mass;
  spec.matrix_free = c.matrix_free;
  spec.linear_solver = c.linear_solver;
  const ExplicitSteps steps = explicit_steps(c);  // with analyses:, every one's scheme
  spec.explicit_scheme = steps.only;
  spec.explicit_steps = steps.some;
  spec.central_difference = c.analyses.empty() && c.scheme.name() == "central_difference";
  spec.rayleigh = c.rayleigh;
  return spec;
}

std::string edge_region_name(const std::string& surface) { return surface + ".edges"; }

void add_edge_springs(const CaseFile& c, MeshData& mesh) {
  for (const auto& sp : c.springs) {
    if (!sp.edges_of_surface) continue;
    const std::string name = edge_region_name(sp.region);
    if (mesh.find_region(name) >= 0) continue;  // two spring sets on one surface
    const int surface = mesh.find_region(sp.region);
    if (surface < 0) continue;  // resolve_problem reports it
    const int region = static_cast<int>(mesh.regions.size());
    int tag = 0;  // a physical tag of its own, after the file's
    for (const auto& r : mesh.regions) tag = std::max(tag, r.tag);
    mesh.regions.push_back({name, 1, tag + 1});
    std::set<std::pair<std::int64_t, std::int64_t>> edges;
    const std::int64_t ncells = mesh.num_cells();
    for (std::int64_t k = 0; k < ncells; ++k) {
      if (mesh.cell_regions[k] != surface || info(mesh.cell_types[k]).dim != 2) continue;
      // Copy the corners: add_cell below may reallocate the node list nodes_of() points into.
      std::array<std::int64_t, 4> nodes{};
      const int corners = info(mesh.cell_types[k]).num_corners;
      std::copy_n(mesh.nodes_of(k).begin(), corners, nodes.begin());
      for (int e = 0; e < corners; ++e) {
        std::int64_t a = nodes[e], b = nodes[(e + 1) % corners];
        if (a > b) std::swap(a, b);
        if (edges.insert({a, b}).second) {
          const std::int64_t pair[2] = {a, b};
          mesh.add_cell(CellType::line2, pair, region, -static_cast<std::int64_t>(edges.size()));
        }
      }
    }
  }
}

std::vector<char> element_cells(const CaseFile& c, const MeshData& mesh) {
  std::vector<char> is_element(static_cast<std::size_t>(mesh.num_cells()), 0);
  std::vector<char> material(mesh.regions.size(), 0), spring(mesh.regions.size(), 0),
      point(mesh.regions.size(), 0);
  for (const auto& m : c.materials)
    if (const int r = mesh.find_region(m.region); r >= 0) material[r] = 1;
  for (const auto& s : c.springs)
    if (const int r = mesh.find_region(s.edges_of_surface ? edge_region_name(s.region) : s.region);
        r >= 0)
      spring[r] = 1;
  for (const auto& p : c.point_masses)
    if (const int r = mesh.find_region(p.region); r >= 0) point[r] = 1;
  for (std::int64_t k = 0; k < mesh.num_cells(); ++k) {
    const int r = mesh.cell_regions[k];
    if (r < 0) continue;
    const int dim = info(mesh.cell_types[k]).dim;
    is_element[k] = (dim == 3 && material[r]) || rotation_nodes_from(mesh.cell_types[k]) > 0 ||
                    (mesh.cell_types[k] == CellType::line2 && spring[r]) || (dim <= 1 && point[r]);
  }
  return is_element;
}

}  // namespace inertia
