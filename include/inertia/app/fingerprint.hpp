#pragma once
/// \file fingerprint.hpp
/// A model's fingerprint: what determines a run's solution, in parts that a restart compares
/// with its checkpoint's (examples/guide/run_promises.md), each a 64-bit hash that does not depend
/// on the number of ranks. Output options, end_time and the solver options are not in it: a
/// restart may change them.

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/partition/partition.hpp"

namespace inertia {

struct FingerprintPart {
  std::string key;   ///< the checkpoint attribute's name after "model.", e.g. "materials"
  std::string what;  ///< for messages: "the materials, springs and point masses"
  std::uint64_t hash = 0;
};

/// Collective. The fingerprint of the model `c` describes on `mesh`:
/// - "nodes": each node's file tag and coordinates;
/// - "elements": each cell's type, region tag and nodes' file tags (element types and
///   connectivity), and the regions (names, dimensions, tags, node counts);
/// - "materials": materials (law, density, E, nu, plasticity, formulation), per region;
/// - "springs", "point_masses": the springs' and point masses' properties, per region;
/// - "section.<kind>" for each kind of force term with a section of its own ("section.contact"):
///   the section's parsed values (TermSection::fingerprint), so a reformatted section is the
///   same model and a changed one is named;
/// - "mass": lumped or consistent;
/// - "damping": the Rayleigh coefficients (given, or solved from target frequencies), or for
///   targets at modes the modes and ratios (the coefficients solved from a repeated modal
///   analysis agree only to round-off, and a restart continues with the checkpoint's); velocity
///   damping;
/// - "conditions": boundary conditions and loads (type, region, components, value, amplitude),
///   gravity, and the contents of the amplitudes they use (a table's points, not its file name);
/// - "integrator": the scheme and its options.
/// Nodes and cells are combined in an order-independent way (combine_unordered) over the ranks.
std::vector<FingerprintPart> model_fingerprint(MPI_Comm comm, const CaseFile& c,
                                               const LocalMesh& mesh);

}  // namespace inertia
