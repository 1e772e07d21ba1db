// End releases of the beams (beam_term.hpp): which beam ends the case's `releases:` name, and the
// check that every beam node's rotation is still held by something after them.
#include <algorithm>
#include <cmath>

#include "beam_term.hpp"
#include "inertia/assembly/assembler.hpp"
#include "inertia/fe/beam_release.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/system/couplings.hpp"

namespace inertia::beam_detail {

namespace {

/// The global ids of the translation nodes of region r on all ranks (sorted). Collective.
std::vector<std::int64_t> group_nodes(MPI_Comm comm, const LocalMesh& mesh, int r) {
  std::vector<std::int64_t> mine;
  for (const std::int32_t n : mesh.region_owned_nodes[static_cast<std::size_t>(r)])
    if (!mesh.is_rotation(n)) mine.push_back(mesh.global_node(n));
  int size = 0, count = static_cast<int>(mine.size());
  INERTIA_MPI(MPI_Comm_size(comm, &size));
  std::vector<int> counts(static_cast<std::size_t>(size)), offsets(counts.size() + 1, 0);
  INERTIA_MPI(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm));
  for (std::size_t i = 0; i < counts.size(); ++i) offsets[i + 1] = offsets[i] + counts[i];
  std::vector<std::int64_t> all(static_cast<std::size_t>(offsets.back()));
  INERTIA_MPI(MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(),
                             offsets.data(), MPI_INT64_T, comm));
  std::ranges::sort(all);
  return all;
}

}  // namespace

std::vector<unsigned> release_masks(const TermInputs& in, const BeamInput& b,
                                    std::span<const std::int64_t> cells) {
  std::vector<unsigned> masks(cells.size(), 0);
  for (const BeamRelease& release : b.releases) {
    std::vector<std::int64_t> nodes;
    for (const std::string& name : release.nodes) {
      int r = -1;
      for (std::size_t i = 0; i < in.mesh.regions.size(); ++i)
        if (in.mesh.regions[i].name == name) r = static_cast<int>(i);
      INERTIA_CHECK(r >= 0, InputError, release.where, ".nodes: the mesh has no physical group '",
                    excerpt(name), "'");
      INERTIA_CHECK(in.mesh.regions[static_cast<std::size_t>(r)].dim == 0, InputError,
                    release.where, ".nodes: '", excerpt(name), "' is a ",
                    in.mesh.regions[static_cast<std::size_t>(r)].dim,
                    "D group; releases take point (0D) physical groups at the beams' ends");
      const auto group = group_nodes(in.comm, in.mesh, r);
      nodes.insert(nodes.end(), group.begin(), group.end());
    }
    std::ranges::sort(nodes);
    std::int64_t touched = 0;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      const auto n = in.mesh.nodes_of(cells[k]);
      for (int e = 0; e < 2; ++e)
        if (std::ranges::binary_search(nodes,
                                       in.mesh.global_node(static_cast<std::int32_t>(n[e])))) {
          masks[k] |= release.components << (3 * e);
          ++touched;
        }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &touched, 1, MPI_INT64_T, MPI_SUM, in.comm));
    INERTIA_CHECK(touched > 0, InputError, release.where, ".nodes: no beam of region '",
                  excerpt(b.region), "' ends on a node of ",
                  release.nodes.size() == 1 ? cat("'", excerpt(release.nodes[0]), "'")
                                            : std::string("those groups"));
  }
  std::exception_ptr error;
  for (std::size_t k = 0; k < cells.size() && !error; ++k)
    if (fe::beam_releases_twist(masks[k]))
      error = std::make_exception_ptr(InputError(
          cat(b.where, ".releases: beam element ", in.mesh.cell_tags[cells[k]], " of region '",
              excerpt(b.region),
              "' has its torsion t released at both ends: it would twist freely (a mechanism); "
              "release t at one end only")));
  rethrow_collectively(in.comm, error);
  return masks;
}

void check_released_rotations(const TermInputs& in, std::span<const EndRotationStiffness> ends,
                              const std::string& where) {
  const LocalMesh& mesh = in.mesh;
  // The rotation nodes' 3 x 3 stiffness blocks summed over their beams: column j in vector j,
  // the unreleased diagonal sums (the scale) in vector 3.
  std::vector<petsc::Vector> sums;
  for (int j = 0; j < 4; ++j) {
    sums.push_back(in.assembler.create_vector());
    INERTIA_PETSC(VecSet(sums.back(), 0.0));
    in.assembler.assemble(sums.back(), [&](VectorSum& f) {
      auto local = f.local();
      for (const EndRotationStiffness& e : ends) {
        const auto n = mesh.nodes_of(e.cell);
        for (int a = 0; a < 2; ++a)
          for (int i = 0; i < 3; ++i)
            local[3 * static_cast<std::size_t>(n[2 + a]) + i] +=
                j < 3 ? e.block[9 * a + 3 * i + j] : (i == 0 ? e.scale[a] : 0.0);
      }
    });
  }
  // The rotations a condition holds (its rotation components on the rotation nodes), and those
  // of a coupling's node (the coupled face holds all three).
  std::vector<char> held(3 * static_cast<std::size_t>(mesh.num_owned), 0);
  const auto hold = [&](int region, const std::array<bool, 3>& axes) {
    if (region < 0) return;
    for (const std::int32_t n : mesh.region_owned_nodes[static_cast<std::size_t>(region)])
      if (mesh.is_rotation(n))
        for (int i = 0; i < 3; ++i)
          if (axes[i]) held[3 * static_cast<std::size_t>(n) + i] = 1;
  };
  for (const DirichletCondition& d : in.spec.dirichlet) hold(d.region, d.rotations);
  if (const auto it = in.spec.term_sections.find("couplings"); it != in.spec.term_sections.end())
    for (const CouplingInput& c : dynamic_cast<const CouplingSection&>(*it->second).couplings)
      for (std::size_t r = 0; r < mesh.regions.size(); ++r)
        if (mesh.regions[r].name == c.node || (!c.edge.empty() && mesh.regions[r].name == c.edge))
          hold(static_cast<int>(r), {true, true, true});
  petsc::ConstArray c0(sums[0]), c1(sums[1]), c2(sums[2]), scale(sums[3]);
  const petsc::ConstArray* column[3] = {&c0, &c1, &c2};
  std::exception_ptr error;
  for (std::int32_t n = 0; n < mesh.num_owned && !error; ++n) {
    if (!mesh.is_rotation(n)) continue;
    const std::size_t base = 3 * static_cast<std::size_t>(n);
    int free[3], nf = 0;
    for (int i = 0; i < 3; ++i)
      if (!held[base + i]) free[nf++] = i;
    // Cholesky of the free axes' block: a pivot below 1e-9 of the beams' scale is a rotation
    // nothing holds.
    const double tol = 1e-9 * scale[static_cast<PetscInt>(base)];
    double L[9] = {};
    int singular = -1;
    for (int i = 0; i < nf && singular < 0; ++i)
      for (int j = 0; j <= i; ++j) {
        double v = (*column[free[j]])[static_cast<PetscInt>(base) + free[i]];
        for (int k = 0; k < j; ++k) v -= L[3 * i + k] * L[3 * j + k];
        if (i == j) {
          if (!(v > tol)) {
            singular = free[i];
            break;
          }
          L[3 * i + i] = std::sqrt(v);
        } else {
          L[3 * i + j] = v / L[3 * j + j];
        }
      }
    if (singular < 0) continue;
    std::string zero;  // the free axes the beams give nothing about
    for (int i = 0; i < nf; ++i)
      if (!((*column[free[i]])[static_cast<PetscInt>(base) + free[i]] > tol))
        zero += cat(zero.empty() ? "" : ", ", "r", "xyz"[free[i]]);
    const double* x = &mesh.coords[base];
    error = std::make_exception_ptr(InputError(
        cat(where, ": the beams meeting at the node at (", x[0], ", ", x[1], ", ", x[2],
            ") all release its rotation ",
            zero.empty() ? std::string("about one axis (a combination of rx, ry, rz)") : zero,
            ": nothing holds it, so the stiffness is singular; hold it with a fixed condition on a "
            "point group there (components: [",
            zero.empty() ? std::string("rx, ry, rz") : zero,
            "]) or keep that moment at one of the beam ends")));
  }
  rethrow_collectively(in.comm, error);
}

}  // namespace inertia::beam_detail
