#include "inertia/app/output_fields.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "inertia/core/text.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/parallel/petsc.hpp"

namespace inertia {

namespace {

// ---- frames: an array over the piece ----

/// A ghosted vector's local values (owned, then ghosts): 3 per node.
bool copy_vector(Vec x, std::vector<double>& buffer, io::Field& out) {
  if (!x) return false;
  petsc::GhostedRead local(x);
  buffer.assign(local.span().begin(), local.span().end());
  out.values = buffer;
  return true;
}

bool frame_displacement(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_vector(in.u, b, out);
}
bool frame_velocity(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_vector(in.v, b, out);
}
bool frame_acceleration(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_vector(in.acceleration, b, out);
}
bool frame_reaction(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_vector(in.reaction, b, out);
}

/// The rotations held at the beam nodes' rotation nodes of a ghosted vector, per node.
bool copy_rotations(const FrameInput& in, Vec x, std::vector<double>& buffer, io::Field& out) {
  if (!x) return false;
  petsc::GhostedRead local(x);
  rotations_at_nodes(local.span(), in.rotation_of, buffer);
  out.values = buffer;
  return true;
}

bool frame_rotation(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_rotations(in, in.u, b, out);
}
bool frame_angular_velocity(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_rotations(in, in.v, b, out);
}
bool frame_angular_acceleration(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_rotations(in, in.acceleration, b, out);
}
bool frame_reaction_moment(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return copy_rotations(in, in.reaction, b, out);
}

bool frame_contact_pressure(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  if (!in.contact_pressure) return false;
  petsc::GhostedRead local(in.contact_pressure);
  const auto p = local.span();
  b.resize(p.size() / 3);
  for (std::size_t n = 0; n < b.size(); ++n) b[n] = p[3 * n];
  out.values = b;
  return true;
}

/// The piece's cells' values of a per-cell array of n components.
bool gather_cells(const FrameInput& in, const std::vector<double>& all, int n,
                  std::vector<double>& buffer, io::Field& out) {
  buffer.clear();
  for (const auto k : in.cells) buffer.insert(buffer.end(), &all[n * k], &all[n * k] + n);
  out.values = buffer;
  return true;
}

bool frame_von_mises(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return gather_cells(in, in.cell_stress->von_mises, 1, b, out);
}
bool frame_stress(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return gather_cells(in, in.cell_stress->stress, 6, b, out);
}
bool frame_strain(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return gather_cells(in, in.cell_stress->strain, 6, b, out);
}

bool frame_section_forces(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return in.beam_forces && gather_cells(in, *in.beam_forces, 12, b, out);
}

bool frame_shell_resultants(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return in.shell_resultants && gather_cells(in, *in.shell_resultants, 8, b, out);
}
bool frame_shell_stress(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return in.shell_stress && gather_cells(in, *in.shell_stress, 9, b, out);
}
bool frame_shell_plastic_strain(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  if (!in.shell_plastic || in.shell_layers <= 0) return false;
  out.components = in.shell_layers;
  return gather_cells(in, *in.shell_plastic, in.shell_layers, b, out);
}
bool frame_thickness(const FrameInput& in, std::vector<double>& b, io::Field& out) {
  return in.shell_thickness && gather_cells(in, *in.shell_thickness, 1, b, out);
}

bool frame_nodal_von_mises(const FrameInput& in, std::vector<double>&, io::Field& out) {
  out.values = in.nodal_stress->von_mises;
  return true;
}
bool frame_nodal_stress(const FrameInput& in, std::vector<double>&, io::Field& out) {
  out.values = in.nodal_stress->stress;
  return true;
}
bool frame_nodal_strain(const FrameInput& in, std::vector<double>&, io::Field& out) {
  out.values = in.nodal_stress->strain;
  return true;
}

bool frame_rank(const FrameInput& in, std::vector<double>&, io::Field& out) {
  out.int_values = in.rank;
  return true;
}
bool frame_region(const FrameInput& in, std::vector<double>&, io::Field& out) {
  out.int_values = in.region;
  return true;
}

// ---- probes: values at the probe's node or point ----

bool copy_values(const double* from, int n, double* out) {
  if (!from) return false;
  std::copy_n(from, n, out);
  return true;
}

bool probe_displacement(const ProbeInput& in, double* out) { return copy_values(in.u, 3, out); }
bool probe_velocity(const ProbeInput& in, double* out) { return copy_values(in.v, 3, out); }
bool probe_rotation(const ProbeInput& in, double* out) { return copy_values(in.rotation, 3, out); }
bool probe_angular_velocity(const ProbeInput& in, double* out) {
  return copy_values(in.angular_velocity, 3, out);
}
bool probe_section_forces(const ProbeInput& in, double* out) {
  return copy_values(in.section_forces, 6, out);
}
bool probe_shell_resultants(const ProbeInput& in, double* out) {
  return copy_values(in.shell_resultants, 8, out);
}
bool probe_stress(const ProbeInput& in, double* out) { return copy_values(in.stress, 6, out); }
bool probe_strain(const ProbeInput& in, double* out) { return copy_values(in.strain, 6, out); }
bool probe_von_mises(const ProbeInput& in, double* out) {
  if (!in.stress) return false;
  out[0] = fe::von_mises(in.stress);
  return true;
}

constexpr std::string_view u_columns[] = {"ux", "uy", "uz"};
constexpr std::string_view v_columns[] = {"vx", "vy", "vz"};
constexpr std::string_view rotation_columns[] = {"rx", "ry", "rz"};
constexpr std::string_view angular_velocity_columns[] = {"wx", "wy", "wz"};
constexpr std::string_view stress_columns[] = {"sxx", "syy", "szz", "sxy", "syz", "sxz"};
constexpr std::string_view strain_columns[] = {"exx", "eyy", "ezz", "exy", "eyz", "exz"};
constexpr std::string_view von_mises_columns[] = {"von_mises"};
constexpr std::string_view section_force_columns[] = {"N", "Vy", "Vz", "T", "My", "Mz"};
constexpr std::string_view shell_resultant_columns[] = {"N11", "N22", "N12", "M11",
                                                        "M22", "M12", "Q1",  "Q2"};

using K = FieldKind;
using L = FieldLocation;
using N = FieldNeeds;

constexpr std::string_view averaged =
    "point data: the volume-weighted average of the\ncells around each node (smooth, not faceted)";

/// One row per field. A frame holds its point arrays, then its cell arrays, each in this order.
const OutputField table[] = {
    // {name, --help, example}, kind, location, components, integer, probe columns, needs, fill
    // functions, from the model
    {{"displacement", "point data", "output: {fields: [displacement]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_displacement},
    {{"velocity", "point data", "output: {fields: [velocity]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_velocity},
    {{"acceleration", "point data", "output: {fields: [acceleration]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_acceleration},
    {{"reaction", "point data: the support reactions (zero elsewhere)",
      "output: {fields: [reaction]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_reaction},
    {{"rotation",
      "point data of beam nodes: rx, ry, rz (rad, zero at nodes\nwithout rotations); with "
      "beams, written with displacement",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output: {fields: [rotation]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_rotation,
     nullptr,
     false,
     "displacement"},
    {{"angular_velocity",
      "point data of beam nodes: rad/s (zero at nodes without\nrotations); with beams, written "
      "with velocity",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output: {fields: [angular_velocity]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_angular_velocity,
     nullptr,
     false,
     "velocity"},
    {{"angular_acceleration",
      "point data of beam nodes: rad/s^2 (zero at nodes without\nrotations); with beams, written "
      "with acceleration",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output: {fields: [angular_acceleration]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_angular_acceleration,
     nullptr,
     false,
     "acceleration"},
    {{"reaction_moment",
      "point data of beam nodes: the support moments mx, my, mz\n(zero elsewhere); with beams, "
      "written with reaction",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output: {fields: [reaction_moment]}"},
     K::frame,
     L::point,
     3,
     false,
     {},
     N::state,
     frame_reaction_moment,
     nullptr,
     false,
     "reaction"},
    {{"contact_pressure",
      "point data: the contact pressure of the walls and pairs (contact:) on their nodes (zero "
      "elsewhere)",
      "output: {fields: [contact_pressure]}"},
     K::frame,
     L::point,
     1,
     false,
     {},
     N::state,
     frame_contact_pressure},
    {{"von_mises", "cell data: the average over each cell", "output: {fields: [von_mises]}"},
     K::frame,
     L::cell,
     1,
     false,
     {},
     N::cell_stresses,
     frame_von_mises},
    {{"section_forces",
      "cell data of beams: N, Vy, Vz, T, My, Mz at end 0, then at end 1 (local axes; 0 on "
      "other cells)",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output: {fields: [section_forces]}"},
     K::frame,
     L::cell,
     12,
     false,
     {},
     N::state,
     frame_section_forces},
    {{"shell_resultants",
      "cell data of shells: N11, N22, N12 (force per length), M11, M22, M12 (moment per "
      "length), Q1, Q2 (transverse shear per length) at the cell's centre, in the shell axes "
      "(1: the global x axis projected on the shell, z when x is normal to it; 2: normal x 1); 0 "
      "on other cells",
      "mesh: {file: meshes/shell_plate_4.msh}\nmaterials:\n  - {region: plate, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nshells:\n  - {region: plate, "
      "thickness: 0.01}\nboundary_conditions:\n  - {region: edges, type: fixed}\n  - {region: "
      "plate, type: pressure, value: 1000}\n"
      "output: {fields: [shell_resultants]}"},
     K::frame,
     L::cell,
     8,
     false,
     {},
     N::state,
     frame_shell_resultants},
    {{"shell_stress",
      "cell data of shells: the stresses s11, s22, s12 at the bottom, middle and top surfaces "
      "(the normal points to the top) at the cell's centre, in the axes of shell_resultants; "
      "plastic shells: at their outermost and middle points through the thickness; 0 on other "
      "cells",
      "mesh: {file: meshes/shell_plate_4.msh}\nmaterials:\n  - {region: plate, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nshells:\n  - {region: plate, "
      "thickness: 0.01}\nboundary_conditions:\n  - {region: edges, type: fixed}\n  - {region: "
      "plate, type: pressure, value: 1000}\n"
      "output: {fields: [shell_stress]}"},
     K::frame,
     L::cell,
     9,
     false,
     {},
     N::state,
     frame_shell_stress},
    {{"shell_plastic_strain",
      "cell data of plastic shells: the equivalent plastic strain at each integration point "
      "through the thickness (bottom to top), averaged over the cell's in-plane points; as many "
      "components as the most integration_points of a shell region, 0 beyond a region's own, on "
      "elastic shells and on other cells",
      "mesh: {file: meshes/shell_plate_4.msh}\nmaterials:\n  - {region: plate, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3, plasticity: {yield_stress: 2.5e8}}\n"
      "shells:\n  - {region: plate, thickness: 0.01}\nboundary_conditions:\n  - {region: "
      "edges, type: fixed}\n  - {region: plate, type: pressure, value: 1.0e5}\n"
      "output: {fields: [shell_plastic_strain]}"},
     K::frame,
     L::cell,
     1,
     false,
     {},
     N::state,
     frame_shell_plastic_strain},
    {{"thickness", "cell data of shells: their thickness (0 on other cells)",
      "mesh: {file: meshes/shell_plate_4.msh}\nmaterials:\n  - {region: plate, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nshells:\n  - {region: plate, "
      "thickness: 0.01}\nboundary_conditions:\n  - {region: edges, type: fixed}\n  - {region: "
      "plate, type: pressure, value: 1000}\n"
      "output: {fields: [thickness]}"},
     K::frame,
     L::cell,
     1,
     false,
     {},
     N::state,
     frame_thickness},
    {{"stress", "cell data: the average over each cell", "output: {fields: [stress]}"},
     K::frame,
     L::cell,
     6,
     false,
     {},
     N::cell_stresses,
     frame_stress},
    {{"strain", "cell data: the average over each cell", "output: {fields: [strain]}"},
     K::frame,
     L::cell,
     6,
     false,
     {},
     N::cell_stresses,
     frame_strain},
    {{"nodal_von_mises", averaged, "output: {fields: [nodal_von_mises]}"},
     K::frame,
     L::point,
     1,
     false,
     {},
     N::nodal_averages,
     frame_nodal_von_mises},
    {{"nodal_stress", averaged, "output: {fields: [nodal_stress]}"},
     K::frame,
     L::point,
     6,
     false,
     {},
     N::nodal_averages,
     frame_nodal_stress},
    {{"nodal_strain", averaged, "output: {fields: [nodal_strain]}"},
     K::frame,
     L::point,
     6,
     false,
     {},
     N::nodal_averages,
     frame_nodal_strain},
    {{"state",
      "cell data: the history variables of the force terms that\nhave them, averaged over "
      "each "
      "cell's quadrature points: an\narray <variable>.<component> per component (0 "
      "outside\nthe "
      "term's cells)",
      "output: {fields: [state]}"},
     K::frame,
     L::cell,
     0,
     false,
     {},
     N::state,
     nullptr,
     nullptr,
     true},
    {{"nodal_state",
      "point data: the cell values of `state` averaged at each\nnode as nodal_stress is (over "
      "the "
      "term's cells around it,\nweighted by their volumes): an "
      "array\nnodal_<variable>.<component> "
      "per component (0 at nodes\nof none of the term's cells)",
      "output: {fields: [nodal_state]}"},
     K::frame,
     L::point,
     0,
     false,
     {},
     N::state,
     nullptr,
     nullptr,
     true},
    {{"rank", "cell data", "output: {fields: [rank]}"},
     K::frame,
     L::cell,
     1,
     true,
     {},
     N::state,
     frame_rank},
    {{"region", "cell data", "output: {fields: [region]}"},
     K::frame,
     L::cell,
     1,
     true,
     {},
     N::state,
     frame_region},
    {{"displacement", "at the node nearest the probe's point",
      "output:\n  probes:\n    - {name: tip, point: [1, 0.05, 0.05], fields: [displacement]}"},
     K::probe,
     L::point,
     3,
     false,
     u_columns,
     N::state,
     nullptr,
     probe_displacement},
    {{"velocity", "at the node nearest the probe's point",
      "output:\n  probes:\n    - {name: tip, point: [1, 0.05, 0.05], fields: [velocity]}"},
     K::probe,
     L::point,
     3,
     false,
     v_columns,
     N::state,
     nullptr,
     probe_velocity},
    {{"stress", "at the probe's point, in the solid cell that holds it",
      "output:\n  probes:\n    - {name: tip, point: [1, 0.05, 0.05], fields: [stress]}"},
     K::probe,
     L::cell,
     6,
     false,
     stress_columns,
     N::cell_stresses,
     nullptr,
     probe_stress},
    {{"strain", "at the probe's point, in the solid cell that holds it",
      "output:\n  probes:\n    - {name: tip, point: [1, 0.05, 0.05], fields: [strain]}"},
     K::probe,
     L::cell,
     6,
     false,
     strain_columns,
     N::cell_stresses,
     nullptr,
     probe_strain},
    {{"von_mises", "at the probe's point, in the solid cell that holds it",
      "output:\n  probes:\n    - {name: tip, point: [1, 0.05, 0.05], fields: [von_mises]}"},
     K::probe,
     L::cell,
     1,
     false,
     von_mises_columns,
     N::cell_stresses,
     nullptr,
     probe_von_mises},
    {{"rotation", "the rotations rx, ry, rz (rad) of the beam node nearest the probe's point",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, "
      "shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: "
      "fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output:\n  probes:\n    - {name: tip, point: [2, 0, 0], fields: [rotation]}"},
     K::probe,
     L::point,
     3,
     false,
     rotation_columns,
     N::state,
     nullptr,
     probe_rotation},
    {{"angular_velocity", "the angular velocity (rad/s) of the beam node nearest the probe's point",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, "
      "shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: "
      "fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output:\n  probes:\n    - {name: tip, point: [2, 0, 0], fields: [angular_velocity]}"},
     K::probe,
     L::point,
     3,
     false,
     angular_velocity_columns,
     N::state,
     nullptr,
     probe_angular_velocity},
    {{"section_forces",
      "N, Vy, Vz, T, My, Mz at the probe's point in the beam nearest it (local axes, the "
      "signs of "
      "the cell field section_forces), linear between the beam's end values: exact for "
      "members "
      "loaded at their ends only",
      "mesh: {file: meshes/beam_cantilever_16.msh}\nmaterials:\n  - {region: beam, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nsections:\n  - {region: beam, "
      "shape: "
      "{type: circle, diameter: 0.1}}\nboundary_conditions:\n  - {region: root, type: "
      "fixed}\n  - "
      "{region: tip, type: force, value: [0, 1000, 0]}\n"
      "output:\n  probes:\n    - {name: quarter, point: [0.5, 0, 0], fields: "
      "[section_forces]}"},
     K::probe,
     L::beam,
     6,
     false,
     section_force_columns,
     N::state,
     nullptr,
     probe_section_forces},
    {{"shell_resultants",
      "N11, N22, N12, M11, M22, M12, Q1, Q2 at the centre of the shell nearest the probe's point "
      "(the cell data's axes and signs)",
      "mesh: {file: meshes/shell_plate_4.msh}\nmaterials:\n  - {region: plate, density: "
      "7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}\nshells:\n  - {region: plate, "
      "thickness: 0.01}\nboundary_conditions:\n  - {region: edges, type: fixed}\n  - {region: "
      "plate, type: pressure, value: 1000}\n"
      "output:\n  probes:\n    - {name: centre, point: [0.5, 0.5, 0], fields: "
      "[shell_resultants]}"},
     K::probe,
     L::shell,
     8,
     false,
     shell_resultant_columns,
     N::state,
     nullptr,
     probe_shell_resultants},
    // Its columns (<probe>.<variable>.<component>) come from the terms' point states (Probes).
    {{"state",
      "the history variables of the force terms at the point, a column "
      "<probe>.<variable>.<component> each",
      "output:\n  probes:\n    - {name: tip, point: [1, 0.05, 0.05], fields: [state]}"},
     K::probe,
     L::cell,
     0,
     false,
     {},
     N::state,
     nullptr,
     nullptr,
     true},
};

}  // namespace

std::span<const OutputField> output_fields() { return table; }

Registry<OutputField> frame_fields() {
  const std::span<const OutputField> all(table);
  const auto probes = std::find_if(all.begin(), all.end(),
                                   [](const OutputField& f) { return f.kind == FieldKind::probe; });
  return {"output field", all.first(static_cast<std::size_t>(probes - all.begin()))};
}

Registry<OutputField> probe_fields() {
  const std::span<const OutputField> all(table);
  return {"probe field", all.subspan(frame_fields().size())};
}

void rotations_at_nodes(std::span<const double> local, std::span<const std::int32_t> rotation_of,
                        std::vector<double>& out) {
  out.assign(local.size(), 0.0);
  for (std::size_t n = 0; n < rotation_of.size() && 3 * n < local.size(); ++n)
    if (const std::int32_t r = rotation_of[n]; r >= 0)
      std::copy_n(&local[3 * static_cast<std::size_t>(r)], 3, &out[3 * n]);
}

std::string output_fields_help(FieldKind kind) {
  constexpr int width = 45;  // the names' column
  std::ostringstream out;
  std::vector<const OutputField*> rows;
  for (const auto& f : output_fields(kind)) rows.push_back(&f);
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t j = i + 1;
    while (j < rows.size() && rows[j]->summary == rows[i]->summary) ++j;
    std::string names;
    for (std::size_t k = i; k < j; ++k) names += cat(k > i ? ", " : "", rows[k]->name);
    out << "  " << std::left << std::setw(width) << names;
    for (const char ch : rows[i]->summary)
      out << (ch == '\n' ? "\n" + std::string(width + 2, ' ') : std::string(1, ch));
    out << "\n";
    i = j;
  }
  return out.str();
}

}  // namespace inertia
