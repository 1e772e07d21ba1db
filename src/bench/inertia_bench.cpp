// inertia-bench: the performance figures of examples/guide/large_runs.md, measured in one run on
// one problem size, as `name value unit` lines on rank 0 (lines starting with '#' are comments).
// See usage below.
//
// Every timing is the wall time (MPI_Wtime) of the slowest rank, after an MPI_Barrier; a figure
// is the median of several such samples unless its comment line says otherwise. Nothing here
// asserts on speed: the test (ctest -L bench) only checks that the program runs and that its
// output is well formed.
#include <malloc.h>
#include <petscksp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/assembly/j2_batches.hpp"
#include "inertia/core/limits.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/spectrum.hpp"
#include "inertia/time/scheme.hpp"

namespace inertia {
namespace {

constexpr const char* usage = R"(usage: mpirun -n P inertia-bench [options] [-- PETSc options]

Measures, in one run and on one problem size (a unit-cube box of N^3 hex8 cells, or the same grid
split into 6 tet4 per hex; 3 (N+1)^3 DOFs), and prints `name value unit` lines on rank 0:
STREAM triad/copy bandwidth, setup time (build_model's phases), stiffness
assembly rate, MatMult time and bandwidth (AIJ and BAIJ(3)), explicit central-difference step
time (assembled and matrix-free), implicit Newmark step time and iterations, a static CG+GAMG
solve (setup, solve, iterations), the implicit solver's automatic choice (time.linear_solver:
auto) against direct and iterative forced on a 19,683-DOF tet10 cantilever (alternating samples),
the products per implicit step of every implicit scheme with and without the energy balance (a
41,067-DOF tet10 tower on a shaken base),
the two Newton examples (large_deflection, soft_drop) with the default, CG + GAMG, and the previous
default (critical-point line search, CG + GAMG), the explicit step of shells (Belytschko-Tsay
elastic and J2, corotational MITC4) on a (4N)^2 plate, and peak memory per DOF.

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
  --formulation F     full | reduced | bbar: the hex8 cells' formulation (default full)
  --only NAME         run the header and section NAME only (e.g. explicit_nonlinear)
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
  std::string formulation = "full";  ///< of the hex8 cells
  std::string only;                  ///< the one section to run (empty: all)
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
/// `batch` chosen (same on every rank) so that a sample lasts about min_seconds. One warm-up call
/// first (not counted; it calibrates the batch).
template <typename F>
double per_call(MPI_Comm comm, int samples, double min_seconds, F&& f, int* batch_out = nullptr) {
  const double first = timed(comm, f);  // warm-up; also calibrates the batch
  const int batch =
      first > 0 ? static_cast<int>(std::clamp(std::ceil(min_seconds / first), 1.0, 1e5)) : 1;
  std::vector<double> t;
  for (int s = 0; s < samples; ++s)
    t.push_back(timed(comm,
                      [&] {
                        for (int b = 0; b < batch; ++b) f();
                      }) /
                batch);
  if (batch_out) *batch_out = batch;
  return median(t);
}

// ---------------------------------------------------------------------------------------------
// Memory

/// Peak resident set of this process (ru_maxrss), bytes.
double peak_rss_bytes() { return static_cast<double>(peak_resident_bytes()); }

/// Heap bytes in use by this process (glibc mallinfo2: arenas + mmapped blocks). Unlike the
/// resident set, it drops when memory is freed, so differences measure what an object holds.
double heap_in_use_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks) + static_cast<double>(m.hblkhd);
}

double sum_over_ranks(MPI_Comm comm, double x) {
  double s = 0;
  INERTIA_MPI(MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, comm));
  return s;
}

// ---------------------------------------------------------------------------------------------
// PETSc event times (logging is switched on at start-up): the time spent inside an event, e.g.
// PCSetUp, which wall-clock differences can only estimate.

/// This rank's cumulative seconds in event `name` in the current log stage (NaN if logging is off).
double event_seconds(const char* name) {
  PetscBool active = PETSC_FALSE;
  INERTIA_PETSC(PetscLogIsActive(&active));
  if (!active) return NAN;
  PetscLogEvent id = -1;
  INERTIA_PETSC(PetscLogEventGetId(name, &id));
  PetscEventPerfInfo info{};
  INERTIA_PETSC(PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info));
  return info.time;
}

/// Max over ranks of the time spent in event `name` while f() ran (NaN if logging is off).
template <typename F>
double event_time(MPI_Comm comm, const char* name, F&& f) {
  const double before = event_seconds(name);
  f();
  double local = event_seconds(name) - before, global = 0;
  if (std::isnan(local)) local = -1;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm));
  return global < 0 ? NAN : global;
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
    // The empty asm with a memory clobber makes the stores observable: without it the compiler
    // may drop a loop whose result the next loop overwrites.
    triad.push_back(timed(comm, [&] {
      for (long i = 0; i < n; ++i) pa[i] = pb[i] + s * pc[i];
      asm volatile("" : : "r"(pa) : "memory");
    }));
    copy.push_back(timed(comm, [&] {
      for (long i = 0; i < n; ++i) pa[i] = pb[i];
      asm volatile("" : : "r"(pa) : "memory");
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
                      const std::string& extra_time = "", const std::string& formulation = "full") {
  std::ostringstream y;
  y << "mesh:\n"
    << "  box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [" << cells << ", " << cells << ", "
    << cells << "], element: " << element << "}\n"
    << "materials:\n"
    << "  - {region: all, model: linear_elastic, density: 7800, youngs_modulus: 2.0e11, "
       "poissons_ratio: 0.3"
    << (element == "hex8" && formulation != "full" ? ", formulation: " + formulation : "") << "}\n"
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

/// The seconds of each phase of a Phases object (max over ranks; collective; the result is
/// filled on rank 0 only, which prints). Phases has no accessor, so this goes through its CSV
/// writer: a temporary file, read back and removed.
std::vector<std::pair<std::string, double>> phase_seconds(MPI_Comm comm, const Phases& phases) {
  static int counter = 0;
  int pid = static_cast<int>(getpid());
  INERTIA_MPI(MPI_Bcast(&pid, 1, MPI_INT, 0, comm));
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / cat("inertia-bench-", pid, "-", counter++, ".csv");
  phases.write_csv(comm, path, 0.0);
  std::vector<std::pair<std::string, double>> out;
  if (rank_of(comm) == 0) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      const auto comma = line.find(',');
      if (comma == std::string::npos) continue;
      out.emplace_back(line.substr(0, comma), std::atof(line.c_str() + comma + 1));
    }
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  return out;
}

struct Built {
  Model model;
  double seconds = 0;
  std::vector<std::pair<std::string, double>> phases;  ///< build_model's phases (rank 0)
  std::int64_t cells = 0;
  double memory_bytes = 0;  ///< heap held by the model after the build, summed over ranks
};

Built build(MPI_Comm comm, const CaseFile& c) {
  Built b;
  Phases phases;
  const double before = heap_in_use_bytes();
  b.seconds = timed(comm, [&] { b.model = build_model(comm, c, &phases); });
  b.memory_bytes = sum_over_ranks(comm, heap_in_use_bytes() - before);
  b.phases = phase_seconds(comm, phases);
  for (auto e : b.model.partition.elements_per_rank) b.cells += e;
  return b;
}

void report_setup(Report& out, const std::string& prefix, const Built& b, double dofs) {
  out.value(prefix + "seconds", b.seconds, "s");
  for (const auto& [phase, seconds] : b.phases) {
    if (phase == "total") continue;
    std::string name = phase;
    std::replace(name.begin(), name.end(), ' ', '_');
    out.value(cat(prefix, name, "_seconds"), seconds, "s");
  }
  out.value(prefix + "memory_per_dof", b.memory_bytes / dofs, "B/DOF");
}

// ---------------------------------------------------------------------------------------------
// Reference figures (the benchmark table of examples/guide/large_runs.md: measured on this machine
// at 69^3 cells with Debian's PETSc 3.18 and dolfinx 0.5; not measured here)

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
  r.seconds = per_call(
      comm, o.repeat, o.min_sample_seconds, [&] { INERTIA_PETSC(MatMult(A, x, y)); }, &r.batch);
  return r;
}

/// ||A x - B x|| / ||A x|| for a fixed pseudo-random x (the conversion check).
double product_difference(MPI_Comm comm, Mat A, Mat B) {
  petsc::Vector x, y, z;
  INERTIA_PETSC(MatCreateVecs(A, x.out(), y.out()));
  INERTIA_PETSC(VecDuplicate(y, z.out()));
  PetscRandom rng;
  INERTIA_PETSC(PetscRandomCreate(comm, &rng));
  INERTIA_PETSC(PetscRandomSetSeed(rng, 11));
  INERTIA_PETSC(PetscRandomSeed(rng));
  INERTIA_PETSC(VecSetRandom(x, rng));
  INERTIA_PETSC(PetscRandomDestroy(&rng));
  INERTIA_PETSC(MatMult(A, x, y));
  INERTIA_PETSC(MatMult(B, x, z));
  INERTIA_PETSC(VecAXPY(z, -1.0, y));
  PetscReal dz = 0, ny = 0;
  INERTIA_PETSC(VecNorm(z, NORM_2, &dz));
  INERTIA_PETSC(VecNorm(y, NORM_2, &ny));
  return ny > 0 ? dz / ny : dz;
}

struct ExplicitResult {
  double step_seconds = 0;
  double product_seconds = 0;  ///< y = K x with the operator the step uses (mult_stiffness)
  double product_bytes = 0;    ///< matrix-free only: bytes a product moves (all ranks)
  std::string operator_type;   ///< the Mat type of the system's stiffness
  double u_norm = 0;           ///< ||u||_2 after the timed steps, to compare operators
  double setup_seconds = 0;    ///< explicit_case only
  double heap_bytes = 0;       ///< heap held after the steps since `heap_before`, summed over ranks
};

/// Central difference steps on a built model, from rest, at step dt: one warm-up step, then
/// `repeat` samples of `steps` steps each (median time per step), alternating with samples of
/// `steps` products with the system's stiffness operator (MechanicalSystem::mult_stiffness).
ExplicitResult explicit_steps(MPI_Comm comm, MechanicalSystem& system, double dt, const Options& o,
                              double heap_before) {
  ExplicitResult r;
  MatType type;
  INERTIA_PETSC(MatGetType(system.stiffness(), &type));
  r.operator_type = type;
  petsc::Vector x = system.create_vector(), y = system.create_vector();
  INERTIA_PETSC(VecSet(x, 1.0));
  if (system.matrix_free())
    r.product_bytes =
        sum_over_ranks(comm, static_cast<double>(system.matrix_free()->bytes_per_product()));
  State state;
  state.u = system.create_vector();
  state.v = system.create_vector();
  system.apply_constraints(state.time, state.u, state.v, nullptr);
  auto integrator = configure_scheme("central_difference").create();
  integrator->initialize(system, state);
  integrator->step(system, state, dt);  // warm-up
  system.mult_stiffness(x, y);
  // Products and steps alternate, sample by sample, so that their ratio does not see the
  // machine's drift between two separate series.
  std::vector<double> t_step, t_product;
  for (int s = 0; s < o.repeat; ++s) {
    t_product.push_back(timed(comm,
                              [&] {
                                for (int k = 0; k < o.steps; ++k) system.mult_stiffness(x, y);
                              }) /
                        o.steps);
    t_step.push_back(timed(comm,
                           [&] {
                             for (int k = 0; k < o.steps; ++k) integrator->step(system, state, dt);
                           }) /
                     o.steps);
  }
  r.step_seconds = median(t_step);
  r.product_seconds = median(t_product);
  INERTIA_PETSC(VecNorm(state.u, NORM_2, &r.u_norm));
  r.heap_bytes = sum_over_ranks(comm, heap_in_use_bytes() - heap_before);
  return r;
}

/// The explicit step of a case given as YAML text (builds and frees its own model). Returns
/// nothing (and says why in `why`) if the case file is rejected.
std::optional<ExplicitResult> explicit_case(MPI_Comm comm, const std::string& yaml, double dt,
                                            const Options& o, std::string& why) {
  CaseFile c;
  try {
    c = parse(comm, yaml);
  } catch (const InputError& e) {
    why = e.what();
    return std::nullopt;
  }
  Built b;
  const double heap_before = heap_in_use_bytes();
  try {
    b = build(comm, c);  // InputErrors are thrown on every rank together
  } catch (const InputError& e) {
    why = e.what();
    return std::nullopt;
  }
  ExplicitResult r = explicit_steps(comm, *b.model.system, dt, o, heap_before);
  r.setup_seconds = b.seconds;
  return r;
}

/// Stiffness assembly into a fresh matrix from Assembler::create_matrix (the production path),
/// median of `repeat` after a warm-up. Returns the matrix (assembled).
petsc::Matrix assemble(MPI_Comm comm, const MechanicalSystem& system, const Options& o,
                       double& seconds) {
  petsc::Matrix K = system.assembler().create_matrix();
  seconds = per_call(comm, o.repeat, 0.0, [&] { system.assemble_stiffness(K); });
  return K;
}

void report_assembly(Report& out, const std::string& element, double seconds, std::int64_t cells,
                     int ranks) {
  const double rate = static_cast<double>(cells) / seconds;
  out.value(cat("assembly_", element, "_stiffness_seconds"), seconds, "s");
  out.value(cat("assembly_", element, "_cells_per_second"), rate, "cells/s");
  out.value(cat("assembly_", element, "_ns_per_cell"), 1e9 * seconds / static_cast<double>(cells),
            "ns/cell");
  if (const double ref = dolfinx_cells_per_second(element, ranks); ref > 0) {
    out.comment(cat("assembly_", element,
                    "_speedup_vs_dolfinx: against the manual's dolfinx 0.5 "
                    "reference rate ",
                    std::round(ref), " cells/s (69^3 grid, this machine, ", ranks,
                    ranks == 1 ? " rank" : " ranks",
                    ") taken as size-independent; dolfinx is not run here",
                    element == "hex8" ? "; dolfinx used its default 27-point rule for Q1 hexes, "
                                        "inertia 2x2x2 (notes/performance.md: dolfinx with 8 "
                                        "points ~7.0e4 cells/s at 1 rank)"
                                      : ""));
    out.value(cat("assembly_", element, "_speedup_vs_dolfinx"), rate / ref, "x");
  }
}

/// The small implicit case of the README's main example in kind: a tet10 cantilever (aluminium,
/// 1 x 0.1 x 0.1 m) under a sudden tip load, Newmark at dt = 2e-4 s (stiffness-dominated), with
/// time.linear_solver auto, direct and iterative: three models, their first steps (operator fill
/// and factorisation or AMG set-up), then alternating samples of steps.
void implicit_choice(MPI_Comm comm, const Options& o, Report& out) {
  const int cells = o.quick ? 8 : 40, across = o.quick ? 2 : 4;
  const int steps = o.quick ? 2 : 10, samples = std::max(3, std::min(o.repeat, 5));
  const char* choices[] = {"auto", "direct", "iterative"};
  struct Run {
    Built built;
    State state;
    std::unique_ptr<Integrator> integrator;
    double first = 0;
    std::vector<double> t;
    std::string note;
  };
  std::vector<std::unique_ptr<Run>> runs;
  for (const char* choice : choices) {
    std::ostringstream y;
    y << "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [" << cells << ", " << across
      << ", " << across << "], element: tet10}}\n"
      << "materials: [{region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: "
         "0.33}]\n"
      << "boundary_conditions:\n  - {region: xmin, type: fixed}\n"
      << "  - {region: xmax, type: traction, value: [0, 0, -1.0e5]}\n"
      << "time: {integrator: newmark, mass: consistent, dt: 2.0e-4, steps: 150, linear_solver: "
      << choice << "}\noutput: {every: 0, energy: false}\n";
    auto r = std::make_unique<Run>(Run{build(comm, parse(comm, y.str())), {}, nullptr});
    MechanicalSystem& system = *r->built.model.system;
    system.set_expected_solves(150);
    r->state.u = system.create_vector();
    r->state.v = system.create_vector();
    system.apply_constraints(0.0, r->state.u, r->state.v, nullptr);
    r->integrator = configure_scheme("newmark").create();
    r->integrator->initialize(system, r->state);
    r->first = timed(comm, [&] { r->integrator->step(system, r->state, 2.0e-4); });
    const auto notes = system.take_solver_notes();
    r->note = notes.empty() ? "(no note)" : notes.front();
    runs.push_back(std::move(r));
  }
  for (int s = 0; s < samples; ++s)
    for (auto& r : runs)
      r->t.push_back(timed(comm,
                           [&] {
                             for (int k = 0; k < steps; ++k)
                               r->integrator->step(*r->built.model.system, r->state, 2.0e-4);
                           }) /
                     steps);
  out.comment(cat("implicit_choice: tet10 cantilever box, ",
                  runs[0]->built.model.system->num_global_dofs(),
                  " DOFs, Newmark, dt 2e-4 s, 150 steps expected; time.linear_solver auto / direct "
                  "/ iterative, one model each; first_step includes the operator fill and the "
                  "factorisation or the AMG set-up; step: median of ",
                  samples, " alternating samples of ", steps,
                  " steps; run: first step + 149 steps. auto chose: ", runs[0]->note));
  double best_run = INFINITY, auto_run = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double step = median(runs[i]->t), run = runs[i]->first + 149 * step;
    out.value(cat("implicit_choice_", choices[i], "_first_step_seconds"), runs[i]->first, "s");
    out.value(cat("implicit_choice_", choices[i], "_step_seconds"), step, "s");
    out.value(cat("implicit_choice_", choices[i], "_run_seconds"), run, "s");
    if (i == 0)
      auto_run = run;
    else
      best_run = std::min(best_run, run);
  }
  out.value("implicit_choice_auto_over_best_forced", auto_run / best_run, "x");
}

/// This rank's count of the product events (MatMult, MatMultAdd, MatMultTranspose: with K, M and
/// the reactions' constrained rows) in the current log stage.
double product_events() {
  double n = 0;
  for (const char* name : {"MatMult", "MatMultAdd", "MatMultTranspose"}) {
    PetscLogEvent id = -1;
    INERTIA_PETSC(PetscLogEventGetId(name, &id));
    PetscEventPerfInfo info{};
    INERTIA_PETSC(PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info));
    n += info.count;
  }
  return n;
}

/// Products per implicit step (issue 26): a tet10 tower (41,067 DOFs; --quick: 1,275) on a base
/// shaken in x (an acceleration record, y and z fixed), consistent mass, Rayleigh damping, MUMPS
/// factored once, for every implicit scheme: the step alone, and with reactions.csv and energy.csv
/// as the run computes them (Reactions::record, EnergyHistory's before_step / after_step). Counts,
/// not times: PETSc's product events over `steps` steps after two, max over ranks, per step; the
/// step times (median of the steps) are the hht lines' only.
void implicit_products(MPI_Comm comm, const Options& o, Report& out) {
  const int cells = o.quick ? 2 : 6, height = o.quick ? 8 : 40, steps = o.quick ? 3 : 10;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / cat("inertia-bench-products-", [&] {
        int pid = static_cast<int>(getpid());
        INERTIA_MPI(MPI_Bcast(&pid, 1, MPI_INT, 0, comm));
        return pid;
      }());
  if (rank_of(comm) == 0) std::filesystem::create_directories(dir);
  INERTIA_MPI(MPI_Barrier(comm));
  out.comment(cat("products: tet10 tower 0.4 x 0.4 x 3 m, ", cells, " x ", cells, " x ", height,
                  " cells, base acceleration 9.81 sin(2 pi 2 t) in x (y, z fixed), consistent "
                  "mass, Rayleigh 0.5 / 1e-4, dt 0.005, MUMPS; per step over ",
                  steps,
                  " steps after two: product events (MatMult, MatMultAdd, MatMultTranspose; "
                  "the reactions' products are with the constrained rows only); _energy: with "
                  "reactions.csv and energy.csv"));
  for (const char* scheme :
       {"newmark", "hht", "generalized_alpha", "euler_implicit", "variational_symplectic"}) {
    std::ostringstream y;
    y << "mesh: {box: {lower: [0, 0, 0], upper: [0.4, 0.4, 3.0], cells: [" << cells << ", " << cells
      << ", " << height << "], element: tet10}}\n"
      << "materials: [{region: all, density: 2500, youngs_modulus: 1.0e9, poissons_ratio: 0.2}]\n"
      << "boundary_conditions:\n  - {region: zmin, type: fixed, components: [y, z]}\n"
      << "  - {region: zmin, type: acceleration, components: [x], value: [9.81], amplitude: "
         "quake}\n"
      << "amplitudes: {quake: {type: sine, frequency: 2}}\n"
      << "time: {integrator: " << scheme
      << ", mass: consistent, rayleigh: {mass: 0.5, stiffness: 1.0e-4}, dt: 0.005, steps: 1000, "
         "linear_solver: direct}\n"
      << "output: {every: 0}\n";
    Built b = build(comm, parse(comm, y.str()));
    MechanicalSystem& system = *b.model.system;
    // Reactions (and so their work in energy.csv) come with an acceleration (Newmark family).
    const bool reactions =
        std::string(scheme) != "euler_implicit" && std::string(scheme) != "variational_symplectic";
    double per_step[2] = {0, 0}, seconds[2] = {0, 0};
    for (int with_energy = 0; with_energy < 2; ++with_energy) {
      State state;
      state.u = system.create_vector();
      state.v = system.create_vector();
      system.apply_constraints(0.0, state.u, state.v, nullptr);
      auto integrator = configure_scheme(scheme).create();
      integrator->initialize(system, state);
      std::unique_ptr<Reactions> r;
      std::unique_ptr<EnergyHistory> e;
      if (with_energy) {
        if (reactions)
          r = std::make_unique<Reactions>(system, std::vector<std::string>{"zmin", "zmin"},
                                          dir / cat(scheme, "_reactions.csv"));
        e = std::make_unique<EnergyHistory>(system, state, *integrator,
                                            dir / cat(scheme, "_energy.csv"));
      }
      auto step = [&] {
        if (e) e->before_step(system, state);
        integrator->step(system, state, 0.005);
        if (r) r->record(system, state, *integrator);
        if (e) e->after_step(system, state, 0.005, 0.0);
      };
      for (int k = 0; k < 2; ++k) step();
      const double before = product_events();
      std::vector<double> t;
      for (int k = 0; k < steps; ++k) t.push_back(timed(comm, step));
      double local = (product_events() - before) / steps, global = 0;
      INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm));
      per_step[with_energy] = global;
      seconds[with_energy] = median(t);
    }
    if (std::string(scheme) == "hht")
      out.integer("products_dofs", system.num_global_dofs(), "DOFs");
    out.value(cat("products_", scheme, "_per_step"), per_step[0], "products");
    out.value(cat("products_", scheme, "_energy_per_step"), per_step[1], "products");
    if (std::string(scheme) == "hht") {
      out.value("products_hht_step_seconds", seconds[0], "s");
      out.value("products_hht_energy_step_seconds", seconds[1], "s");
    }
  }
  INERTIA_MPI(MPI_Barrier(comm));
  if (rank_of(comm) == 0) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
}

/// The two Newton examples (examples/large_deflection/dynamic.yaml: a Neo-Hookean cantilever
/// flung by a tip load; examples/soft_drop/soft_drop.yaml: a jelly block dropping under gravity,
/// mass damping), each as three models stepping alternately: the default (energy line search,
/// tangents' solver chosen: MUMPS at these sizes), `linear_solver: iterative` (energy line
/// search, CG + GAMG), and the previous default (-snes_linesearch_type cp with CG + GAMG; the
/// option is set only around that model's steps). The large-deflection steps stay in the first
/// 0.5 s, before the lateral instability that amplifies tolerance-level differences
/// (examples/guide/large_runs.md, "Hot paths").
void newton_examples(MPI_Comm comm, const Options& o, Report& out) {
  const int steps = o.quick ? 1 : 5, samples = o.quick ? 1 : std::max(2, std::min(o.repeat, 5));
  struct Example {
    const char* name;
    std::string yaml;
    double dt;
  };
  const std::string beam = o.quick ? "cells: [4, 1, 1]" : "cells: [20, 2, 2]";
  const std::string block = o.quick ? "cells: [2, 2, 2]" : "cells: [4, 4, 4]";
  const Example examples[] = {
      {"large_deflection",
       "mesh: {box: {lower: [0, 0, 0], upper: [1.0, 0.1, 0.1], " + beam +
           ", element: tet10}}\n"
           "materials: [{region: all, model: neo_hookean, density: 1000, youngs_modulus: 1.0e7, "
           "poissons_ratio: 0.3}]\n"
           "boundary_conditions:\n  - {region: xmin, type: fixed}\n"
           "  - {region: xmax, type: traction, value: [0, 0, -1.25e4], amplitude: step}\n"
           "amplitudes: {step: {type: table, points: [[0, 0], [0.02, 1], [100, 1]]}}\n"
           "time: {integrator: newmark, mass: consistent, dt: 0.01, end_time: 1.6",
       0.01},
      {"soft_drop",
       "mesh: {box: {lower: [0, 0, 0], upper: [0.2, 0.2, 0.2], " + block +
           ", element: tet10}}\n"
           "materials: [{region: all, model: neo_hookean, density: 1000, youngs_modulus: 1.0e4, "
           "poissons_ratio: 0.45}]\n"
           "boundary_conditions: [{region: zmax, type: fixed}]\n"
           "gravity: [0, 0, -9.81]\n"
           "time: {integrator: newmark, mass: consistent, rayleigh: {mass: 4.0, stiffness: 0}, "
           "dt: 0.01, end_time: 3.5",
       0.01}};
  const char* variants[] = {"default", "iterative", "iterative_cp"};
  for (const Example& e : examples) {
    struct Run {
      Built built;
      State state;
      std::unique_ptr<Integrator> integrator;
      std::vector<double> t;
      std::int64_t newton = 0, krylov = 0;
      std::string note;
    };
    std::vector<std::unique_ptr<Run>> runs;
    for (int v = 0; v < 3; ++v) {
      const std::string yaml = e.yaml + (v == 0 ? "" : ", linear_solver: iterative") +
                               "}\noutput: {every: 0, energy: false}\n";
      auto r = std::make_unique<Run>(Run{build(comm, parse(comm, yaml)), {}, nullptr});
      MechanicalSystem& system = *r->built.model.system;
      system.set_expected_solves(o.quick ? 4 : 160);
      r->state.u = system.create_vector();
      r->state.v = system.create_vector();
      system.apply_constraints(0.0, r->state.u, r->state.v, nullptr);
      r->integrator = configure_scheme("newmark").create();
      r->integrator->initialize(system, r->state);
      runs.push_back(std::move(r));
    }
    for (int s = 0; s < samples; ++s)
      for (int v = 0; v < 3; ++v) {
        Run& r = *runs[v];
        if (v == 2) INERTIA_PETSC(PetscOptionsSetValue(nullptr, "-snes_linesearch_type", "cp"));
        r.t.push_back(timed(comm, [&] {
          for (int k = 0; k < steps; ++k) {
            const StepStats st = r.integrator->step(*r.built.model.system, r.state, e.dt);
            r.newton += st.nonlinear_iterations;
            r.krylov += st.linear_iterations;
          }
        }));
        if (v == 2) INERTIA_PETSC(PetscOptionsClearValue(nullptr, "-snes_linesearch_type"));
        if (r.note.empty()) {
          const auto notes = r.built.model.system->take_solver_notes();
          r.note = notes.empty() ? "(no note)" : notes.front();
        }
      }
    PetscReal norm = 0, difference = 0;
    {
      petsc::Vector d = runs[0]->built.model.system->create_vector();
      INERTIA_PETSC(VecWAXPY(d, -1.0, runs[2]->state.u, runs[0]->state.u));
      INERTIA_PETSC(VecNorm(d, NORM_INFINITY, &difference));
      INERTIA_PETSC(VecNorm(runs[2]->state.u, NORM_INFINITY, &norm));
    }
    const double total = static_cast<double>(samples * steps);
    out.comment(cat("newton_", e.name, ": ", runs[0]->built.model.system->num_global_dofs(),
                    " DOFs, Newmark dt ", e.dt, ", the same ", total,
                    " steps from t = 0 in three "
                    "models, ",
                    samples, " alternating samples of ", steps, " steps; default: ", runs[0]->note,
                    "; iterative: linear_solver iterative (energy line search); "
                    "iterative_cp: the previous default (critical-point line search, CG + GAMG); "
                    "difference: max |u_default - u_iterative_cp| / max |u| at the end"));
    for (int v = 0; v < 3; ++v) {
      const Run& r = *runs[v];
      out.value(cat("newton_", e.name, "_", variants[v], "_step_seconds"), median(r.t) / steps,
                "s");
      out.value(cat("newton_", e.name, "_", variants[v], "_newton_per_step"),
                static_cast<double>(r.newton) / total, "iterations");
      out.value(
          cat("newton_", e.name, "_", variants[v], "_krylov_per_newton"),
          static_cast<double>(r.krylov) / static_cast<double>(std::max<std::int64_t>(1, r.newton)),
          "iterations");
    }
    out.value(cat("newton_", e.name, "_previous_over_default"),
              median(runs[2]->t) / median(runs[0]->t), "x");
    out.value(cat("newton_", e.name, "_difference"), norm > 0 ? difference / norm : 0.0, "ratio");
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark: a table of sections, run in order

/// What the sections share: the run's settings, the output, and the figures that later sections
/// compare against (set by the section that measures them).
struct Bench {
  MPI_Comm comm;
  const Options& o;
  Report& out;
  int ranks = 1;
  int samples_long = 1;  ///< samples of the implicit steps and static solves
  std::string primary;   ///< the element of every figure (the other ones: setup and assembly)
  double dofs = 0;       ///< of the box
  double stable_dt = 0;  ///< the explicit stable step (lumped mass), s
  double omega_max = 0;  ///< the highest frequency's estimate (rad/s), as the driver makes it
  double explicit_assembled = 0;  ///< seconds per explicit step with the assembled K
  double u_norm_assembled = 0;    ///< ||u|| after those steps
  double matmult_aij_bandwidth = 0;
  double matmult_baij = NAN;  ///< seconds per BAIJ(3) product with K: the unit of the AMG lines
};

/// The problem, the ranks and how the times are taken (comment lines, ranks, dofs).
void header(Bench& b) {
  const Options& o = b.o;
  Report& out = b.out;
  const std::string& primary = b.primary;
  out.comment(cat("inertia-bench ", INERTIA_VERSION, ": unit cube, ", o.cells, "^3 cells, ",
                  static_cast<long long>(b.dofs), " DOFs, ", b.ranks,
                  b.ranks == 1 ? " rank" : " ranks", "; elements: ", primary,
                  o.elements.size() > 1 ? " (all figures), " : "",
                  o.elements.size() > 1 ? o.elements[1] + " (setup and assembly)" : "",
                  primary == "hex8" ? cat("; hex8 formulation ", o.formulation) : std::string()));
  out.comment("linear elastic steel (E 2e11, nu 0.3, rho 7800), xmin fixed, traction on xmax");
  out.comment(cat("times: wall time of the slowest rank after a barrier; median of ", o.repeat,
                  " samples (", b.samples_long,
                  " for implicit steps and static solves; setups once); short operations are "
                  "batched per sample and reported per call"));
  out.integer("ranks", b.ranks, "ranks");
  out.integer("dofs", static_cast<long long>(b.dofs), "DOFs");
}

/// y = K x with K as AIJ and as BAIJ(3) (the one create_matrix made and a copy in the other
/// format): times, bytes per nonzero, bandwidths; sets the figures later sections compare with.
void matmult_figures(Bench& b, MechanicalSystem& system, Mat K) {
  const MPI_Comm comm = b.comm;
  Report& out = b.out;
  MatType type;
  INERTIA_PETSC(MatGetType(K, &type));
  PetscInt bs = 1;
  INERTIA_PETSC(MatGetBlockSize(K, &bs));
  petsc::Matrix aij_copy, baij_copy;
  Mat aij = K, baij = K;
  double t_convert = 0;
  const bool k_is_baij = std::strstr(type, "baij") != nullptr;
  if (k_is_baij) {
    t_convert = timed(
        comm, [&] { INERTIA_PETSC(MatConvert(K, MATAIJ, MAT_INITIAL_MATRIX, aij_copy.out())); });
    aij = aij_copy;
  } else {
    t_convert = timed(comm, [&] {
      baij_copy = system.assembler().create_matrix(Assembler::MatrixFormat::blocked);
      system.assemble_stiffness(baij_copy);
    });
    baij = baij_copy;
  }
  const double convert_error = product_difference(comm, aij, baij);
  const MatMultResult ra = matmult(comm, aij, b.o);
  const MatMultResult rb = matmult(comm, baij, b.o);
  PetscInt bbs = 1;
  INERTIA_PETSC(MatGetBlockSize(baij, &bbs));
  b.matmult_aij_bandwidth = ra.bytes / ra.seconds / 1e9;
  b.matmult_baij = rb.seconds;
  out.comment(cat(
      "matmult: y = K x, K from create_matrix (", type, ", block size ", bs, ") and the same K as ",
      k_is_baij ? "AIJ (MatConvert" : "BAIJ (create_matrix(blocked) + assembly", ", block size ",
      bbs, ", ", t_convert, " s, relative difference of the products ", convert_error, "); ",
      static_cast<long long>(ra.nonzeros), " nonzeros, ", ra.nonzeros / b.dofs,
      " per row; bandwidth = bytes / time, bytes = 8 per nonzero + ", sizeof(PetscInt),
      " per nonzero (AIJ) or per block (BAIJ) + row pointers + "
      "x read and y written once"));
  out.value("matmult_aij_seconds", ra.seconds, "s");
  out.value("matmult_aij_bytes_per_nonzero", ra.bytes / ra.nonzeros, "B");
  out.value("matmult_aij_bandwidth", b.matmult_aij_bandwidth, "GB/s");
  out.value("matmult_baij_seconds", rb.seconds, "s");
  out.value("matmult_baij_bytes_per_nonzero", rb.bytes / rb.nonzeros, "B");
  out.value("matmult_baij_bandwidth", rb.bytes / rb.seconds / 1e9, "GB/s");
  out.value("matmult_baij_speedup_vs_aij", ra.seconds / rb.seconds, "x");
}

/// Stiffness and lumped-mass assembly on a matrix of our own (freed before the time steps),
/// then the products with it (matmult_figures).
void assembly_figures(Bench& b, MechanicalSystem& system, std::int64_t cells) {
  double t_assembly = 0;
  petsc::Matrix K = assemble(b.comm, system, b.o, t_assembly);
  b.out.comment(
      cat("assembly: MechanicalSystem::assemble_stiffness (the linear terms' element kernels + "
          "copy into the matrix's CSR arrays) into an AIJ matrix from Assembler::create_matrix, ",
          cells, " cells, after one warm-up call"));
  report_assembly(b.out, b.primary, t_assembly, cells, b.ranks);
  {
    petsc::Vector m = system.create_vector();
    const double t = per_call(b.comm, b.o.repeat, 0.0, [&] { system.lumped_masses(m); });
    b.out.value(cat("assembly_", b.primary, "_lumped_mass_seconds"), t, "s");
  }
  matmult_figures(b, system, K);
}

/// The explicit step with the assembled operator: the stable step's estimate (as dt: auto makes
/// it), then central-difference steps at 0.9 of it against products with K.
void explicit_step_figures(Bench& b, MechanicalSystem& system, double heap_before) {
  Report& out = b.out;
  FrequencyEstimate f;
  const double t_freq = timed(b.comm, [&] { f = estimate_highest_frequency(system); });
  b.omega_max = f.power;
  b.stable_dt = configure_scheme("central_difference").stability_limit() / f.power;
  const double dt = 0.9 * b.stable_dt;  // what the driver's dt: auto does
  const ExplicitResult r = explicit_steps(b.comm, system, dt, b.o, heap_before);
  b.explicit_assembled = r.step_seconds;
  b.u_norm_assembled = r.u_norm;
  out.comment(cat("explicit: central_difference, lumped mass, dt = 0.9 x stable step = ", dt,
                  " s (dt: auto's estimate, ", f.iterations,
                  " power iterations), from rest under the load; ", b.o.steps,
                  " steps per sample after one warm-up step; the system's K is ", r.operator_type,
                  "; explicit_operator_product: MechanicalSystem::"
                  "mult_stiffness with that K"));
  out.value("explicit_stable_dt", b.stable_dt, "s");
  out.value("explicit_stable_dt_estimate_seconds", t_freq, "s");
  out.value("explicit_operator_product_seconds", r.product_seconds, "s");
  out.value("explicit_step_assembled_seconds", r.step_seconds, "s");
  out.value("explicit_step_assembled_ns_per_dof", 1e9 * r.step_seconds / b.dofs, "ns/DOF");
  out.value("explicit_step_over_matmult", r.step_seconds / r.product_seconds, "x");
  out.comment(
      "explicit_*_memory_per_dof: heap (mallinfo2) the explicit run holds after its steps: "
      "the model, the integrator's and the timing's vectors, summed over ranks (the issue's "
      "figure from memory.csv is the peak resident set, with MPI's and PETSc's own share)");
  out.value("explicit_assembled_memory_per_dof", r.heap_bytes / b.dofs, "B/DOF");
}

/// Model A: central difference, lumped mass. Setup, assembly, MatMult, explicit step.
void explicit_assembled(Bench& b) {
  Report& out = b.out;
  out.comment(
      cat("setup: build_model (mesh, partition, distribution, MechanicalSystem: K, "
          "lumped mass, loads) of the ",
          b.primary,
          " central-difference lumped-mass case, timed once; setup_<phase>_seconds: "
          "the phases build_model reports (a box generated on every rank has no "
          "separate partition and distribute phases); memory_per_dof: heap the model "
          "holds (mallinfo2), summed over ranks"));
  const CaseFile c = parse(b.comm, case_text(b.primary, b.o.cells, "central_difference", "lumped",
                                             "auto", "", b.o.formulation));
  const double heap_before = heap_in_use_bytes();
  Built built = build(b.comm, c);
  const double peak_setup = sum_over_ranks(b.comm, peak_rss_bytes());
  MechanicalSystem& system = *built.model.system;
  out.integer("cells", built.cells, "cells");
  report_setup(out, "setup_", built, b.dofs);
  out.value("setup_peak_memory_per_dof", peak_setup / b.dofs, "B/DOF");
  assembly_figures(b, system, built.cells);
  explicit_step_figures(b, system, heap_before);
}

/// Model B: the same case with time.operator: matrix_free (its own model), same dt and steps.
void explicit_matrix_free(Bench& b) {
  Report& out = b.out;
  std::string why;
  const auto r = explicit_case(b.comm,
                               case_text(b.primary, b.o.cells, "central_difference", "lumped",
                                         "auto", "  operator: matrix_free\n", b.o.formulation),
                               0.9 * b.stable_dt, b.o, why);
  if (!r) {
    out.comment(cat("explicit_step_matrix_free: not available (", why, ")"));
    return;
  }
  out.comment(
      cat("explicit matrix-free: the same case with time.operator: matrix_free (own "
          "model; operator ",
          r->operator_type,
          "), same dt and steps; "
          "matmult_matrix_free: one product K x, bandwidth from the kernel's own byte "
          "count (element data + indices + vectors)"));
  out.value("setup_matrix_free_seconds", r->setup_seconds, "s");
  out.value("matmult_matrix_free_seconds", r->product_seconds, "s");
  if (r->product_bytes > 0)
    out.value("matmult_matrix_free_bandwidth", r->product_bytes / r->product_seconds / 1e9, "GB/s");
  out.value("explicit_step_matrix_free_seconds", r->step_seconds, "s");
  out.value("explicit_step_matrix_free_ns_per_dof", 1e9 * r->step_seconds / b.dofs, "ns/DOF");
  out.value("explicit_matrix_free_memory_per_dof", r->heap_bytes / b.dofs, "B/DOF");
  out.value("explicit_step_matrix_free_speedup_vs_assembled",
            b.explicit_assembled / r->step_seconds, "x");
  out.comment(
      "explicit_matrix_free_relative_difference: | ||u_mf|| - ||u_assembled|| | / "
      "||u_assembled|| after the same steps from the same state (a sanity check)");
  out.value("explicit_matrix_free_relative_difference",
            std::abs(r->u_norm - b.u_norm_assembled) / b.u_norm_assembled, "ratio");
}

/// A box of `cells`^3 hex8 in `formulation`, model `model` (J2 plasticity with sigma_y 200 MPa
/// and linear hardening if `plastic`), free, with central difference at step dt, its forces
/// matrix-free where the model is linear-elastic.
std::string nonlinear_case_text(int cells, const std::string& model, const std::string& formulation,
                                bool plastic, double dt) {
  std::ostringstream y;
  y << "mesh:\n"
    << "  box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [" << cells << ", " << cells << ", "
    << cells << "], element: hex8}\n"
    << "materials:\n"
    << "  - {region: all, model: " << model
    << ", density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3"
    << (formulation != "full" ? ", formulation: " + formulation : "")
    << (plastic ? ", plasticity: {yield_stress: 2.0e8, isotropic_hardening: 1.0e9}" : "") << "}\n"
    << "time:\n"
    << "  integrator: central_difference\n"
    << "  mass: lumped\n"
    << "  dt: " << dt << "\n"
    << "  steps: 1000\n"
    << (model == "linear_elastic" && !plastic ? "  operator: matrix_free\n" : "") << "output:\n"
    << "  every: 0\n"
    << "  energy: false\n";
  return y.str();
}

/// Seconds per explicit step (the step and its commit, as the time loop takes them) of a case of
/// nonlinear_case_text or shell_case_text, past yield: from u = 2e-3 (x - 1/2) e_x (twice the
/// yield strain; the translations only) with
/// v = 100 (x - 1/2) e_x / s, every point flowing at every step; one warm-up step, then `repeat`
/// samples of `steps` steps (median). NaN if the case is refused.
double nonlinear_step_seconds(MPI_Comm comm, const std::string& yaml, double dt, const Options& o) {
  CaseFile c;
  Built b;
  try {
    c = parse(comm, yaml);
    b = build(comm, c);
  } catch (const InputError&) {
    return std::nan("");
  }
  MechanicalSystem& system = *b.model.system;
  State state;
  state.u = system.create_vector();
  state.v = system.create_vector();
  {
    const LocalMesh& mesh = system.assembler().mesh();
    std::vector<char> rotation(static_cast<std::size_t>(mesh.num_local_nodes()), 0);
    for (std::int64_t c = 0; c < mesh.num_cells(); ++c)  // shells: the rotation nodes stay
      if (const int k = rotation_nodes_from(mesh.cell_types[c]); k > 0)
        for (const auto n : mesh.nodes_of(c).subspan(static_cast<std::size_t>(k)))
          rotation[static_cast<std::size_t>(n)] = 1;
    petsc::Array u(state.u), v(state.v);
    for (std::int32_t n = 0; n < mesh.num_owned; ++n) {
      if (rotation[static_cast<std::size_t>(n)]) continue;
      const double x = mesh.coords[3 * n] - 0.5;
      u[3 * n] = 2e-3 * x;
      v[3 * n] = 100 * x;
    }
  }
  auto integrator = configure_scheme("central_difference").create();
  integrator->initialize(system, state);
  auto step = [&] {
    integrator->step(system, state, dt);
    system.commit_step(state.u);
  };
  step();  // warm-up
  std::vector<double> t;
  for (int s = 0; s < o.repeat; ++s)
    t.push_back(timed(comm,
                      [&] {
                        for (int k = 0; k < o.steps; ++k) step();
                      }) /
                o.steps);
  return median(t);
}

/// The nonlinear explicit step against the elastic matrix-free one, on the same mesh and ranks:
/// J2 at small strain (full, bbar, reduced) and at finite strain (model hencky: full, reduced,
/// fbar), each a model of its own.
void explicit_nonlinear(Bench& b) {
  Report& out = b.out;
  const double h = 1.0 / b.o.cells, E = 2e11, nu = 0.3, rho = 7800;
  const double c = std::sqrt(E * (1 - nu) / ((1 + nu) * (1 - 2 * nu)) / rho);
  const double dt = 0.3 * h / c;
  out.comment(cat("explicit_nonlinear: a free box of ", b.o.cells,
                  "^3 hex8, central difference, dt ", dt,
                  " s; J2 (sigma_y 200 MPa, H 1 GPa) past yield and flowing at every step; "
                  "each step with its commit; elastic: time.operator matrix_free"));
  struct Line {
    const char* name;
    const char* model;
    const char* formulation;
    bool plastic;
    const char* over;  ///< the line it is compared with
  };
  const Line lines[] = {
      {"elastic_full", "linear_elastic", "full", false, nullptr},
      {"elastic_reduced", "linear_elastic", "reduced", false, nullptr},
      {"j2_full", "linear_elastic", "full", true, "elastic_full"},
      {"j2_bbar", "linear_elastic", "bbar", true, "elastic_full"},
      {"j2_reduced", "linear_elastic", "reduced", true, "elastic_reduced"},
      {"hencky_j2_full", "hencky", "full", true, "j2_full"},
      {"hencky_j2_reduced", "hencky", "reduced", true, "j2_reduced"},
      {"hencky_j2_fbar", "hencky", "fbar", true, "j2_full"},
  };
  std::vector<std::pair<std::string, double>> seconds;
  for (const Line& l : lines) {
    const double t = nonlinear_step_seconds(
        b.comm, nonlinear_case_text(b.o.cells, l.model, l.formulation, l.plastic, dt), dt, b.o);
    seconds.emplace_back(l.name, t);
    out.value(cat("explicit_step_", l.name, "_seconds"), t, "s");
    out.value(cat("explicit_step_", l.name, "_ns_per_cell"), 1e9 * t / std::pow(b.o.cells, 3),
              "ns/cell");
    if (l.plastic) {
      // The kernel's own count (J2Batches): bytes and flops per cell, what the step reaches.
      const std::string f = l.formulation;
      const fe::Formulation formulation = f == "reduced" ? fe::Formulation::reduced
                                          : f == "bbar"  ? fe::Formulation::bbar
                                          : f == "fbar"  ? fe::Formulation::fbar
                                                         : fe::Formulation::full;
      const double cells = std::pow(b.o.cells, 3);
      const bool finite = std::string_view(l.model) == "hencky";
      out.value(cat("explicit_step_", l.name, "_bytes_per_cell"),
                J2Batches::bytes_per_cell(formulation), "B");
      out.value(cat("explicit_step_", l.name, "_flops_per_cell"),
                J2Batches::flops_per_cell(formulation, finite), "flop");
      out.value(cat("explicit_step_", l.name, "_kernel_bandwidth"),
                J2Batches::bytes_per_cell(formulation) * cells / t / 1e9, "GB/s");
      out.value(cat("explicit_step_", l.name, "_kernel_gflops"),
                J2Batches::flops_per_cell(formulation, finite) * cells / t / 1e9, "GFlop/s");
    }
    if (!l.over) continue;
    for (const auto& [name, base] : seconds)
      if (name == l.over) out.value(cat("explicit_step_", l.name, "_over_", name), t / base, "x");
  }
}

/// A flat unit-square plate of n x n quad4 cells in the plane z = 0 (physical groups "plate" and
/// its boundary "edges") as a Gmsh 2.2 ASCII file.
void write_plate_mesh(const std::filesystem::path& file, int n) {
  std::ofstream m(file);
  m << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n1 2 \"edges\"\n"
    << "2 1 \"plate\"\n$EndPhysicalNames\n$Nodes\n"
    << (n + 1) * (n + 1) << "\n";
  auto id = [&](int i, int j) { return 1 + i + (n + 1) * j; };
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      m << id(i, j) << " " << static_cast<double>(i) / n << " " << static_cast<double>(j) / n
        << " 0\n";
  m << "$EndNodes\n$Elements\n" << n * n + 4 * n << "\n";
  int e = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      m << ++e << " 3 2 1 1 " << id(i, j) << " " << id(i + 1, j) << " " << id(i + 1, j + 1) << " "
        << id(i, j + 1) << "\n";
  for (int k = 0; k < n; ++k)
    for (const auto& [a, b] :
         {std::pair{id(k, 0), id(k + 1, 0)}, std::pair{id(k, n), id(k + 1, n)},
          std::pair{id(0, k), id(0, k + 1)}, std::pair{id(n, k), id(n, k + 1)}})
      m << ++e << " 1 2 2 2 " << a << " " << b << "\n";
  m << "$EndElements\n";
  INERTIA_CHECK(m.good(), InputError, "inertia-bench: cannot write ", file.string());
}

/// The plate of write_plate_mesh as shells (thickness 0.01, steel; `shell`: the shells' line
/// after the region, J2 with sigma_y 200 MPa and linear hardening if `plastic`), its edges free,
/// central difference at step dt, lumped mass.
std::string shell_case_text(const std::filesystem::path& mesh, const std::string& shell,
                            bool plastic, double dt) {
  std::ostringstream y;
  y << "mesh: {file: " << mesh.string() << "}\n"
    << "materials:\n"
    << "  - {region: plate, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3"
    << (plastic ? ", plasticity: {yield_stress: 2.0e8, isotropic_hardening: 1.0e9}" : "") << "}\n"
    << "shells:\n"
    << "  - {region: plate, thickness: 0.01" << shell << "}\n"
    << "time: {integrator: central_difference, mass: lumped, dt: " << dt << ", steps: 1000}\n"
    << "output: {every: 0, energy: false}\n";
  return y.str();
}

/// The explicit step of shells (a free plate of (4 N)^2 quad4: as many cells as a box of N^3
/// hex8 has per face x 16), stretched past yield as explicit_nonlinear's boxes: Belytschko-Tsay
/// (elastic and J2 at 5 points through the thickness) and the corotational MITC4 (elastic).
void explicit_shells(Bench& b) {
  Report& out = b.out;
  const int n = 4 * b.o.cells;
  const double h = 1.0 / n, E = 2e11, nu = 0.3, rho = 7800;
  const double dt = 0.3 * h / std::sqrt(E / ((1 - nu * nu) * rho));
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / cat("inertia-bench-shells-", [&] {
        int pid = static_cast<int>(getpid());
        INERTIA_MPI(MPI_Bcast(&pid, 1, MPI_INT, 0, b.comm));
        return pid;
      }());
  const std::filesystem::path mesh = dir / "plate.msh";
  if (rank_of(b.comm) == 0) {
    std::filesystem::create_directories(dir);
    write_plate_mesh(mesh, n);
  }
  INERTIA_MPI(MPI_Barrier(b.comm));
  out.comment(cat("explicit_shells: a free plate of ", n, " x ", n,
                  " quad4 shells (t 0.01, side 1), central difference, lumped mass, dt ", dt,
                  " s; from a membrane stretch of twice the yield strain, J2 (sigma_y 200 MPa, H "
                  "1 GPa, 5 Simpson points) flowing at every step; each step with its commit"));
  struct Line {
    const char* name;
    const char* shell;
    bool plastic;
    const char* over;
  };
  const Line lines[] = {
      {"shell_bt_elastic", ", formulation: belytschko_tsay", false, nullptr},
      {"shell_bt_j2", ", formulation: belytschko_tsay", true, "shell_bt_elastic"},
      {"shell_mitc4_elastic", ", kinematics: corotational", false, "shell_bt_elastic"},
  };
  std::vector<std::pair<std::string, double>> seconds;
  for (const Line& l : lines) {
    const double t =
        nonlinear_step_seconds(b.comm, shell_case_text(mesh, l.shell, l.plastic, dt), dt, b.o);
    seconds.emplace_back(l.name, t);
    out.value(cat("explicit_step_", l.name, "_seconds"), t, "s");
    out.value(cat("explicit_step_", l.name, "_ns_per_cell"), 1e9 * t / (double(n) * n), "ns/cell");
    if (!l.over) continue;
    for (const auto& [name, base] : seconds)
      if (name == l.over) out.value(cat("explicit_step_", l.name, "_over_", name), t / base, "x");
  }
  INERTIA_MPI(MPI_Barrier(b.comm));
  if (rank_of(b.comm) == 0) std::filesystem::remove_all(dir);
}

/// Newmark steps on a built model from rest: the initialisation, the first step (operator fill
/// and GAMG set-up) apart, then samples of steps; the heap held after the first step.
void newmark_step_figures(Bench& b, MechanicalSystem& system, double dt, double heap_before) {
  const MPI_Comm comm = b.comm;
  const Options& o = b.o;
  Report& out = b.out;
  State state;
  state.u = system.create_vector();
  state.v = system.create_vector();
  system.apply_constraints(state.time, state.u, state.v, nullptr);
  auto integrator = configure_scheme("newmark").create();
  StepStats init, first;
  const double t_init = timed(comm, [&] { init = integrator->initialize(system, state); });
  double t_first = 0;
  const double pc_setup = event_time(comm, "PCSetUp", [&] {
    t_first = timed(comm, [&] { first = integrator->step(system, state, dt); });
  });
  const double run_memory = sum_over_ranks(comm, heap_in_use_bytes() - heap_before);
  std::vector<double> t;
  std::int64_t iterations = 0;
  for (int s = 0; s < b.samples_long; ++s)
    t.push_back(timed(comm,
                      [&] {
                        for (int k = 0; k < o.implicit_steps; ++k)
                          iterations += integrator->step(system, state, dt).linear_iterations;
                      }) /
                o.implicit_steps);
  out.value("implicit_newmark_initialize_seconds", t_init, "s");
  out.value("implicit_newmark_first_step_seconds", t_first, "s");
  out.value("implicit_newmark_pc_setup_seconds", pc_setup, "s");
  out.integer("implicit_newmark_first_step_iterations", first.linear_iterations, "iterations");
  out.value("implicit_newmark_step_seconds", median(t), "s");
  out.value("implicit_newmark_iterations_per_step",
            static_cast<double>(iterations) / (b.samples_long * o.implicit_steps), "iterations");
  out.value("implicit_step_over_explicit_step", median(t) / b.explicit_assembled, "x");
  out.comment(
      "implicit_newmark_*_over_matmult: the same times in BAIJ(3) products with K "
      "(matmult_baij_seconds; the operator m M + k K has K's pattern)");
  out.value("implicit_newmark_pc_setup_over_matmult", pc_setup / b.matmult_baij, "x");
  out.value("implicit_newmark_step_over_matmult", median(t) / b.matmult_baij, "x");
  out.comment(
      "implicit_newmark_memory_per_dof: heap held after the first step (model, "
      "integrator, operator, GAMG; mallinfo2), summed over ranks");
  out.value("implicit_newmark_memory_per_dof", run_memory / b.dofs, "B/DOF");
}

/// Model C: Newmark, consistent mass, at 10 x the explicit stable step; CG + GAMG whatever the
/// automatic choice would be (the choice has its own lines, "implicit_choice_*").
void implicit_newmark(Bench& b) {
  const Options& o = b.o;
  const double dt = 10 * b.stable_dt;
  b.out.comment(cat(
      "implicit: newmark (beta 1/4, gamma 1/2), consistent mass, dt = 10 x the "
      "explicit stable step (lumped mass) = ",
      dt, " s, from rest under the load; ", o.implicit_steps, " steps per sample, ", b.samples_long,
      " samples; MechanicalSystem::solve (CG on a BAIJ copy + GAMG, plain aggregation at this "
      "step, rtol 1e-10 unless -ksp_rtol is "
      "given); the first step (operator fill + GAMG setup) is reported apart; "
      "pc_setup: time in PETSc's PCSetUp event during it (max over ranks)"));
  const CaseFile c = parse(b.comm, case_text(b.primary, o.cells, "newmark", "consistent", cat(dt),
                                             "  linear_solver: iterative\n", o.formulation));
  const double heap_before = heap_in_use_bytes();
  Built built = build(b.comm, c);
  MechanicalSystem& system = *built.model.system;
  system.set_highest_frequency(b.omega_max);  // what the driver does: the solver choice uses it
  b.out.value("setup_newmark_consistent_seconds", built.seconds, "s");
  {
    petsc::Matrix M = system.assembler().create_matrix();
    const double t = per_call(b.comm, o.repeat, 0.0, [&] { system.assemble_consistent_mass(M); });
    b.out.value(cat("assembly_", b.primary, "_consistent_mass_seconds"), t, "s");
  }
  newmark_step_figures(b, system, dt, heap_before);
}

/// Model D: the static solve K u = f, CG + GAMG with the rigid-body near-null space, on a model
/// of its own (one GAMG hierarchy at a time in memory), lumped mass (no M needed).
void static_gamg(Bench& b) {
  const MPI_Comm comm = b.comm;
  Report& out = b.out;
  if (b.o.skip_static) {
    out.comment("static: skipped (--skip-static)");
    return;
  }
  // MechanicalSystem::solve's default rtol is 1e-10; the reference figures are at 1e-8.
  PetscBool user_rtol = PETSC_FALSE;
  INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, "-ksp_rtol", &user_rtol));
  if (!user_rtol) INERTIA_PETSC(PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-8"));
  const double heap_before = heap_in_use_bytes();
  const CaseFile c = parse(comm, case_text(b.primary, b.o.cells, "static", "lumped", "1",
                                           "  linear_solver: iterative\n", b.o.formulation));
  Built built = build(comm, c);
  MechanicalSystem& system = *built.model.system;
  petsc::Vector f = system.create_vector(), u = system.create_vector();
  system.external_force(1.0, f);
  SolveReport first, again;
  double t_first = 0;
  const double pc_setup = event_time(comm, "PCSetUp", [&] {
    t_first = timed(comm, [&] { first = system.solve(0.0, 1.0, f, u); });
  });
  if (!user_rtol) INERTIA_PETSC(PetscOptionsClearValue(nullptr, "-ksp_rtol"));
  const double run_memory = sum_over_ranks(comm, heap_in_use_bytes() - heap_before);
  std::vector<double> t;
  for (int s = 0; s < b.samples_long; ++s) {
    INERTIA_PETSC(VecZeroEntries(u));
    t.push_back(timed(comm, [&] { again = system.solve(0.0, 1.0, f, u); }));
  }
  const double t_solve = median(t);
  out.comment(
      cat("static: MechanicalSystem::solve(0, 1, f, u) on a model of its own "
          "(integrator static, lumped mass; setup ",
          built.seconds,
          " s): CG + "
          "GAMG, rigid-body near-null space, rtol ",
          user_rtol ? "from the command line" : "1e-8",
          ", zero initial guess; first_solve: the first call (operator fill + GAMG "
          "setup + solve); setup: time in PETSc's PCSetUp event during it (max over "
          "ranks); solve: median of ",
          b.samples_long, " repeated solves with the same preconditioner"));
  out.value("static_gamg_first_solve_seconds", t_first, "s");
  out.value("static_gamg_setup_seconds", std::isnan(pc_setup) ? t_first - t_solve : pc_setup, "s");
  out.value("static_gamg_solve_seconds", t_solve, "s");
  out.integer("static_gamg_iterations", again.iterations, "iterations");
  out.value("static_gamg_seconds_per_iteration",
            t_solve / static_cast<double>(std::max<PetscInt>(1, again.iterations)), "s");
  out.value("static_gamg_setup_over_matmult",
            (std::isnan(pc_setup) ? t_first - t_solve : pc_setup) / b.matmult_baij, "x");
  out.value("static_gamg_solve_over_matmult", t_solve / b.matmult_baij, "x");
  out.value("static_memory_per_dof", run_memory / b.dofs, "B/DOF");
}

/// The other elements (--element both: tet4) on the same grid: setup and stiffness assembly.
void other_elements(Bench& b) {
  for (std::size_t e = 1; e < b.o.elements.size(); ++e) {
    const std::string& element = b.o.elements[e];
    const CaseFile c =
        parse(b.comm, case_text(element, b.o.cells, "central_difference", "lumped", "auto"));
    Built built = build(b.comm, c);
    b.out.comment(cat(element, ": the same grid, ", built.cells,
                      " cells; setup (as above) and stiffness assembly only"));
    b.out.integer(cat("cells_", element), built.cells, "cells");
    report_setup(b.out, cat("setup_", element, "_"), built, b.dofs);
    double t_assembly = 0;
    petsc::Matrix K = assemble(b.comm, *built.model.system, b.o, t_assembly);
    report_assembly(b.out, element, t_assembly, built.cells, b.ranks);
  }
}

/// The peak resident set over every section so far (before STREAM, whose arrays would dominate
/// at small sizes).
void peak_memory(Bench& b) {
  const double peak = sum_over_ranks(b.comm, peak_rss_bytes());
  b.out.comment(
      "peak_memory: getrusage ru_maxrss summed over ranks, over every section above "
      "(one model at a time; transients included); setup_peak_memory_per_dof: the same "
      "right after the first setup");
  b.out.value("peak_memory_per_dof", peak / b.dofs, "B/DOF");
  b.out.value("peak_memory", peak / 1e9, "GB");
}

/// STREAM triad and copy, and the AIJ product's bandwidth as a fraction of the triad's.
void stream_figures(Bench& b) {
  const int samples = std::max(b.o.repeat, 10);
  const StreamResult s = stream(b.comm, b.o.stream_size, samples);
  b.out.comment(cat("stream: a = b + 3 c (triad, 24 B per entry) and a = b (copy, 16 B), ",
                    b.o.stream_size, " doubles per array and rank, all ranks at once, median of ",
                    samples, "; reference (README): triad 13.8 / 26.1 GB/s at 1 / 2 ranks"));
  b.out.value("stream_triad_bandwidth", s.triad, "GB/s");
  b.out.value("stream_copy_bandwidth", s.copy, "GB/s");
  b.out.value("matmult_aij_fraction_of_triad", b.matmult_aij_bandwidth / s.triad, "ratio");
}

/// One line of the benchmark: its name, what it measures, and the function that measures it
/// and prints its lines.
struct Section {
  const char* name;
  const char* measures;
  void (*run)(Bench&);
};

/// The benchmark, in the order its lines are printed. A section may use the figures of the
/// sections above it (Bench's members).
const Section sections[] = {
    {"header", "the problem, the ranks, how times are taken", header},
    {"explicit_assembled",
     "model A (central difference, lumped mass): setup and its phases, stiffness and lumped-mass "
     "assembly, MatMult (AIJ, BAIJ(3)), the stable step's estimate, explicit steps",
     explicit_assembled},
    {"explicit_matrix_free", "model B: the explicit step with time.operator: matrix_free",
     explicit_matrix_free},
    {"explicit_nonlinear",
     "the explicit step of J2 and hencky + J2 boxes past yield against the elastic matrix-free one",
     explicit_nonlinear},
    {"explicit_shells",
     "the explicit step of Belytschko-Tsay (elastic, J2) and corotational MITC4 shells on a plate",
     explicit_shells},
    {"implicit_newmark",
     "model C (Newmark, consistent mass, CG + GAMG): consistent-mass assembly, first step, steps",
     implicit_newmark},
    {"static_gamg", "model D: the static solve K u = f with CG + GAMG (setup, solve, iterations)",
     static_gamg},
    {"implicit_choice", "time.linear_solver auto against direct and iterative forced (tet10)",
     [](Bench& b) { implicit_choice(b.comm, b.o, b.out); }},
    {"products", "products per implicit step of every implicit scheme, with the energy balance",
     [](Bench& b) { implicit_products(b.comm, b.o, b.out); }},
    {"newton", "the two Newton examples: the default against the previous one, alternating",
     [](Bench& b) { newton_examples(b.comm, b.o, b.out); }},
    {"other_elements", "setup and stiffness assembly of the other elements (tet4)", other_elements},
    {"peak_memory", "peak resident set per DOF over the sections above", peak_memory},
    {"stream", "STREAM triad and copy bandwidth", stream_figures},
};

int bench(const Options& o) {
  const MPI_Comm comm = PETSC_COMM_WORLD;
  Report out(comm);
  // Event logging, for the time inside PCSetUp (a few hundred ns per logged call).
  INERTIA_PETSC(PetscLogDefaultBegin());
  INERTIA_PETSC(KSPInitializePackage());
  Bench b{.comm = comm, .o = o, .out = out};
  b.ranks = size_of(comm);
  b.samples_long = std::min(o.repeat, 3);
  b.primary = o.elements.front();
  b.dofs = 3 * std::pow(o.cells + 1.0, 3);
  for (const Section& s : sections)
    if (o.only.empty() || o.only == s.name || std::string_view(s.name) == "header") s.run(b);
  out.integer("bench_complete", 1, "flag");
  return 0;
}

}  // namespace
}  // namespace inertia

int main(int argc, char** argv) {
  using namespace inertia;
  Options o;
  bool cells_given = false, repeat_given = false, steps_given = false, isteps_given = false,
       stream_given = false;
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
      o.stream_size = positive(next("a number of doubles")), stream_given = true;
    } else if (a == "--element") {
      const std::string e = next("hex8, tet4 or both");
      if (e == "both")
        o.elements = {"hex8", "tet4"};
      else if (e == "hex8" || e == "tet4")
        o.elements = {e};
      else {
        std::cerr << "inertia-bench: error: --element: expected hex8, tet4 or both, got '" << e
                  << "'\n";
        return 1;
      }
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--skip-static") {
      o.skip_static = true;
    } else if (a == "--only") {
      o.only = next("a section name");
      if (std::none_of(std::begin(sections), std::end(sections),
                       [&](const Section& s) { return o.only == s.name; })) {
        std::cerr << "inertia-bench: error: --only: no section '" << o.only << "'\n";
        return 1;
      }
    } else if (a == "--formulation") {
      o.formulation = next("full, reduced or bbar");
      if (o.formulation != "full" && o.formulation != "reduced" && o.formulation != "bbar") {
        std::cerr << "inertia-bench: error: --formulation: expected full, reduced or bbar, got '"
                  << o.formulation << "'\n";
        return 1;
      }
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
    if (!stream_given) o.stream_size = 1'000'000;
    o.min_sample_seconds = 0.002;
  }
  try {
    Session session(&argc, &argv, o.petsc);
    try {
      return bench(o);
    } catch (const std::exception& e) {
      // Errors may be local to a rank: abort the job rather than hang in a collective.
      std::cerr << "inertia-bench: error (rank " << rank_of(MPI_COMM_WORLD) << "): " << e.what()
                << std::endl;
      MPI_Abort(MPI_COMM_WORLD, 1);
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "inertia-bench: error: " << e.what() << std::endl;
    return 1;
  }
}
