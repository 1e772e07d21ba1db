#pragma once
/// \file output_fields.hpp
/// The fields a run can write, one row each: the arrays of the output frames (output.fields:
/// VTK and XDMF series) and the values of the probes (output.probes[].fields: probes.csv). A row
/// says where the field lives, its components, what must be computed before it can be filled,
/// the --help line, and how to fill it. The case-file validation (with its did-you-mean), --help,
/// the frame size estimate, both series writers (OutputSeries) and the probes read this table;
/// nothing else compares field names.
///
/// A new field is one row in src/app/output_fields.cpp plus its fill function there (a field
/// that frames and probes both offer is a row of each kind: a frame fills an array over the
/// piece, a probe a few values at its node or point).

#include <petscvec.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/assembly/assembler.hpp"
#include "inertia/core/registry.hpp"
#include "inertia/io/vtk_writer.hpp"

namespace inertia {

/// Which output a row belongs to.
enum class FieldKind {
  frame,  ///< an array of the VTK/XDMF frames (output.fields)
  probe,  ///< columns of probes.csv (output.probes[].fields)
};

/// Where a field's values live.
enum class FieldLocation {
  point,  ///< frames: per node (point data); probes: at the probe's nearest node
  cell,   ///< frames: per cell (cell data); probes: at the probe point, in its solid cell
  beam,   ///< probes only: at the probe point, in the beam cell nearest it
  shell,  ///< probes only: at the centre of the shell cell nearest the probe point
};

/// What a frame must compute before its fields can be filled.
enum class FieldNeeds {
  state,           ///< nothing: u, v, the scheme's acceleration, the reactions, rank, region
  cell_stresses,   ///< Assembler::cell_stress of u
  nodal_averages,  ///< and Assembler::nodal_average of them
};

/// What a frame's fill functions read: the state and what was computed from it for this frame.
struct FrameInput {
  Vec u = nullptr, v = nullptr;
  Vec acceleration = nullptr;  ///< the scheme's (null: it carries none)
  Vec reaction = nullptr;      ///< the support reactions at the constrained DOFs (null: none)
  std::span<const std::int64_t> cells;         ///< the piece's cells (local indices)
  const CellStress* cell_stress = nullptr;     ///< per local cell (FieldNeeds::cell_stresses)
  const NodalStress* nodal_stress = nullptr;   ///< per local node (FieldNeeds::nodal_averages)
  std::span<const std::int32_t> rank, region;  ///< per cell of the piece
  /// The rigid walls' contact pressure: a ghosted vector, 3 entries per node, the pressure in the
  /// first (null: not asked for).
  Vec contact_pressure = nullptr;
  /// The beams' section forces: 12 per local cell (null: not asked for).
  const std::vector<double>* beam_forces = nullptr;
  /// The shells' stress resultants (8 per local cell) and thickness (1 per local cell; 0 on
  /// other cells) (null: not asked for).
  const std::vector<double>* shell_resultants = nullptr;
  const std::vector<double>* shell_thickness = nullptr;
  const std::vector<double>* shell_stress = nullptr;  ///< 9 per local cell
  /// Per local node: its rotation node (LocalMesh::rotation_of), -1 for none; empty in a model
  /// without beams.
  std::span<const std::int32_t> rotation_of;
  /// Plastic shells: the equivalent plastic strain per point through the thickness, `shell_layers`
  /// per local cell (null: not asked for).
  const std::vector<double>* shell_plastic = nullptr;
  int shell_layers = 0;
};

/// What a probe's fill functions read: its node's u and v (point fields) or the strain and stress
/// at its point (cell fields), each null where this rank does not hold them.
struct ProbeInput {
  const double* u = nullptr;                 ///< 3 values
  const double* v = nullptr;                 ///< 3 values
  const double* strain = nullptr;            ///< 6 values, xx yy zz xy yz xz (tensor shear)
  const double* stress = nullptr;            ///< 6 values
  const double* rotation = nullptr;          ///< 3 values: rx, ry, rz of a beam node
  const double* angular_velocity = nullptr;  ///< 3 values
  const double* section_forces = nullptr;    ///< 6 values: N, Vy, Vz, T, My, Mz of a beam
  const double* shell_resultants = nullptr;  ///< 8 values: N11 ... Q2 of a shell
};

/// One field: its name as output.fields or a probe's fields list it, its summary the --help line
/// (rows of one kind with the same text next to each other share a line; line breaks continue
/// under the text), its example an `output:` block that asks for it.
struct OutputField : EntryInfo {
  FieldKind kind = FieldKind::frame;
  FieldLocation location = FieldLocation::point;
  int components = 1;
  bool integer = false;  ///< frames: Int32 values in VTK (Float64 in XDMF)
  /// Probes: the column suffixes (<probe>.<suffix>), one per component.
  std::span<const std::string_view> columns;
  FieldNeeds needs = FieldNeeds::state;
  /// Frames: fills `out` (its values in `buffer` when they are not already stored elsewhere);
  /// false when the frame has no such array (the scheme carries no acceleration).
  bool (*fill_frame)(const FrameInput& in, std::vector<double>& buffer, io::Field& out) = nullptr;
  /// Probes: writes `components` values to `out`; false when this rank lacks the input.
  bool (*fill_probe)(const ProbeInput& in, double* out) = nullptr;
  /// A field whose arrays (frames) or columns (probes) the model names: `state` (cell data) and
  /// `nodal_state` (point data, frames), one per component of each force term's point state
  /// (OutputSeries and Probes fill them; no components, columns or fill functions here).
  bool from_model = false;
  /// Frames: in a model with beams, this row is written whenever output.fields has the row named
  /// here (a beam node's rotations go with its displacement), as well as when it is asked for.
  std::string_view implied_by;

  /// Bytes of one entity (a point or a cell) of this array in a frame before compression.
  std::int64_t bytes(bool xdmf) const { return components * (integer && !xdmf ? 4 : 8); }
};

/// Every field, frames then probes, each kind in the order --help and messages list them.
std::span<const OutputField> output_fields();
/// The rows of one kind: the arrays of the frames, the values of the probes.
Registry<OutputField> frame_fields();
Registry<OutputField> probe_fields();
inline Registry<OutputField> output_fields(FieldKind kind) {
  return kind == FieldKind::frame ? frame_fields() : probe_fields();
}
/// The row of `kind` called `name`, or null.
inline const OutputField* find_output_field(FieldKind kind, std::string_view name) {
  return output_fields(kind).find(name);
}
/// The names of the rows of `kind`, in table order.
inline std::vector<std::string_view> output_field_names(FieldKind kind) {
  return output_fields(kind).names();
}
/// Per local node n, 3 values: the ghosted local values `local` (3 per node) of n's rotation node
/// (rotation_of[n]), zero where n has none. The beam nodes' rotations as a point array.
void rotations_at_nodes(std::span<const double> local, std::span<const std::int32_t> rotation_of,
                        std::vector<double>& out);

/// The --help lines of a kind's rows ("  displacement, velocity, acceleration   point data").
std::string output_fields_help(FieldKind kind);

}  // namespace inertia
