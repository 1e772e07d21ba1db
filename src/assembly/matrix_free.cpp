#include "inertia/assembly/matrix_free.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

constexpr int W = 8;  // lanes per batch (must match MatrixFreeElasticity::lanes)
constexpr int hex_points = 8, hex_nodes = 8, hex_stride = 11;
constexpr int tet_nodes = 4, tet_stride = 14;

/// Reference gradients of the hex8 shape functions at the 2x2x2 Gauss points, [q][a][d].
struct HexTable {
  std::array<double, hex_points * hex_nodes * 3> dN{};
  std::array<double, hex_points> weights{};
};
const HexTable& hex_table() {
  static const HexTable t = [] {
    HexTable h;
    const fe::QuadratureRule rule = fe::stiffness_rule(CellType::hex8);
    INERTIA_CHECK(rule.num_points == hex_points, InternalError, "hex8 stiffness rule");
    for (int q = 0; q < hex_points; ++q) {
      fe::shape_gradients(CellType::hex8, rule.points + 3 * q, &h.dN[q * hex_nodes * 3]);
      h.weights[q] = rule.weights[q];
    }
    return h;
  }();
  return t;
}

/// y += K_e x_e for every hex8 batch: R = grad_xi u, H = R J^-1, S = w detJ sigma(H),
/// P = S J^-T, f_a += P dN_a.
__attribute__((target_clones("avx512f", "avx2", "default")))
void hex_batches(std::int64_t count, const std::int32_t* nodes, const double* data,
                 const double* dN, const double* x, double* y) {
  for (std::int64_t b = 0; b < count; ++b) {
    const std::int32_t* nb = nodes + b * hex_nodes * W;
    double u[hex_nodes][3][W], f[hex_nodes][3][W];
    for (int a = 0; a < hex_nodes; ++a)
      for (int l = 0; l < W; ++l) {
        const double* xa = x + 3 * static_cast<std::int64_t>(nb[a * W + l]);
        for (int i = 0; i < 3; ++i) u[a][i][l] = xa[i];
      }
    for (int a = 0; a < hex_nodes; ++a)
      for (int i = 0; i < 3; ++i)
        for (int l = 0; l < W; ++l) f[a][i][l] = 0.0;
    for (int q = 0; q < hex_points; ++q) {
      const double* g = data + (b * hex_points + q) * hex_stride * W;
      const double* d = dN + q * hex_nodes * 3;
      double R[3][3][W] = {};
      for (int a = 0; a < hex_nodes; ++a)
        for (int i = 0; i < 3; ++i)
          for (int k = 0; k < 3; ++k)
            for (int l = 0; l < W; ++l) R[i][k][l] += u[a][i][l] * d[3 * a + k];
      double H[3][3][W];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int l = 0; l < W; ++l)
            H[i][j][l] = R[i][0][l] * g[(0 + j) * W + l] + R[i][1][l] * g[(3 + j) * W + l] +
                         R[i][2][l] * g[(6 + j) * W + l];
      double S[3][3][W];
      for (int l = 0; l < W; ++l) {
        const double lam = g[9 * W + l], mu = g[10 * W + l];
        const double tr = lam * (H[0][0][l] + H[1][1][l] + H[2][2][l]);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) S[i][j][l] = mu * (H[i][j][l] + H[j][i][l]);
        for (int i = 0; i < 3; ++i) S[i][i][l] += tr;
      }
      double P[3][3][W];
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
          for (int l = 0; l < W; ++l)
            P[i][k][l] = S[i][0][l] * g[(3 * k + 0) * W + l] + S[i][1][l] * g[(3 * k + 1) * W + l] +
                         S[i][2][l] * g[(3 * k + 2) * W + l];
      for (int a = 0; a < hex_nodes; ++a)
        for (int i = 0; i < 3; ++i)
          for (int l = 0; l < W; ++l)
            f[a][i][l] += P[i][0][l] * d[3 * a] + P[i][1][l] * d[3 * a + 1] + P[i][2][l] * d[3 * a + 2];
    }
    // Lanes may share nodes: scatter one lane at a time.
    for (int l = 0; l < W; ++l)
      for (int a = 0; a < hex_nodes; ++a) {
        double* ya = y + 3 * static_cast<std::int64_t>(nb[a * W + l]);
        for (int i = 0; i < 3; ++i) ya[i] += f[a][i][l];
      }
  }
}

/// y += K_e x_e for every tet4 batch (constant gradients G_a; data: G (12), V lambda, V mu).
__attribute__((target_clones("avx512f", "avx2", "default")))
void tet_batches(std::int64_t count, const std::int32_t* nodes, const double* data,
                 const double* x, double* y) {
  for (std::int64_t b = 0; b < count; ++b) {
    const std::int32_t* nb = nodes + b * tet_nodes * W;
    const double* g = data + b * tet_stride * W;
    double u[tet_nodes][3][W];
    for (int a = 0; a < tet_nodes; ++a)
      for (int l = 0; l < W; ++l) {
        const double* xa = x + 3 * static_cast<std::int64_t>(nb[a * W + l]);
        for (int i = 0; i < 3; ++i) u[a][i][l] = xa[i];
      }
    double H[3][3][W] = {};
    for (int a = 0; a < tet_nodes; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int l = 0; l < W; ++l) H[i][j][l] += u[a][i][l] * g[(3 * a + j) * W + l];
    double S[3][3][W];
    for (int l = 0; l < W; ++l) {
      const double lam = g[12 * W + l], mu = g[13 * W + l];
      const double tr = lam * (H[0][0][l] + H[1][1][l] + H[2][2][l]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) S[i][j][l] = mu * (H[i][j][l] + H[j][i][l]);
      for (int i = 0; i < 3; ++i) S[i][i][l] += tr;
    }
    double f[tet_nodes][3][W];
    for (int a = 0; a < tet_nodes; ++a)
      for (int i = 0; i < 3; ++i)
        for (int l = 0; l < W; ++l)
          f[a][i][l] = S[i][0][l] * g[(3 * a) * W + l] + S[i][1][l] * g[(3 * a + 1) * W + l] +
                       S[i][2][l] * g[(3 * a + 2) * W + l];
    for (int l = 0; l < W; ++l)
      for (int a = 0; a < tet_nodes; ++a) {
        double* ya = y + 3 * static_cast<std::int64_t>(nb[a * W + l]);
        for (int i = 0; i < 3; ++i) ya[i] += f[a][i][l];
      }
  }
}

PetscErrorCode shell_mult(Mat A, Vec x, Vec y) {
  MatrixFreeElasticity* op = nullptr;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &op));
  try {
    op->mult(x, y);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "matrix-free product: %s", e.what());
  }
  PetscFunctionReturn(0);
}

/// Local form of a ghosted vector, or null if v is not ghosted.
Vec local_form(Vec v) {
  Vec l = nullptr;
  INERTIA_PETSC(VecGhostGetLocalForm(v, &l));
  return l;
}

}  // namespace

MatrixFreeElasticity::MatrixFreeElasticity(MPI_Comm comm, const LocalMesh& mesh,
                                           const ElementAssignment& elements, petsc::Vector layout)
    : comm_(comm), mesh_(mesh) {
  std::vector<std::int64_t> hex[2], tet[2];  // [0] interior (owned nodes only), [1] boundary
  run_collectively(comm_, [&] {
    for (std::int64_t c = 0; c < mesh_.num_cells(); ++c) {
      if (!mesh_.cell_is_element[c]) continue;
      const CellType t = mesh_.cell_types[c];
      const int m = c < static_cast<std::int64_t>(elements.cell_material.size())
                        ? elements.cell_material[c] : -1;
      const bool solid = m >= 0 && elements.materials[m].is_linear() &&
                         (t == CellType::hex8 || t == CellType::tet4);
      INERTIA_CHECK(solid && elements.cell_spring[c] < 0 && !elements.cell_point[c], InputError,
                    "time.operator: matrix_free covers linear-elastic hex8 and tet4 solids only; cell ",
                    mesh_.cell_tags[c], " is a ", info(t).name,
                    m >= 0 && !elements.materials[m].is_linear() ? " with a nonlinear material"
                    : m < 0 ? " without a linear-elastic material (a spring or point mass)" : "",
                    "; use time.operator: assembled");
      const auto nodes = mesh_.nodes_of(c);
      const bool interior = std::all_of(nodes.begin(), nodes.end(),
                                        [&](auto n) { return n < mesh_.num_owned; });
      (t == CellType::hex8 ? hex : tet)[interior ? 0 : 1].push_back(c);
    }
  });
  add_cells(hex[0], elements, CellType::hex8, hex_interior_);
  add_cells(hex[1], elements, CellType::hex8, hex_boundary_);
  add_cells(tet[0], elements, CellType::tet4, tet_interior_);
  add_cells(tet[1], elements, CellType::tet4, tet_boundary_);
  x_ghosted_ = std::move(layout);
  INERTIA_PETSC(VecDuplicate(x_ghosted_, y_ghosted_.out()));
}

void MatrixFreeElasticity::add_cells(const std::vector<std::int64_t>& cells,
                                     const ElementAssignment& elements, CellType type,
                                     Batches& out) const {
  const bool hex = type == CellType::hex8;
  const int nn = hex ? hex_nodes : tet_nodes;
  const int points = hex ? hex_points : 1;
  const int stride = hex ? hex_stride : tet_stride;
  out.count = static_cast<std::int64_t>((cells.size() + W - 1) / W);
  out.nodes.assign(static_cast<std::size_t>(out.count * nn * W), 0);
  out.data.assign(static_cast<std::size_t>(out.count * points * stride * W), 0.0);
  const HexTable& table = hex_table();
  for (std::size_t e = 0; e < cells.size(); ++e) {
    const std::int64_t c = cells[e];
    const std::int64_t b = static_cast<std::int64_t>(e / W);
    const int l = static_cast<int>(e % W);
    const auto nodes = mesh_.nodes_of(c);
    double x[3 * hex_nodes];
    for (int a = 0; a < nn; ++a) {
      out.nodes[(b * nn + a) * W + l] = static_cast<std::int32_t>(nodes[a]);
      for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh_.coords[3 * nodes[a] + i];
    }
    const auto& mat = elements.materials[elements.cell_material[c]];
    if (hex) {
      for (int q = 0; q < hex_points; ++q) {
        const double* d = &table.dN[q * hex_nodes * 3];
        double J[9] = {}, Ji[9];
        for (int a = 0; a < hex_nodes; ++a)
          for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) J[3 * i + k] += x[3 * a + i] * d[3 * a + k];
        const double s = table.weights[q] * fe::inverse3(J, Ji);
        double* g = &out.data[(b * hex_points + q) * hex_stride * W];
        for (int k = 0; k < 9; ++k) g[k * W + l] = Ji[k];
        g[9 * W + l] = s * mat.lambda();
        g[10 * W + l] = s * mat.mu();
      }
    } else {
      // Physical gradients of the linear tet: G_a = J^-T dN_a, dN constant.
      constexpr double origin[3] = {0, 0, 0};
      double dN[12];
      fe::shape_gradients(CellType::tet4, origin, dN);
      double J[9] = {}, Ji[9];
      for (int a = 0; a < tet_nodes; ++a)
        for (int i = 0; i < 3; ++i)
          for (int k = 0; k < 3; ++k) J[3 * i + k] += x[3 * a + i] * dN[3 * a + k];
      const double volume = fe::inverse3(J, Ji) / 6.0;
      double* g = &out.data[b * tet_stride * W];
      for (int a = 0; a < tet_nodes; ++a)
        for (int j = 0; j < 3; ++j)
          g[(3 * a + j) * W + l] =
              dN[3 * a] * Ji[j] + dN[3 * a + 1] * Ji[3 + j] + dN[3 * a + 2] * Ji[6 + j];
      g[12 * W + l] = volume * mat.lambda();
      g[13 * W + l] = volume * mat.mu();
    }
  }
  // Padding lanes repeat a real element's nodes with zero factors: they add exact zeros.
  for (std::size_t e = cells.size(); e < static_cast<std::size_t>(out.count * W); ++e) {
    const std::int64_t b = static_cast<std::int64_t>(e / W);
    const int l = static_cast<int>(e % W);
    for (int a = 0; a < nn; ++a) out.nodes[(b * nn + a) * W + l] = out.nodes[(b * nn + a) * W];
  }
}

void MatrixFreeElasticity::apply(const double* x, double* y, bool interior) const {
  const Batches& h = interior ? hex_interior_ : hex_boundary_;
  const Batches& t = interior ? tet_interior_ : tet_boundary_;
  if (h.count) hex_batches(h.count, h.nodes.data(), h.data.data(), hex_table().dN.data(), x, y);
  if (t.count) tet_batches(t.count, t.nodes.data(), t.data.data(), x, y);
}

void MatrixFreeElasticity::mult(Vec x, Vec y) const {
  // x: its ghosted local form (ghosts updated while the interior elements run), or a copy.
  Vec xl = local_form(x);
  Vec xg = x;
  if (!xl) {
    INERTIA_PETSC(VecGhostRestoreLocalForm(x, &xl));
    INERTIA_PETSC(VecCopy(x, x_ghosted_));
    xg = x_ghosted_;
    xl = local_form(xg);
  }
  Vec yl = local_form(y);
  Vec yg = y;
  if (!yl) {
    INERTIA_PETSC(VecGhostRestoreLocalForm(y, &yl));
    yg = y_ghosted_;
    yl = local_form(yg);
  }
  INERTIA_PETSC(VecZeroEntries(yl));
  INERTIA_PETSC(VecGhostUpdateBegin(xg, INSERT_VALUES, SCATTER_FORWARD));
  {
    const double* xa = nullptr;
    double* ya = nullptr;
    INERTIA_PETSC(VecGetArrayRead(xl, &xa));
    INERTIA_PETSC(VecGetArray(yl, &ya));
    apply(xa, ya, true);  // owned nodes only: the ghosts of x are not needed yet
    INERTIA_PETSC(VecRestoreArrayRead(xl, &xa));
    INERTIA_PETSC(VecRestoreArray(yl, &ya));
  }
  INERTIA_PETSC(VecGhostUpdateEnd(xg, INSERT_VALUES, SCATTER_FORWARD));
  {
    const double* xa = nullptr;
    double* ya = nullptr;
    INERTIA_PETSC(VecGetArrayRead(xl, &xa));
    INERTIA_PETSC(VecGetArray(yl, &ya));
    apply(xa, ya, false);
    INERTIA_PETSC(VecRestoreArrayRead(xl, &xa));
    INERTIA_PETSC(VecRestoreArray(yl, &ya));
  }
  INERTIA_PETSC(VecGhostRestoreLocalForm(xg, &xl));
  INERTIA_PETSC(VecGhostRestoreLocalForm(yg, &yl));
  INERTIA_PETSC(VecGhostUpdateBegin(yg, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(yg, ADD_VALUES, SCATTER_REVERSE));
  if (yg != y) INERTIA_PETSC(VecCopy(yg, y));
}

petsc::Matrix MatrixFreeElasticity::create_shell() const {
  PetscInt n = 0, N = 0;
  INERTIA_PETSC(VecGetLocalSize(x_ghosted_, &n));
  INERTIA_PETSC(VecGetSize(x_ghosted_, &N));
  petsc::Matrix A;
  INERTIA_PETSC(MatCreateShell(comm_, n, n, N, N, const_cast<MatrixFreeElasticity*>(this), A.out()));
  INERTIA_PETSC(MatShellSetOperation(A, MATOP_MULT, reinterpret_cast<void (*)(void)>(shell_mult)));
  INERTIA_PETSC(MatSetBlockSize(A, 3));
  return A;
}

std::size_t MatrixFreeElasticity::bytes_per_product() const {
  std::size_t bytes = 0;
  for (const Batches* b : {&hex_interior_, &hex_boundary_, &tet_interior_, &tet_boundary_})
    bytes += b->nodes.size() * sizeof(std::int32_t) + b->data.size() * sizeof(double);
  // x read and y written once per local DOF (cached across elements at best).
  bytes += 2 * 3 * static_cast<std::size_t>(mesh_.num_local_nodes()) * sizeof(double);
  return bytes;
}

}  // namespace inertia
