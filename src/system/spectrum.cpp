#include "inertia/system/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

/// A number in [-1, 1) from a DOF's natural index: SplitMix64's finaliser (Steele, Lea, Flood,
/// "Fast splittable pseudorandom number generators", 2014), a fixed bijection of 64-bit integers
/// whose output bits all depend on all input bits. Signs of both kinds matter: a start vector of
/// one sign is mostly the smoothest mode, and the highest mode alternates in sign node to node.
double start_entry(std::uint64_t natural_dof) {
  std::uint64_t z = natural_dof + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;  // 53 bits: exact in a double
}

/// max_i d_i sum_j |K_ij| d_j over every row of K (a matrix of Assembler::create_matrix: AIJ
/// or BAIJ, sequential or MPI; d: a vector of its layout): the infinity norm of D K D, the same
/// value as MatNorm(NORM_INFINITY) of a copy scaled by MatDiagonalScale(d, d) (each entry
/// (K_ij d_i) d_j, each row summed over the diagonal part, then the off-diagonal part, in column
/// order), without the copy of K that costs as much memory as K. Collective.
double scaled_infinity_norm(Mat K, Vec d) {
  int size = 1;
  INERTIA_MPI(MPI_Comm_size(PetscObjectComm(reinterpret_cast<PetscObject>(K)), &size));
  PetscBool baij = PETSC_FALSE;
  INERTIA_PETSC(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(K), &baij, MATSEQBAIJ,
                                          MATMPIBAIJ, ""));
  Mat diag = K, off = nullptr;
  const PetscInt* colmap = nullptr;  // off's columns: global (block) columns
  if (size > 1 && baij) INERTIA_PETSC(MatMPIBAIJGetSeqBAIJ(K, &diag, &off, &colmap));
  if (size > 1 && !baij) INERTIA_PETSC(MatMPIAIJGetSeqAIJ(K, &diag, &off, &colmap));
  // d at off's columns, gathered once.
  petsc::Vector d_off;
  if (off) {
    PetscInt columns = 0, bs = 1;
    INERTIA_PETSC(MatGetSize(off, nullptr, &columns));
    if (baij) INERTIA_PETSC(MatGetBlockSize(K, &bs));
    std::vector<PetscInt> global(static_cast<std::size_t>(columns));
    for (PetscInt k = 0; k < columns; ++k) global[k] = bs * colmap[k / bs] + k % bs;
    petsc::IndexSet from;
    INERTIA_PETSC(
        ISCreateGeneral(PETSC_COMM_SELF, columns, global.data(), PETSC_USE_POINTER, from.out()));
    INERTIA_PETSC(VecCreateSeq(PETSC_COMM_SELF, columns, d_off.out()));
    petsc::VecScatterHandle scatter;
    INERTIA_PETSC(VecScatterCreate(d, from, d_off, nullptr, scatter.out()));
    INERTIA_PETSC(VecScatterBegin(scatter, d, d_off, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecScatterEnd(scatter, d, d_off, INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscReal largest = 0;
  {
    petsc::ConstArray dl(d);
    std::optional<petsc::ConstArray> dr;
    if (off) dr.emplace(d_off);
    for (PetscInt i = 0; i < dl.size(); ++i) {
      PetscReal sum = 0;
      for (int part = 0; part < (off ? 2 : 1); ++part) {
        PetscInt n = 0;
        const PetscInt* cols = nullptr;
        const PetscScalar* values = nullptr;
        Mat m = part == 0 ? diag : off;
        INERTIA_PETSC(MatGetRow(m, i, &n, &cols, &values));
        const PetscScalar* dc = part == 0 ? dl.data() : dr->data();
        for (PetscInt k = 0; k < n; ++k) sum += PetscAbsScalar(values[k] * dl[i] * dc[cols[k]]);
        INERTIA_PETSC(MatRestoreRow(m, i, &n, &cols, &values));
      }
      largest = std::max(largest, sum);
    }
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPIU_REAL, MPI_MAX,
                            PetscObjectComm(reinterpret_cast<PetscObject>(K))));
  return largest;
}

/// The partition-independent start vector (start_entry of each DOF's natural index), constrained
/// entries zero.
void fill_start(MechanicalSystem& system, Vec x) {
  const LocalMesh& mesh = system.mesh();
  {
    petsc::Array start(x);
    for (std::int32_t n = 0; n < mesh.num_owned; ++n)
      for (int c = 0; c < 3; ++c)
        start[3 * n + c] = start_entry(3 * static_cast<std::uint64_t>(mesh.natural_ids[n]) + c);
  }
  system.zero_constrained(x);
}

/// What power iterations found: the largest Rayleigh quotient, the iterations taken, the last
/// relative change of its square root, and whether that change fell below the tolerance.
struct PowerResult {
  double lambda = 0;
  int iterations = 0;
  double last_change = 0;
  bool converged = false;
};

/// Power iterations for the largest eigenvalue of the pencil (A, M) on the free DOFs, from
/// fill_start's vector (the same on every rank count): step(x, y, z) writes y = A x (constrained
/// rows zero) and z = M^-1 y, the next iterate; mass(x, y) writes y = M x. Stops where the Rayleigh
/// quotient's square root (omega) changes by less than power_iteration_tolerance; every rank
/// computes the same reduced values, so every rank stops at the same iteration. `what` names the
/// iterations in the message of an interrupt.
template <class Step, class Mass>
PowerResult power_iterations(MechanicalSystem& system, int max_iterations, const char* what,
                             Step step, Mass mass) {
  petsc::Vector x = system.create_vector(), y = system.create_vector(), z = system.create_vector();
  fill_start(system, x);
  PowerResult r;
  double previous = 0;  // the last iteration's quotient
  for (int i = 0; i < max_iterations; ++i) {
    // Each iteration may solve with M (consistent mass): minutes for a large model in all.
    stop_if_interrupted(system.comm(),
                        cat("during the set-up (", what, " power iteration ", i + 1, ")"));
    PetscReal norm = 0;
    INERTIA_PETSC(VecNormalize(x, &norm));
    if (norm == 0) {  // every DOF constrained, or A x = 0: nothing above zero
      r.converged = true;
      break;
    }
    step(x, y, z);
    PetscScalar xax = 0, xmx = 0;
    INERTIA_PETSC(VecDot(x, y, &xax));
    mass(x, y);
    INERTIA_PETSC(VecDot(x, y, &xmx));
    const double quotient = xmx > 0 ? PetscRealPart(xax / xmx) : 0;
    r.lambda = std::max(r.lambda, quotient);
    INERTIA_PETSC(VecCopy(z, x));
    r.iterations = i + 1;
    if (i > 0 && quotient > 0) {
      const double omega = std::sqrt(quotient);
      r.last_change = std::abs(omega - std::sqrt(std::max(previous, 0.0))) / omega;
      if (r.last_change < power_iteration_tolerance) {
        r.converged = true;
        break;
      }
    }
    previous = quotient;
  }
  return r;
}

/// The contact penalties' share of omega_max^2 with a consistent mass: the largest eigenvalue of
/// M^-1 D (D the terms' dominating penalty diagonal, ForceTerm::add_penalty_diagonal), by power
/// iterations with a mass solve each, to the frequencies' tolerance. max D / m over the lumped
/// masses is not a bound there: the consistent mass has modes lighter than the lumped one (1/27
/// for a hex8 cell): a block resting on a floor under gravity blew up in 22 steps at the step it
/// gave (e2e.contact_consistent_mass).
double consistent_penalty_bound(MechanicalSystem& system, int max_iterations) {
  petsc::Vector d = system.create_vector();
  system.penalty_diagonal(d);
  system.zero_constrained(d);
  return power_iterations(
             system, max_iterations, "the contact penalties'",
             [&](Vec x, Vec y, Vec z) {
               INERTIA_PETSC(VecPointwiseMult(y, d, x));
               INERTIA_PETSC(VecZeroEntries(z));
               system.solve(1.0, 0.0, y, z);  // z = M^{-1} D x on the free DOFs
             },
             [&](Vec x, Vec y) { system.mult_mass(x, y); })
      .lambda;
}

}  // namespace

FrequencyEstimate estimate_highest_frequency(MechanicalSystem& system, int max_iterations,
                                             bool lumped) {
  FrequencyEstimate e;
  petsc::Vector m = system.create_vector();
  // Gershgorin bound on D K D with D = m^{-1/2} on the free DOFs (constrained rows removed).
  system.lumped_masses(m);
  petsc::Vector ml = petsc::duplicate(m);
  INERTIA_PETSC(VecCopy(m, ml));
  {
    petsc::Array d(m);
    for (PetscInt i = 0; i < d.size(); ++i) d[i] = d[i] > 0 ? 1.0 / std::sqrt(d[i]) : 0.0;
  }
  system.zero_constrained(m);
  if (!system.matrix_free())  // needs K's entries
    e.bound = std::sqrt(scaled_infinity_norm(system.stiffness(), m));
  // Power iterations on M^{-1} K restricted to the free DOFs (the Rayleigh quotient of the pencil
  // (K, M): x.K x / x.M x).
  const PowerResult r = power_iterations(
      system, max_iterations, "the highest frequency's",
      [&](Vec x, Vec y, Vec z) {
        system.mult_stiffness(x, y);
        system.zero_constrained(y);
        if (lumped) {  // z = M_lumped^{-1} K x: pointwise (m holds M_lumped^{-1/2}, 0 if fixed)
          INERTIA_PETSC(VecPointwiseMult(z, m, m));
          INERTIA_PETSC(VecPointwiseMult(z, z, y));
        } else {
          INERTIA_PETSC(VecZeroEntries(z));
          system.solve(1.0, 0.0, y, z);  // z = M^{-1} K x on the free DOFs
        }
      },
      [&](Vec x, Vec y) {
        if (lumped)
          INERTIA_PETSC(VecPointwiseMult(y, ml, x));
        else
          system.mult_mass(x, y);
      });
  const double lambda = r.lambda;
  e.iterations = r.iterations;
  e.converged = r.converged;
  e.last_change = r.last_change;
  e.power = std::sqrt(std::max(lambda, 0.0));
  // Contact penalties (inactive in the linearisation above): all of them in contact raise
  // omega_max^2 by at most the largest eigenvalue of M^-1 D (Weyl's inequality; D dominates
  // the penalties), max D_i / m_i for lumped masses.
  system.set_consistent_penalty_frequency_squared(-1);
  double extra = system.penalty_frequency_squared();
  if (extra > 0 && !lumped && !system.lumped_mass()) {
    extra = consistent_penalty_bound(system, max_iterations);
    system.set_consistent_penalty_frequency_squared(extra);
  }
  if (extra > 0) {
    e.power = std::sqrt(e.power * e.power + extra);
    e.bound = std::sqrt(e.bound * e.bound + extra);
  }
  return e;
}

double round_down_to_digits(double x, int digits) {
  if (!(x > 1e-290 && x < 1e290)) return x;  // 10^|p| below stays finite
  // x = m 10^p + rest with m an integer of `digits` digits; m and 10^|p| (|p| <= 22) are exact
  // doubles, so one multiplication or division gives the double nearest m 10^p.
  const double lowest = std::pow(10.0, digits - 1), highest = 10 * lowest;
  int p = static_cast<int>(std::floor(std::log10(x))) - (digits - 1);
  auto decimal = [&](double m) {
    const double scale = std::pow(10.0, std::abs(p));
    return p >= 0 ? m * scale : m / scale;
  };
  auto leading = [&] {
    const double scale = std::pow(10.0, std::abs(p));
    return std::floor(p >= 0 ? x / scale : x * scale);
  };
  double m = leading();
  // log10 rounds near powers of 10: one digit too many or too few.
  if (m >= highest) ++p, m = leading();
  if (m < lowest) --p, m = leading();
  // The scaling rounds too: m 10^p must not be above x, and m + 1 must be.
  if (decimal(m) > x) m -= 1;
  if (m + 1 < highest && decimal(m + 1) <= x) m += 1;
  return decimal(m);
}

}  // namespace inertia
