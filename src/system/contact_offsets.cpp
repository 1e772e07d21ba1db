// Offset shells' contact points turned with their nodes (contact_offsets.hpp).
#include "contact_offsets.hpp"

#include <algorithm>

#include "inertia/fe/shell_bt.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::contact_input {

void turned_shift(const double psi[3], const double d[3], double out[3], double QT[18]) {
  fe::shell4_bt_node_rotation(psi, QT);
  for (int i = 0; i < 3; ++i)
    out[i] = QT[3 * i] * d[0] + QT[3 * i + 1] * d[1] + QT[3 * i + 2] * d[2] - d[i];
}

std::array<double, 3> turned_moment(const double QT[18], const double d[3], const double f[3]) {
  double a[3];  // R d
  for (int i = 0; i < 3; ++i) a[i] = QT[3 * i] * d[0] + QT[3 * i + 1] * d[1] + QT[3 * i + 2] * d[2];
  const double m[3] = {a[1] * f[2] - a[2] * f[1], a[2] * f[0] - a[0] * f[2],
                       a[0] * f[1] - a[1] * f[0]};
  const double* T = QT + 9;
  std::array<double, 3> out{};
  for (int i = 0; i < 3; ++i) out[i] = T[i] * m[0] + T[3 + i] * m[1] + T[6 + i] * m[2];
  return out;
}

std::unique_ptr<TurnedOffsets> TurnedOffsets::make(const TermInputs& in, const LocalMesh* shifted) {
  if (!shifted) return nullptr;
  const LocalMesh& mesh = in.mesh;
  std::unique_ptr<TurnedOffsets> out(new TurnedOffsets(in.assembler));
  for (std::int32_t n = 0; n < mesh.num_local_nodes(); ++n) {
    const std::size_t at = static_cast<std::size_t>(n);
    const std::int32_t r = mesh.rotation_of.empty() ? -1 : mesh.rotation_of[at];
    if (r < 0 || r >= mesh.num_owned) continue;  // the rotation node's owner turns it
    Node node{n, r, {0, 0, 0}};
    bool moved = false;
    for (int i = 0; i < 3; ++i) {
      node.d[i] = shifted->coords[3 * at + i] - mesh.coords[3 * at + i];
      moved = moved || node.d[i] != 0;
    }
    if (moved) out->nodes_.push_back(node);
  }
  out->qt_.assign(18 * out->nodes_.size(), 0.0);
  out->moment_.assign(3 * out->nodes_.size(), 0.0);
  out->shift_ = in.assembler.create_vector();
  out->points_ = in.assembler.create_vector();
  out->committed_ = in.assembler.create_vector();
  return out;
}

void TurnedOffsets::positions(Vec u, Vec x, bool keep) const {
  INERTIA_PETSC(VecZeroEntries(shift_));
  {
    petsc::ConstArray ua(u);
    double qt[18];
    assembler_.assemble(shift_, [&](VectorSum& sum) {
      const auto local = sum.local();
      for (std::size_t k = 0; k < nodes_.size(); ++k) {
        const Node& a = nodes_[k];
        double* QT = keep ? &qt_[18 * k] : qt;
        double s[3];
        turned_shift(&ua[3 * a.r], a.d.data(), s, QT);
        for (int i = 0; i < 3; ++i) local[3 * static_cast<std::size_t>(a.n) + i] += s[i];
      }
    });
  }
  INERTIA_PETSC(VecWAXPY(x, 1.0, shift_, u));
}

void TurnedOffsets::moments(Vec f) const {
  petsc::GhostedRead fa(f);
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const auto m = turned_moment(&qt_[18 * k], nodes_[k].d.data(), &fa[3 * nodes_[k].n]);
    for (int i = 0; i < 3; ++i) moment_[3 * k + i] = m[i];
  }
}

void TurnedOffsets::add_moments(double factor, std::span<const PetscScalar> scale,
                                std::span<PetscScalar> f) const {
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const std::size_t r = static_cast<std::size_t>(nodes_[k].r);
    for (int i = 0; i < 3; ++i) {
      const double s = scale.empty() ? 1.0 : scale[3 * r + i];
      f[3 * r + i] += factor * s * moment_[3 * k + i];
    }
  }
}

void TurnedOffsets::hold_committed(std::span<const PetscScalar> u) const {
  petsc::Array c(committed_);
  std::copy(u.begin(), u.end(), c.span().begin());
  held_ = true;
}

Vec TurnedOffsets::committed_points() const {
  if (!held_) return nullptr;
  held_ = false;
  petsc::Vector u = assembler_.create_vector();
  INERTIA_PETSC(VecCopy(committed_, u));
  positions(u, committed_);
  return committed_;
}

}  // namespace inertia::contact_input
