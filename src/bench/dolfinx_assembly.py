"""Side-by-side reference for inertia-bench's assembly figures: dolfinx assembly of the same
linear-elasticity stiffness on the same unit-cube grid (Debian's python3-dolfinx 0.5).

    mpirun -n 2 python3 src/bench/dolfinx_assembly.py [N]      # N^3 hex8 (and 6 N^3 tet4) cells

Prints `name value unit` lines like inertia-bench: the first assembly (sparsity pattern and
allocation included) and the re-assembly into the existing matrix (values only; inertia-bench's
assembly_*_stiffness_seconds measures this), for hex8 with dolfinx's default quadrature degree
and with 2x2x2 Gauss points (what inertia uses), and for tet4. Median of 3 re-assemblies.
"""
import sys
import time

import numpy as np
import ufl
from dolfinx import fem, mesh
from dolfinx.fem.petsc import assemble_matrix
from mpi4py import MPI

comm = MPI.COMM_WORLD
n = int(sys.argv[1]) if len(sys.argv) > 1 else 69
E, nu = 1.0e7, 0.3
mu, lmbda = E / (2 * (1 + nu)), E * nu / ((1 + nu) * (1 - 2 * nu))


def out(name, value, unit):
    if comm.rank == 0:
        print(f"{name} {value:.4g} {unit}", flush=True)


def timed(f):
    comm.Barrier()
    t = time.perf_counter()
    f()
    return comm.allreduce(time.perf_counter() - t, op=MPI.MAX)


def measure(label, cell_type, degree):
    msh = mesh.create_unit_cube(comm, n, n, n, cell_type)
    V = fem.VectorFunctionSpace(msh, ("Lagrange", 1))
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)

    def eps(w):
        return ufl.sym(ufl.grad(w))

    sigma = 2 * mu * eps(u) + lmbda * ufl.tr(eps(u)) * ufl.Identity(3)
    metadata = {} if degree is None else {"quadrature_degree": degree}
    a = fem.form(ufl.inner(sigma, eps(v)) * ufl.dx(metadata=metadata))
    holder = {}

    def first():
        A = assemble_matrix(a)
        A.assemble()
        holder["A"] = A

    t_first = timed(first)
    A = holder["A"]

    def again():
        A.zeroEntries()
        assemble_matrix(A, a)
        A.assemble()

    t_again = float(np.median([timed(again) for _ in range(3)]))
    cells = msh.topology.index_map(3).size_global
    out(f"dolfinx_{label}_cells", cells, "cells")
    out(f"dolfinx_{label}_first_assembly_seconds", t_first, "s")
    out(f"dolfinx_{label}_reassembly_seconds", t_again, "s")
    out(f"dolfinx_{label}_cells_per_second", cells / t_again, "cells/s")


out("ranks", comm.size, "ranks")
measure("hex8_default_quadrature", mesh.CellType.hexahedron, None)
measure("hex8_2x2x2", mesh.CellType.hexahedron, 2)
measure("tet4", mesh.CellType.tetrahedron, None)
