// Solids: one force term per material region, linear elastic (a constant K) or a
// large-deformation law of fe/hyperelastic.hpp (force, tangent and energy at u).
#include <cmath>
#include <limits>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

class SolidTerm final : public ForceTerm {
 public:
  SolidTerm(const Assembler& assembler, const LocalMesh& mesh, std::string region,
            const ElasticMaterial& material, std::vector<std::int64_t> cells)
      : assembler_(assembler),
        mesh_(mesh),
        region_(std::move(region)),
        material_(material),
        lame_{material.lambda(), material.mu()},
        cells_(std::move(cells)) {}

  std::string describe() const override {
    return cat("solids of region '", region_, "' (", material_.model.get().name, ")");
  }
  Traits traits() const override { return {.linear = material_.is_linear()}; }

  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    if (material_.is_linear()) {
      K.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto Ke) {
        fe::stiffness_linear_elastic(t, x, lame_.lambda, lame_.mu, Ke);
      });
      return;
    }
    K.add_cells(cells_, [&](std::int64_t c, CellType t, auto x, auto Ke) {
      double ue[Assembler::max_cell_dofs];
      gather(at.u, c, ue);
      fe::hyperelastic_force_tangent(t, x, std::span<const double>(ue, x.size()), material_.model,
                                     lame_, {}, Ke);
    });
  }

  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    if (material_.is_linear()) return;
    f.add_cells(cells_, [&](std::int64_t c, CellType t, auto x, auto fe_vec) {
      double ue[Assembler::max_cell_dofs];
      gather(at.u, c, ue);
      fe::hyperelastic_force_tangent(t, x, std::span<const double>(ue, x.size()), material_.model,
                                     lame_, fe_vec, {});
      return true;
    });
  }

  double energy(const TermPoint& at) const override {
    if (material_.is_linear()) return 0;
    double local = 0, x[Assembler::max_cell_dofs], ue[Assembler::max_cell_dofs];
    for (const auto c : cells_) {
      const CellType t = mesh_.cell_types[c];
      const auto nd = static_cast<std::size_t>(3 * info(t).num_nodes);
      assembler_.cell_coordinates(c, x);
      gather(at.u, c, ue);
      try {
        local += fe::hyperelastic_energy(t, std::span<const double>(x, nd),
                                         std::span<const double>(ue, nd), material_.model, lame_);
      } catch (const SolverError&) {
        return std::numeric_limits<double>::quiet_NaN();  // an inverted element has no energy
      }
    }
    return local;
  }

  void add_lumped_mass(VectorSum& m) const override {
    m.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto me) {
      double nodal[fe::max_nodes];
      const int n = info(t).num_nodes;
      fe::mass_lumped(t, x, material_.density, std::span<double>(nodal, n));
      for (int a = 0; a < n; ++a)
        for (int i = 0; i < 3; ++i) me[3 * a + i] = nodal[a];
      return true;
    });
  }

  void add_consistent_mass(MatrixSum& M) const override {
    M.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto Me) {
      fe::mass_consistent(t, x, material_.density, Me);
    });
  }

  double mass() const override {
    double local = 0, x[Assembler::max_cell_dofs];
    for (const auto c : cells_) {
      const CellType t = mesh_.cell_types[c];
      assembler_.cell_coordinates(c, x);
      local +=
          material_.density * fe::measure(t, std::span<const double>(x, 3 * info(t).num_nodes));
    }
    return local;
  }

  void add_body_force(const std::array<double, 3>& g, VectorSum& f) const override {
    const double b[3] = {material_.density * g[0], material_.density * g[1],
                         material_.density * g[2]};
    f.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto fe_vec) {
      fe::body_force(t, x, b, fe_vec);
      return true;
    });
  }

 private:
  void gather(std::span<const PetscScalar> u, std::int64_t c, double* ue) const {
    const auto nodes = mesh_.nodes_of(c);
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int i = 0; i < 3; ++i) ue[3 * a + i] = u[3 * nodes[a] + i];
  }

  const Assembler& assembler_;
  const LocalMesh& mesh_;
  std::string region_;
  ElasticMaterial material_;
  fe::Lame lame_;
  std::vector<std::int64_t> cells_;  ///< local cells, increasing
};

}  // namespace

void build_solid_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const auto& e = in.elements;
  for (std::size_t m = 0; m < e.materials.size(); ++m) {
    std::vector<std::int64_t> cells;
    for (std::int64_t c = 0; c < in.mesh.num_cells(); ++c)
      if (e.cell_material[c] == static_cast<int>(m)) cells.push_back(c);
    if (all_true(in.comm, cells.empty())) continue;  // a material of no cell adds nothing
    out.push_back(std::make_unique<SolidTerm>(in.assembler, in.mesh,
                                              in.mesh.regions[in.spec.materials[m].region].name,
                                              e.materials[m], std::move(cells)));
  }
}

}  // namespace inertia
