// Couplings (couplings.hpp): the case file's `couplings:`, one gathering penalty term per
// coupling of a beam node to a region of nodes (a rigid, kinematic coupling).
#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "inertia/core/case_node.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/couplings.hpp"

namespace inertia {

namespace {

using V3 = std::array<double, 3>;

V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

/// [d]x, the matrix of v -> d x v, row-major.
std::array<double, 9> skew(const V3& d) { return {0, -d[2], d[1], d[2], 0, -d[0], -d[1], d[0], 0}; }

CouplingInput parse_coupling(const case_yaml::Node& c) {
  c.expect_map({"name", "node", "surface", "type", "penalty"});
  CouplingInput in;
  in.where = cat(*c.file, ":", c.line(), ": ", c.key);
  if (!c.has("node")) c.fail("missing key 'node' (a point region: the beam node that leads)");
  if (!c.has("surface"))
    c.fail("missing key 'surface' (the face region whose nodes follow the node)");
  in.node = c["node"].text();
  in.surface = c["surface"].text();
  in.name = c.has("name") ? c["name"].text() : in.node;
  if (c.has("type")) c["type"].choice({"rigid"});
  if (c.has("penalty")) in.penalty = c["penalty"].positive();
  return in;
}

int region_index(const LocalMesh& mesh, const std::string& name) {
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (mesh.regions[r].name == name) return static_cast<int>(r);
  return -1;
}

class CouplingTerm final : public ForceTerm {
 public:
  /// Collective: finds the reference node, its rotation node and the surface on every rank.
  CouplingTerm(const TermInputs& in, const CouplingInput& c, int node_region, int surface_region)
      : comm_(in.comm), mesh_(in.mesh), input_(c) {
    const auto& mesh = in.mesh;
    for (const std::int32_t m : mesh.region_owned_nodes[static_cast<std::size_t>(node_region)])
      (mesh.is_rotation(m) ? r_ : n_) = m;
    if (n_ >= 0 && mesh.rotation_of.size() > static_cast<std::size_t>(n_))
      if (const std::int32_t r = mesh.rotation_of[static_cast<std::size_t>(n_)];
          r >= 0 && r < mesh.num_owned)
        r_ = r;
    // The reference node's global numbers and place, from their owners.
    std::int64_t ids[2] = {n_ >= 0 ? mesh.global_node(n_) : -1,
                           r_ >= 0 ? mesh.global_node(r_) : -1};
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, ids, 2, MPI_INT64_T, MPI_MAX, comm_));
    global_n_ = ids[0], global_r_ = ids[1];
    V3 x{0, 0, 0};
    if (n_ >= 0)
      for (int i = 0; i < 3; ++i) x[i] = mesh.coords[3 * n_ + i];
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, x.data(), 3, MPI_DOUBLE, MPI_SUM, comm_));
    // The surface's owned nodes (not the reference node itself: its gap is zero) and the sums
    // the reference node's force needs: N, sum d, sum (|d|^2 I - d d^T), the rows of sum |[d]x|.
    std::array<double, 19> sums{};  // N, D (3), Q (9), R (3), then 3 spare
    for (const std::int32_t a : mesh.region_owned_nodes[static_cast<std::size_t>(surface_region)]) {
      if (mesh.is_rotation(a) || mesh.global_node(a) == global_n_) continue;
      V3 d;
      for (int i = 0; i < 3; ++i) d[i] = mesh.coords[3 * a + i] - x[i];
      surface_.push_back(a);
      offsets_.push_back(d);
      const double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      sums[0] += 1;
      for (int i = 0; i < 3; ++i) {
        sums[1 + i] += d[i];
        for (int j = 0; j < 3; ++j) sums[4 + 3 * i + j] += (i == j ? dd : 0.0) - d[i] * d[j];
        sums[13 + i] += std::abs(d[(i + 1) % 3]) + std::abs(d[(i + 2) % 3]);
      }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_DOUBLE,
                              MPI_SUM, comm_));
    count_ = sums[0];
    for (int i = 0; i < 3; ++i) D_[i] = sums[1 + i], R_[i] = sums[13 + i];
    std::copy(sums.begin() + 4, sums.begin() + 13, Q_.begin());
  }

  /// Collective: the checks every rank makes alike.
  void check(const TermInputs& in, int node_region) const {
    const std::string at = cat(input_.where, ": coupling '", input_.name, "'");
    INERTIA_CHECK(in.mesh.region_node_counts[static_cast<std::size_t>(node_region)] == 1,
                  InputError, at, ": node region '", input_.node, "' has ",
                  in.mesh.region_node_counts[static_cast<std::size_t>(node_region)],
                  " nodes; it must be one node (a Gmsh point group on a beam node)");
    INERTIA_CHECK(global_r_ >= 0, InputError, at, ": the node of region '", input_.node,
                  "' is not a beam node (it has no rotations); a rigid coupling leads its surface "
                  "with a beam node's translations and rotations");
    INERTIA_CHECK(count_ > 0, InputError, at, ": surface '", input_.surface,
                  "' has no node other than the coupling's node");
  }

  std::string describe() const override {
    return cat("coupling '", input_.name, "' of node '", input_.node, "' to '", input_.surface,
               "'");
  }
  Traits traits() const override { return {.linear = false, .nodal = true, .gathers = true}; }

  void set_up(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> mass) override {
    double largest = 0;
    const auto node_diagonal = [&](std::int32_t a) {
      for (int i = 0; i < 3; ++i)
        largest = std::max(largest, std::abs(diagonal[static_cast<std::size_t>(3 * a + i)]));
    };
    for (const std::int32_t a : surface_) node_diagonal(a);
    if (n_ >= 0) node_diagonal(n_);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, comm_));
    k_ = input_.penalty * largest;
    // Gershgorin on M^-1 K of the coupling alone: row sums of |K| over the row's mass.
    bound_ = 0;
    const auto row = [&](std::int32_t node, int i, double sum) {
      const double m = mass[static_cast<std::size_t>(3 * node + i)];
      if (m > 0) bound_ = std::max(bound_, k_ * sum / m);
    };
    for (std::size_t j = 0; j < surface_.size(); ++j) {
      const V3& d = offsets_[j];
      for (int i = 0; i < 3; ++i)
        row(surface_[j], i, 2 + std::abs(d[(i + 1) % 3]) + std::abs(d[(i + 2) % 3]));
    }
    for (int i = 0; i < 3; ++i) {
      if (n_ >= 0) row(n_, i, 2 * count_ + R_[i]);
      if (r_ >= 0)
        row(r_, i,
            2 * R_[i] + std::abs(Q_[3 * i]) + std::abs(Q_[3 * i + 1]) + std::abs(Q_[3 * i + 2]));
    }
  }
  double frequency_squared_bound() const override { return bound_; }

  /// One reduction: u_n, theta_n from their owners, sum u_a and sum d_a x u_a over the surface.
  void gather(Vec u, double) const override {
    petsc::ConstArray ua(u);
    const auto uu = ua.span();
    std::array<double, 12> g{};
    if (n_ >= 0)
      for (int i = 0; i < 3; ++i) g[i] = uu[3 * n_ + i];
    if (r_ >= 0)
      for (int i = 0; i < 3; ++i) g[3 + i] = uu[3 * r_ + i];
    for (std::size_t j = 0; j < surface_.size(); ++j) {
      const V3 v = node_u(uu, surface_[j]);
      const V3 dv = cross(offsets_[j], v);
      for (int i = 0; i < 3; ++i) g[6 + i] += v[i], g[9 + i] += dv[i];
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, g.data(), 12, MPI_DOUBLE, MPI_SUM, comm_));
    for (int i = 0; i < 3; ++i) un_[i] = g[i], theta_[i] = g[3 + i];
    // f_n = -k sum g_a, f_theta = -k sum d_a x g_a, from the sums (couplings.hpp).
    const V3 tD = cross(theta_, D_), Dun = cross(D_, un_);
    for (int i = 0; i < 3; ++i) {
      double qt = 0;
      for (int j = 0; j < 3; ++j) qt += Q_[3 * i + j] * theta_[j];
      fn_[i] = -k_ * (g[6 + i] - count_ * un_[i] - tD[i]);
      ftheta_[i] = -k_ * (g[9 + i] - Dun[i] - qt);
    }
  }

  void add_nodal_force(std::span<const PetscScalar> u, double, double factor,
                       std::span<const PetscScalar> scale,
                       std::span<PetscScalar> f) const override {
    const auto add = [&](std::int32_t a, const V3& force) {
      for (int i = 0; i < 3; ++i) {
        const double s = scale.empty() ? 1.0 : scale[3 * a + i];
        f[3 * a + i] += factor * s * force[i];
      }
    };
    for (std::size_t j = 0; j < surface_.size(); ++j) {
      V3 g = gap(u, j);
      for (double& x : g) x *= k_;
      add(surface_[j], g);
    }
    if (n_ >= 0) add(n_, fn_);
    if (r_ >= 0) add(r_, ftheta_);
  }

  double energy(const TermPoint& at) const override {
    double e = 0;
    for (std::size_t j = 0; j < surface_.size(); ++j) {
      const V3 g = gap(at.u, j);
      e += 0.5 * k_ * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    }
    return e;
  }

  /// k B_a^T B_a per surface node, B_a = [I, -I, [d_a]x] on (u_a, u_n, theta_n).
  void add_coupling(std::vector<CouplingBlock>& blocks) const override {
    if (!(k_ > 0)) return;
    for (std::size_t j = 0; j < surface_.size(); ++j) {
      const std::int64_t a = mesh_.global_node(surface_[j]);
      const V3& d = offsets_[j];
      const auto S = skew(d);
      const double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      std::array<double, 9> I{}, Q{};
      for (int i = 0; i < 3; ++i) {
        I[4 * i] = k_;
        for (int l = 0; l < 3; ++l) Q[3 * i + l] = k_ * ((i == l ? dd : 0.0) - d[i] * d[l]);
      }
      const auto scaled = [&](const std::array<double, 9>& m, double s) {
        std::array<double, 9> out;
        for (int e = 0; e < 9; ++e) out[e] = s * m[e];
        return out;
      };
      blocks.push_back({a, a, I});
      blocks.push_back({a, global_n_, scaled(I, -1)});
      blocks.push_back({a, global_r_, scaled(S, k_)});
      blocks.push_back({global_n_, a, scaled(I, -1)});
      blocks.push_back({global_n_, global_n_, I});
      blocks.push_back({global_n_, global_r_, scaled(S, -k_)});
      blocks.push_back({global_r_, a, scaled(S, -k_)});
      blocks.push_back({global_r_, global_n_, scaled(S, k_)});
      blocks.push_back({global_r_, global_r_, Q});
    }
  }

 private:
  static V3 node_u(std::span<const PetscScalar> u, std::int32_t a) {
    return {u[3 * a], u[3 * a + 1], u[3 * a + 2]};
  }
  /// g_a = u_a - u_n - theta_n x d_a with the gathered u_n, theta_n.
  V3 gap(std::span<const PetscScalar> u, std::size_t j) const {
    const V3 ua = node_u(u, surface_[j]), td = cross(theta_, offsets_[j]);
    return {ua[0] - un_[0] - td[0], ua[1] - un_[1] - td[1], ua[2] - un_[2] - td[2]};
  }

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  CouplingInput input_;
  std::int32_t n_ = -1, r_ = -1;  ///< the reference node and its rotation node, where owned
  std::int64_t global_n_ = -1, global_r_ = -1;
  std::vector<std::int32_t> surface_;  ///< owned surface nodes
  std::vector<V3> offsets_;            ///< their d_a = x_a - x_n
  double count_ = 0;                   ///< N over all ranks
  V3 D_{}, R_{};                       ///< sum d_a, row sums of sum |[d_a]x|
  std::array<double, 9> Q_{};          ///< sum (|d_a|^2 I - d_a d_a^T)
  double k_ = 0, bound_ = 0;
  mutable V3 un_{}, theta_{}, fn_{}, ftheta_{};  ///< the last gather's
};

const CouplingSection* section_of(const ProblemSpec& spec) {
  const auto it = spec.term_sections.find("couplings");
  return it == spec.term_sections.end() ? nullptr
                                        : &dynamic_cast<const CouplingSection&>(*it->second);
}

}  // namespace

void CouplingSection::fingerprint(Hasher& h) const {
  for (const CouplingInput& c : couplings) h.add(c.name).add(c.node).add(c.surface).add(c.penalty);
}

std::shared_ptr<TermSection> parse_coupling_section(const case_yaml::Node& section) {
  section.expect_sequence();
  if (section.size() == 0) section.fail("expected at least one coupling");
  auto s = std::make_shared<CouplingSection>();
  for (std::size_t i = 0; i < section.size(); ++i) {
    s->couplings.push_back(parse_coupling(section.at(i)));
    for (std::size_t j = 0; j < i; ++j)
      if (s->couplings[j].name == s->couplings[i].name)
        section.at(i).fail(cat("coupling '", s->couplings[i].name, "' is given twice"));
  }
  return s;
}

void build_coupling_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const CouplingSection* s = section_of(in.spec);
  if (!s) return;
  for (const CouplingInput& c : s->couplings) {
    const std::string at = cat(c.where, ": coupling '", c.name, "'");
    const int node = region_index(in.mesh, c.node), surface = region_index(in.mesh, c.surface);
    INERTIA_CHECK(node >= 0 && in.mesh.regions[static_cast<std::size_t>(node)].dim == 0, InputError,
                  at, ": node region '", c.node,
                  node < 0 ? "' is not in the mesh" : "' is not a point region (a 0D group)");
    INERTIA_CHECK(surface >= 0 && in.mesh.regions[static_cast<std::size_t>(surface)].dim == 2,
                  InputError, at, ": surface '", c.surface,
                  surface < 0 ? "' is not in the mesh" : "' is not a face region (a 2D group)");
    auto term = std::make_unique<CouplingTerm>(in, c, node, surface);
    term->check(in, node);
    out.push_back(std::move(term));
  }
}

}  // namespace inertia
