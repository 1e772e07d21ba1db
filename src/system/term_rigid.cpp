// Rigid bodies (rigid_bodies.hpp): the case file's `rigid_bodies:` section, one term per body.
#include <algorithm>
#include <cmath>

#include "cell_masses.hpp"
#include "inertia/assembly/assembler.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/amplitude.hpp"
#include "inertia/system/rigid_bodies.hpp"

namespace inertia {

namespace {

constexpr std::array<std::string_view, 6> dof_names{"x", "y", "z", "rx", "ry", "rz"};

struct RigidInput {
  std::string where, name, region;
  Vec3 velocity{0, 0, 0}, angular_velocity{0, 0, 0};
  std::array<bool, 6> driven{};
  std::array<double, 6> value{};
  std::string amplitude;
};

struct RigidSection final : TermSection {
  std::vector<RigidInput> bodies;
  void fingerprint(Hasher& h) const override {
    for (const RigidInput& b : bodies) {
      h.add(b.name).add(b.region).add(b.velocity).add(b.angular_velocity).add(b.amplitude);
      for (int i = 0; i < 6; ++i) h.add(static_cast<int>(b.driven[i])).add(b.value[i]);
    }
  }
};

int dof_index(const case_yaml::Node& n) {
  const std::string s = n.choice(std::vector<std::string_view>(dof_names.begin(), dof_names.end()));
  return static_cast<int>(std::find(dof_names.begin(), dof_names.end(), s) - dof_names.begin());
}

RigidInput parse_body(const case_yaml::Node& b) {
  b.expect_map(
      {"name", "region", "initial_velocity", "initial_angular_velocity", "fixed", "velocity"});
  RigidInput in;
  in.where = cat(*b.file, ":", b.line(), ": ", b.key);
  if (!b.has("region")) b.fail("missing key 'region' (the volume region that moves rigidly)");
  in.region = b["region"].text();
  in.name = b.has("name") ? b["name"].text() : in.region;
  if (b.has("initial_velocity")) in.velocity = b["initial_velocity"].vec3();
  if (b.has("initial_angular_velocity")) in.angular_velocity = b["initial_angular_velocity"].vec3();
  if (b.has("fixed")) {
    const case_yaml::Node f = b["fixed"];
    f.expect_sequence();
    for (std::size_t i = 0; i < f.size(); ++i) in.driven[dof_index(f.at(i))] = true;
  }
  if (b.has("velocity")) {
    const case_yaml::Node v = b["velocity"];
    std::vector<std::string_view> keys(dof_names.begin(), dof_names.end());
    keys.push_back("amplitude");
    v.expect_map(keys);
    for (int i = 0; i < 6; ++i) {
      const std::string k(dof_names[i]);
      if (!v.has(k.c_str())) continue;
      if (in.driven[i])
        v[k.c_str()].fail(cat("'", k, "' is also in 'fixed': give it one of the two"));
      in.driven[i] = true;
      in.value[i] = v[k.c_str()].number();
    }
    if (v.has("amplitude")) in.amplitude = v["amplitude"].text();
  }
  return in;
}

class RigidTerm final : public RigidBodyTerm {
 public:
  RigidTerm(const TermInputs& in, const RigidInput& b, int region,
            const material::SolidMaterial& material, const Amplitude* amplitude)
      : comm_(in.comm),
        assembler_(in.assembler),
        mesh_(in.mesh),
        input_(b),
        region_(region),
        density_(material.density),
        lame_(material.lame()) {
    for (std::int64_t c = 0; c < mesh_.num_cells(); ++c)
      if (mesh_.cell_is_element[c] && mesh_.cell_regions[c] == region &&
          info(mesh_.cell_types[c]).dim == 3)
        cells_.push_back(c);
    nodes_ = mesh_.region_owned_nodes[static_cast<std::size_t>(region)];
    drive_.driven = b.driven;
    drive_.value = b.value;
    drive_.amplitude = amplitude;
  }

  std::string describe() const override {
    return cat("rigid body '", input_.name, "' (region '", input_.region, "')");
  }
  Traits traits() const override { return {.body = true, .contact_stiffness = true}; }
  const std::string& name() const override { return input_.name; }
  const RigidBody& body() const override { return *body_; }
  RigidBody& body() override { return *body_; }

  // Its cells' mass and weight (cell_masses.hpp).
  void add_lumped_mass(VectorSum& m) const override {
    cell_masses::add_lumped(cells_, density_, m, cell_masses::none);
  }
  bool consistent_mass_is_lumped() const override { return false; }
  void add_consistent_mass(MatrixSum& M) const override {
    cell_masses::add_consistent(cells_, density_, M, cell_masses::none);
  }
  double mass() const override {
    return cell_masses::mass(assembler_, mesh_, cells_, density_, cell_masses::none);
  }
  void add_body_force(const std::array<double, 3>& g, VectorSum& f) const override {
    cell_masses::add_weight(cells_, density_, g, f, cell_masses::none);
  }
  /// The stiffness of its cells with their material's elastic constants: its nodes' contact
  /// penalties are sized as a deformable body's (LS-DYNA's *MAT_RIGID takes E for the same).
  void add_contact_stiffness(MatrixSum& K) const override {
    K.add_cells(cells_, [&](std::int64_t, CellType t, auto x, auto Ke) {
      fe::stiffness_linear_elastic(t, x, lame_.lambda, lame_.mu, Ke);
    });
  }
  /// The exact kinetic energy less the nodes' (rigid_bodies.hpp): 1/2 w . R dJ0 R^T w.
  double body_kinetic_energy() const override {
    if (!body_) return 0;
    const Vec3 w = body_->angular_velocity();
    const Mat3& R = body_->rotation();
    Vec3 r0{};  // R^T w
    for (int i = 0; i < 3; ++i) r0[i] = R[i] * w[0] + R[3 + i] * w[1] + R[6 + i] * w[2];
    double e = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) e += r0[i] * correction_[3 * i + j] * r0[j];
    return 0.5 * e;
  }

  void start(std::span<const PetscScalar> m, std::span<PetscScalar> v, bool fresh) override {
    if (!body_) body_.emplace(mass_properties(m), input_.velocity, input_.angular_velocity, drive_);
    if (fresh)
      for (const std::int32_t n : nodes_) {
        const Vec3 vn = body_->velocity_at(body_->position(reference(n)));
        for (int i = 0; i < 3; ++i) v[3 * n + i] = vn[i];
      }
  }

  void load(std::span<const PetscScalar> m, std::span<const PetscScalar> a) override {
    const auto [F, M] = resultant(m, a);
    body_->set_load(F, M);
  }

  void advance(double t, double h, double kick, std::span<PetscScalar> u,
               std::span<PetscScalar> v_half) override {
    const RigidBody before = *body_;
    body_->advance(t, h, kick, body_->force(), body_->moment());
    for (const std::int32_t n : nodes_) {
      const Vec3 X = reference(n), x0 = before.position(X), x1 = body_->position(X);
      for (int i = 0; i < 3; ++i) {
        u[3 * n + i] = x1[i] - X[i];
        v_half[3 * n + i] = (x1[i] - x0[i]) / h;
      }
    }
  }

  void finish(double t1, double h, std::span<const PetscScalar> m, std::span<PetscScalar> a,
              std::span<PetscScalar> v) override {
    const auto [F, M] = resultant(m, a);
    body_->finish(t1, h, F, M);
    for (const std::int32_t n : nodes_) {
      const Vec3 x = body_->position(reference(n));
      const Vec3 vn = body_->velocity_at(x), an = body_->acceleration_at(x);
      for (int i = 0; i < 3; ++i) v[3 * n + i] = vn[i], a[3 * n + i] = an[i];
    }
  }

 private:
  Vec3 reference(std::int32_t n) const {
    return {mesh_.coords[3 * n], mesh_.coords[3 * n + 1], mesh_.coords[3 * n + 2]};
  }

  /// Collective: the force and the moment about the centre of m_a a_a over the body's nodes.
  std::pair<Vec3, Vec3> resultant(std::span<const PetscScalar> m,
                                  std::span<const PetscScalar> a) const {
    double s[6] = {0, 0, 0, 0, 0, 0};
    const Vec3& c = body_->center();
    for (const std::int32_t n : nodes_) {
      const Vec3 x = body_->position(reference(n));
      const Vec3 r{x[0] - c[0], x[1] - c[1], x[2] - c[2]};
      const Vec3 f{m[3 * n] * a[3 * n], m[3 * n + 1] * a[3 * n + 1], m[3 * n + 2] * a[3 * n + 2]};
      s[0] += f[0], s[1] += f[1], s[2] += f[2];
      s[3] += r[1] * f[2] - r[2] * f[1];
      s[4] += r[2] * f[0] - r[0] * f[2];
      s[5] += r[0] * f[1] - r[1] * f[0];
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, s, 6, MPI_DOUBLE, MPI_SUM, comm_));
    return {{s[0], s[1], s[2]}, {s[3], s[4], s[5]}};
  }

  /// Collective: mass, centre and inertia from the lumped masses at the nodes, the inertia
  /// corrected by the cells' exact less their lumped second moments (rigid_bodies.hpp).
  RigidMassProperties mass_properties(std::span<const PetscScalar> m) {
    double s[4] = {0, 0, 0, 0};
    for (const std::int32_t n : nodes_) {
      const Vec3 X = reference(n);
      s[0] += m[3 * n];
      for (int i = 0; i < 3; ++i) s[1 + i] += m[3 * n] * X[i];
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, s, 4, MPI_DOUBLE, MPI_SUM, comm_));
    INERTIA_CHECK(s[0] > 0, InputError, input_.where, ": rigid body '", input_.name,
                  "' has no mass (its region's density is zero)");
    RigidMassProperties p;
    p.mass = s[0];
    p.center = {s[1] / s[0], s[2] / s[0], s[3] / s[0]};
    // Second moments S = sum m r r^T: the nodes' [0..5], the cells' exact less lumped [6..11].
    double S[12] = {};
    const auto add = [&](double* to, double w, const double* r) {
      to[0] += w * r[0] * r[0], to[1] += w * r[1] * r[1], to[2] += w * r[2] * r[2];
      to[3] += w * r[0] * r[1], to[4] += w * r[1] * r[2], to[5] += w * r[0] * r[2];
    };
    for (const std::int32_t n : nodes_) {
      const Vec3 X = reference(n);
      const double r[3] = {X[0] - p.center[0], X[1] - p.center[1], X[2] - p.center[2]};
      add(S, m[3 * n], r);
    }
    double x[Assembler::max_cell_dofs], g[3 * fe::max_nodes], nodal[fe::max_nodes];
    for (const std::int64_t c : cells_) {
      const CellType t = mesh_.cell_types[c];
      const int nn = info(t).num_nodes;
      assembler_.cell_coordinates(c, x);
      const std::span<const double> xs(x, 3 * nn);
      const fe::QuadratureRule q = fe::mass_rule(t);
      for (int k = 0; k < q.num_points; ++k) {
        double p_k[3];
        fe::physical_point(t, xs, q.points + 3 * k, p_k);
        const double w =
            density_ * q.weights[k] * std::abs(fe::physical_gradients(t, xs, q.points + 3 * k, g));
        const double r[3] = {p_k[0] - p.center[0], p_k[1] - p.center[1], p_k[2] - p.center[2]};
        add(S + 6, w, r);
      }
      fe::mass_lumped(t, xs, density_, std::span<double>(nodal, nn));
      for (int a = 0; a < nn; ++a) {
        const double r[3] = {x[3 * a] - p.center[0], x[3 * a + 1] - p.center[1],
                             x[3 * a + 2] - p.center[2]};
        add(S + 6, -nodal[a], r);
      }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, S, 12, MPI_DOUBLE, MPI_SUM, comm_));
    const auto inertia = [](const double* s) {
      const double tr = s[0] + s[1] + s[2];
      return Mat3{tr - s[0], -s[3], -s[5], -s[3], tr - s[1], -s[4], -s[5], -s[4], tr - s[2]};
    };
    const Mat3 nodal_J = inertia(S);
    correction_ = inertia(S + 6);
    for (int i = 0; i < 9; ++i) p.inertia[i] = nodal_J[i] + correction_[i];
    return p;
  }

  MPI_Comm comm_;
  const Assembler& assembler_;
  const LocalMesh& mesh_;
  RigidInput input_;
  int region_;
  double density_;
  fe::Lame lame_;
  RigidDrive drive_;
  std::vector<std::int64_t> cells_;
  std::vector<std::int32_t> nodes_;  ///< owned nodes of the region (with welded cells' there)
  Mat3 correction_{};                ///< the cells' exact less lumped inertia, reference frame
  std::optional<RigidBody> body_;
};

int region_index(const LocalMesh& mesh, const std::string& name) {
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (mesh.regions[r].name == name) return static_cast<int>(r);
  return -1;
}

const RigidSection* section_of(const ProblemSpec& spec) {
  const auto it = spec.term_sections.find("rigid_bodies");
  return it == spec.term_sections.end() ? nullptr : &dynamic_cast<const RigidSection&>(*it->second);
}

/// One error line when some owned node of `region` is also one of `other`'s (collective).
void check_disjoint(const TermInputs& in, int region, int other, const std::string& message) {
  const auto& a = in.mesh.region_owned_nodes[static_cast<std::size_t>(region)];
  const auto& b = in.mesh.region_owned_nodes[static_cast<std::size_t>(other)];
  std::vector<std::int32_t> sa(a.begin(), a.end()), sb(b.begin(), b.end());
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  std::vector<std::int32_t> common;
  std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(common));
  INERTIA_CHECK(all_true(in.comm, common.empty()), InputError, message);
}

}  // namespace

std::shared_ptr<TermSection> parse_rigid_section(const case_yaml::Node& section) {
  section.expect_sequence();
  if (section.size() == 0) section.fail("expected at least one rigid body");
  auto s = std::make_shared<RigidSection>();
  for (std::size_t i = 0; i < section.size(); ++i) {
    s->bodies.push_back(parse_body(section.at(i)));
    for (std::size_t j = 0; j < i; ++j)
      if (s->bodies[j].name == s->bodies[i].name || s->bodies[j].region == s->bodies[i].region)
        section.at(i).fail(cat("rigid body '", s->bodies[i].name, "' (region '",
                               s->bodies[i].region, "') is given twice"));
  }
  return s;
}

std::vector<int> rigid_regions(const LocalMesh& mesh, const ProblemSpec& spec) {
  std::vector<int> out;
  if (const RigidSection* s = section_of(spec))
    for (const RigidInput& b : s->bodies)
      if (const int r = region_index(mesh, b.region); r >= 0) out.push_back(r);
  return out;
}

void build_rigid_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const RigidSection* s = section_of(in.spec);
  if (!s) return;
  const auto& spec = in.spec;
  for (const RigidInput& b : s->bodies) {
    const std::string at = cat(b.where, ": rigid body '", b.name, "'");
    INERTIA_CHECK(spec.central_difference && spec.mass == MassTreatment::lumped, InputError, at,
                  ": rigid bodies move with the leap-frog of central difference: they need "
                  "time.integrator: central_difference and time.mass: lumped in a single "
                  "transient analysis (no implicit scheme, static or modal analysis)");
    INERTIA_CHECK(spec.rayleigh.mass == 0 && spec.rayleigh.stiffness == 0, InputError, at,
                  ": Rayleigh damping with rigid bodies is not supported; remove time.rayleigh");
    const int region = region_index(in.mesh, b.region);
    INERTIA_CHECK(region >= 0 && in.mesh.regions[static_cast<std::size_t>(region)].dim == 3,
                  InputError, at, ": region '", b.region,
                  region < 0 ? "' is not in the mesh" : "' is not a volume region");
    const material::SolidMaterial* material = nullptr;
    for (const auto& m : spec.materials)
      if (m.region == region) material = &m.material;
    INERTIA_CHECK(material, InputError, at, ": region '", b.region,
                  "' has no entry in 'materials' (its density gives the body's mass)");
    const Amplitude* amplitude = nullptr;
    if (!b.amplitude.empty()) {
      const auto found = spec.amplitude_index.find(b.amplitude);
      INERTIA_CHECK(found != spec.amplitude_index.end(), InputError, at,
                    ": velocity.amplitude: unknown amplitude '", b.amplitude, "'");
      amplitude = &spec.amplitudes[static_cast<std::size_t>(found->second)];
    }
    for (const auto& d : spec.dirichlet)
      if (d.region >= 0)
        check_disjoint(in, region, d.region,
                       cat(at, ": region '", in.mesh.regions[d.region].name,
                           "' of a boundary condition shares nodes with the body; hold or drive "
                           "the body with its 'fixed' or 'velocity' keys instead"));
    for (const RigidInput& other : s->bodies)
      if (&other < &b)
        if (const int r = region_index(in.mesh, other.region); r >= 0)
          check_disjoint(in, region, r,
                         cat(at, ": shares nodes with rigid body '", other.name,
                             "'; two bodies that move together are one region"));
    out.push_back(std::make_unique<RigidTerm>(in, b, region, *material, amplitude));
  }
}

}  // namespace inertia
