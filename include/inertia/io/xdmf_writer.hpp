#pragma once
/// \file xdmf_writer.hpp
/// ParaView output whose file count does not grow with the rank count: one HDF5 file for the run
/// and a small XDMF3 file, written by rank 0, that describes the time series. Rank 0 writes the
/// HDF5 file's structure (serial HDF5) and every rank its share of each dataset (pwrite), each
/// step agreed by every rank: a failed write fails every rank, never leaves one waiting (see
/// src/io/hdf5_file.hpp). The XDMF file is rewritten atomically (temporary file, then rename)
/// after every step, once the step's data are written and the HDF5 file closed, so a killed run
/// still leaves a valid series of the steps it completed.
///
/// Files under `directory`:
///   <name>.xdmf       the series ParaView opens (its Xdmf3 readers): a temporal collection
///                     "Temporal", one Grid per step referencing datasets of the HDF5 file(s)
///   <name>.h5         /mesh/geometry (natural node order), /mesh/topology (XDMF "Mixed", natural
///                     cell order), written once; /step_NNNNNN/<field> per step and field
///   <name>-rK.h5      the same for the K-th restart (--restart) of the run: steps written after
///                     it (the steps of the earlier files that the restart keeps stay there)
///
/// The data do not depend on the rank count: nodes are written in the mesh's own (natural) order,
/// cells sorted by their key (the file's element tag), so a run on 1 rank and on 8 ranks writes
/// identical datasets.

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "inertia/io/vtk_writer.hpp"
#include "inertia/parallel/petsc.hpp"

namespace inertia::io {

namespace detail {
class SeriesIndex;
}

/// One rank's piece of the mesh plus what places it in the rank-independent order.
struct NaturalPieceMesh {
  PieceMesh piece;                            ///< local nodes (owned first), local cells
  std::int32_t num_owned = 0;                 ///< local nodes [0, num_owned) are owned
  std::int64_t num_global_nodes = 0;          ///< nodes over all ranks
  std::span<const std::int64_t> natural_ids;  ///< per local node (owned and ghost)
  std::span<const std::int64_t> cell_keys;    ///< per local cell: unique over ranks
};

class XdmfSeriesWriter {
 public:
  /// Collective. Creates `directory` if missing (rank 0), writes the mesh to the HDF5 file and
  /// starts an empty series <name>.xdmf, or, with resume_up_to (a restart), continues the existing
  /// series: its steps up to that time are kept (they stay in the HDF5 files they are in) and new
  /// steps go to a new HDF5 file <name>-rK.h5, numbered after the kept ones.
  XdmfSeriesWriter(MPI_Comm comm, std::filesystem::path directory, std::string name,
                   const NaturalPieceMesh& mesh, std::optional<double> resume_up_to = std::nullopt);
  ~XdmfSeriesWriter();
  XdmfSeriesWriter(const XdmfSeriesWriter&) = delete;
  XdmfSeriesWriter& operator=(const XdmfSeriesWriter&) = delete;

  /// Collective. Writes one dataset per field into the HDF5 file (point fields: `components`
  /// values per local node, only the owned nodes' are used; cell fields: per local cell of the
  /// mesh given to the constructor; Int32 fields are stored as Float64), and rank 0 rewrites the
  /// .xdmf with the new step at `time`. The fields must be the same on every rank. A failed write
  /// (on any rank) throws IoError "<file>: <strerror>" on every rank and leaves the .xdmf as it
  /// was. Returns the bytes the HDF5 file grew by (the first step counts the mesh too).
  std::int64_t write(double time, std::span<const Field> point_data,
                     std::span<const Field> cell_data);

  int steps_written() const { return counter_; }

  /// Rank 0 rewrites the .xdmf with an XML comment saying the run failed (and why) after the
  /// steps it lists. Not collective; never throws.
  void mark_failed(const std::string& reason);
  const std::filesystem::path& xdmf_path() const { return xdmf_; }
  const std::filesystem::path& h5_path() const { return h5_; }

 private:
  /// A block-size-`bs` copy of point (owned nodes) or cell (local cells) values, and the scatter
  /// to the natural-order vector that is written.
  struct Transfer {
    petsc::Vector local, natural;
    petsc::VecScatterHandle scatter;
  };
  Transfer& transfer(bool cells, int bs);
  /// Collective: `values` (or `ints`) into t.natural.
  void gather(Transfer& t, std::span<const double> values, std::span<const std::int32_t> ints);
  void write_mesh(const NaturalPieceMesh& mesh);
  /// Collective. The cells' natural order (cell_natural_) and their number (num_global_cells_).
  void order_cells(const NaturalPieceMesh& mesh);
  /// Collective. Per local cell, where its `length` topology entries start in the whole array
  /// (the lengths summed in natural cell order).
  std::vector<std::int64_t> topology_offsets(const std::vector<double>& length);
  /// Collective. This rank's share of the topology array in natural order, and where it starts
  /// (`entries_begin`); the local cells' entries are placed at their `offset`.
  std::vector<PetscInt> natural_topology(const NaturalPieceMesh& mesh,
                                         const std::vector<double>& length,
                                         const std::vector<std::int64_t>& offset,
                                         std::int64_t local_entries, PetscInt& entries_begin);
  /// Collective. Creates the HDF5 file with /mesh/geometry and /mesh/topology, and writes each
  /// rank's share of them.
  void write_mesh_datasets(Vec geometry, const std::vector<PetscInt>& entries,
                           PetscInt entries_begin);
  /// Collective. Refuses (IoError on every rank, ENOSPC) a write of about `data_bytes` that
  /// would not fit in the free space, before any of it is written: the frame is not begun.
  void ensure_room(std::int64_t data_bytes, const char* what) const;

  MPI_Comm comm_;
  std::filesystem::path directory_;
  std::string name_;
  std::filesystem::path xdmf_, h5_;
  std::string h5_name_;  ///< h5_'s file name, as the .xdmf references it
  std::int32_t num_owned_ = 0;
  std::int64_t num_global_nodes_ = 0, num_global_cells_ = 0, topology_size_ = 0;
  std::vector<std::int64_t> owned_natural_;                   ///< natural index of each owned node
  std::vector<std::int64_t> cell_natural_;                    ///< natural index of each local cell
  std::map<int, Transfer> point_transfers_, cell_transfers_;  ///< by block size
  std::int64_t h5_bytes_ = 0;                                 ///< the file's size so far
  std::int64_t last_frame_bytes_ = 0;                         ///< what the last write() added
  int counter_ = 0;
  std::unique_ptr<detail::SeriesIndex> index_;  ///< the .xdmf (a Grid per step), on rank 0
};

}  // namespace inertia::io
