#pragma once
/// \file model.hpp
/// From a validated case to an assembled MechanicalSystem: read or generate the mesh (rank 0),
/// check it against the case, partition, distribute, assemble. Used by the driver and by tests.

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

struct Model {
  PartitionSummary partition;
  std::string mesh_summary;                ///< nodes and cells by type (rank 0; empty elsewhere)
  std::vector<std::string> mesh_warnings;  ///< the whole mesh's set-up warnings (rank 0)
  std::unique_ptr<MechanicalSystem> system;
};

/// Collective. Builds the model of a case; phases (optional) gets "mesh", "partition" and
/// "assemble". Throws InputError on every rank for a bad mesh or a case/mesh mismatch.
Model build_model(MPI_Comm comm, const CaseFile& c, Phases* phases = nullptr);

/// Reads or generates the case's mesh, rejects inverted cells, orients faces. Serial.
MeshData load_mesh(const CaseFile& c);

/// Where `inertia --split N` puts the split of a case with a mesh file for N ranks, and where a
/// run on N ranks looks for it: <case folder>/<case name>.p<N>.split.
std::filesystem::path split_path(const CaseFile& c, int ranks);

/// Collective (the work is rank 0's). Reads, checks and partitions the case's mesh file for
/// `ranks` ranks and writes the split (split_path): a run on that many ranks then reads only its
/// share. Returns a one-line summary for the log. Throws InputError for a case without a mesh
/// file.
std::string split_mesh(MPI_Comm comm, const CaseFile& c, int ranks);

}  // namespace inertia
