// Element erosion (system/erosion.hpp): the failure check of a solid term's rows at an accepted
// step, and what an eroded cell carries away.
#include "inertia/system/erosion.hpp"

#include <algorithm>

#include "inertia/fe/element.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

// The erosion state's components.
constexpr int eroded_k = 0, damage_k = 1, counted_k = 2, time_k = 3, mass_k = 4, kinetic_k = 5,
              strain_k = 6, momentum_k = 7;

PointStateLayout erosion_layout() {
  return {"erosion",
          {"eroded", "damage", "damage_plastic_strain", "time", "mass", "kinetic_energy",
           "strain_energy", "momentum_x", "momentum_y", "momentum_z"},
          1};
}

}  // namespace

CellErosion::CellErosion(const Assembler& assembler, const LocalMesh& mesh,
                         std::vector<std::int64_t> cells, const material::SolidMaterial& material,
                         const PointState* plastic)
    : assembler_(assembler),
      mesh_(mesh),
      cells_(std::move(cells)),
      material_(material),
      plastic_(plastic),
      flags_(cells_.size(), 0),
      state_(std::make_unique<PointState>(erosion_layout(), cells_)) {
  INERTIA_CHECK(material_.failure, InternalError, "CellErosion: the material has no criterion");
  INERTIA_CHECK(plastic_ || !material_.failure->needs_plasticity(), InternalError,
                "CellErosion: the criterion reads a plastic state the term does not have");
}

void CellErosion::centre_gradient(std::size_t r, std::span<const PetscScalar> u,
                                  double* grad) const {
  const std::int64_t c = cells_[r];
  const CellType t = mesh_.cell_types[c];
  const int n = info(t).num_nodes;
  double x[Assembler::max_cell_dofs], g[3 * fe::max_nodes], xi[3] = {0, 0, 0};
  assembler_.cell_coordinates(c, x);
  const auto rule = fe::stiffness_rule(t);  // its points' mean: the reference centre
  for (int q = 0; q < rule.num_points; ++q)
    for (int i = 0; i < 3; ++i) xi[i] += rule.points[3 * q + i] / rule.num_points;
  fe::physical_gradients(t, std::span<const double>(x, 3 * n), xi, g);
  const auto nodes = mesh_.nodes_of(c);
  std::fill(grad, grad + 9, 0.0);
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) grad[3 * i + j] += u[3 * nodes[a] + i] * g[3 * a + j];
}

std::vector<std::size_t> CellErosion::check(const TermPoint& at) {
  using Kind = material::FailureCriterion::Kind;
  const material::FailureCriterion& f = criterion();
  std::vector<std::size_t> failed;
  for (std::size_t r = 0; r < flags_.size(); ++r) {
    if (flags_[r]) continue;
    bool fails = false;
    if (f.kind == Kind::principal_strain) {
      double grad[9];
      centre_gradient(r, at.u, grad);
      fails = material::largest_principal_strain(grad, material_.model->finite_strain()) >= f.limit;
    } else {
      const double ep = plastic_->cell_average(r, fe::J2State::equivalent_plastic_strain);
      if (f.kind == Kind::equivalent_plastic_strain) {
        fails = ep >= f.limit;
      } else {
        const double step = ep - state_->committed(r)[counted_k];
        if (step > 0) {
          double s[6];
          plastic_->cell_stress(r, s);
          const double rate = plastic_->cell_average(r, fe::J2State::rate);
          const double ef = f.johnson_cook_strain(material::triaxiality(s), rate);
          set(r, damage_k, state_->committed(r)[damage_k] + step / ef);
          set(r, counted_k, ep);
        }
        fails = state_->committed(r)[damage_k] >= 1;
      }
    }
    if (fails) failed.push_back(r);
  }
  return failed;
}

double CellErosion::cell_energy(const ForceTerm& term, const TermPoint& at, std::size_t r) {
  const std::vector<std::uint8_t> kept = flags_;
  std::fill(flags_.begin(), flags_.end(), std::uint8_t{1});
  flags_[r] = 0;
  double e = 0;
  try {
    e = term.energy(at);
  } catch (...) {
    flags_ = kept;
    throw;
  }
  flags_ = kept;
  return e;
}

void CellErosion::erode(std::size_t r, double t, std::span<const PetscScalar> v, double strain) {
  const std::int64_t c = cells_[r];
  const CellType type = mesh_.cell_types[c];
  const int n = info(type).num_nodes;
  double x[Assembler::max_cell_dofs], m[fe::max_nodes];
  assembler_.cell_coordinates(c, x);
  fe::mass_lumped(type, std::span<const double>(x, 3 * n), material_.density,
                  std::span<double>(m, n));
  const auto nodes = mesh_.nodes_of(c);
  double mass = 0, kinetic = 0, p[3] = {0, 0, 0};
  for (int a = 0; a < n; ++a) {
    mass += m[a];
    for (int i = 0; i < 3; ++i) {
      const double va = v[3 * nodes[a] + i];
      kinetic += 0.5 * m[a] * va * va;
      p[i] += m[a] * va;
    }
  }
  flags_[r] = 1;
  set(r, eroded_k, 1);
  set(r, time_k, t);
  set(r, mass_k, mass);
  set(r, kinetic_k, kinetic);
  set(r, strain_k, strain);
  for (int i = 0; i < 3; ++i) set(r, momentum_k + i, p[i]);
}

void CellErosion::restore_flags() {
  for (std::size_t r = 0; r < flags_.size(); ++r)
    flags_[r] = state_->committed(r)[eroded_k] > 0.5 ? 1 : 0;
}

ErodedTotals CellErosion::totals() const {
  ErodedTotals s;
  for (std::size_t r = 0; r < flags_.size(); ++r) {
    if (!flags_[r]) continue;
    const auto row = state_->committed(r);
    s.cells += 1;
    s.mass += row[mass_k];
    s.kinetic += row[kinetic_k];
    s.strain += row[strain_k];
    for (int i = 0; i < 3; ++i) s.momentum[i] += row[momentum_k + i];
  }
  return s;
}

void CellErosion::set(std::size_t r, int k, double value) {
  state_->committed_values()[r * static_cast<std::size_t>(state_->stride()) + k] = value;
  state_->trial(r)[k] = value;
}

}  // namespace inertia
