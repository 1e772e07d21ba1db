// The model's stress for output: see model_stress.hpp.
#include "inertia/system/model_stress.hpp"

#include "inertia/fe/element.hpp"
#include "inertia/system/point_state.hpp"

namespace inertia {

ModelStress::ModelStress(const Assembler& assembler, std::span<PointState* const> states)
    : assembler_(assembler) {
  for (const PointState* s : states) {
    if (s->component("stress_xx") < 0) continue;
    for (std::size_t r = 0; r < s->rows(); ++r) {
      const auto c = static_cast<std::size_t>(s->cells()[r]);
      if (stress_row_.size() <= c) stress_row_.resize(c + 1, {nullptr, 0});
      stress_row_[c] = {s, r};
    }
  }
}

void ModelStress::cells(Vec u, CellStress& out) const {
  assembler_.cell_stress(u, out);
  for (std::size_t c = 0; c < stress_row_.size(); ++c)
    if (const auto& [s, r] = stress_row_[c]; s) {
      s->cell_stress(r, &out.stress[6 * c]);
      out.von_mises[c] = fe::von_mises(&out.stress[6 * c]);
    }
}

void ModelStress::at_point(std::span<const PetscScalar> u_local, const SolidPoint& point,
                           double* strain, double* stress) const {
  assembler_.point_stress(u_local, point, strain, stress);
  const auto c = static_cast<std::size_t>(point.cell);
  if (c < stress_row_.size())
    if (const auto& [s, r] = stress_row_[c]; s) s->cell_stress(r, stress);
}

}  // namespace inertia
