// Springs: one force term per spring region (line2 cells), Hooke springs along their current
// axis (nonlinear) with an optional axial dashpot.
#include "inertia/core/error.hpp"
#include "inertia/fe/spring.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

class SpringTerm final : public ForceTerm {
 public:
  SpringTerm(const LocalMesh& mesh, std::string region, const SpringProperties& properties,
             std::vector<std::int64_t> cells, std::vector<double> rest_lengths)
      : mesh_(mesh),
        region_(std::move(region)),
        properties_(properties),
        cells_(std::move(cells)),
        rest_lengths_(std::move(rest_lengths)) {}

  std::string describe() const override { return cat("springs of region '", region_, "'"); }
  Traits traits() const override { return {.linear = false, .dashpot = properties_.damping > 0}; }

  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    std::size_t k = 0;
    K.add_cells(cells_, [&](std::int64_t c, CellType, auto, auto Ke) {
      double x0[3], x1[3];
      ends(at.u, c, x0, x1);
      fe::spring_tangent(x0, x1, properties_.stiffness, rest_lengths_[k++], Ke.data());
    });
  }

  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    std::size_t k = 0;
    f.add_cells(cells_, [&](std::int64_t c, CellType, auto, auto fe_vec) {
      double x0[3], x1[3];
      ends(at.u, c, x0, x1);
      fe::spring_force(x0, x1, properties_.stiffness, rest_lengths_[k++], fe_vec.data());
      return true;
    });
  }

  double energy(const TermPoint& at) const override {
    double local = 0;
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double x0[3], x1[3];
      ends(at.u, cells_[k], x0, x1);
      local += fe::spring_energy(x0, x1, properties_.stiffness, rest_lengths_[k]);
    }
    return local;
  }

  void add_dashpot_force(const TermPoint& at, VectorSum& f) const override {
    if (!(properties_.damping > 0)) return;
    f.add_cells(cells_, [&](std::int64_t c, CellType, auto, auto fe_vec) {
      double x0[3], x1[3];
      ends(at.u, c, x0, x1);
      const auto nodes = mesh_.nodes_of(c);
      fe::dashpot_force(x0, x1, at.v.data() + 3 * nodes[0], at.v.data() + 3 * nodes[1],
                        properties_.damping, fe_vec.data());
      return true;
    });
  }

  void add_dashpot_matrix(const TermPoint& at, MatrixSum& B) const override {
    if (!(properties_.damping > 0)) return;
    B.add_cells(cells_, [&](std::int64_t c, CellType, auto, auto Be) {
      double x0[3], x1[3];
      ends(at.u, c, x0, x1);
      fe::dashpot_matrix(x0, x1, properties_.damping, Be.data());
    });
  }

 private:
  /// Current end positions of spring cell c.
  void ends(std::span<const PetscScalar> u, std::int64_t c, double* x0, double* x1) const {
    const auto nodes = mesh_.nodes_of(c);
    for (int i = 0; i < 3; ++i) {
      x0[i] = mesh_.coords[3 * nodes[0] + i] + u[3 * nodes[0] + i];
      x1[i] = mesh_.coords[3 * nodes[1] + i] + u[3 * nodes[1] + i];
    }
  }

  const LocalMesh& mesh_;
  std::string region_;
  SpringProperties properties_;
  std::vector<std::int64_t> cells_;   ///< local line2 cells, increasing
  std::vector<double> rest_lengths_;  ///< per cell
};

}  // namespace

void build_spring_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const auto& e = in.elements;
  std::exception_ptr error;
  for (std::size_t s = 0; s < e.springs.size(); ++s) {
    std::vector<std::int64_t> cells;
    std::vector<double> rest;
    for (std::int64_t c = 0; c < in.mesh.num_cells(); ++c) {
      if (e.cell_spring[c] != static_cast<int>(s)) continue;
      INERTIA_ASSERT(in.mesh.cell_types[c] == CellType::line2);
      double x[6];
      in.assembler.cell_coordinates(c, x);
      const double l = fe::spring_length(x, x + 3);
      if (!(l > 0) && !error)
        error = std::make_exception_ptr(InputError(
            cat("spring element ", in.mesh.cell_tags[c], " has zero length in the mesh")));
      cells.push_back(c);
      rest.push_back(e.springs[s].rest_length >= 0 ? e.springs[s].rest_length : l);
    }
    if (all_true(in.comm, cells.empty())) continue;  // a spring set of no cell adds nothing
    out.push_back(std::make_unique<SpringTerm>(in.mesh,
                                               in.mesh.regions[in.spec.springs[s].region].name,
                                               e.springs[s], std::move(cells), std::move(rest)));
  }
  rethrow_collectively(in.comm, error);
}

}  // namespace inertia
