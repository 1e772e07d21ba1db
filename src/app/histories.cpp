#include "inertia/app/histories.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>

#include "inertia/parallel/session.hpp"
#include "inertia/system/beams.hpp"
#include "inertia/system/shells.hpp"

namespace inertia {

namespace {

/// Splits text into lines; a last fragment without its newline (a row cut by a kill) is dropped.
std::vector<std::string_view> complete_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string_view::npos;
       start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

/// The step of a complete row of `fields` fields, or nothing for a damaged row.
std::optional<std::int64_t> row_step(std::string_view line, std::size_t fields) {
  if (line.empty() ||
      static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1 != fields)
    return std::nullopt;
  std::int64_t step = 0;
  const auto comma = line.find(',');
  const auto [end, ec] = std::from_chars(line.data(), line.data() + comma, step);
  if (ec != std::errc() || end != line.data() + comma) return std::nullopt;
  for (std::size_t start = 0, next; start <= line.size(); start = next + 1) {  // no empty field
    next = std::min(line.find(',', start), line.size());
    if (next == start) return std::nullopt;
  }
  return step;
}

/// The kept part of an existing history for a restart after step `resume_after`: the comments
/// and the header, and the complete rows up to that step in increasing step order.
std::string kept_history(const std::filesystem::path& path, const std::string& header,
                         std::size_t fields, std::int64_t resume_after) {
  const std::string text = read_file(path);
  std::string kept;
  bool seen_header = false;
  std::int64_t last = -1;
  for (std::string_view line : complete_lines(text)) {
    if (line.rfind("# INCOMPLETE", 0) == 0) continue;
    if (!seen_header) {
      if (line == header)
        seen_header = true;
      else if (line.empty() || line[0] != '#')
        throw InputError(cat(path.string(), ": its columns differ from this case's (", header,
                             "); cannot continue it after a restart"));
      kept.append(line).push_back('\n');
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const auto step = row_step(line, fields);
    if (step && *step > last && *step <= resume_after) {
      kept.append(line).push_back('\n');
      last = *step;
    }
  }
  if (!seen_header)
    throw InputError(cat(path.string(), ": no header line; cannot continue it after a restart"));
  return kept;
}

}  // namespace

CsvFile::CsvFile(MPI_Comm comm, const std::filesystem::path& path,
                 const std::string& header_comment, const std::vector<std::string>& columns,
                 std::int64_t resume_after)
    : comm_(comm), fields_(columns.size() + 2) {
  run_on_root(comm, [&] {
    std::string header = "step,time";
    for (const auto& c : columns) header += "," + c;
    if (resume_after >= 0 && std::filesystem::exists(path)) {
      write_file_atomically(path, kept_history(path, header, fields_, resume_after));
      file_ = OutputFile(path, OutputFile::Mode::append);
      return;
    }
    file_ = OutputFile(path, OutputFile::Mode::truncate);
    file_.write(header_comment + header + "\n");
  });
}

void CsvFile::row(std::int64_t step, double time, std::span<const double> values) {
  if (!file_) return;
  char number[32];
  auto append = [&](auto value, auto... format) {
    const auto [end, ec] = std::to_chars(number, number + sizeof number, value, format...);
    buffer_.append(number, end);
  };
  append(step);
  buffer_.push_back(',');
  append(time, std::chars_format::general, 17);
  for (double v : values) {
    buffer_.push_back(',');
    append(v, std::chars_format::general, 17);
  }
  buffer_.push_back('\n');
  constexpr std::size_t automatic_write = 1 << 20;
  if (buffer_.size() >= automatic_write) write_buffer();
}

void CsvFile::write_buffer() {
  if (!file_ || buffer_.empty()) return;
  if (error_.empty()) {
    try {
      file_.write_whole(buffer_);
    } catch (const IoError& e) {
      error_ = e.what();
    }
  }
  buffer_.clear();
}

void CsvFile::flush() {
  if (comm_ == MPI_COMM_NULL) return;
  run_on_root(comm_, [&] {
    write_buffer();
    if (!error_.empty()) throw IoError(error_);
  });
}

void CsvFile::mark_failed(const std::string& reason) noexcept {
  if (!file_) return;
  std::string line = reason;
  for (auto& ch : line)
    if (ch == '\n') ch = ' ';
  const std::string mark = "# INCOMPLETE: the run failed after the last row: " + line + "\n";
  // After a failed write the file ends at its last complete row (write_whole cut it back), and
  // the rows not written are dropped: the mark follows the last row on disk.
  if (!error_.empty()) buffer_.clear();
  buffer_ += mark;
  try {
    file_.write_whole(buffer_);
  } catch (const IoError&) {
  }
  buffer_.clear();
}

namespace {

/// The largest distance from owned node `node` to another node of the element cells around it.
double element_size_at(const LocalMesh& mesh, std::int32_t node) {
  double size = 0;
  const double* x = &mesh.coords[3 * node];
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c]) continue;
    const auto nodes = mesh.nodes_of(c);
    if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) continue;
    for (auto n : nodes) {
      const double* y = &mesh.coords[3 * n];
      size = std::max(size, std::hypot(y[0] - x[0], y[1] - x[1], y[2] - x[2]));
    }
  }
  return size;
}

}  // namespace

namespace {

/// True if a probe with these fields records any of `location` (point: at its node, cell: at
/// its point, in its solid cell).
bool records(const std::vector<std::string>& fields, FieldLocation location) {
  return std::any_of(fields.begin(), fields.end(), [&](const std::string& f) {
    return find_output_field(FieldKind::probe, f)->location == location;
  });
}

/// True if a probe with these fields samples strain or stress at its point.
bool samples_stress(const std::vector<std::string>& fields) {
  return records(fields, FieldLocation::cell);
}

std::string point_text(const double* p) { return cat("(", p[0], ", ", p[1], ", ", p[2], ")"); }

/// True if a probe with these fields reads a beam node's rotations.
bool rotates(const std::vector<std::string>& fields) {
  return std::any_of(fields.begin(), fields.end(), [](const std::string& f) {
    return f == "rotation" || f == "angular_velocity";
  });
}

/// Collective. The owned node nearest `at` among the rotation nodes (`rotations`) or the nodes
/// with translations, over all ranks (ties: the lowest rank): its distance, the rank that owns
/// it, and its local index there (-1 on the other ranks). The distance is computed without
/// overflow (hypot), so a point however far is measured.
struct NearestNode {
  double distance;
  int rank;
  std::int32_t node;
};
NearestNode nearest_owned_node(MPI_Comm comm, const LocalMesh& mesh, const double* at,
                               bool rotations) {
  struct {
    double distance;
    int rank;
  } mine{std::numeric_limits<double>::infinity(), rank_of(comm)}, best{};
  std::int32_t node = -1;
  for (std::int32_t n = 0; n < mesh.num_owned; ++n) {
    if (mesh.is_rotation(n) != rotations) continue;
    const double* x = &mesh.coords[3 * n];
    const double d = std::hypot(x[0] - at[0], x[1] - at[1], x[2] - at[2]);
    if (node < 0 || d < mine.distance) mine.distance = d, node = n;
  }
  INERTIA_MPI(MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm));
  return {best.distance, best.rank, best.rank == rank_of(comm) ? node : -1};
}

/// Collective. The first owned DOF of the rotation node at the position `at` (the probe's node:
/// a beam node's rotation node is at its place) on the rank that owns it, -1 elsewhere;
/// InputError (`message` + why) if the node has no rotations.
PetscInt rotation_dof(MPI_Comm comm, const LocalMesh& mesh, const double* at,
                      const std::string& message) {
  const NearestNode r = nearest_owned_node(comm, mesh, at, true);
  if (!(r.distance == 0))
    throw InputError(cat(message, "its nearest node ", point_text(at),
                         " is not a beam node (only beam nodes have rotations)"));
  return r.node >= 0 ? 3 * r.node : -1;
}

/// Collective. The beam cell nearest `at` (ties: the lowest file tag; each cell lives on one
/// rank), on the rank that holds it, and the point's place along it; InputError (`origin` +
/// why) in a model without beams. `description`: the comment line (every rank).
BeamPoint nearest_beam(const MechanicalSystem& system, const double* at, const std::string& name,
                       const std::string& origin, std::string& description) {
  const MPI_Comm comm = system.comm();
  const LocalMesh& mesh = system.mesh();
  BeamPoint best;
  double distance = std::numeric_limits<double>::infinity();
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (mesh.cell_types[c] != CellType::beam2 || !mesh.cell_is_element[c]) continue;
    const auto nodes = mesh.nodes_of(c);
    const double* x0 = &mesh.coords[3 * nodes[0]];
    const double* x1 = &mesh.coords[3 * nodes[1]];
    double e[3], w[3], ee = 0, ew = 0;
    for (int i = 0; i < 3; ++i) e[i] = x1[i] - x0[i], w[i] = at[i] - x0[i];
    for (int i = 0; i < 3; ++i) ee += e[i] * e[i], ew += e[i] * w[i];
    const double s = ee > 0 ? std::clamp(ew / ee, 0.0, 1.0) : 0.0;
    const double d = std::hypot(w[0] - s * e[0], w[1] - s * e[1], w[2] - s * e[2]);
    if (d < distance || (d == distance && mesh.cell_tags[c] < mesh.cell_tags[best.cell]))
      distance = d, best.cell = c, best.s = s;
  }
  double least = distance;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_DOUBLE, MPI_MIN, comm));
  if (!std::isfinite(least))
    throw InputError(cat(origin, " asks for section_forces, but the model has no beams"));
  std::int64_t tag = best.cell >= 0 && distance == least ? mesh.cell_tags[best.cell]
                                                         : std::numeric_limits<std::int64_t>::max();
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &tag, 1, MPI_INT64_T, MPI_MIN, comm));
  const bool mine = best.cell >= 0 && mesh.cell_tags[best.cell] == tag && distance == least;
  double s = mine ? best.s : 0.0;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, comm));
  description =
      cat("probe ", name, ": section_forces in beam element ", tag, " at ", s,
          " of its length from its first node, distance ", least, " from ", point_text(at));
  if (!mine) return {};
  for (const auto& t : system.terms())
    if (const auto* beams = dynamic_cast<const BeamTermInfo*>(t.get()))
      if (beams->holds(best.cell)) best.term = beams;
  INERTIA_CHECK(best.term, SolverError, origin, ": beam element ", tag, " has no beam term");
  return best;
}

/// Collective. The shell cell whose centre is nearest `at` (ties: the lowest file tag), on the
/// rank that holds it; InputError (`origin` + why) in a model without shells. `description`:
/// the comment line (every rank).
ShellPoint nearest_shell(const MechanicalSystem& system, const double* at, const std::string& name,
                         const std::string& origin, std::string& description) {
  const MPI_Comm comm = system.comm();
  const LocalMesh& mesh = system.mesh();
  ShellPoint best;
  double distance = std::numeric_limits<double>::infinity(), centre[3] = {0, 0, 0};
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    const CellType t = mesh.cell_types[c];
    if (rotation_nodes_from(t) == 0 || t == CellType::beam2 || !mesh.cell_is_element[c]) continue;
    const auto nodes = mesh.nodes_of(c);
    const int n = rotation_nodes_from(t);
    double x[3] = {0, 0, 0};
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i) x[i] += mesh.coords[3 * nodes[a] + i] / n;
    const double d = std::hypot(x[0] - at[0], x[1] - at[1], x[2] - at[2]);
    if (d < distance || (d == distance && mesh.cell_tags[c] < mesh.cell_tags[best.cell])) {
      distance = d, best.cell = c;
      std::copy_n(x, 3, centre);
    }
  }
  double least = distance;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_DOUBLE, MPI_MIN, comm));
  if (!std::isfinite(least))
    throw InputError(cat(origin, " asks for shell_resultants, but the model has no shells"));
  std::int64_t tag = best.cell >= 0 && distance == least ? mesh.cell_tags[best.cell]
                                                         : std::numeric_limits<std::int64_t>::max();
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &tag, 1, MPI_INT64_T, MPI_MIN, comm));
  const bool mine = best.cell >= 0 && mesh.cell_tags[best.cell] == tag && distance == least;
  if (!mine) std::fill_n(centre, 3, 0.0);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, centre, 3, MPI_DOUBLE, MPI_SUM, comm));
  description = cat("probe ", name, ": shell_resultants of shell element ", tag, " (its centre ",
                    point_text(centre), "), distance ", least, " from ", point_text(at));
  if (!mine) return {};
  for (const auto& t : system.terms())
    if (const auto* shells = dynamic_cast<const ShellTermInfo*>(t.get()))
      if (shells->holds(best.cell)) best.term = shells;
  INERTIA_CHECK(best.term, SolverError, origin, ": shell element ", tag, " has no shell term");
  return best;
}

}  // namespace

ProbeSites locate_probes(const MechanicalSystem& system, const std::vector<CaseProbe>& probes,
                         const std::string& case_path) {
  const MPI_Comm comm = system.comm();
  const int rank = rank_of(comm);
  const LocalMesh& mesh = system.mesh();
  ProbeSites sites;
  for (const auto& p : probes) {
    // The nearest node with translations (a beam node's rotation node is at its place).
    const NearestNode best = nearest_owned_node(comm, mesh, p.point.data(), false);
    const std::int32_t node = best.node;
    const bool owner = node >= 0;
    // where: the node's position, its tag, and the size of the elements around it.
    double where[5] = {0, 0, 0, 0, 0};
    if (owner) {
      for (int i = 0; i < 3; ++i) where[i] = mesh.coords[3 * node + i];
      where[3] = static_cast<double>(mesh.node_tags[node]);
      where[4] = element_size_at(mesh, node);
    }
    INERTIA_MPI(MPI_Bcast(where, 5, MPI_DOUBLE, best.rank, comm));
    const std::string from = point_text(p.point.data());
    const std::string at =
        cat("node ", static_cast<long long>(where[3]), " at ", point_text(where));
    const std::string origin = cat(
        case_path, p.origin.line ? cat(":", p.origin.line) : std::string(), ": ",
        p.origin.key.empty() ? "output.probes" : p.origin.key, ": probe ", p.name, " at ", from);
    // A point beyond the elements around its nearest node is outside the mesh.
    if (!(best.distance <= where[4]))
      throw InputError(cat(origin, " is outside the mesh: its nearest ", at, " is ", best.distance,
                           " away, more than the size of the elements there (", where[4], ")"));
    sites.names.push_back(p.name);
    sites.fields.push_back(p.fields);
    const bool nodal = records(p.fields, FieldLocation::point);
    sites.owned_dof.push_back(owner && nodal ? 3 * node : -1);
    sites.owned_rotation_dof.push_back(
        rotates(p.fields)
            ? rotation_dof(comm, mesh, where, cat(origin, " asks for rotations, but "))
            : -1);
    if (nodal)
      sites.descriptions.push_back(
          cat("probe ", p.name, ": ", at, ", distance ", best.distance, " from ", from));
    sites.points.emplace_back();
    sites.beams.emplace_back();
    sites.shells.emplace_back();
    if (records(p.fields, FieldLocation::shell)) {
      std::string description;
      sites.shells.back() = nearest_shell(system, p.point.data(), p.name, origin, description);
      sites.descriptions.push_back(description);
    }
    if (records(p.fields, FieldLocation::beam)) {
      std::string description;
      sites.beams.back() = nearest_beam(system, p.point.data(), p.name, origin, description);
      sites.descriptions.push_back(description);
    }
    if (!samples_stress(p.fields)) continue;
    // The solid cell that contains the point, or if none does the nearest: over the ranks the
    // smallest distance, then the lowest file tag (each element lives on one rank), so the
    // choice does not depend on the partition. The nearest is sought among the cells whose
    // bounding box is as near as the nearest node (a cell of that node is that near).
    std::string sampled;  // "stress, von_mises"
    for (const auto& f : p.fields)
      if (find_output_field(FieldKind::probe, f)->location == FieldLocation::cell)
        sampled += (sampled.empty() ? "" : ", ") + f;
    SolidPoint point = system.assembler().solid_containing(p.point);
    double distance = point.cell >= 0 ? 0.0 : std::numeric_limits<double>::infinity();
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &distance, 1, MPI_DOUBLE, MPI_MIN, comm));
    if (!std::isfinite(distance)) {
      point = system.assembler().nearest_solid(p.point, best.distance);
      distance = point.cell >= 0 ? point.distance : std::numeric_limits<double>::infinity();
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &distance, 1, MPI_DOUBLE, MPI_MIN, comm));
    }
    if (!std::isfinite(distance))
      throw InputError(cat(origin, " asks for ", sampled,
                           ", but no solid element (a region with a material) is there"));
    const bool candidate = point.cell >= 0 && point.distance == distance;
    std::int64_t tag =
        candidate ? mesh.cell_tags[point.cell] : std::numeric_limits<std::int64_t>::max();
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &tag, 1, MPI_INT64_T, MPI_MIN, comm));
    int cell_owner = candidate && mesh.cell_tags[point.cell] == tag ? rank : size_of(comm);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &cell_owner, 1, MPI_INT, MPI_MIN, comm));
    // what: the cell's type, the sampled point and its reference coordinates, for the comment.
    double what[7] = {0, 0, 0, 0, 0, 0, 0};
    if (cell_owner == rank) {
      sites.points.back() = point;
      what[0] = static_cast<double>(mesh.cell_types[point.cell]);
      for (int i = 0; i < 3; ++i) what[1 + i] = point.at[i], what[4 + i] = point.xi[i];
    }
    INERTIA_MPI(MPI_Bcast(what, 7, MPI_DOUBLE, cell_owner, comm));
    const std::string element =
        cat("element ", tag, " (", info(static_cast<CellType>(static_cast<int>(what[0]))).name,
            "), reference coordinates ", point_text(what + 4));
    sites.descriptions.push_back(
        distance == 0
            ? cat("probe ", p.name, ": ", sampled, " at ", from, " in ", element)
            : cat("probe ", p.name, ": ", sampled, ": ", from, " is in no element; sampled at ",
                  point_text(what + 1), ", the nearest point of the nearest ", element,
                  ", distance ", distance));
  }
  return sites;
}

Probes::Probes(MPI_Comm comm, const Assembler& assembler, ProbeSites sites,
               const std::filesystem::path& path, std::int64_t resume_after,
               std::span<PointState* const> states)
    : comm_(comm),
      owned_dof_(std::move(sites.owned_dof)),
      owned_rotation_dof_(std::move(sites.owned_rotation_dof)),
      points_(std::move(sites.points)),
      beams_(std::move(sites.beams)),
      shells_(std::move(sites.shells)),
      model_stress_(assembler, states) {
  std::vector<std::string> columns;
  std::string comment;
  for (const auto& line : sites.descriptions) comment += "# " + line + "\n";
  for (std::size_t p = 0; p < sites.names.size(); ++p) {
    auto& at = columns_.emplace_back();
    for (const auto& name : sites.fields[p]) {
      const OutputField* f = find_output_field(FieldKind::probe, name);
      at.push_back({f, static_cast<int>(columns.size())});
      for (const auto q : f->columns) columns.push_back(cat(sites.names[p], ".", q));
      if (!f->from_model) continue;
      for (const PointState* s : states) {  // `state`
        std::int64_t row = -1;
        const std::int64_t cell = points_[p].cell;
        for (std::size_t r = 0; cell >= 0 && r < s->rows(); ++r)
          if (s->cells()[r] == cell) row = static_cast<std::int64_t>(r);
        state_columns_.push_back({p, s, row, static_cast<int>(columns.size())});
        for (const auto& comp : s->layout().components)
          columns.push_back(
              cat(sites.names[p], ".", s->layout().name, comp.empty() ? "" : ".", comp));
      }
    }
    sampled_ = sampled_ || samples_stress(sites.fields[p]);
    beam_sampled_ = beam_sampled_ || records(sites.fields[p], FieldLocation::beam);
    shell_sampled_ = shell_sampled_ || records(sites.fields[p], FieldLocation::shell);
  }
  if (beam_sampled_)
    beam_forces_.assign(12 * static_cast<std::size_t>(assembler.mesh().num_cells()), 0.0);
  if (sampled_)
    comment +=
        "# u and v: at the probe's nearest node; stress, strain, von_mises: at the probe point, "
        "components xx yy zz xy yz xz (tensor shear strain) as in the VTK stress and strain "
        "arrays; state: the history variables of the probe point's cell, averaged over its "
        "quadrature points\n";
  values_.resize(columns.size());
  sums_.resize(values_.size());
  file_ = CsvFile(comm_, path, comment, columns, resume_after);
}

void Probes::record(const State& state) {
  std::fill(values_.begin(), values_.end(), 0.0);
  {
    petsc::ConstArray u(state.u), v(state.v);
    for (std::size_t p = 0; p < owned_dof_.size(); ++p) {
      const PetscInt d = owned_dof_[p], r = owned_rotation_dof_[p];
      if (d < 0 && r < 0) continue;
      // The node's and its rotation node's owners may differ: each fills what it holds.
      ProbeInput node;
      if (d >= 0) node.u = &u[d], node.v = &v[d];
      if (r >= 0) node.rotation = &u[r], node.angular_velocity = &v[r];
      for (const Column& at : columns_[p])
        if (at.field->location == FieldLocation::point)
          at.field->fill_probe(node, &values_[at.offset]);
    }
  }
  if (sampled_) {  // collective: the ghosts of u are updated on every rank
    petsc::GhostedRead u(state.u);
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (points_[p].cell < 0) continue;
      double strain[6], stress[6];
      model_stress_.at_point(u.span(), points_[p], strain, stress);
      const ProbeInput point{nullptr, nullptr, strain, stress};
      for (const Column& at : columns_[p])
        if (at.field->location == FieldLocation::cell && !at.field->from_model)
          at.field->fill_probe(point, &values_[at.offset]);
    }
    for (const StateColumn& at : state_columns_)  // the rank holding the probe's cell
      if (at.row >= 0)
        for (int k = 0; k < at.state->num_components(); ++k)
          values_[at.offset + k] = at.state->cell_average(static_cast<std::size_t>(at.row), k);
  }
  if (beam_sampled_) record_beams(state);
  if (shell_sampled_) record_shells(state);
  INERTIA_MPI(MPI_Reduce(values_.data(), sums_.data(), static_cast<int>(values_.size()), MPI_DOUBLE,
                         MPI_SUM, 0, comm_));
  file_.row(state.step, state.time, sums_);
}

void Probes::record_beams(const State& state) {
  petsc::GhostedRead u(state.u);       // collective: the ghosts of u are updated on every rank
  const BeamTermInfo* done = nullptr;  // the term whose forces beam_forces_ holds
  for (std::size_t p = 0; p < beams_.size(); ++p) {
    const BeamPoint& at = beams_[p];
    if (at.cell < 0) continue;
    if (at.term != done) at.term->section_forces(u.span(), beam_forces_), done = at.term;
    // Linear between the ends: exact when no load acts along the beam.
    double forces[6];
    const double* f = &beam_forces_[12 * static_cast<std::size_t>(at.cell)];
    for (int i = 0; i < 6; ++i) forces[i] = (1 - at.s) * f[i] + at.s * f[6 + i];
    ProbeInput in;
    in.section_forces = forces;
    for (const Column& column : columns_[p])
      if (column.field->location == FieldLocation::beam)
        column.field->fill_probe(in, &values_[column.offset]);
  }
}

void Probes::record_shells(const State& state) {
  petsc::GhostedRead u(state.u);  // collective: the ghosts of u are updated on every rank
  for (std::size_t p = 0; p < shells_.size(); ++p) {
    const ShellPoint& at = shells_[p];
    if (at.cell < 0) continue;
    double r[8];
    at.term->resultants_of(u.span(), at.cell, r);
    ProbeInput in;
    in.shell_resultants = r;
    for (const Column& column : columns_[p])
      if (column.field->location == FieldLocation::shell)
        column.field->fill_probe(in, &values_[column.offset]);
  }
}

void values_at_sites(MPI_Comm comm, const ProbeSites& sites, Vec x, std::vector<double>& out) {
  const std::size_t n = sites.owned_dof.size();
  out.assign(3 * n, 0.0);
  {
    petsc::ConstArray a(x);
    for (std::size_t p = 0; p < n; ++p)
      if (sites.owned_dof[p] >= 0)
        for (std::size_t k = 0; k < 3; ++k)
          out[3 * p + k] = a[sites.owned_dof[p] + static_cast<PetscInt>(k)];
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, out.data(), static_cast<int>(out.size()), MPI_DOUBLE,
                            MPI_SUM, comm));
}

Reactions::Reactions(const MechanicalSystem& system, const std::vector<std::string>& regions,
                     const std::filesystem::path& path, std::int64_t resume_after)
    : comm_(system.comm()) {
  // One column group per region, in the order the conditions name them.
  std::vector<std::string> names, columns;
  std::vector<int> group_of_condition;
  for (const auto& r : regions) {
    const auto it = std::find(names.begin(), names.end(), r);
    group_of_condition.push_back(static_cast<int>(it - names.begin()));
    if (it == names.end()) names.push_back(r);
  }
  // With beams, the moments on their rotation DOFs too: mx, my, mz (the sum of the supports'
  // nodal moments, not the moment of their forces about a point).
  const LocalMesh& mesh = system.mesh();
  const int group = mesh.has_rotations ? 6 : 3;
  for (const auto& n : names)
    for (const char* q : {"fx", "fy", "fz", "mx", "my", "mz"})
      if (columns.size() % group < static_cast<std::size_t>(group) && (group == 6 || q[0] == 'f'))
        columns.push_back(n + "." + q);
  const auto dofs = system.constrained_dofs();
  const auto conditions = system.constrained_conditions();
  const PetscInt first = static_cast<PetscInt>(3 * mesh.node_begin);
  for (std::size_t i = 0; i < dofs.size(); ++i) {
    column_of_dof_.push_back(group *
                             group_of_condition.at(static_cast<std::size_t>(conditions[i])));
    const bool moment = mesh.is_rotation(static_cast<std::int32_t>((dofs[i] - first) / 3));
    component_of_dof_.push_back(static_cast<int>(dofs[i] % 3) + (moment ? 3 : 0));
  }
  dof_values_.resize(dofs.size());
  values_.resize(columns.size());
  sums_.resize(columns.size());
  file_ = CsvFile(comm_, path,
                  group == 6 ? "# the force each support exerts on the body: f_int + M a + C v - "
                               "f_ext summed over its constrained DOFs; mx, my, mz: the same "
                               "over the rotations of its beam nodes (nodal moments)\n"
                             : "# the force each support exerts on the body: f_int + M a + C v - "
                               "f_ext summed over its constrained DOFs\n",
                  columns, resume_after);
}

void Reactions::compute(const MechanicalSystem& system, const State& state,
                        const Integrator& integrator) {
  if (state.step == computed_step_) return;  // a frame and a row at the same step
  system.support_reactions(state.time, state.u, state.v, integrator.acceleration(), dof_values_);
  computed_step_ = state.step;
}

void Reactions::record(const MechanicalSystem& system, const State& state,
                       const Integrator& integrator) {
  compute(system, state, integrator);
  std::fill(values_.begin(), values_.end(), 0.0);
  for (std::size_t i = 0; i < dof_values_.size(); ++i)
    values_[column_of_dof_[i] + component_of_dof_[i]] += dof_values_[i];
  INERTIA_MPI(MPI_Allreduce(values_.data(), sums_.data(), static_cast<int>(values_.size()),
                            MPI_DOUBLE, MPI_SUM, comm_));
  file_.row(state.step, state.time, sums_);
}

void Reactions::fill(const MechanicalSystem& system, Vec r) const {
  INERTIA_PETSC(VecZeroEntries(r));
  const auto dofs = system.constrained_dofs();
  const PetscInt first = static_cast<PetscInt>(3 * system.mesh().node_begin);
  {
    petsc::Array x(r);
    for (std::size_t i = 0; i < dofs.size(); ++i) x[dofs[i] - first] = dof_values_[i];
  }
  INERTIA_PETSC(VecGhostUpdateBegin(r, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(r, INSERT_VALUES, SCATTER_FORWARD));
}

namespace {

/// The Newmark-family identity's weights, if the scheme has them and they are not the
/// trapezoidal rule's (whose algorithmic dissipation is zero).
std::optional<NewmarkWeights> dissipative_weights(const Integrator& integrator) {
  const auto w = integrator.newmark_weights();
  if (!w || (w->alpha_m == 0 && w->alpha_f == 0 && w->beta == 0.25 && w->gamma == 0.5))
    return std::nullopt;
  return w;
}

std::vector<std::string> energy_columns(const MechanicalSystem& system,
                                        const Integrator& integrator) {
  std::vector<std::string> columns{"kinetic", "strain"};
  if (system.has_hourglass()) columns.push_back("hourglass");
  columns.insert(columns.end(), {"external_work", "damping_dissipation"});
  if (system.has_plasticity())
    columns.insert(columns.end(), {"plastic_dissipation", "plastic_work_error"});
  if (system.has_erosion()) columns.push_back("eroded");
  if (dissipative_weights(integrator)) columns.push_back("algorithmic_dissipation");
  columns.push_back("total");
  if (integrator.has_hamiltonian()) columns.push_back("hamiltonian");
  if (system.added_mass() > 0) columns.push_back("added_mass");  // time.mass_scaling
  return columns;
}

/// Sum over this rank's constrained DOFs of (u1 - u0)_i (r0_i + r1_i) / 2 (local part).
double support_work(const MechanicalSystem& system, Vec u0, Vec u1, std::span<const double> r0,
                    std::span<const double> r1) {
  const auto dofs = system.constrained_dofs();
  const PetscInt first = static_cast<PetscInt>(3 * system.mesh().node_begin);
  petsc::ConstArray a(u0), b(u1);
  double w = 0;
  for (std::size_t i = 0; i < dofs.size(); ++i)
    w += 0.5 * (b[dofs[i] - first] - a[dofs[i] - first]) * (r0[i] + r1[i]);
  return w;
}

}  // namespace

EnergyHistory::EnergyHistory(MechanicalSystem& system, const State& state, Integrator& integrator,
                             const std::filesystem::path& path, const EnergyResume* resume,
                             Vec carried, bool velocity_scaled)
    : integrator_(integrator),
      identity_(dissipative_weights(integrator)),
      u_prev_(system.create_vector()),
      v_prev_(system.create_vector()),
      f_prev_(system.create_vector()),
      f_now_(system.create_vector()),
      work_(system.create_vector()),
      work2_(system.create_vector()),
      cw_(system.create_vector()),
      file_(system.comm(), path, "", energy_columns(system, integrator),
            resume ? resume->step : -1) {
  reactions_ = system.has_prescribed_motion() && integrator_.acceleration();
  if (reactions_) {
    reaction_prev_.resize(system.constrained_dofs().size());
    reaction_now_.resize(system.constrained_dofs().size());
  }
  ground_ = system.has_ground_motion() && system.rayleigh().mass != 0;
  if (ground_) {
    ground_prev_ = system.create_vector();
    ground_now_ = system.create_vector();
  }
  if (system.has_dashpots()) {
    dashpot_prev_ = system.create_vector();
    dashpot_now_ = system.create_vector();
  }
  linear_ = system.is_linear();
  mv_prev_ = system.create_vector();
  mv_now_ = system.create_vector();
  const auto weights = integrator.newmark_weights();
  const auto& rayleigh = system.rayleigh();
  trapezoidal_stiffness_ = linear_ && rayleigh.stiffness != 0 && !system.has_prescribed_motion() &&
                           weights && !identity_ && !velocity_scaled;
  if (trapezoidal_stiffness_) {
    ku_prev_ = system.create_vector();
    ku_now_ = system.create_vector();
  } else if (linear_ && rayleigh.stiffness != 0) {
    kv_ = system.create_vector();
  }
  if (identity_) {
    a_prev_ = system.create_vector();
    ma_prev_ = system.create_vector();
    ma_now_ = system.create_vector();
    residual_ = system.create_vector();  // rho_0 = 0: a_0 solves the equation of motion
    residual_next_ = system.create_vector();
    if (resume && carried) INERTIA_PETSC(VecCopy(carried, residual_));
  }
  evaluate(system, state);
  if (resume) {
    external_work_ = resume->external_work;
    dissipation_ = resume->dissipation;
    system.take_friction_dissipation();  // none yet: the restored terms start from zero
    algorithmic_ = resume->algorithmic_dissipation;
    initial_total_ = resume->initial_total;
    update_total(system, state);
  } else {
    write(system, state);
    initial_total_ = total_;
  }
}

bool EnergyHistory::has_carried(const Integrator& integrator) {
  return dissipative_weights(integrator).has_value();
}

void EnergyHistory::evaluate(MechanicalSystem& system, const State& state) {
  system.external_force(state.time, f_now_);
  if (reactions_)
    system.support_reactions(state.time, state.u, state.v, integrator_.acceleration(),
                             reaction_now_);
  if (ground_) system.ground_damping_force(state.time, ground_now_);
  if (dashpot_now_) system.dashpot_force(state.u, state.v, dashpot_now_);
  // M v: the kinetic energy, Rayleigh's mass dissipation (with the previous step's) and the
  // identity; K u: the strain energy (and, for the trapezoidal rule, the stiffness dissipation).
  system.mult_mass(state.v, mv_now_);
  if (identity_) system.mult_mass(integrator_.acceleration(), ma_now_);
  PetscScalar kinetic = 0;
  INERTIA_PETSC(VecDot(state.v, mv_now_, &kinetic));
  kinetic_now_ = 0.5 * kinetic + system.body_kinetic_energy();  // drop weights' too
  strain_now_ = trapezoidal_stiffness_ ? system.strain_energy(state.u, ku_now_)
                                       : system.strain_energy(state.u);
  // The plastic dissipation lives in the committed states (a restart restores it).
  plastic_ = system.plastic_energy();
  if (system.has_erosion()) {  // what the eroded cells carried away (erosion.hpp)
    const ErodedTotals e = system.eroded();
    eroded_ = e.kinetic + e.strain;
  }
}

void EnergyHistory::before_step(MechanicalSystem& system, const State& state) {
  (void)system;
  time_prev_ = state.time;
  INERTIA_PETSC(VecCopy(state.u, u_prev_));
  INERTIA_PETSC(VecCopy(state.v, v_prev_));
  std::swap(f_prev_, f_now_);
  std::swap(reaction_prev_, reaction_now_);
  if (ground_) std::swap(ground_prev_, ground_now_);
  if (dashpot_now_) std::swap(dashpot_prev_, dashpot_now_);
  std::swap(mv_prev_, mv_now_);
  if (trapezoidal_stiffness_) std::swap(ku_prev_, ku_now_);
  if (identity_) {
    INERTIA_PETSC(VecCopy(integrator_.acceleration(), a_prev_));
    std::swap(ma_prev_, ma_now_);
  }
}

void EnergyHistory::after_step(MechanicalSystem& system, const State& state, double dt,
                               double extra_dissipation, bool row) {
  evaluate(system, state);
  // Work of the loads and of the reactions: Delta u . fbar + Delta u_c . Rbar_c
  const Vec du = work_;
  INERTIA_PETSC(VecWAXPY(du, -1.0, u_prev_, state.u));
  INERTIA_PETSC(VecAXPY(f_prev_, 1.0, f_now_));  // f_prev_ is not needed after this step
  PetscScalar dw = 0;
  INERTIA_PETSC(VecDot(du, f_prev_, &dw));
  double local_support =
      reactions_ ? support_work(system, u_prev_, state.u, reaction_prev_, reaction_now_) : 0.0;
  double sums[1] = {local_support};
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 1, MPI_DOUBLE, MPI_SUM, system.comm()));
  external_work_ += 0.5 * dw + sums[0];
  // The work of moving walls (their penalty energy's change at fixed u).
  external_work_ += system.moving_work(u_prev_, state.u, time_prev_, state.time);
  // The springs' dashpots: Delta u . (f_d,n + f_d,n+1) / 2 over every DOF (a support's share of
  // their force is in its reaction, whose work is booked above).
  if (dashpot_now_) {
    INERTIA_PETSC(VecAXPY(dashpot_prev_, 1.0, dashpot_now_));  // spent after this step
    PetscScalar d = 0;
    INERTIA_PETSC(VecDot(du, dashpot_prev_, &d));
    dissipation_ += 0.5 * d;
  }
  // Friction's dissipation over the steps committed since the last call.
  dissipation_ += system.take_friction_dissipation();
  // Rayleigh dissipation h wbar.C wbar, w = v - G (the velocity relative to the ground; v without
  // uniform base excitation), vbar into v_prev_.
  const auto& r = system.rayleigh();
  const bool damped = r.mass != 0 || r.stiffness != 0;
  const Vec vbar = v_prev_, wbar = work2_;
  INERTIA_PETSC(VecAXPBY(vbar, 0.5, 0.5, state.v));
  // M vbar into mv_prev_ (M v_n is not needed after this step).
  INERTIA_PETSC(VecAXPBY(mv_prev_, 0.5, 0.5, mv_now_));
  if (damped) {
    INERTIA_PETSC(VecCopy(vbar, wbar));
    if (ground_) {
      system.ground_velocity(time_prev_, cw_);
      INERTIA_PETSC(VecAXPY(wbar, -0.5, cw_));
      system.ground_velocity(state.time, cw_);
      INERTIA_PETSC(VecAXPY(wbar, -0.5, cw_));
    }
    PetscScalar d = 0;
    if (!linear_) {
      system.mult_damping(wbar, cw_);  // C at the current tangent
    } else {
      // C wbar = alpha_M (M vbar - M Gbar) + alpha_K K vbar (K Gbar = 0: a rigid translation),
      // alpha_M M Gbar = fbar_g; M vbar from the ends' M v, no product.
      INERTIA_PETSC(VecAXPBY(cw_, r.mass, 0.0, mv_prev_));
      if (ground_) {
        INERTIA_PETSC(VecAXPY(cw_, -0.5, ground_prev_));
        INERTIA_PETSC(VecAXPY(cw_, -0.5, ground_now_));
      }
      if (trapezoidal_stiffness_) {
        // The trapezoidal rule with fixed supports: vbar = Delta u / h on every DOF, so
        // vbar.K vbar = vbar.(K u_{n+1} - K u_n) / h from the strain energy's products.
        INERTIA_PETSC(VecAXPY(ku_prev_, -1.0, ku_now_));  // -(K Delta u): ku_prev_ is spent
        PetscScalar k = 0;
        INERTIA_PETSC(VecDot(vbar, ku_prev_, &k));
        d -= r.stiffness * k / dt;
      } else if (r.stiffness != 0) {
        system.mult_stiffness(vbar, kv_);
        INERTIA_PETSC(VecAXPY(cw_, r.stiffness, kv_));
      }
    }
    PetscScalar dm = 0;
    INERTIA_PETSC(VecDot(wbar, cw_, &dm));
    dissipation_ += dt * (d + dm);
    if (ground_) {
      // The ground's work through the mass damping, - h fbar_g.(vbar + wbar); and C vbar =
      // C wbar + fbar_g for the identity below.
      INERTIA_PETSC(VecAXPBY(ground_prev_, 0.5, 0.5, ground_now_));  // fbar_g
      INERTIA_PETSC(VecAXPY(wbar, 1.0, vbar));
      PetscScalar g = 0;
      INERTIA_PETSC(VecDot(ground_prev_, wbar, &g));
      external_work_ -= dt * g;
      INERTIA_PETSC(VecAXPY(cw_, 1.0, ground_prev_));
    }
  }
  dissipation_ += extra_dissipation;
  if (identity_) {
    // D = - Delta u . rhobar_f - h (gamma - 1/2) vbar.M Delta a
    //     + h^2 (beta - gamma/2) Delta a.(M abar + C vbar)   (cw_ holds C vbar when damped)
    const auto [am, af, beta, gamma] = *identity_;
    const double h = dt;
    const Vec mda = ma_prev_, da = a_prev_, rho = residual_, rho_next = residual_next_;
    INERTIA_PETSC(VecAYPX(mda, -1.0, ma_now_));  // M Delta a (ma_prev_ is not needed after)
    INERTIA_PETSC(VecAYPX(da, -1.0, integrator_.acceleration()));  // Delta a
    // D's terms take the free DOFs' Delta a: only they follow Newmark's updates; the supports'
    // exact motion departs from them by O(h^2) per step where gamma != 1/2 (counted there, it
    // would book an O(h) error as dissipation), from the trapezoidal rule by O(h^3).
    // rho_{n+1} = -(alpha_f rho_n + (alpha_f - alpha_m) M Delta a) / (1 - alpha_f), free DOFs
    INERTIA_PETSC(VecAXPBYPCZ(rho_next, -af / (1 - af), -(af - am) / (1 - af), 0.0, rho, mda));
    system.zero_constrained(rho_next);
    INERTIA_PETSC(VecAXPY(rho, 1.0, rho_next));  // 2 rhobar
    // M abar + C vbar into work2_: (M a_n + M a_{n+1}) / 2 = M a_{n+1} - M Delta a / 2
    INERTIA_PETSC(VecWAXPY(work2_, -0.5, mda, ma_now_));
    if (damped) INERTIA_PETSC(VecAXPY(work2_, 1.0, cw_));
    system.zero_constrained(da);  // M vbar is in mv_prev_
    PetscScalar d[3];
    INERTIA_PETSC(VecDotBegin(du, rho, &d[0]));
    INERTIA_PETSC(VecDotBegin(mv_prev_, da, &d[1]));
    INERTIA_PETSC(VecDotBegin(da, work2_, &d[2]));
    INERTIA_PETSC(VecDotEnd(du, rho, &d[0]));
    INERTIA_PETSC(VecDotEnd(mv_prev_, da, &d[1]));
    INERTIA_PETSC(VecDotEnd(da, work2_, &d[2]));
    algorithmic_ += -0.5 * d[0] - h * (gamma - 0.5) * d[1] + h * h * (beta - gamma / 2) * d[2];
    std::swap(residual_, residual_next_);
  }
  if (row) write(system, state);
}

std::pair<double, double> EnergyHistory::update_total(MechanicalSystem& system,
                                                      const State& state) {
  (void)system;
  (void)state;  // evaluate() computed both at this state
  const double kinetic = kinetic_now_, strain = strain_now_;
  const double plastic = plastic_.dissipation + plastic_.work_error;
  total_ = kinetic + strain - external_work_ + dissipation_ + plastic + algorithmic_ + eroded_;
  largest_term_ =
      std::max({std::abs(kinetic), std::abs(strain), std::abs(external_work_),
                std::abs(dissipation_), std::abs(plastic_.dissipation),
                std::abs(plastic_.work_error), std::abs(algorithmic_), std::abs(eroded_)});
  in_play_ = std::abs(kinetic) + std::abs(strain) + std::abs(external_work_) +
             std::abs(dissipation_) + std::abs(plastic_.dissipation) +
             std::abs(plastic_.work_error) + std::abs(algorithmic_) + std::abs(eroded_) +
             std::abs(initial_total_);
  return {kinetic, strain};
}

void EnergyHistory::write(MechanicalSystem& system, const State& state) {
  const auto [kinetic, strain] = update_total(system, state);
  if (!std::isfinite(total_)) return;  // the blow-up watch stops the run: no row of overflows
  std::size_t n = 0;
  row_[n++] = kinetic;
  row_[n++] = strain;
  if (system.has_hourglass()) row_[n++] = system.hourglass_energy(state.u);
  row_[n++] = external_work_;
  row_[n++] = dissipation_;
  if (system.has_plasticity()) row_[n++] = plastic_.dissipation, row_[n++] = plastic_.work_error;
  if (system.has_erosion()) row_[n++] = eroded_;
  if (identity_) row_[n++] = algorithmic_;
  row_[n++] = total_;
  if (integrator_.has_hamiltonian()) row_[n++] = integrator_.hamiltonian(system, state);
  if (system.added_mass() > 0) row_[n++] = system.added_mass();
  file_.row(state.step, state.time, std::span<const double>(row_.data(), n));
}

}  // namespace inertia
