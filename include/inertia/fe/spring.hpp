#pragma once
/// \file spring.hpp
/// Two-node spring (Hooke) with an optional axial dashpot, in the current configuration
/// (seed 003: "Aplicación a masa-muelle"). Pure functions; element DOFs 3*a + i, a = 0, 1.
///
/// With d = x_1 - x_0, l = |d|, n = d / l, stiffness k, rest length l0, dashpot c:
///   internal force   f_1 = k (l - l0) n = -f_0             (the force the spring resists with)
///   tangent          K = [[Kd, -Kd], [-Kd, Kd]],  Kd = k n n^T + k (l - l0) / l (I - n n^T)
///                    (the second term is the geometric stiffness)
///   dashpot force    g_1 = c ((v_1 - v_0) . n) n = -g_0
///   dashpot matrix   B = [[Bd, -Bd], [-Bd, Bd]], Bd = c n n^T (derivative in v at fixed x)
///   stored energy    1/2 k (l - l0)^2

namespace inertia::fe {

/// Length of the segment between x0 and x1 (3 values each).
double spring_length(const double* x0, const double* x1);
/// Internal force f (6 values). Throws SolverError if the spring has collapsed to zero length.
void spring_force(const double* x0, const double* x1, double k, double l0, double* f);
/// Tangent stiffness (6 x 6 row-major).
void spring_tangent(const double* x0, const double* x1, double k, double l0, double* K);
/// Dashpot force g (6 values) for velocities v0, v1.
void dashpot_force(const double* x0, const double* x1, const double* v0, const double* v1, double c,
                   double* g);
/// Dashpot matrix (6 x 6 row-major).
void dashpot_matrix(const double* x0, const double* x1, double c, double* B);
/// Stored energy.
double spring_energy(const double* x0, const double* x1, double k, double l0);

}  // namespace inertia::fe
