#pragma once
/// \file failure.hpp
/// A material's failure criterion (the `failure:` key of a `materials[]` entry): when a cell
/// meets it, the cell erodes (system/erosion.hpp): its forces and mass leave the model. One of
///
/// - `equivalent_plastic_strain: e_f`: the average over the cell's points of J2's committed
///   equivalent plastic strain reaches e_f (plastic materials);
/// - `principal_strain: e_1`: the largest principal strain at the cell's centre reaches e_1 (the
///   small strain sym(grad u) for a small-strain model, the logarithmic strain ln(lambda_max) for a
///   finite-strain one);
/// - `johnson_cook: {d1, d2, d3, d4, reference_rate}`: the damage D = sum Delta e_p / e_f reaches
///   1, e_f = (d1 + d2 exp(d3 s*)) (1 + d4 ln max(1, rate / reference_rate)), s* = p / q the
///   triaxiality of the cell's committed stress (mean over von Mises), rate its equivalent
///   plastic strain rate (plastic materials; no temperature term).
///
/// The functions are pure (unit-tested); the case file's reader is parse_failure.

#include <array>
#include <string>

namespace inertia {

namespace case_yaml {
struct Node;
}

namespace material {

struct FailureCriterion {
  enum class Kind { equivalent_plastic_strain, principal_strain, johnson_cook };
  Kind kind = Kind::equivalent_plastic_strain;
  double limit = 0;                                           ///< e_f or e_1 (the first two kinds)
  double d1 = 0, d2 = 0, d3 = 0, d4 = 0, reference_rate = 1;  ///< johnson_cook

  /// Whether the criterion reads J2's plastic state (equivalent_plastic_strain, johnson_cook).
  bool needs_plasticity() const { return kind != Kind::principal_strain; }
  /// For the log: "equivalent plastic strain 0.3".
  std::string describe() const;
  /// Johnson-Cook's failure strain at triaxiality s* and plastic strain rate `rate`.
  double johnson_cook_strain(double triaxiality, double rate) const;
};

/// The case's `failure:` node (InputError "<file>:<line>: ..." on anything wrong).
FailureCriterion parse_failure(const case_yaml::Node& f);

/// The largest principal strain of displacement gradient grad (9, grad[3i+j] = du_i/dx_j): of
/// sym(grad) (finite_strain false) or ln of the largest stretch of F = I + grad (true).
double largest_principal_strain(const double* grad, bool finite_strain);

/// The triaxiality p / q of a stress (6, VTK order xx yy zz xy yz xz); 0 where q = 0.
double triaxiality(const double* stress);

}  // namespace material
}  // namespace inertia
