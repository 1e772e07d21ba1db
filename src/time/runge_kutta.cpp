// Explicit Runge-Kutta schemes from their tableaus: see runge_kutta.hpp.
#include "inertia/time/runge_kutta.hpp"

#include <array>
#include <cmath>

#include "explicit_forces.hpp"

namespace inertia {

namespace {

constexpr int max_stages = 4;

/// An explicit Butcher tableau: a is strictly lower triangular.
struct Tableau {
  std::string_view name;
  int stages;
  std::array<std::array<double, max_stages>, max_stages> a;
  std::array<double, max_stages> b, c;
};

constexpr Tableau euler_explicit{"euler_explicit", 1, {}, {1}, {0}};
constexpr Tableau rk2{"rk2", 2, {{{}, {0.5}}}, {0, 1}, {0, 0.5}};
constexpr Tableau heun{"heun", 2, {{{}, {1}}}, {0.5, 0.5}, {0, 1}};
constexpr Tableau rk4{"rk4",
                      4,
                      {{{}, {0.5}, {0, 0.5}, {0, 0, 1}}},
                      {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6},
                      {0, 0.5, 0.5, 1}};

class ExplicitRungeKutta final : public Integrator {
 public:
  explicit ExplicitRungeKutta(const Tableau& tableau) : t_(tableau) {}
  std::string_view name() const override { return t_.name; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    forces_.allocate(system);
    x_ = system.create_vector();
    for (int i = 0; i < t_.stages; ++i) {
      a_[i] = system.create_vector();
      if (i > 0) v_[i] = system.create_vector();
    }
    consistent_mass_ = system.lumped_mass() == nullptr;
    return {forces_.acceleration(system, state.time, state.u, state.v, last()), 0};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    const int s = t_.stages;
    PetscInt iterations = 0;
    Vec x = state.u;
    for (int i = 0; i < s; ++i) {
      const double ti = state.after(t_.c[i] * h);
      Vec v = state.v;
      if (i > 0) {
        // X_i = x_n + h sum_j a_ij V_j (V_1 = v_n); V_i = v_n + h sum_j a_ij A_j
        combine(x_, state.u, h, t_.a[i], i,
                [&](int j) { return j == 0 ? state.v.get() : v_[j].get(); });
        combine(v_[i], state.v, h, t_.a[i], i, [&](int j) { return a_[j].get(); });
        system.apply_constraints(ti, x_, v_[i], nullptr);
        x = x_, v = v_[i];
      }
      // A consistent-mass solve starts from the latest acceleration (a lumped one needs none).
      const int previous = i > 0 ? i - 1 : s - 1;
      if (consistent_mass_ && previous != i) INERTIA_PETSC(VecCopy(a_[previous], a_[i]));
      iterations += forces_.acceleration(system, ti, x, v, a_[i]);
    }
    // x_{n+1} = x_n + h sum_i b_i V_i (before v changes: V_1 is v_n), v_{n+1} = v_n + h sum b_i A_i
    combine(state.u, nullptr, h, t_.b, s,
            [&](int j) { return j == 0 ? state.v.get() : v_[j].get(); });
    combine(state.v, nullptr, h, t_.b, s, [&](int j) { return a_[j].get(); });
    state.time = state.after(h);
    ++state.step;
    system.apply_constraints(state.time, state.u, state.v, nullptr);
    return {iterations, 0};
  }

  Vec acceleration() const override { return a_[t_.stages - 1].get(); }

  std::vector<std::pair<std::string, Vec>> solver_guesses() override {
    return {{"acceleration_guess", last()}};
  }

 private:
  Vec last() const { return a_[t_.stages - 1].get(); }

  /// y = base + h sum_{j<n} w_j term(j) over the non-zero weights (base null: y += ...).
  template <typename Term>
  static void combine(Vec y, Vec base, double h, const std::array<double, max_stages>& w, int n,
                      Term&& term) {
    std::array<PetscScalar, max_stages> alpha{};
    std::array<Vec, max_stages> x{};
    int count = 0;
    for (int j = 0; j < n; ++j)
      if (w[j] != 0) alpha[count] = h * w[j], x[count++] = term(j);
    if (base && count == 1) {
      INERTIA_PETSC(VecWAXPY(y, alpha[0], x[0], base));
      return;
    }
    if (base) INERTIA_PETSC(VecCopy(base, y));
    if (count == 1)
      INERTIA_PETSC(VecAXPY(y, alpha[0], x[0]));
    else if (count > 1)
      INERTIA_PETSC(VecMAXPY(y, count, alpha.data(), x.data()));
  }

  const Tableau& t_;
  explicit_detail::ExplicitForces forces_;
  petsc::Vector x_;                              ///< the stage configuration X_i (i > 1)
  std::array<petsc::Vector, max_stages> v_, a_;  ///< V_i (i > 1) and A_i
  bool consistent_mass_ = false;
};

/// The scheme of a tableau; its stability limit on omega h comes from its stability polynomial.
Scheme runge_kutta_scheme(const OptionMap& options, const Tableau& tableau, double limit) {
  options.expect_keys({});
  return Scheme(tableau.name, {.kind = SchemeKind::explicit_scheme, .stability_limit = limit}, "",
                {}, [&tableau] { return std::make_unique<ExplicitRungeKutta>(tableau); });
}

}  // namespace

Scheme configure_euler_explicit(const OptionMap& options) {
  return runge_kutta_scheme(options, euler_explicit, 0.0);
}
Scheme configure_rk2(const OptionMap& options) { return runge_kutta_scheme(options, rk2, 0.0); }
Scheme configure_heun(const OptionMap& options) { return runge_kutta_scheme(options, heun, 0.0); }
Scheme configure_rk4(const OptionMap& options) {
  return runge_kutta_scheme(options, rk4, 2.0 * std::sqrt(2.0));
}

}  // namespace inertia
