#include "inertia/app/mass_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "inertia/app/auto_step.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/beam.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/mechanical_system.hpp"
#include "inertia/system/stable_step.hpp"

namespace inertia {

MassScaling scale_masses(MPI_Comm comm, std::ostream& log, MechanicalSystem& system,
                         const CaseFile& c, double stable_step, double limit) {
  const LocalMesh& lm = system.mesh();
  const std::vector<double> speed = region_wave_speeds(system);
  StableStepKernel kernel(lm, speed);
  const std::vector<BeamStepSection> beams = beam_step_sections(system.spec(), lm);
  kernel.beams(beams);
  std::vector<double> times;
  kernel.transit_times(nullptr, times);
  double smallest = INFINITY;
  for (const double t : times) smallest = std::min(smallest, t);
  double global_smallest = 0;
  INERTIA_MPI(MPI_Allreduce(&smallest, &global_smallest, 1, MPI_DOUBLE, MPI_MIN, comm));
  MassScaling out;
  out.calibration = auto_step_calibration(stable_step, limit, system.penalty_frequency_squared(),
                                          global_smallest);
  out.cell_scale.assign(times.size(), 1.0);
  const double dt_min = c.mass_scaling_dt_min;
  const std::size_t regions = lm.regions.size();
  // Per region: cells scaled, added mass, the region's mass (the solids' rho V).
  std::vector<double> sums(3 * regions, 0.0);
  std::vector<double> density(regions, 0.0);
  for (const auto& m : system.spec().materials) density[m.region] = m.material.density;
  petsc::Vector added = system.create_vector();
  {
    petsc::GhostedArray ghosted(added);
    const std::span<PetscScalar> a = ghosted.span();
    std::ranges::fill(a, 0.0);
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (!std::isfinite(times[k])) continue;  // not a solid cell
      const int r = lm.cell_regions[k];
      const auto kk = static_cast<std::int64_t>(k);
      const bool beam = lm.cell_types[k] == CellType::beam2 && beams[r].beam;
      // A beam's lumped mass (fe::beam_lumped_mass): its translations' and its rotations'.
      double lumped[12] = {};
      if (beam) {
        const auto x = kernel.corners(kk, nullptr);
        fe::beam_lumped_mass(x.data(), x.data() + 3, beams[r].section, beams[r].material, lumped);
      }
      const double mass =
          beam ? 2 * lumped[0]
               : density[r] * cell_volume(lm.cell_types[k], kernel.corners(kk, nullptr));
      sums[3 * r + 2] += mass;
      const double dt_e = c.safety_factor * out.calibration * times[k];
      if (!(dt_e < dt_min)) continue;
      const double s = dt_min / dt_e;
      const double dm = mass * (s * s - 1);
      out.cell_scale[k] = s;
      sums[3 * r] += 1;
      sums[3 * r + 1] += dm;
      const auto nodes = lm.nodes_of(kk);
      if (beam) {
        // Every entry of the element's lumped mass times s^2: its omega_max / s, its step s dt_e.
        for (int a_ = 0; a_ < 4; ++a_)
          for (int i = 0; i < 3; ++i) a[3 * nodes[a_] + i] += (s * s - 1) * lumped[3 * a_ + i];
        continue;
      }
      const double share = dm / static_cast<double>(nodes.size());
      for (const auto n : nodes)
        for (int i = 0; i < 3; ++i) a[3 * n + i] += share;
    }
  }
  INERTIA_PETSC(VecGhostUpdateBegin(added, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(added, ADD_VALUES, SCATTER_REVERSE));
  std::vector<double> global(sums.size());
  INERTIA_MPI(MPI_Allreduce(sums.data(), global.data(), static_cast<int>(sums.size()), MPI_DOUBLE,
                            MPI_SUM, comm));
  double model = 0;
  for (std::size_t r = 0; r < regions; ++r) {
    out.cells += static_cast<std::int64_t>(global[3 * r]);
    out.added += global[3 * r + 1];
    model += global[3 * r + 2];
  }
  const double fraction = model > 0 ? out.added / model : 0;
  log << "mass      scaling to dt_min " << dt_min << " s (time.mass_scaling; a cell's step "
      << c.safety_factor << " x k x L/c of the undeformed cells, k = " << out.calibration
      << "): " << out.cells << " cells below it, added mass " << out.added << " kg, " << fraction
      << " of the solids' and beams' " << model
      << " kg; fixed for the run, spread to the cells' nodes\n";
  for (std::size_t r = 0; r < regions; ++r)
    if (global[3 * r] > 0)
      log << "mass      region '" << printable(lm.regions[r].name)
          << "': " << static_cast<std::int64_t>(global[3 * r]) << " cells, +" << global[3 * r + 1]
          << " kg (" << global[3 * r + 1] / global[3 * r + 2] << " of its " << global[3 * r + 2]
          << " kg)\n";
  if (fraction > c.mass_scaling_warn_fraction)
    log << "warning   time.mass_scaling adds " << fraction << " of the model's mass (more than "
        << "warn_fraction " << c.mass_scaling_warn_fraction
        << "): inertia of the scaled cells is changed; lower dt_min or refine less locally\n";
  if (out.added > 0) system.add_masses(added, out.added);
  return out;
}

}  // namespace inertia
