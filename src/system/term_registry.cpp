// The kinds of force terms, one row each (force_term.hpp): a new kind is one file defining
// its term class and build function, plus one row here (name, summary, example, functions).
#include <array>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/system/beams.hpp"
#include "inertia/system/couplings.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/rigid_bodies.hpp"
#include "inertia/system/shells.hpp"

namespace inertia {

namespace {

constexpr std::array rows{
    ForceTermEntry{{"materials",
                    "solids: one term per material region, its kinematics x its constitutive "
                    "model (materials[].model and its keys: see the models below); hex8 "
                    "formulation: full | bbar | reduced (hourglass: 0.05) | fbar (hencky)",
                    "materials:\n  - {region: all, density: 7850, youngs_modulus: 2.1e11, "
                    "poissons_ratio: 0.3, formulation: bbar}"},
                   build_solid_terms},
    ForceTermEntry{{"springs", "springs along their current axis, with an optional dashpot",
                    "springs:\n  - {region: xmax, edges_of: surface, stiffness: 2.0e6, damping: "
                    "0.5}"},
                   build_spring_terms},
    ForceTermEntry{{"point_masses", "a mass at every node of a region",
                    "point_masses:\n  - {region: xmax, mass: 2.0}"},
                   build_point_mass_terms},
    ForceTermEntry{{"boundary_conditions",
                    "loads: gravity, traction, pressure, force, each "
                    "scaled by its amplitude",
                    "boundary_conditions:\n  - {region: xmin, type: fixed}\n  - {region: xmax, "
                    "type: pressure, value: 1.0e5, amplitude: ramp}\namplitudes: {ramp: {type: "
                    "table, points: [[0, 0], [1.0e-4, 1]]}}\ngravity: {value: [0, 0, -9.81]}"},
                   build_load_terms},
    ForceTermEntry{{"contact",
                    "rigid walls (plane, sphere, cylinder) that the nodes of a region of "
                    "boundary faces (or of a volume: its skin) may not pass, and pairs of such "
                    "regions (or one) that may not pass each other (penalty, Coulomb friction; "
                    "initial_penetration: error | move | ignore; eroding: true | false (element "
                    "erosion: uncovered faces join a volume's skin); drop weights: a wall with a "
                    "mass and an initial_velocity, central difference; any scheme; augmented "
                    "Lagrangian iterations under implicit schemes and static: augmented: "
                    "{tolerance: m, iterations: 10})",
                    "contact: {walls: [{name: floor, region: zmin, plane: {point: [0, 0, 0], "
                    "normal: [0, 0, 1]}}]}"},
                   build_contact_terms,
                   parse_contact_section,
                   prepare_contact_mesh},
    ForceTermEntry{{"rigid_bodies",
                    "rigid bodies: volume regions that move with six degrees of freedom (their "
                    "density from materials, the mass and inertia from their cells and the nodes "
                    "welded to them); initial_velocity, initial_angular_velocity (rad/s about the "
                    "centre of mass), fixed: [x, y, z, rx, ry, rz], velocity: {x: ..., rz: ..., "
                    "amplitude: name}; central difference with a lumped mass; rigid_bodies.csv",
                    "rigid_bodies:\n  - {region: all, initial_angular_velocity: [0, 0, 10], "
                    "fixed: [x, y, z]}\nboundary_conditions:\n  - {region: xmax, type: force, "
                    "value: [0, 0, -1000]}\ntime: {integrator: central_difference, mass: lumped, "
                    "dt: 1.0e-5, steps: 3}"},
                   build_rigid_terms,
                   parse_rigid_section},
    ForceTermEntry{{"sections",
                    "beams: the line cells of a 1D region with a section (shape: rectangle "
                    "{width, height}, circle {diameter}, tube {diameter, wall_thickness}, i "
                    "{height, flange_width, flange_thickness, web_thickness}; or area, iy, iz, "
                    "torsion, shear_area_y, shear_area_z), orientation (the local y axis), theory: "
                    "timoshenko | euler_bernoulli; kinematics: linear | corotational; releases: "
                    "[{nodes: point group(s), moments: [t, my, mz]}] (hinges: those beam ends "
                    "transmit no such moment); their nodes get rotations rx, ry, rz",
                    "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, "
                    "density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - "
                    "{region: beam, shape: {type: i, height: 0.3, flange_width: 0.15, "
                    "flange_thickness: 0.0107, web_thickness: 0.0071}, orientation: [0, 1, 0]}\n"
                    "boundary_conditions:\n  - {region: root, type: fixed}\n  - {region: tip, "
                    "type: force, value: [0, 0, -1000]}"},
                   build_beam_terms,
                   parse_beam_section,
                   nullptr,
                   prepare_beam_mesh_data},
    ForceTermEntry{{"shells",
                    "shells: the quadrilaterals (MITC4), triangles and curved 8-node "
                    "quadrilaterals (quad8: linear kinematics, static/implicit/modal; plastic "
                    "ones static/implicit) of a 2D region with a thickness; their material from "
                    "materials: (linear_elastic, with or without plasticity: J2 in plane stress "
                    "through the thickness, corotational on 4-node shells, linear on quad8); "
                    "kinematics: linear | corotational; integration: simpson | lobatto | gauss "
                    "and integration_points (5) through the thickness of plastic shells; "
                    "drilling: the drilling penalty's factor (1: G t), shear_factor (5/6); "
                    "offset: top | middle | bottom | a length (the nodes' surface above the "
                    "mid-surface); "
                    "formulation: mitc4 | belytschko_tsay (one point with hourglass control, "
                    "corotational, explicit runs only; hourglass: 0.1); their nodes get "
                    "rotations rx, ry, rz",
                    "mesh: {file: meshes/shell_plate_4.msh}\nmaterials:\n  - {region: plate, "
                    "density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nshells:\n  - "
                    "{region: plate, thickness: 0.01}\nboundary_conditions:\n  - {region: "
                    "edges, type: fixed}\n  - {region: plate, type: pressure, value: 1000}"},
                   build_shell_terms,
                   parse_shell_section,
                   nullptr,
                   prepare_shell_mesh_data},
    ForceTermEntry{
        {"couplings",
         "rigid couplings of a beam node (node: a point region), or of a shell's or beam's "
         "edge (edge: a line region, each node leading the surface's nodes nearest to it), "
         "to a face region (surface): its nodes follow the node's translations and "
         "rotations, u_a = u_n + theta_n x (x_a - x_n) (small rotations), by a penalty of "
         "`penalty` (1000) times the largest stiffness diagonal there; type: rigid",
         "mesh: {file: meshes/beam_on_block.msh}\nmaterials:\n  - {region: block, "
         "density: 2000, youngs_modulus: 1.0e9, poissons_ratio: 0.3}\n  - {region: "
         "beam, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n"
         "  - {region: beam, shape: {type: rectangle, width: 0.1, height: 0.1}}\n"
         "couplings:\n  - {name: weld, node: beam_end, surface: block_top, type: rigid}\n"
         "boundary_conditions:\n  - {region: block_base, type: fixed}\n  - {region: "
         "tip, type: force, value: [1000, 0, 0]}"},
        build_coupling_terms,
        parse_coupling_section},
};

std::vector<ForceTermEntry>& all_entries() {
  static std::vector<ForceTermEntry> all(rows.begin(), rows.end());
  return all;
}

}  // namespace

Registry<ForceTermEntry> force_terms() { return {"force term kind", all_entries()}; }

void register_force_term(const ForceTermEntry& entry) {
  INERTIA_CHECK(!force_terms().find(entry.name), Error, "force term kind '", entry.name,
                "' is registered twice");
  INERTIA_CHECK(entry.build, Error, "force term kind '", entry.name, "' has no build function");
  all_entries().push_back(entry);
}

const ForceTermEntry* force_term_section(std::string_view name) {
  const ForceTermEntry* e = force_terms().find(name);
  return e && e->parse ? e : nullptr;
}

void prepare_mesh_data(const TermSections& sections, MeshData& mesh) {
  for (const auto& e : all_entries())
    if (e.prepare_mesh_data)
      if (const auto it = sections.find(e.name); it != sections.end())
        e.prepare_mesh_data(*it->second, mesh);
}

void prepare_mesh(const TermInputs& in, LocalMesh& mesh) {
  for (const auto& e : all_entries())
    if (e.prepare) e.prepare(in, mesh);
}

std::vector<std::unique_ptr<ForceTerm>> build_force_terms(const TermInputs& in) {
  std::vector<std::unique_ptr<ForceTerm>> terms;
  for (const auto& e : all_entries()) e.build(in, terms);
  return terms;
}

}  // namespace inertia
