// inertia-bench: the performance figures of issue 5, measured in one run on one problem size, as
// `name value unit` lines on rank 0 (lines starting with '#' are comments). See usage below.
//
// Every timing is the wall time (MPI_Wtime) of the slowest rank, after an MPI_Barrier; a figure
// is the median of several such samples unless its comment line says otherwise. Nothing here
// asserts on speed: the test (ctest -L bench) only checks that the program runs and that its
// output is well formed.
#include <petscksp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/spectrum.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia {
namespace {

constexpr const char* usage = R"(usage: mpirun -n P inertia-bench [options] [-- PETSc options]

Measures, in one run and on one problem size (a unit-cube box of N^3 hex8 cells, or the same grid
split into 6 tet4 per hex; 3 (N+1)^3 DOFs), and prints `name value unit` lines on rank 0:
STREAM triad/copy bandwidth, setup (mesh, partition, distribute, assemble) time, stiffness
assembly rate, MatMult time and bandwidth (AIJ and BAIJ(3)), explicit central-difference step
time (assembled and matrix-free), implicit Newmark step time and iterations, a static CG+GAMG
solve (setup, solve, iterations), and peak memory per DOF.

options:
  --cells N           cells per box edge (default 69: 1,029,000 DOFs)
  --element E         hex8 | tet4 | both (default both: every figure on hex8, plus the setup and
                      assembly figures of tet4 on the same grid)
  --steps S           explicit steps per timing sample (default 10)
  --implicit-steps K  implicit Newmark steps per timing sample (default 2)
  --repeat R          timing samples per figure (default 5; the static and implicit solves take
                      min(R, 3))
  --stream-size M     doubles per array and rank for STREAM (default 2e7: 480 MB per rank)
  --quick             tiny sizes for CI (cells 6, repeat 3, steps 3, implicit-steps 1)
  --skip-static       skip the static CG+GAMG solve
  --help
Everything after `--` goes to PETSc's options database (e.g. -- -pc_gamg_threshold 0.02).
)";

struct Options {
  int cells = 69;
  std::vector<std::string> elements{"hex8", "tet4"};
  int steps = 10;
  int implicit_steps = 2;
  int repeat = 5;
  long stream_size = 20'000'000;
  bool quick = false;
  bool skip_static = false;
  double min_sample_seconds = 0.05;  ///< short operations are batched up to this per sample
  std::vector<std::string> petsc;
};

// ---------------------------------------------------------------------------------------------
// Output (rank 0)

class Report {
 public:
  explicit Report(MPI_Comm comm) : root_(rank_of(comm) == 0) {}
  void value(const std::string& name, double v, const std::string& unit) {
    if (!root_) return;
    char text[64];
    std::snprintf(text, sizeof text, "%.4g", v);
    std::cout << name << " " << text << " " << unit << std::endl;
  }
  void integer(const std::string& name, long long v, const std::string& unit) {
    if (root_) std::cout << name << " " << v << " " << unit << std::endl;
  }
  void comment(const std::string& text) {
    if (root_) std::cout << "# " << text << std::endl;
  }

 private:
  bool root_;
};

// ---------------------------------------------------------------------------------------------
// Timing

/// Wall time of f() on the slowest rank, after a barrier.
template <typename F>
double timed(MPI_Comm comm, F&& f) {
  INERTIA_MPI(MPI_Barrier(comm));
  const double start = MPI_Wtime();
  f();
  double local = MPI_Wtime() - start, global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm));
  return global;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Median over `samples` samples of the time per call of f; each sample runs f `batch` times,
/// `batch` chosen (same on every rank) so that a sample lasts about min_seconds. One untimed
/// warm-up call first.
template <typename F>
double per_call(MPI_Comm comm, int samples, double min_seconds, F&& f, int* batch_out = nullptr) {
  const double first = timed(comm, f);  // warm-up; also calibrates the batch
  const int batch = first > 0 ? static_cast<int>(std::clamp(std::ceil(min_seconds / first), 1.0, 1e5)) : 1;
  std::vector<double> t;
  for (int s = 0; s < samples; ++s)
    t.push_back(timed(comm, [&] {
                  for (int b = 0; b < batch; ++b) f();
                }) /
                batch);
  if (batch_out) *batch_out = batch;
  return median(t);
}

// ---------------------------------------------------------------------------------------------
// Memory

/// Peak resident set of this process (ru_maxrss), bytes.
double peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return 1024.0 * static_cast<double>(u.ru_maxrss);  // kilobytes on Linux
}

/// Current resident set of this process, bytes (/proc/self/statm).
double current_rss_bytes() {
  std::ifstream in("/proc/self/statm");
  double size = 0, resident = 0;
  in >> size >> resident;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

double sum_over_ranks(MPI_Comm comm, double x) {
  double s = 0;
  INERTIA_MPI(MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, comm));
  return s;
}

// ---------------------------------------------------------------------------------------------
// STREAM

struct StreamResult {
  double triad = 0, copy = 0;  ///< GB/s, all ranks together
};

StreamResult stream(MPI_Comm comm, long n, int samples) {
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);  // written here: first touch
  double* __restrict pa = a.data();
  const double* __restrict pb = b.data();
  const double* __restrict pc = c.data();
  const double s = 3.0;
  std::vector<double> triad, copy;
  for (int k = 0; k < samples; ++k) {
    triad.push_back(timed(comm, [&] {
      for (long i = 0; i < n; ++i) pa[i] = pb[i] + s * pc[i];
    }));
    copy.push_back(timed(comm, [&] {
      for (long i = 0; i < n; ++i) pa[i] = pb[i];
    }));
  }
  // Keep the loops: the result is used.
  volatile double sink = a[n / 2] + a[n - 1];
  (void)sink;
  const double ranks = size_of(comm);
  return {24.0 * static_cast<double>(n) * ranks / median(triad) / 1e9,
          16.0 * static_cast<double>(n) * ranks / median(copy) / 1e9};
}

// ---------------------------------------------------------------------------------------------
// Cases and models

std::string case_text(const std::string& element, int cells, const std::string& integrator,
                      const std::string& mass, const std::string& dt,
                      const std::string& extra_time = "") {
  std::ostringstream y;
  y << "mesh:\n"
    << "  box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [" << cells << ", " << cells << ", "
    << cells << "], element: " << element << "}\n"
    << "materials:\n"
    << "  - {region: all, model: linear_elastic, density: 7800, youngs_modulus: 2.0e11, "
       "poissons_ratio: 0.3}\n"
    << "boundary_conditions:\n"
    << "  - {region: xmin, type: fixed}\n"
    << "  - {region: xmax, type: traction, value: [0, 0, -1.0e6]}\n"
    << "time:\n"
    << "  integrator: " << integrator << "\n"
    << "  mass: " << mass << "\n"
    << "  dt: " << dt << "\n"
    << "  steps: 1000\n"
    << extra_time << "output:\n"
    << "  every: 0\n"
    << "  energy: false\n";
  return y.str();
}

CaseFile parse(MPI_Comm comm, const std::string& text) {
  CaseFile c;
  run_collectively(comm, [&] { c = parse_case(text, "inertia-bench.yaml"); });
  return c;
}

/// The seconds of each phase of a Phases object (max over ranks; collective). Phases has no
/// accessor, so this goes through its CSV writer (a temporary file read back on every rank).
std::map<std::string, double> phase_seconds(MPI_Comm comm, const Phases& phases) {
  static int counter = 0;
  int pid = static_cast<int>(getpid());
  INERTIA_MPI(MPI_Bcast(&pid, 1, MPI_INT, 0, comm));
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     cat("inertia-bench-", pid, "-", counter++, ".csv");
  phases.write_csv(comm, path, 0.0);
  std::map<std::string, double> out;
  if (rank_of(comm) == 0) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      const auto comma = line.find(',');
      if (comma == std::string::npos) continue;
      out[line.substr(0, comma)] = std::atof(line.c_str() + comma + 1);
    }
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  return out;  // rank 0 only: the numbers are printed there
}

struct Built {
  Model model;
  double seconds = 0;
  std::map<std::string, double> phases;
  std::int64_t cells = 0;
  double memory_bytes = 0;  ///< increase of the resident set over the build, summed over ranks
};

Built build(MPI_Comm comm, const CaseFile& c) {
  Built b;
  Phases phases;
  const double before = current_rss_bytes();
  b.seconds = timed(comm, [&] { b.model = build_model(comm, c, &phases); });
  b.memory_bytes = sum_over_ranks(comm, current_rss_bytes() - before);
  b.phases = phase_seconds(comm, phases);
  for (auto e : b.model.partition.elements_per_rank) b.cells += e;
  return b;
}

void report_setup(Report& out, const std::string& prefix, const Built& b, double dofs) {
  out.value(prefix + "seconds", b.seconds, "s");
  for (const char* phase : {"mesh", "partition", "distribute", "assemble"}) {
    auto it = b.phases.find(phase);
    if (it != b.phases.end()) out.value(cat(prefix, phase, "_seconds"), it->second, "s");
  }
  out.value(prefix + "memory_per_dof", b.memory_bytes / dofs, "B/DOF");
}

// ---------------------------------------------------------------------------------------------
// Reference figures (issue 5, measured on this machine at 69^3 cells; not measured here)

/// dolfinx 0.5 stiffness assembly rate, cells/s, at 1 or 2 ranks (0 if unknown).
double dolfinx_cells_per_second(const std::string& element, int ranks) {
  if (element == "hex8") return ranks == 1 ? 328509 / 8.8 : ranks == 2 ? 328509 / 6.7 : 0;
  if (element == "tet4") return ranks == 1 ? 1971054 / 4.8 : ranks == 2 ? 1971054 / 3.7 : 0;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Sections

struct MatMultResult {
  double seconds = 0, bytes = 0, nonzeros = 0;
  int batch = 1;
};

/// Time of y = A x and the bytes it must move at least: the matrix values (8 B per nonzero),
/// column indices (sizeof(PetscInt) per nonzero for AIJ, per bs x bs block for BAIJ), row
/// pointers (per row or block row), x read once and y written once.
MatMultResult matmult(MPI_Comm comm, Mat A, const Options& o) {
  MatMultResult r;
  MatInfo info;
  INERTIA_PETSC(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  r.nonzeros = info.nz_used;
  PetscInt n = 0, bs = 1;
  INERTIA_PETSC(MatGetSize(A, &n, nullptr));
  MatType type;
  INERTIA_PETSC(MatGetType(A, &type));
  const bool blocked = std::strstr(type, "baij") != nullptr;
  if (blocked) INERTIA_PETSC(MatGetBlockSize(A, &bs));
  const double index = sizeof(PetscInt);
  r.bytes = r.nonzeros * 8.0 + r.nonzeros / (bs * bs) * index +
            (static_cast<double>(n) / bs + size_of(comm)) * index + 2.0 * 8.0 * n;
  petsc::Vector x, y;
  INERTIA_PETSC(MatCreateVecs(A, x.out(), y.out()));
  INERTIA_PETSC(VecSet(x, 1.0));
  r.seconds = per_call(comm, o.repeat, o.min_sample_seconds,
                       [&] { INERTIA_PETSC(MatMult(A, x, y)); }, &r.batch);
  return r;
}

struct ExplicitResult {
  double step_seconds = 0;
  double u_norm = 0;  ///< ||u||_2 after the timed steps, to compare operators
};

/// Central difference steps on a built model, from rest, at step dt: one warm-up step, then
/// `repeat` samples of `steps` steps each. Returns the median time per step.
ExplicitResult explicit_steps(MPI_Comm comm, MechanicalSystem& system, double dt,
                              const Options& o) {
  State state;
  state.u = system.create_vector();
  state.v = system.create_vector();
  system.apply_constraints(state.time, state.u, state.v, nullptr);
  auto integrator = create_integrator("central_difference", {});
  integrator->initialize(system, state);
  integrator->step(system, state, dt);  // warm-up
  std::vector<double> t;
  for (int s = 0; s < o.repeat; ++s)
    t.push_back(timed(comm, [&] {
                  for (int k = 0; k < o.steps; ++k) integrator->step(system, state, dt);
                }) /
                o.steps);
  ExplicitResult r;
  r.step_seconds = median(t);
  INERTIA_PETSC(VecNorm(state.u, NORM_2, &r.u_norm));
  return r;
}

/// The explicit step of a case given as YAML text (builds and frees its own model). Returns
/// nothing (and says why in `why`) if the case is rejected.
std::optional<ExplicitResult> explicit_case(MPI_Comm comm, const std::string& yaml, double dt,
                                            const Options& o, std::string& why,
                                            double* setup_seconds) {
  CaseFile c;
  try {
    c = parse(comm, yaml);
  } catch (const InputError& e) {
    why = e.what();
    return std::nullopt;
  }
  Built b = build(comm, c);
  if (setup_seconds) *setup_seconds = b.seconds;
  return explicit_steps(comm, *b.model.system, dt, o);
}

int bench(const Options& o) {
  const MPI_Comm comm = PETSC_COMM_WORLD;
  const int ranks = size_of(comm);
  Report out(comm);
  const int samples_long = std::min(o.repeat, 3);
  const std::string& primary = o.elements.front();
  const double nodes = std::pow(o.cells + 1.0, 3);
  const double dofs = 3 * nodes;

  out.comment(cat("inertia-bench ", INERTIA_VERSION, ": unit cube, ", o.cells, "^3 cells, ",
                  static_cast<long long>(dofs), " DOFs, ", ranks, ranks == 1 ? " rank" : " ranks",
                  "; elements: ", primary, o.elements.size() > 1 ? " (all figures), " : "",
                  o.elements.size() > 1 ? o.elements[1] + " (setup and assembly)" : ""));
  out.comment("linear elastic steel (E 2e11, nu 0.3, rho 7800), xmin fixed, traction on xmax");
  out.comment(cat("times: wall time of the slowest rank after a barrier, median of ", o.repeat,
                  " samples (", samples_long,
                  " for implicit and static solves; setup once); lines are `name value unit`"));
  out.integer("ranks", ranks, "ranks");
  out.integer("dofs", static_cast<long long>(dofs), "DOFs");

  double stable_dt = 0;
  double matmult_aij_seconds = 0, matmult_aij_bandwidth = 0;
  double explicit_assembled = 0, u_norm_assembled = 0;
  double peak_setup = 0;

  // --- Setup, assembly, MatMult, explicit (assembled), static: central difference, lumped mass.
  {
    out.comment(cat("setup: build_model (mesh generation on rank 0, METIS partition, distribute, "
                    "assemble K and the lumped mass) of the ", primary,
                    " central-difference case, timed once"));
    const CaseFile c = parse(comm, case_text(primary, o.cells, "central_difference", "lumped", "auto"));
    Built b = build(comm, c);
    peak_setup = sum_over_ranks(comm, peak_rss_bytes());
    MechanicalSystem& system = *b.model.system;
    out.integer("cells", b.cells, "cells");
    report_setup(out, "setup_", b, dofs);
    out.value("setup_peak_memory_per_dof", peak_setup / dofs, "B/DOF");

    // Assembly.
    Mat K = system.stiffness();
    const double t_assembly = per_call(comm, o.repeat, 0.0, [&] {
      system.assembler().assemble_stiffness(K);
    });
    out.comment(cat("assembly: Assembler::assemble_stiffness into the model's own K (element "
                    "kernels + MatSetValuesCOO), ", b.cells, " cells, after one warm-up call"));
    out.value(cat("assembly_", primary, "_stiffness_seconds"), t_assembly, "s");
    const double rate = static_cast<double>(b.cells) / t_assembly;
    out.value(cat("assembly_", primary, "_cells_per_second"), rate, "cells/s");
    out.value(cat("assembly_", primary, "_ns_per_cell"), 1e9 * t_assembly / b.cells, "ns/cell");
    if (const double ref = dolfinx_cells_per_second(primary, ranks); ref > 0) {
      out.comment(cat("speedup vs dolfinx 0.5: against the issue's reference rate ", ref,
                      " cells/s (69^3 grid, same machine, ", ranks,
                      ranks == 1 ? " rank" : " ranks", "), not measured here"));
      out.value(cat("assembly_", primary, "_speedup_vs_dolfinx"), rate / ref, "x");
    }
    {
      petsc::Vector m = system.create_vector();
      const double t = per_call(comm, o.repeat, 0.0, [&] {
        system.assembler().assemble_lumped_mass(m);
      });
      out.value(cat("assembly_", primary, "_lumped_mass_seconds"), t, "s");
    }

    // MatMult.
    {
      PetscInt bs = 1;
      INERTIA_PETSC(MatGetBlockSize(K, &bs));
      MatType type;
      INERTIA_PETSC(MatGetType(K, &type));
      const MatMultResult aij = matmult(comm, K, o);
      matmult_aij_seconds = aij.seconds;
      matmult_aij_bandwidth = aij.bytes / aij.seconds / 1e9;
      out.comment(cat("matmult: y = K x with the model's K (", type, ", block size ", bs, ", ",
                      static_cast<long long>(aij.nonzeros), " nonzeros, ",
                      aij.nonzeros / dofs, " per row), ", aij.batch,
                      " products per sample; bandwidth = bytes / time, bytes = 8 per nonzero + ",
                      sizeof(PetscInt), " per nonzero (AIJ) or per block (BAIJ) + row pointers + "
                      "x and y once"));
      out.value("matmult_aij_seconds", aij.seconds, "s");
      out.value("matmult_aij_bytes_per_nonzero", aij.bytes / aij.nonzeros, "B");
      out.value("matmult_aij_bandwidth", matmult_aij_bandwidth, "GB/s");
      petsc::Matrix B;
      const double t_convert = timed(comm, [&] {
        INERTIA_PETSC(MatConvert(K, MATBAIJ, MAT_INITIAL_MATRIX, B.out()));
      });
      PetscInt bbs = 1;
      INERTIA_PETSC(MatGetBlockSize(B, &bbs));
      const MatMultResult baij = matmult(comm, B, o);
      out.comment(cat("matmult_baij: MatConvert(K, MATBAIJ) (block size ", bbs, ", conversion ",
                      t_convert, " s), same x"));
      out.value("matmult_baij_seconds", baij.seconds, "s");
      out.value("matmult_baij_bytes_per_nonzero", baij.bytes / baij.nonzeros, "B");
      out.value("matmult_baij_bandwidth", baij.bytes / baij.seconds / 1e9, "GB/s");
      out.value("matmult_baij_speedup_vs_aij", aij.seconds / baij.seconds, "x");
    }

    // Explicit step, assembled operator.
    {
      FrequencyEstimate f;
      const double t_freq = timed(comm, [&] { f = estimate_highest_frequency(system, 50); });
      const double limit = stability_limit("central_difference", c.params);
      stable_dt = limit / f.power;
      const double dt = 0.9 * stable_dt;  // the driver's dt: auto
      out.comment(cat("explicit: central_difference, lumped mass, dt = 0.9 x stable step (dt: "
                      "auto), from rest under the load; ", o.steps,
                      " steps per sample after one warm-up step; time per step"));
      out.value("explicit_stable_dt", stable_dt, "s");
      out.value("explicit_stable_dt_estimate_seconds", t_freq, "s");
      const ExplicitResult r = explicit_steps(comm, system, dt, o);
      explicit_assembled = r.step_seconds;
      out.value("explicit_step_assembled_seconds", r.step_seconds, "s");
      out.value("explicit_step_assembled_ns_per_dof", 1e9 * r.step_seconds / dofs, "ns/DOF");
      out.value("explicit_step_over_matmult", r.step_seconds / matmult_aij_seconds, "x");
      u_norm_assembled = r.u_norm;  // for the matrix-free comparison below
    }

    // Static solve K u = f, CG + GAMG with the rigid-body near-null space.
    if (o.skip_static) {
      out.comment("static: skipped (--skip-static)");
    } else {
      // MechanicalSystem::solve uses rtol 1e-10; the reference figures are at 1e-8.
      PetscBool user_rtol = PETSC_FALSE;
      INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, "-ksp_rtol", &user_rtol));
      if (!user_rtol) INERTIA_PETSC(PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-8"));
      petsc::Vector f = system.create_vector(), u = system.create_vector();
      system.external_force(0.0, f);
      SolveReport first, again;
      const double t_first = timed(comm, [&] { first = system.solve(0.0, 1.0, f, u); });
      std::vector<double> t;
      for (int s = 0; s < samples_long; ++s) {
        INERTIA_PETSC(VecZeroEntries(u));
        t.push_back(timed(comm, [&] { again = system.solve(0.0, 1.0, f, u); }));
      }
      if (!user_rtol) INERTIA_PETSC(PetscOptionsClearValue(nullptr, "-ksp_rtol"));
      const double t_solve = median(t);
      out.comment(cat("static: MechanicalSystem::solve(0, 1, f, u): CG + GAMG, rigid-body "
                      "near-null space, rtol ", user_rtol ? "from the command line" : "1e-8",
                      ", zero initial guess; setup = first call (operator fill + PCSetUp + "
                      "solve) - median of ", samples_long, " repeated solves"));
      out.value("static_gamg_setup_seconds", t_first - t_solve, "s");
      out.value("static_gamg_solve_seconds", t_solve, "s");
      out.integer("static_gamg_iterations", again.iterations, "iterations");
      out.value("static_gamg_solve_seconds_per_iteration", t_solve / std::max<PetscInt>(1, again.iterations), "s");
    }
  }

  // --- Explicit step, matrix-free operator: the same case with time.operator: matrix_free.
  {
    std::string why;
    double setup = 0;
    const auto r = explicit_case(
        comm, case_text(primary, o.cells, "central_difference", "lumped", "auto",
                        "  operator: matrix_free\n"),
        0.9 * stable_dt, o, why, &setup);
    if (!r) {
      out.comment(cat("explicit_step_matrix_free: not available (", why, ")"));
    } else {
      out.comment("explicit matrix-free: the same case with time.operator: matrix_free, own model");
      out.value("setup_matrix_free_seconds", setup, "s");
      out.value("explicit_step_matrix_free_seconds", r->step_seconds, "s");
      out.value("explicit_step_matrix_free_ns_per_dof", 1e9 * r->step_seconds / dofs, "ns/DOF");
      out.value("explicit_step_matrix_free_speedup_vs_assembled",
                explicit_assembled / r->step_seconds, "x");
      out.comment("explicit_matrix_free_relative_difference: | ||u_mf|| - ||u_assembled|| | / "
                  "||u_assembled|| after the same steps from the same state (a sanity check)");
      out.value("explicit_matrix_free_relative_difference",
                std::abs(r->u_norm - u_norm_assembled) / u_norm_assembled, "");
    }
  }

  // --- Implicit Newmark, consistent mass.
  {
    const double dt = 10 * stable_dt;
    out.comment(cat("implicit: newmark (beta 1/4, gamma 1/2), consistent mass, dt = 10 x the "
                    "explicit stable step (lumped mass) = ", dt, " s, from rest under the load; ",
                    o.implicit_steps, " steps per sample, ", samples_long,
                    " samples; first step (operator fill + GAMG setup) reported apart"));
    const CaseFile c = parse(comm, case_text(primary, o.cells, "newmark", "consistent", cat(dt)));
    Built b = build(comm, c);
    MechanicalSystem& system = *b.model.system;
    out.value("setup_newmark_consistent_seconds", b.seconds, "s");
    {
      Mat M = system.mass_matrix();
      const double t = per_call(comm, o.repeat, 0.0, [&] {
        system.assembler().assemble_consistent_mass(M);
      });
      out.value(cat("assembly_", primary, "_consistent_mass_seconds"), t, "s");
    }
    State state;
    state.u = system.create_vector();
    state.v = system.create_vector();
    system.apply_constraints(state.time, state.u, state.v, nullptr);
    auto integrator = create_integrator("newmark", c.params);
    StepStats init;
    const double t_init = timed(comm, [&] { init = integrator->initialize(system, state); });
    StepStats first;
    const double t_first = timed(comm, [&] { first = integrator->step(system, state, dt); });
    std::vector<double> t;
    std::int64_t iterations = 0;
    for (int s = 0; s < samples_long; ++s)
      t.push_back(timed(comm, [&] {
                    for (int k = 0; k < o.implicit_steps; ++k)
                      iterations += integrator->step(system, state, dt).linear_iterations;
                  }) /
                  o.implicit_steps);
    out.value("implicit_newmark_initialize_seconds", t_init, "s");
    out.value("implicit_newmark_first_step_seconds", t_first, "s");
    out.integer("implicit_newmark_first_step_iterations", first.linear_iterations, "iterations");
    out.value("implicit_newmark_step_seconds", median(t), "s");
    out.value("implicit_newmark_iterations_per_step",
              static_cast<double>(iterations) / (samples_long * o.implicit_steps), "iterations");
    out.value("implicit_step_over_explicit_step", median(t) / explicit_assembled, "x");
  }

  // --- Other elements: setup and assembly only.
  for (std::size_t e = 1; e < o.elements.size(); ++e) {
    const std::string& element = o.elements[e];
    const CaseFile c = parse(comm, case_text(element, o.cells, "central_difference", "lumped", "auto"));
    Built b = build(comm, c);
    out.comment(cat(element, ": ", b.cells, " cells; setup and stiffness assembly only"));
    out.integer(cat("cells_", element), b.cells, "cells");
    report_setup(out, cat("setup_", element, "_"), b, dofs);
    Mat K = b.model.system->stiffness();
    const double t_assembly = per_call(comm, o.repeat, 0.0, [&] {
      b.model.system->assembler().assemble_stiffness(K);
    });
    const double rate = static_cast<double>(b.cells) / t_assembly;
    out.value(cat("assembly_", element, "_stiffness_seconds"), t_assembly, "s");
    out.value(cat("assembly_", element, "_cells_per_second"), rate, "cells/s");
    out.value(cat("assembly_", element, "_ns_per_cell"), 1e9 * t_assembly / b.cells, "ns/cell");
    if (const double ref = dolfinx_cells_per_second(element, ranks); ref > 0)
      out.value(cat("assembly_", element, "_speedup_vs_dolfinx"), rate / ref, "x");
  }

  // --- Memory: before STREAM, whose arrays would dominate at small sizes.
  const double peak = sum_over_ranks(comm, peak_rss_bytes());
  out.comment("memory: getrusage ru_maxrss summed over ranks / DOFs; peak_memory covers every "
              "section above (largest: static or implicit GAMG), setup_peak_memory the setup alone");
  out.value("peak_memory_per_dof", peak / dofs, "B/DOF");
  out.value("peak_memory", peak / 1e9, "GB");

  // --- STREAM.
  {
    const int samples = std::max(o.repeat, 10);
    const StreamResult s = stream(comm, o.stream_size, samples);
    out.comment(cat("stream: a = b + 3 c (triad, 24 B per entry) and a = b (copy, 16 B), ",
                    o.stream_size, " doubles per array and rank, all ranks at once, median of ",
                    samples, "; reference 13.8 / 26.1 GB/s triad at 1 / 2 ranks"));
    out.value("stream_triad_bandwidth", s.triad, "GB/s");
    out.value("stream_copy_bandwidth", s.copy, "GB/s");
    out.value("matmult_aij_fraction_of_triad", matmult_aij_bandwidth / s.triad, "");
  }
  out.integer("bench_complete", 1, "flag");
  return 0;
}

}  // namespace
}  // namespace inertia

int main(int argc, char** argv) {
  using namespace inertia;
  Options o;
  bool cells_given = false, repeat_given = false, steps_given = false, isteps_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](const char* what) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "inertia-bench: error: " << a << " needs " << what << "\n";
        std::exit(1);
      }
      return argv[++i];
    };
    auto positive = [&](const std::string& s) {
      char* end = nullptr;
      const long v = std::strtol(s.c_str(), &end, 10);
      if (!end || *end || v <= 0) {
        std::cerr << "inertia-bench: error: " << a << ": expected a positive integer, got '" << s
                  << "'\n";
        std::exit(1);
      }
      return v;
    };
    if (a == "--") {
      o.petsc.assign(argv + i + 1, argv + argc);
      break;
    } else if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    } else if (a == "--cells") {
      o.cells = static_cast<int>(positive(next("a number of cells"))), cells_given = true;
    } else if (a == "--steps") {
      o.steps = static_cast<int>(positive(next("a number of steps"))), steps_given = true;
    } else if (a == "--implicit-steps") {
      o.implicit_steps = static_cast<int>(positive(next("a number of steps"))), isteps_given = true;
    } else if (a == "--repeat") {
      o.repeat = static_cast<int>(positive(next("a number of samples"))), repeat_given = true;
    } else if (a == "--stream-size") {
      o.stream_size = positive(next("a number of doubles"));
    } else if (a == "--element") {
      const std::string e = next("hex8, tet4 or both");
      if (e == "both") o.elements = {"hex8", "tet4"};
      else if (e == "hex8" || e == "tet4") o.elements = {e};
      else {
        std::cerr << "inertia-bench: error: --element: expected hex8, tet4 or both, got '" << e
                  << "'\n";
        return 1;
      }
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--skip-static") {
      o.skip_static = true;
    } else {
      std::cerr << "inertia-bench: error: unknown option '" << a
                << "' (PETSc options go after --; see --help)\n";
      return 1;
    }
  }
  if (o.quick) {
    if (!cells_given) o.cells = 6;
    if (!repeat_given) o.repeat = 3;
    if (!steps_given) o.steps = 3;
    if (!isteps_given) o.implicit_steps = 1;
    o.stream_size = std::min(o.stream_size, 1'000'000L);
    o.min_sample_seconds = 0.002;
  }
  try {
    Session session(&argc, &argv, o.petsc);
    try {
      return bench(o);
    } catch (const std::exception& e) {
      if (rank_of(PETSC_COMM_WORLD) == 0) std::cerr << "inertia-bench: error: " << e.what() << std::endl;
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "inertia-bench: error: " << e.what() << std::endl;
    return 1;
  }
}
