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
/// The --help lines of a kind's rows ("  displacement, velocity, acceleration   point data").
std::string output_fields_help(FieldKind kind);

}  // namespace inertia
