// Contact pairs and element erosion (contact_pair.hpp): which pairs' surfaces change as cells
// erode, and the combinations refused.
//
// A pair's side named by a volume region is that region's skin: the faces of its solid cells that
// no other solid cell shares (contact_surfaces.cpp). When cells erode (after an accepted step, or
// restored from a checkpoint), the sides of the pairs that erosion can change are built again
// from the surviving cells (ForceTerm::cells_eroded): the eroded cells' faces leave the skin, and
// the faces they covered on surviving cells join it (`eroding: false`: only the first), on every
// rank count the same (the skin is decided by global face keys, contact_surfaces.cpp). The
// search runs again at the next evaluation. The new nodes' penalties are sized as at the set-up
// (the tangent's diagonal and the masses before any erosion).
#include <algorithm>

#include "contact_pair.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::contact_input {

bool check_erosion(const TermInputs& in, const PairInput& pair) {
  const LocalMesh& mesh = in.mesh;
  bool any_failure = false;
  for (const auto& m : in.elements.materials) any_failure = any_failure || m.failure != nullptr;
  if (!any_failure) return false;  // the same on every rank (the case's materials)
  const std::vector<char> erodible = erodible_nodes(in);
  // Per side: a node of its region's cells is a node of a cell that can erode (on any rank).
  std::vector<int> touches(pair.surfaces.size(), 0), dims(pair.surfaces.size(), 0);
  for (std::size_t s = 0; s < pair.surfaces.size(); ++s) {
    int region = -1;
    for (std::size_t r = 0; r < mesh.regions.size(); ++r)
      if (mesh.regions[r].name == pair.surfaces[s]) region = static_cast<int>(r);
    if (region < 0) continue;  // surface_faces refused it
    dims[s] = mesh.regions[static_cast<std::size_t>(region)].dim;
    for (std::int64_t c = 0; c < mesh.num_cells() && !touches[s]; ++c)
      if (mesh.cell_regions[c] == region)
        for (auto n : mesh.nodes_of(c))
          if (erodible[static_cast<std::size_t>(n)]) touches[s] = 1;
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, touches.data(), static_cast<int>(touches.size()), MPI_INT,
                            MPI_MAX, in.comm));
  bool changes = false;
  for (std::size_t s = 0; s < pair.surfaces.size(); ++s) {
    if (!touches[s]) continue;
    changes = true;
    INERTIA_CHECK(dims[s] == 3, InputError, pair.where, ".surfaces: region '", pair.surfaces[s],
                  "' is a region of faces on cells that can erode (a material's failure:): name "
                  "the volume region instead, whose skin follows the erosion");
  }
  if (!changes) return false;
  INERTIA_CHECK(!pair.friction.on(), InputError, pair.where,
                ".friction: friction on a pair whose surfaces erode is not supported (its nodes' "
                "committed friction forces are not carried to the rebuilt surfaces); remove it");
  INERTIA_CHECK(pair.initial != InitialPenetration::ignore, InputError, pair.where,
                ".initial_penetration: ignore on a pair whose surfaces erode is not supported (the "
                "uncovered faces' nodes have no initial gap); use error or move");
  return true;
}

void ReleasedEnergy::book(const std::vector<Pass>& passes, const std::vector<Side>& sides,
                          double sign) {
  for (const Pass& p : passes) {
    const Side& slave = sides[static_cast<std::size_t>(p.slave)];
    for (std::size_t j = 0; j < slave.nodes.size(); ++j)
      values_[static_cast<std::size_t>(slave.nodes[j])] +=
          sign * 0.5 * slave.k[j] * p.gap[j] * p.gap[j];
  }
}

double ReleasedEnergy::total() const {
  double e = 0;
  for (const double v : values_) e += v;
  return e;
}

void ReleasedEnergy::save(std::span<PetscScalar> owned) const {
  std::fill(owned.begin(), owned.end(), 0.0);
  for (std::size_t n = 0; n < values_.size(); ++n) owned[3 * n] = values_[n];
}

void ReleasedEnergy::load(std::span<const PetscScalar> owned) {
  for (std::size_t n = 0; n < values_.size(); ++n) values_[n] = owned[3 * n];
}

}  // namespace inertia::contact_input
