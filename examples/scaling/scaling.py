#!/usr/bin/env python3
"""Strong and weak scaling study of inertia on the built-in box mesh.

Writes one case file per (mode, rank count, repeat) under --workdir, runs each with the launcher,
collects every run's <output>/timings.csv (seconds = max over ranks) and writes, under --outdir:

  scaling.csv                   one row per (mode, ranks): the minimum over the repeats of every
                                phase, plus speedup, parallel efficiency and time per DOF-step
  strong_speedup.png            strong-scaling speedup vs ranks, with the ideal line
  efficiency.png                parallel efficiency, strong and weak
  phase_time_per_dof_step.png   time per DOF-step by phase, per mode and rank count

Examples (from the repository root):

  /usr/bin/python3 examples/scaling/scaling.py --mode both --ranks 1,2
  /usr/bin/python3 examples/scaling/scaling.py --mode strong --ranks 1,2,4,8,16 \\
      --launcher "srun -n {np}" --cells 100,100,100 --steps 200 --repeat 3

Only the standard library, numpy and matplotlib (Agg backend) are used.
"""

import argparse
import csv
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(SCRIPT_DIR))
PROG = "scaling.py"

# The model: a block of soft elastic material clamped at z = 0 and pulled sideways at the top.
# Cells are cubes of edge 1/min(cells), so the explicit stable step depends on that size only.
DENSITY = 1000.0
YOUNGS_MODULUS = 1.0e7
POISSONS_RATIO = 0.3
TRACTION = [1000.0, 0.0, 0.0]
NEWMARK_DEFAULT_DT = 1.0e-3
EXPLICIT = ["central_difference", "symplectic_euler"]  # lumped mass, dt auto
IMPLICIT = ["newmark", "hht", "generalized_alpha", "euler_implicit"]  # consistent mass, a fixed dt
# The study's files go outside the repository unless --workdir says otherwise.
DEFAULT_WORKDIR = os.path.join(tempfile.gettempdir(), "inertia-scaling")


class StudyError(Exception):
    """A failure reported as one 'scaling.py: error: ...' line (plus optional detail lines)."""

    def __init__(self, message, detail=""):
        super().__init__(message)
        self.detail = detail


# ------------------------------------------------------------------------------------------------
# Command line
# ------------------------------------------------------------------------------------------------

def int_list(text, what, count=None):
    try:
        values = [int(v) for v in text.replace(" ", "").split(",") if v != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what}: expected comma-separated integers, got '{text}'")
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"{what}: expected positive integers, got '{text}'")
    if count is not None and len(values) != count:
        raise argparse.ArgumentTypeError(f"{what}: expected {count} integers, got '{text}'")
    return values


def default_launcher():
    launcher = "mpirun --oversubscribe -n {np}"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        launcher += " --allow-run-as-root"
    return launcher


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Strong/weak scaling study of inertia on the built-in box mesh. Writes the case "
                    "files under --workdir, runs them, and writes scaling.csv and PNG plots.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  /usr/bin/python3 examples/scaling/scaling.py --mode both --ranks 1,2\n"
               "  python3 examples/scaling/scaling.py --mode strong --ranks 1,2,4,8,16,32 \\\n"
               "      --launcher 'srun -n {np}' --cells 100,100,100 --steps 200 --repeat 3\n"
               "  ... --integrator newmark --dt 1e-3 --extra='-ksp_rtol 1e-8 -pc_type gamg'\n")
    p.add_argument("--mode", choices=["strong", "weak", "both"], default="both",
                   help="strong: the same mesh at every rank count; weak: a fixed number of DOFs "
                        "per rank (default: both)")
    p.add_argument("--ranks", default="1,2", type=lambda s: int_list(s, "--ranks"),
                   help="comma-separated rank counts (default: 1,2)")
    p.add_argument("--launcher", default=None,
                   help="launcher template; {np} is replaced by the rank count (default: "
                        f"'{default_launcher()}'; on Slurm: 'srun -n {{np}}')")
    p.add_argument("--inertia", default=os.path.join(REPO_ROOT, "build", "bin", "inertia"),
                   help="the inertia executable (default: <repo>/build/bin/inertia)")
    p.add_argument("--cells", default="40,40,40", type=lambda s: int_list(s, "--cells", 3),
                   help="strong scaling: box cells nx,ny,nz (default: 40,40,40)")
    p.add_argument("--weak-cells", default=30, type=int, metavar="N",
                   help="weak scaling: cells [N*np, N, N] on np ranks (default: 30)")
    p.add_argument("--element", choices=["hex8", "tet4"], default="hex8",
                   help="element of the box mesh (default: hex8)")
    p.add_argument("--integrator", choices=EXPLICIT + IMPLICIT, default="central_difference",
                   help="explicit (" + ", ".join(EXPLICIT) + "): lumped mass, dt auto; implicit ("
                        + ", ".join(IMPLICIT) + "): consistent mass, fixed dt, a solve every "
                        "step (default: central_difference)")
    p.add_argument("--operator", choices=["assembled", "matrix_free"], default="assembled",
                   help="time.operator: the stiffness products from the assembled matrix or from "
                        "the element kernels (matrix_free: explicit integrators only; default: "
                        "assembled)")
    p.add_argument("--dt", default=None,
                   help="time step: 'auto' (explicit only) or a number (default: auto for "
                        f"the explicit integrators, {NEWMARK_DEFAULT_DT:g} for the implicit ones)")
    p.add_argument("--steps", default=100, type=int, help="time steps per run (default: 100)")
    p.add_argument("--repeat", default=1, type=int, metavar="K",
                   help="run every case K times and keep the minimum time of every phase "
                        "(default: 1)")
    p.add_argument("--workdir", default=DEFAULT_WORKDIR,
                   help="where case files, logs and run outputs go (default: "
                        f"{DEFAULT_WORKDIR}, outside the repository)")
    p.add_argument("--outdir", default=None,
                   help="where scaling.csv and the PNGs go (default: the workdir)")
    p.add_argument("--extra", default="",
                   help="PETSc options appended to every run, e.g. --extra='-ksp_rtol 1e-8'")
    p.add_argument("--timeout", default=None, type=float, metavar="SECONDS",
                   help="fail a run that takes longer than this (default: no limit)")
    p.add_argument("--dry-run", action="store_true",
                   help="write the case files and print the commands without running them")
    p.add_argument("--no-run", action="store_true",
                   help="run nothing: collect the results of an earlier study with the same "
                        "options from --workdir and redo the table and the plots")
    args = p.parse_args(argv)

    if args.weak_cells < 1:
        p.error("--weak-cells: expected a positive integer")
    if args.steps < 1:
        p.error("--steps: expected a positive integer")
    if args.repeat < 1:
        p.error("--repeat: expected a positive integer")
    args.ranks = sorted(set(args.ranks))
    if args.launcher is None:
        args.launcher = default_launcher()
    if "{np}" not in args.launcher:
        p.error(f"--launcher: the template must contain {{np}}, got '{args.launcher}'")
    explicit = args.integrator in EXPLICIT
    if args.operator == "matrix_free" and not explicit:
        p.error(f"--operator matrix_free is for the explicit integrators ({', '.join(EXPLICIT)}): "
                f"{args.integrator} solves with the assembled stiffness")
    if args.dt is None:
        args.dt = "auto" if explicit else NEWMARK_DEFAULT_DT
    elif args.dt == "auto":
        if not explicit:
            p.error(f"--dt auto is for the explicit integrators only; give {args.integrator} a "
                    "number")
    else:
        try:
            args.dt = float(args.dt)
        except ValueError:
            p.error(f"--dt: expected 'auto' or a positive number, got '{args.dt}'")
        if not args.dt > 0:
            p.error(f"--dt: expected a positive number, got '{args.dt}'")
    args.workdir = os.path.abspath(args.workdir)
    args.outdir = os.path.abspath(args.outdir or args.workdir)
    args.inertia = os.path.abspath(args.inertia)
    return args


# ------------------------------------------------------------------------------------------------
# Cases and runs
# ------------------------------------------------------------------------------------------------

def cells_for(mode, np_, args):
    if mode == "strong":
        return list(args.cells)
    n = args.weak_cells
    return [n * np_, n, n]


def expected_dofs(cells):
    # hex8 and tet4 boxes have the same nodes: (nx+1)(ny+1)(nz+1), 3 DOFs each.
    return 3 * (cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1)


def case_text(cells, args):
    h = 1.0 / min(cells)  # cubic cells
    upper = [round(c * h, 12) for c in cells]
    mass, dt = ("lumped" if args.integrator in EXPLICIT else "consistent"), args.dt
    dt_text = dt if dt == "auto" else repr(float(dt))
    fmt = lambda v: "[" + ", ".join(f"{x:g}" for x in v) + "]"
    return (
        "# written by examples/scaling/scaling.py\n"
        "mesh:\n"
        f"  box: {{lower: [0, 0, 0], upper: {fmt(upper)}, cells: {fmt(cells)}, "
        f"element: {args.element}}}\n"
        "materials:\n"
        f"  - {{region: all, model: linear_elastic, density: {DENSITY:g}, "
        f"youngs_modulus: {YOUNGS_MODULUS:g}, poissons_ratio: {POISSONS_RATIO:g}}}\n"
        "boundary_conditions:\n"
        "  - {region: zmin, type: fixed}\n"
        f"  - {{region: zmax, type: traction, value: {fmt(TRACTION)}}}\n"
        "time:\n"
        f"  integrator: {args.integrator}\n"
        f"  mass: {mass}\n"
        f"  dt: {dt_text}\n"
        f"  steps: {args.steps}\n"
        + (f"  operator: {args.operator}\n" if args.operator != "assembled" else "")
        + "output:\n"
        "  directory: out\n"
        "  every: 0\n")


def read_timings(path):
    """{phase: seconds} from a timings.csv (header phase,seconds,calls; '#' lines ignored)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(line for line in f if line.strip() and not line.startswith("#")))
    if not rows or [c.strip() for c in rows[0][:2]] != ["phase", "seconds"]:
        raise StudyError(f"{path}: expected a header 'phase,seconds,calls', got {rows[:1]}")
    phases = {}
    for row in rows[1:]:
        if len(row) < 2:
            continue
        try:
            phases[row[0].strip()] = float(row[1])
        except ValueError:
            raise StudyError(f"{path}: bad seconds value in row {row}")
    return phases


DOFS_RE = re.compile(r"^dofs\s+(\d+)\b", re.M)
ITS_RE = re.compile(r"^finished:.*?(\d+) linear iterations", re.M)


def tail(path, lines=15):
    """The last lines of a file, indented, without the launcher's boxed ('-----') notices."""
    try:
        with open(path, errors="replace") as f:
            text = f.read().rstrip("\n").splitlines()
    except OSError:
        return ""
    kept, boxed = [], False
    for line in text:
        if re.fullmatch(r"-{20,}", line.strip()):
            boxed = not boxed
        elif not boxed:
            kept.append(line)
    text = kept or text
    return "\n".join("    " + line for line in text[-lines:])


def run_one(mode, np_, rep, args):
    cells = cells_for(mode, np_, args)
    rundir = os.path.join(args.workdir, mode, f"np{np_}", f"rep{rep}")
    case = os.path.join(rundir, "case.yaml")
    outdir = os.path.join(rundir, "out")
    timings = os.path.join(outdir, "timings.csv")
    log_path = os.path.join(rundir, "log.txt")
    err_path = os.path.join(rundir, "stderr.txt")
    label = f"{mode} np={np_} rep {rep}/{args.repeat}"
    if args.no_run:
        if not (os.path.exists(timings) and os.path.exists(case)):
            raise StudyError(f"{label}: --no-run but there is no {timings} (run the study first)")
        with open(case) as f:
            if f.read() != case_text(cells, args):
                raise StudyError(f"{label}: --no-run but {case} was written with other options")
        print(f"{label}: cells {'x'.join(map(str, cells))}: reusing {timings}")
        return collect(label, cells, timings, log_path)
    os.makedirs(rundir, exist_ok=True)
    with open(case, "w") as f:
        f.write(case_text(cells, args))
    for stale in (timings, os.path.join(outdir, "memory.csv")):
        if os.path.exists(stale):
            os.remove(stale)  # never pick up a stale result
    cmd = shlex.split(args.launcher.replace("{np}", str(np_))) + [args.inertia, case] + \
        shlex.split(args.extra)
    with open(os.path.join(rundir, "command.txt"), "w") as f:
        f.write(shlex.join(cmd) + "\n")
    if args.dry_run:
        print(f"{label}: (cd {shlex.quote(rundir)} && {shlex.join(cmd)})")
        return None
    print(f"{label}: cells {'x'.join(map(str, cells))} {args.element}, "
          f"{expected_dofs(cells):,} dofs ... ", end="", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    start = time.monotonic()
    try:
        with open(log_path, "w") as out, open(err_path, "w") as err:
            proc = subprocess.run(cmd, cwd=rundir, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                  timeout=args.timeout)
        status = proc.returncode
    except FileNotFoundError:
        print("failed")
        raise StudyError(f"{label}: cannot start the launcher '{cmd[0]}' (see --launcher)")
    except subprocess.TimeoutExpired:
        print("timed out")
        raise StudyError(f"{label}: timed out after {args.timeout:g} s; log {log_path}",
                         tail(err_path) or tail(log_path))
    wall = time.monotonic() - start
    if status != 0:
        print("failed")
        detail = tail(err_path)
        raise StudyError(f"{label}: run failed with exit status {status}: {shlex.join(cmd)} "
                         f"(log {log_path}; stderr tail below)",
                         detail or "    (stderr is empty)\n  log tail:\n" + tail(log_path, 8))
    if not os.path.exists(timings):
        print("failed")
        raise StudyError(f"{label}: run succeeded but wrote no {timings}", tail(log_path, 8))
    run = collect(label, cells, timings, log_path)
    phases = run["phases"]
    print(f"time loop {phases['time loop']:.3f} s, total {phases['total']:.3f} s "
          f"(wall {wall:.1f} s; load average {load:.1f} before)")
    return run


def collect(label, cells, timings, log_path):
    phases = read_timings(timings)
    for needed in ("time loop", "total"):
        if needed not in phases:
            raise StudyError(f"{label}: {timings} has no '{needed}' row")
    try:
        with open(log_path, errors="replace") as f:
            log = f.read()
    except OSError:
        log = ""
    m = DOFS_RE.search(log)
    dofs = int(m.group(1)) if m else expected_dofs(cells)
    m = ITS_RE.search(log)
    its = int(m.group(1)) if m else None
    return {"cells": cells, "dofs": dofs, "phases": phases,
            "linear_iterations": its,
            "peak_rss_max_mb": read_peak_memory(os.path.join(os.path.dirname(timings),
                                                             "memory.csv"))}


def read_peak_memory(path):
    """The largest rank's peak resident set (MB) from a run's memory.csv, or None."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        return max(int(r["peak_rss_bytes"]) for r in rows) / 1e6
    except (OSError, KeyError, ValueError):
        return None


# ------------------------------------------------------------------------------------------------
# Table
# ------------------------------------------------------------------------------------------------

def column_name(phase):
    return re.sub(r"[^0-9a-zA-Z]+", "_", phase.strip()).strip("_").lower() + "_s"


def build_rows(results, args):
    """results: {(mode, np): [run, ...]} -> (rows, phase order)."""
    phase_order = []
    for runs in results.values():
        for run in runs:
            for phase in run["phases"]:
                if phase not in phase_order:
                    phase_order.append(phase)
    rows = []
    for (mode, np_), runs in results.items():
        phases = {}
        for phase in phase_order:
            values = [r["phases"][phase] for r in runs if phase in r["phases"]]
            phases[phase] = min(values) if values else None
        its = [r["linear_iterations"] for r in runs if r["linear_iterations"] is not None]
        memory = [r["peak_rss_max_mb"] for r in runs if r.get("peak_rss_max_mb") is not None]
        rows.append({"mode": mode, "ranks": np_, "dofs": runs[0]["dofs"], "steps": args.steps,
                     "cells": runs[0]["cells"], "phases": phases,
                     "linear_iterations": min(its) if its else None,
                     "peak_rss_max_mb": max(memory) if memory else None})
    for mode in ("strong", "weak"):
        series = sorted((r for r in rows if r["mode"] == mode), key=lambda r: r["ranks"])
        if not series:
            continue
        base = series[0]
        for r in series:
            for key, phase in (("time_loop", "time loop"), ("total", "total")):
                t0, t = base["phases"][phase], r["phases"][phase]
                if mode == "strong":
                    # speedup relative to the smallest rank count; ideal = ranks / base ranks
                    s = t0 / t if t > 0 else float("nan")
                    r[f"speedup_{key}"] = s
                    r[f"efficiency_{key}"] = s * base["ranks"] / r["ranks"]
                else:
                    # throughput per rank (DOF-steps per second per rank) relative to the base;
                    # = t0 / t when the DOFs per rank are exactly constant
                    rate0 = base["dofs"] / base["ranks"] / t0 if t0 > 0 else float("nan")
                    rate = r["dofs"] / r["ranks"] / t if t > 0 else float("nan")
                    r[f"speedup_{key}"] = None
                    r[f"efficiency_{key}"] = rate / rate0
    for r in rows:
        loop = r["phases"]["time loop"]
        r["ns_per_dof_step"] = loop / (r["dofs"] * r["steps"]) * 1e9
        r["rank_ns_per_dof_step"] = r["ns_per_dof_step"] * r["ranks"]
    rows.sort(key=lambda r: (0 if r["mode"] == "strong" else 1, r["ranks"]))
    return rows, phase_order


def write_csv(path, rows, phase_order, args):
    header = ["mode", "ranks", "dofs", "steps"] + [column_name(p) for p in phase_order] + \
        ["speedup_time_loop", "efficiency_time_loop", "speedup_total", "efficiency_total",
         "time_loop_ns_per_dof_step", "time_loop_rank_ns_per_dof_step",
         "cells", "element", "integrator", "operator", "dt", "repeats", "linear_iterations",
         "peak_rss_max_mb"]

    def num(v, fmt="{:.6g}"):
        return "" if v is None or (isinstance(v, float) and math.isnan(v)) else fmt.format(v)

    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow([r["mode"], r["ranks"], r["dofs"], r["steps"]] +
                       [num(r["phases"][p], "{:.9g}") for p in phase_order] +
                       [num(r.get("speedup_time_loop"), "{:.4f}"),
                        num(r.get("efficiency_time_loop"), "{:.4f}"),
                        num(r.get("speedup_total"), "{:.4f}"),
                        num(r.get("efficiency_total"), "{:.4f}"),
                        num(r["ns_per_dof_step"], "{:.3f}"),
                        num(r["rank_ns_per_dof_step"], "{:.3f}"),
                        "x".join(map(str, r["cells"])), args.element, args.integrator,
                        args.operator, args.dt, args.repeat, num(r["linear_iterations"], "{:d}"),
                        num(r["peak_rss_max_mb"], "{:.1f}")])
    os.replace(tmp, path)


def print_table(rows):
    head = ["mode", "ranks", "DOFs", "time loop s", "total s", "speedup loop", "eff loop",
            "speedup total", "eff total", "ns/DOF-step", "rank-ns/DOF-step"]

    def f(v, fmt):
        return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else fmt.format(v)

    body = [[r["mode"], str(r["ranks"]), f"{r['dofs']:,}",
             f(r["phases"]["time loop"], "{:.4g}"), f(r["phases"]["total"], "{:.4g}"),
             f(r.get("speedup_time_loop"), "{:.2f}"), f(r.get("efficiency_time_loop"), "{:.0%}"),
             f(r.get("speedup_total"), "{:.2f}"), f(r.get("efficiency_total"), "{:.0%}"),
             f(r["ns_per_dof_step"], "{:.1f}"), f(r["rank_ns_per_dof_step"], "{:.1f}")]
            for r in rows]
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
    line = lambda cells: "  ".join(c.rjust(w) for c, w in zip(cells, widths))
    print(line(head))
    print("  ".join("-" * w for w in widths))
    for b in body:
        print(line(b))


# ------------------------------------------------------------------------------------------------
# Plots
# ------------------------------------------------------------------------------------------------

def fmt_dofs(n):
    if n >= 1e6:
        return f"{n / 1e6:.3g}M"
    if n >= 1e4:
        return f"{n / 1e3:.3g}k"
    return str(n)


def series_title(rows, mode, args):
    r = [x for x in rows if x["mode"] == mode]
    if not r:
        return ""
    if mode == "strong":
        return (f"strong: {'x'.join(map(str, r[0]['cells']))} {args.element}, "
                f"{r[0]['dofs']:,} DOFs")
    per_rank = r[0]["dofs"] // r[0]["ranks"]
    return f"weak: [{args.weak_cells}·np, {args.weak_cells}, {args.weak_cells}] {args.element}, " \
           f"~{fmt_dofs(per_rank)} DOFs/rank"


def run_title(args):
    dt = "dt auto" if args.dt == "auto" else f"dt {args.dt:g}"
    reps = f", min of {args.repeat} runs" if args.repeat > 1 else ""
    operator = ", matrix-free" if args.operator == "matrix_free" else ""
    return f"{args.integrator}{operator}, {dt}, {args.steps} steps{reps}"


def plot_all(rows, phase_order, args, plt):
    written = []
    strong = [r for r in rows if r["mode"] == "strong"]
    weak = [r for r in rows if r["mode"] == "weak"]
    ranks_all = sorted({r["ranks"] for r in rows})

    def finish(fig, name):
        path = os.path.join(args.outdir, name)
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

    def rank_axis(ax):
        ax.set_xlabel("MPI ranks")
        ax.set_xticks(ranks_all)
        ax.set_xticklabels([str(n) for n in ranks_all])
        ax.grid(True, alpha=0.3)

    # speedup
    if strong:
        fig, ax = plt.subplots(figsize=(6.4, 4.6), layout="constrained")
        n = [r["ranks"] for r in strong]
        base = n[0]
        ax.plot(n, [x / base for x in n], "k--", lw=1, label="ideal")
        ax.plot(n, [r["speedup_time_loop"] for r in strong], "o-", label="time loop")
        ax.plot(n, [r["speedup_total"] for r in strong], "s-", label="total (incl. setup)")
        for r in strong[1:]:  # label the measured speedups: the upper one above, the lower below
            up = r["speedup_time_loop"] >= r["speedup_total"]
            for key, above in (("speedup_time_loop", up), ("speedup_total", not up)):
                ax.annotate(f"{r[key]:.2f}", (r["ranks"], r[key]), textcoords="offset points",
                            xytext=(0, 7 if above else -7), ha="center",
                            va="bottom" if above else "top", fontsize=8)
        if len(n) > 2 and n[-1] / n[0] >= 8:
            ax.set_xscale("log", base=2)
            ax.set_yscale("log", base=2)
        else:
            ax.set_ylim(bottom=0)
        rank_axis(ax)
        ax.margins(x=0.08)
        ax.set_ylabel(f"speedup (relative to {base} rank{'s' if base > 1 else ''})")
        ax.set_title(f"Strong scaling speedup\n{series_title(rows, 'strong', args)}\n"
                     f"{run_title(args)}", fontsize=10)
        ax.legend()
        finish(fig, "strong_speedup.png")

    # efficiency
    fig, ax = plt.subplots(figsize=(6.4, 4.6), layout="constrained")
    ax.axhline(100, color="k", ls="--", lw=1, label="ideal")
    if strong:
        n = [r["ranks"] for r in strong]
        ax.plot(n, [100 * r["efficiency_time_loop"] for r in strong], "o-", color="C0",
                label="strong, time loop")
        ax.plot(n, [100 * r["efficiency_total"] for r in strong], "o:", color="C0", alpha=0.6,
                label="strong, total")
    if weak:
        n = [r["ranks"] for r in weak]
        ax.plot(n, [100 * r["efficiency_time_loop"] for r in weak], "s-", color="C1",
                label="weak, time loop")
        ax.plot(n, [100 * r["efficiency_total"] for r in weak], "s:", color="C1", alpha=0.6,
                label="weak, total")
    rank_axis(ax)
    values = [100 * r[k] for r in rows for k in ("efficiency_time_loop", "efficiency_total")
              if r.get(k) is not None and not math.isnan(r[k])]
    ax.set_ylim(0, max(110, max(values, default=100) * 1.1))
    ax.set_ylabel("parallel efficiency (%)")
    subtitle = "\n".join(t for t in (series_title(rows, "strong", args),
                                     series_title(rows, "weak", args)) if t)
    ax.set_title(f"Parallel efficiency\n{subtitle}\n{run_title(args)}", fontsize=10)
    ax.legend(fontsize=8, loc="lower left")
    finish(fig, "efficiency.png")

    # time per DOF-step by phase, stacked: wall time (left) and wall time x ranks (right)
    phases = [p for p in phase_order if p != "total"
              and any((r["phases"].get(p) or 0) > 0 for r in rows)]
    labels = [f"{r['mode']}\nnp={r['ranks']}\n{fmt_dofs(r['dofs'])} DOFs" for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.8), layout="constrained")
    x = list(range(len(rows)))
    # a fixed colour per phase name, so that plots of different studies compare at a glance
    known = ["mesh", "partition", "distribute", "assemble", "solver setup", "time loop", "output",
             "checkpoint"]
    extra = [p for p in phases if p not in known]
    palette = plt.get_cmap("tab20").colors
    color_of = {p: palette[2 * i % 20] for i, p in enumerate(known + extra)}
    for ax, per_rank in zip(axes, (False, True)):
        bottom = [0.0] * len(rows)
        for i, phase in enumerate(phases + ["other"]):
            vals = []
            for r in rows:
                if phase == "other":  # total minus the sum of the phases (unaccounted time)
                    s = r["phases"]["total"] - sum(r["phases"].get(p) or 0 for p in phases)
                    seconds = max(s, 0.0)
                else:
                    seconds = r["phases"].get(phase) or 0.0
                v = seconds / (r["dofs"] * r["steps"]) * 1e9
                vals.append(v * r["ranks"] if per_rank else v)
            if phase == "other" and max(vals) <= 1e-3 * max(bottom + [1e-30]):
                continue
            ax.bar(x, vals, 0.6, bottom=bottom,
                   label="other (total − phases)" if phase == "other" else phase,
                   color="0.75" if phase == "other" else color_of[phase])
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xticks(x)
        ax.set_xticklabels(labels, fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)
        if per_rank:
            ax.set_ylabel("ns per DOF-step × ranks")
            ax.set_title("× ranks (equal bars = perfect scaling)", fontsize=10)
        else:
            ax.set_ylabel("wall time per DOF-step (ns)")
            ax.set_title("wall time / (DOFs × steps)", fontsize=10)
    handles, names = axes[0].get_legend_handles_labels()
    axes[1].legend(handles[::-1], names[::-1], fontsize=8, loc="upper left",
                   bbox_to_anchor=(1.01, 1.0), title="phase", title_fontsize=8)
    subtitle = "; ".join(t for t in (series_title(rows, "strong", args),
                                     series_title(rows, "weak", args)) if t)
    fig.suptitle(f"Time per DOF per time step, by phase (setup phases amortised over the steps)\n"
                 f"{subtitle}\n{run_title(args)}", fontsize=10)
    finish(fig, "phase_time_per_dof_step.png")
    return written


# ------------------------------------------------------------------------------------------------

def main(argv):
    args = parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy  # noqa: F401  (matplotlib needs it; checked here for a clear message)
    except ImportError as e:
        raise StudyError(f"{sys.executable} has no {e.name or 'matplotlib'}; run with a Python "
                         "that has numpy and matplotlib (e.g. Debian's /usr/bin/python3)")
    if not (os.path.isfile(args.inertia) and os.access(args.inertia, os.X_OK)):
        raise StudyError(f"the inertia executable '{args.inertia}' does not exist or is not "
                         "executable (build it, or pass --inertia PATH)")
    launcher0 = shlex.split(args.launcher)[0]
    if not args.dry_run and shutil.which(launcher0) is None:
        raise StudyError(f"the launcher '{launcher0}' is not on PATH (see --launcher)")
    os.makedirs(args.workdir, exist_ok=True)
    os.makedirs(args.outdir, exist_ok=True)

    modes = ["strong", "weak"] if args.mode == "both" else [args.mode]
    print(f"{PROG}: {args.mode} scaling of {args.inertia}\n"
          f"  ranks {','.join(map(str, args.ranks))}; {run_title(args)}; launcher "
          f"'{args.launcher}'; workdir {args.workdir}")
    results = {}
    for rep in range(1, args.repeat + 1):  # repeats interleaved: slow noise hits all points alike
        for mode in modes:
            for np_ in args.ranks:
                run = run_one(mode, np_, rep, args)
                if run is not None:
                    run.update(mode=mode, ranks=np_)
                    results.setdefault((mode, np_), []).append(run)
    if args.dry_run:
        return 0

    rows, phase_order = build_rows(results, args)
    csv_path = os.path.join(args.outdir, "scaling.csv")
    write_csv(csv_path, rows, phase_order, args)
    pngs = plot_all(rows, phase_order, args, plt)
    print()
    print_table(rows)
    print()
    print("ns/DOF-step = time loop / (DOFs x steps); rank-ns/DOF-step = that x ranks. "
          "Strong speedup and efficiency are relative to the smallest rank count; weak efficiency "
          "is per-rank throughput relative to it.")
    print(f"wrote {csv_path}")
    for p in pngs:
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except StudyError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        if e.detail:
            print(e.detail, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print(f"\n{PROG}: error: interrupted", file=sys.stderr)
        sys.exit(130)
