#include "inertia/app/output_series.hpp"

#include "inertia/app/output_fields.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/beams.hpp"
#include "inertia/system/contact.hpp"
#include "inertia/system/shells.hpp"

namespace inertia {

namespace {

/// Collective. The natural index (LocalMesh::natural_ids) of every local node, owned and ghost:
/// the ghosts' from their owners.
std::vector<std::int64_t> local_natural_ids(MPI_Comm comm, const LocalMesh& lm) {
  std::vector<std::int64_t> natural(lm.natural_ids.begin(), lm.natural_ids.end());
  petsc::Vector owned, ghosts;
  INERTIA_PETSC(VecCreateMPI(comm, lm.num_owned, PETSC_DETERMINE, owned.out()));
  {
    petsc::Array a(owned);
    for (PetscInt i = 0; i < a.size(); ++i) a[i] = static_cast<double>(lm.natural_ids[i]);
  }
  const auto num_ghosts = static_cast<PetscInt>(lm.ghosts.size());
  INERTIA_PETSC(VecCreateSeq(PETSC_COMM_SELF, num_ghosts, ghosts.out()));
  std::vector<PetscInt> from(lm.ghosts.begin(), lm.ghosts.end());
  petsc::IndexSet from_is;
  INERTIA_PETSC(
      ISCreateGeneral(PETSC_COMM_SELF, num_ghosts, from.data(), PETSC_USE_POINTER, from_is.out()));
  petsc::VecScatterHandle scatter;
  INERTIA_PETSC(VecScatterCreate(owned, from_is, ghosts, nullptr, scatter.out()));
  INERTIA_PETSC(VecScatterBegin(scatter, owned, ghosts, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecScatterEnd(scatter, owned, ghosts, INSERT_VALUES, SCATTER_FORWARD));
  petsc::ConstArray g(ghosts);
  for (PetscInt i = 0; i < g.size(); ++i) natural.push_back(static_cast<std::int64_t>(g[i]));
  return natural;
}

/// The name of the rotations' array that goes with a point array of translations:
/// displacement_real: rotation_real, reaction: reaction_moment, else <name>_rotation.
std::string rotation_name(const std::string& name) {
  const std::string displacement = "displacement";
  if (name.starts_with(displacement)) return "rotation" + name.substr(displacement.size());
  if (name == "reaction") return "reaction_moment";
  return name + "_rotation";
}

/// The point array of a point state's component (output field nodal_state): the cell array's
/// name (`state`: <variable>.<component>) with the prefix of the nodal averages, which keeps it
/// apart from the cell array in an XDMF frame (one HDF5 dataset per array name).
std::string nodal_state_name(const std::string& variable, const std::string& component) {
  return "nodal_" + (component.empty() ? variable : variable + "." + component);
}

}  // namespace

OutputSeries::OutputSeries(MPI_Comm comm, const CaseFile& c, const MechanicalSystem& system,
                           std::optional<double> resume_up_to, const std::string& name)
    : case_(c), system_(system), model_stress_(system.assembler(), system.point_states()) {
  const std::string series = name.empty() ? c.name : name;
  if (c.output_format == OutputFormat::vtu)
    vtk_ = std::make_unique<io::VtkSeriesWriter>(comm, c.output_directory, series, resume_up_to);
  const LocalMesh& lm = system.mesh();
  std::vector<char> shown_faces(lm.regions.size(), 0);
  for (const auto& sp : c.springs)
    if (sp.edges_of_surface)
      for (std::size_t r = 0; r < lm.regions.size(); ++r)
        if (lm.regions[r].name == sp.region) shown_faces[r] = 1;
  const int rank = rank_of(comm);
  show_nodes(comm, lm);
  for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
    const bool face = info(lm.cell_types[k]).dim == 2 && lm.cell_regions[k] >= 0 &&
                      shown_faces[lm.cell_regions[k]];
    if (!lm.cell_is_element[k] && !face) continue;
    cells_.push_back(k);
    types_.push_back(shown_type(lm.cell_types[k]));  // a beam: the line of its two nodes
    for (auto n : lm.nodes_of(k).first(static_cast<std::size_t>(shown_nodes(lm.cell_types[k])))) {
      const std::int64_t p = drop_rotations_ ? shown_index_[static_cast<std::size_t>(n)] : n;
      INERTIA_CHECK(p >= 0, InternalError, "output: a cell shows the rotation node of node ",
                    lm.node_tags[static_cast<std::size_t>(n)]);
      nodes_.push_back(p);
    }
    offsets_.push_back(static_cast<std::int64_t>(nodes_.size()));
    rank_.push_back(rank);
    region_.push_back(lm.regions[lm.cell_regions[k]].tag);
  }
  if (c.output_format == OutputFormat::xdmf) {
    std::vector<std::int64_t> keys;
    keys.reserve(cells_.size());
    for (auto k : cells_) keys.push_back(lm.cell_tags[k]);
    std::vector<std::int64_t> natural = local_natural_ids(comm, lm);
    if (drop_rotations_) {
      // The drawn nodes' natural indices: the rotation nodes are the last ones of the natural
      // order (appended to the mesh), so the others keep theirs, in [0, shown_global_nodes_).
      std::vector<std::int64_t> shown(shown_.size());
      bool below = true;
      for (std::size_t i = 0; i < shown_.size(); ++i) {
        shown[i] = natural[static_cast<std::size_t>(shown_[i])];
        below = below && shown[i] < shown_global_nodes_;
      }
      INERTIA_CHECK(all_true(comm, below), InternalError,
                    "XDMF output: a node's natural index is not below the ", shown_global_nodes_,
                    " nodes without rotation nodes");
      natural = std::move(shown);
    }
    xdmf_ = std::make_unique<io::XdmfSeriesWriter>(
        comm, c.output_directory, series,
        io::NaturalPieceMesh{{piece_coords(), types_, offsets_, nodes_},
                             shown_owned_,
                             shown_global_nodes_,
                             natural,
                             keys},
        resume_up_to);
  }
  // The fields output.fields asks for, from the table (a frame holds them in its order).
  for (const auto& f : output_fields())
    if (f.kind == FieldKind::frame && !f.from_model &&
        (c.has_field(std::string(f.name)) ||
         (lm.has_rotations && !f.implied_by.empty() && c.has_field(std::string(f.implied_by))))) {
      fields_.push_back(&f);
      if (f.needs != FieldNeeds::state) needs_ = std::max(needs_, f.needs);
    }
  buffers_.resize(fields_.size());
  has_beam_forces_ = c.has_field("section_forces");
  has_shell_resultants_ = c.has_field("shell_resultants");
  has_shell_thickness_ = c.has_field("thickness");
  has_shell_stress_ = c.has_field("shell_stress");
  if (c.has_field("shell_plastic_strain"))
    if (const auto it = c.term_sections.find("shells"); it != c.term_sections.end())
      for (const ShellInput& s : dynamic_cast<const ShellSectionList&>(*it->second).shells)
        shell_layers_ = std::max(shell_layers_, s.integration_points);
  if (has_shell_thickness_) {  // constant: once
    shell_thickness_.assign(static_cast<std::size_t>(lm.num_cells()), 0.0);
    for (const auto& t : system.terms())
      if (const auto* shells = dynamic_cast<const ShellTermInfo*>(t.get()))
        shells->thickness(shell_thickness_);
  }
  if (c.has_field("contact_pressure"))
    for (const auto& t : system.terms())
      if (dynamic_cast<const ContactTerm*>(t.get())) contact_pressure_ = system.create_vector();
  if (c.has_field("state"))
    for (const PointState* ps : system.point_states()) {
      StateArrays& a = state_arrays_.emplace_back();
      a.state = ps;
      std::vector<std::int64_t> row_of_local(static_cast<std::size_t>(lm.num_cells()), -1);
      for (std::size_t r = 0; r < ps->rows(); ++r)
        row_of_local[ps->cells()[r]] = static_cast<std::int64_t>(r);
      for (const auto k : cells_) a.row_of.push_back(row_of_local[k]);
      for (const auto& comp : ps->layout().components)
        a.names.push_back(comp.empty() ? ps->layout().name : ps->layout().name + "." + comp);
      a.values.resize(a.names.size());
    }
  if (c.has_field("nodal_state"))
    for (const PointState* ps : system.point_states()) {
      NodalStateArrays& a = nodal_state_arrays_.emplace_back();
      a.state = ps;
      a.rows.resize(ps->rows() * static_cast<std::size_t>(ps->num_components()));
      for (const auto& comp : ps->layout().components)
        a.names.push_back(nodal_state_name(ps->layout().name, comp));
    }
  // Uncompressed size of a frame: coordinates and point fields (float64 per node of the piece),
  // cell fields, connectivity, offsets and types. The compressed pieces are at most this (zlib
  // adds a few bytes per block), usually several times less. XDMF: the owned nodes' fields and
  // the cell fields (every cell field as Float64); the mesh is written once, not per frame.
  const bool xdmf = xdmf_ != nullptr;
  const auto points = xdmf ? static_cast<std::int64_t>(shown_owned_)
                           : static_cast<std::int64_t>(piece_coords().size() / 3);
  std::int64_t point_bytes = xdmf ? 0 : 24;    // the coordinates
  std::int64_t cell_bytes = xdmf ? 0 : 8 + 1;  // offsets and types
  for (const OutputField* f : fields_)
    (f->location == FieldLocation::point ? point_bytes : cell_bytes) += f->bytes(xdmf);
  for (const auto& a : state_arrays_) cell_bytes += 8 * static_cast<std::int64_t>(a.names.size());
  for (const auto& a : nodal_state_arrays_)
    point_bytes += 8 * static_cast<std::int64_t>(a.names.size());
  raw_bytes_per_frame_ = points * point_bytes +
                         static_cast<std::int64_t>(cells_.size()) * cell_bytes +
                         (xdmf ? 0 : static_cast<std::int64_t>(nodes_.size()) * 8);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &raw_bytes_per_frame_, 1, MPI_INT64_T, MPI_SUM, comm));
}

namespace {

/// Per local cell, n values from the terms of kind Info (beams, shells): zero, then each term's
/// fill(term, the local form of u, out). Collective (the ghosts of u).
template <class Info, class Fill>
void structural_cell_values(const MechanicalSystem& system, Vec u, int n, std::vector<double>& out,
                            Fill fill) {
  out.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(system.mesh().num_cells()),
             0.0);
  petsc::GhostedRead local(u);
  for (const auto& t : system.terms())
    if (const auto* info = dynamic_cast<const Info*>(t.get())) fill(*info, local.span(), out);
}

}  // namespace

bool shell_resultant_values(const MechanicalSystem& system, Vec u, std::vector<double>& out) {
  int shells = 0;
  for (const auto& t : system.terms())
    shells += dynamic_cast<const ShellTermInfo*>(t.get()) != nullptr;
  if (!shells) return false;
  structural_cell_values<ShellTermInfo>(
      system, u, shell_resultant_components, out,
      [](const ShellTermInfo& s, auto local, auto& values) { s.resultants(local, values); });
  return true;
}

void OutputSeries::write(const State& state, Vec acceleration, Vec reaction) {
  point_fields_.clear();
  cell_fields_.clear();
  if (needs_ >= FieldNeeds::cell_stresses) model_stress_.cells(state.u, stress_);
  if (needs_ >= FieldNeeds::nodal_averages) system_.assembler().nodal_average(stress_, nodal_);
  if (contact_pressure_) {
    // The contacts' pressure at the owned nodes (component 0), then the ghosts from their owners.
    pressure_.assign(static_cast<std::size_t>(system_.assembler().num_owned_dofs() / 3), 0.0);
    for (const auto& t : system_.terms())
      if (const auto* contact = dynamic_cast<const ContactTerm*>(t.get()))
        contact->add_pressure(state.u, state.time, pressure_);  // collective
    {
      petsc::Array p(contact_pressure_);
      std::fill(p.span().begin(), p.span().end(), 0.0);
      for (std::size_t n = 0; n < pressure_.size(); ++n) p[3 * n] = pressure_[n];
    }
  }
  if (has_beam_forces_)
    structural_cell_values<BeamTermInfo>(
        system_, state.u, 12, beam_forces_,
        [](const BeamTermInfo& b, auto u, auto& out) { b.section_forces(u, out); });
  if (has_shell_resultants_)
    structural_cell_values<ShellTermInfo>(
        system_, state.u, shell_resultant_components, shell_resultants_,
        [](const ShellTermInfo& s, auto u, auto& out) { s.resultants(u, out); });
  if (has_shell_stress_)
    structural_cell_values<ShellTermInfo>(
        system_, state.u, shell_stress_components, shell_stress_,
        [](const ShellTermInfo& s, auto u, auto& out) { s.surface_stresses(u, out); });
  if (shell_layers_ > 0)
    structural_cell_values<ShellTermInfo>(system_, state.u, shell_layers_, shell_plastic_,
                                          [&](const ShellTermInfo& s, auto, auto& out) {
                                            s.layer_plastic_strain(shell_layers_, out);
                                          });
  const FrameInput in{state.u,
                      state.v,
                      acceleration,
                      reaction,
                      cells_,
                      &stress_,
                      &nodal_,
                      rank_,
                      region_,
                      contact_pressure_.get(),
                      has_beam_forces_ ? &beam_forces_ : nullptr,
                      has_shell_resultants_ ? &shell_resultants_ : nullptr,
                      has_shell_thickness_ ? &shell_thickness_ : nullptr,
                      has_shell_stress_ ? &shell_stress_ : nullptr,
                      system_.mesh().rotation_of,
                      shell_layers_ > 0 ? &shell_plastic_ : nullptr,
                      shell_layers_};
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const OutputField& f = *fields_[i];
    io::Field field{std::string(f.name), f.components, {}, {}};
    if (!f.fill_frame(in, buffers_[i], field)) continue;
    if (drop_rotations_ && !f.implied_by.empty()) {  // a beam node's rotations: the same everywhere
      share_rotations(buffers_[i]);
      field.values = buffers_[i];
    }
    (f.location == FieldLocation::point ? point_fields_ : cell_fields_).push_back(field);
  }
  for (auto& a : nodal_state_arrays_) {  // the cells' averages averaged at the nodes
    const int n = a.state->num_components();
    for (std::size_t r = 0; r < a.state->rows(); ++r)
      for (int k = 0; k < n; ++k)
        a.rows[r * static_cast<std::size_t>(n) + static_cast<std::size_t>(k)] =
            a.state->cell_average(r, k);
    system_.assembler().nodal_average(a.state->cells(), a.rows, n, a.nodal);  // collective
    const std::size_t nodes = a.nodal.values.size() / static_cast<std::size_t>(n);
    for (std::size_t k = 0; k < a.names.size(); ++k)
      point_fields_.push_back(
          {a.names[k], 1, std::span<const double>(a.nodal.values).subspan(k * nodes, nodes), {}});
  }
  for (auto& a : state_arrays_)  // the committed state, averaged over each cell's points
    for (std::size_t k = 0; k < a.names.size(); ++k) {
      auto& values = a.values[k];
      values.assign(a.row_of.size(), 0.0);
      for (std::size_t i = 0; i < a.row_of.size(); ++i)
        if (a.row_of[i] >= 0)
          values[i] =
              a.state->cell_average(static_cast<std::size_t>(a.row_of[i]), static_cast<int>(k));
      cell_fields_.push_back({a.names[k], 1, values, {}});
    }
  bytes_ += write_frame(state.time);
}

void OutputSeries::show_nodes(MPI_Comm comm, const LocalMesh& lm) {
  shown_owned_ = lm.num_owned;
  shown_global_nodes_ = lm.num_global_nodes;
  drop_rotations_ = lm.has_rotations;
  if (!drop_rotations_) return;  // every node is drawn: the piece is the mesh's
  // The nodes with translations, in local order (owned first): the frames' points.
  shown_index_.assign(static_cast<std::size_t>(lm.num_local_nodes()), -1);
  std::int64_t owned_rotations = 0;
  for (std::int32_t n = 0; n < lm.num_local_nodes(); ++n) {
    if (lm.is_rotation(n)) {
      owned_rotations += n < lm.num_owned ? 1 : 0;
      continue;
    }
    shown_index_[static_cast<std::size_t>(n)] = static_cast<std::int64_t>(shown_.size());
    shown_.push_back(n);
    for (int d = 0; d < 3; ++d)
      shown_coords_.push_back(lm.coords[3 * static_cast<std::size_t>(n) + d]);
  }
  shown_owned_ = lm.num_owned - static_cast<std::int32_t>(owned_rotations);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &owned_rotations, 1, MPI_INT64_T, MPI_SUM, comm));
  shown_global_nodes_ = lm.num_global_nodes - owned_rotations;
  // A rank knows a beam node's rotation node only through a beam cell it holds: a beam node that
  // is also a solid's node may be held (owned or ghost) by a rank without its beam cells. How
  // many ranks know each node's rotations, for share_rotations().
  rotations_ = system_.create_vector();
  {
    petsc::GhostedArray a(rotations_);
    std::ranges::fill(a.span(), 0.0);
    for (std::size_t n = 0; n < lm.rotation_of.size(); ++n)
      if (lm.rotation_of[n] >= 0) a[static_cast<PetscInt>(3 * n)] = 1;
  }
  INERTIA_PETSC(VecGhostUpdateBegin(rotations_, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(rotations_, ADD_VALUES, SCATTER_REVERSE));
  petsc::ConstArray known(rotations_);
  for (PetscInt i = 0; i < known.size(); i += 3) knowers_.push_back(known[i]);
}

void OutputSeries::share_rotations(std::vector<double>& values) {
  // The ranks that know a node's rotations add theirs into its owner, which takes their mean
  // (they are equal), and every copy of the node reads the owner's.
  {
    petsc::GhostedArray a(rotations_);
    INERTIA_CHECK(values.size() == static_cast<std::size_t>(a.size()), InternalError,
                  "output: rotations of ", values.size() / 3, " nodes for ", a.size() / 3);
    const auto& rotation_of = system_.mesh().rotation_of;
    for (std::size_t i = 0; i < values.size(); ++i)
      a[static_cast<PetscInt>(i)] = rotation_of[i / 3] >= 0 ? values[i] : 0.0;
  }
  INERTIA_PETSC(VecGhostUpdateBegin(rotations_, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(rotations_, ADD_VALUES, SCATTER_REVERSE));
  {
    petsc::Array a(rotations_);
    for (PetscInt i = 0; i < a.size(); ++i)
      if (const double k = knowers_[static_cast<std::size_t>(i / 3)]; k > 1) a[i] /= k;
  }
  const petsc::GhostedRead shared(rotations_);  // the ghosts from their owners
  values.assign(shared.span().begin(), shared.span().end());
}

std::int64_t OutputSeries::write_frame(double time) {
  if (drop_rotations_) {
    // The point fields at the drawn nodes only (the rotation nodes' values are in `rotation` &c.).
    compact_.resize(point_fields_.size());
    for (std::size_t i = 0; i < point_fields_.size(); ++i) {
      io::Field& f = point_fields_[i];
      INERTIA_CHECK(f.int_values.empty(), InternalError, "output: integer point field ", f.name);
      const auto n = static_cast<std::size_t>(f.components);
      std::vector<double>& to = compact_[i];
      to.resize(shown_.size() * n);
      for (std::size_t p = 0; p < shown_.size(); ++p)
        std::copy_n(&f.values[static_cast<std::size_t>(shown_[p]) * n], n, &to[p * n]);
      f.values = to;
    }
  }
  if (xdmf_) return xdmf_->write(time, point_fields_, cell_fields_);
  const io::PieceMesh piece{piece_coords(), types_, offsets_, nodes_};
  return vtk_->write(time, piece, point_fields_, cell_fields_);
}

void OutputSeries::add_rotations(const std::string& name, std::span<const double> local,
                                 std::vector<double>& buffer) {
  if (!drop_rotations_) return;  // no beams: no rotations
  rotations_at_nodes(local, system_.mesh().rotation_of, buffer);
  share_rotations(buffer);
  point_fields_.push_back({name, 3, buffer, {}});
}

void OutputSeries::write_point_field(double time, const char* name, Vec x) {
  point_fields_.clear();
  cell_fields_.clear();
  std::vector<double>& values = mode_values_;
  {
    petsc::GhostedRead local(x);
    values.assign(local.span().begin(), local.span().end());
  }
  point_fields_.push_back({name, 3, values, {}});
  add_rotations("rotation", values, mode_rotations_);
  bytes_ += write_frame(time);
}

void OutputSeries::write_fields(
    double time, const std::vector<std::pair<std::string, Vec>>& points,
    const std::vector<std::pair<std::string, const std::vector<double>*>>& cells) {
  point_fields_.clear();
  cell_fields_.clear();
  field_values_.resize(2 * points.size() + cells.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    petsc::GhostedRead local(points[i].second);
    field_values_[i].assign(local.span().begin(), local.span().end());
    point_fields_.push_back({points[i].first, 3, field_values_[i], {}});
  }
  for (std::size_t i = 0; i < points.size(); ++i)  // after the translations' arrays
    add_rotations(rotation_name(points[i].first), field_values_[i],
                  field_values_[points.size() + cells.size() + i]);
  const auto local_cells =
      static_cast<std::size_t>(std::max<std::int64_t>(system_.mesh().num_cells(), 1));
  for (std::size_t a = 0; a < cells.size(); ++a) {
    auto& buffer = field_values_[points.size() + a];
    buffer.clear();
    const std::size_t n = cells[a].second->size() / local_cells;  // components per cell
    for (const auto k : cells_) {
      const auto* v = &(*cells[a].second)[n * static_cast<std::size_t>(k)];
      buffer.insert(buffer.end(), v, v + n);
    }
    cell_fields_.push_back({cells[a].first, static_cast<int>(n), buffer, {}});
  }
  bytes_ += write_frame(time);
}

}  // namespace inertia
