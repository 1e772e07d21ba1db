#include "inertia/system/mechanical_system.hpp"

#include <algorithm>

#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

ElementAssignment element_assignment(const LocalMesh& mesh, const ProblemSpec& spec) {
  ElementAssignment e;
  const auto ncells = static_cast<std::size_t>(mesh.num_cells());
  e.cell_material.assign(ncells, -1);
  e.cell_spring.assign(ncells, -1);
  e.cell_point.assign(ncells, 0);
  for (const auto& m : spec.materials) e.materials.push_back(m.material);
  const std::vector<int> rigid = rigid_regions(mesh, spec);  // not solids: they do not deform
  for (const auto& s : spec.springs) e.springs.push_back(s.properties);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c]) continue;
    const int region = mesh.cell_regions[c];
    const CellType t = mesh.cell_types[c];
    if (info(t).dim == 3 && std::find(rigid.begin(), rigid.end(), region) == rigid.end())
      for (std::size_t m = 0; m < spec.materials.size(); ++m)
        if (spec.materials[m].region == region) e.cell_material[c] = static_cast<int>(m);
    if (t == CellType::line2)
      for (std::size_t k = 0; k < spec.springs.size(); ++k)
        if (spec.springs[k].region == region) e.cell_spring[c] = static_cast<int>(k);
    for (const auto& p : spec.point_masses)
      if (p.region == region) e.cell_point[c] = 1;
  }
  return e;
}

/// Collective. The mesh with its rotation nodes marked (LocalMesh::mark_rotation_nodes).
LocalMesh with_rotations_marked(MPI_Comm comm, LocalMesh mesh) {
  mesh.mark_rotation_nodes();
  mesh.has_rotations = !all_true(comm, !mesh.has_rotations);
  return mesh;
}

/// Collective. The kinds' changes to the mesh (prepare_mesh), then the terms.
std::vector<std::unique_ptr<ForceTerm>> prepared_terms(MPI_Comm comm, LocalMesh& mesh,
                                                       const ProblemSpec& spec,
                                                       const Assembler& assembler) {
  prepare_mesh({comm, mesh, spec, assembler, assembler.elements()}, mesh);
  return build_force_terms({comm, mesh, spec, assembler, assembler.elements()});
}

}  // namespace

MechanicalSystem::MechanicalSystem(MPI_Comm comm, LocalMesh mesh, ProblemSpec spec)
    : comm_(comm),
      mesh_(with_rotations_marked(comm, std::move(mesh))),
      spec_(std::move(spec)),
      assembler_(comm_, mesh_, element_assignment(mesh_, spec_)),
      terms_(comm_, assembler_, spec_, prepared_terms(comm_, mesh_, spec_, assembler_)),
      operators_(comm_, mesh_, spec_, assembler_, terms_),
      loads_(spec_, terms_.assemble_loads()),
      constraints_(comm_, mesh_, spec_),
      solvers_(comm_, assembler_, spec_, terms_, operators_, constraints_) {
  operators_.check_masses(mesh_, constraints_);
  // Uniform base excitation: M r_d per component (before a consistent mass drops the lumped one).
  for (int d = 0; d < 3; ++d)
    if (const int c = constraints_.uniform_ground_condition(d); c >= 0) {
      const auto& h = spec_.dirichlet[static_cast<std::size_t>(c)];
      loads_.add_ground(d, h.amplitude, h.value[d], operators_.translation_mass(d),
                        assembler_.unit_translation(d));
    }
  operators_.finish_masses(constraints_);
  work_ = create_vector();
  work2_ = create_vector();
  for (const auto& t : terms_.all())
    if (auto* r = dynamic_cast<RigidBodyTerm*>(t.get())) rigid_.push_back(r);
}

void MechanicalSystem::start_rigid_bodies(Vec v, bool fresh) {
  petsc::ConstArray m(lumped_mass());
  petsc::Array va(v);
  for (RigidBodyTerm* r : rigid_) r->start(m.span(), va.span(), fresh);
}

void MechanicalSystem::load_rigid_bodies(Vec a) {
  petsc::ConstArray m(lumped_mass()), aa(a);
  for (RigidBodyTerm* r : rigid_) r->load(m.span(), aa.span());
}

void MechanicalSystem::advance_rigid_bodies(double t, double h, double kick, Vec u, Vec v_half) {
  petsc::Array ua(u), va(v_half);
  for (RigidBodyTerm* r : rigid_) r->advance(t, h, kick, ua.span(), va.span());
}

void MechanicalSystem::finish_rigid_bodies(double t1, double h, Vec a, Vec v) {
  petsc::ConstArray m(lumped_mass());
  petsc::Array aa(a), va(v);
  for (RigidBodyTerm* r : rigid_) r->finish(t1, h, m.span(), aa.span(), va.span());
}

void MechanicalSystem::internal_force(Vec u, Vec f) const {
  operators_.mult_linear_stiffness(u, f);
  // The last force()'s, at this u and time: u's state as it left it, or moved since by reads
  // that only updated its ghosts (an energy row's: the terms' evaluation record follows them).
  if (u == f_int_.u && term_time_ == f_int_.t && petsc::object_state(work2_) == f_int_.f_state &&
      (petsc::object_state(u) == f_int_.u_state || terms_.force_pass_at(u, term_time_)))
    INERTIA_PETSC(VecAXPY(f, 1.0, work2_));  // the last force()'s, at this u and time
  else
    terms_.add_nonlinear_forces(u, nullptr, term_time_, f, nullptr);
  terms_.add_nodal_forces(u, term_time_, 1.0, nullptr, f);
}

void MechanicalSystem::dashpot_force(Vec u, Vec v, Vec f) const {
  INERTIA_PETSC(VecZeroEntries(f));
  if (!has_dashpots()) return;
  terms_.add_nonlinear_forces(u, v, term_time_, nullptr, f);
}

void MechanicalSystem::external_minus_internal(double t, Vec u, Vec f, Vec scale) const {
  term_time_ = t;
  operators_.mult_linear_stiffness(u, work2_);
  // Remember K u: the energy history's strain energy at this u then costs a dot product, not
  // a second product with K (explicit schemes evaluate the force at the u they end on).
  ku_.u = u;
  ku_.u_state = petsc::object_state(u);
  ku_.ku_state = petsc::object_state(work2_);
  loads_.subtract_from_external(t, work2_, f, scale);
}

void MechanicalSystem::force(double t, Vec u, Vec v, Vec f) const {
  external_minus_internal(t, u, f, nullptr);  // sets term_time_
  terms_.add_nodal_forces(u, t, -1.0, nullptr, f);
  if (!is_linear()) {
    // Nonlinear elements (and dashpots): accumulate f_int and f_dashpot, then subtract both.
    INERTIA_PETSC(VecZeroEntries(work2_));
    terms_.add_nonlinear_forces(u, v, t, work2_, has_dashpots() ? work2_.get() : nullptr);
    INERTIA_PETSC(VecAXPY(f, -1.0, work2_));
    f_int_ = {};
    if (!has_dashpots())  // work2_ holds the internal force alone: internal_force() may reuse it
      f_int_ = {u, petsc::object_state(u), petsc::object_state(work2_), t};
  }
}

std::int64_t MechanicalSystem::erode(Vec u, Vec v) {
  const std::int64_t n = terms_.erode(u, v, term_time_);
  if (n > 0) {
    f_int_ = {};  // the eroded cells' forces are in the last one
    operators_.rebuild_lumped_masses(constraints_);
    solvers_.mark_stale();
  }
  return n;
}

std::int64_t MechanicalSystem::restore_erosion() {
  const std::int64_t n = terms_.restore_erosion();
  if (n > 0) {
    operators_.rebuild_lumped_masses(constraints_);
    solvers_.mark_stale();
  }
  return n;
}

bool MechanicalSystem::lumped_acceleration(double t, Vec u, Vec a) const {
  const Vec inverse_mass = operators_.inverse_mass();
  if (!is_linear() || !inverse_mass) return false;
  external_minus_internal(t, u, a, inverse_mass);
  terms_.add_nodal_forces(u, t, -1.0, inverse_mass, a);
  return true;
}

void MechanicalSystem::residual(double t, Vec u, Vec v, Vec a, Vec r) const {
  if (a) {
    mult_mass(a, r);
  } else {
    INERTIA_PETSC(VecZeroEntries(r));
  }
  mult_damping(v, work_);
  INERTIA_PETSC(VecAXPY(r, 1.0, work_));
  internal_force(u, work_);
  INERTIA_PETSC(VecAXPY(r, 1.0, work_));
  if (has_dashpots()) {
    dashpot_force(u, v, work_);
    INERTIA_PETSC(VecAXPY(r, 1.0, work_));
  }
  external_force(t, work_);
  INERTIA_PETSC(VecAXPY(r, -1.0, work_));
}

void MechanicalSystem::keep_constrained(Vec r) const {
  // r - (r with its constrained entries zeroed), in place.
  INERTIA_PETSC(VecCopy(r, work_));
  zero_constrained(work_);
  INERTIA_PETSC(VecAXPY(r, -1.0, work_));
}

void MechanicalSystem::reaction(double t, Vec u, Vec v, Vec a, Vec r) const {
  residual(t, u, v, a, r);
  keep_constrained(r);
}

double MechanicalSystem::kinetic_energy(Vec v) const {
  mult_mass(v, work_);
  PetscScalar dot = 0;
  INERTIA_PETSC(VecDot(v, work_, &dot));
  return 0.5 * dot;
}

std::array<double, 3> MechanicalSystem::momentum(Vec v) const {
  mult_mass(v, work_);
  std::array<double, 3> p{0, 0, 0};
  {
    petsc::ConstArray a(work_);
    for (PetscInt i = 0; i < a.size(); ++i)  // r_d.M v: the rows of translations
      if (!mesh_.is_rotation(static_cast<std::int32_t>(i / 3)))
        p[static_cast<std::size_t>(i % 3)] += a[i];
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, p.data(), 3, MPI_DOUBLE, MPI_SUM, comm_));
  return p;
}

double MechanicalSystem::strain_energy(Vec u, Vec ku) const {
  INERTIA_CHECK(is_linear(), InternalError, "strain_energy(u, ku): a linear model only");
  const PetscObjectState u_state = petsc::object_state(u);
  const PetscObjectState ku_state = petsc::object_state(work2_);
  if (u == ku_.u && u_state == ku_.u_state && ku_state == ku_.ku_state)
    INERTIA_PETSC(VecCopy(work2_, ku));  // K u is still in work2_ (see force())
  else
    operators_.mult_linear_stiffness(u, ku);
  PetscScalar dot = 0;
  INERTIA_PETSC(VecDot(u, ku, &dot));
  return 0.5 * dot + terms_.nodal_energy(u, term_time_);
}

double MechanicalSystem::strain_energy(Vec u) const {
  PetscScalar dot = 0;
  const PetscObjectState u_state = petsc::object_state(u);
  const PetscObjectState ku_state = petsc::object_state(work2_);
  if (u == ku_.u && u_state == ku_.u_state && ku_state == ku_.ku_state) {
    INERTIA_PETSC(VecDot(u, work2_, &dot));  // K u is still in work2_ (see force())
  } else {
    operators_.mult_linear_stiffness(u, work_);
    INERTIA_PETSC(VecDot(u, work_, &dot));
  }
  const double local = terms_.nonlinear_energy(u, term_time_);
  double nonlinear = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &nonlinear, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return 0.5 * dot + nonlinear + terms_.nodal_energy(u, term_time_);
}

}  // namespace inertia
