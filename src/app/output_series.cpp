#include "inertia/app/output_series.hpp"

#include "inertia/parallel/session.hpp"

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

}  // namespace

OutputSeries::OutputSeries(MPI_Comm comm, const CaseFile& c, const MechanicalSystem& system,
                           std::optional<double> resume_up_to, const std::string& name)
    : case_(c), system_(system) {
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
  for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
    const bool face = info(lm.cell_types[k]).dim == 2 && lm.cell_regions[k] >= 0 &&
                      shown_faces[lm.cell_regions[k]];
    if (!lm.cell_is_element[k] && !face) continue;
    cells_.push_back(k);
    types_.push_back(lm.cell_types[k]);
    for (auto n : lm.nodes_of(k)) nodes_.push_back(n);
    offsets_.push_back(static_cast<std::int64_t>(nodes_.size()));
    rank_.push_back(rank);
    region_.push_back(lm.regions[lm.cell_regions[k]].tag);
  }
  if (c.output_format == OutputFormat::xdmf) {
    std::vector<std::int64_t> keys;
    keys.reserve(cells_.size());
    for (auto k : cells_) keys.push_back(lm.cell_tags[k]);
    const std::vector<std::int64_t> natural = local_natural_ids(comm, lm);
    xdmf_ = std::make_unique<io::XdmfSeriesWriter>(
        comm, c.output_directory, series,
        io::NaturalPieceMesh{{lm.coords, types_, offsets_, nodes_},
                             lm.num_owned,
                             lm.num_global_nodes,
                             natural,
                             keys},
        resume_up_to);
  }
  point_values_.resize(4);
  // Uncompressed size of a frame: coordinates and point fields (float64 per node of the piece),
  // cell fields, connectivity, offsets and types. The compressed pieces are at most this (zlib
  // adds a few bytes per block), usually several times less.
  const auto points = static_cast<std::int64_t>(lm.coords.size() / 3);
  std::int64_t point_fields = 0;
  for (const char* f : {"displacement", "velocity", "acceleration", "reaction"})
    point_fields += c.has_field(f);
  std::int64_t point_bytes = 24 * (1 + point_fields);  // the coordinates and the vectors
  if (c.has_field("nodal_von_mises")) point_bytes += 8;
  if (c.has_field("nodal_stress")) point_bytes += 48;
  if (c.has_field("nodal_strain")) point_bytes += 48;
  std::int64_t cell_bytes = 0;
  if (c.has_field("von_mises")) cell_bytes += 8;
  if (c.has_field("stress")) cell_bytes += 48;
  if (c.has_field("strain")) cell_bytes += 48;
  if (c.has_field("rank")) cell_bytes += 4;
  if (c.has_field("region")) cell_bytes += 4;
  raw_bytes_per_frame_ = points * point_bytes +
                         static_cast<std::int64_t>(cells_.size()) * (cell_bytes + 8 + 1) +
                         static_cast<std::int64_t>(nodes_.size()) * 8;
  // XDMF: the owned nodes' fields and the cell fields (every cell field as Float64); the mesh is
  // written once, not per frame.
  if (xdmf_)
    raw_bytes_per_frame_ = lm.num_owned * (point_bytes - 24) +
                           static_cast<std::int64_t>(cells_.size()) *
                               (cell_bytes + 4 * (c.has_field("rank") + c.has_field("region")));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &raw_bytes_per_frame_, 1, MPI_INT64_T, MPI_SUM, comm));
}

void OutputSeries::add_point_field(const char* name, Vec x) {
  if (!x || !case_.has_field(name)) return;
  std::vector<double>& values = point_values_[point_fields_.size()];
  {
    petsc::GhostedRead local(x);
    values.assign(local.span().begin(), local.span().end());
  }
  point_fields_.push_back({name, 3, values, {}});
}

void OutputSeries::write(const State& state, Vec acceleration, Vec reaction) {
  point_fields_.clear();
  cell_fields_.clear();
  add_point_field("displacement", state.u);
  add_point_field("velocity", state.v);
  add_point_field("acceleration", acceleration);
  add_point_field("reaction", reaction);
  const bool nodal = case_.has_field("nodal_von_mises") || case_.has_field("nodal_stress") ||
                     case_.has_field("nodal_strain");
  const bool stresses = nodal || case_.has_field("von_mises") || case_.has_field("stress") ||
                        case_.has_field("strain");
  if (stresses) {
    system_.assembler().cell_stress(state.u, stress_);
    if (nodal) system_.assembler().nodal_average(stress_, nodal_);
    von_mises_.clear();
    stress_values_.clear();
    strain_values_.clear();
    for (auto k : cells_) {
      von_mises_.push_back(stress_.von_mises[k]);
      stress_values_.insert(stress_values_.end(), &stress_.stress[6 * k],
                            &stress_.stress[6 * k] + 6);
      strain_values_.insert(strain_values_.end(), &stress_.strain[6 * k],
                            &stress_.strain[6 * k] + 6);
    }
  }
  if (case_.has_field("nodal_von_mises"))
    point_fields_.push_back({"nodal_von_mises", 1, nodal_.von_mises, {}});
  if (case_.has_field("nodal_stress"))
    point_fields_.push_back({"nodal_stress", 6, nodal_.stress, {}});
  if (case_.has_field("nodal_strain"))
    point_fields_.push_back({"nodal_strain", 6, nodal_.strain, {}});
  if (case_.has_field("von_mises")) cell_fields_.push_back({"von_mises", 1, von_mises_, {}});
  if (case_.has_field("stress")) cell_fields_.push_back({"stress", 6, stress_values_, {}});
  if (case_.has_field("strain")) cell_fields_.push_back({"strain", 6, strain_values_, {}});
  if (case_.has_field("rank")) cell_fields_.push_back({"rank", 1, {}, rank_});
  if (case_.has_field("region")) cell_fields_.push_back({"region", 1, {}, region_});
  bytes_ += write_frame(state.time);
}

std::int64_t OutputSeries::write_frame(double time) {
  if (xdmf_) return xdmf_->write(time, point_fields_, cell_fields_);
  const io::PieceMesh piece{system_.mesh().coords, types_, offsets_, nodes_};
  return vtk_->write(time, piece, point_fields_, cell_fields_);
}

void OutputSeries::write_point_field(double time, const char* name, Vec x) {
  point_fields_.clear();
  cell_fields_.clear();
  std::vector<double>& values = point_values_[0];
  {
    petsc::GhostedRead local(x);
    values.assign(local.span().begin(), local.span().end());
  }
  point_fields_.push_back({name, 3, values, {}});
  bytes_ += write_frame(time);
}

}  // namespace inertia
