// Plastic beams: a `sections:` region whose material has `plasticity:` (J2) is one term of
// fiber-section beams (fe/beam_fiber.hpp: Euler-Bernoulli, small rotations, the uniaxial J2 law in
// every fiber at the Gauss-Lobatto points along each beam), with its point state (per beam:
// points x fibers, each plastic strain, back stress, equivalent plastic strain).
#include "beam_term.hpp"
#include "inertia/fe/beam_fiber.hpp"
#include "inertia/system/point_state.hpp"

namespace inertia::beam_detail {

namespace {

class FiberBeamTerm final : public BeamTermBase {
 public:
  FiberBeamTerm(const TermInputs& in, const BeamInput& b, const fe::BeamSectionProperties& p,
                const fe::BeamMaterial& m, const fe::J2Parameters& law,
                std::vector<std::int64_t> cells, std::vector<BeamCell> data)
      : BeamTermBase(in, b, p, m, std::move(cells), std::move(data)),
        fibers_(fe::section_fibers(beam_shape(b), b.fiber_divisions)) {
    beam_.section = {fibers_, fe::UniaxialJ2{m.youngs_modulus, law}};
    beam_.shear_modulus = m.shear_modulus;
    beam_.torsion = p.torsion;
    beam_.integration =
        fe::fiber_beam_integration(fe::FiberBeamIntegration::Rule::lobatto, b.integration_points);
    fe::check_uniaxial_j2(beam_.section.material);
    state_ = std::make_unique<PointState>(
        PointStateLayout{"fiber",
                         {"plastic_strain", "back_stress", "equivalent_plastic_strain"},
                         beam_.integration.points * static_cast<int>(fibers_.size())},
        cells_);
  }

  Traits traits() const override { return {.linear = false}; }
  PointState* point_state() const override { return state_.get(); }
  bool trial_from_force() const override { return true; }

  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    std::size_t k = 0;
    f.add_cells(cells_, [&](std::int64_t c, CellType, auto x, auto fe_vec) {
      update(at, c, k++, x.data(), fe_vec, {});
      return true;
    });
  }
  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    std::size_t k = 0;
    K.add_cells(cells_, [&](std::int64_t c, CellType, auto x, auto Ke) {
      update(at, c, k++, x.data(), {}, Ke);
    });
  }
  double energy(const TermPoint& at) const override {
    double total = 0;
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double x[6];
      coordinates(cells_[k], x);
      total += update(at, cells_[k], k, x, {}, {});
    }
    return total;
  }
  void update_state(const TermPoint& at) const override { (void)energy(at); }

  /// sum over fibers of k(0) alpha A_f w L: the committed states' dissipation since the start
  /// (j2_dissipation of the uniaxial law: no rate factor).
  double plastic_dissipation() const override {
    const int points = beam_.integration.points, nf = static_cast<int>(fibers_.size());
    double total = 0;
    for (std::size_t r = 0; r < cells_.size(); ++r) {
      const auto s = state_->committed(r);
      for (int q = 0; q < points; ++q)
        for (int f = 0; f < nf; ++f) {
          const double alpha = s[3 * (q * nf + f) + fe::UniaxialJ2State::equivalent_plastic_strain];
          total += fe::j2_dissipation(beam_.section.material.hardening, 0, alpha) *
                   fibers_[static_cast<std::size_t>(f)].area * beam_.integration.weight[q] *
                   data_[r].length;
        }
    }
    return total;
  }

  /// The end forces of the internal force at u (N, Vy, Vz, T, My, Mz in the beam's axes: -f at
  /// node 0, +f at node 1, as fe::beam_section_forces); writes the trial state at u.
  void section_forces(std::span<const PetscScalar> u, std::span<double> forces) const override {
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double x[6], f[12];
      coordinates(cells_[k], x);
      update({u, {}, 0}, cells_[k], k, x, f, {});
      const double* R = data_[k].frame.data();
      double* s = &forces[12 * cells_[k]];
      for (int end = 0; end < 2; ++end)
        for (int i = 0; i < 3; ++i) {
          double force = 0, moment = 0;  // local components: R rows
          for (int j = 0; j < 3; ++j) {
            force += R[3 * i + j] * f[3 * end + j];
            moment += R[3 * i + j] * f[6 + 3 * end + j];
          }
          const double sign = end == 0 ? -1.0 : 1.0;
          s[6 * end + i] = sign * force;
          s[6 * end + 3 + i] = sign * moment;
        }
    }
  }

  bool nonlinear_cell(std::int64_t c, LinearCell& out) const override { return cell_mass(c, out); }
  void cell_force(std::span<const PetscScalar> u, std::int64_t c, double f[12]) const override {
    double x[6];
    coordinates(c, x);
    update({u, {}, 0}, c, row(c), x, std::span<double>(f, 12), {});
  }

 private:
  std::string kind() const override {
    return cat("euler_bernoulli fiber sections (", fibers_.size(), " fibers, ",
               beam_.integration.points, " Gauss-Lobatto points, uniaxial J2)");
  }

  /// Row k's update at `at` from its committed state into its trial state: force and tangent
  /// where asked; the stored energy.
  double update(const TermPoint& at, std::int64_t c, std::size_t k, const double* x,
                std::span<double> f, std::span<double> K) const {
    double d[12];
    gather(at.u, c, d);
    return fe::fiber_beam_update(x, x + 3, data_[k].frame.data(), beam_, d, state_->committed(k),
                                 state_->trial(k), f, K)
        .stored;
  }

  std::vector<fe::BeamFiber> fibers_;
  fe::FiberBeam beam_;
  std::unique_ptr<PointState> state_;
};

}  // namespace

std::unique_ptr<ForceTerm> make_fiber_beam_term(const TermInputs& in, const BeamInput& b,
                                                const fe::BeamSectionProperties& p,
                                                const fe::BeamMaterial& m,
                                                const fe::J2Parameters& law,
                                                std::vector<std::int64_t> cells,
                                                std::vector<BeamCell> data) {
  return std::make_unique<FiberBeamTerm>(in, b, p, m, law, std::move(cells), std::move(data));
}

}  // namespace inertia::beam_detail
