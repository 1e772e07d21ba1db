// Point masses: a mass at every node of a region (each node once), in both mass treatments on
// the diagonal; they weigh m g under gravity.
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
      for (int i = 0; i < 3; ++i) owned[3 * n + i] += point_.mass;
  }
  double mass() const override {
    return point_.mass * static_cast<double>(mesh_.region_owned_nodes[point_.region].size());
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
