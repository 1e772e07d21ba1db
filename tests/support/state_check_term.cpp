// A force term for tests only, defined outside the library as a user's term would be: one file and
// one register_force_term() line (test_terms_main.cpp). It adds no force; its history variables
// at the stiffness quadrature points of a region's solid cells check the point-state life cycle
// (force_term.hpp, point_state.hpp):
//   steps              the number of accepted steps (a retried step's halves count as two),
//   accumulated_strain the sum over accepted steps of |eps(u_{n+1}) - eps(u_n)| (Frobenius),
//   xx ... xz          the small strain at the last accepted step.
// Every evaluation of the force at u writes the trial state from the committed one, so Newton
// iterates on it. `fail_at_step: k` makes the commit of step k throw a SolverError once, as an
// element that cannot take the accepted configuration would, so that the step is retried as two
// halves. `from_force: true|false` adds a component, commit_evaluations, the number of commits
// that evaluated the state (ForceTerm::update_state) rather than taking the trial state of the
// last force evaluation; with `true` the term says it may (ForceTerm::trial_from_force), as the
// J2 solids do, so that an explicit step commits without evaluating again.
//
// Case-file section:  state_check: {region: all, fail_at_step: 7, from_force: true}
#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "inertia/core/case_node.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia::test {

namespace {

struct StateCheckSection : TermSection {
  std::string region;
  std::int64_t fail_at_step = 0;
  int from_force = -1;  ///< -1: not given (8 components); 0, 1: false, true (9)
};

std::shared_ptr<TermSection> parse(const case_yaml::Node& n) {
  n.expect_map({"region", "fail_at_step", "from_force"});
  if (!n.has("region")) n.fail("missing key 'region'");
  auto s = std::make_shared<StateCheckSection>();
  s->region = n["region"].text();
  if (n.has("fail_at_step"))
    s->fail_at_step = n["fail_at_step"].integer_in(0, 1'000'000'000, "0: never");
  if (n.has("from_force")) s->from_force = n["from_force"].boolean() ? 1 : 0;
  return s;
}

/// steps, accumulated_strain, 6 strain components (and commit_evaluations with from_force)
std::vector<std::string> components(bool counted) {
  std::vector<std::string> c = {"steps", "accumulated_strain", "xx", "yy", "zz", "xy", "yz", "xz"};
  if (counted) c.push_back("commit_evaluations");
  return c;
}

class StateCheckTerm final : public ForceTerm {
 public:
  StateCheckTerm(const TermInputs& in, const StateCheckSection& s, std::vector<std::int64_t> cells,
                 int points)
      : mesh_(in.mesh),
        assembler_(in.assembler),
        region_(s.region),
        fail_at_step_(s.fail_at_step),
        from_force_(s.from_force),
        state_({"state_check", components(s.from_force >= 0), points}, cells,
               point_counts(in.mesh, cells)) {}

  std::string describe() const override { return cat("state checks of region '", region_, "'"); }
  Traits traits() const override { return {.linear = false}; }
  PointState* point_state() const override { return &state_; }
  bool trial_from_force() const override { return from_force_ == 1; }

  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    // Through the assembly's cell loop, so that a failure is an element error on every rank.
    std::size_t row = 0;
    f.add_cells(state_.cells(), [&](std::int64_t, CellType, auto, auto) {
      trial_row(at, row++, false);
      return false;  // no force
    });
  }
  void update_state(const TermPoint& at) const override {
    for (std::size_t r = 0; r < state_.rows(); ++r) {
      trial_row(at, r, true);
      if (fail_at_step_ > 0 && state_.trial(r)[0] == static_cast<double>(fail_at_step_) &&
          !failed_) {
        failed_ = true;
        throw SolverError(cat("state_check: the failure asked for at step ", fail_at_step_));
      }
    }
  }

 private:
  static std::vector<std::uint8_t> point_counts(const LocalMesh& mesh,
                                                std::span<const std::int64_t> cells) {
    std::vector<std::uint8_t> n;
    for (const auto c : cells)
      n.push_back(static_cast<std::uint8_t>(fe::stiffness_rule(mesh.cell_types[c]).num_points));
    return n;
  }

  void trial_row(const TermPoint& at, std::size_t r, bool in_commit) const {
    const int num_components = state_.num_components();
    const std::int64_t c = state_.cells()[r];
    const CellType t = mesh_.cell_types[c];
    const int nn = info(t).num_nodes;
    const auto rule = fe::stiffness_rule(t);
    double x[Assembler::max_cell_dofs];
    assembler_.cell_coordinates(c, x);
    const auto nodes = mesh_.nodes_of(c);
    const auto old = state_.committed(r);
    const auto trial = state_.trial(r);
    const double steps = old[0] + 1;
    for (int q = 0; q < state_.points(r); ++q) {
      double g[3 * fe::max_nodes], grad[9] = {}, eps[6], stress[6];
      fe::physical_gradients(t, std::span<const double>(x, 3 * nn), &rule.points[3 * q], g);
      for (int a = 0; a < nn; ++a)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) grad[3 * i + j] += at.u[3 * nodes[a] + i] * g[3 * a + j];
      fe::small_strain_stress(grad, 0, 0, eps, stress);
      const double* e_old = &old[q * num_components + 2];
      double d2 = 0;
      for (int k = 0; k < 6; ++k) d2 += (k < 3 ? 1 : 2) * (eps[k] - e_old[k]) * (eps[k] - e_old[k]);
      double* out = &trial[q * num_components];
      out[0] = steps;
      out[1] = old[q * num_components + 1] + std::sqrt(d2);
      std::copy(eps, eps + 6, out + 2);
      if (num_components > 8) out[8] = old[q * num_components + 8] + (in_commit ? 1 : 0);
    }
  }

  const LocalMesh& mesh_;
  const Assembler& assembler_;
  std::string region_;
  std::int64_t fail_at_step_;
  int from_force_;
  mutable PointState state_;
  mutable bool failed_ = false;
};

void build(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  const auto it = in.spec.term_sections.find("state_check");
  if (it == in.spec.term_sections.end()) return;
  const auto& s = dynamic_cast<const StateCheckSection&>(*it->second);
  int region = -1;
  for (std::size_t r = 0; r < in.mesh.regions.size(); ++r)
    if (in.mesh.regions[r].name == s.region) region = static_cast<int>(r);
  INERTIA_CHECK(region >= 0, InputError, s.where, ".region: unknown region '", s.region, "'");
  std::vector<std::int64_t> cells;
  int points = 0;
  for (std::int64_t c = 0; c < in.mesh.num_cells(); ++c)
    if (in.mesh.cell_regions[c] == region && in.mesh.cell_is_element[c] &&
        info(in.mesh.cell_types[c]).dim == 3) {
      cells.push_back(c);
      points =
          std::max(points, static_cast<int>(fe::stiffness_rule(in.mesh.cell_types[c]).num_points));
    }
  int global_points = 0;
  MPI_Allreduce(&points, &global_points, 1, MPI_INT, MPI_MAX, in.comm);
  INERTIA_CHECK(global_points > 0, InputError, s.where, ": region '", s.region,
                "' has no solid cells");
  out.push_back(std::make_unique<StateCheckTerm>(in, s, std::move(cells), global_points));
}

}  // namespace

extern const ForceTermEntry state_check_entry;
const ForceTermEntry state_check_entry{
    {"state_check", "test only: history variables that count steps and accumulate strain",
     "state_check: {region: all, fail_at_step: 7}"},
    build,
    parse};

}  // namespace inertia::test
