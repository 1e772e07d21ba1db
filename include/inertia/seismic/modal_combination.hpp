#pragma once
/// \file modal_combination.hpp
/// The peak of a response from its modal peaks (response-spectrum analysis) and the peak of a
/// response to several excitation directions from each direction's. Serial.

#include <span>
#include <string_view>
#include <vector>

namespace inertia {

/// How modal peaks combine:
/// - srss: sqrt(sum q_i^2) (Rosenblueth; well-separated modes);
/// - cqc: sqrt(sum_ij rho_ij q_i q_j), rho_ij the cross-modal coefficient below (Der Kiureghian,
///   Earthq. Eng. Struct. Dyn. 9, 1981; Wilson, Der Kiureghian and Bayo, EESD 9, 1981);
/// - abs: sum |q_i| (an upper bound).
enum class ModalRule { srss, cqc, abs };
/// How the peaks of the directions combine: srss, or the 100/30 rule (the largest of |R_a| +
/// 0.3 (|R_b| + |R_c|) over the choice of a).
enum class DirectionalRule { srss, percent_100_30 };

/// rho_ij for modes of circular frequencies w_i, w_j and damping ratios xi_i, xi_j (Der
/// Kiureghian 1981): 8 sqrt(xi_i xi_j) (xi_i + r xi_j) r^(3/2) / ((1 - r^2)^2 + 4 xi_i xi_j r
/// (1 + r^2) + 4 (xi_i^2 + xi_j^2) r^2), r = w_j / w_i; 1 for i = j; 0 without damping and
/// r != 1.
double cqc_correlation(double w_i, double w_j, double xi_i, double xi_j);

/// The coefficients rho_ij (row-major n x n) of modes of frequencies `omega`, damping `damping`
/// each, for `rule` (the identity for srss and abs).
std::vector<double> modal_coefficients(ModalRule rule, std::span<const double> omega,
                                       std::span<const double> damping);

/// The combined peak of one quantity from its modal values q (signed; rho from
/// modal_coefficients).
double combine_modes(ModalRule rule, std::span<const double> q, std::span<const double> rho);

/// The combined peak of one quantity from its peaks for each direction (1 to 3).
double combine_directions(DirectionalRule rule, std::span<const double> r);

}  // namespace inertia
