#pragma once
/// \file vtk_writer.hpp
/// ParaView output: per-rank binary, zlib-compressed .vtu pieces, one .pvtu per written step, and a
/// .pvd time series rewritten atomically (temporary file, then rename) after every step so that a
/// killed run still leaves a valid series.
///
/// Files under `directory`:
///   <name>.pvd                         the series ParaView opens
///   <name>_NNNNNN.pvtu                 step NNNNNN (the output counter, not the time step)
///   <name>_NNNNNN/piece_RRRR.vtu       rank RRRR's piece of that step

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "inertia/mesh/cell_type.hpp"

namespace inertia::io {

namespace detail {
class SeriesIndex;
}

/// One rank's piece of the mesh: local nodes (owned and ghost) and local cells.
struct PieceMesh {
  std::span<const double> coords;              ///< 3 per local node
  std::span<const CellType> cell_types;        ///< per local cell
  std::span<const std::int64_t> cell_offsets;  ///< CSR, num_cells + 1 entries
  std::span<const std::int64_t> cell_nodes;    ///< local node indices, VTK order
};

/// A named array over the piece's points or cells: `components` values per point/cell.
/// Exactly one of `values` (written as Float64) or `int_values` (Int32) is non-empty.
/// Symmetric tensors have 6 components in VTK order (xx, yy, zz, xy, yz, xz).
struct Field {
  std::string name;
  int components = 1;
  std::span<const double> values;
  std::span<const std::int32_t> int_values;
};

class VtkSeriesWriter {
 public:
  /// Collective. Creates `directory` if missing (rank 0) and starts an empty series <name>.pvd,
  /// or, with resume_up_to (a restart), continues the existing series: its entries up to that
  /// time are kept and new steps are numbered after them.
  VtkSeriesWriter(MPI_Comm comm, std::filesystem::path directory, std::string name,
                  std::optional<double> resume_up_to = std::nullopt);
  ~VtkSeriesWriter();
  VtkSeriesWriter(const VtkSeriesWriter&) = delete;
  VtkSeriesWriter& operator=(const VtkSeriesWriter&) = delete;

  /// Collective. Writes this rank's piece, rank 0 writes the .pvtu and rewrites the .pvd with
  /// the new entry (time `time`). Returns the bytes this step wrote, summed over ranks.
  std::int64_t write(double time, const PieceMesh& mesh, std::span<const Field> point_data,
                     std::span<const Field> cell_data);

  int steps_written() const { return counter_; }

  /// Rank 0 rewrites the .pvd with an XML comment saying the run failed (and why) after the
  /// steps it lists; ParaView still opens the steps. Not collective; never throws.
  void mark_failed(const std::string& reason);
  const std::filesystem::path& pvd_path() const { return pvd_; }

 private:
  MPI_Comm comm_;
  std::filesystem::path directory_;
  std::string name_;
  std::filesystem::path pvd_;
  int counter_ = 0;
  std::unique_ptr<detail::SeriesIndex> index_;  ///< the .pvd, on rank 0
};

}  // namespace inertia::io
