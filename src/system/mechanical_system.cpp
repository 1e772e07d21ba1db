#include "inertia/system/mechanical_system.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

std::vector<int> cell_materials(const LocalMesh& mesh, const ProblemSpec& spec) {
  std::vector<int> result(static_cast<std::size_t>(mesh.num_cells()), -1);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c] || info(mesh.cell_types[c]).dim != 3) continue;
    for (std::size_t m = 0; m < spec.materials.size(); ++m)
      if (spec.materials[m].region == mesh.cell_regions[c]) result[c] = static_cast<int>(m);
  }
  return result;
}

std::vector<ElasticMaterial> material_list(const ProblemSpec& spec) {
  std::vector<ElasticMaterial> list;
  for (const auto& m : spec.materials) list.push_back(m.material);
  return list;
}

const char* ksp_reason_name(KSPConvergedReason reason) {
  return KSPConvergedReasons[reason];
}

}  // namespace

MechanicalSystem::MechanicalSystem(MPI_Comm comm, LocalMesh mesh, ProblemSpec spec)
    : comm_(comm),
      mesh_(std::move(mesh)),
      spec_(std::move(spec)),
      assembler_(comm_, mesh_, cell_materials(mesh_, spec_), material_list(spec_)) {
  K_ = assembler_.create_matrix();
  assembler_.assemble_stiffness(K_);
  if (spec_.mass == MassTreatment::consistent) {
    M_ = assembler_.create_matrix();
    assembler_.assemble_consistent_mass(M_);
  } else {
    lumped_mass_ = assembler_.create_vector();
    assembler_.assemble_lumped_mass(lumped_mass_);
  }
  work_ = create_vector();
  work2_ = create_vector();

  // Loads, one vector per amplitude.
  for (const auto& load : spec_.loads) {
    auto it = std::find_if(loads_.begin(), loads_.end(),
                           [&](const auto& p) { return p.first == load.amplitude; });
    if (it == loads_.end()) {
      loads_.emplace_back(load.amplitude, create_vector());
      it = loads_.end() - 1;
    }
    Vec f = it->second;
    switch (load.kind) {
      case Load::Kind::gravity:
        assembler_.add_gravity(load.value, f);
        break;
      case Load::Kind::traction:
        assembler_.add_traction(load.region, load.value, f);
        break;
      case Load::Kind::pressure:
        assembler_.add_pressure(load.region, load.value[0], f);
        break;
      case Load::Kind::force: {
        // The total force split evenly over the region's nodes (all ranks).
        const auto count = static_cast<double>(mesh_.region_node_counts[load.region]);
        petsc::Array fa(f);
        for (auto n : mesh_.region_owned_nodes[load.region])
          for (int i = 0; i < 3; ++i) fa[3 * n + i] += load.value[i] / count;
        break;
      }
    }
  }

  // Constrained DOFs: later conditions override earlier ones on shared DOFs.
  std::map<PetscInt, std::pair<double, int>> constrained;  // owned local DOF -> (value, amplitude)
  for (const auto& d : spec_.dirichlet)
    for (auto n : mesh_.region_owned_nodes[d.region])
      for (int i = 0; i < 3; ++i)
        if (d.components[i]) constrained[3 * n + i] = {d.value[i], d.amplitude};
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  for (const auto& [local, va] : constrained) {
    constrained_.push_back(first + local);
    if (va.first != 0.0) prescribed_.push_back({local, va.first, va.second});
  }

  int local_prescribed = prescribed_.empty() ? 0 : 1, any_prescribed = 0;
  INERTIA_MPI(MPI_Allreduce(&local_prescribed, &any_prescribed, 1, MPI_INT, MPI_MAX, comm_));
  has_prescribed_motion_ = any_prescribed != 0;

  // Every free DOF needs mass (lumped) or the system is singular.
  if (lumped_mass_) {
    run_collectively(comm_, [&] {
      petsc::ConstArray m(lumped_mass_);
      for (PetscInt i = 0; i < m.size(); ++i)
        if (!(m[i] > 0) && !constrained.count(i)) {
          const auto n = i / 3;
          throw InputError(cat("node ", mesh_.node_tags[n], " at (", mesh_.coords[3 * n], ", ",
                               mesh_.coords[3 * n + 1], ", ", mesh_.coords[3 * n + 2],
                               ") has no mass and is not constrained"));
        }
    });
  }
}

PetscInt MechanicalSystem::num_constrained_dofs() const {
  PetscInt local = static_cast<PetscInt>(constrained_.size()), global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPIU_INT, MPI_SUM, comm_));
  return global;
}

void MechanicalSystem::update_tangent(Vec u) {
  (void)u;  // every element is linear elastic: K does not depend on u
}

void MechanicalSystem::mult_mass(Vec x, Vec y) const {
  if (lumped_mass_)
    INERTIA_PETSC(VecPointwiseMult(y, lumped_mass_, x));
  else
    INERTIA_PETSC(MatMult(M_, x, y));
}

void MechanicalSystem::mult_stiffness(Vec x, Vec y) const { INERTIA_PETSC(MatMult(K_, x, y)); }

void MechanicalSystem::mult_damping(Vec x, Vec y) const {
  INERTIA_PETSC(VecZeroEntries(y));
  if (spec_.rayleigh.mass != 0) {
    mult_mass(x, work2_);
    INERTIA_PETSC(VecAXPY(y, spec_.rayleigh.mass, work2_));
  }
  if (spec_.rayleigh.stiffness != 0) {
    mult_stiffness(x, work2_);
    INERTIA_PETSC(VecAXPY(y, spec_.rayleigh.stiffness, work2_));
  }
}

void MechanicalSystem::external_force(double t, Vec f) const {
  INERTIA_PETSC(VecZeroEntries(f));
  for (const auto& [amplitude, load] : loads_)
    INERTIA_PETSC(VecAXPY(f, spec_.amplitudes[amplitude].value(t), load));
}

void MechanicalSystem::internal_force(Vec u, Vec f) const { mult_stiffness(u, f); }

void MechanicalSystem::force(double t, Vec u, Vec v, Vec f) const {
  external_force(t, f);
  internal_force(u, work2_);
  INERTIA_PETSC(VecAXPY(f, -1.0, work2_));
}

void MechanicalSystem::apply_constraints(double t, Vec u, Vec v, Vec a) const {
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  const Vec vecs[3] = {u, v, a};
  for (int k = 0; k < 3; ++k) {
    if (!vecs[k]) continue;
    petsc::Array x(vecs[k]);
    for (auto g : constrained_) x[g - first] = 0.0;
    for (const auto& p : prescribed_) {
      const auto& amp = spec_.amplitudes[p.amplitude];
      const double factor = k == 0 ? amp.value(t) : k == 1 ? amp.rate(t) : amp.acceleration(t);
      x[p.local] = p.value * factor;
    }
  }
}

void MechanicalSystem::zero_constrained(Vec r) const {
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  petsc::Array x(r);
  for (auto g : constrained_) x[g - first] = 0.0;
}

void MechanicalSystem::reaction(double t, Vec u, Vec v, Vec a, Vec r) const {
  mult_mass(a, r);
  mult_damping(v, work_);
  INERTIA_PETSC(VecAXPY(r, 1.0, work_));
  internal_force(u, work_);
  INERTIA_PETSC(VecAXPY(r, 1.0, work_));
  external_force(t, work_);
  INERTIA_PETSC(VecAXPY(r, -1.0, work_));
  // Keep the constrained entries only.
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  petsc::Array x(r);
  std::vector<double> kept(constrained_.size());
  for (std::size_t i = 0; i < constrained_.size(); ++i) kept[i] = x[constrained_[i] - first];
  std::fill(x.span().begin(), x.span().end(), 0.0);
  for (std::size_t i = 0; i < constrained_.size(); ++i) x[constrained_[i] - first] = kept[i];
}

MechanicalSystem::Solver& MechanicalSystem::solver(double m, double k) {
  auto it = solvers_.find({m, k});
  if (it != solvers_.end()) return it->second;
  Solver s;
  if (k != 0 || !M_) {
    INERTIA_PETSC(MatDuplicate(K_, MAT_COPY_VALUES, s.A.out()));
    INERTIA_PETSC(MatScale(s.A, k));
    if (M_)
      INERTIA_PETSC(MatAXPY(s.A, m, M_, SAME_NONZERO_PATTERN));
    else {
      INERTIA_PETSC(VecCopy(lumped_mass_, work2_));
      INERTIA_PETSC(VecScale(work2_, m));
      INERTIA_PETSC(MatDiagonalSet(s.A, work2_, ADD_VALUES));
    }
  } else {
    INERTIA_PETSC(MatDuplicate(M_, MAT_COPY_VALUES, s.A.out()));
    INERTIA_PETSC(MatScale(s.A, m));
  }
  MatNullSpace modes = nullptr;
  INERTIA_PETSC(MatGetNearNullSpace(K_, &modes));
  INERTIA_PETSC(MatSetNearNullSpace(s.A, modes));
  // Constrained rows and columns: identity scaled by the mean diagonal.
  INERTIA_PETSC(MatGetDiagonal(s.A, work2_));
  PetscReal diagonal_sum = 0;
  INERTIA_PETSC(VecNorm(work2_, NORM_1, &diagonal_sum));
  s.diagonal = num_global_dofs() > 0 ? diagonal_sum / num_global_dofs() : 1.0;
  if (!(s.diagonal > 0)) s.diagonal = 1.0;
  INERTIA_PETSC(MatZeroRowsColumns(s.A, static_cast<PetscInt>(constrained_.size()),
                                   constrained_.data(), s.diagonal, nullptr, nullptr));
  INERTIA_PETSC(MatSetOption(s.A, MAT_SPD, PETSC_TRUE));

  INERTIA_PETSC(KSPCreate(comm_, s.ksp.out()));
  INERTIA_PETSC(KSPSetOperators(s.ksp, s.A, s.A));
  PC pc;
  INERTIA_PETSC(KSPGetPC(s.ksp, &pc));
  INERTIA_PETSC(KSPSetType(s.ksp, KSPCG));
  if (k == 0) {
    // A mass matrix: Jacobi-preconditioned CG converges in a few iterations.
    INERTIA_PETSC(KSPSetOptionsPrefix(s.ksp, "mass_"));
    INERTIA_PETSC(PCSetType(pc, PCJACOBI));
  } else {
    INERTIA_PETSC(PCSetType(pc, PCGAMG));
  }
  INERTIA_PETSC(KSPSetTolerances(s.ksp, 1e-10, 1e-50, PETSC_DEFAULT, 10000));
  INERTIA_PETSC(KSPSetFromOptions(s.ksp));
  // The previous solution is a good initial guess, except for direct solves.
  PetscBool preonly = PETSC_FALSE;
  INERTIA_PETSC(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(s.ksp.get()), KSPPREONLY,
                                       &preonly));
  INERTIA_PETSC(KSPSetInitialGuessNonzero(s.ksp, preonly ? PETSC_FALSE : PETSC_TRUE));
  INERTIA_PETSC(KSPSetUp(s.ksp));
  return solvers_.emplace(std::pair{m, k}, std::move(s)).first->second;
}

SolveReport MechanicalSystem::solve(double m, double k, Vec r, Vec y) {
  SolveReport report;
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  if (k == 0 && lumped_mass_) {
    // Diagonal mass: a pointwise division on the free DOFs.
    petsc::ConstArray rr(r), mm(lumped_mass_);
    petsc::Array yy(y);
    auto c = constrained_.begin();
    for (PetscInt i = 0; i < rr.size(); ++i) {
      if (c != constrained_.end() && *c == first + i) {
        ++c;
        continue;
      }
      yy[i] = rr[i] / (m * mm[i]);
    }
    return report;
  }
  Solver& s = solver(m, k);
  INERTIA_PETSC(VecCopy(r, work_));
  // Lift the prescribed values: rhs_free -= (m M + k K)_{free,constrained} y_constrained.
  if (has_prescribed_motion_) {
    INERTIA_PETSC(VecZeroEntries(work2_));
    {
      petsc::ConstArray yy(y);
      petsc::Array w(work2_);
      for (auto g : constrained_) w[g - first] = yy[g - first];
    }
    if (!lift_) lift_ = create_vector();
    if (k != 0) {
      INERTIA_PETSC(MatMult(K_, work2_, lift_));
      INERTIA_PETSC(VecAXPY(work_, -k, lift_));
    }
    mult_mass(work2_, lift_);
    INERTIA_PETSC(VecAXPY(work_, -m, lift_));
  }
  constrained_values_.resize(constrained_.size());
  {
    petsc::ConstArray yy(y);
    petsc::Array w(work_);
    for (std::size_t i = 0; i < constrained_.size(); ++i) {
      constrained_values_[i] = yy[constrained_[i] - first];
      w[constrained_[i] - first] = s.diagonal * constrained_values_[i];
    }
  }
  INERTIA_PETSC(KSPSolve(s.ksp, work_, y));
  {
    // An iterative solve reproduces the constrained values only to its tolerance: restore them.
    petsc::Array yy(y);
    for (std::size_t i = 0; i < constrained_.size(); ++i)
      yy[constrained_[i] - first] = constrained_values_[i];
  }
  KSPConvergedReason reason;
  INERTIA_PETSC(KSPGetConvergedReason(s.ksp, &reason));
  INERTIA_PETSC(KSPGetIterationNumber(s.ksp, &report.iterations));
  INERTIA_PETSC(KSPGetResidualNorm(s.ksp, &report.residual));
  if (reason < 0)
    throw SolverError(cat("linear solve diverged (KSP reason ", ksp_reason_name(reason), " after ",
                          report.iterations, " iterations, residual ", report.residual,
                          "); try other -ksp_type/-pc_type options or a smaller time step"));
  return report;
}

double MechanicalSystem::kinetic_energy(Vec v) const {
  mult_mass(v, work_);
  PetscScalar dot = 0;
  INERTIA_PETSC(VecDot(v, work_, &dot));
  return 0.5 * dot;
}

double MechanicalSystem::strain_energy(Vec u) const {
  mult_stiffness(u, work_);
  PetscScalar dot = 0;
  INERTIA_PETSC(VecDot(u, work_, &dot));
  return 0.5 * dot;
}

}  // namespace inertia
