#include "inertia/app/run.hpp"

#include <petscsys.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/system/spectrum.hpp"
#include "inertia/time/step_control.hpp"
#include "inertia/core/text.hpp"
#include "inertia/io/checkpoint.hpp"
#include "inertia/io/vtk_writer.hpp"
#include "inertia/mesh/box.hpp"
#include "inertia/mesh/gmsh_reader.hpp"
#include "inertia/mesh/topology.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

constexpr const char* usage = R"(usage: mpirun -n N inertia CASE.yaml [PETSc options ...]
       mpirun -n N inertia CASE.yaml --restart DIR   continue from the newest checkpoint in DIR
                                      (output.checkpoint; DIR: the checkpoint directory or file)
       inertia --check CASE.yaml      validate the case and the mesh, print a summary, exit
       inertia --help | --version

inertia runs the structural-dynamics case described by CASE.yaml (see README.md and
spec/case-file.md): it reads or generates the mesh, partitions it with METIS, assembles mass
and stiffness into PETSc, integrates in time, and writes ParaView output (.pvd/.pvtu/.vtu),
probes.csv and energy.csv under output.directory.

Options after the case file go to PETSc and override the case file's `petsc:` string, e.g.
  -ksp_type cg -pc_type gamg -ksp_rtol 1e-10 -ksp_monitor -log_view
Exit status: 0 on success, 1 on bad input or a failed solve (one line on stderr).
)";

/// Inserts the case file's `petsc:` options below those of the command line.
void insert_case_options(const std::string& options) {
  std::istringstream in(options);
  std::vector<std::string> tokens{std::istream_iterator<std::string>(in), {}};
  auto is_option = [](const std::string& t) {
    return t.size() > 1 && t[0] == '-' && !std::isdigit(static_cast<unsigned char>(t[1])) &&
           t[1] != '.';
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!is_option(tokens[i])) continue;
    const std::string name = tokens[i];
    std::string value;
    if (i + 1 < tokens.size() && !is_option(tokens[i + 1])) value = tokens[++i];
    PetscBool set = PETSC_FALSE;
    INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &set));
    if (!set)
      INERTIA_PETSC(
          PetscOptionsSetValue(nullptr, name.c_str(), value.empty() ? nullptr : value.c_str()));
  }
}

struct Arguments {
  std::string case_file;
  bool check = false;
  std::optional<std::filesystem::path> restart;  ///< --restart DIR: continue from a checkpoint
  std::vector<std::string> petsc;
};

int run(int argc, char** argv, const Arguments& args) {
  Session session(&argc, &argv, args.petsc);
  const MPI_Comm comm = PETSC_COMM_WORLD;
  std::ostream& log = root_out(comm);
  const int nranks = size_of(comm);
  try {
    Phases phases;
    for (const char* name : run_phases) phases.declare(name);
    const double start = MPI_Wtime();
    CaseFile c;
    run_collectively(comm, [&] { c = load_case(args.case_file); });
    insert_case_options(c.petsc_options);

    Model model = build_model(comm, c, &phases);
    const PartitionSummary& partition = model.partition;
    const std::string& mesh_summary = model.mesh_summary;
    std::unique_ptr<MechanicalSystem>& system = model.system;
    const std::vector<Region>& regions = system->mesh().regions;
    const auto& region_node_counts = system->mesh().region_node_counts;

    log << "inertia " << INERTIA_VERSION << ": case " << c.path.string() << " on " << nranks
        << (nranks == 1 ? " rank\n" : " ranks\n");
    log << "mesh      "
        << (c.mesh_file ? c.mesh_file->lexically_normal().string() : std::string("box generator"))
        << "\n";
    if (rank_of(comm) == 0) log << "          " << mesh_summary << "\n";
    log << "regions  ";
    for (std::size_t r = 0; r < regions.size(); ++r)
      log << " " << regions[r].name << " (" << regions[r].dim << "D, tag " << regions[r].tag
          << ", " << region_node_counts[r] << " nodes)";
    log << "\n";
    for (const auto& m : c.materials)
      log << "material  " << m.region << ": " << m.model << ", density " << m.material.density
          << ", E " << m.material.youngs_modulus << ", nu " << m.material.poissons_ratio << "\n";

    const LocalMesh& lm = system->mesh();
    log << "dofs      " << system->num_global_dofs() << " (" << system->num_constrained_dofs()
        << " constrained), total mass " << system->total_mass() << "\n";
    log << "partition " << partition.method << ": edge cut " << partition.quality.edge_cut
        << ", imbalance " << std::setprecision(4) << partition.quality.imbalance
        << std::setprecision(6);
    if (partition.dropped_cells)
      log << ", " << partition.dropped_cells << " cells without element nodes ignored";
    log << "\n          rank  elements     nodes    ghosts      dofs\n";
    for (int p = 0; p < nranks; ++p)
      log << std::setw(16) << p << std::setw(10) << partition.elements_per_rank[p] << std::setw(10)
          << partition.owned_nodes_per_rank[p] << std::setw(10)
          << partition.ghost_nodes_per_rank[p] << std::setw(10)
          << 3 * partition.owned_nodes_per_rank[p] << "\n";
    // Highest frequency and the stable step of the explicit schemes.
    FrequencyEstimate frequency;
    {
      Phases::Scope scope(phases, "solver setup");
      // Implicit schemes only log it and choose a solver with it: lumped masses suffice.
      frequency = estimate_highest_frequency(*system, 50, !c.explicit_scheme());
    }
    // Linear models: moderate implicit steps (mass-dominated operators) solve with Jacobi-CG.
    if (system->is_linear()) system->set_highest_frequency(frequency.power);
    const double limit = stability_limit(c.integrator, c.params);
    const bool conditionally_stable = limit > 0 && std::isfinite(limit);
    const double stable_dt = frequency.power > 0 ? limit / frequency.power : INFINITY;
    log << "frequency highest ~" << frequency.power << " rad/s (" << frequency.iterations
        << " power iterations; "
        << (frequency.bound > 0 ? cat("lumped-mass Gershgorin bound ", frequency.bound, " rad/s)")
                                : std::string("no Gershgorin bound: matrix-free K)"))
        << "\n";
    log << "          stable step of the explicit schemes: dt <= 2/omega = "
        << (frequency.power > 0 ? 2.0 / frequency.power : INFINITY)
        << " s (symplectic Euler, central difference), 2.83/omega = "
        << (frequency.power > 0 ? 2.0 * std::sqrt(2.0) / frequency.power : INFINITY)
        << " s (rk4)\n";
    if (c.dt_auto) {
      constexpr double safety = 0.9;
      c.dt = safety * stable_dt;
      if (c.steps == 0) {
        const auto steps = static_cast<std::int64_t>(std::ceil(c.end_time / c.dt));
        c.dt = c.end_time / static_cast<double>(steps);
        c.steps = steps;
      }
      log << "          dt: auto = " << c.dt << " s (safety factor " << safety
          << " on the stable step)\n";
    } else if (conditionally_stable && c.dt > stable_dt) {
      const std::string what =
          cat("time.dt: ", c.dt, " s exceeds the stable step of ", c.integrator, ", ", stable_dt,
              " s (omega_max ~ ", frequency.power, " rad/s, omega h = ", c.dt * frequency.power,
              " > ", limit, ")");
      if (!c.allow_unstable)
        throw InputError(cat(c.path.string(), ": ", what,
                             "; use a smaller dt, dt: auto, or time.allow_unstable: true"));
      log << "warning   " << what << "; running anyway (time.allow_unstable: true)\n";
    }
    if (limit == 0)
      log << "warning   " << c.integrator
          << " grows for an undamped oscillation at any time step; it is here for teaching. "
             "Prefer symplectic_euler, central_difference or rk4 (explicit), or an implicit "
             "scheme\n";
    std::int64_t nsteps = c.num_steps();
    log << "time      " << c.integrator;
    if (c.integrator == "newmark")
      log << " (beta " << c.params.newmark.beta << ", gamma " << c.params.newmark.gamma << ")";
    log << ", dt " << c.dt << ", " << nsteps << " steps to t = " << c.dt * static_cast<double>(nsteps)
        << ", " << (c.mass == MassTreatment::lumped ? "lumped" : "consistent") << " mass, rayleigh "
        << c.rayleigh.mass << " / " << c.rayleigh.stiffness;
    if (c.velocity_damping > 0) log << ", velocity damping " << c.velocity_damping;
    if (c.integrator == "euler_implicit")
      log << (c.params.euler_implicit.trapezoidal ? ", trapezoidal" : "")
          << (c.params.euler_implicit.first_order ? ", first order" : "")
          << (c.params.euler_implicit.newton ? ", Newton" : "");
    if (c.integrator == "variational_symplectic")
      log << (c.params.variational_symplectic.explicit_integration ? ", explicit" : ", implicit");
    if (c.integrator == "central_difference" && !c.params.central_difference.half_step_start)
      log << ", SOFA start";
    const bool newton = c.integrator == "newmark" || c.integrator == "static" ||
                        (c.integrator == "euler_implicit" && c.params.euler_implicit.newton) ||
                        (c.integrator == "variational_symplectic" &&
                         !c.params.variational_symplectic.explicit_integration);
    if (!system->is_linear())
      log << (newton ? ", nonlinear: Newton (SNES) every step" : ", nonlinear");
    log << "\n";
    if (args.check) {
      log << "check     OK\n";
      return 0;
    }

    // Output set-up.
    std::filesystem::path out_dir = c.output_directory;
    run_on_root(comm, [&] {
      std::error_code ec;
      std::filesystem::create_directories(out_dir, ec);
      if (!std::filesystem::is_directory(out_dir))
        throw InputError(cat(out_dir.string(), ": cannot create the output directory"));
    });
    log << "output    " << out_dir.string() << "\n";

    State state;
    state.u = system->create_vector();
    state.v = system->create_vector();
    for (const auto& iv : system->spec().initial_velocity) {
      petsc::Array v(state.v);
      if (iv.region < 0) {
        for (PetscInt i = 0; i < v.size(); ++i) v[i] = iv.value[i % 3];
      } else {
        for (auto n : lm.region_owned_nodes[iv.region])
          for (int i = 0; i < 3; ++i) v[3 * n + i] = iv.value[i];
      }
    }
    system->apply_constraints(state.time, state.u, state.v, nullptr);
    auto integrator = create_integrator(c.integrator, c.params);
    StepStats stats;
    {
      Phases::Scope scope(phases, "solver setup");
      stats = integrator->initialize(*system, state);
    }

    // Checkpoints: u, v, the scheme's own state and its solver guesses, in natural node order.
    std::unique_ptr<io::Checkpointer> checkpointer;
    auto checkpoint_vectors = [&] {
      io::NamedVectors vectors{{"displacement", state.u.get()}, {"velocity", state.v.get()}};
      for (const auto& x : integrator->internal_state()) vectors.push_back(x);
      for (const auto& x : integrator->solver_guesses()) vectors.push_back(x);
      return vectors;
    };
    if (c.checkpoint_every > 0 || args.restart)
      checkpointer = std::make_unique<io::Checkpointer>(comm, lm.natural_ids, lm.num_global_nodes,
                                                        state.u);
    std::optional<EnergyResume> resume;
    if (args.restart) {
      Phases::Scope scope(phases, "checkpoint");
      const std::filesystem::path file = io::find_checkpoint(comm, *args.restart);
      io::CheckpointAttributes a;
      a.reals = {{"time", 0.0}, {"dt", 0.0}, {"energy.external_work", 0.0},
                 {"energy.dissipation", 0.0}};
      a.integers = {{"step", 0}};
      a.strings = {{"integrator", ""}};
      checkpointer->read(file, {}, a);  // attributes first: check them before the datasets
      run_collectively(comm, [&] {
        INERTIA_CHECK(a.strings["integrator"] == c.integrator, InputError, file.string(),
                      ": written by the ", a.strings["integrator"], " integrator, but ",
                      c.path.string(), " uses ", c.integrator);
        const double dt = a.reals["dt"];
        if (c.dt_auto) {
          c.dt = dt;
        } else {
          INERTIA_CHECK(std::abs(c.dt - dt) <= 1e-12 * dt, InputError, c.path.string(),
                        ": time.dt ", c.dt, " differs from the checkpoint's ", dt, " (", file.string(),
                        ")");
        }
      });
      io::CheckpointAttributes none;
      checkpointer->read(file, checkpoint_vectors(), none);
      state.time = a.reals["time"];
      state.step = a.integers["step"];
      nsteps = c.num_steps();
      resume = EnergyResume{state.step, a.reals["energy.external_work"], a.reals["energy.dissipation"]};
      log << "restart   from " << file.string() << ": step " << state.step << ", t = " << state.time
          << "; continuing to step " << nsteps << "\n";
    }

    // VTK pieces: this rank's element cells over its local nodes.
    std::vector<CellType> piece_types;
    std::vector<std::int64_t> piece_offsets{0}, piece_nodes;
    std::vector<std::int32_t> piece_rank, piece_region;
    std::vector<std::int64_t> piece_cells;
    // Element cells, and the faces of cloth-like surfaces whose edges are springs (so ParaView
    // shows the surface, not only its edges).
    std::vector<char> shown_faces(lm.regions.size(), 0);
    for (const auto& sp : c.springs)
      if (sp.edges_of_surface)
        for (std::size_t r = 0; r < lm.regions.size(); ++r)
          if (lm.regions[r].name == sp.region) shown_faces[r] = 1;
    for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
      const bool face = info(lm.cell_types[k]).dim == 2 && lm.cell_regions[k] >= 0 &&
                        shown_faces[lm.cell_regions[k]];
      if (!lm.cell_is_element[k] && !face) continue;
      piece_cells.push_back(k);
      piece_types.push_back(lm.cell_types[k]);
      for (auto n : lm.nodes_of(k)) piece_nodes.push_back(n);
      piece_offsets.push_back(static_cast<std::int64_t>(piece_nodes.size()));
      piece_rank.push_back(rank_of(comm));
      piece_region.push_back(lm.regions[lm.cell_regions[k]].tag);
    }
    const io::PieceMesh piece{lm.coords, piece_types, piece_offsets, piece_nodes};
    std::unique_ptr<io::VtkSeriesWriter> vtk;
    if (c.output_every > 0)
      vtk = std::make_unique<io::VtkSeriesWriter>(
          comm, out_dir, c.name,
          resume ? std::optional<double>(state.time + 0.5 * c.dt) : std::nullopt);
    std::int64_t output_bytes = 0;
    CellStress stress;
    auto write_vtk = [&] {
      Phases::Scope scope(phases, "output");
      std::vector<std::vector<double>> point_values;
      std::vector<io::Field> point_fields, cell_fields;
      auto add_point = [&](const char* name, Vec x) {
        if (!x || !c.has_field(name)) return;
        INERTIA_PETSC(VecGhostUpdateBegin(x, INSERT_VALUES, SCATTER_FORWARD));
        INERTIA_PETSC(VecGhostUpdateEnd(x, INSERT_VALUES, SCATTER_FORWARD));
        Vec local_form;
        INERTIA_PETSC(VecGhostGetLocalForm(x, &local_form));
        {
          petsc::ConstArray a(local_form);
          point_values.emplace_back(a.span().begin(), a.span().end());
        }
        INERTIA_PETSC(VecGhostRestoreLocalForm(x, &local_form));
      };
      std::vector<const char*> names;
      for (auto [name, x] : {std::pair{"displacement", state.u.get()}, {"velocity", state.v.get()},
                             {"acceleration", integrator->acceleration()}}) {
        const std::size_t before = point_values.size();
        add_point(name, x);
        if (point_values.size() > before) names.push_back(name);
      }
      for (std::size_t i = 0; i < names.size(); ++i)
        point_fields.push_back({names[i], 3, point_values[i], {}});
      std::vector<double> vm, st, sn;
      if (c.has_field("von_mises") || c.has_field("stress") || c.has_field("strain")) {
        system->assembler().cell_stress(state.u, stress);
        for (auto k : piece_cells) {
          vm.push_back(stress.von_mises[k]);
          st.insert(st.end(), &stress.stress[6 * k], &stress.stress[6 * k] + 6);
          sn.insert(sn.end(), &stress.strain[6 * k], &stress.strain[6 * k] + 6);
        }
      }
      if (c.has_field("von_mises")) cell_fields.push_back({"von_mises", 1, vm, {}});
      if (c.has_field("stress")) cell_fields.push_back({"stress", 6, st, {}});
      if (c.has_field("strain")) cell_fields.push_back({"strain", 6, sn, {}});
      if (c.has_field("rank")) cell_fields.push_back({"rank", 1, {}, piece_rank});
      if (c.has_field("region")) cell_fields.push_back({"region", 1, {}, piece_region});
      output_bytes += vtk->write(state.time, piece, point_fields, cell_fields);
    };

    std::unique_ptr<Probes> probes;
    std::unique_ptr<EnergyHistory> energy;
    if (!c.probes.empty())
      probes = std::make_unique<Probes>(*system, c.probes, out_dir / "probes.csv", log,
                                        resume ? state.step : -1);
    if (c.energy)
      energy = std::make_unique<EnergyHistory>(*system, state, *integrator, out_dir / "energy.csv",
                                               resume ? &*resume : nullptr);
    if (!resume) {
      if (probes) probes->record(state);
      if (vtk) write_vtk();
    }
    std::int64_t checkpoint_bytes = 0, checkpoints_written = 0;
    auto write_checkpoint = [&] {
      Phases::Scope scope(phases, "checkpoint");
      // Every history row up to this step is on disk before the checkpoint exists.
      if (energy) energy->flush();
      if (probes) probes->flush();
      io::CheckpointAttributes a;
      a.reals = {{"time", state.time},
                 {"dt", c.dt},
                 {"energy.external_work", energy ? energy->external_work() : 0.0},
                 {"energy.dissipation", energy ? energy->dissipation() : 0.0}};
      a.integers = {{"step", state.step}};
      a.strings = {{"integrator", c.integrator}, {"version", INERTIA_VERSION}};
      const auto [file, bytes] = checkpointer->write(c.checkpoint_directory, state.step, a,
                                                     checkpoint_vectors(), c.checkpoint_keep);
      checkpoint_bytes += bytes;
      ++checkpoints_written;
    };

    log << "\n";
    // An explicit step of a linear model has nothing that can fail and be retried: no snapshots.
    const int halvings = c.explicit_scheme() && system->is_linear() ? 0 : c.max_step_halvings;
    StepController steps(halvings, [&](const std::string& what) {
      log << "retry     " << what << "\n";
    });
    const double loop_start = MPI_Wtime();
    const std::int64_t first_step = state.step;
    const std::int64_t report_every = std::max<std::int64_t>(1, (nsteps - first_step) / 10);
    std::int64_t linear_its = stats.linear_iterations, newton_its = 0;
    if (first_step >= nsteps) log << "nothing to do: the checkpoint is at or after the last step\n";
    try {
      for (std::int64_t n = first_step; n < nsteps; ++n) {
        {
          Phases::Scope scope(phases, "time loop");
          if (energy) energy->before_step(*system, state);
          stats = steps.advance(*system, *integrator, state, c.dt);
          linear_its += stats.linear_iterations;
          newton_its += stats.nonlinear_iterations;
          // Exact step times (no accumulated rounding).
          state.time = c.dt * static_cast<double>(state.step);
          double extra = 0;
          if (c.velocity_damping > 0) {
            const double before = energy ? system->kinetic_energy(state.v) : 0;
            integrator->scale_velocity(std::exp(-c.dt * c.velocity_damping), state);
            system->apply_constraints(state.time, nullptr, state.v, nullptr);
            if (energy) extra = before - system->kinetic_energy(state.v);
          }
          PetscReal unorm = 0;
          INERTIA_PETSC(VecNorm(state.u, NORM_INFINITY, &unorm));
          if (!std::isfinite(unorm))
            throw SolverError(cat("the solution is not finite at step ", state.step, ", t = ",
                                  state.time, "; reduce dt or check the loads and constraints"));
          if (energy) energy->after_step(*system, state, c.dt, extra);
          if (probes) probes->record(state);
        }
        if (vtk && state.step % c.output_every == 0) write_vtk();
        if (c.checkpoint_every > 0 && (state.step % c.checkpoint_every == 0 || state.step == nsteps))
          write_checkpoint();
        if ((state.step - first_step) % report_every == 0 || state.step == nsteps) {
          const double wall = MPI_Wtime() - loop_start;
          const double left = wall / static_cast<double>(n + 1 - first_step) *
                              static_cast<double>(nsteps - n - 1);
          log << "step " << std::setw(7) << state.step << "/" << nsteps << "  t " << std::setw(11)
              << state.time << "  wall " << std::setw(8) << std::setprecision(3) << wall
              << " s  left " << std::setw(8) << left << " s  ksp its " << stats.linear_iterations
              << std::setprecision(6);
          if (!stats.nonlinear_reason.empty())
            log << "  newton its " << stats.nonlinear_iterations << " (" << stats.nonlinear_reason
                << ")";
          if (energy) log << "  energy " << energy->total();
          log << "\n";
          if (energy) energy->flush();
          if (probes) probes->flush();
        }
      }
    } catch (const Error& e) {
      // Keep what was written (every listed step is complete) but mark it as a failed run.
      const std::string reason = cat("step ", state.step + 1, ", t = ", state.time + c.dt, ": ", e.what());
      if (vtk) vtk->mark_failed(reason);
      if (energy) energy->mark_failed(reason);
      if (probes) probes->mark_failed(reason);
      if (dynamic_cast<const SolverError*>(&e)) throw SolverError(reason);
      throw;
    }
    if (energy) energy->flush();
    if (probes) probes->flush();
    log << "\nfinished: " << nsteps - first_step << " steps, " << linear_its << " linear iterations";
    if (newton_its) log << ", " << newton_its << " Newton iterations";
    if (vtk) log << ", " << vtk->steps_written() << " VTK outputs (" << output_bytes / 1024
                 << " KiB, " << (vtk->steps_written() ? output_bytes / 1024 / vtk->steps_written() : 0)
                 << " KiB per output) in " << vtk->pvd_path().string();
    if (checkpoints_written)
      log << ", " << checkpoints_written << " checkpoints (" << checkpoint_bytes / 1024 / checkpoints_written
          << " KiB each) in " << c.checkpoint_directory.string();
    log << "\n";
    phases.print(comm, log);
    const double total = MPI_Wtime() - start;
    log << "  " << std::left << std::setw(16) << "total" << std::right << std::setw(12) << std::fixed
        << std::setprecision(3) << total << "\n";
    phases.write_csv(comm, out_dir / "timings.csv", total);
    return 0;
  } catch (const InputError& e) {
    if (rank_of(comm) == 0) std::cerr << "inertia: error: " << e.what() << std::endl;
    return 1;
  } catch (const std::exception& e) {
    if (rank_of(comm) == 0) std::cerr << "inertia: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace

int run_main(int argc, char** argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (args.case_file.empty()) {
      if (a == "--help" || a == "-h" || a == "-help") {
        std::cout << usage;
        return 0;
      }
      if (a == "--version") {
        std::cout << "inertia " << INERTIA_VERSION << "\n";
        return 0;
      }
      if (a == "--check") {
        args.check = true;
        continue;
      }
      if (a == "--restart" && i + 1 < argc) {
        args.restart = argv[++i];
        continue;
      }
      if (!a.empty() && a[0] != '-') {
        args.case_file = a;
        continue;
      }
      std::cerr << "inertia: error: expected a case file before PETSc options, got '" << a
                << "' (see inertia --help)\n";
      return 1;
    }
    if (a == "--restart") {
      if (i + 1 >= argc) {
        std::cerr << "inertia: error: --restart needs a checkpoint directory or file\n";
        return 1;
      }
      args.restart = argv[++i];
      continue;
    }
    args.petsc.push_back(a);
  }
  if (args.case_file.empty()) {
    std::cerr << "inertia: error: no case file given (see inertia --help)\n";
    return 1;
  }
  try {
    return run(argc, argv, args);
  } catch (const std::exception& e) {
    std::cerr << "inertia: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace inertia
