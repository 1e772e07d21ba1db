// A material's failure criterion (material/failure.hpp): the `failure:` key of a `materials[]`
// entry, and the strains and stress measures the criteria compare.
#include "inertia/material/failure.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/case_node.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/log_strain.hpp"

namespace inertia::material {

std::string FailureCriterion::describe() const {
  switch (kind) {
    case Kind::equivalent_plastic_strain:
      return cat("equivalent plastic strain ", limit);
    case Kind::principal_strain:
      return cat("principal strain ", limit);
    case Kind::johnson_cook:
      return cat("Johnson-Cook damage (d1 ", d1, ", d2 ", d2, ", d3 ", d3, ", d4 ", d4, ")");
  }
  return "";
}

double FailureCriterion::johnson_cook_strain(double s, double rate) const {
  const double r = std::max(1.0, rate / reference_rate);
  return (d1 + d2 * std::exp(d3 * s)) * (1 + d4 * std::log(r));
}

FailureCriterion parse_failure(const case_yaml::Node& f) {
  f.expect_map({"equivalent_plastic_strain", "principal_strain", "johnson_cook"});
  FailureCriterion c;
  int given = 0;
  for (const char* k : {"equivalent_plastic_strain", "principal_strain", "johnson_cook"})
    given += f.has(k) ? 1 : 0;
  if (given != 1)
    f.fail(
        "expected exactly one criterion: equivalent_plastic_strain, principal_strain or "
        "johnson_cook");
  if (f.has("equivalent_plastic_strain")) {
    c.kind = FailureCriterion::Kind::equivalent_plastic_strain;
    c.limit = f["equivalent_plastic_strain"].positive();
  } else if (f.has("principal_strain")) {
    c.kind = FailureCriterion::Kind::principal_strain;
    c.limit = f["principal_strain"].positive();
  } else {
    c.kind = FailureCriterion::Kind::johnson_cook;
    const case_yaml::Node j = f["johnson_cook"];
    j.expect_map({"d1", "d2", "d3", "d4", "reference_rate"});
    for (const char* k : {"d1", "d2", "d3"})
      if (!j.has(k)) j.fail(cat("missing key '", k, "'"));
    c.d1 = j["d1"].number();
    c.d2 = j["d2"].number();
    c.d3 = j["d3"].number();
    if (j.has("d4")) c.d4 = j["d4"].number();
    if (j.has("reference_rate")) c.reference_rate = j["reference_rate"].positive();
    // The failure strain must stay positive for every triaxiality a cell can see (-1/3 .. 2/3,
    // and beyond under confinement): checked at the ends of [-1/3, 2/3] at the reference rate.
    for (const double s : {-1.0 / 3, 2.0 / 3})
      if (!(c.johnson_cook_strain(s, c.reference_rate) > 0))
        j.fail(cat("the failure strain d1 + d2 exp(d3 s*) is ", c.johnson_cook_strain(s, 1),
                   " at triaxiality ", s, ": it must be > 0"));
  }
  return c;
}

double largest_principal_strain(const double* grad, bool finite_strain) {
  double A[9], w[3], Q[9];
  if (!finite_strain) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A[3 * i + j] = 0.5 * (grad[3 * i + j] + grad[3 * j + i]);
    fe::symmetric_eigen(A, w, Q);
    return w[2];
  }
  // C = F^T F, F = I + grad: the largest stretch is sqrt of C's largest eigenvalue.
  double F[9];
  for (int i = 0; i < 9; ++i) F[i] = grad[i] + (i % 4 == 0 ? 1.0 : 0.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += F[3 * k + i] * F[3 * k + j];
      A[3 * i + j] = s;
    }
  fe::symmetric_eigen(A, w, Q);
  return 0.5 * std::log(std::max(w[2], 1e-300));
}

double triaxiality(const double* s) {
  const double p = (s[0] + s[1] + s[2]) / 3;
  const double dx = s[0] - p, dy = s[1] - p, dz = s[2] - p;
  const double q = std::sqrt(
      1.5 * (dx * dx + dy * dy + dz * dz + 2 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5])));
  return q > 0 ? p / q : 0.0;
}

}  // namespace inertia::material
