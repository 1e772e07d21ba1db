#pragma once
// Shells with an offset in contact (contact_section.hpp's offset_mesh): the shift of a node onto
// its shell's mid-surface turned with the node's rotation. Private to src/system.
//
// A contact term on offset shells is built on offset_mesh's copy of the mesh, whose offset nodes
// sit at X'_n = X_n + d_n (d_n = -o times their shells' mean reference normal). The point of the
// mid-surface under node n is then, at displacement u,
//
//   x_n = X'_n + u_n + (R(psi_r) - I) d_n,   R = exp(psi_r),
//
// psi_r the total rotation vector of n's rotation node r (its 3 DOFs). The term sees the points'
// displacements from X'_n (positions(): u plus the turned part of the shift) in place of u, and
// the force f_n it puts on such a point has the generalized moment T(psi_r)^T ((R d_n) x f_n) on
// r (moments(): T the left tangent of exp, fe/shell_bt.hpp), so that the forces stay the
// gradient of the term's energy in u and psi.
//
// Any rank may own n apart from r (a node also in a solid cell of a lower rank is owned there):
// the rank owning r computes the shift (it holds a shell cell with both) and sums it into n's
// owner (an assembly), and reads n's force back through n's ghost entry.
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "inertia/parallel/petsc.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia::contact_input {

/// The point of a node's mid-surface for rotation vector psi and reference shift d: (R - I) d
/// into out, with R and T (shell4_bt_node_rotation) into QT[18].
void turned_shift(const double psi[3], const double d[3], double out[3], double QT[18]);
/// The generalized moment T^T ((R d) x f) of force f at the point d turned by QT's R.
std::array<double, 3> turned_moment(const double QT[18], const double d[3], const double f[3]);

class TurnedOffsets {
 public:
  /// Collective. For a term on `shifted` (offset_mesh's copy of in.mesh; null: none): the
  /// offset nodes this rank turns (those whose rotation node it owns); null without `shifted`.
  static std::unique_ptr<TurnedOffsets> make(const TermInputs& in, const LocalMesh* shifted);

  /// Collective. x = u + (R(psi_r) - I) d_n at the offset nodes, u elsewhere (x a vector laid
  /// out as u, not u). With `keep`, the rotations are kept for moments().
  void positions(Vec u, Vec x, bool keep = false) const;
  /// Collective. positions(u, points(), true): the evaluation's points, returned.
  Vec points(Vec u) const {
    positions(u, points_, true);
    return points_;
  }
  /// The last points(u).
  Vec points() const { return points_; }
  /// Collective. The moments at this rank's rotation nodes of the internal forces f (a vector
  /// laid out as u: its owned translation entries; f's ghost entries are overwritten), at the
  /// rotations of the last positions() with `keep`.
  void moments(Vec f) const;

  /// A restart (ForceTerm::load_state, not collective): the committed u (owned entries), whose
  /// points committed_points() gives at the next collective call.
  void hold_committed(std::span<const PetscScalar> u) const;
  /// Collective. The held committed u's points (a vector laid out as u), once; null if none is
  /// held (the same on every rank: every rank loads the state).
  Vec committed_points() const;
  /// factor x scale_i x the moments into f (owned entries, 3 per owned node).
  void add_moments(double factor, std::span<const PetscScalar> scale,
                   std::span<PetscScalar> f) const;
  /// A zero vector laid out as u.
  petsc::Vector vector() const { return assembler_.create_vector(); }

  /// This rank's turned nodes (for the tests): local translation node, owned rotation node.
  struct Node {
    std::int32_t n, r;
    std::array<double, 3> d;
  };
  const std::vector<Node>& nodes() const { return nodes_; }

 private:
  explicit TurnedOffsets(const Assembler& a) : assembler_(a) {}
  const Assembler& assembler_;
  std::vector<Node> nodes_;
  mutable std::vector<double> qt_;      ///< per node: R and T (18) of the last positions(keep)
  mutable std::vector<double> moment_;  ///< per node: its moment on r (moments())
  mutable petsc::Vector shift_;         ///< (R - I) d at the offset nodes' entries
  mutable petsc::Vector points_;        ///< points(u)
  mutable petsc::Vector committed_;     ///< hold_committed's u, then its points
  mutable bool held_ = false;
};

}  // namespace inertia::contact_input
