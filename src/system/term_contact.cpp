// Rigid walls (contact.hpp): the case file's `contact:` section, one force term per wall.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "contact_offsets.hpp"
#include "contact_section.hpp"
#include "contact_state.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/contact.hpp"
#include "wall_body.hpp"
#include "wall_shapes.hpp"

namespace inertia {

using namespace contact_input;

namespace {

bool plain_name(const std::string& s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

/// Friction above 1 is legal (rubber on dry concrete) but more often a percentage or a typo.
void warn_friction(const case_yaml::Node& f, const Friction& friction,
                   std::vector<std::string>& warnings) {
  if (friction.mu_static > 1)
    warnings.push_back(cat(*f.file, ":", f.line(), ": ", f.key, ": a coefficient of ",
                           friction.mu_static,
                           " is above 1 (steel on steel 0.15 to 0.8, rubber on dry concrete about "
                           "1): check the value"));
}

}  // namespace

namespace contact_input {

Friction parse_friction(const case_yaml::Node& f) {
  Friction out;
  if (f.node.IsMap()) {
    f.expect_map({"static", "kinetic", "decay"});
    if (!f.has("static") && !f.has("kinetic"))
      f.fail("expected 'static' and/or 'kinetic' (Coulomb coefficients)");
    out.mu_static = f.has("static") ? f["static"].non_negative() : f["kinetic"].non_negative();
    out.mu_kinetic = f.has("kinetic") ? f["kinetic"].non_negative() : out.mu_static;
    if (f.has("decay")) out.decay = f["decay"].non_negative();
    if (out.mu_kinetic > out.mu_static)
      f.fail(cat("kinetic coefficient ", out.mu_kinetic, " above the static one ", out.mu_static));
  } else {
    out.mu_static = out.mu_kinetic = f.non_negative();
  }
  return out;
}

namespace {

void add_friction(Hasher& h, const Friction& f) {
  h.add(f.mu_static).add(f.mu_kinetic).add(f.decay);
}

}  // namespace

std::string friction_text(const Friction& f) {
  if (!f.on()) return ", frictionless";
  return cat(", friction ", f.mu_static,
             f.mu_kinetic != f.mu_static ? cat(" (static) / ", f.mu_kinetic, " (kinetic)")
                                         : std::string());
}

}  // namespace contact_input

void ContactSection::fingerprint(Hasher& h) const {
  h.add(penalty_scale).add(augmented.on).add(augmented.tolerance).add(augmented.iterations);
  h.add(static_cast<std::uint64_t>(walls.size()));
  for (const WallInput& w : walls) {
    h.add(w.name).add(w.region).add(static_cast<int>(w.shape)).add(w.point).add(w.direction);
    h.add(w.radius).add(w.penalty).add(w.damping).add(w.moving).add(w.motion).add(w.amplitude);
    if (w.mass > 0) h.add(w.mass).add(w.initial_velocity);
    add_friction(h, w.friction);
  }
  h.add(static_cast<std::uint64_t>(pairs.size()));
  for (const PairInput& p : pairs) {
    h.add(p.name).add(static_cast<std::uint64_t>(p.surfaces.size()));
    for (const auto& s : p.surfaces) h.add(s);
    h.add(p.penalty).add(p.margin);
    add_friction(h, p.friction);
    if (p.initial != InitialPenetration::error) h.add(static_cast<int>(p.initial));
    if (!p.eroding) h.add(std::string("not eroding"));
  }
}

namespace {

/// A drop weight's `mass` and `initial_velocity` (wall_body.hpp) into `in`.
void parse_drop_weight(const case_yaml::Node& w, WallInput& in) {
  if (!w.has("mass")) {
    if (w.has("initial_velocity"))
      w["initial_velocity"].fail(
          "an initial velocity needs a 'mass' (a drop weight); a wall without one is fixed or "
          "follows its 'motion'");
    return;
  }
  in.mass = w["mass"].positive();
  if (w.has("motion"))
    w["mass"].fail(
        "give either 'motion' (a prescribed translation) or 'mass' (a drop weight moved by the "
        "contact force), not both");
  if (w.has("damping"))
    w["damping"].fail("damping on a wall with a mass (a drop weight) is not supported");
  if (w.has("initial_velocity")) in.initial_velocity = w["initial_velocity"].vec3();
}

/// The section's `walls:` list into s.walls (names checked against s.pairs').
void parse_walls(const case_yaml::Node& walls, ContactSection& s) {
  walls.expect_sequence();
  if (walls.size() == 0) walls.fail("expected at least one wall");
  for (std::size_t i = 0; i < walls.size(); ++i) {
    const case_yaml::Node w = walls.at(i);
    const auto shapes = wall_shapes();
    std::vector<std::string_view> keys{"name",   "region", "penalty",          "damping",
                                       "motion", "mass",   "initial_velocity", "friction"};
    for (const auto& shape : shapes) keys.push_back(shape.name);
    w.expect_map(keys);
    WallInput in;
    in.where = cat(*w.file, ":", w.line(), ": ", w.key);
    for (const char* k : {"name", "region"})
      if (!w.has(k)) w.fail(cat("missing key '", k, "'"));
    in.name = w["name"].text();
    if (!plain_name(in.name))
      w["name"].fail(
          "expected a name of letters, digits, '_' or '-' (at most 64): it names "
          "contact.csv's columns");
    for (const auto& other : s.walls)
      if (other.name == in.name) w["name"].fail(cat("wall '", in.name, "' is given twice"));
    for (const auto& other : s.pairs)
      if (other.name == in.name) w["name"].fail(cat("'", in.name, "' names a pair too"));
    in.region = w["region"].text();
    std::string one_of;  // "'plane', 'sphere' or 'cylinder'"
    for (std::size_t k = 0; k < shapes.size(); ++k)
      one_of += cat(k == 0 ? "" : k + 1 == shapes.size() ? " or " : ", ", "'", shapes[k].name, "'");
    const WallShapeEntry* shape = nullptr;
    for (const auto& row : shapes)
      if (w.has(std::string(row.name).c_str())) {
        if (shape) w.fail("give exactly one of " + one_of);
        shape = &row;
      }
    if (!shape) w.fail("give exactly one of " + one_of);
    in.shape = shape->shape;
    shape->read(w[std::string(shape->name).c_str()], in);
    if (w.has("penalty")) in.penalty = w["penalty"].positive();
    if (w.has("damping")) in.damping = w["damping"].non_negative();
    if (w.has("friction")) {
      in.friction = parse_friction(w["friction"]);
      warn_friction(w["friction"], in.friction, s.warnings);
    }
    if (w.has("motion")) {
      const auto m = w["motion"];
      m.expect_map({"displacement", "amplitude"});
      if (!m.has("displacement")) m.fail("missing key 'displacement' (the wall's translation)");
      in.moving = true;
      in.motion = m["displacement"].vec3();
      if (m.has("amplitude")) in.amplitude = m["amplitude"].text();
      in.motion_line = m.line();
    }
    parse_drop_weight(w, in);
    s.walls.push_back(std::move(in));
  }
}

}  // namespace

std::shared_ptr<TermSection> parse_contact_section(const case_yaml::Node& n) {
  n.expect_map({"penalty_scale", "augmented", "walls", "pairs"});
  auto s = std::make_shared<ContactSection>();
  if (n.has("penalty_scale")) {
    s->penalty_scale = n["penalty_scale"].positive();
    if (s->penalty_scale > 1e3 || s->penalty_scale < 1e-3)
      s->warnings.push_back(cat(*n.file, ":", n["penalty_scale"].line(), ": ",
                                n["penalty_scale"].key, ": ", s->penalty_scale,
                                " is far from 1 (explicit) or 10 (implicit): explicit steps shrink "
                                "as 1 / sqrt of it, penetrations as 1 / it"));
  }
  if (n.has("augmented")) {
    const case_yaml::Node a = n["augmented"];
    s->augmented.where = cat(*a.file, ":", a.line(), ": ", a.key);
    if (a.node.IsMap()) {
      a.expect_map({"tolerance", "iterations"});
      s->augmented.on = true;
      if (a.has("tolerance")) s->augmented.tolerance = a["tolerance"].positive();
      if (a.has("iterations"))
        s->augmented.iterations =
            static_cast<int>(a["iterations"].integer_in(1, 1000, "multiplier updates per solve"));
    } else {
      s->augmented.on = a.boolean();
    }
  }
  if (!n.has("walls") && !n.has("pairs"))
    n.fail("expected 'walls' (rigid walls: a list) or 'pairs' (contact between bodies: a list)");
  if (n.has("pairs")) {
    const case_yaml::Node pairs = n["pairs"];
    pairs.expect_sequence();
    if (pairs.size() == 0) pairs.fail("expected at least one pair");
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const case_yaml::Node p = pairs.at(i);
      p.expect_map(
          {"name", "surfaces", "penalty", "margin", "friction", "initial_penetration", "eroding"});
      PairInput in;
      in.where = cat(*p.file, ":", p.line(), ": ", p.key);
      for (const char* k : {"name", "surfaces"})
        if (!p.has(k)) p.fail(cat("missing key '", k, "'"));
      in.name = p["name"].text();
      if (!plain_name(in.name))
        p["name"].fail(
            "expected a name of letters, digits, '_' or '-' (at most 64): it names "
            "contact.csv's columns");
      for (const auto& other : s->pairs)
        if (other.name == in.name) p["name"].fail(cat("pair '", in.name, "' is given twice"));
      const case_yaml::Node surfaces = p["surfaces"];
      surfaces.expect_sequence();
      if (surfaces.size() < 1 || surfaces.size() > 2)
        surfaces.fail("expected two regions of faces, or one (a surface touching itself)");
      for (std::size_t k = 0; k < surfaces.size(); ++k)
        in.surfaces.push_back(surfaces.at(k).text());
      if (in.surfaces.size() == 2 && in.surfaces[0] == in.surfaces[1])
        surfaces.fail("the two surfaces are the same region: give it once for self-contact");
      if (p.has("penalty")) in.penalty = p["penalty"].positive();
      if (p.has("margin")) in.margin = p["margin"].positive();
      if (p.has("friction")) {
        in.friction = parse_friction(p["friction"]);
        warn_friction(p["friction"], in.friction, s->warnings);
      }
      if (p.has("initial_penetration")) {
        const case_yaml::Node i = p["initial_penetration"];
        const std::string v = i.text();
        if (v == "move")
          in.initial = InitialPenetration::move;
        else if (v == "ignore")
          in.initial = InitialPenetration::ignore;
        else if (v != "error")
          i.fail(
              cat("expected error (refuse a pair that starts interpenetrated), move (move its "
                  "nodes onto the faces they penetrate) or ignore (keep the overlap), not '",
                  v, "'"));
      }
      if (p.has("eroding")) in.eroding = p["eroding"].boolean();
      s->pairs.push_back(std::move(in));
    }
  }
  if (n.has("walls")) parse_walls(n["walls"], *s);
  return s;
}

namespace {

class RigidWallTerm final : public ContactTerm {
 public:
  RigidWallTerm(const TermInputs& in, WallInput wall, double penalty_scale, SurfaceNodes surface,
                const Amplitude* motion, const Augmented& augmented)
      : motion_(motion),
        comm_(in.comm),
        mesh_(in.mesh),
        wall_(std::move(wall)),
        penalty_scale_(penalty_scale),
        nodes_(std::move(surface.nodes)),
        area_(std::move(surface.areas)),
        half_(std::move(surface.half)),
        k_(nodes_.size(), 0.0),
        c_(nodes_.size(), 0.0),
        friction_(wall_.friction.on()),
        state_(nodes_, friction_, augmented.on),
        augmented_(augmented) {
    if (friction_) uc_.assign(3 * nodes_.size(), 0.0);
    if (wall_.mass > 0) body_.emplace(wall_.mass, wall_.initial_velocity);
    if (augmented_.on) {
      m_.assign(nodes_.size(), 0.0);
      mass_weight_ = augmented_mass_weight(in.spec);
      if (!(augmented_.tolerance > 0)) augmented_.tolerance = 1e-3 * node_spacing(comm_, area_);
    }
  }

  /// Keeps the mesh the term was built on (offset_mesh's copy) as long as the term lives, and
  /// its offset shells' turned points (contact_offsets.hpp; null: none): the term then gathers.
  void keep(std::shared_ptr<const LocalMesh> mesh, std::unique_ptr<TurnedOffsets> turn) {
    own_mesh_ = std::move(mesh);
    turn_ = std::move(turn);
    if (!turn_) return;
    f_ = turn_->vector();
    if (motion_) x0_ = turn_->vector(), x1_ = turn_->vector();
  }

  std::string describe() const override {
    return cat(body_ ? "drop weight '" : "rigid wall '", wall_.name, "' (", shape_name(wall_.shape),
               ") on region '", wall_.region, "'");
  }
  Traits traits() const override {
    return {.linear = false,
            .dashpot = wall_.damping > 0,
            .moves = motion_ != nullptr || body_.has_value(),
            .nodal = true,
            .gathers = turn_ != nullptr,
            .friction = friction_,
            .multipliers = augmented_.on,
            .body = body_.has_value()};
  }
  void add_nodal_force(std::span<const PetscScalar> u, double t, double factor,
                       std::span<const PetscScalar> scale,
                       std::span<PetscScalar> f) const override {
    if (turn_) return add_turned_force(factor, scale, f);
    for_active(u, t, [&](std::size_t j, std::int32_t n, const Gap& c, double p) {
      const Slip T = slip(j, n, u, t, c, p);
      for (int i = 0; i < 3; ++i) {
        const double s = scale.empty() ? 1.0 : scale[3 * n + i];
        f[3 * n + i] += factor * s * (-p * c.n[i] - T.force[i]);
      }
    });
  }
  const std::string& name() const override { return wall_.name; }
  std::string summary() const override {
    double v[3] = {static_cast<double>(nodes_.size()), INFINITY, 0};  // count, min k, max k
    for (const double k : k_) v[1] = std::min(v[1], k), v[2] = std::max(v[2], k);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &v[1], 1, MPI_DOUBLE, MPI_MIN, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &v[2], 1, MPI_DOUBLE, MPI_MAX, comm_));
    return cat(
        describe(), ": ", static_cast<std::int64_t>(v[0]), " nodes, penalty ", v[1], " to ", v[2],
        " N/m",
        wall_.damping > 0 ? cat(", damping ", wall_.damping, " of critical") : std::string(),
        friction_text(wall_.friction),
        body_ ? cat(", mass ", wall_.mass, " kg, initial velocity [", wall_.initial_velocity[0],
                    ", ", wall_.initial_velocity[1], ", ", wall_.initial_velocity[2], "] m/s")
              : std::string(),
        augmented_.on ? cat(", augmented Lagrangian to ", augmented_.tolerance, " m")
                      : std::string());
  }

  void set_up(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> mass) override {
    bound_ = 0;
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
      const std::int32_t n = nodes_[j];
      if (wall_.penalty > 0) {
        k_[j] = wall_.penalty * area_[j];
      } else {
        const double d = std::max({diagonal[3 * n], diagonal[3 * n + 1], diagonal[3 * n + 2]});
        k_[j] = penalty_scale_ * d;
      }
      if (mass[3 * n] > 0) bound_ = std::max(bound_, k_[j] / mass[3 * n]);
      c_[j] = 2 * wall_.damping * std::sqrt(k_[j] * mass[3 * n]);
      if (augmented_.on) m_[j] = mass_weight_ * mass[3 * n];
    }
  }
  double frequency_squared_bound() const override { return bound_; }
  void add_penalty_diagonal(std::span<PetscScalar> d) const override {
    for (std::size_t j = 0; j < nodes_.size(); ++j)
      for (int i = 0; i < 3; ++i) d[3 * nodes_[j] + i] += k_[j];
  }

  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    // The owned entries of the local form are the owned nodes' (owned first): the nodal force.
    add_nodal_force(at.u, at.time, 1.0, {}, f.local());
  }
  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    if (at.u.empty() || turn_) return;  // turned offsets: add_coupling
    for_active(
        at.u, at.time,
        [&](std::size_t j, std::int32_t n, const Gap& c, double pressing) {
          double b[9];
          node_tangent(j, n, at.u, at.time, c, pressing, b);
          K.add_node_block(n, b);
        },
        true);
  }
  /// Turned offsets: the translations' blocks at the last gather's points (their coupling to
  /// the rotations through the turned shift is left out: Newton converges, not quadratically).
  void add_coupling(std::vector<CouplingBlock>& blocks) const override {
    if (!turn_) return;
    petsc::ConstArray x(turn_->points());
    for_active(
        x.span(), time_,
        [&](std::size_t j, std::int32_t n, const Gap& c, double pressing) {
          CouplingBlock b{mesh_.global_node(n), mesh_.global_node(n), {}};
          node_tangent(j, n, x.span(), time_, c, pressing, b.b.data());
          blocks.push_back(b);
        },
        true);
  }
  void add_dashpot_force(const TermPoint& at, VectorSum& f) const override {
    const std::span<PetscScalar> out = f.local();
    for_active(at.u, at.time, [&](std::size_t j, std::int32_t n, const Gap& c, double p) {
      const double fd = damper(j, n, at.v, at.time, c, p);
      for (int i = 0; i < 3; ++i) out[3 * n + i] += fd * c.n[i];
    });
  }
  void add_dashpot_matrix(const TermPoint& at, MatrixSum& B) const override {
    // The clipped force's dependence on u through p is left out (Newton converges there).
    for_active(at.u, at.time, [&](std::size_t j, std::int32_t n, const Gap& c, double) {
      double b[9];
      for (int i = 0; i < 3; ++i)
        for (int l = 0; l < 3; ++l) b[3 * i + l] = c_[j] * c.n[i] * c.n[l];
      B.add_node_block(n, b);
    });
  }
  double energy(const TermPoint& at) const override {
    std::optional<petsc::ConstArray> x;  // turned offsets: the gather's points
    if (turn_) x.emplace(turn_->points());
    const std::span<const PetscScalar> u = x ? x->span() : at.u;
    double e = 0;
    for_active(u, at.time, [&](std::size_t j, std::int32_t n, const Gap& c, double p) {
      const Slip T = slip(j, n, u, at.time, c, p);
      const double l = state_.multiplier(j);
      e += normal_energy(l, k_[j], c.g) + 0.5 * norm2(T.force) / k_[j];  // the stick spring's too
      if (l > 0) e += 0.5 * l * l / k_[j];  // counted below for every node with a multiplier
    });
    for (std::size_t j = 0; state_.multipliers() && j < nodes_.size(); ++j)
      if (const double l = state_.multiplier(j); l > 0) e -= 0.5 * l * l / k_[j];  // not pressing
    return e;
  }
  double moving_work(std::span<const PetscScalar> u0, std::span<const PetscScalar> u1, double t0,
                     double t1) const override {
    if (!motion_) return 0;
    // The trapezoidal rule on the wall's power F . d'(t): (F(u0, t0) + F(u1, t1)) / 2 . (d(t1) -
    // d(t0)), F the force the wall exerts on the body (a translation: every point of the wall moves
    // by the same d).
    const auto o0 = offset(t0), o1 = offset(t1);
    double f[3] = {0, 0, 0};
    for (int end = 0; end < 2; ++end) {
      const std::span<const PetscScalar> u = end == 0 ? u0 : u1;
      const double t = end == 0 ? t0 : t1;
      // The step's start with the multipliers it started from (the step's updates changed
      // them at fixed u: no work).
      for_active(
          u, t,
          [&](std::size_t j, std::int32_t n, const Gap& c, double p) {
            const Slip T = slip(j, n, u, t, c, p);
            for (int i = 0; i < 3; ++i) f[i] += 0.5 * (T.force[i] + p * c.n[i]);
          },
          false, end == 0);
    }
    return f[0] * (o1[0] - o0[0]) + f[1] * (o1[1] - o0[1]) + f[2] * (o1[2] - o0[2]);
  }
  /// Turned offsets (the term gathers): the same at the points of u0 and u1.
  double gathered_moving_work(Vec u0, Vec u1, double t0, double t1) const override {
    if (!turn_ || !motion_) return 0;
    settle();
    turn_->positions(u0, x0_);
    turn_->positions(u1, x1_);
    petsc::ConstArray a(x0_), b(x1_);
    return moving_work(a.span(), b.span(), t0, t1);
  }

  /// Turned offsets: the wall's forces on the points at u (their moments on the rotations),
  /// for add_nodal_force and energy; collective. Without them the wall does not gather.
  void gather(Vec u, double t) const override {
    if (!turn_) return;
    const PetscObjectState state = petsc::object_state(u);
    int same = evaluated_ && u == last_u_ && state == last_state_ && t == time_ ? 1 : 0;
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, comm_));
    if (same) return;
    last_u_ = u, last_state_ = state, time_ = t, evaluated_ = true;
    settle();
    INERTIA_PETSC(VecZeroEntries(f_));
    {
      petsc::ConstArray x(turn_->points(u));
      petsc::Array f(f_);
      for_active(x.span(), t, [&](std::size_t j, std::int32_t n, const Gap& c, double p) {
        const Slip T = slip(j, n, x.span(), t, c, p);
        for (int i = 0; i < 3; ++i) f[3 * n + i] = -p * c.n[i] - T.force[i];
      });
    }
    turn_->moments(f_);
  }

  Reading read(Vec u, double t) const override {
    gather(u, t);
    petsc::ConstArray ua(turn_ ? turn_->points() : u);
    double sums[5] = {0, 0, 0, 0, 0}, deepest = 0;
    for_active(ua.span(), t, [&](std::size_t j, std::int32_t n, const Gap& c, double p) {
      const Slip T = slip(j, n, ua.span(), t, c, p);
      for (int i = 0; i < 3; ++i) sums[i] += T.force[i] + p * c.n[i];
      sums[3] += p;
      sums[4] += 1;
      deepest = std::max(deepest, -c.g);
    });
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 5, MPI_DOUBLE, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &deepest, 1, MPI_DOUBLE, MPI_MAX, comm_));
    return {{sums[0], sums[1], sums[2]}, sums[3], static_cast<std::int64_t>(sums[4]), deepest};
  }
  void add_pressure(Vec u_vec, double t, std::span<double> pressure) const override {
    gather(u_vec, t);
    petsc::ConstArray u(turn_ ? turn_->points() : u_vec);
    for_active(u.span(), t, [&](std::size_t j, std::int32_t n, const Gap&, double p) {
      if (area_[j] > 0) pressure[n] += p / area_[j];
    });
  }

  void commit_nodal(Vec u_vec, double t) const override {
    // A drop weight: the force on it at the accepted step, with the friction it started from
    // (the step's forces), then the friction's commit at the offsets the step saw, then its own.
    std::array<double, 3> on_body{0, 0, 0};
    if (body_) on_body = read(u_vec, t).force;
    state_.commit_multipliers();
    if (friction_) commit_friction(u_vec, t);
    if (body_) body_->commit(t, {-on_body[0], -on_body[1], -on_body[2]});
    evaluated_ = false;  // the next evaluation from the new committed state
  }
  std::optional<Body> body() const override {
    if (!body_) return std::nullopt;
    return Body{body_->mass(), body_->offset(body_->time()), body_->velocity(), body_->force()};
  }
  double body_kinetic_energy() const override { return body_ ? body_->kinetic_energy() : 0.0; }
  std::vector<double> body_state() const override {
    return body_ ? body_->save() : std::vector<double>();
  }
  void load_body_state(std::span<const double> values) const override {
    if (body_) body_->load(values);
  }
  void commit_friction(Vec u_vec, double t) const {
    gather(u_vec, t);
    petsc::ConstArray ua(turn_ ? turn_->points() : u_vec);
    const std::span<const PetscScalar> u = ua.span();
    // The accepted step's friction forces and slips relative to the wall (NodeContactState's
    // dissipation).
    const std::array<double, 3> o0 = offset(state_.committed_time()), o1 = offset(t);
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
      const std::int32_t n = nodes_[j];
      const Gap c = node_gap(j, u, o1);
      Slip T;
      if (const double p = state_.multiplier(j) - k_[j] * c.g; p > 0) T = slip(j, n, u, t, c, p);
      double* force = state_.trial_force(j);
      double* d = state_.slip(j);
      for (int i = 0; i < 3; ++i) {
        force[i] = T.force[i];
        d[i] = u[3 * n + i] - uc_[3 * j + i] - (o1[i] - o0[i]);
        uc_[3 * j + i] = u[3 * n + i];
      }
    }
    state_.commit_friction(0, k_);
    state_.set_committed_time(t);
  }
  double take_friction_dissipation() const override { return state_.take_dissipation(); }
  int augmentation_limit() const override { return augmented_.on ? augmented_.iterations : 0; }
  double augment(Vec u_vec, double t, bool update, double inertia) const override {
    gather(u_vec, t);
    petsc::ConstArray ua(turn_ ? turn_->points() : u_vec);
    const std::span<const PetscScalar> u = ua.span();
    const std::array<double, 3> o = offset(t);
    double worst = 0;
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
      const double rho = k_[j] + inertia * m_[j];
      const double l = std::max(0.0, state_.multiplier(j) - rho * node_gap(j, u, o).g);
      worst = std::max(worst, state_.update_multiplier(j, l, rho, update));
    }
    if (update) state_.count_update(), evaluated_ = false;  // the forces at u change
    return worst / augmented_.tolerance;
  }
  void reject_multipliers() const override {
    state_.reject_multipliers();
    evaluated_ = false;
  }
  std::int64_t augmentations() const override { return augmented_.on ? state_.updates() : -1; }
  std::vector<std::string> states() const override { return state_.names(); }
  void save_state(std::string_view which, std::span<PetscScalar> owned) const override {
    state_.save(which, owned);
  }
  void load_state(std::string_view which, std::span<const PetscScalar> owned,
                  std::span<const PetscScalar> u, double t) const override {
    state_.load(which, owned, t);
    evaluated_ = false;
    if (which == "multipliers") return;
    for (std::size_t j = 0; j < nodes_.size(); ++j)
      for (int i = 0; i < 3; ++i) uc_[3 * j + i] = u[3 * nodes_[j] + i];
    if (turn_) turn_->hold_committed(u);  // the points': turned at the next gather
  }

  /// Collective. The nodes behind the wall in the reference configuration (one InputError line
  /// on every rank naming the wall, the count and the deepest node).
  void check_start() const {
    double deepest = 0;
    std::int64_t count = 0, tag = -1;
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
      const Gap c = node_gap(j, {}, offset(0));
      if (c.g < 0) {
        ++count;
        if (-c.g > deepest) deepest = -c.g, tag = mesh_.node_tags[nodes_[j]];
      }
    }
    struct {
      double depth;
      int rank;
    } mine{deepest, 0}, worst{};
    MPI_Comm_rank(comm_, &mine.rank);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm_));
    INERTIA_MPI(MPI_Bcast(&tag, 1, MPI_INT64_T, worst.rank, comm_));
    double half = 0;
    for (const double h : half_) half = std::max(half, h);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &half, 1, MPI_DOUBLE, MPI_MAX, comm_));
    INERTIA_CHECK(
        count == 0, InputError, wall_.where, ": wall '", wall_.name,
        "' starts inside the body: ", count, " node(s) of region '", wall_.region,
        half > 0 ? "' behind it or closer to it than half their shells' thickness" : "' behind it",
        ", the deepest (node ", tag, ") by ", worst.depth,
        " m; move the wall or the body so that they start apart or touching");
  }

  std::string step_warning(double dt, double t_end) const override {
    return wall_step_warning(comm_, wall_, area_, motion_, dt, t_end);
  }
  std::vector<std::string> start_warnings() const override {
    return wall_side_warnings(comm_, mesh_, wall_, nodes_, offset(0));
  }

 private:
  /// f(j, n, gap, p) for every node j of the wall pressed against it at displacement u (3 entries
  /// per local node, owned first), p > 0 its normal force (k (-g) behind the wall; with a
  /// multiplier l, l - k g); with `touching`, a zero gap too (p = 0: the tangent, so that a body
  /// resting on the wall, exactly touching, is held by it in Newton's first iteration).
  template <typename F>
  void for_active(std::span<const PetscScalar> u, double t, F&& f, bool touching = false,
                  bool before = false) const {
    const std::array<double, 3> o = offset(t);
    const std::span<const double> l = state_.multipliers(before);
    for (std::size_t j = 0; j < nodes_.size(); ++j) {
      const std::int32_t n = nodes_[j];
      const Gap c = node_gap(j, u, o);
      const double p = (l.empty() ? 0.0 : l[j]) - k_[j] * c.g;
      if (p > 0 || (touching && c.g == 0)) f(j, n, c, p);
    }
  }
  /// Node j's gap to the wall at displacement u, the wall at offset o: from its shells'
  /// surface (half their thickness from the node) for a shell's node. Every use of the gap goes
  /// through here (the friction's commit and the multipliers' update had taken the node itself
  /// for a shell's node: the gap half a thickness too wide).
  /// (u empty: the reference.) Shells with an offset: mesh_ is offset_mesh's, with their nodes on
  /// their mid-surfaces.
  Gap node_gap(std::size_t j, std::span<const PetscScalar> u,
               const std::array<double, 3>& o) const {
    const std::int32_t n = nodes_[j];
    const double* X = &mesh_.coords[3 * n];
    double x[3] = {X[0], X[1], X[2]};
    if (!u.empty())
      for (int i = 0; i < 3; ++i) x[i] += u[3 * n + i];
    return gap(wall_, x, o, half_[j]);
  }
  /// Node j's tangent block b[9] in contact (gap c, normal force `pressing`) at displacement u.
  void node_tangent(std::size_t j, std::int32_t n, std::span<const PetscScalar> u, double t,
                    const Gap& c, double pressing, double* b) const {
    for (int i = 0; i < 3; ++i)
      for (int l = 0; l < 3; ++l) {
        const double nn = c.n[i] * c.n[l];
        const double p = (i == l ? 1.0 : 0.0) - nn - c.a[i] * c.a[l];
        b[3 * i + l] = k_[j] * (nn + c.c * p);
      }
    if (friction_ && pressing > 0) {
      // The return map's tangent (coulomb()): sticking, the tangential spring k (I - n n^T);
      // slipping, with the normal force's and the slip rate's dependences.
      const Slip T = slip(j, n, u, t, c, pressing);
      for (int e = 0; e < 9; ++e) b[e] += T.tangent[e];
    } else if (friction_) {
      // Exactly touching (no force yet): the sticking spring, as the normal one above, so that a
      // body resting on the wall and pushed along it is held in Newton's first iteration
      // (without it nothing held it along the wall: the first step slid it 2e7 m and the static
      // run stopped as a blow-up).
      for (int i = 0; i < 3; ++i)
        for (int l = 0; l < 3; ++l)
          b[3 * i + l] += k_[j] * ((i == l ? 1.0 : 0.0) - c.n[i] * c.n[l]);
    }
  }
  /// The normal dashpot's internal force on node j in contact (normal force p) at time t, along
  /// c.n: c_j times its normal velocity relative to the wall, within +-p (the contact never
  /// pulls, and the force starts from zero as a node touches: a jump there stops Newton).
  double damper(std::size_t j, std::int32_t n, std::span<const PetscScalar> v, double t,
                const Gap& c, double p) const {
    if (v.empty()) return 0;
    const double rate = motion_ ? motion_->rate(t) : 0.0;
    double vn = 0;
    for (int i = 0; i < 3; ++i) vn += (v[3 * n + i] - rate * wall_.motion[i]) * c.n[i];
    return std::clamp(c_[j] * vn, -p, p);
  }

  /// The friction force on node j in contact (gap c, normal force p) at displacement u, time t
  /// (coulomb()).
  Slip slip(std::size_t j, std::int32_t n, std::span<const PetscScalar> u, double t, const Gap& c,
            double p) const {
    if (!friction_) return {};
    const double committed = state_.committed_time();
    const std::array<double, 3> o0 = offset(committed), o1 = offset(t);
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = u[3 * n + i] - uc_[3 * j + i] - (o1[i] - o0[i]);
    return coulomb(wall_.friction, c.n, state_.committed_force(j), d, k_[j], p, t - committed);
  }
  /// Turned offsets: factor x scale x the last gather's forces and moments into f.
  void add_turned_force(double factor, std::span<const PetscScalar> scale,
                        std::span<PetscScalar> f) const {
    petsc::ConstArray fa(f_);
    for (const std::int32_t n : nodes_)
      for (int i = 0; i < 3; ++i) {
        const double s = scale.empty() ? 1.0 : scale[3 * n + i];
        f[3 * n + i] += factor * s * fa[3 * n + i];
      }
    turn_->add_moments(factor, scale, f);
  }
  /// Turned offsets after a restart: the committed points (friction's uc_) from the committed u.
  void settle() const {
    if (Vec c = turn_->committed_points(); c && friction_) {
      petsc::ConstArray x(c);
      for (std::size_t j = 0; j < nodes_.size(); ++j)
        for (int i = 0; i < 3; ++i) uc_[3 * j + i] = x[3 * nodes_[j] + i];
    }
  }
  static double norm2(const std::array<double, 3>& v) {
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  }

  /// The wall's translation at time t.
  std::array<double, 3> offset(double t) const {
    if (body_) return body_->offset(t);
    if (!motion_) return {0, 0, 0};
    const double a = motion_->value(t);
    return {a * wall_.motion[0], a * wall_.motion[1], a * wall_.motion[2]};
  }

  const Amplitude* motion_;  ///< null: a fixed wall or a drop weight
  /// A drop weight's motion (wall_body.hpp), advanced by commit_nodal.
  mutable std::optional<WallBody> body_;
  MPI_Comm comm_;
  std::shared_ptr<const LocalMesh> own_mesh_;  ///< offset_mesh's copy (null: the system's)
  std::unique_ptr<TurnedOffsets> turn_;        ///< its offset shells' points (null: none)
  mutable petsc::Vector f_;                    ///< turned: the last gather's internal forces
  mutable petsc::Vector x0_, x1_;              ///< turned: gathered_moving_work's points
  mutable Vec last_u_ = nullptr;               ///< turned: the last gather's u, state, time
  mutable PetscObjectState last_state_ = 0;
  mutable double time_ = 0;
  mutable bool evaluated_ = false;
  const LocalMesh& mesh_;
  WallInput wall_;
  double penalty_scale_;
  std::vector<std::int32_t> nodes_;  ///< owned local nodes of the region's faces
  std::vector<double> area_;         ///< each node's share of the faces' area
  std::vector<double> half_;         ///< each node's shells' half thickness (0: a solid's node)
  std::vector<double> k_;            ///< penalty per node (set_up)
  std::vector<double> c_;            ///< the normal dashpot per node (set_up; 0 undamped)
  double bound_ = 0;
  bool friction_ = false;
  /// Per node: the multipliers and the committed friction force (contact_state.hpp).
  mutable NodeContactState state_;
  mutable std::vector<double> uc_;  ///< friction: per node, the committed displacement
  Augmented augmented_;             ///< the section's settings (the tolerance resolved)
  std::vector<double> m_;           ///< per node: its mass share for the update (set_up)
  double mass_weight_ = 1;          ///< augmented_mass_weight
};

}  // namespace

void build_contact_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const auto it = in.spec.term_sections.find("contact");
  if (it == in.spec.term_sections.end()) return;
  const auto& s = dynamic_cast<const ContactSection&>(*it->second);
  INERTIA_CHECK(!s.augmented.on || !in.spec.explicit_scheme, InputError, s.augmented.where,
                ": augmented Lagrangian iterations need an implicit scheme or static (an explicit "
                "step has no Newton solve to repeat); remove the key or choose another scheme");
  // Friction with multipliers: the energy balance does not close (a press on a floor with
  // friction 0.3 under newmark: 95 % off at step 150, stopped as a blow-up at step 180 of 300,
  // while each alone closes to 1e-8): refused until it does.
  if (s.augmented.on) {
    for (const WallInput& w : s.walls)
      INERTIA_CHECK(!w.friction.on(), InputError, w.where,
                    ".friction: friction with augmented Lagrangian iterations (", s.augmented.where,
                    ") is not supported: its energy balance does not close; remove one of them");
    for (const PairInput& p : s.pairs)
      INERTIA_CHECK(!p.friction.on(), InputError, p.where,
                    ".friction: friction with augmented Lagrangian iterations (", s.augmented.where,
                    ") is not supported: its energy balance does not close; remove one of them");
  }
  bool erosion = false;  // some material's cells erode (erosion.hpp)
  for (const auto& m : in.elements.materials) erosion = erosion || m.failure != nullptr;
  const std::vector<char> erodible = erosion ? erodible_nodes(in) : std::vector<char>();
  for (const WallInput& w : s.walls) {
    INERTIA_CHECK(
        w.mass == 0 || in.spec.central_difference, InputError, w.where,
        ".mass: a wall with a mass (a drop weight) moves with the leap-frog of central "
        "difference: it needs time.integrator: central_difference in a single transient analysis "
        "(no analyses: sequence, no implicit scheme or static); give the wall a 'motion' instead");
    // Shells with an offset: the wall holds their mid-surfaces (offset_mesh), the points turned
    // with the nodes (contact_offsets.hpp).
    const std::shared_ptr<const LocalMesh> shifted = offset_mesh(in, {w.region});
    INERTIA_CHECK(!shifted || w.damping == 0, InputError, w.where,
                  ".damping: a damped wall on shells with an offset is not built (the dashpot "
                  "would act at the nodes, not at the shells' surfaces); remove the damping");
    const TermInputs inputs =
        shifted ? TermInputs{in.comm, *shifted, in.spec, in.assembler, in.elements} : in;
    SurfaceNodes surface = surface_nodes(inputs, w.region, w.where + ".region");
    if (erosion) {  // a wall's nodes are fixed at the start: none may lose its cells
      int touches = 0;
      for (auto n : surface.nodes) touches = touches || erodible[static_cast<std::size_t>(n)];
      INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &touches, 1, MPI_INT, MPI_MAX, in.comm));
      INERTIA_CHECK(!touches, InputError, w.where, ".region: region '", w.region,
                    "' has nodes of cells that can erode (a material's failure:): a wall's "
                    "nodes do not follow erosion; use a pair on the volume region");
    }
    const double scale = penalty_scale(s, in.spec);
    const Amplitude* motion = nullptr;
    if (w.moving) {
      int a = in.spec.default_amplitude;
      if (!w.amplitude.empty()) {
        const auto found = in.spec.amplitude_index.find(w.amplitude);
        INERTIA_CHECK(found != in.spec.amplitude_index.end(), InputError, w.where,
                      ".motion.amplitude: unknown amplitude '", w.amplitude, "'");
        a = found->second;
      }
      motion = &in.spec.amplitudes[static_cast<std::size_t>(a)];
    }
    auto term =
        std::make_unique<RigidWallTerm>(inputs, w, scale, std::move(surface), motion, s.augmented);
    term->keep(shifted, TurnedOffsets::make(in, shifted.get()));
    term->check_start();
    out.push_back(std::move(term));
  }
  build_pair_terms(in, s, out);
}

void prepare_contact_mesh(const TermInputs& in, LocalMesh& mesh) {
  const auto it = in.spec.term_sections.find("contact");
  if (it == in.spec.term_sections.end()) return;
  move_initial_penetrations(in, dynamic_cast<const ContactSection&>(*it->second), mesh);
}

}  // namespace inertia
