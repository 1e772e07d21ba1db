#include "inertia/app/model.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "inertia/app/beam_joints.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/core/interrupt.hpp"
#include "inertia/core/text.hpp"
#include "inertia/mesh/box.hpp"
#include "inertia/mesh/gmsh_reader.hpp"
#include "inertia/mesh/topology.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

MeshData load_mesh(const CaseFile& c) {
  MeshData mesh;
  std::string source;
  if (c.mesh_file) {
    source = c.mesh_file->string();
    mesh = read_gmsh(*c.mesh_file);
  } else {
    source = "mesh.box";
    mesh = generate_box(*c.box);
  }
  // Rank 0 alone (run_on_root makes the stop collective): its own signal stops it here.
  throw_if_interrupted(cat("while checking ", printable(source)));
  try {
    check_cell_quality(mesh);
  } catch (const InputError& e) {
    throw InputError(cat(printable(source), ": ", e.what()));
  }
  throw_if_interrupted(cat("while checking ", printable(source)));
  orient_faces(mesh);
  return mesh;
}

namespace {

/// Every volume region of the mesh needs a material, or its cells would silently vanish.
void check_volumes_have_materials(const CaseFile& c, const MeshData& mesh) {
  std::vector<char> used(mesh.regions.size(), 0), has_material(mesh.regions.size(), 0);
  for (std::int64_t k = 0; k < mesh.num_cells(); ++k)
    if (info(mesh.cell_types[k]).dim == 3 && mesh.cell_regions[k] >= 0)
      used[mesh.cell_regions[k]] = 1;
  for (const auto& m : c.materials) {
    const int r = mesh.find_region(m.region);
    if (r >= 0) has_material[r] = 1;
  }
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (used[r] && !has_material[r])
      throw InputError(cat(printable(c.path.string()), ": materials: volume region '",
                           excerpt(mesh.regions[r].name), "' has no material"));
}

std::string cell_summary(const MeshData& mesh) {
  std::map<std::string_view, std::int64_t> counts;
  for (auto t : mesh.cell_types) ++counts[info(t).name];
  std::string out;
  for (const auto& [name, n] : counts) out += cat(out.empty() ? "" : ", ", n, " ", name);
  return out;
}

}  // namespace

namespace {

/// A box without cloth springs (which add cells along surface edges) is generated per rank.
bool generate_per_rank(MPI_Comm comm, const CaseFile& c) {
  if (!c.box || c.partitioner == Partitioner::block) return false;
  for (const auto& s : c.springs)
    if (s.edges_of_surface) return false;
  return box_process_grid(c.box->cells, size_of(comm)).has_value();
}

/// Checks the case against a mesh (or a rank's block of the box): the regions the case names
/// exist, every volume region has a material. Returns which cells are elements.
std::vector<char> check_and_mark_elements(const CaseFile& c, const MeshData& mesh,
                                          bool whole_mesh) {
  // Only the whole mesh can tell an empty region (a rank's block of the box may miss one).
  std::vector<std::int64_t> cells_per_region;
  if (whole_mesh) {
    cells_per_region.assign(mesh.regions.size(), 0);
    for (const auto r : mesh.cell_regions)
      if (r >= 0) ++cells_per_region[r];
  }
  resolve_problem(c, mesh.regions, cells_per_region);
  check_volumes_have_materials(c, mesh);
  return element_cells(c, mesh);
}

LocalMesh read_and_distribute(MPI_Comm comm, const CaseFile& c, Phases& ph, Model& model);

/// Collective. Whether the split exists, as rank 0 sees it: every rank takes the same path (ranks
/// on file systems that disagree would otherwise wait for each other in different collectives;
/// a rank that cannot read the split then fails in read_split, on every rank).
bool split_exists(MPI_Comm comm, const std::filesystem::path& split) {
  int exists = rank_of(comm) == 0 && std::filesystem::exists(split) ? 1 : 0;
  INERTIA_MPI(MPI_Bcast(&exists, 1, MPI_INT, 0, comm));
  return exists != 0;
}

/// What a split depends on besides the rank count, as fields separated by "; ": the mesh file
/// (its name, size and a hash of its content), the partitioner, and the regions the case makes
/// elements of (materials, springs, point masses). A run refuses a split whose stamp differs from
/// its case's. The content hash reads the whole mesh file (1-2 GB/s from the page cache): call
/// this only when a split is made or used, and on one rank.
std::string split_stamp(const CaseFile& c) {
  const std::filesystem::path& mesh = *c.mesh_file;
  const std::uint64_t content = hash_file(mesh);  // IoError naming the file if it cannot be read
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(mesh, ec);
  std::ostringstream s;
  s << "mesh " << mesh.filename().string() << "; mesh size " << (ec ? 0 : size)
    << " bytes; mesh content xxh3 " << hex64(content) << "; partitioner "
    << (c.partitioner == Partitioner::metis ? "metis" : "block") << "; materials";
  for (const auto& m : c.materials) s << " " << m.region;
  s << "; springs";
  for (const auto& sp : c.springs) s << " " << sp.region << (sp.edges_of_surface ? " (edges)" : "");
  s << "; point masses";
  for (const auto& p : c.point_masses) s << " " << p.region;
  if (const auto beams = c.term_sections.find("sections"); beams != c.term_sections.end())
    s << "; sections " << beams->second->source;  // beams: rotation nodes
  return s.str();
}

/// What differs between the stamp a split was made with and the one its case has now: the first
/// field that differs.
std::string stamp_change(const std::string& made, const std::string& now) {
  const auto fields = [](const std::string& stamp) {
    std::vector<std::string> out;
    for (std::size_t at = 0;;) {
      const std::size_t end = stamp.find("; ", at);
      out.push_back(stamp.substr(at, end - at));
      if (end == std::string::npos) return out;
      at = end + 2;
    }
  };
  const auto then = fields(made), today = fields(now);
  for (std::size_t k = 0; k < std::max(then.size(), today.size()); ++k) {
    const std::string a = k < then.size() ? then[k] : "", b = k < today.size() ? today[k] : "";
    if (a == b) continue;
    if (a.starts_with("mesh content") && b.starts_with("mesh content"))
      return cat("the content of ", today[0].substr(5), " changed: ", a.substr(13), " when split, ",
                 b.substr(13), " now");
    return cat(a.empty() ? "nothing" : a, " when split, ", b.empty() ? "nothing" : b, " now");
  }
  return "the same";
}

/// A mesh where nothing has mass: says which regions the mesh has, of which dimension, and
/// (for a mesh without volumes) that a volume mesh is needed.
void require_elements(const CaseFile& c, const std::vector<Region>& mesh_regions,
                      std::int64_t count) {
  if (count > 0) return;
  std::string regions;
  int max_dim = -1;
  for (const auto& r : mesh_regions) {
    regions += cat(regions.empty() ? "" : ", ", excerpt(r.name), " (", r.dim, "D)");
    max_dim = std::max(max_dim, r.dim);
  }
  throw InputError(
      cat(printable(c.path.string()),
          ": no mesh cell has a material, a spring or a point mass; the mesh's regions: ",
          regions.empty() ? "none" : regions,
          max_dim < 3 ? "; the mesh has no volume cells: materials need a volume mesh (gmsh -3)"
                      : "; materials need 3D regions"));
}

/// The elements over all ranks, from the partition summary.
std::int64_t total_elements(const PartitionSummary& p) {
  std::int64_t elements = 0;
  for (auto e : p.elements_per_rank) elements += e;
  return elements;
}

/// Serial. Reads the case's mesh, adds the edge springs, checks it against the case and marks its
/// element cells (is_element); returns the log's summary of nodes and cells, and the mesh's
/// set-up warnings in `warnings` if given.
std::string read_checked_mesh(const CaseFile& c, MeshData& mesh, std::vector<char>& is_element,
                              std::vector<std::string>* warnings = nullptr) {
  mesh = load_mesh(c);
  add_edge_springs(c, mesh);
  prepare_mesh_data(c.term_sections, mesh);  // beams: rotation nodes
  // Region names in the case must exist in the mesh (checked before any parallel work).
  is_element = check_and_mark_elements(c, mesh, true);
  require_elements(c, mesh.regions, std::count(is_element.begin(), is_element.end(), 1));
  if (warnings) *warnings = beam_joint_warnings(c, mesh, is_element);
  return cat(mesh.num_nodes(), " nodes, ", cell_summary(mesh));
}

/// Collective. A material whose formulation (bbar, reduced: hex8 only) its region's cells do not
/// have: one InputError line, on every rank, naming the material's line and key.
void check_formulations(MPI_Comm comm, const CaseFile& c, const LocalMesh& local) {
  for (const auto& m : c.materials) {
    const fe::Formulation f = m.material.technology.formulation;
    if (f == fe::Formulation::full) continue;
    int region = -1;
    for (std::size_t r = 0; r < local.regions.size(); ++r)
      if (local.regions[r].name == m.region) region = static_cast<int>(r);
    int lacking = -1;  // the largest cell type of the region without the formulation
    for (std::int64_t e = 0; e < local.num_cells(); ++e)
      if (local.cell_regions[e] == region && info(local.cell_types[e]).dim == 3 &&
          !fe::available(f, local.cell_types[e]))
        lacking = std::max(lacking, static_cast<int>(local.cell_types[e]));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &lacking, 1, MPI_INT, MPI_MAX, comm));
    if (lacking >= 0)
      throw InputError(cat(printable(c.path.string()), ":", m.origin.line, ": ", m.origin.key,
                           ".formulation: ", fe::name(f),
                           " is available for hex8 cells only, and region '", printable(m.region),
                           "' has ", info(static_cast<CellType>(lacking)).name,
                           " cells; use formulation: full there (tet10 does not lock), or mesh "
                           "it with hex8"));
  }
}

}  // namespace

Model build_model(MPI_Comm comm, const CaseFile& c, Phases* phases) {
  Phases local_phases;
  Phases& ph = phases ? *phases : local_phases;
  Model model;
  LocalMesh local;
  if (generate_per_rank(comm, c)) {
    // Each rank generates, checks and numbers its own block of the box: no rank-0 mesh.
    {
      Phases::Scope scope(ph, "mesh");
      local = distribute_box(
          comm, *c.box,
          [&](const MeshData& block) { return check_and_mark_elements(c, block, false); },
          &model.partition);
    }
    stop_if_interrupted(comm, "during the set-up (after generating the mesh)");
    std::int64_t counts[2] = {0, 0};  // volume cells, boundary faces
    for (std::int64_t k = 0; k < local.num_cells(); ++k)
      ++counts[info(local.cell_types[k]).dim == 3 ? 0 : 1];
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, comm));
    require_elements(c, local.regions, total_elements(model.partition));
    const CellType face = info(c.box->element).face_type;
    model.mesh_summary =
        cat(local.num_global_nodes, " nodes, ", counts[0], " ", info(c.box->element).name, ", ",
            counts[1], " ", info(face).name, " (generated in parallel)");
  } else if (const auto split =
                 c.mesh_file ? split_path(c, size_of(comm)) : std::filesystem::path();
             !split.empty() && split_exists(comm, split)) {
    // `inertia --split N` made this: each rank reads its own share, no rank holds the mesh.
    Phases::Scope scope(ph, "mesh");
    std::string stamp;
    local = read_split(comm, split, &model.partition, &stamp);
    stop_if_interrupted(comm, "during the set-up (after reading the split)");
    // The stamp is the same on every rank (its checksum was verified): rank 0 hashes the mesh.
    run_on_root(comm, [&] {
      const std::string expected = split_stamp(c);
      INERTIA_CHECK(stamp == expected, InputError, printable(split.string()),
                    " was made from another mesh or case (", stamp_change(stamp, expected),
                    "); make it again with inertia --split ", size_of(comm), " ",
                    printable(c.path.filename().string()), ", or remove it");
    });
    const std::int64_t elements = total_elements(model.partition);
    require_elements(c, local.regions, elements);
    model.mesh_summary =
        cat(local.num_global_nodes, " nodes, ", elements, " elements (each rank read its share of ",
            split.filename().string(), ")");
  } else {
    local = read_and_distribute(comm, c, ph, model);
  }
  check_formulations(comm, c, local);
  ProblemSpec spec = resolve_problem(c, local.regions);
  {
    Phases::Scope scope(ph, "assemble");
    model.system = std::make_unique<MechanicalSystem>(comm, std::move(local), std::move(spec));
  }
  return model;
}

std::filesystem::path split_path(const CaseFile& c, int ranks) {
  return c.directory / cat(c.name, ".p", ranks, ".split");
}

std::string split_mesh(MPI_Comm comm, const CaseFile& c, int ranks) {
  INERTIA_CHECK(c.mesh_file, InputError, printable(c.path.string()),
                ": --split is for meshes read from a file (mesh.file); a mesh.box is generated "
                "on every rank already");
  std::string summary;
  run_on_root(comm, [&] {
    MeshData mesh;
    std::vector<char> is_element;
    const std::string cells = read_checked_mesh(c, mesh, is_element);
    throw_if_interrupted("during --split (after reading the mesh)");
    const CellPartition partition = partition_elements(mesh, is_element, ranks, c.partitioner);
    throw_if_interrupted("during --split (after partitioning the mesh)");
    const auto file = split_path(c, ranks);
    PartitionSummary parts;
    const std::uint64_t bytes =
        write_split(file, mesh, is_element, partition, ranks, split_stamp(c), &parts);
    std::int64_t largest = 0;
    for (auto e : parts.elements_per_rank) largest = std::max(largest, e);
    summary = cat(cells, " split for ", ranks, " ranks (", parts.method, ", at most ", largest,
                  " elements per rank) into ", file.string(), " (", bytes / 1000000.0,
                  " MB); run it with mpirun -n ", ranks, " inertia ", c.path.filename().string());
  });
  return summary;
}

namespace {

/// Rank 0 reads (or generates) the whole mesh and checks it; METIS (or block) partitions it and
/// one scatter distributes it.
LocalMesh read_and_distribute(MPI_Comm comm, const CaseFile& c, Phases& ph, Model& model) {
  MeshData mesh;
  std::vector<char> is_element;
  {
    Phases::Scope scope(ph, "mesh");
    run_on_root(comm, [&] {
      model.mesh_summary = read_checked_mesh(c, mesh, is_element, &model.mesh_warnings);
    });
  }
  stop_if_interrupted(comm, "during the set-up (after reading the mesh)");
  LocalMesh local;
  CellPartition partition;
  {
    Phases::Scope scope(ph, "partition");
    run_on_root(comm, [&] {
      partition = partition_elements(mesh, is_element, size_of(comm), c.partitioner);
    });
  }
  stop_if_interrupted(comm, "during the set-up (after partitioning the mesh)");
  {
    Phases::Scope scope(ph, "distribute");
    local = distribute(comm, mesh, is_element, partition, &model.partition);
    mesh = MeshData{};
  }
  stop_if_interrupted(comm, "during the set-up (after distributing the mesh)");
  return local;
}

}  // namespace

}  // namespace inertia
