// Couplings (couplings.hpp): the case file's `couplings:`, one gathering penalty term per
// coupling of a beam node to a region of nodes (a rigid, kinematic coupling).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

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
  c.expect_map({"name", "node", "edge", "surface", "type", "penalty"});
  CouplingInput in;
  in.where = cat(*c.file, ":", c.line(), ": ", c.key);
  if (c.has("node") == c.has("edge"))
    c.fail(c.has("node") ? "give 'node' or 'edge', not both"
                         : "missing key 'node' (a point region: the beam node that leads) or "
                           "'edge' (a line region of shell or beam nodes: each leads the "
                           "surface's nodes nearest to it)");
  if (!c.has("surface"))
    c.fail("missing key 'surface' (the face region whose nodes follow the node)");
  if (c.has("node")) in.node = c["node"].text();
  if (c.has("edge")) in.edge = c["edge"].text();
  in.surface = c["surface"].text();
  in.name = c.has("name") ? c["name"].text() : in.edge.empty() ? in.node : in.edge;
  if (c.has("type")) c["type"].choice({"rigid"});
  if (c.has("penalty")) in.penalty = c["penalty"].positive();
  return in;
}

int region_index(const LocalMesh& mesh, const std::string& name) {
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (mesh.regions[r].name == name) return static_cast<int>(r);
  return -1;
}

/// The reference nodes of a coupling (`node`: one; `edge`: every node of a line region), the same
/// on every rank, in the order of their reference coordinates.
struct Leads {
  std::vector<std::int64_t> n, r;  ///< global translation and rotation nodes (r -1: none)
  std::vector<V3> x;               ///< reference coordinates
};

/// Collective. The owned nodes of `region` (not rotation nodes) on every rank, with their rotation
/// nodes from any rank that holds one of their cells.
Leads gather_leads(MPI_Comm comm, const LocalMesh& mesh, int region) {
  std::vector<double> mine;  // gid, x, y, z
  for (const std::int32_t m : mesh.region_owned_nodes[static_cast<std::size_t>(region)]) {
    if (mesh.is_rotation(m)) continue;
    mine.push_back(static_cast<double>(mesh.global_node(m)));
    for (int i = 0; i < 3; ++i) mine.push_back(mesh.coords[3 * m + i]);
  }
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<int> counts(static_cast<std::size_t>(size)), at(static_cast<std::size_t>(size));
  const int count = static_cast<int>(mine.size());
  INERTIA_MPI(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm));
  int total = 0;
  for (int q = 0; q < size; ++q) at[q] = total, total += counts[q];
  std::vector<double> all(static_cast<std::size_t>(total));
  INERTIA_MPI(MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), at.data(),
                             MPI_DOUBLE, comm));
  std::vector<std::array<double, 4>> rows;
  for (std::size_t k = 0; k < all.size(); k += 4)
    rows.push_back({all[k + 1], all[k + 2], all[k + 3], all[k]});
  std::sort(rows.begin(), rows.end());  // by coordinates: the same order on any ranks
  Leads out;
  std::unordered_map<std::int64_t, std::size_t> index;
  for (const auto& row : rows) {
    index[static_cast<std::int64_t>(row[3])] = out.n.size();
    out.n.push_back(static_cast<std::int64_t>(row[3]));
    out.x.push_back({row[0], row[1], row[2]});
  }
  out.r.assign(out.n.size(), -1);
  for (std::int32_t m = 0; m < mesh.num_local_nodes(); ++m)
    if (const auto it = index.find(mesh.global_node(m)); it != index.end())
      if (mesh.rotation_of.size() > static_cast<std::size_t>(m) && mesh.rotation_of[m] >= 0)
        out.r[it->second] = mesh.global_node(mesh.rotation_of[m]);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, out.r.data(), static_cast<int>(out.r.size()), MPI_INT64_T,
                            MPI_MAX, comm));
  return out;
}

/// A rigid coupling of a set of reference nodes (couplings.hpp): each surface node follows the
/// nearest of them.
class CouplingTerm final : public ForceTerm {
 public:
  /// Collective: finds the reference nodes, their rotation nodes and the surface on every rank.
  CouplingTerm(const TermInputs& in, const CouplingInput& c, int lead_region, int surface_region)
      : comm_(in.comm), mesh_(in.mesh), input_(c), leads_(gather_leads(comm_, mesh_, lead_region)) {
    const auto& mesh = in.mesh;
    const std::size_t E = leads_.n.size();
    std::unordered_map<std::int64_t, std::size_t> lead_of, rotation_lead;
    for (std::size_t e = 0; e < E; ++e) {
      lead_of[leads_.n[e]] = e;
      if (leads_.r[e] >= 0) rotation_lead[leads_.r[e]] = e;
    }
    for (std::int32_t m = 0; m < mesh.num_owned; ++m) {
      if (const auto it = lead_of.find(mesh.global_node(m)); it != lead_of.end())
        owned_n_.push_back({m, it->second});
      if (const auto it = rotation_lead.find(mesh.global_node(m)); it != rotation_lead.end())
        owned_r_.push_back({m, it->second});
    }
    // The surface's owned nodes (not a reference node itself: its gap is zero), each led by the
    // nearest reference node (the first in order on a tie), and per reference node the sums its
    // force needs: N, sum d, sum (|d|^2 I - d d^T), the rows of sum |[d]x|.
    sums_.assign(16 * E, 0.0);  // N, D (3), Q (9), R (3)
    for (const std::int32_t a : mesh.region_owned_nodes[static_cast<std::size_t>(surface_region)]) {
      if (mesh.is_rotation(a) || lead_of.count(mesh.global_node(a))) continue;
      std::size_t e = 0;
      double best = INFINITY;
      for (std::size_t k = 0; k < E; ++k) {
        double d2 = 0;
        for (int i = 0; i < 3; ++i) d2 += std::pow(mesh.coords[3 * a + i] - leads_.x[k][i], 2);
        if (d2 < best) best = d2, e = k;
      }
      V3 d;
      for (int i = 0; i < 3; ++i) d[i] = mesh.coords[3 * a + i] - leads_.x[e][i];
      surface_.push_back(a);
      lead_.push_back(e);
      offsets_.push_back(d);
      double* sum = &sums_[16 * e];
      const double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      sum[0] += 1;
      for (int i = 0; i < 3; ++i) {
        sum[1 + i] += d[i];
        for (int j = 0; j < 3; ++j) sum[4 + 3 * i + j] += (i == j ? dd : 0.0) - d[i] * d[j];
        sum[13 + i] += std::abs(d[(i + 1) % 3]) + std::abs(d[(i + 2) % 3]);
      }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums_.data(), static_cast<int>(sums_.size()),
                              MPI_DOUBLE, MPI_SUM, comm_));
    g_.assign(12 * E, 0.0);
    fn_.assign(E, V3{}), ftheta_.assign(E, V3{}), un_.assign(E, V3{}), theta_.assign(E, V3{});
  }

  /// Collective: the checks every rank makes alike.
  void check(const TermInputs& in, int lead_region) const {
    const std::string at = cat(input_.where, ": coupling '", input_.name, "'");
    const bool edge = !input_.edge.empty();
    if (!edge)
      INERTIA_CHECK(in.mesh.region_node_counts[static_cast<std::size_t>(lead_region)] == 1,
                    InputError, at, ": node region '", input_.node, "' has ",
                    in.mesh.region_node_counts[static_cast<std::size_t>(lead_region)],
                    " nodes; it must be one node (a Gmsh point group on a beam node)");
    for (std::size_t e = 0; e < leads_.n.size(); ++e)
      INERTIA_CHECK(leads_.r[e] >= 0, InputError, at, ": ",
                    edge ? cat("a node of edge '", input_.edge, "' at (", leads_.x[e][0], ", ",
                               leads_.x[e][1], ", ", leads_.x[e][2], ")")
                         : cat("the node of region '", input_.node, "'"),
                    " is not a beam or shell node (it has no rotations); a rigid coupling leads "
                    "its surface with a node's translations and rotations");
    double count = 0;
    for (std::size_t e = 0; e < leads_.n.size(); ++e) count += sums_[16 * e];
    INERTIA_CHECK(count > 0, InputError, at, ": surface '", input_.surface,
                  "' has no node other than the coupling's ", edge ? "edge's" : "node");
  }

  std::string describe() const override {
    return input_.edge.empty() ? cat("coupling '", input_.name, "' of node '", input_.node,
                                     "' to '", input_.surface, "'")
                               : cat("coupling '", input_.name, "' of edge '", input_.edge, "' (",
                                     leads_.n.size(), " nodes) to '", input_.surface, "'");
  }
  Traits traits() const override { return {.linear = false, .nodal = true, .gathers = true}; }

  void set_up(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> mass) override {
    double largest = 0;
    const auto node_diagonal = [&](std::int32_t a) {
      for (int i = 0; i < 3; ++i)
        largest = std::max(largest, std::abs(diagonal[static_cast<std::size_t>(3 * a + i)]));
    };
    for (const std::int32_t a : surface_) node_diagonal(a);
    for (const auto& [m, e] : owned_n_) node_diagonal(m);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, comm_));
    k_ = input_.penalty * largest;
    // Gershgorin on M^-1 K of the coupling alone: row sums of |K| over the row's mass.
    bound_ = 0;
    rows_.clear();
    const auto row = [&](std::int32_t node, int i, double sum) {
      const double m = mass[static_cast<std::size_t>(3 * node + i)];
      if (m > 0) bound_ = std::max(bound_, k_ * sum / m);
      rows_.emplace_back(3 * node + i, k_ * sum);
    };
    for (std::size_t j = 0; j < surface_.size(); ++j) {
      const V3& d = offsets_[j];
      for (int i = 0; i < 3; ++i)
        row(surface_[j], i, 2 + std::abs(d[(i + 1) % 3]) + std::abs(d[(i + 2) % 3]));
    }
    for (const auto& [m, e] : owned_n_)
      for (int i = 0; i < 3; ++i) row(m, i, 2 * sums_[16 * e] + sums_[16 * e + 13 + i]);
    for (const auto& [m, e] : owned_r_) {
      const double* Q = &sums_[16 * e + 4];
      for (int i = 0; i < 3; ++i)
        row(m, i,
            2 * sums_[16 * e + 13 + i] + std::abs(Q[3 * i]) + std::abs(Q[3 * i + 1]) +
                std::abs(Q[3 * i + 2]));
    }
  }
  double frequency_squared_bound() const override { return bound_; }
  void add_penalty_diagonal(std::span<PetscScalar> d) const override {
    for (const auto& [entry, value] : rows_) d[static_cast<std::size_t>(entry)] += value;
  }

  /// One reduction: per reference node u_n, theta_n from their owners, sum u_a and sum d_a x u_a
  /// over the nodes it leads.
  void gather(Vec u, double) const override {
    petsc::ConstArray ua(u);
    const auto uu = ua.span();
    std::fill(g_.begin(), g_.end(), 0.0);
    for (const auto& [m, e] : owned_n_)
      for (int i = 0; i < 3; ++i) g_[12 * e + i] = uu[3 * m + i];
    for (const auto& [m, e] : owned_r_)
      for (int i = 0; i < 3; ++i) g_[12 * e + 3 + i] = uu[3 * m + i];
    for (std::size_t j = 0; j < surface_.size(); ++j) {
      const V3 v = node_u(uu, surface_[j]);
      const V3 dv = cross(offsets_[j], v);
      double* g = &g_[12 * lead_[j]];
      for (int i = 0; i < 3; ++i) g[6 + i] += v[i], g[9 + i] += dv[i];
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, g_.data(), static_cast<int>(g_.size()), MPI_DOUBLE,
                              MPI_SUM, comm_));
    // f_n = -k sum g_a, f_theta = -k sum d_a x g_a, from the sums (couplings.hpp).
    for (std::size_t e = 0; e < leads_.n.size(); ++e) {
      const double* g = &g_[12 * e];
      const double* sum = &sums_[16 * e];
      const V3 D{sum[1], sum[2], sum[3]};
      for (int i = 0; i < 3; ++i) un_[e][i] = g[i], theta_[e][i] = g[3 + i];
      const V3 tD = cross(theta_[e], D), Dun = cross(D, un_[e]);
      for (int i = 0; i < 3; ++i) {
        double qt = 0;
        for (int j = 0; j < 3; ++j) qt += sum[4 + 3 * i + j] * theta_[e][j];
        fn_[e][i] = -k_ * (g[6 + i] - sum[0] * un_[e][i] - tD[i]);
        ftheta_[e][i] = -k_ * (g[9 + i] - Dun[i] - qt);
      }
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
    for (const auto& [m, e] : owned_n_) add(m, fn_[e]);
    for (const auto& [m, e] : owned_r_) add(m, ftheta_[e]);
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
      const std::int64_t n = leads_.n[lead_[j]], r = leads_.r[lead_[j]];
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
      blocks.push_back({a, n, scaled(I, -1)});
      blocks.push_back({a, r, scaled(S, k_)});
      blocks.push_back({n, a, scaled(I, -1)});
      blocks.push_back({n, n, I});
      blocks.push_back({n, r, scaled(S, -k_)});
      blocks.push_back({r, a, scaled(S, -k_)});
      blocks.push_back({r, n, scaled(S, k_)});
      blocks.push_back({r, r, Q});
    }
  }

 private:
  static V3 node_u(std::span<const PetscScalar> u, std::int32_t a) {
    return {u[3 * a], u[3 * a + 1], u[3 * a + 2]};
  }
  /// g_a = u_a - u_n - theta_n x d_a with its reference node's gathered u_n, theta_n.
  V3 gap(std::span<const PetscScalar> u, std::size_t j) const {
    const std::size_t e = lead_[j];
    const V3 ua = node_u(u, surface_[j]), td = cross(theta_[e], offsets_[j]);
    return {ua[0] - un_[e][0] - td[0], ua[1] - un_[e][1] - td[1], ua[2] - un_[e][2] - td[2]};
  }

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  CouplingInput input_;
  Leads leads_;
  /// The reference nodes' translation and rotation nodes this rank owns (local node, lead).
  std::vector<std::pair<std::int32_t, std::size_t>> owned_n_, owned_r_;
  std::vector<std::int32_t> surface_;  ///< owned surface nodes
  std::vector<std::size_t> lead_;      ///< each one's reference node
  std::vector<V3> offsets_;            ///< their d_a = x_a - x_n
  /// Per reference node, over all ranks: N, sum d_a, sum (|d_a|^2 I - d_a d_a^T), the rows of
  /// sum |[d_a]x| (16 numbers).
  std::vector<double> sums_;
  double k_ = 0, bound_ = 0;
  std::vector<std::pair<std::int32_t, double>> rows_;  ///< the Gershgorin rows (entry, k sum)
  mutable std::vector<double> g_;                      ///< the gather's sums (12 per lead)
  mutable std::vector<V3> un_, theta_, fn_, ftheta_;   ///< the last gather's, per lead
};

const CouplingSection* section_of(const ProblemSpec& spec) {
  const auto it = spec.term_sections.find("couplings");
  return it == spec.term_sections.end() ? nullptr
                                        : &dynamic_cast<const CouplingSection&>(*it->second);
}

}  // namespace

void CouplingSection::fingerprint(Hasher& h) const {
  for (const CouplingInput& c : couplings)
    h.add(c.name).add(c.node).add(c.edge).add(c.surface).add(c.penalty);
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
    const bool edge = !c.edge.empty();
    const int node = region_index(in.mesh, edge ? c.edge : c.node);
    const int surface = region_index(in.mesh, c.surface);
    const int dim = edge ? 1 : 0;
    INERTIA_CHECK(node >= 0 && in.mesh.regions[static_cast<std::size_t>(node)].dim == dim,
                  InputError, at, edge ? ": edge '" : ": node region '", edge ? c.edge : c.node,
                  node < 0 ? "' is not in the mesh"
                  : edge   ? "' is not a line region (a 1D group)"
                           : "' is not a point region (a 0D group)");
    INERTIA_CHECK(surface >= 0 && in.mesh.regions[static_cast<std::size_t>(surface)].dim == 2,
                  InputError, at, ": surface '", c.surface,
                  surface < 0 ? "' is not in the mesh" : "' is not a face region (a 2D group)");
    auto term = std::make_unique<CouplingTerm>(in, c, node, surface);
    term->check(in, node);
    out.push_back(std::move(term));
  }
}

}  // namespace inertia
