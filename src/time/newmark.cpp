#include "inertia/time/newmark.hpp"

#include "inertia/time/alpha_schemes.hpp"
#include "newmark_family.hpp"

namespace inertia {

// Newmark is the alpha step (src/time/alpha_schemes.cpp) at alpha_m = alpha_f = 0: the same
// linear step, the same Newton residual (M a + C v - f(t_{n+1}, x, v) at x = x* + h^2 beta a,
// v = v* + h gamma a, x* and v* the predictors) and Jacobian (1 + h gamma alpha_M) M
// + (h^2 beta + h gamma alpha_K) K + h gamma B.
Scheme configure_newmark(const OptionMap& options) {
  options.expect_keys({"beta", "gamma"});
  NewmarkParams p;
  p.beta = options.number_in("beta", p.beta, 0.0, 0.5, true);
  p.gamma = options.number_in("gamma", p.gamma, 0.0, 1.0, true);
  const AlphaCoefficients c{
      .alpha_m = 0, .alpha_f = 0, .beta = p.beta, .gamma = p.gamma, .interpolate_forces = true};
  return Scheme("newmark", {.kind = SchemeKind::implicit_scheme, .newton = true},
                cat("beta ", p.beta, ", gamma ", p.gamma), p,
                [c] { return newmark_detail::make_alpha_scheme("newmark", c); });
}

}  // namespace inertia
