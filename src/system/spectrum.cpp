#include "inertia/system/spectrum.hpp"

#include <algorithm>
#include <cmath>

namespace inertia {

FrequencyEstimate estimate_highest_frequency(MechanicalSystem& system, int iterations,
                                             bool lumped) {
  FrequencyEstimate e;
  petsc::Vector m = system.create_vector(), x = system.create_vector(), y = system.create_vector(),
                z = system.create_vector();
  // Gershgorin bound on D K D with D = m^{-1/2} on the free DOFs (constrained rows removed).
  system.lumped_masses(m);
  petsc::Vector ml = petsc::duplicate(m);
  INERTIA_PETSC(VecCopy(m, ml));
  {
    petsc::Array d(m);
    for (PetscInt i = 0; i < d.size(); ++i) d[i] = d[i] > 0 ? 1.0 / std::sqrt(d[i]) : 0.0;
  }
  system.zero_constrained(m);
  if (!system.matrix_free()) {  // needs K's entries
    petsc::Matrix scaled;
    INERTIA_PETSC(MatDuplicate(system.stiffness(), MAT_COPY_VALUES, scaled.out()));
    INERTIA_PETSC(MatDiagonalScale(scaled, m, m));
    PetscReal norm = 0;
    INERTIA_PETSC(MatNorm(scaled, NORM_INFINITY, &norm));
    e.bound = std::sqrt(norm);
  }
  // Power iterations on M^{-1} K restricted to the free DOFs, from a fixed random start.
  PetscRandom rng;
  INERTIA_PETSC(PetscRandomCreate(system.comm(), &rng));
  INERTIA_PETSC(PetscRandomSetSeed(rng, 7));
  INERTIA_PETSC(PetscRandomSeed(rng));
  INERTIA_PETSC(VecSetRandom(x, rng));
  INERTIA_PETSC(PetscRandomDestroy(&rng));
  system.zero_constrained(x);
  double lambda = 0;
  for (int i = 0; i < iterations; ++i) {
    PetscReal norm = 0;
    INERTIA_PETSC(VecNormalize(x, &norm));
    if (norm == 0) break;
    system.mult_stiffness(x, y);
    system.zero_constrained(y);
    if (lumped) {  // z = M_lumped^{-1} K x: pointwise (m holds M_lumped^{-1/2}, 0 if constrained)
      INERTIA_PETSC(VecPointwiseMult(z, m, m));
      INERTIA_PETSC(VecPointwiseMult(z, z, y));
    } else {
      INERTIA_PETSC(VecZeroEntries(z));
      system.solve(1.0, 0.0, y, z);  // z = M^{-1} K x on the free DOFs
    }
    // Rayleigh quotient of the pencil (K, M): x.K x / x.M x, with x normalised in M below.
    PetscScalar xkx = 0;
    INERTIA_PETSC(VecDot(x, y, &xkx));
    PetscScalar xmx = 0;
    if (lumped) {
      INERTIA_PETSC(VecPointwiseMult(y, ml, x));
    } else {
      system.mult_mass(x, y);
    }
    INERTIA_PETSC(VecDot(x, y, &xmx));
    if (xmx > 0) lambda = std::max(lambda, xkx / xmx);
    INERTIA_PETSC(VecCopy(z, x));
    e.iterations = i + 1;
  }
  e.power = std::sqrt(std::max(lambda, 0.0));
  return e;
}

}  // namespace inertia
