// Solids: one force term per material region, its kinematics x its constitutive model
// (material/constitutive.hpp) x the model's point state: linear elastic (a constant K), a
// large-deformation law of fe/hyperelastic.hpp (force, tangent and energy at u) or J2
// plasticity (fe/plasticity.hpp, with a PointState).
#include <cmath>
#include <iterator>
#include <limits>
#include <memory>

#include "cell_masses.hpp"
#include "inertia/assembly/j2_batches.hpp"
#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/erosion.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

/// The hourglass energy of a region's reduced hex8 cells (fe/hex8_technology.hpp), from their
/// hourglass vectors and stiffness, computed on first use (33 values per cell).
class ReducedGeometry {
 public:
  /// The reduced hex8 cells' fe::hex8_reduced_geometry (mean gradients, volume, hourglass
  /// vectors), built on first use, one block per cell of `cells` in order.
  const double* of(const Assembler& assembler, std::span<const std::int64_t> cells,
                   std::size_t k) const {
    if (data_.empty()) {
      data_.resize(fe::hex8_reduced_values * cells.size());
      double x[Assembler::max_cell_dofs];
      for (std::size_t c = 0; c < cells.size(); ++c) {
        assembler.cell_coordinates(cells[c], x);
        fe::hex8_reduced_geometry(std::span<const double>(x, 24),
                                  &data_[fe::hex8_reduced_values * c]);
      }
    }
    return &data_[fe::hex8_reduced_values * k];
  }
  /// The energy of the hourglass modes of a reduced region at u on this rank (0 otherwise).
  double hourglass_energy(const Assembler& assembler, const LocalMesh& mesh,
                          std::span<const std::int64_t> cells,
                          const material::SolidMaterial& material, std::span<const PetscScalar> u,
                          const CellErosion* erosion) const {
    if (material.technology.formulation != fe::Formulation::reduced) return 0;
    double local = 0, ue[24];
    for (std::size_t k = 0; k < cells.size(); ++k) {
      if (erosion && erosion->gone(k)) continue;  // erosion: an eroded cell adds nothing
      const auto nodes = mesh.nodes_of(cells[k]);
      for (std::size_t a = 0; a < nodes.size(); ++a)
        for (int i = 0; i < 3; ++i) ue[3 * a + i] = u[3 * nodes[a] + i];
      const double* g = of(assembler, cells, k);
      local += fe::add_hourglass_force(
          g + 25, material.technology.hourglass * material.mu() * g[57], ue, {});
    }
    return local;
  }

 private:
  mutable std::vector<double> data_;
};

/// The solids of one material region: the kinematics (the region's hex8 formulation, small or
/// finite strain) x its constitutive model x the model's state. The element kernel is chosen once,
/// from the model: its hyperelastic law (no state: the linear stiffness of fe/element.hpp or the
/// large-deformation kernels of fe/hyperelastic.hpp) or J2 plasticity (fe/plasticity.hpp's
/// j2_element, the state at the stiffness quadrature points of each cell a PointState; every
/// evaluation at u writes its trial state, the return map from the committed one).
class SolidTerm final : public ForceTerm {
 public:
  SolidTerm(MPI_Comm comm, const Assembler& assembler, const LocalMesh& mesh, std::string region,
            const material::SolidMaterial& material, std::vector<std::int64_t> cells)
      : assembler_(assembler),
        mesh_(mesh),
        region_(std::move(region)),
        material_(material),
        law_(material.model->hyperelastic_law()),
        j2_(material.model->j2()),
        lame_(material.lame()),
        cells_(std::move(cells)) {
    if (j2_) set_up_state(comm);
    if (material_.failure)  // erosion: the cells' flags (erosion.hpp)
      erosion_ = std::make_unique<CellErosion>(assembler_, mesh_, cells_, material_, state_.get());
  }

  std::string describe() const override {
    if (!j2_) return cat("solids of region '", region_, "' (", material_.law().name, ")");
    return cat("solids of region '", region_, "' (", material_.law().name, ", J2 plasticity",
               material_.technology.formulation == fe::Formulation::full
                   ? ""
                   : cat(", hex8 ", fe::name(material_.technology.formulation)),
               ")");
  }
  /// With state: path-dependent, the forces are not the gradient of an energy (friction's line
  /// search).
  Traits traits() const override {
    if (j2_) return {.linear = false, .friction = true};
    return {.linear = material_.is_linear()};
  }
  PointState* point_state() const override { return state_.get(); }
  bool trial_from_force() const override { return j2_ != nullptr; }
  CellErosion* erosion() const override { return erosion_.get(); }

  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    if (j2_) {
      std::size_t row = 0;
      K.add_cells(cells_, [&](std::int64_t c, CellType t, auto x, auto Ke) {
        if (gone(row)) return keep_committed(row++);  // erosion: a zero matrix
        evaluate(at, c, t, x, row++, {}, Ke);
      });
    } else if (material_.is_linear()) {
      K.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto Ke) {
        fe::stiffness_linear_elastic(t, x, lame_.lambda, lame_.mu, material_.technology, Ke);
      });
    } else {
      std::size_t row = 0;
      K.add_cells(cells_, [&](std::int64_t c, CellType t, auto x, auto Ke) {
        if (gone(row++)) return;  // erosion: a zero matrix
        double ue[Assembler::max_cell_dofs];
        gather(at.u, c, ue);
        fe::hyperelastic_force_tangent(t, x, std::span<const double>(ue, x.size()), *law_, lame_,
                                       {}, Ke);
      });
    }
  }

  /// J2: the force pass writes every row's trial state, from which force_energy takes the
  /// stored energy (the points' free energy; a reduced cell's hourglass energy at u besides).
  bool energy_from_force() const override { return j2_ != nullptr; }
  double force_energy(const TermPoint& at) const override {
    // The rows holding the force pass's state: its trial rows, or the committed ones after the
    // step's commit swapped them in.
    // The committed rows: their dissipation and work error in the same sweep, for
    // plastic_dissipation and plastic_work_error of this commit.
    const bool committed = state_->commits() != force_commits_;
    const int points = state_->layout().points, n = state_->num_components();
    double local = 0, dissipation = 0, work_error = 0;
    for (std::size_t r = 0; r < state_->rows(); ++r) {
      const auto row = committed ? state_->committed(r) : state_->trial(r);
      for (int q = 0; q < state_->points(r); ++q) {
        const double* s = row.data() + q * n;
        const double v = volumes_[r * points + q];
        dissipation += v * s[fe::J2State::dissipation];
        work_error += v * s[fe::J2State::work_error];
        if (!gone(r))  // erosion: no energy (as energy())
          local += v * fe::j2_free_energy(*j2_, s + fe::J2State::strain, s);
      }
    }
    if (committed) sums_ = {state_->commits(), dissipation, work_error};
    if (material_.technology.formulation == fe::Formulation::reduced) local += hourglass_energy(at);
    return local;
  }

  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    if (j2_) force_commits_ = state_->commits();
    if (batches_) {  // the batched kernel: every row's trial state, the forces
      std::string why;
      const std::int64_t failed = batches_->add_force(
          at.u, at.time, state_->committed_values().data(), state_->trial_values(), f.local(), why,
          erosion_ ? erosion_->flags() : nullptr);
      if (failed >= 0) f.fail(cells_[static_cast<std::size_t>(failed)], SolverError(why));
      return;
    }
    if (j2_) {
      std::size_t row = 0;
      f.add_cells(cells_, [&](std::int64_t c, CellType t, auto x, auto fe_vec) {
        if (gone(row)) return keep_committed(row++), false;  // erosion
        evaluate(at, c, t, x, row++, fe_vec, {});
        return true;
      });
    } else if (!material_.is_linear()) {
      std::size_t row = 0;
      f.add_cells(cells_, [&](std::int64_t c, CellType t, auto x, auto fe_vec) {
        if (gone(row++)) return false;  // erosion
        double ue[Assembler::max_cell_dofs];
        gather(at.u, c, ue);
        fe::hyperelastic_force_tangent(t, x, std::span<const double>(ue, x.size()), *law_, lame_,
                                       fe_vec, {});
        return true;
      });
    }
  }

  double energy(const TermPoint& at) const override {
    if (!j2_ && material_.is_linear()) return 0;
    double local = 0, x[Assembler::max_cell_dofs], ue[Assembler::max_cell_dofs];
    for (std::size_t r = 0; r < cells_.size(); ++r) {
      if (gone(r)) {  // erosion
        if (j2_) keep_committed(r);
        continue;
      }
      const std::int64_t c = cells_[r];
      const CellType t = mesh_.cell_types[c];
      const auto nd = static_cast<std::size_t>(3 * info(t).num_nodes);
      assembler_.cell_coordinates(c, x);
      if (j2_) {
        local += evaluate(at, c, t, std::span<const double>(x, nd), r, {}, {});
        continue;
      }
      gather(at.u, c, ue);
      try {
        local += fe::hyperelastic_energy(t, std::span<const double>(x, nd),
                                         std::span<const double>(ue, nd), *law_, lame_);
      } catch (const SolverError&) {
        return std::numeric_limits<double>::quiet_NaN();  // an inverted element has no energy
      }
    }
    return local;
  }
  void update_state(const TermPoint& at) const override {
    if (j2_) energy(at);
  }
  /// The plastic dissipation (J2State::dissipation) of the committed states on this rank.
  double plastic_dissipation() const override {
    if (!j2_) return 0;
    return sums_.commits == state_->commits() ? sums_.dissipation
                                              : integral(fe::J2State::dissipation);
  }
  /// The work error (J2State::work_error) of the committed states on this rank.
  double plastic_work_error() const override {
    if (!j2_) return 0;
    return sums_.commits == state_->commits() ? sums_.work_error
                                              : integral(fe::J2State::work_error);
  }

  bool holds_nonlinear_solid(std::int64_t c) const override {
    return (j2_ || !material_.is_linear()) && std::binary_search(cells_.begin(), cells_.end(), c);
  }
  void nonlinear_solid_force(std::span<const PetscScalar> u, std::int64_t c,
                             double* f) const override {
    const auto r = static_cast<std::size_t>(std::lower_bound(cells_.begin(), cells_.end(), c) -
                                            cells_.begin());
    const CellType t = mesh_.cell_types[c];
    const auto nd = static_cast<std::size_t>(3 * info(t).num_nodes);
    std::fill(f, f + nd, 0.0);
    if (gone(r)) return;  // erosion: no force
    double x[Assembler::max_cell_dofs];
    assembler_.cell_coordinates(c, x);
    const std::span<const double> xs(x, nd);
    if (j2_) {  // the committed state's own rate (no time passes)
      evaluate({u, {}, -HUGE_VAL}, c, t, xs, r, std::span<double>(f, nd), {});
      return;
    }
    double ue[Assembler::max_cell_dofs];
    gather(u, c, ue);
    fe::hyperelastic_force_tangent(t, xs, std::span<const double>(ue, nd), *law_, lame_,
                                   std::span<double>(f, nd), {});
  }
  double hourglass_energy(const TermPoint& at) const override {
    return reduced_.hourglass_energy(assembler_, mesh_, cells_, material_, at.u, erosion_.get());
  }

  // The cells' mass (cell_masses.hpp); eroded rows add nothing.
  void add_lumped_mass(VectorSum& m) const override {
    cell_masses::add_lumped(cells_, material_.density, m, gone_row());
  }
  bool consistent_mass_is_lumped() const override { return false; }
  void add_consistent_mass(MatrixSum& M) const override {
    cell_masses::add_consistent(cells_, material_.density, M, gone_row());
  }
  double mass() const override {
    return cell_masses::mass(assembler_, mesh_, cells_, material_.density, gone_row());
  }
  void add_body_force(const std::array<double, 3>& g, VectorSum& f) const override {
    cell_masses::add_weight(cells_, material_.density, g, f, gone_row());
  }

 private:
  /// gone() as a callable for cell_masses.hpp.
  struct GoneRow {
    const SolidTerm* term;
    bool operator()(std::size_t r) const { return term->gone(r); }
  };
  GoneRow gone_row() const { return {this}; }
  /// Erosion: row r's cell has eroded (erosion.hpp) and adds nothing.
  bool gone(std::size_t r) const { return erosion_ && erosion_->gone(r); }
  /// An eroded row's state stays what it was: its trial state is its committed one (every
  /// evaluation writes every row's trial state, which the commit swaps in).
  void keep_committed(std::size_t r) const {
    const auto c = state_->committed(r);
    std::copy(c.begin(), c.end(), state_->trial(r).begin());
  }
  void gather(std::span<const PetscScalar> u, std::int64_t c, double* ue) const {
    const auto nodes = mesh_.nodes_of(c);
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int i = 0; i < 3; ++i) ue[3 * a + i] = u[3 * nodes[a] + i];
  }

  /// The PointState of the model's state (one row per cell of cells_, in order) and each
  /// point's w_q det J_q (a reduced hex8's one point: V), for the dissipation (read every step by
  /// the energy balance).
  void set_up_state(MPI_Comm comm) {
    const fe::Formulation f = material_.technology.formulation;
    state_ = std::make_unique<PointState>(layout(comm, mesh_, cells_, f), cells_,
                                          point_counts(mesh_, cells_, f));
    if (J2Batches::covers(mesh_, cells_, material_.technology, *j2_))
      batches_ =
          std::make_unique<J2Batches>(mesh_, cells_, material_.technology, *j2_, state_->stride());
    double x[Assembler::max_cell_dofs], g[3 * fe::max_nodes];
    const auto points = static_cast<std::size_t>(state_->layout().points);
    volumes_.assign(cells_.size() * points, 0.0);
    for (std::size_t r = 0; r < cells_.size(); ++r) {
      const CellType t = mesh_.cell_types[cells_[r]];
      const auto rule = fe::stiffness_rule(t);
      assembler_.cell_coordinates(cells_[r], x);
      const std::span<const double> xs(x, 3 * info(t).num_nodes);
      if (fe::j2_points(t, f) == 1 && rule.num_points > 1) {
        volumes_[r * points] = fe::measure(t, xs);
        continue;
      }
      for (int q = 0; q < rule.num_points; ++q)
        volumes_[r * points + q] =
            rule.weights[q] * fe::physical_gradients(t, xs, &rule.points[3 * q], g);
    }
  }
  /// The integral over this rank's cells of component k of the committed states.
  double integral(int k) const {
    double local = 0;
    const int points = state_->layout().points, n = state_->num_components();
    for (std::size_t r = 0; r < state_->rows(); ++r) {
      const auto committed = state_->committed(r);
      for (int q = 0; q < state_->points(r); ++q)
        local += volumes_[r * points + q] * committed[q * n + k];
    }
    return local;
  }
  static PointStateLayout layout(MPI_Comm comm, const LocalMesh& mesh,
                                 std::span<const std::int64_t> cells, fe::Formulation f) {
    int points = 1;
    for (const auto c : cells) points = std::max(points, fe::j2_points(mesh.cell_types[c], f));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &points, 1, MPI_INT, MPI_MAX, comm));
    std::vector<std::string> names(std::begin(fe::J2State::names), std::end(fe::J2State::names));
    for (const char* n : {"strain_xx", "strain_yy", "strain_zz", "strain_xy", "strain_yz",
                          "strain_xz", "stress_xx", "stress_yy", "stress_zz", "stress_xy",
                          "stress_yz", "stress_xz", "dissipated_energy_density", "time",
                          "equivalent_plastic_strain_rate", "work_error_density"})
      names.emplace_back(n);
    return {"plasticity", std::move(names), points};
  }
  static std::vector<std::uint8_t> point_counts(const LocalMesh& mesh,
                                                std::span<const std::int64_t> cells,
                                                fe::Formulation f) {
    std::vector<std::uint8_t> n;
    for (const auto c : cells)
      n.push_back(static_cast<std::uint8_t>(fe::j2_points(mesh.cell_types[c], f)));
    return n;
  }
  /// The element at `at` for row r (cell c): force / tangent if asked, the trial state; returns
  /// the free energy.
  double evaluate(const TermPoint& at, std::int64_t c, CellType t, std::span<const double> x,
                  std::size_t r, std::span<double> f, std::span<double> K) const {
    double ue[Assembler::max_cell_dofs];
    const auto nodes = mesh_.nodes_of(c);
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int i = 0; i < 3; ++i) ue[3 * a + i] = at.u[3 * nodes[a] + i];
    fe::J2Parameters p = *j2_;
    p.time = at.time;
    return fe::j2_element(t, x, std::span<const double>(ue, x.size()), p, state_->committed(r),
                          state_->trial(r), f, K, state_->num_components(), material_.technology,
                          nullptr,
                          material_.technology.formulation == fe::Formulation::reduced
                              ? reduced_.of(assembler_, cells_, r)
                              : nullptr);
  }

  const Assembler& assembler_;
  const LocalMesh& mesh_;
  std::string region_;
  material::SolidMaterial material_;
  /// The model's element kernel, asked once: its hyperelastic law (no state), or J2's
  /// parameters (the curve's spans point into the model, which material_ holds).
  const fe::MaterialLaw* law_;
  const fe::J2Parameters* j2_;
  fe::Lame lame_;
  std::vector<std::int64_t> cells_;            ///< local cells, increasing
  mutable std::unique_ptr<PointState> state_;  ///< the model's state (null: none)
  std::vector<double> volumes_;                ///< per row and point: w_q det J_q
  mutable std::uint64_t force_commits_ = 0;    ///< the state's commits at the last force pass
  /// The committed rows' dissipation and work error as force_energy summed them, at a commit.
  struct CommittedSums {
    std::uint64_t commits = ~std::uint64_t{0};
    double dissipation = 0, work_error = 0;
  };
  mutable CommittedSums sums_;
  ReducedGeometry reduced_;  ///< formulation reduced: read at every evaluation
  /// J2 hex8 cells (J2Batches::covers): the internal force in batches (else j2_element per cell).
  std::unique_ptr<J2Batches> batches_;
  std::unique_ptr<CellErosion> erosion_;  ///< erosion: the material's failure (else null)
};

}  // namespace

void build_solid_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const auto& e = in.elements;
  for (std::size_t m = 0; m < e.materials.size(); ++m) {
    std::vector<std::int64_t> cells;
    for (std::int64_t c = 0; c < in.mesh.num_cells(); ++c)
      if (e.cell_material[c] == static_cast<int>(m)) cells.push_back(c);
    if (all_true(in.comm, cells.empty())) continue;  // a material of no cell adds nothing
    out.push_back(std::make_unique<SolidTerm>(in.comm, in.assembler, in.mesh,
                                              in.mesh.regions[in.spec.materials[m].region].name,
                                              e.materials[m], std::move(cells)));
  }
}

}  // namespace inertia
