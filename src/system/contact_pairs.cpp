// Contact between bodies (contact.hpp, "pairs"): node-to-surface penalty contact, both ways.
//
// A pair of surfaces A and B (regions of boundary faces; one region: a surface touching itself)
// makes two passes, A's nodes against B's faces and B's nodes against A's faces (one pass for
// self-contact), so that neither side passes the other. A node whose closest point on a face lies
// inside the face, behind it (gap g < 0, along the face's outward normal n) and facing it (the
// node's outward direction against n) gets the internal force k g n, the face's nodes -k g N_a n
// (N_a the face's shape functions at the closest point): momentum is exact, and the energy is
// 1/2 k g^2.
//
// The search never gathers a surface on one rank. Each rank holds the faces of its cells; at a
// search the ranks exchange the boxes of their contact nodes, and a rank sends each other rank
// the faces whose box (grown by the margin) meets that rank's nodes' box, as reference
// coordinates and global node numbers. The receiving rank reads the current displacement of
// those faces' nodes through one PETSc scatter per step and adds their forces back through the
// same scatter, reversed. The candidate faces of each node (boxes grown by the margin) hold until
// the surfaces have moved, relative to each other, by more than the margin since the search:
// then the search runs again.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "contact_offsets.hpp"
#include "contact_pair.hpp"
#include "contact_section.hpp"
#include "contact_state.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/contact.hpp"

namespace inertia {

using namespace contact_input;

namespace {

class ContactPairTerm final : public ContactTerm {
 public:
  ContactPairTerm(const TermInputs& in, const PairInput& pair, double scale,
                  const Augmented& augmented)
      : in_(in), comm_(in.comm), mesh_(in.mesh), pair_(pair), scale_(scale), augmented_(augmented) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    implicit_ = !in.spec.explicit_scheme;
    PairSides made = pair_sides(in, pair);
    sides_ = std::move(made.sides);
    // Shells: the search reaches beyond both sides' half thicknesses (the mid-surfaces are that
    // far apart when the shells' surfaces touch); the surfaces' motion is measured as before.
    reach_ = 0;
    for (const Side& side : sides_)
      for (const double h : side.half) reach_ = std::max(reach_, 2 * h);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &reach_, 1, MPI_DOUBLE, MPI_MAX, comm_));
    const double slack = pair.margin > 0 ? pair.margin : made.half_edge;
    margin_ = slack + reach_;
    depth_ = 0.5 * slack;
    make_passes();
    if (augmented_.on) set_up_multipliers(in.spec);
    touch_nodes();
    fc_ = in.assembler.create_vector();
    friction_ = pair.friction.on();
    if (friction_) uc_ = in.assembler.create_vector();
    make_state();
    rebuilds_ = check_erosion(in, pair_);
    if (rebuilds_) released_.start(mesh_.num_owned);
  }

  /// Erosion (contact_pair_erosion.cpp): the sides' skins from the surviving cells, the
  /// passes, nodes and penalties again; the next evaluation searches.
  void cells_eroded(const std::vector<std::uint8_t>& eroded, Vec u, double t) override {
    if (!rebuilds_) return;
    if (u) book_energy(u, t, 1.0);
    PairSides made = pair_sides(in_, pair_, &eroded);
    sides_ = std::move(made.sides);
    passes_.clear();
    make_passes();
    touch_nodes();
    make_state();
    INERTIA_CHECK(set_up_mass_.size() == 3 * static_cast<std::size_t>(mesh_.num_owned),
                  InternalError, describe(), ": its surfaces rebuilt before set_up");
    size_penalties(set_up_diagonal_, set_up_mass_);
    searched_ = false;
    last_u_ = nullptr;
    if (u) book_energy(u, t, -1.0);
  }
  double eroded_energy() const override { return released_.total(); }

  /// Collective. The surfaces in the reference configuration, from one search at u = 0 (then
  /// forgotten: the run's first evaluation searches as before): check_pair_start.
  void check_start(const Assembler& assembler) {
    petsc::Vector u0 = assembler.create_vector();
    search(u0);
    searched_ = false, searches_ = 0;
    const StartCheck start = check_pair_start(space(), pair_, sides_, passes_);
    warnings_ = start.warnings;
    initial_ = start.initial, initial_depth_ = start.initial_depth;
  }
  /// Collective. `initial_penetration: move`: pass k's moves (initial_moves_of) from one search
  /// at u = 0 (then forgotten).
  InitialMoves initial_moves(const Assembler& assembler, std::size_t k) {
    petsc::Vector v = assembler.create_vector();
    search(v);
    searched_ = false, searches_ = 0;
    return initial_moves_of(space(), pair_, sides_[passes_[k].slave], passes_[k], std::move(v));
  }
  std::vector<std::string> start_warnings() const override { return warnings_; }
  double catch_distance() const override { return depth_; }

  std::string describe() const override {
    return sides_.size() == 1 ? cat("contact pair '", pair_.name, "' of region '", sides_[0].region,
                                    "' with itself")
                              : cat("contact pair '", pair_.name, "' between regions '",
                                    sides_[0].region, "' and '", sides_[1].region, "'");
  }
  Traits traits() const override {
    return {.linear = false,
            .nodal = true,
            .gathers = true,
            .friction = friction_,
            .multipliers = augmented_.on};
  }
  const std::string& name() const override { return pair_.name; }
  std::int64_t searches() const override { return searches_; }
  std::string summary() const override {
    return pair_summary(comm_, describe(), pair_, sides_,
                        {margin_, reach_, initial_, initial_depth_, rebuilds_, augmented_});
  }

  void set_up(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> mass) override {
    if (rebuilds_) {  // the rebuilt sides' penalties: from the model as set up (before erosion)
      set_up_diagonal_.assign(diagonal.begin(), diagonal.end());
      set_up_mass_.assign(mass.begin(), mass.end());
    }
    size_penalties(diagonal, mass);
  }
  double frequency_squared_bound() const override { return bound_; }
  void add_penalty_diagonal(std::span<PetscScalar> d) const override {
    // 4 k per side's node (pair_penalties' bound; a node on both sides has both).
    for (const Side& side : sides_)
      for (std::size_t j = 0; j < side.nodes.size(); ++j)
        for (int i = 0; i < 3; ++i) d[3 * side.nodes[j] + i] += 4 * side.k[j];
  }

 private:
  /// The penalties of the sides' nodes and the bound they set (set_up).
  void size_penalties(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> mass) {
    bound_ =
        pair_penalties(sides_, pair_, scale_, augmented_.on ? mass_weight_ : 0, diagonal, mass);
  }
  /// Erosion: sign x the slave nodes' penalty energy at u into released_.
  void book_energy(Vec u, double t, double sign) {
    gather(u, t);
    released_.book(passes_, sides_, sign);
  }
  /// The node states of the passes' slave nodes, one after the other.
  void make_state() {
    std::vector<std::int32_t> entries;
    for (const Pass& p : passes_)
      entries.insert(entries.end(), sides_[p.slave].nodes.begin(), sides_[p.slave].nodes.end());
    state_ = NodeContactState(std::move(entries), friction_, augmented_.on);
  }

 public:
  void gather(Vec u, double t) const override {
    // The same u as the last evaluation (the energy after the step's force) on every rank: done.
    const PetscObjectState state = petsc::object_state(u);
    int same = searched_ && u == last_u_ && state == last_state_ && t == time_ ? 1 : 0;
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, comm_));
    if (same) return;
    last_u_ = u, last_state_ = state;
    time_ = t;
    if (turn_) u = turned(u);  // offset shells: their points' displacements in place of u
    if (!searched_) search(u);
    if (friction_ && committed_moved_) {  // the committed displacement of the faces' nodes
      for (Pass& p : passes_) {
        INERTIA_PETSC(VecScatterBegin(p.scatter, uc_, p.ugc, INSERT_VALUES, SCATTER_FORWARD));
        INERTIA_PETSC(VecScatterEnd(p.scatter, uc_, p.ugc, INSERT_VALUES, SCATTER_FORWARD));
      }
      committed_moved_ = false;
    }
    for (Pass& p : passes_) scatter_forward(p, u);
    // The largest motion of a contact node since the search, over all ranks.
    double moved = largest_motion_squared(sides_, passes_, u, u_at_search_);
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_DOUBLE, MPI_MAX, comm_));
    if (2 * std::sqrt(moved) > margin_ - reach_) {
      search(u);
      for (Pass& p : passes_) scatter_forward(p, u);
    }
    evaluate(u);
    if (turn_) turn_->moments(fc_);
  }

  void add_nodal_force(std::span<const PetscScalar> u, double t, double factor,
                       std::span<const PetscScalar> scale,
                       std::span<PetscScalar> f) const override {
    (void)u, (void)t;
    for (std::size_t j = 0; j < touched_.size(); ++j) {
      const std::int32_t n = touched_[j];
      for (int i = 0; i < 3; ++i) {
        const double s = scale.empty() ? 1.0 : scale[3 * n + i];
        f[3 * n + i] += factor * s * force_[3 * j + i];
      }
    }
    if (turn_) turn_->add_moments(factor, scale, f);
  }
  double energy(const TermPoint& at) const override {
    (void)at;
    double e = 0;
    for (const Pass& p : passes_) e += p.energy;
    return e;
  }

  int augmentation_limit() const override { return augmented_.on ? augmented_.iterations : 0; }
  double augment(Vec u, double t, bool update, double inertia) const override {
    gather(u, t);
    double worst = 0;
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
        // lambda <- max(0, lambda - rho g), rho = k + inertia m; g = (lambda - pressing) / k
        // where the node presses. Where it does not, g >= lambda / k (or it has no face), so
        // lambda - rho g <= 0.
        const double l = state_.multiplier(p.first + j), k = slave.k[j];
        const double rho = k + inertia * slave.m[j];
        const double next =
            p.pressing[j] > 0 ? std::max(0.0, l - rho * (l - p.pressing[j]) / k) : 0;
        worst = std::max(worst, state_.update_multiplier(p.first + j, next, rho, update));
      }
    }
    if (update) {
      state_.count_update();
      last_u_ = nullptr;  // the forces at u change
    }
    return worst / augmented_.tolerance;
  }
  void reject_multipliers() const override {
    state_.reject_multipliers();
    last_u_ = nullptr;
  }
  std::int64_t augmentations() const override { return augmented_.on ? state_.updates() : -1; }

  void commit_nodal(Vec u, double t) const override {
    state_.commit_multipliers();
    if (!friction_) return;
    gather(u, t);  // the accepted configuration (usually the last evaluation's)
    for (const Pass& p : passes_) state_.commit_friction(p.first, sides_[p.slave].k);
    {
      petsc::ConstArray ua(turn_ ? turn_->points() : u);  // the points' (gather's)
      petsc::Array uc(uc_);
      for (auto n : touched_)
        for (int i = 0; i < 3; ++i) uc[3 * n + i] = ua[3 * n + i];
    }
    state_.set_committed_time(t);
    committed_moved_ = true;
    last_u_ = nullptr;  // the next evaluation starts from the new committed state
  }
  void add_coupling(std::vector<CouplingBlock>& blocks) const override {
    for (const Pass& p : passes_)
      for (const Pass::Link& l : p.links) add_link_blocks(l, friction_, blocks);
  }
  double take_friction_dissipation() const override { return state_.take_dissipation(); }
  /// With erosion, "eroded_energy": released_ in the first component.
  std::vector<std::string> states() const override {
    std::vector<std::string> names = state_.names();
    if (rebuilds_) names.push_back("eroded_energy");
    return names;
  }
  void save_state(std::string_view which, std::span<PetscScalar> owned) const override {
    if (which == "eroded_energy") return released_.save(owned);
    state_.save(which, owned);
  }
  void load_state(std::string_view which, std::span<const PetscScalar> owned,
                  std::span<const PetscScalar> u, double t) const override {
    if (which == "eroded_energy") return released_.load(owned);
    state_.load(which, owned, t);
    last_u_ = nullptr;
    if (which == "multipliers") return;
    petsc::Array uc(uc_);
    for (auto n : touched_)
      for (int i = 0; i < 3; ++i) uc[3 * n + i] = u[3 * n + i];
    committed_moved_ = true;
    if (turn_) turn_->hold_committed(u);  // the points': turned at the next gather
  }

  Reading read(Vec u, double t) const override {
    gather(u, t);
    // The force on the first surface: by the second's faces on its nodes, and the reaction of
    // its faces on the second's nodes (self-contact: the force on the nodes in contact).
    double sums[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t k = 0; k < passes_.size(); ++k) {
      const double s = k == 0 ? 1.0 : -1.0;
      for (int i = 0; i < 3; ++i) sums[i] += s * passes_[k].force[i];
      sums[3] += passes_[k].normal;
      sums[4] += static_cast<double>(passes_[k].active);
      sums[5] = std::max(sums[5], passes_[k].deepest);
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 5, MPI_DOUBLE, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &sums[5], 1, MPI_DOUBLE, MPI_MAX, comm_));
    return {{sums[0], sums[1], sums[2]}, sums[3], static_cast<std::int64_t>(sums[4]), sums[5]};
  }
  void add_pressure(Vec u, double t, std::span<double> pressure) const override {
    gather(u, t);
    // The node's whole contact force (from its own pass and as a face node of the other), its
    // component against the node's surface normal, over its area: the pressure through the
    // interface on either side (sum of pressure x area on one side: the force between them).
    for (std::size_t j = 0; j < touched_.size(); ++j) {
      const double* f = &force_[3 * j];  // the internal force: the contact force's opposite
      const Vec3& o = touched_normal_[j];
      double normal = f[0] * o[0] + f[1] * o[1] + f[2] * o[2];
      if (touched_half_[j] > 0) normal = std::abs(normal);  // a shell: either side
      if (normal > 0 && touched_area_[j] > 0) pressure[touched_[j]] += normal / touched_area_[j];
    }
  }

 private:
  /// One pass (A's nodes against A's faces) for self-contact; two for two surfaces (A's nodes
  /// against B's faces, then B's against A's).
  void make_passes() {
    if (sides_.size() == 1) {
      passes_.resize(1);
      passes_[0].slave = passes_[0].master = 0;
    } else {
      passes_.resize(2);
      passes_[1].slave = 1, passes_[1].master = 0;
      passes_[1].first = sides_[0].nodes.size();
    }
    for (Pass& p : passes_) p.side.assign(sides_[p.slave].nodes.size(), Vec3{0, 0, 0});
  }
  /// Collective. Augmented Lagrangian: the slave nodes' normal forces, the tolerance, the
  /// update's mass.
  void set_up_multipliers(const ProblemSpec& spec) {
    std::vector<double> areas;
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      p.pressing.assign(slave.nodes.size(), 0.0);
      areas.insert(areas.end(), slave.areas.begin(), slave.areas.end());
    }
    if (!(augmented_.tolerance > 0)) augmented_.tolerance = 1e-3 * node_spacing(comm_, areas);
    // The gap's inertia with a face of nodes as heavy as the node: half its mass (sum N_a^2
    // <= 1); shared by the two passes, which update the same interface (a step of twice the
    // gap's stiffness would not converge).
    mass_weight_ = (passes_.size() == 2 ? 0.25 : 0.5) * augmented_mass_weight(spec);
    for (Side& side : sides_) side.m.assign(side.nodes.size(), 0.0);
  }
  /// The owned nodes forces can reach (touched_nodes).
  void touch_nodes() {
    touched_nodes(sides_, touched_, touched_area_, touched_normal_, touched_half_);
    force_.assign(3 * touched_.size(), 0.0);
  }

  SearchSpace space() const { return {comm_, rank_, size_, mesh_, margin_, depth_}; }
  void scatter(Pass& p, Vec from, Vec to) const {
    INERTIA_PETSC(VecScatterBegin(p.scatter, from, to, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecScatterEnd(p.scatter, from, to, INSERT_VALUES, SCATTER_FORWARD));
  }
  void scatter_forward(Pass& p, Vec u) const { scatter(p, u, p.ug); }

  /// Collective. Finds each pass's candidate faces at u (module comment).
  void search(Vec u) const {
    ++searches_;
    searched_ = true;
    search_faces(space(), sides_, passes_, u, u_at_search_);
    if (!friction_) return;
    for (Pass& p : passes_) {  // the committed displacement of the faces' nodes
      INERTIA_PETSC(VecDuplicate(p.ug, p.ugc.out()));
      scatter(p, uc_, p.ugc);
    }
  }

  /// What an evaluation reads and writes: u (owned entries), the faces' nodes' displacement,
  /// their committed ones (friction), and the internal force (owned entries).
  struct Fields {
    std::span<const PetscScalar> u, ug, uc, ugc;
    std::span<PetscScalar> fc;
  };

  /// This rank's forces at u (the scatters done): each pass's slave nodes against their
  /// candidates, the faces' share sent back to the faces' owners.
  void evaluate(Vec u) const {
    {
      petsc::Array fc(fc_);
      for (auto n : touched_)
        for (int i = 0; i < 3; ++i) fc[3 * n + i] = 0;
    }
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      std::fill(p.fm.begin(), p.fm.end(), 0.0);
      p.force = {0, 0, 0}, p.normal = 0, p.active = 0, p.deepest = 0, p.energy = 0;
      p.links.clear();
      if (friction_) state_.clear_trial(p.first, slave.nodes.size());
      {
        petsc::ConstArray ua(u), g(p.ug);
        std::optional<petsc::ConstArray> uc, gc;
        if (friction_) uc.emplace(uc_), gc.emplace(p.ugc);
        petsc::Array fc(fc_);
        const Fields at{ua.span(), g.span(), uc ? uc->span() : std::span<const PetscScalar>(),
                        gc ? gc->span() : std::span<const PetscScalar>(), fc.span()};
        for (std::size_t j = 0; j < slave.nodes.size(); ++j) evaluate_node(p, j, at);
      }
      {
        petsc::Array fm(p.fm_vec);
        std::copy(p.fm.begin(), p.fm.end(), fm.span().begin());
      }
      INERTIA_PETSC(VecScatterBegin(p.scatter, p.fm_vec, fc_, ADD_VALUES, SCATTER_REVERSE));
      INERTIA_PETSC(VecScatterEnd(p.scatter, p.fm_vec, fc_, ADD_VALUES, SCATTER_REVERSE));
    }
    petsc::ConstArray fc(fc_);
    for (std::size_t j = 0; j < touched_.size(); ++j)
      for (int i = 0; i < 3; ++i) force_[3 * j + i] = fc[3 * touched_[j] + i];
  }

  /// Slave node j of pass p against its candidate faces (choose_face): its normal force k (-g)
  /// behind the face (with a multiplier l, l - k g) and its friction, on it and the face's nodes.
  void evaluate_node(Pass& p, std::size_t j, const Fields& at) const {
    const Side& slave = sides_[p.slave];
    const std::int32_t n = slave.nodes[j];
    const std::size_t e = p.first + j;  // its entry in state_
    const Vec3 x{mesh_.coords[3 * n] + at.u[3 * n], mesh_.coords[3 * n + 1] + at.u[3 * n + 1],
                 mesh_.coords[3 * n + 2] + at.u[3 * n + 2]};
    const bool leaving = friction_ && state_.has_committed_force(e);
    const double o = p.offset.empty() ? 0.0 : p.offset[j];  // ignore: its initial gap
    const FaceChoice c =
        choose_face(p, j, x, slave.outward[j], slave.half[j], at.ug, o, depth_, leaving, p.side[j]);
    // The side it keeps while in contact with a shell's face (Pass::side).
    p.side[j] = c.chosen && c.chosen->two_sided && c.best.g < 0 ? c.best.n : Vec3{0, 0, 0};
    p.gap[j] = 0;
    const double l = state_.multiplier(e);
    if (state_.multipliers()) {
      p.pressing[j] = 0;
      if (l > 0) p.energy -= 0.5 * l * l / slave.k[j];  // where it does not press
    }
    const double g = c.best.g - o;  // the gap beyond the initial one
    const double pressing = c.chosen ? l - slave.k[j] * g : 0.0;
    // Its committed friction force did work over the step as it left: the slip relative to the
    // face it left (extrapolated past its edge: the shape functions still sum to 1), so that the
    // dissipation booked at the commit counts it.
    if ((!c.chosen || !(pressing > 0)) && c.left) slip(p, j, n, *c.left, c.exit.N, at);
    if (!c.chosen || !(pressing > 0 || g == 0)) return;
    if (!(pressing > 0)) {
      // Touching (a body resting on another at the start): no force, but the tangent's spring,
      // so that Newton does not take the node through the face.
      if (implicit_) link(p, n, *c.chosen, c.best, slave.k[j]);
      return;
    }
    const Pass::Face& face = *c.chosen;
    const Projection& best = c.best;
    const double k = slave.k[j], kg = -pressing;  // l = 0: k g
    p.gap[j] = g;
    if (state_.multipliers()) p.pressing[j] = pressing;
    for (int i = 0; i < 3; ++i) {
      at.fc[3 * n + i] += kg * best.n[i];  // internal force: the contact force's opposite
      p.force[i] -= kg * best.n[i];
      for (int a = 0; a < face.kind; ++a) p.fm[3 * face.node[a] + i] -= kg * best.N[a] * best.n[i];
    }
    p.normal -= kg;
    ++p.active;
    p.deepest = std::max(p.deepest, -g);
    // With a multiplier: its energy, less the -l^2 / (2 k) counted above.
    p.energy += l > 0 ? 0.5 * l * l / k + normal_energy(l, k, g) : 0.5 * kg * g;
    if (implicit_) link(p, n, face, best, k);
    if (!friction_) return;
    const double* d = slip(p, j, n, face, best.N, at);
    const Slip T = coulomb(pair_.friction, best.n, state_.committed_force(e), d, k, -kg,
                           time_ - state_.committed_time());
    if (implicit_) p.links.back().slip = T;
    double* trial = state_.trial_force(e);
    for (int i = 0; i < 3; ++i) {
      trial[i] = T.force[i];
      at.fc[3 * n + i] -= T.force[i];
      p.force[i] += T.force[i];
      for (int a = 0; a < face.kind; ++a) p.fm[3 * face.node[a] + i] += best.N[a] * T.force[i];
    }
    p.energy +=
        0.5 * (T.force[0] * T.force[0] + T.force[1] * T.force[1] + T.force[2] * T.force[2]) / k;
  }
  /// Implicit schemes: the tangent's data of node n touching `face` (add_coupling).
  void link(Pass& p, std::int32_t n, const Pass::Face& face, const Projection& pr, double k) const {
    Pass::Link l{mesh_.global_node(n), face.kind, {-1, -1, -1, -1}, pr.N, pr.n, k, {}};
    for (int i = 0; i < 3; ++i)  // the stick spring, until coulomb() says otherwise
      for (int m = 0; m < 3; ++m)
        l.slip.symmetric[3 * i + m] = k * ((i == m ? 1.0 : 0.0) - pr.n[i] * pr.n[m]);
    for (int a = 0; a < face.kind; ++a) l.master[a] = p.gids[face.node[a]];
    p.links.push_back(l);
  }
  /// Friction: the slip of node n (slave j of pass p) relative to the point of `face` at shape
  /// functions N since the commit, into the state's slip.
  const double* slip(const Pass& p, std::size_t j, std::int32_t n, const Pass::Face& face,
                     const std::array<double, 4>& N, const Fields& at) const {
    double* d = state_.slip(p.first + j);
    for (int i = 0; i < 3; ++i) {
      d[i] = at.u[3 * n + i] - at.uc[3 * n + i];
      for (int a = 0; a < face.kind; ++a)
        d[i] -= N[a] * (at.ug[3 * face.node[a] + i] - at.ugc[3 * face.node[a] + i]);
    }
    return d;
  }

 public:
  /// Keeps the mesh the term was built on (offset_mesh's copy) as long as the term lives, and
  /// its offset shells' turned points (contact_offsets.hpp; null: none).
  void keep(std::shared_ptr<const LocalMesh> mesh, std::unique_ptr<TurnedOffsets> turn) {
    own_mesh_ = std::move(mesh);
    turn_ = std::move(turn);
  }

 private:
  /// Collective. Offset shells: the points' displacements at u (after a restart, first the
  /// committed points into uc_).
  Vec turned(Vec u) const {
    if (Vec c = turn_->committed_points(); c && friction_) {
      petsc::ConstArray x(c);
      petsc::Array uc(uc_);
      for (auto n : touched_)
        for (int i = 0; i < 3; ++i) uc[3 * n + i] = x[3 * n + i];
      committed_moved_ = true;
    }
    return turn_->points(u);
  }

  std::shared_ptr<const LocalMesh> own_mesh_;
  std::unique_ptr<TurnedOffsets> turn_;  ///< offset shells (null: none)
  TermInputs in_;                        ///< the system's (erosion: the sides rebuilt)
  MPI_Comm comm_;
  const LocalMesh& mesh_;
  PairInput pair_;
  bool rebuilds_ = false;  ///< erosion changes its sides (check_erosion)
  std::vector<double> set_up_diagonal_, set_up_mass_;  ///< set_up's, for the rebuilt sides
  mutable ReleasedEnergy released_;  ///< erosion: the penalty energy the rebuilds let go
  double scale_;
  int rank_ = 0, size_ = 1;
  std::vector<Side> sides_;
  double margin_ = 0;  ///< the search's: the margin (key or default) and reach_
  double reach_ = 0;   ///< twice the largest half thickness of the sides' shells (0: solids)
  /// The largest distance of a node to the face it contacts (its penetration, or the gap to
  /// a face in front of the one it penetrates: a thin body's other side).
  double depth_ = 0;
  double bound_ = 0;
  std::vector<std::int32_t> touched_;  ///< owned nodes of either side
  // The evaluation's state (gather): mutable, as the system's evaluations are const.
  mutable std::vector<Pass> passes_;
  mutable bool searched_ = false;
  bool friction_ = false;
  bool implicit_ = false;     ///< implicit schemes and static: links for the tangent
  mutable petsc::Vector uc_;  ///< friction: the committed displacement (at touched_'s entries)
  mutable double time_ = 0;   ///< the evaluation's time
  mutable bool committed_moved_ = true;  ///< uc_ changed since the faces read it
  mutable Vec last_u_ = nullptr;         ///< the last evaluation's u and its state
  mutable PetscObjectState last_state_ = 0;
  mutable std::int64_t searches_ = 0;
  mutable std::vector<double> u_at_search_;  ///< owned entries
  mutable petsc::Vector fc_;                 ///< the internal force (global vector)
  mutable std::vector<double> force_;        ///< its entries at touched_
  std::vector<double> touched_area_;         ///< per touched node: its area share
  std::vector<Vec3> touched_normal_;         ///< and its surface normal
  std::vector<double> touched_half_;         ///< and its shells' half thickness
  double mass_weight_ = 0;  ///< augmented: the share of a slave node's mass in the update
  Augmented augmented_;     ///< the section's (the tolerance resolved)
  /// Per slave node of each pass: the multipliers and the committed friction force.
  mutable NodeContactState state_;
  std::vector<std::string> warnings_;  ///< check_start's
  std::int64_t initial_ = 0;           ///< check_start: nodes starting behind a face they face
  double initial_depth_ = 0;           ///< and the deepest
};

}  // namespace

namespace contact_input {

void move_initial_penetrations(const TermInputs& in, const ContactSection& s, LocalMesh& mesh) {
  for (const PairInput& pair : s.pairs) {
    if (pair.initial != InitialPenetration::move) continue;
    INERTIA_CHECK(!offset_mesh(in, pair.surfaces), InputError, pair.where,
                  ": initial_penetration: move on shells with an offset is not built (the moves "
                  "would be the mid-surfaces'); give the shells' nodes apart in the mesh");
    pair.moved = 0, pair.largest_move = 0;  // a system built again starts from its own mesh
    // One pass at a time on the mesh as the last one left it: the first side's nodes onto the
    // second's faces, then what remains of the second's on the first's (none where the first
    // moved onto matching faces).
    for (std::size_t k = 0; k < pair.surfaces.size(); ++k) {
      ContactPairTerm term(in, pair, penalty_scale(s, in.spec), Augmented{});
      auto [moves, count, longest] = term.initial_moves(in.assembler, k);
      petsc::GhostedRead m(moves);
      for (std::int32_t n = 0; n < mesh.num_local_nodes(); ++n)
        for (int i = 0; i < 3; ++i) mesh.coords[3 * n + i] += m[3 * n + i];
      pair.moved += count;
      pair.largest_move = std::max(pair.largest_move, longest);
    }
  }
}

void build_pair_terms(const TermInputs& in, const ContactSection& s,
                      std::vector<std::unique_ptr<ForceTerm>>& out) {
  for (const PairInput& p : s.pairs) {
    const std::shared_ptr<const LocalMesh> shifted = offset_mesh(in, p.surfaces);
    const TermInputs inputs =
        shifted ? TermInputs{in.comm, *shifted, in.spec, in.assembler, in.elements} : in;
    auto term =
        std::make_unique<ContactPairTerm>(inputs, p, penalty_scale(s, in.spec), s.augmented);
    term->keep(shifted, TurnedOffsets::make(in, shifted.get()));
    term->check_start(in.assembler);
    out.push_back(std::move(term));
  }
}

}  // namespace contact_input

}  // namespace inertia
