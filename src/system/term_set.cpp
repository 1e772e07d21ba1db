#include "inertia/system/term_set.hpp"

#include <algorithm>
#include <exception>
#include <optional>

#include "inertia/parallel/session.hpp"

namespace inertia {

TermSet::TermSet(MPI_Comm comm, const Assembler& assembler, const ProblemSpec& spec,
                 std::vector<std::unique_ptr<ForceTerm>> terms)
    : comm_(comm), assembler_(assembler), terms_(std::move(terms)) {
  // An explicit run whose only nonlinear terms are nodal (rigid walls) stays a linear model with
  // those terms added node by node; otherwise they are nonlinear terms like the others.
  bool only_nodal = spec.explicit_scheme;
  for (const auto& t : terms_) {
    const ForceTerm::Traits traits = t->traits();
    if (!traits.linear && !traits.load && !(traits.nodal && !traits.dashpot)) only_nodal = false;
  }
  for (const auto& m : spec.materials) {
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
      if (traits.gathers && !spec.explicit_scheme) linear_ = false, coupled_ = true;
    } else
      linear_ = linear_ && (traits.linear || traits.load);
    dashpots_ = dashpots_ || traits.dashpot;
    hourglass_ = hourglass_ || traits.hourglass;
    if (traits.friction) friction_terms_.push_back(t.get());
    if (traits.friction || traits.multipliers || traits.body)
      nodal_history_terms_.push_back(t.get());
    if (traits.body) body_terms_.push_back(t.get());
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
  for (const auto& t : terms_)  // erosion: after the history variables
    if (CellErosion* e = t->erosion()) {
      erosion_terms_.push_back(t.get());
      point_states_.push_back(&e->state());
    }
}

TermSet::Evaluation TermSet::Evaluation::of(Vec u, double t) {
  Evaluation e;
  INERTIA_PETSC(PetscObjectGetId(reinterpret_cast<PetscObject>(u), &e.id));
  INERTIA_PETSC(PetscObjectStateGet(reinterpret_cast<PetscObject>(u), &e.state));
  e.time = t;
  return e;
}

void TermSet::assemble_stiffness(Mat K) const {
  assembler_.assemble(K, [&](MatrixSum& sum) {
    for (const auto& t : terms_)
      if (const ForceTerm::Traits traits = t->traits(); traits.linear && !traits.load)
        t->add_stiffness({}, sum);
  });
}

void TermSet::assemble_stiffness_diagonal(Vec d) const {
  assembler_.assemble_diagonal(d, [&](MatrixSum& sum) {
    for (const auto& t : terms_)
      if (const ForceTerm::Traits traits = t->traits(); traits.linear && !traits.load)
        t->add_stiffness({}, sum);
  });
}

void TermSet::add_contact_stiffness_diagonal(Vec d) const {
  bool any = false;
  for (const auto& t : terms_) any = any || t->traits().contact_stiffness;
  if (!any) return;  // the same on every rank: every rank holds every term
  petsc::Vector extra = assembler_.create_vector();
  assembler_.assemble_diagonal(extra, [&](MatrixSum& sum) {
    for (const auto& t : terms_)
      if (t->traits().contact_stiffness) t->add_contact_stiffness(sum);
  });
  INERTIA_PETSC(VecAXPY(d, 1.0, extra));
}

void TermSet::assemble_tangent(const TermPoint& at, Mat K, Mat B) const {
  // The tangents write the trial states at `at` (J2 solids' force_energy reads them): the force
  // pass's record ends here too.
  forced_ = force_pass_ = {};
  // Every term's stiffness: the linear ones' constant K, the nonlinear ones' tangent at u.
  assembler_.assemble(K, [&](MatrixSum& sum) {
    for (const auto& t : terms_)
      if (!t->traits().load) t->add_stiffness(at, sum);
  });
  if (B)
    assembler_.assemble(B, [&](MatrixSum& sum) {
      for (const auto& t : terms_)
        if (t->traits().dashpot) t->add_dashpot_matrix(at, sum);
    });
}

bool TermSet::consistent_mass_is_lumped() const {
  for (const auto& t : terms_)
    if (!t->consistent_mass_is_lumped()) return false;
  return true;
}

void TermSet::assemble_consistent_mass(Mat M) const {
  assembler_.assemble(M, [&](MatrixSum& sum) {
    for (const auto& t : terms_) t->add_consistent_mass(sum);
  });
}

void TermSet::assemble_lumped_masses(Vec m) const {
  INERTIA_PETSC(VecZeroEntries(m));
  assembler_.assemble(m, [&](VectorSum& sum) {
    for (const auto& t : terms_) t->add_lumped_mass(sum);
  });
}

void TermSet::add_nodal_masses(std::span<PetscScalar> owned) const {
  for (const auto& t : terms_) t->add_nodal_mass(owned);
}

void TermSet::set_up(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> masses,
                     bool nodal_only) const {
  if (nodal_only)
    for (ForceTerm* t : nodal_terms_) t->set_up(diagonal, masses);
  else
    for (const auto& t : terms_) t->set_up(diagonal, masses);
}

std::vector<std::pair<int, petsc::Vector>> TermSet::assemble_loads() const {
  std::vector<std::pair<int, petsc::Vector>> loads;
  for (const auto& t : terms_) {
    const ForceTerm::Traits traits = t->traits();
    if (!traits.load) continue;
    if (std::none_of(loads.begin(), loads.end(),
                     [&](const auto& p) { return p.first == traits.amplitude; }))
      loads.emplace_back(traits.amplitude, assembler_.create_vector());
  }
  for (auto& [amplitude, f] : loads)
    assembler_.assemble(f, [&](VectorSum& sum) {
      for (const auto& t : terms_)
        if (const ForceTerm::Traits traits = t->traits();
            traits.load && traits.amplitude == amplitude)
          t->add_load(terms_, sum);
    });
  return loads;
}

void TermSet::add_nonlinear_forces(Vec u, Vec v, double t, Vec f_int, Vec f_dashpot) const {
  if (linear_) return;
  petsc::GhostedRead ul(u);
  if (f_int) {
    forced_ = force_pass_ = {};
    assembler_.assemble(f_int, [&](VectorSum& sum) {
      const TermPoint at{ul.span(), {}, t};
      for (const auto& term : terms_)
        if (const auto traits = term->traits(); !traits.linear && !traits.gathers)
          term->add_internal_force(at, sum);
    });
    forced_ = force_pass_ = Evaluation::of(u, t);
  }
  if (!f_dashpot || !dashpots_) return;
  petsc::GhostedRead vl(v);
  assembler_.assemble(f_dashpot, [&](VectorSum& sum) {
    const TermPoint at{ul.span(), vl.span(), t};
    for (const auto& term : terms_)
      if (term->traits().dashpot) term->add_dashpot_force(at, sum);
  });
}

void TermSet::add_nodal_forces(Vec u, double t, double factor, Vec scale, Vec f) const {
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

void TermSet::gather(Vec u, double t) const {
  for (const ForceTerm* term : gathering_terms_) term->gather(u, t);
}

void TermSet::add_coupling(std::vector<ForceTerm::CouplingBlock>& blocks) const {
  for (const ForceTerm* term : gathering_terms_) term->add_coupling(blocks);
}

double TermSet::nodal_energy(Vec u, double t) const {
  if (nodal_terms_.empty()) return 0;
  gather(u, t);
  double local = 0;
  {
    petsc::ConstArray ua(u);
    const TermPoint at{ua.span(), {}, t};
    for (const ForceTerm* term : nodal_terms_) local += term->energy(at);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

double TermSet::nonlinear_energy(Vec u, double t) const {
  if (linear_) return 0;
  // The terms that computed their energy with the last internal force, at this u and time, give
  // it (also after a commit: an explicit step's energies); the others evaluate theirs (writing
  // their trial states at u).
  const Evaluation here = Evaluation::of(u, t);
  const bool forced = forced_ == here, from_force = force_pass_ == here;
  double local = 0;
  {
    petsc::GhostedRead ul(u);
    const TermPoint at{ul.span(), {}, t};
    for (const auto& term : terms_)  // the gathering terms' energy is in nodal_energy
      if (const auto traits = term->traits(); !traits.linear && !traits.gathers) {
        if (from_force && term->energy_from_force()) {
          local += term->force_energy(at);
          continue;
        }
        forced_ = {};
        local += term->energy(at);
      }
  }
  still_forced(forced, u, t, from_force);
  return local;
}

void TermSet::still_forced(bool forced, Vec u, double t, bool from_force) const {
  // A ghost update raises u's state without changing a value: the force's evaluation still holds
  // if nothing else evaluated the trial states since (forced_ is then still set); its energies
  // hold whatever came since but another force pass.
  if (forced && forced_.state >= 0) forced_ = Evaluation::of(u, t);
  if (from_force) force_pass_ = Evaluation::of(u, t);
}

void TermSet::commit(Vec u, double t) const {
  for (const ForceTerm* term : nodal_history_terms_) term->commit_nodal(u, t);  // collective
  if (state_terms_.empty()) return;
  // The terms whose last force evaluation was at this u (an explicit step's) hold its trial
  // state already: the others evaluate theirs.
  const bool forced = forced_ == Evaluation::of(u, t);
  std::exception_ptr error;
  if (!forced || std::any_of(state_terms_.begin(), state_terms_.end(),
                             [](const ForceTerm* term) { return !term->trial_from_force(); })) {
    petsc::GhostedRead ul(u);
    const TermPoint at{ul.span(), {}, t};
    try {
      for (const ForceTerm* term : state_terms_)
        if (!forced || !term->trial_from_force()) term->update_state(at);
    } catch (const SolverError&) {
      error = std::current_exception();
    }
  }
  rethrow_collectively(comm_, error);
  forced_ = {};
  for (PointState* s : point_states_) s->commit();
}

void TermSet::reject() const {
  forced_ = force_pass_ = {};
  for (PointState* s : point_states_) s->restore();
  for (const ForceTerm* t : multiplier_terms_) t->reject_multipliers();
}

std::int64_t TermSet::erode(Vec u, Vec v, double t) const {
  if (erosion_terms_.empty()) return 0;
  std::vector<std::vector<std::size_t>> failed;
  std::int64_t count = 0;
  {
    petsc::GhostedRead ul(u);
    const TermPoint at{ul.span(), {}, t};
    for (const ForceTerm* term : erosion_terms_) {
      failed.push_back(term->erosion()->check(at));
      count += static_cast<std::int64_t>(failed.back().size());
    }
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, comm_));
  if (count == 0) return 0;
  std::exception_ptr error;
  {
    petsc::GhostedRead ul(u), vl(v);
    const TermPoint at{ul.span(), {}, t};
    try {
      for (std::size_t k = 0; k < erosion_terms_.size(); ++k) {
        CellErosion& e = *erosion_terms_[k]->erosion();
        // Each failing cell's own stored energy (the term on that row alone), then the flags.
        std::vector<double> strain;
        for (const std::size_t r : failed[k])
          strain.push_back(e.cell_energy(*erosion_terms_[k], at, r));
        for (std::size_t i = 0; i < failed[k].size(); ++i)
          e.erode(failed[k][i], t, vl.span(), strain[i]);
      }
    } catch (const SolverError&) {
      error = std::current_exception();
    }
  }
  rethrow_collectively(comm_, error);
  cells_eroded(u, t);
  return count;
}

void TermSet::cells_eroded(Vec u, double t) const {
  eroded_cells_.assign(static_cast<std::size_t>(assembler_.mesh().num_cells()), 0);
  for (const ForceTerm* term : erosion_terms_) {
    const CellErosion& e = *term->erosion();
    for (std::size_t r = 0; r < e.rows(); ++r)
      if (e.gone(r)) eroded_cells_[static_cast<std::size_t>(e.cells()[r])] = 1;
  }
  for (const auto& term : terms_) term->cells_eroded(eroded_cells_, u, t);  // collective, in order
}

std::int64_t TermSet::restore_erosion() const {
  std::int64_t count = 0;
  for (const ForceTerm* term : erosion_terms_) {
    term->erosion()->restore_flags();
    count += static_cast<std::int64_t>(term->erosion()->totals().cells);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, comm_));
  if (count > 0) cells_eroded(nullptr, 0);  // the terms' eroded energies: their own states
  return count;
}

ErodedTotals TermSet::eroded() const {
  double local[7] = {0, 0, 0, 0, 0, 0, 0};
  for (const ForceTerm* term : erosion_terms_) {
    const ErodedTotals e = term->erosion()->totals();
    const double row[7] = {e.cells,       e.mass,        e.kinetic,    e.strain,
                           e.momentum[0], e.momentum[1], e.momentum[2]};
    for (int i = 0; i < 7; ++i) local[i] += row[i];
  }
  for (const auto& t : terms_) local[3] += t->eroded_energy();  // contact pairs' (erosion.hpp)
  if (erosion_terms_.empty()) return {};
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, local, 7, MPI_DOUBLE, MPI_SUM, comm_));
  return {local[0], local[1], local[2], local[3], {local[4], local[5], local[6]}};
}

double TermSet::augment(Vec u, double t, double inertia) const {
  double worst = 0;
  for (const ForceTerm* term : multiplier_terms_)  // collective
    worst = std::max(worst, term->augment(u, t, false, inertia));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, comm_));
  if (worst > 1)
    for (const ForceTerm* term : multiplier_terms_) term->augment(u, t, true, inertia);
  return worst;
}

double TermSet::body_kinetic_energy() const {
  double e = 0;  // the same on every rank: no sum over ranks
  for (const ForceTerm* t : body_terms_) e += t->body_kinetic_energy();
  return e;
}

double TermSet::total_mass() const {
  double local = 0;
  for (const auto& t : terms_) local += t->mass();
  double global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return global;
}

double TermSet::penalty_frequency_squared() const {
  double bound = 0;
  for (const auto& t : terms_) bound = std::max(bound, t->frequency_squared_bound());
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &bound, 1, MPI_DOUBLE, MPI_MAX, comm_));
  return bound;
}

void TermSet::penalty_diagonal(Vec d) const {
  INERTIA_PETSC(VecZeroEntries(d));
  petsc::Array a(d);
  for (const auto& t : terms_) t->add_penalty_diagonal(a.span());
}

double TermSet::moving_work(Vec u0, Vec u1, double t0, double t1) const {
  if (!moving_) return 0;
  double local = 0;
  {
    petsc::ConstArray a(u0), b(u1);
    for (const auto& t : terms_)
      local += t->traits().gathers ? t->gathered_moving_work(u0, u1, t0, t1)
                                   : t->moving_work(a.span(), b.span(), t0, t1);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

PlasticEnergy TermSet::plastic_energy() const {
  if (!plastic_) return {};
  double local[2] = {0, 0};
  for (const ForceTerm* t : state_terms_)
    local[0] += t->plastic_dissipation(), local[1] += t->plastic_work_error();
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, local, 2, MPI_DOUBLE, MPI_SUM, comm_));
  return {local[0], local[1]};
}

double TermSet::hourglass_energy(Vec u, double t) const {
  if (!hourglass_) return 0;
  // The terms that computed it with the last internal force, at this u and time, give it.
  const Evaluation here = Evaluation::of(u, t);
  const bool forced = forced_ == here, from_force = force_pass_ == here;
  double local = 0;
  {
    petsc::GhostedRead ul(u);
    const TermPoint at{ul.span(), {}, t};
    for (const auto& term : terms_)
      local += from_force && term->energy_from_force() ? term->force_hourglass_energy(at)
                                                       : term->hourglass_energy(at);
  }
  still_forced(forced, u, t, from_force);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

double TermSet::take_friction_dissipation() const {
  if (friction_terms_.empty()) return 0;
  double local = 0;
  for (const ForceTerm* t : friction_terms_) local += t->take_friction_dissipation();
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &local, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return local;
}

}  // namespace inertia
