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
  std::string mesh_summary;  ///< nodes and cells by type (rank 0; empty elsewhere)
  std::unique_ptr<MechanicalSystem> system;
};

/// Collective. Builds the model of a case; phases (optional) gets "mesh", "partition" and
/// "assemble". Throws InputError on every rank for a bad mesh or a case/mesh mismatch.
Model build_model(MPI_Comm comm, const CaseFile& c, Phases* phases = nullptr);

/// Reads or generates the case's mesh, rejects inverted cells, orients faces. Serial.
MeshData load_mesh(const CaseFile& c);

}  // namespace inertia
