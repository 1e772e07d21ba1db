/// \file quadrature.cpp
/// Tabulated quadrature rules on the reference cells (see fe/element.hpp for the cells).
///
/// Simplex rules are fully symmetric with positive weights; their points and weights were solved
/// from the moment equations of the symmetric invariants in 40-digit arithmetic (mpmath) and
/// agree with the published rules:
/// - tri degree 2: 3 interior points (Strang & Fix); degree 4: 6 points (Dunavant 1985);
///   degree 5: 7 points (Radon 1948);
/// - tet degree 2: 4 points (Keast 1986 #2); degree 3: 8 points, two equal-weight vertex orbits
///   (a member of the one-parameter family of positive degree-3 rules: Keast's degree-3 rule has a
///   negative weight); degree 5: 14 points (Walkington 2000 / Keast #6), used for degree 4 too,
///   in place of Keast's 11-point degree-4 rule whose centroid weight is negative.
/// Tensor cells use Gauss-Legendre products of 1, 2 or 3 points per direction, x fastest.

#include <array>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"

namespace inertia::fe {
namespace {

// ---- simplices (unit simplex, weights sum to 1/2 and 1/6) -----------------------------------

// 1 point
constexpr double tet_1_points[] = {
    0.250000000000000000000,
    0.250000000000000000000,
    0.250000000000000000000,
};
constexpr double tet_1_weights[] = {
    0.166666666666666666667,
};
// 4 points
constexpr double tet_2_points[] = {
    0.138196601125010515180, 0.138196601125010515180, 0.585410196624968454461,
    0.138196601125010515180, 0.585410196624968454461, 0.138196601125010515180,
    0.585410196624968454461, 0.138196601125010515180, 0.138196601125010515180,
    0.138196601125010515180, 0.138196601125010515180, 0.138196601125010515180,
};
constexpr double tet_2_weights[] = {
    0.0416666666666666666667,
    0.0416666666666666666667,
    0.0416666666666666666667,
    0.0416666666666666666667,
};
// 8 points
constexpr double tet_3_points[] = {
    0.112956794512511028695,  0.112956794512511028695,  0.661129616462466913915,
    0.112956794512511028695,  0.661129616462466913915,  0.112956794512511028695,
    0.661129616462466913915,  0.112956794512511028695,  0.112956794512511028695,
    0.112956794512511028695,  0.112956794512511028695,  0.112956794512511028695,
    0.328861649930202910400,  0.328861649930202910400,  0.0134150502093912687990,
    0.328861649930202910400,  0.0134150502093912687990, 0.328861649930202910400,
    0.0134150502093912687990, 0.328861649930202910400,  0.328861649930202910400,
    0.328861649930202910400,  0.328861649930202910400,  0.328861649930202910400,
};
constexpr double tet_3_weights[] = {
    0.0208333333333333333333, 0.0208333333333333333333, 0.0208333333333333333333,
    0.0208333333333333333333, 0.0208333333333333333333, 0.0208333333333333333333,
    0.0208333333333333333333, 0.0208333333333333333333,
};
// 14 points
constexpr double tet_5_points[] = {
    0.310885919263300609797,  0.310885919263300609797,  0.0673422422100981706080,
    0.310885919263300609797,  0.0673422422100981706080, 0.310885919263300609797,
    0.0673422422100981706080, 0.310885919263300609797,  0.310885919263300609797,
    0.310885919263300609797,  0.310885919263300609797,  0.310885919263300609797,
    0.0927352503108912264023, 0.0927352503108912264023, 0.721794249067326320793,
    0.0927352503108912264023, 0.721794249067326320793,  0.0927352503108912264023,
    0.721794249067326320793,  0.0927352503108912264023, 0.0927352503108912264023,
    0.0927352503108912264023, 0.0927352503108912264023, 0.0927352503108912264023,
    0.0455037041256496494919, 0.454496295874350350508,  0.454496295874350350508,
    0.454496295874350350508,  0.0455037041256496494919, 0.454496295874350350508,
    0.454496295874350350508,  0.454496295874350350508,  0.0455037041256496494919,
    0.0455037041256496494919, 0.0455037041256496494919, 0.454496295874350350508,
    0.0455037041256496494919, 0.454496295874350350508,  0.0455037041256496494919,
    0.454496295874350350508,  0.0455037041256496494919, 0.0455037041256496494919,
};
constexpr double tet_5_weights[] = {
    0.0187813209530026417999,  0.0187813209530026417999,  0.0187813209530026417999,
    0.0187813209530026417999,  0.0122488405193936582573,  0.0122488405193936582573,
    0.0122488405193936582573,  0.0122488405193936582573,  0.00709100346284691107301,
    0.00709100346284691107301, 0.00709100346284691107301, 0.00709100346284691107301,
    0.00709100346284691107301, 0.00709100346284691107301,
};
// 1 point
constexpr double tri_1_points[] = {
    0.333333333333333333333,
    0.333333333333333333333,
    0.0,
};
constexpr double tri_1_weights[] = {
    0.500000000000000000000,
};
// 3 points
constexpr double tri_2_points[] = {
    0.166666666666666666667, 0.666666666666666666667, 0.0,
    0.666666666666666666667, 0.166666666666666666667, 0.0,
    0.166666666666666666667, 0.166666666666666666667, 0.0,
};
constexpr double tri_2_weights[] = {
    0.166666666666666666667,
    0.166666666666666666667,
    0.166666666666666666667,
};
// 6 points
constexpr double tri_4_points[] = {
    0.445948490915964886318,  0.108103018168070227363,  0.0,
    0.108103018168070227363,  0.445948490915964886318,  0.0,
    0.445948490915964886318,  0.445948490915964886318,  0.0,
    0.0915762135097707434596, 0.816847572980458513081,  0.0,
    0.816847572980458513081,  0.0915762135097707434596, 0.0,
    0.0915762135097707434596, 0.0915762135097707434596, 0.0,
};
constexpr double tri_4_weights[] = {
    0.111690794839005732848,  0.111690794839005732848,  0.111690794839005732848,
    0.0549758718276609338192, 0.0549758718276609338192, 0.0549758718276609338192,
};
// 7 points
constexpr double tri_5_points[] = {
    0.333333333333333333333,  0.333333333333333333333,  0.0,
    0.101286507323456338801,  0.797426985353087322398,  0.0,
    0.797426985353087322398,  0.101286507323456338801,  0.0,
    0.101286507323456338801,  0.101286507323456338801,  0.0,
    0.470142064105115089770,  0.0597158717897698204591, 0.0,
    0.0597158717897698204591, 0.470142064105115089770,  0.0,
    0.470142064105115089770,  0.470142064105115089770,  0.0,
};
constexpr double tri_5_weights[] = {
    0.112500000000000000000,  0.0629695902724135762978, 0.0629695902724135762978,
    0.0629695902724135762978, 0.0661970763942530903688, 0.0661970763942530903688,
    0.0661970763942530903688,
};

// ---- Gauss-Legendre on [-1, 1] and its tensor products --------------------------------------

struct LineRule {
  int n;
  std::array<double, 3> x;
  std::array<double, 3> w;
};

constexpr LineRule gauss_1{1, {0.0, 0.0, 0.0}, {2.0, 0.0, 0.0}};
constexpr LineRule gauss_2{
    2, {-0.577350269189625764509148780502, 0.577350269189625764509148780502, 0.0}, {1.0, 1.0, 0.0}};
constexpr LineRule gauss_3{
    3,
    {-0.774596669241483377035853079956, 0.0, 0.774596669241483377035853079956},
    {0.555555555555555555555555555556, 0.888888888888888888888888888889,
     0.555555555555555555555555555556}};

/// Points (3 per point) and weights of the dim-fold product of a Gauss rule, x fastest.
template <int Dim, int N>
struct TensorRule {
  std::array<double, 3 * max_qpoints> points{};
  std::array<double, max_qpoints> weights{};
};

template <int Dim, int N>
constexpr TensorRule<Dim, N> tensor_rule(const LineRule& g) {
  TensorRule<Dim, N> r;
  const int ny = Dim >= 2 ? N : 1;
  const int nz = Dim >= 3 ? N : 1;
  int q = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < N; ++i, ++q) {
        r.points[3 * q + 0] = g.x[i];
        r.points[3 * q + 1] = Dim >= 2 ? g.x[j] : 0.0;
        r.points[3 * q + 2] = Dim >= 3 ? g.x[k] : 0.0;
        r.weights[q] = g.w[i] * (Dim >= 2 ? g.w[j] : 1.0) * (Dim >= 3 ? g.w[k] : 1.0);
      }
  return r;
}

constexpr auto line_1 = tensor_rule<1, 1>(gauss_1);
constexpr auto line_2 = tensor_rule<1, 2>(gauss_2);
constexpr auto line_3 = tensor_rule<1, 3>(gauss_3);
constexpr auto quad_1 = tensor_rule<2, 1>(gauss_1);
constexpr auto quad_2 = tensor_rule<2, 2>(gauss_2);
constexpr auto quad_3 = tensor_rule<2, 3>(gauss_3);
constexpr auto hex_1 = tensor_rule<3, 1>(gauss_1);
constexpr auto hex_2 = tensor_rule<3, 2>(gauss_2);
constexpr auto hex_3 = tensor_rule<3, 3>(gauss_3);

constexpr double point_points[] = {0.0, 0.0, 0.0};
constexpr double point_weights[] = {1.0};

template <int Dim, int N>
constexpr QuadratureRule make(const TensorRule<Dim, N>& r) {
  int n = 1;
  for (int d = 0; d < Dim; ++d) n *= N;
  return {n, r.points.data(), r.weights.data()};
}

template <std::size_t P, std::size_t W>
constexpr QuadratureRule make(const double (&points)[P], const double (&weights)[W]) {
  static_assert(P == 3 * W);
  return {static_cast<int>(W), points, weights};
}

/// Gauss points per direction for a tensor rule exact to per-direction degree `degree`.
int gauss_points_for(int degree) { return degree <= 1 ? 1 : degree <= 3 ? 2 : degree <= 5 ? 3 : 0; }

}  // namespace

QuadratureRule quadrature(CellType t, int degree) {
  INERTIA_CHECK(degree >= 0, InternalError, "quadrature: negative degree ", degree);
  const int g = gauss_points_for(degree);
  switch (info(t).shape) {
    case ReferenceShape::point:
      return make(point_points, point_weights);
    case ReferenceShape::line:
      if (g == 1) return make(line_1);
      if (g == 2) return make(line_2);
      if (g == 3) return make(line_3);
      break;
    case ReferenceShape::quadrilateral:
      if (g == 1) return make(quad_1);
      if (g == 2) return make(quad_2);
      if (g == 3) return make(quad_3);
      break;
    case ReferenceShape::hexahedron:
      if (g == 1) return make(hex_1);
      if (g == 2) return make(hex_2);
      if (g == 3) return make(hex_3);
      break;
    case ReferenceShape::triangle:
      if (degree <= 1) return make(tri_1_points, tri_1_weights);
      if (degree == 2) return make(tri_2_points, tri_2_weights);
      if (degree <= 4) return make(tri_4_points, tri_4_weights);
      if (degree == 5) return make(tri_5_points, tri_5_weights);
      break;
    case ReferenceShape::tetrahedron:
      if (degree <= 1) return make(tet_1_points, tet_1_weights);
      if (degree == 2) return make(tet_2_points, tet_2_weights);
      if (degree == 3) return make(tet_3_points, tet_3_weights);
      if (degree <= 5) return make(tet_5_points, tet_5_weights);
      break;
  }
  throw InternalError(
      cat("no quadrature rule of degree ", degree, " is tabulated for ", info(t).name));
}

QuadratureRule stiffness_rule(CellType t) { return quadrature(t, info(t).stiffness_degree); }

QuadratureRule mass_rule(CellType t) { return quadrature(t, info(t).mass_degree); }

}  // namespace inertia::fe
