#pragma once
/// \file output_series.hpp
/// The ParaView series of a run: this rank's piece of the mesh (its element cells, and the faces
/// of cloth surfaces whose edges are springs, so ParaView shows the surface) and the point and
/// cell fields the case's output.fields asks for, written as one frame of a VtkSeriesWriter
/// (output.format: vtu) or of an XdmfSeriesWriter (output.format: xdmf).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/assembly/assembler.hpp"
#include "inertia/io/vtk_writer.hpp"
#include "inertia/io/xdmf_writer.hpp"
#include "inertia/system/model_stress.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia {

/// Collective. The shells' resultants (ShellTermInfo::resultants, 8 per local cell, 0 on other
/// cells) at u; false (out untouched) when the model has no shells.
bool shell_resultant_values(const MechanicalSystem& system, Vec u, std::vector<double>& out);

class OutputSeries {
 public:
  /// Collective. Starts the series <output.directory>/<case>.pvd (or .xdmf), or with
  /// `resume_up_to` (a restart) continues it after that time.
  /// `name`: the series' name (default: the case's).
  OutputSeries(MPI_Comm comm, const CaseFile& c, const MechanicalSystem& system,
               std::optional<double> resume_up_to, const std::string& name = "");

  /// Collective. Writes one frame at `time` with one point field (3 components per node), whatever
  /// output.fields says (the mode shapes of a modal analysis).
  void write_point_field(double time, const char* name, Vec x);
  /// Collective. Writes one frame at `time` with point fields (3 components per node; ghosts up
  /// to date) and named cell fields (n components per local cell: 6 as CellStress holds them, 8
  /// for shell resultants; n is the vector's size over the local cells),
  /// whatever output.fields says (the combined peaks of a response-spectrum analysis, the
  /// complex fields of a harmonic one).
  void write_fields(
      double time, const std::vector<std::pair<std::string, Vec>>& points,
      const std::vector<std::pair<std::string, const std::vector<double>*>>& cells = {});

  /// Collective. Writes one frame at state.time with the fields output.fields asks for, filled
  /// by their rows of the field table (app/output_fields.hpp) from u, v, the scheme's
  /// acceleration (null: none), the stresses of u per cell and averaged at the nodes, and
  /// `reaction`, the support reactions at the constrained DOFs (null: not written).
  void write(const State& state, Vec acceleration, Vec reaction = nullptr);
  /// Marks the series as incomplete (rank 0; never throws).
  void mark_failed(const std::string& reason) {
    if (vtk_) vtk_->mark_failed(reason);
    if (xdmf_) xdmf_->mark_failed(reason);
  }

  int frames() const { return vtk_ ? vtk_->steps_written() : xdmf_->steps_written(); }
  std::int64_t bytes() const { return bytes_; }  ///< written so far by this run, all ranks
  /// A frame's data before compression, all ranks: a bound on what a frame writes.
  std::int64_t raw_bytes_per_frame() const { return raw_bytes_per_frame_; }
  /// The file ParaView opens: <name>.pvd or <name>.xdmf.
  const std::filesystem::path& series_path() const {
    return vtk_ ? vtk_->pvd_path() : xdmf_->xdmf_path();
  }

 private:
  std::int64_t write_frame(double time);
  /// Collective. The frames' points: in a model with beams, the nodes with translations only
  /// (shown_, their coordinates, how many are owned, how many over all ranks); all nodes else.
  void show_nodes(MPI_Comm comm, const LocalMesh& lm);
  /// The points' coordinates: the drawn nodes' (a model with beams) or the mesh's.
  const std::vector<double>& piece_coords() const {
    return drop_rotations_ ? shown_coords_ : system_.mesh().coords;
  }
  /// In a model with beams, appends the point array `name`: the rotations held at the rotation
  /// nodes of `local` (ghosted local values, 3 per node) at their beam nodes, in `buffer`.
  void add_rotations(const std::string& name, std::span<const double> local,
                     std::vector<double>& buffer);
  /// Collective. Makes `values` (3 per local node: the rotations where this rank knows a beam
  /// node's rotation node, LocalMesh::rotation_of) the same on every rank's copy of each node.
  void share_rotations(std::vector<double>& values);

  const CaseFile& case_;
  const MechanicalSystem& system_;
  ModelStress model_stress_;  ///< the cells' stress (a plastic cell's from its state)
  std::unique_ptr<io::VtkSeriesWriter> vtk_;    ///< output.format: vtu
  std::unique_ptr<io::XdmfSeriesWriter> xdmf_;  ///< output.format: xdmf
  std::int64_t raw_bytes_per_frame_ = 0;
  // This rank's piece: cells (local indices) and their nodes in VTK order, rank and region tag.
  std::vector<std::int64_t> cells_;
  std::vector<CellType> types_;
  std::vector<std::int64_t> offsets_{0}, nodes_;
  std::vector<std::int32_t> rank_, region_;
  // The frame's fields (rows of output_fields()) and what they need computed.
  std::vector<const OutputField*> fields_;
  FieldNeeds needs_ = FieldNeeds::state;
  // Per-frame scratch, sized once.
  CellStress stress_;
  NodalStress nodal_;
  std::vector<std::vector<double>> buffers_;  ///< per field of fields_
  /// output.fields has `state`: per point state of the system, the row of each piece cell (-1:
  /// not a cell of its term), and the arrays' names and values (one per component).
  struct StateArrays {
    const PointState* state;
    std::vector<std::int64_t> row_of;  ///< per piece cell
    std::vector<std::string> names;
    std::vector<std::vector<double>> values;
  };
  std::vector<StateArrays> state_arrays_;
  /// output.fields has `nodal_state`: per point state of the system, its rows' cell averages
  /// (components per row), their volume-weighted averages at the nodes (point data), and the
  /// arrays' names (one per component).
  struct NodalStateArrays {
    const PointState* state;
    std::vector<double> rows;
    NodalCellAverage nodal;
    std::vector<std::string> names;
  };
  std::vector<NodalStateArrays> nodal_state_arrays_;
  std::vector<double> mode_values_;                ///< write_point_field
  std::vector<std::vector<double>> field_values_;  ///< write_fields
  std::vector<double> beam_forces_;  ///< section_forces: 12 per local cell (asked for)
  bool has_beam_forces_ = false;
  std::vector<double> shell_resultants_;  ///< shell_resultants: 8 per local cell (asked for)
  std::vector<double> shell_thickness_;   ///< thickness: 1 per local cell (asked for)
  std::vector<double> shell_stress_;      ///< shell_stress: 9 per local cell (asked for)
  /// shell_plastic_strain: shell_layers_ per local cell (asked for: the most points through the
  /// thickness of a shell region; 0 not asked for).
  std::vector<double> shell_plastic_;
  int shell_layers_ = 0;
  bool has_shell_resultants_ = false, has_shell_thickness_ = false, has_shell_stress_ = false;
  petsc::Vector contact_pressure_;  ///< the contact_pressure field's (asked for and walls exist)
  std::vector<double> pressure_;    ///< per owned node, for contact_pressure_
  std::vector<io::Field> point_fields_, cell_fields_;
  std::int64_t bytes_ = 0;
  // The drawn nodes (points) of a model with beams, whose rotation nodes are not drawn: the
  // local nodes with translations (with drop_rotations_), each local node's point (-1: a
  // rotation node), their coordinates, the owned ones' count and the count over all ranks.
  bool drop_rotations_ = false;  ///< the model has beams (the same on every rank)
  std::vector<std::int32_t> shown_;
  std::vector<std::int64_t> shown_index_;
  std::vector<double> shown_coords_;
  std::int32_t shown_owned_ = 0;
  std::int64_t shown_global_nodes_ = 0;
  std::vector<std::vector<double>> compact_;  ///< the point fields at the drawn nodes
  std::vector<double> mode_rotations_;        ///< write_point_field's rotations
  petsc::Vector rotations_;                   ///< share_rotations' ghosted scratch
  std::vector<double> knowers_;  ///< per owned node: the ranks that know its rotation node
};

}  // namespace inertia
