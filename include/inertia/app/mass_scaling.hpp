#pragma once
/// \file mass_scaling.hpp
/// time.mass_scaling: {dt_min, warn_fraction}: mass added to the solid cells whose stable step is
/// below dt_min, as LS-DYNA's DT2MS < 0: a cell's step is dt_e = safety x k x L / c (dt: auto's
/// measure, app/auto_step.hpp, k its calibration) and its density is raised by (dt_min / dt_e)^2,
/// which brings its step to dt_min. The added mass m_e ((dt_min / dt_e)^2 - 1) (m_e = rho V) is
/// spread in equal parts to the cell's nodes (lumped: the internal forces still sum to zero, so
/// momentum is conserved) and joins the lumped masses every part of the run uses: kinetic
/// energy, reactions, the explicit update. It is computed once, from the undeformed cells, and
/// kept for the run (a restart computes the same): cells that shrink later lower the step below
/// dt_min, which dt: auto follows. The log reports the added mass per region and its fraction
/// of the model's mass (energy.csv's added_mass column), and warns past warn_fraction.

#include <mpi.h>

#include <ostream>
#include <vector>

namespace inertia {

struct CaseFile;
class MechanicalSystem;

struct MassScaling {
  double calibration = 1;          ///< k of the unscaled model
  std::vector<double> cell_scale;  ///< per local cell: dt_min / dt_e, or 1
  double added = 0;                ///< kg, over the ranks
  std::int64_t cells = 0;          ///< cells that got mass, over the ranks
};

/// Collective. Scales the masses of `system` for c.mass_scaling_dt_min (> 0); `stable_step` is
/// the unscaled model's stable step (power iterations, 3 digits), `limit` the scheme's.
MassScaling scale_masses(MPI_Comm comm, std::ostream& log, MechanicalSystem& system,
                         const CaseFile& c, double stable_step, double limit);

}  // namespace inertia
