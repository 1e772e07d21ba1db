// Beams meeting solids without a coupling (beam_joints.hpp).
#include "inertia/app/beam_joints.hpp"

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/core/text.hpp"
#include "inertia/system/couplings.hpp"

namespace inertia {

namespace {

/// Marks the nodes of the cells of region `name` (nothing for an unknown name: the case's
/// checks report it).
void mark_region_nodes(const MeshData& mesh, const std::string& name, std::vector<char>& mark) {
  const int r = mesh.find_region(name);
  if (r < 0) return;
  for (std::int64_t k = 0; k < mesh.num_cells(); ++k)
    if (mesh.cell_regions[static_cast<std::size_t>(k)] == r)
      for (const std::int64_t n : mesh.nodes_of(k)) mark[static_cast<std::size_t>(n)] = 1;
}

}  // namespace

std::vector<std::string> beam_joint_warnings(const CaseFile& c, const MeshData& mesh,
                                             const std::vector<char>& is_element) {
  const auto nodes = static_cast<std::size_t>(mesh.num_nodes());
  std::vector<char> beam(nodes, 0), solid(nodes, 0), held(nodes, 0);
  std::vector<std::int32_t> beam_region(nodes, -1);
  bool any_beam = false;
  for (std::int64_t k = 0; k < mesh.num_cells(); ++k) {
    const auto cell = mesh.nodes_of(k);
    if (mesh.cell_types[static_cast<std::size_t>(k)] == CellType::beam2) {
      any_beam = true;
      for (int a = 0; a < 2; ++a) {  // the translation nodes; [2], [3] are the rotation nodes
        beam[static_cast<std::size_t>(cell[a])] = 1;
        beam_region[static_cast<std::size_t>(cell[a])] =
            mesh.cell_regions[static_cast<std::size_t>(k)];
      }
    } else if (is_element[static_cast<std::size_t>(k)] &&
               info(mesh.cell_types[static_cast<std::size_t>(k)]).dim == 3) {
      for (const std::int64_t n : cell) solid[static_cast<std::size_t>(n)] = 1;
    }
  }
  if (!any_beam) return {};
  // What carries a moment there: a coupling's reference node, or a condition on all rotations.
  if (const auto it = c.term_sections.find("couplings"); it != c.term_sections.end())
    if (const auto* s = dynamic_cast<const CouplingSection*>(it->second.get()))
      for (const CouplingInput& in : s->couplings) {
        mark_region_nodes(mesh, in.node, held);
        mark_region_nodes(mesh, in.edge, held);
      }
  for (const CaseBoundaryCondition& bc : c.boundary_conditions)
    if (bc.type->prescribes_motion && bc.rotations[0] && bc.rotations[1] && bc.rotations[2])
      mark_region_nodes(mesh, bc.region, held);
  std::int64_t count = 0;
  std::size_t first = nodes;
  for (std::size_t n = 0; n < nodes; ++n)
    if (beam[n] && solid[n] && !held[n]) {
      if (count++ == 0) first = n;
    }
  if (count == 0) return {};
  return {cat(printable(c.path.string()), ": ", count, count == 1 ? " beam node" : " beam nodes",
              " (the first: node ", mesh.node_tags[first], " at (", g3(mesh.coords[3 * first]),
              ", ", g3(mesh.coords[3 * first + 1]), ", ", g3(mesh.coords[3 * first + 2]),
              "), region '",
              printable(mesh.regions[static_cast<std::size_t>(beam_region[first])].name),
              "') also belong to solid cells, which give a node no rotational stiffness: each such "
              "joint transmits forces but no moment (a hinge); to weld the beam to the solid, "
              "couple the node to a face region (couplings: [{node, surface, type: rigid}])")};
}

}  // namespace inertia
