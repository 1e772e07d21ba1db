#include "inertia/app/model.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "inertia/mesh/box.hpp"
#include "inertia/mesh/gmsh_reader.hpp"
#include "inertia/mesh/topology.hpp"
#include "inertia/parallel/session.hpp"

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
  try {
    check_cell_quality(mesh);
  } catch (const InputError& e) {
    throw InputError(cat(source, ": ", e.what()));
  }
  orient_faces(mesh);
  return mesh;
}

namespace {

/// Every volume region of the mesh needs a material, or its cells would silently vanish.
void check_volumes_have_materials(const CaseFile& c, const MeshData& mesh) {
  std::vector<char> used(mesh.regions.size(), 0), has_material(mesh.regions.size(), 0);
  for (std::int64_t k = 0; k < mesh.num_cells(); ++k)
    if (info(mesh.cell_types[k]).dim == 3 && mesh.cell_regions[k] >= 0) used[mesh.cell_regions[k]] = 1;
  for (const auto& m : c.materials) {
    const int r = mesh.find_region(m.region);
    if (r >= 0) has_material[r] = 1;
  }
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (used[r] && !has_material[r])
      throw InputError(cat(c.path.string(), ": materials: volume region '", mesh.regions[r].name,
                           "' has no material"));
}

std::string cell_summary(const MeshData& mesh) {
  std::map<std::string_view, std::int64_t> counts;
  for (auto t : mesh.cell_types) ++counts[info(t).name];
  std::string out;
  for (const auto& [name, n] : counts) out += cat(out.empty() ? "" : ", ", n, " ", name);
  return out;
}

}  // namespace

Model build_model(MPI_Comm comm, const CaseFile& c, Phases* phases) {
  Phases local_phases;
  Phases& ph = phases ? *phases : local_phases;
  Model model;
  MeshData mesh;
  std::vector<char> is_element;
  {
    Phases::Scope scope(ph, "mesh");
    run_on_root(comm, [&] {
      mesh = load_mesh(c);
      add_edge_springs(c, mesh);
      // Region names in the case must exist in the mesh (checked before any parallel work).
      resolve_problem(c, mesh.regions);
      check_volumes_have_materials(c, mesh);
      is_element = element_cells(c, mesh);
      INERTIA_CHECK(std::count(is_element.begin(), is_element.end(), 1) > 0, InputError,
                    c.path.string(),
                    ": no mesh cell has a material, a spring or a point mass: check the regions");
      model.mesh_summary = cat(mesh.num_nodes(), " nodes, ", cell_summary(mesh));
    });
  }
  LocalMesh local;
  {
    Phases::Scope scope(ph, "partition");
    local = distribute(comm, mesh, is_element, c.partitioner, &model.partition);
    mesh = MeshData{};
  }
  ProblemSpec spec = resolve_problem(c, local.regions);
  {
    Phases::Scope scope(ph, "assemble");
    model.system = std::make_unique<MechanicalSystem>(comm, std::move(local), std::move(spec));
  }
  return model;
}

}  // namespace inertia
