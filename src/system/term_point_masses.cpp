// Point masses: a mass at every node of a region (each node once), in both mass treatments on
// the diagonal; they weigh m g under gravity.
#include <algorithm>

#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

class PointMassTerm final : public ForceTerm {
 public:
  PointMassTerm(const LocalMesh& mesh, const PointMass& p) : mesh_(mesh), point_(p) {}

  std::string describe() const override {
    return cat("point masses of region '", mesh_.regions[point_.region].name, "'");
  }
  Traits traits() const override { return {}; }

  void add_nodal_mass(std::span<PetscScalar> owned) const override {
    for (auto n : mesh_.region_owned_nodes[point_.region])
      for (int i = 0; i < 3; ++i)  // a beam node's rotations: the rotary inertia
        owned[3 * n + i] += mesh_.is_rotation(n) ? point_.rotary_inertia : point_.mass;
  }
  double mass() const override {
    const auto& nodes = mesh_.region_owned_nodes[point_.region];
    return point_.mass * static_cast<double>(std::count_if(nodes.begin(), nodes.end(), [&](auto n) {
             return !mesh_.is_rotation(n);
           }));
  }

 private:
  const LocalMesh& mesh_;
  PointMass point_;
};

}  // namespace

void build_point_mass_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) {
  for (const auto& p : in.spec.point_masses)
    out.push_back(std::make_unique<PointMassTerm>(in.mesh, p));
}

}  // namespace inertia
