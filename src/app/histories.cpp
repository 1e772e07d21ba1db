#include "inertia/app/histories.hpp"

#include <cstdlib>
#include <fstream>

#include <cmath>
#include <limits>
#include <ostream>

#include "inertia/parallel/session.hpp"

namespace inertia {

CsvFile::CsvFile(MPI_Comm comm, const std::filesystem::path& path,
                 const std::string& header_comment, const std::vector<std::string>& columns,
                 std::int64_t resume_after) {
  run_on_root(comm, [&] {
    std::string header = "step,time";
    for (const auto& c : columns) header += "," + c;
    if (resume_after >= 0 && std::filesystem::exists(path)) {
      // Keep the comments and the rows up to the restart step; drop failure markers and the
      // rows of steps that will be computed again.
      std::ifstream in(path);
      std::string line, kept;
      bool seen_header = false;
      while (std::getline(in, line)) {
        if (line.rfind("# INCOMPLETE", 0) == 0) continue;
        if (!seen_header) {
          if (line == header) seen_header = true;
          else if (line.empty() || line[0] != '#')
            throw InputError(cat(path.string(), ": its columns differ from this case's (",
                                 header, "); cannot continue it after a restart"));
          kept += line + "\n";
          continue;
        }
        if (line.empty() || line[0] == '#') continue;
        const std::int64_t step = std::strtoll(line.c_str(), nullptr, 10);
        if (step <= resume_after) kept += line + "\n";
      }
      if (!seen_header)
        throw InputError(cat(path.string(), ": no header line; cannot continue it after a restart"));
      const std::filesystem::path tmp = path.string() + ".tmp";
      {
        std::ofstream out(tmp);
        out << kept;
        if (!out) throw InputError(cat(tmp.string(), ": cannot write"));
      }
      std::filesystem::rename(tmp, path);
      file_.reset(std::fopen(path.c_str(), "a"));
      if (!file_) throw InputError(cat(path.string(), ": cannot open for writing"));
      return;
    }
    file_.reset(std::fopen(path.c_str(), "w"));
    if (!file_) throw InputError(cat(path.string(), ": cannot open for writing"));
    if (!header_comment.empty()) std::fprintf(file_.get(), "%s", header_comment.c_str());
    std::fprintf(file_.get(), "step,time");
    for (const auto& c : columns) std::fprintf(file_.get(), ",%s", c.c_str());
    std::fprintf(file_.get(), "\n");
  });
}

void CsvFile::row(std::int64_t step, double time, const std::vector<double>& values) {
  if (!file_) return;
  std::fprintf(file_.get(), "%lld,%.17g", static_cast<long long>(step), time);
  for (double v : values) std::fprintf(file_.get(), ",%.17g", v);
  std::fputc('\n', file_.get());
}

void CsvFile::flush() {
  if (file_) std::fflush(file_.get());
}

void CsvFile::mark_failed(const std::string& reason) {
  if (!file_) return;
  std::string line = reason;
  for (auto& ch : line)
    if (ch == '\n') ch = ' ';
  std::fprintf(file_.get(), "# INCOMPLETE: the run failed after the last row: %s\n", line.c_str());
  std::fflush(file_.get());
}

Probes::Probes(const MechanicalSystem& system, const std::vector<CaseProbe>& probes,
               const std::filesystem::path& path, std::ostream& log, std::int64_t resume_after)
    : comm_(system.comm()) {
  const LocalMesh& mesh = system.mesh();
  std::vector<std::string> columns;
  std::string comment;
  for (const auto& p : probes) {
    // Nearest owned node on this rank, then the nearest over ranks (ties: lowest rank).
    struct {
      double distance;
      int rank;
    } mine{std::numeric_limits<double>::max(), rank_of(comm_)}, best{};
    std::int32_t node = -1;
    for (std::int32_t n = 0; n < mesh.num_owned; ++n) {
      double d = 0;
      for (int i = 0; i < 3; ++i) d += std::pow(mesh.coords[3 * n + i] - p.point[i], 2);
      if (d < mine.distance) mine.distance = d, node = n;
    }
    INERTIA_MPI(MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm_));
    const bool owner = best.rank == rank_of(comm_);
    owned_dof_.push_back(owner ? 3 * node : -1);
    double where[4] = {0, 0, 0, 0};
    if (owner) {
      for (int i = 0; i < 3; ++i) where[i] = mesh.coords[3 * node + i];
      where[3] = static_cast<double>(mesh.node_tags[node]);
    }
    INERTIA_MPI(MPI_Bcast(where, 4, MPI_DOUBLE, best.rank, comm_));
    const std::string line =
        cat("probe ", p.name, ": node ", static_cast<long long>(where[3]), " at (", where[0], ", ",
            where[1], ", ", where[2], "), distance ", std::sqrt(best.distance), " from (",
            p.point[0], ", ", p.point[1], ", ", p.point[2], ")");
    log << "  " << line << "\n";
    comment += "# " + line + "\n";
    for (const char* q : {"ux", "uy", "uz", "vx", "vy", "vz"}) columns.push_back(p.name + "." + q);
  }
  values_.resize(6 * probes.size());
  sums_.resize(values_.size());
  file_ = CsvFile(comm_, path, comment, columns, resume_after);
}

void Probes::record(const State& state) {
  std::fill(values_.begin(), values_.end(), 0.0);
  {
    petsc::ConstArray u(state.u), v(state.v);
    for (std::size_t p = 0; p < owned_dof_.size(); ++p) {
      if (owned_dof_[p] < 0) continue;
      for (int i = 0; i < 3; ++i) {
        values_[6 * p + i] = u[owned_dof_[p] + i];
        values_[6 * p + 3 + i] = v[owned_dof_[p] + i];
      }
    }
  }
  INERTIA_MPI(MPI_Reduce(values_.data(), sums_.data(), static_cast<int>(values_.size()),
                         MPI_DOUBLE, MPI_SUM, 0, comm_));
  file_.row(state.step, state.time, sums_);
}

namespace {

std::vector<std::string> energy_columns(const Integrator& integrator) {
  std::vector<std::string> columns{"kinetic", "strain", "external_work", "damping_dissipation",
                                   "total"};
  if (integrator.has_hamiltonian()) columns.push_back("hamiltonian");
  return columns;
}

}  // namespace

EnergyHistory::EnergyHistory(MechanicalSystem& system, const State& state,
                             Integrator& integrator, const std::filesystem::path& path,
                             const EnergyResume* resume)
    : integrator_(integrator),
      u_prev_(system.create_vector()),
      v_prev_(system.create_vector()),
      f_prev_(system.create_vector()),
      f_now_(system.create_vector()),
      work_(system.create_vector()),
      file_(system.comm(), path, "", energy_columns(integrator), resume ? resume->step : -1) {
  const Vec acceleration = integrator_.acceleration();
  reactions_ = system.has_prescribed_motion() && acceleration;
  system.external_force(state.time, f_now_);
  if (reactions_) {
    // f_now_ holds the loads plus the support reactions.
    system.reaction(state.time, state.u, state.v, acceleration, work_);
    INERTIA_PETSC(VecAXPY(f_now_, 1.0, work_));
  }
  if (resume) {
    external_work_ = resume->external_work;
    dissipation_ = resume->dissipation;
    total_ = system.kinetic_energy(state.v) + system.strain_energy(state.u) - external_work_ +
             dissipation_;
  } else {
    write(system, state);
  }
}

void EnergyHistory::before_step(MechanicalSystem& system, const State& state) {
  INERTIA_PETSC(VecCopy(state.u, u_prev_));
  INERTIA_PETSC(VecCopy(state.v, v_prev_));
  INERTIA_PETSC(VecCopy(f_now_, f_prev_));
}

void EnergyHistory::after_step(MechanicalSystem& system, const State& state, double dt,
                               double extra_dissipation) {
  system.external_force(state.time, f_now_);
  if (reactions_) {
    system.reaction(state.time, state.u, state.v, integrator_.acceleration(), work_);
    INERTIA_PETSC(VecAXPY(f_now_, 1.0, work_));
  }
  // Work of the loads: (u_{n+1} - u_n) . (f_n + f_{n+1}) / 2
  INERTIA_PETSC(VecWAXPY(work_, -1.0, u_prev_, state.u));
  INERTIA_PETSC(VecAXPY(f_prev_, 1.0, f_now_));
  PetscScalar dw = 0;
  INERTIA_PETSC(VecDot(work_, f_prev_, &dw));
  external_work_ += 0.5 * dw;
  // Rayleigh dissipation: h vbar . C vbar, vbar = (v_n + v_{n+1}) / 2
  const auto& r = system.rayleigh();
  if (r.mass != 0 || r.stiffness != 0) {
    INERTIA_PETSC(VecAXPBY(v_prev_, 0.5, 0.5, state.v));
    system.mult_damping(v_prev_, work_);
    PetscScalar d = 0;
    INERTIA_PETSC(VecDot(v_prev_, work_, &d));
    dissipation_ += dt * d;
  }
  dissipation_ += extra_dissipation;
  write(system, state);
}

void EnergyHistory::write(MechanicalSystem& system, const State& state) {
  const double kinetic = system.kinetic_energy(state.v);
  const double strain = system.strain_energy(state.u);
  total_ = kinetic + strain - external_work_ + dissipation_;
  std::vector<double> row{kinetic, strain, external_work_, dissipation_, total_};
  if (integrator_.has_hamiltonian()) row.push_back(integrator_.hamiltonian(system, state));
  file_.row(state.step, state.time, row);
}

}  // namespace inertia
