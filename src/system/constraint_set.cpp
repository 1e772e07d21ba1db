#include "inertia/system/constraint_set.hpp"

#include <algorithm>
#include <map>

#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

struct Held {
  double value;
  int amplitude, condition;
};
using HeldDofs = std::map<PetscInt, Held>;  // owned local DOF -> what holds it

/// Whether condition d holds DOF i of local node n: its translations on a node with
/// translations, its rotations on a rotation node (a beam node's rotations); and the value.
bool holds_dof(const LocalMesh& mesh, const DirichletCondition& d, std::int32_t n, int i,
               double* value = nullptr) {
  const bool rotation = mesh.is_rotation(n);
  if (value) *value = rotation ? d.rotation_value[i] : d.value[i];
  return rotation ? d.rotations[i] : d.components[i];
}

/// Constrained DOFs: later conditions override earlier ones on shared DOFs.
HeldDofs held_dofs(const LocalMesh& mesh, const ProblemSpec& spec) {
  HeldDofs constrained;
  for (std::size_t c = 0; c < spec.dirichlet.size(); ++c) {
    const auto& d = spec.dirichlet[c];
    for (auto n : mesh.region_owned_nodes[d.region])
      for (int i = 0; i < 3; ++i)
        if (double value = 0; holds_dof(mesh, d, n, i, &value))
          constrained[3 * n + i] = {value, d.amplitude, static_cast<int>(c)};
  }
  return constrained;
}

/// DOFs two conditions name, each earlier condition against the one that holds the DOF in the
/// end, over all ranks: the driver says which applies. Two motions are alike when both are zero
/// (fixed), or have the same value and amplitude. Collective.
std::vector<ConstraintOverlap> shared_dofs(MPI_Comm comm, const LocalMesh& mesh,
                                           const ProblemSpec& spec, const HeldDofs& constrained) {
  const std::size_t nc = spec.dirichlet.size();
  std::vector<std::int64_t> shared(2 * nc * nc, 0);  // (earlier, later): DOFs, differing
  for (std::size_t c = 0; c < nc; ++c) {
    const auto& d = spec.dirichlet[c];
    for (auto n : mesh.region_owned_nodes[d.region])
      for (int i = 0; i < 3; ++i) {
        double value = 0, later_value = 0;
        const auto held =
            holds_dof(mesh, d, n, i, &value) ? constrained.find(3 * n + i) : constrained.end();
        if (held == constrained.end() || held->second.condition == static_cast<int>(c)) continue;
        const auto& later = spec.dirichlet[held->second.condition];
        holds_dof(mesh, later, n, i, &later_value);
        const bool alike = value == later_value && (value == 0 || d.amplitude == later.amplitude);
        std::int64_t* k = &shared[2 * (c * nc + held->second.condition)];
        k[0] += 1;
        k[1] += alike ? 0 : 1;
      }
  }
  if (nc > 1)
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, shared.data(), static_cast<int>(shared.size()),
                              MPI_INT64_T, MPI_SUM, comm));
  std::vector<ConstraintOverlap> out;
  for (std::size_t a = 0; a < nc; ++a)
    for (std::size_t b = a + 1; b < nc; ++b)
      if (const std::int64_t* k = &shared[2 * (a * nc + b)]; k[0] > 0)
        out.push_back({static_cast<int>(a), static_cast<int>(b), k[0], k[1]});
  return out;
}

/// Which conditions hold some DOF of each component, over all ranks (the later condition holds
/// a DOF two name): holds[3 c + d]. Collective.
std::vector<int> holders(MPI_Comm comm, const LocalMesh& mesh, const ProblemSpec& spec,
                         const HeldDofs& constrained) {
  const std::size_t nconditions = spec.dirichlet.size();
  std::vector<int> holds(3 * nconditions, 0);
  for (const auto& [local, held] : constrained)
    if (!mesh.is_rotation(static_cast<std::int32_t>(local / 3)))  // translations: the ground's
      holds[3 * static_cast<std::size_t>(held.condition) + static_cast<std::size_t>(local % 3)] = 1;
  if (nconditions > 0)
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, holds.data(), static_cast<int>(holds.size()), MPI_INT,
                              MPI_MAX, comm));
  return holds;
}

}  // namespace

ConstraintSet::ConstraintSet(MPI_Comm comm, const LocalMesh& mesh, const ProblemSpec& spec)
    : amplitudes_(spec.amplitudes), first_(static_cast<PetscInt>(3 * mesh.node_begin)) {
  const HeldDofs constrained = held_dofs(mesh, spec);
  for (const auto& [local, held] : constrained) {
    dofs_.push_back(first_ + local);
    conditions_.push_back(held.condition);
    if (held.value != 0.0) prescribed_.push_back({local, held.value, held.amplitude});
  }
  overlaps_ = shared_dofs(comm, mesh, spec, constrained);

  int local_prescribed = prescribed_.empty() ? 0 : 1, any_prescribed = 0;
  INERTIA_MPI(MPI_Allreduce(&local_prescribed, &any_prescribed, 1, MPI_INT, MPI_MAX, comm));
  has_prescribed_motion_ = any_prescribed != 0;

  const std::vector<int> holds = holders(comm, mesh, spec, constrained);
  for (int d = 0; d < 3; ++d) {
    // Uniform: every holder of d accelerates it by the same record and value.
    bool accelerated = false, displaced = false, uniform = true;
    int first = -1;
    for (std::size_t c = 0; c < spec.dirichlet.size(); ++c) {
      if (!holds[3 * c + static_cast<std::size_t>(d)]) continue;
      const auto& h = spec.dirichlet[c];
      accelerated = accelerated || (h.record >= 0 && h.value[d] != 0);
      displaced = displaced || (h.record < 0 && h.value[d] != 0 && h.amplitude != 0);
      if (first < 0) {
        first = static_cast<int>(c);
      } else {
        const auto& f = spec.dirichlet[static_cast<std::size_t>(first)];
        uniform = uniform && h.record == f.record && h.value[d] == f.value[d];
      }
      uniform = uniform && h.record >= 0 && h.value[d] != 0;
    }
    if (!accelerated) {
      if (displaced) ground_motion_[d] = GroundMotion::displaced;
      continue;
    }
    ground_motion_[d] = uniform ? GroundMotion::uniform : GroundMotion::multi_support;
    if (uniform) ground_condition_[d] = first;
  }
}

bool ConstraintSet::holds(PetscInt local) const {
  return std::binary_search(dofs_.begin(), dofs_.end(), first_ + local);
}

PetscInt ConstraintSet::global_count(MPI_Comm comm) const {
  PetscInt local = static_cast<PetscInt>(dofs_.size()), global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPIU_INT, MPI_SUM, comm));
  return global;
}

void ConstraintSet::apply(double t, Vec u, Vec v, Vec a) const {
  const Vec vecs[3] = {u, v, a};
  for (int k = 0; k < 3; ++k) {
    if (!vecs[k]) continue;
    petsc::Array x(vecs[k]);
    for (auto g : dofs_) x[g - first_] = 0.0;
    for (const auto& p : prescribed_) {
      const auto& amp = amplitudes_[p.amplitude];
      const double factor = k == 0 ? amp.value(t) : k == 1 ? amp.rate(t) : amp.acceleration(t);
      x[p.local] = p.value * factor;
    }
  }
}

void ConstraintSet::prescribe_increments(double t0, double t1, double h, double beta, double gamma,
                                         Vec du, Vec dv) const {
  petsc::Array x(du), y(dv);
  for (auto g : dofs_) x[g - first_] = y[g - first_] = 0.0;
  for (const auto& p : prescribed_) {
    const auto& a = amplitudes_[p.amplitude];
    const double g1 = a.value(t1), r1 = a.rate(t1), a1 = a.acceleration(t1);
    x[p.local] = p.value * (g1 - h * h * beta * a1 - a.value(t0));
    y[p.local] = p.value * (r1 - h * gamma * a1 - a.rate(t0));
  }
}

void ConstraintSet::add(double s, Vec x, Vec y) const {
  petsc::ConstArray xx(x);
  petsc::Array yy(y);
  for (auto g : dofs_) yy[g - first_] += s * xx[g - first_];
}

void ConstraintSet::zero(Vec r) const {
  petsc::Array x(r);
  for (auto g : dofs_) x[g - first_] = 0.0;
}

}  // namespace inertia
