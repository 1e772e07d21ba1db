#pragma once
// A banded symmetric positive definite solve for tests that assemble small structures by hand.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace inertia::testing {

/// Solves A x = b by Gaussian elimination without pivoting (A symmetric positive definite, its
/// nonzeros within `band` of the diagonal); A is n x n row-major and is overwritten, b becomes x.
inline void banded_solve(std::vector<double>& A, std::vector<double>& b, int n, int band) {
  const auto at = [&](int i, int j) -> double& { return A[static_cast<std::size_t>(i) * n + j]; };
  for (int k = 0; k < n; ++k) {
    const int last = std::min(n, k + band + 1);
    for (int i = k + 1; i < last; ++i) {
      const double f = at(i, k) / at(k, k);
      if (f == 0) continue;
      for (int j = k; j < last; ++j) at(i, j) -= f * at(k, j);
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    const int last = std::min(n, k + band + 1);
    for (int j = k + 1; j < last; ++j) b[k] -= at(k, j) * b[j];
    b[k] /= at(k, k);
  }
}

}  // namespace inertia::testing
