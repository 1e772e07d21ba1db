#pragma once
// Helpers shared by the MPI tests that build models from inline case files.
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "inertia/parallel/session.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia::test {

/// Collective. The unit vector of global DOF `dof` in the system's layout.
inline petsc::Vector unit_vector(const MechanicalSystem& s, PetscInt dof) {
  petsc::Vector e = s.create_vector();
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(e, &lo, &hi);
  if (dof >= lo && dof < hi) VecSetValue(e, dof, 1.0, INSERT_VALUES);
  VecAssemblyBegin(e);
  VecAssemblyEnd(e);
  return e;
}

/// A double written with all its digits, for case files.
inline std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

/// Collective. The value of global DOF `dof` of x, on every rank of x's communicator.
inline double global_value(Vec x, PetscInt dof) {
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(x, &lo, &hi);
  double mine = 0, all = 0;
  if (dof >= lo && dof < hi) {
    petsc::ConstArray a(x);
    mine = a[dof - lo];
  }
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM,
                PetscObjectComm(reinterpret_cast<PetscObject>(x)));
  return all;
}

/// Collective. Global DOF of component c of the mesh node nearest p (ties: lowest rank).
inline PetscInt dof_near(const MechanicalSystem& s, std::array<double, 3> p, int c) {
  const LocalMesh& m = s.mesh();
  struct {
    double d;
    int rank;
  } mine{1e300, rank_of(s.comm())}, best{};
  long long global = -1;
  for (std::int32_t n = 0; n < m.num_owned; ++n) {
    double d = 0;
    for (int i = 0; i < 3; ++i) d += std::pow(m.coords[3 * n + i] - p[i], 2);
    if (d < mine.d) mine.d = d, global = m.node_begin + n;
  }
  MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MINLOC, s.comm());
  MPI_Bcast(&global, 1, MPI_LONG_LONG, best.rank, s.comm());
  return static_cast<PetscInt>(3 * global + c);
}

/// Collective. Writes (rank 0) a Gmsh file of a chain of n beads at x = 0.1 i between two fixed
/// ends (physical points "ends", "beads", physical line "springs") and returns its path.
inline std::string chain_mesh(int n, const std::string& name) {
  const std::string file =
      std::string(INERTIA_BINARY_DIR) + "/" + name + "_" + std::to_string(n) + ".msh";
  if (rank_of(MPI_COMM_WORLD) == 0) {
    std::ofstream out(file);
    out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n3\n0 1 \"ends\"\n0 2 \"beads\"\n"
           "1 3 \"springs\"\n$EndPhysicalNames\n$Nodes\n"
        << n + 2 << "\n";
    for (int i = 0; i < n + 2; ++i) out << i + 1 << " " << 0.1 * i << " 0 0\n";
    out << "$EndNodes\n$Elements\n" << (n + 1) + (n + 2) << "\n";
    int tag = 1;
    for (int i = 0; i < n + 2; ++i)
      out << tag++ << " 15 2 " << (i == 0 || i == n + 1 ? 1 : 2) << " 1 " << i + 1 << "\n";
    for (int i = 0; i < n + 1; ++i) out << tag++ << " 1 2 3 1 " << i + 1 << " " << i + 2 << "\n";
    out << "$EndElements\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return file;
}

/// The case text of chain_mesh(n, name) with springs k = 400 and beads m = 0.25, the beads held
/// to the x axis; `time` is the inside of the time section.
inline std::string chain_case(int n, const std::string& name, const std::string& time) {
  return "mesh: {file: " + chain_mesh(n, name) +
         "}\n"
         "springs: [{region: springs, stiffness: 400.0}]\n"
         "point_masses: [{region: beads, mass: 0.25}]\n"
         "boundary_conditions: [{region: ends, type: fixed}, "
         "{region: beads, type: fixed, components: [y, z]}]\n"
         "time: {" +
         time + "}\n";
}

}  // namespace inertia::test
