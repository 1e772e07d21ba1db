#include "inertia/system/mechanical_system.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "inertia/parallel/session.hpp"
#include "inertia/system/direct_solver.hpp"

namespace inertia {

namespace {

ElementAssignment element_assignment(const LocalMesh& mesh, const ProblemSpec& spec) {
  ElementAssignment e;
  const auto ncells = static_cast<std::size_t>(mesh.num_cells());
  e.cell_material.assign(ncells, -1);
  e.cell_spring.assign(ncells, -1);
  e.cell_point.assign(ncells, 0);
  for (const auto& m : spec.materials) e.materials.push_back(m.material);
  for (const auto& s : spec.springs) e.springs.push_back(s.properties);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c]) continue;
    const int region = mesh.cell_regions[c];
    const CellType t = mesh.cell_types[c];
    if (info(t).dim == 3)
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

const char* ksp_reason_name(KSPConvergedReason reason) { return KSPConvergedReasons[reason]; }

}  // namespace

MechanicalSystem::MechanicalSystem(MPI_Comm comm, LocalMesh mesh, ProblemSpec spec)
    : comm_(comm),
      mesh_(std::move(mesh)),
      spec_(std::move(spec)),
      assembler_(comm_, mesh_, element_assignment(mesh_, spec_)) {
  prepare_mesh({comm_, mesh_, spec_, assembler_, assembler_.elements()}, mesh_);
  terms_ = build_force_terms({comm_, mesh_, spec_, assembler_, assembler_.elements()});
  // An explicit run whose only nonlinear terms are nodal (rigid walls) stays a linear model with
  // those terms added node by node; otherwise they are nonlinear terms like the others.
  bool only_nodal = spec_.explicit_scheme;
  for (const auto& t : terms_) {
    const ForceTerm::Traits traits = t->traits();
    if (!traits.linear && !traits.load && !(traits.nodal && !traits.dashpot)) only_nodal = false;
  }
  for (const auto& m : spec_.materials) {
    plastic_ = plastic_ || m.material.plastic();
    hourglass_ = hourglass_ || m.material.technology.formulation == fe::Formulation::reduced;
  }
  for (const auto& t : terms_) {
    const ForceTerm::Traits traits = t->traits();
    if ((only_nodal || traits.gathers) && !traits.linear && !traits.load) {
      nodal_terms_.push_back(t.get());
      if (traits.gathers) gathering_terms_.push_back(t.get());
      // Implicit schemes: a gathering term's tangent goes into the Newton operator, which makes
      // the model nonlinear (it stays node by node for the forces).
      if (traits.gathers && !spec_.explicit_scheme) linear_ = false, coupled_ = true;
    } else
      linear_ = linear_ && (traits.linear || traits.load);
    dashpots_ = dashpots_ || traits.dashpot;
    if (traits.friction) friction_terms_.push_back(t.get());
    if (traits.friction || traits.multipliers) nodal_history_terms_.push_back(t.get());
    if (traits.multipliers) {
      multiplier_terms_.push_back(t.get());
      augmentation_limit_ = std::max(augmentation_limit_, t->augmentation_limit());
    }
    moving_ = moving_ || traits.moves;
    if (PointState* state = t->point_state()) {
      state_terms_.push_back(t.get());
      point_states_.push_back(state);
    }
  }
  if (spec_.matrix_free) {
    // K is never stored: products come from the element kernels (explicit schemes only).
    matrix_free_ = std::make_unique<MatrixFreeElasticity>(
        comm_, mesh_, element_assignment(mesh_, spec_), create_vector());
    K_ = matrix_free_->create_shell();
  } else {
    // Explicit schemes only multiply by a linear K: BAIJ, the fastest product.
    baij_stiffness_ = spec_.explicit_scheme && is_linear();
    K_ = assembler_.create_matrix(baij_stiffness_ ? Assembler::MatrixFormat::blocked
                                                  : Assembler::MatrixFormat::aij);
    assemble_stiffness(K_);
  }
  stop_if_interrupted(comm_, "during the set-up (the assembly, after the stiffness)");
  work_ = create_vector();
  work2_ = create_vector();
  if (!is_linear()) {
    K_tangent_ = assembler_.create_matrix();
    linearised_at_ = create_vector();
    if (has_dashpots()) B_ = assembler_.create_matrix();
    update_tangent(linearised_at_);  // the reference configuration
  }
  // Nodal masses (point masses: each node of the region once, owned nodes).
  point_masses_ = create_vector();
  {
    petsc::Array pm(point_masses_);
    for (const auto& t : terms_) t->add_nodal_mass(pm.span());
  }
  // Lumped masses always (the zero-mass check uses them), consistent M on request.
  lumped_mass_ = create_vector();
  lumped_masses(lumped_mass_);
  if (!nodal_terms_.empty()) {
    // Nodal terms of an explicit run sized from the linear stiffness's diagonal (summed from the
    // element matrices: no matrix, also for a matrix-free run) and the masses.
    petsc::Vector diagonal = create_vector();
    assembler_.assemble_diagonal(diagonal, [&](MatrixSum& sum) {
      for (const auto& t : terms_)
        if (const ForceTerm::Traits traits = t->traits(); traits.linear && !traits.load)
          t->add_stiffness({}, sum);
    });
    petsc::ConstArray d(diagonal), m(lumped_mass_);
    for (ForceTerm* t : nodal_terms_) t->set_up(d.span(), m.span());
  }
  if (!is_linear()) {
    // Terms sized from the model (contact penalties, nonlinear terms): the diagonal of the tangent
    // at the reference configuration and the masses; then that tangent again, with what they
    // sized (a body resting on a wall).
    {
      petsc::Vector diagonal = create_vector();
      INERTIA_PETSC(MatGetDiagonal(K_tangent_, diagonal));
      petsc::ConstArray d(diagonal), m(lumped_mass_);
      for (const auto& t : terms_) t->set_up(d.span(), m.span());
    }
    tangent_assembled_ = false;
    update_tangent(linearised_at_);
  }
  if (spec_.mass == MassTreatment::consistent) {
    M_ = assembler_.create_matrix();
    assemble_consistent_mass(M_);
    INERTIA_PETSC(MatDiagonalSet(M_, point_masses_, ADD_VALUES));
  }
  stop_if_interrupted(comm_, "during the set-up (the assembly, after the mass)");

  // Loads, one vector per amplitude (in the order of their first load).
  for (const auto& t : terms_) {
    const ForceTerm::Traits traits = t->traits();
    if (!traits.load) continue;
    if (std::none_of(loads_.begin(), loads_.end(),
                     [&](const auto& p) { return p.first == traits.amplitude; }))
      loads_.emplace_back(traits.amplitude, create_vector());
  }
  for (auto& [amplitude, f] : loads_)
    assembler_.assemble(f, [&](VectorSum& sum) {
      for (const auto& t : terms_)
        if (const ForceTerm::Traits traits = t->traits();
            traits.load && traits.amplitude == amplitude)
          t->add_load(terms_, sum);
    });

  // Constrained DOFs: later conditions override earlier ones on shared DOFs.
  struct Held {
    double value;
    int amplitude, condition;
  };
  std::map<PetscInt, Held> constrained;  // owned local DOF -> what holds it
  for (std::size_t c = 0; c < spec_.dirichlet.size(); ++c) {
    const auto& d = spec_.dirichlet[c];
    for (auto n : mesh_.region_owned_nodes[d.region])
      for (int i = 0; i < 3; ++i)
        if (d.components[i])
          constrained[3 * n + i] = {d.value[i], d.amplitude, static_cast<int>(c)};
  }
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  for (const auto& [local, held] : constrained) {
    constrained_.push_back(first + local);
    constrained_condition_.push_back(held.condition);
    if (held.value != 0.0) prescribed_.push_back({local, held.value, held.amplitude});
  }

  // DOFs two conditions name, each earlier condition against the one that holds the DOF in the
  // end, over all ranks: the driver says which applies. Two motions are alike when both are zero
  // (fixed), or have the same value and amplitude.
  {
    const std::size_t nc = spec_.dirichlet.size();
    std::vector<std::int64_t> shared(2 * nc * nc, 0);  // (earlier, later): DOFs, differing
    for (std::size_t c = 0; c < nc; ++c) {
      const auto& d = spec_.dirichlet[c];
      for (auto n : mesh_.region_owned_nodes[d.region])
        for (int i = 0; i < 3; ++i) {
          const auto held = d.components[i] ? constrained.find(3 * n + i) : constrained.end();
          if (held == constrained.end() || held->second.condition == static_cast<int>(c)) continue;
          const auto& later = spec_.dirichlet[held->second.condition];
          const bool alike =
              d.value[i] == later.value[i] && (d.value[i] == 0 || d.amplitude == later.amplitude);
          std::int64_t* k = &shared[2 * (c * nc + held->second.condition)];
          k[0] += 1;
          k[1] += alike ? 0 : 1;
        }
    }
    if (nc > 1)
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, shared.data(), static_cast<int>(shared.size()),
                                MPI_INT64_T, MPI_SUM, comm_));
    for (std::size_t a = 0; a < nc; ++a)
      for (std::size_t b = a + 1; b < nc; ++b)
        if (const std::int64_t* k = &shared[2 * (a * nc + b)]; k[0] > 0)
          overlaps_.push_back({static_cast<int>(a), static_cast<int>(b), k[0], k[1]});
  }

  int local_prescribed = prescribed_.empty() ? 0 : 1, any_prescribed = 0;
  INERTIA_MPI(MPI_Allreduce(&local_prescribed, &any_prescribed, 1, MPI_INT, MPI_MAX, comm_));
  has_prescribed_motion_ = any_prescribed != 0;

  // Which conditions hold some DOF of each component, over all ranks (the later condition holds
  // a DOF two name).
  const std::size_t nconditions = spec_.dirichlet.size();
  std::vector<int> holds(3 * nconditions, 0);
  for (const auto& [local, held] : constrained)
    holds[3 * static_cast<std::size_t>(held.condition) + static_cast<std::size_t>(local % 3)] = 1;
  if (nconditions > 0)
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, holds.data(), static_cast<int>(holds.size()), MPI_INT,
                              MPI_MAX, comm_));
  std::array<int, 3> ground_condition{-1, -1, -1};
  for (int d = 0; d < 3; ++d) {
    // Uniform: every holder of d accelerates it by the same record and value.
    bool accelerated = false, displaced = false, uniform = true;
    int first = -1;
    for (std::size_t c = 0; c < nconditions; ++c) {
      if (!holds[3 * c + static_cast<std::size_t>(d)]) continue;
      const auto& h = spec_.dirichlet[c];
      accelerated = accelerated || (h.record >= 0 && h.value[d] != 0);
      displaced = displaced || (h.record < 0 && h.value[d] != 0 && h.amplitude != 0);
      if (first < 0) {
        first = static_cast<int>(c);
      } else {
        const auto& f = spec_.dirichlet[static_cast<std::size_t>(first)];
        uniform = uniform && h.record == f.record && h.value[d] == f.value[d];
      }
      uniform = uniform && h.record >= 0 && h.value[d] != 0;
    }
    if (!accelerated) {
      if (displaced) ground_state_[d] = GroundMotion::displaced;
      continue;
    }
    ground_state_[d] = uniform ? GroundMotion::uniform : GroundMotion::multi_support;
    if (uniform) ground_condition[d] = first;
  }

  // Every free DOF needs mass or the system is singular.
  {
    run_collectively(comm_, [&] {
      petsc::ConstArray m(lumped_mass_);
      for (PetscInt i = 0; i < m.size(); ++i)
        if (!(m[i] > 0) && !constrained.count(i)) {
          const auto n = i / 3;
          throw InputError(cat("node ", mesh_.node_tags[n], " at (", mesh_.coords[3 * n], ", ",
                               mesh_.coords[3 * n + 1], ", ", mesh_.coords[3 * n + 2],
                               ") has no mass and is not constrained: give its region a "
                               "material or a point mass, or fix it"));
        }
    });
  }
  // Uniform base excitation: M r_d per component (before a consistent mass drops the lumped one).
  for (int d = 0; d < 3; ++d) {
    if (ground_condition[d] < 0) continue;
    const auto& h = spec_.dirichlet[static_cast<std::size_t>(ground_condition[d])];
    Ground g{d, h.amplitude, h.value[d], create_vector()};
    {
      petsc::Array r(work_);
      for (PetscInt i = 0; i < r.size(); ++i) r[i] = i % 3 == d ? 1.0 : 0.0;
    }
    if (M_)
      INERTIA_PETSC(MatMult(M_, work_, g.mass_translation));
    else
      INERTIA_PETSC(VecPointwiseMult(g.mass_translation, lumped_mass_, work_));
    ground_.push_back(std::move(g));
  }
  // Storage of external_minus_internal, sized once here so that the explicit steps allocate none.
  load_amplitudes_.assign(loads_.size() + ground_.size(), 0.0);
  load_arrays_.reserve(loads_.size() + ground_.size());

  if (M_) {
    lumped_mass_.reset();  // consistent treatment: M_ is the mass
  } else {
    inverse_mass_ = create_vector();
    petsc::ConstArray m(lumped_mass_);
    petsc::Array w(inverse_mass_);
    for (PetscInt i = 0; i < m.size(); ++i) w[i] = m[i] > 0 ? 1.0 / m[i] : 0.0;
    for (auto g : constrained_) w[g - first] = 0.0;
  }
}

void MechanicalSystem::lumped_masses(Vec m) const {
  INERTIA_PETSC(VecZeroEntries(m));
  assembler_.assemble(m, [&](VectorSum& sum) {
    for (const auto& t : terms_) t->add_lumped_mass(sum);
  });
  INERTIA_PETSC(VecAXPY(m, 1.0, point_masses_));
}

double MechanicalSystem::total_mass() const {
  double local = 0;
  for (const auto& t : terms_) local += t->mass();
  double global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return global;
}

double MechanicalSystem::penalty_frequency_squared() const {
  double bound = 0;
  for (const auto& t : terms_) bound = std::max(bound, t->frequency_squared_bound());
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &bound, 1, MPI_DOUBLE, MPI_MAX, comm_));
  return bound;
}

double MechanicalSystem::moving_work(Vec u0, Vec u1, double t0, double t1) const {
  if (!moving_) return 0;
  double local = 0;
  {
    petsc::ConstArray a(u0), b(u1);
    for (const auto& t : terms_) local += t->moving_work(a.span(), b.span(), t0, t1);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

void MechanicalSystem::assemble_stiffness(Mat K) const {
  assembler_.assemble(K, [&](MatrixSum& sum) {
    for (const auto& t : terms_)
      if (const ForceTerm::Traits traits = t->traits(); traits.linear && !traits.load)
        t->add_stiffness({}, sum);
  });
}

void MechanicalSystem::assemble_consistent_mass(Mat M) const {
  assembler_.assemble(M, [&](MatrixSum& sum) {
    for (const auto& t : terms_) t->add_consistent_mass(sum);
  });
}

void MechanicalSystem::add_nonlinear_forces(Vec u, Vec v, Vec f_int, Vec f_dashpot) const {
  if (linear_) return;
  petsc::GhostedRead ul(u);
  if (f_int)
    assembler_.assemble(f_int, [&](VectorSum& sum) {
      const TermPoint at{ul.span(), {}, term_time_};
      for (const auto& t : terms_)
        if (const auto traits = t->traits(); !traits.linear && !traits.gathers)
          t->add_internal_force(at, sum);
    });
  if (!f_dashpot || !dashpots_) return;
  petsc::GhostedRead vl(v);
  assembler_.assemble(f_dashpot, [&](VectorSum& sum) {
    const TermPoint at{ul.span(), vl.span(), term_time_};
    for (const auto& t : terms_)
      if (t->traits().dashpot) t->add_dashpot_force(at, sum);
  });
}

PetscInt MechanicalSystem::num_constrained_dofs() const {
  PetscInt local = static_cast<PetscInt>(constrained_.size()), global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPIU_INT, MPI_SUM, comm_));
  return global;
}

void MechanicalSystem::update_tangent(Vec u) {
  if (is_linear()) return;  // K does not depend on u
  if (tangent_assembled_ && (!moving_ || tangent_time_ == term_time_)) {
    PetscBool same = PETSC_FALSE;
    INERTIA_PETSC(VecEqual(u, linearised_at_, &same));
    if (same) return;
  }
  tangent_time_ = term_time_;
  if (u != linearised_at_.get()) INERTIA_PETSC(VecCopy(u, linearised_at_));
  // Until the assembly below succeeds, no tangent is valid: an element that cannot take u
  // (a SolverError, retried by Newton or the step controller) leaves K_tangent_ partly summed,
  // and a later call at the same u must assemble it again rather than use it.
  tangent_assembled_ = false;
  {
    petsc::GhostedRead ul(linearised_at_);
    const TermPoint at{ul.span(), {}, term_time_};
    // Every term's stiffness: the linear ones' constant K, the nonlinear ones' tangent at u.
    assembler_.assemble(K_tangent_, [&](MatrixSum& sum) {
      for (const auto& t : terms_)
        if (!t->traits().load) t->add_stiffness(at, sum);
    });
    if (B_)
      assembler_.assemble(B_, [&](MatrixSum& sum) {
        for (const auto& t : terms_)
          if (t->traits().dashpot) t->add_dashpot_matrix(at, sum);
      });
  }
  if (coupled_) build_coupling(linearised_at_, term_time_);
  tangent_assembled_ = true;
  for (auto& [key, solver] : solvers_)
    if (key[1] != 0 || key[2] != 0) solver.stale = true;
}

void MechanicalSystem::build_coupling(Vec u, double t) {
  gather(u, t);
  coupling_blocks_.clear();
  for (const ForceTerm* term : gathering_terms_) term->add_coupling(coupling_blocks_);
  // The pattern: a new generation where it changed on any rank.
  std::vector<std::pair<std::int64_t, std::int64_t>> pattern;
  pattern.reserve(coupling_blocks_.size());
  for (const auto& blk : coupling_blocks_) pattern.emplace_back(blk.row, blk.col);
  std::sort(pattern.begin(), pattern.end());
  pattern.erase(std::unique(pattern.begin(), pattern.end()), pattern.end());
  std::int64_t counts[2] = {static_cast<std::int64_t>(coupling_blocks_.size()),
                            pattern != coupling_pattern_ ? 1 : 0};
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, comm_));
  if (counts[1] > 0) ++coupling_generation_;
  coupling_pattern_ = std::move(pattern);
  coupling_.reset();
  if (counts[0] == 0) return;  // nothing in contact: the assembled tangent is the whole one
  // Entry by entry in PETSc's COO form: the rows may be other ranks' (a face's nodes).
  const std::size_t n = 9 * coupling_blocks_.size();
  std::vector<PetscInt> rows(n), cols(n);
  std::vector<PetscScalar> values(n);
  std::size_t e = 0;
  for (const auto& blk : coupling_blocks_)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j, ++e) {
        rows[e] = static_cast<PetscInt>(3 * blk.row + i);
        cols[e] = static_cast<PetscInt>(3 * blk.col + j);
        values[e] = blk.b[3 * i + j];
      }
  const PetscInt local = static_cast<PetscInt>(3 * mesh_.num_owned);
  INERTIA_PETSC(MatCreate(comm_, coupling_.out()));
  INERTIA_PETSC(MatSetSizes(coupling_, local, local, PETSC_DETERMINE, PETSC_DETERMINE));
  INERTIA_PETSC(MatSetType(coupling_, MATAIJ));
  INERTIA_PETSC(
      MatSetPreallocationCOO(coupling_, static_cast<PetscCount>(n), rows.data(), cols.data()));
  INERTIA_PETSC(MatSetValuesCOO(coupling_, values.data(), ADD_VALUES));
}

void MechanicalSystem::mult_mass(Vec x, Vec y) const {
  if (lumped_mass_)
    INERTIA_PETSC(VecPointwiseMult(y, lumped_mass_, x));
  else
    INERTIA_PETSC(MatMult(M_, x, y));
}

void MechanicalSystem::mult_stiffness(Vec x, Vec y) const {
  INERTIA_PETSC(MatMult(stiffness(), x, y));
}

void MechanicalSystem::mult_dashpot(Vec x, Vec y) const {
  if (B_)
    INERTIA_PETSC(MatMult(B_, x, y));
  else
    INERTIA_PETSC(VecZeroEntries(y));
}

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

std::size_t MechanicalSystem::load_factors(double t) const {
  for (std::size_t j = 0; j < loads_.size(); ++j)
    load_amplitudes_[j] = spec_.amplitudes[loads_[j].first].value(t);
  if (spec_.rayleigh.mass == 0) return loads_.size();
  for (std::size_t k = 0; k < ground_.size(); ++k)
    load_amplitudes_[loads_.size() + k] =
        spec_.rayleigh.mass * ground_[k].value * spec_.amplitudes[ground_[k].amplitude].rate(t);
  return loads_.size() + ground_.size();
}

void MechanicalSystem::external_force(double t, Vec f) const {
  INERTIA_PETSC(VecZeroEntries(f));
  const std::size_t n = load_factors(t);
  for (std::size_t j = 0; j < n; ++j)
    INERTIA_PETSC(VecAXPY(f, load_amplitudes_[j],
                          j < loads_.size() ? loads_[j].second.get()
                                            : ground_[j - loads_.size()].mass_translation.get()));
}

void MechanicalSystem::ground_damping_force(double t, Vec f) const {
  INERTIA_PETSC(VecZeroEntries(f));
  if (spec_.rayleigh.mass == 0) return;
  for (const auto& g : ground_)
    INERTIA_PETSC(VecAXPY(f, spec_.rayleigh.mass * g.value * spec_.amplitudes[g.amplitude].rate(t),
                          g.mass_translation));
}

void MechanicalSystem::ground_velocity(double t, Vec w) const {
  INERTIA_PETSC(VecZeroEntries(w));
  petsc::Array x(w);
  for (const auto& g : ground_) {
    const double v = g.value * spec_.amplitudes[g.amplitude].rate(t);
    for (PetscInt i = g.component; i < x.size(); i += 3) x[i] = v;
  }
}

void MechanicalSystem::internal_force(Vec u, Vec f) const {
  INERTIA_PETSC(MatMult(K_, u, f));
  add_nonlinear_forces(u, nullptr, f, nullptr);
  add_nodal_forces(u, term_time_, 1.0, nullptr, f);
}

void MechanicalSystem::add_nodal_forces(Vec u, double t, double factor, Vec scale, Vec f) const {
  if (nodal_terms_.empty()) return;
  gather(u, t);
  petsc::ConstArray ua(u);
  petsc::Array fa(f);
  std::optional<petsc::ConstArray> sa;
  if (scale) sa.emplace(scale);
  const std::span<const PetscScalar> s = sa ? sa->span() : std::span<const PetscScalar>();
  for (const ForceTerm* term : nodal_terms_)
    term->add_nodal_force(ua.span(), t, factor, s, fa.span());
}

void MechanicalSystem::gather(Vec u, double t) const {
  for (const ForceTerm* term : gathering_terms_) term->gather(u, t);
}

double MechanicalSystem::nodal_energy(Vec u) const {
  if (nodal_terms_.empty()) return 0;
  gather(u, term_time_);
  double local = 0;
  {
    petsc::ConstArray ua(u);
    const TermPoint at{ua.span(), {}, term_time_};
    for (const ForceTerm* term : nodal_terms_) local += term->energy(at);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

void MechanicalSystem::dashpot_force(Vec u, Vec v, Vec f) const {
  INERTIA_PETSC(VecZeroEntries(f));
  if (!has_dashpots()) return;
  add_nonlinear_forces(u, v, nullptr, f);
}

void MechanicalSystem::external_minus_internal(double t, Vec u, Vec f, Vec scale) const {
  term_time_ = t;
  INERTIA_PETSC(MatMult(K_, u, work2_));
  // Remember K u: the energy history's strain energy at this u then costs a dot product, not
  // a second product with K (explicit schemes evaluate the force at the u they end on).
  ku_.u = u;
  ku_.u_state = petsc::object_state(u);
  ku_.ku_state = petsc::object_state(work2_);
  // f = (sum of amplitude x load - K u) [x scale] in one pass. Each step: no allocation (the
  // loads' views go into load_arrays_, reserved in the constructor), and every view is given back
  // when this function returns or throws.
  const std::size_t nterms = load_factors(t);
  struct Release {
    std::vector<petsc::ConstArray>& arrays;
    ~Release() { arrays.clear(); }  // restores the loads' arrays; keeps the capacity
  } release{load_arrays_};
  for (const auto& load : loads_) load_arrays_.emplace_back(load.second);
  for (std::size_t k = loads_.size(); k < nterms; ++k)
    load_arrays_.emplace_back(ground_[k - loads_.size()].mass_translation);
  {
    petsc::ConstArray ku(work2_);
    petsc::Array fa(f);
    const PetscInt n = fa.size();
    double* __restrict out = fa.data();
    const double* __restrict k = ku.data();
    const std::size_t nloads = load_arrays_.size();
    const double a0 = nloads == 0 ? 0.0 : load_amplitudes_[0];
    const double* __restrict l0 = nloads == 0 ? k : load_arrays_[0].data();
    // The first load with K u (vectorised), then any further loads.
    for (PetscInt i = 0; i < n; ++i) out[i] = a0 * l0[i] - k[i];
    for (std::size_t j = 1; j < nloads; ++j) {
      const double a = load_amplitudes_[j];
      const double* __restrict l = load_arrays_[j].data();
      for (PetscInt i = 0; i < n; ++i) out[i] += a * l[i];
    }
    if (scale) {
      petsc::ConstArray sa(scale);
      const double* __restrict s = sa.data();
      for (PetscInt i = 0; i < n; ++i) out[i] *= s[i];
    }
  }
}

void MechanicalSystem::force(double t, Vec u, Vec v, Vec f) const {
  external_minus_internal(t, u, f, nullptr);  // sets term_time_
  add_nodal_forces(u, t, -1.0, nullptr, f);
  if (!is_linear()) {
    // Nonlinear elements (and dashpots): accumulate f_int and f_dashpot, then subtract both.
    INERTIA_PETSC(VecZeroEntries(work2_));
    add_nonlinear_forces(u, v, work2_, has_dashpots() ? work2_.get() : nullptr);
    INERTIA_PETSC(VecAXPY(f, -1.0, work2_));
  }
}

bool MechanicalSystem::lumped_acceleration(double t, Vec u, Vec a) const {
  if (!is_linear() || !inverse_mass_) return false;
  external_minus_internal(t, u, a, inverse_mass_);
  add_nodal_forces(u, t, -1.0, inverse_mass_, a);
  return true;
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

void MechanicalSystem::prescribe_increments(double t0, double t1, double h, double beta,
                                            double gamma, Vec du, Vec dv) const {
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  {
    petsc::Array x(du), y(dv);
    for (auto g : constrained_) x[g - first] = y[g - first] = 0.0;
    for (const auto& p : prescribed_) {
      const auto& a = spec_.amplitudes[p.amplitude];
      const double g1 = a.value(t1), r1 = a.rate(t1), a1 = a.acceleration(t1);
      x[p.local] = p.value * (g1 - h * h * beta * a1 - a.value(t0));
      y[p.local] = p.value * (r1 - h * gamma * a1 - a.rate(t0));
    }
  }
}

void MechanicalSystem::add_constrained(double s, Vec x, Vec y) const {
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  petsc::ConstArray xx(x);
  petsc::Array yy(y);
  for (auto g : constrained_) yy[g - first] += s * xx[g - first];
}

void MechanicalSystem::zero_constrained(Vec r) const {
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  petsc::Array x(r);
  for (auto g : constrained_) x[g - first] = 0.0;
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

void MechanicalSystem::support_reactions(double t, Vec u, Vec v, Vec a,
                                         std::span<double> out) const {
  INERTIA_CHECK(out.size() == constrained_.size(), InternalError, "support_reactions: expected ",
                constrained_.size(), " values");
  // The same state as the last call (reactions.csv and energy.csv at one step): its values.
  auto& cache = reactions_cache_;
  const std::array<Vec, 3> vecs{u, v, a};
  std::array<PetscObjectState, 3> states{};
  for (int k = 0; k < 3; ++k) states[k] = vecs[k] ? petsc::object_state(vecs[k]) : 0;
  if (cache.valid && cache.t == t && cache.vecs == vecs && cache.states == states) {
    std::copy(cache.values.begin(), cache.values.end(), out.begin());
    return;
  }
  cache.valid = false;
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  const auto& rayleigh = spec_.rayleigh;
  // Linear models with an assembled K: the constrained rows of K (and of a consistent M), cut
  // out once, so each call costs products with those rows only.
  const bool rows = is_linear() && !matrix_free_;
  if (rows && !reaction_rows_.K) {
    const auto n = static_cast<PetscInt>(constrained_.size());
    PetscInt lo = 0, hi = 0;
    INERTIA_PETSC(VecGetOwnershipRange(work_, &lo, &hi));
    petsc::IndexSet row_set, column_set;
    INERTIA_PETSC(ISCreateGeneral(comm_, n, constrained_.data(), PETSC_COPY_VALUES, row_set.out()));
    INERTIA_PETSC(ISCreateStride(comm_, hi - lo, lo, 1, column_set.out()));
    auto cut = [&](Mat A, petsc::Matrix& sub) {
      MatType type = nullptr;
      INERTIA_PETSC(MatGetType(A, &type));
      PetscBool aij = PETSC_FALSE;
      INERTIA_PETSC(PetscStrbeginswith(type, MATMPIAIJ, &aij));
      if (!aij) INERTIA_PETSC(PetscStrbeginswith(type, MATSEQAIJ, &aij));
      if (aij) {
        INERTIA_PETSC(MatCreateSubMatrix(A, row_set, column_set, MAT_INITIAL_MATRIX, sub.out()));
      } else {  // BAIJ (explicit schemes): through an AIJ copy, freed at once
        petsc::Matrix copy;
        INERTIA_PETSC(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, copy.out()));
        INERTIA_PETSC(MatCreateSubMatrix(copy, row_set, column_set, MAT_INITIAL_MATRIX, sub.out()));
      }
    };
    cut(K_, reaction_rows_.K);
    if (M_) cut(M_, reaction_rows_.M);
    INERTIA_PETSC(MatCreateVecs(reaction_rows_.K, nullptr, reaction_rows_.r.out()));
    INERTIA_PETSC(VecDuplicate(reaction_rows_.r, reaction_rows_.w.out()));
  }
  std::fill(out.begin(), out.end(), 0.0);
  auto add_rows = [&](Vec r, double scale) {
    petsc::ConstArray x(r);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += scale * x[static_cast<PetscInt>(i)];
  };
  auto add_picked = [&](Vec full, double scale) {
    petsc::ConstArray x(full);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += scale * x[constrained_[i] - first];
  };
  // Elastic (and Rayleigh stiffness) forces.
  if (rows) {
    // K_c (u + alpha_K v): one product with the rows.
    Vec x = u;
    if (rayleigh.stiffness != 0) {
      INERTIA_PETSC(VecWAXPY(work_, rayleigh.stiffness, v, u));
      x = work_;
    }
    INERTIA_PETSC(MatMult(reaction_rows_.K, x, reaction_rows_.r));
    add_rows(reaction_rows_.r, 1.0);
  } else {
    internal_force(u, work_);
    add_picked(work_, 1.0);
    if (has_dashpots()) {
      dashpot_force(u, v, work_);
      add_picked(work_, 1.0);
    }
    if (rayleigh.stiffness != 0) {
      mult_stiffness(v, work_);
      add_picked(work_, rayleigh.stiffness);
    }
  }
  // Inertia and Rayleigh mass damping: M (a + alpha_M v) on the constrained rows.
  if (a || rayleigh.mass != 0) {
    if (M_) {
      Vec x = a ? a : v;
      if (a && rayleigh.mass != 0) {
        INERTIA_PETSC(VecWAXPY(work_, rayleigh.mass, v, a));
        x = work_;
      }
      const double scale = a ? 1.0 : rayleigh.mass;
      if (rows) {
        INERTIA_PETSC(MatMult(reaction_rows_.M, x, reaction_rows_.r));
        add_rows(reaction_rows_.r, scale);
      } else {
        mult_mass(x, work2_);
        add_picked(work2_, scale);
      }
    } else {
      petsc::ConstArray m(lumped_mass_);
      std::optional<petsc::ConstArray> aa, vv;
      if (a) aa.emplace(a);
      if (rayleigh.mass != 0) vv.emplace(v);
      for (std::size_t i = 0; i < out.size(); ++i) {
        const PetscInt k = constrained_[i] - first;
        out[i] += m[k] * ((aa ? (*aa)[k] : 0.0) + (vv ? rayleigh.mass * (*vv)[k] : 0.0));
      }
    }
  }
  // Loads on the supported nodes.
  external_force(t, work_);
  add_picked(work_, -1.0);
  cache.values.assign(out.begin(), out.end());  // allocates on the first call only
  cache.t = t;
  cache.vecs = vecs;
  for (int k = 0; k < 3; ++k) cache.states[k] = vecs[k] ? petsc::object_state(vecs[k]) : 0;
  cache.valid = true;
}

void MechanicalSystem::reaction(double t, Vec u, Vec v, Vec a, Vec r) const {
  residual(t, u, v, a, r);
  keep_constrained(r);
}

petsc::Matrix MechanicalSystem::create_operator() const {
  // Matrix-free K: the (consistent) mass has the same pattern and near-null space.
  const Mat pattern = matrix_free_ || baij_stiffness_ ? M_.get() : K_.get();
  petsc::Matrix A;
  if (!pattern && baij_stiffness_) {
    // An explicit run's block K with a lumped mass (a solve it rarely makes: a static
    // equilibrium at the start): the operator in AIJ on K's pattern.
    INERTIA_PETSC(MatConvert(K_, MATAIJ, MAT_INITIAL_MATRIX, A.out()));
    INERTIA_PETSC(MatZeroEntries(A));
    MatNullSpace modes = nullptr;
    INERTIA_PETSC(MatGetNearNullSpace(K_, &modes));
    if (modes) INERTIA_PETSC(MatSetNearNullSpace(A, modes));
    INERTIA_PETSC(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
    return A;
  }
  INERTIA_CHECK(pattern, InternalError, "create_operator: no assembled matrix (matrix-free K)");
  INERTIA_PETSC(MatDuplicate(pattern, MAT_DO_NOT_COPY_VALUES, A.out()));
  // Zeroing constrained rows must not drop entries: refills copy with SAME_NONZERO_PATTERN.
  INERTIA_PETSC(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
  MatNullSpace modes = nullptr;
  INERTIA_PETSC(MatGetNearNullSpace(pattern, &modes));
  INERTIA_PETSC(MatSetNearNullSpace(A, modes));
  return A;
}

double MechanicalSystem::fill_operator(double m, double k, double b, Mat A_given, PC pc) const {
  // A run whose tangent couples nodes outside the assembled pattern (contact between bodies
  // under an implicit scheme) builds the operator in a fresh matrix of the assembled pattern,
  // adds the coupling (the union of both patterns), and puts it in place of A_given: the
  // operator's pattern follows the contact set.
  petsc::Matrix fresh;
  if (coupled_) fresh = create_operator();
  const Mat A = coupled_ ? fresh.get() : A_given;
  // All matrices share one pattern (Assembler::create_matrix), so the copies and sums keep the
  // structure.
  if (M_) {
    INERTIA_PETSC(MatCopy(M_, A, SAME_NONZERO_PATTERN));
    INERTIA_PETSC(MatScale(A, m));
  } else {
    INERTIA_PETSC(MatZeroEntries(A));
    INERTIA_PETSC(VecCopy(lumped_mass_, work2_));
    INERTIA_PETSC(VecScale(work2_, m));
    INERTIA_PETSC(MatDiagonalSet(A, work2_, ADD_VALUES));
  }
  INERTIA_CHECK(k == 0 || !matrix_free_, InputError,
                "time.operator: matrix_free has no assembled stiffness for an implicit solve; use "
                "an explicit scheme or time.operator: assembled");
  if (k != 0) INERTIA_PETSC(MatAXPY(A, k, stiffness(), SAME_NONZERO_PATTERN));
  if (b != 0 && B_) INERTIA_PETSC(MatAXPY(A, b, B_, SAME_NONZERO_PATTERN));
  if (k != 0 && coupling_) INERTIA_PETSC(MatAXPY(A, k, coupling_, DIFFERENT_NONZERO_PATTERN));
  // Constrained rows and columns: identity scaled by the mean diagonal.
  INERTIA_PETSC(MatGetDiagonal(A, work2_));
  PetscReal diagonal_sum = 0;
  INERTIA_PETSC(VecNorm(work2_, NORM_1, &diagonal_sum));
  double diagonal = num_global_dofs() > 0 ? diagonal_sum / num_global_dofs() : 1.0;
  if (!(diagonal > 0)) diagonal = 1.0;
  INERTIA_PETSC(MatZeroRowsColumns(A, static_cast<PetscInt>(constrained_.size()),
                                   constrained_.data(), diagonal, nullptr, nullptr));
  if (coupled_) {
    INERTIA_PETSC(MatHeaderReplace(A_given, fresh.in_place()));
    // The values changed (a preconditioner compares the matrix's state), and where the pattern
    // did too, the preconditioner starts again (a factorisation's symbolic part).
    // (MatHeaderReplace keeps A_given's state: an assembly, which costs nothing here, raises it.)
    INERTIA_PETSC(MatAssemblyBegin(A_given, MAT_FINAL_ASSEMBLY));
    INERTIA_PETSC(MatAssemblyEnd(A_given, MAT_FINAL_ASSEMBLY));
    auto [it, first] = filled_generation_.try_emplace(A_given, coupling_generation_);
    if (!first && it->second != coupling_generation_ && pc) INERTIA_PETSC(PCReset(pc));
    it->second = coupling_generation_;
  }
  return diagonal;
}

bool MechanicalSystem::mass_dominated(double m, double k) const {
  return omega_max_ > 0 && m > 0 && k >= 0 && k * omega_max_ * omega_max_ <= 30.0 * m;
}

MechanicalSystem::Solver& MechanicalSystem::solver(double m, double k, double b) {
  if (!B_) b = 0;
  const std::array<double, 3> key{m, k, b};
  auto it = solvers_.find(key);
  if (it != solvers_.end()) {
    Solver& s = it->second;
    if (s.stale) {
      PC pc = nullptr;
      INERTIA_PETSC(KSPGetPC(s.ksp, &pc));
      s.diagonal = fill_operator(m, k, b, s.A, pc);
      if (s.products) assembler_.copy_values(s.A, s.products);
      // The preconditioner is rebuilt.
      INERTIA_PETSC(KSPSetOperators(s.ksp, s.products ? s.products.get() : s.A.get(), s.A));
      s.stale = false;
    }
    return s;
  }
  Solver s;
  s.A = create_operator();
  s.diagonal = fill_operator(m, k, b, s.A);
  if (is_linear() || (k == 0 && b == 0)) INERTIA_PETSC(MatSetOption(s.A, MAT_SPD, PETSC_TRUE));

  INERTIA_PETSC(KSPCreate(comm_, s.ksp.out()));
  INERTIA_PETSC(KSPSetOperators(s.ksp, s.A, s.A));
  PC pc;
  INERTIA_PETSC(KSPGetPC(s.ksp, &pc));
  // CG for the symmetric positive definite operators of linear models; GMRES where a nonlinear
  // tangent may be indefinite (compressed springs, buckling).
  INERTIA_PETSC(KSPSetType(s.ksp, is_linear() || (k == 0 && b == 0) ? KSPCG : KSPGMRES));
  if (k == 0 && b == 0) {
    // A mass matrix: Jacobi-preconditioned CG converges in a few iterations.
    INERTIA_PETSC(KSPSetOptionsPrefix(s.ksp, "mass_"));
    INERTIA_PETSC(PCSetType(pc, PCJACOBI));
  } else if (mass_dominated(m, k) && b == 0) {
    // m M + k K with k omega_max^2 <= 30 m: the condition number is at most about 31 times
    // the mass matrix's, so Jacobi-CG needs a few tens of cheap iterations and no AMG setup.
    INERTIA_PETSC(PCSetType(pc, PCJACOBI));
  } else if (is_linear() && choose_direct(s.A, m, k, b)) {
    use_mumps_cholesky(s.ksp);
    s.direct = true;
  } else {
    INERTIA_PETSC(PCSetType(pc, PCGAMG));
    // Moderately stiff operators (k omega_max^2 <= 250 m: Newmark steps up to ~16x the stable
    // one; see plain_aggregation_limit) take plain aggregation: a third of smoothed aggregation's
    // set-up and cheaper iterations outweigh the extra ones. Measured on 206,763 DOFs of hex8
    // (examples/guide/large_runs.md, "Hot paths"): plain wins at 10x and 15x the stable step, loses
    // at 20x (251 iterations against 196 over 10 steps) and more so beyond.
    const double stiffness = omega_max_ > 0 && m > 0 ? k * omega_max_ * omega_max_ / m : INFINITY;
    if (stiffness <= plain_aggregation_limit) {
      INERTIA_PETSC(PCGAMGSetNSmooths(pc, 0));
      PetscBool given = PETSC_FALSE;
      INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, "-pc_gamg_agg_nsmooths", &given));
      if (is_linear() && !solver_notes_.empty() && !solver_given_in_options("") && !given)
        solver_notes_.back() +=
            cat("; plain aggregation (k omega_max^2 / m = ", std::lround(stiffness),
                " <= ", plain_aggregation_limit, ")");
    }
  }
  INERTIA_PETSC(KSPSetTolerances(s.ksp, 1e-10, 1e-50, PETSC_DEFAULT, 10000));
  INERTIA_PETSC(KSPSetFromOptions(s.ksp));
  // The previous solution is a good initial guess, except for direct solves.
  PetscBool preonly = PETSC_FALSE;
  INERTIA_PETSC(
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(s.ksp.get()), KSPPREONLY, &preonly));
  INERTIA_PETSC(KSPSetInitialGuessNonzero(s.ksp, preonly ? PETSC_FALSE : PETSC_TRUE));
  if (!preonly && !coupled_) {
    // Krylov iterations multiply by a BAIJ(3) copy of the operator (a third of the index data:
    // ~1.5x faster products); the preconditioner is built from the AIJ original, which every
    // PETSc preconditioner takes. One more matrix in memory, ~2/3 of the AIJ one.
    s.products = assembler_.create_matrix(Assembler::MatrixFormat::blocked);
    assembler_.copy_values(s.A, s.products);
    INERTIA_PETSC(KSPSetOperators(s.ksp, s.products, s.A));
  }
  INERTIA_PETSC(KSPSetUp(s.ksp));
  return solvers_.emplace(key, std::move(s)).first->second;
}

bool MechanicalSystem::choose_direct(Mat A, double m, double k, double b) {
  const std::string what = cat(m, " M + ", k, " K", b != 0 ? cat(" + ", b, " B") : "", " (",
                               num_global_dofs(), " DOFs): ");
  const SolverChoice choice =
      choose_solver(A, "", spec_.linear_solver, std::max(1.0, expected_solves_),
                    amg_products_per_solve, "time.linear_solver");
  solver_notes_.push_back(what + choice.why);
  return choice.direct;
}

SolveReport MechanicalSystem::solve(double m, double k, Vec r, Vec y, double b, Coupling coupling) {
  SolveReport report;
  const PetscInt first = static_cast<PetscInt>(3 * mesh_.node_begin);
  if (k == 0 && (b == 0 || !B_) && lumped_mass_) {
    // Diagonal mass: a pointwise product on the free DOFs (the constrained ones keep theirs).
    petsc::ConstArray rr(r), w(inverse_mass_);
    petsc::Array yy(y);
    constrained_values_.resize(constrained_.size());
    for (std::size_t i = 0; i < constrained_.size(); ++i)
      constrained_values_[i] = yy[constrained_[i] - first];
    const double scale = 1.0 / m;
    const PetscInt n = rr.size();
    double* __restrict out = yy.span().data();
    const double* __restrict in = rr.span().data();
    const double* __restrict inv = w.span().data();
    for (PetscInt i = 0; i < n; ++i) out[i] = scale * in[i] * inv[i];
    for (std::size_t i = 0; i < constrained_.size(); ++i)
      yy[constrained_[i] - first] = constrained_values_[i];
    return report;
  }
  Solver& s = solver(m, k, b);
  INERTIA_PETSC(VecCopy(r, work_));
  // Lift the prescribed values: rhs_free -= (m M + k K)_{free,constrained} y_constrained.
  if (has_prescribed_motion_ && coupling == Coupling::lift) {
    INERTIA_PETSC(VecZeroEntries(work2_));
    {
      petsc::ConstArray yy(y);
      petsc::Array w(work2_);
      for (auto g : constrained_) w[g - first] = yy[g - first];
    }
    if (!lift_) lift_ = create_vector();
    if (k != 0) {
      mult_stiffness(work2_, lift_);
      INERTIA_PETSC(VecAXPY(work_, -k, lift_));
    }
    if (b != 0 && B_) {
      mult_dashpot(work2_, lift_);
      INERTIA_PETSC(VecAXPY(work_, -b, lift_));
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
  if (s.direct && !s.checked) {
    // A factorisation of a singular operator (a body the constraints leave free to move)
    // returns a finite, wrong solution where an iterative solve fails: the first solve with
    // each factorisation checks its residual (one product).
    PetscReal rhs = 0, residual = 0;
    INERTIA_PETSC(MatMult(s.A, y, work2_));
    INERTIA_PETSC(VecAXPY(work2_, -1.0, work_));
    INERTIA_PETSC(VecNorm(work2_, NORM_2, &residual));
    INERTIA_PETSC(VecNorm(work_, NORM_2, &rhs));
    if (!(residual <= 1e-6 * rhs))
      throw SolverError(cat("the operator ", m, " M + ", k,
                            " K is singular (its factorisation "
                            "leaves a relative residual of ",
                            residual / rhs,
                            "): the constraints leave the body free to move (a static problem "
                            "needs supports against every rigid-body motion)"));
    s.checked = true;
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

void MechanicalSystem::commit_step(Vec u) {
  for (const ForceTerm* t : nodal_history_terms_) t->commit_nodal(u, term_time_);  // collective
  if (state_terms_.empty()) return;
  std::exception_ptr error;
  {
    petsc::GhostedRead ul(u);
    const TermPoint at{ul.span(), {}, term_time_};
    try {
      for (const ForceTerm* t : state_terms_) t->update_state(at);
    } catch (const SolverError&) {
      error = std::current_exception();
    }
  }
  rethrow_collectively(comm_, error);
  for (PointState* s : point_states_) s->commit();
}

MechanicalSystem::PlasticEnergy MechanicalSystem::plastic_energy() const {
  if (!plastic_) return {};
  double local[2] = {0, 0};
  for (const ForceTerm* t : state_terms_)
    local[0] += t->plastic_dissipation(), local[1] += t->plastic_work_error();
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, local, 2, MPI_DOUBLE, MPI_SUM, comm_));
  return {local[0], local[1]};
}

double MechanicalSystem::hourglass_energy(Vec u) const {
  if (!hourglass_) return 0;
  double local = 0;
  {
    petsc::GhostedRead ul(u);
    const TermPoint at{ul.span(), {}, term_time_};
    for (const auto& t : terms_) local += t->hourglass_energy(at);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

double MechanicalSystem::take_friction_dissipation() const {
  if (friction_terms_.empty()) return 0;
  double local = 0;
  for (const ForceTerm* t : friction_terms_) local += t->take_friction_dissipation();
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

void MechanicalSystem::reject_step() {
  for (PointState* s : point_states_) s->restore();
  for (const ForceTerm* t : multiplier_terms_) t->reject_multipliers();
}

double MechanicalSystem::augment(Vec u, double t, double inertia) {
  double worst = 0;
  for (const ForceTerm* term : multiplier_terms_)  // collective
    worst = std::max(worst, term->augment(u, t, false, inertia));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, comm_));
  if (worst > 1)
    for (const ForceTerm* term : multiplier_terms_) term->augment(u, t, true, inertia);
  return worst;
}

double MechanicalSystem::strain_energy(Vec u, Vec ku) const {
  INERTIA_CHECK(linear_, InternalError, "strain_energy(u, ku): a linear model only");
  const PetscObjectState u_state = petsc::object_state(u);
  const PetscObjectState ku_state = petsc::object_state(work2_);
  if (u == ku_.u && u_state == ku_.u_state && ku_state == ku_.ku_state)
    INERTIA_PETSC(VecCopy(work2_, ku));  // K u is still in work2_ (see force())
  else
    INERTIA_PETSC(MatMult(K_, u, ku));
  PetscScalar dot = 0;
  INERTIA_PETSC(VecDot(u, ku, &dot));
  return 0.5 * dot + nodal_energy(u);
}

double MechanicalSystem::strain_energy(Vec u) const {
  PetscScalar dot = 0;
  const PetscObjectState u_state = petsc::object_state(u);
  const PetscObjectState ku_state = petsc::object_state(work2_);
  if (u == ku_.u && u_state == ku_.u_state && ku_state == ku_.ku_state) {
    INERTIA_PETSC(VecDot(u, work2_, &dot));  // K u is still in work2_ (see force())
  } else {
    INERTIA_PETSC(MatMult(K_, u, work_));
    INERTIA_PETSC(VecDot(u, work_, &dot));
  }
  double local = 0;
  if (!linear_) {
    petsc::GhostedRead ul(u);
    const TermPoint at{ul.span(), {}, term_time_};
    for (const auto& t : terms_)  // the gathering terms' energy is in nodal_energy
      if (const auto traits = t->traits(); !traits.linear && !traits.gathers)
        local += t->energy(at);
  }
  double nonlinear = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &nonlinear, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return 0.5 * dot + nonlinear + nodal_energy(u);
}

}  // namespace inertia
