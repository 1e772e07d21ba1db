#!/usr/bin/env bash
# The scaling study (examples/scaling/scaling.py) end to end at a tiny size: strong and weak modes
# on 1 and 2 ranks write scaling.csv with the expected rows and columns and three non-empty PNGs;
# a failing run makes the script exit non-zero with one "scaling.py: error:" line.
# Needs a python3 with numpy and matplotlib (python3 on PATH, else /usr/bin/python3); SKIP without.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
py=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" > /dev/null && "$candidate" -c 'import numpy, matplotlib' 2> /dev/null; then
    py=$candidate
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with numpy and matplotlib (install Debian's python3-matplotlib); scaling check not run"
  exit 0
fi
script="$INERTIA_SOURCE_DIR/examples/scaling/scaling.py"
launcher="$INERTIA_MPIEXEC --allow-run-as-root --oversubscribe -n {np}"

"$py" "$script" --mode both --ranks 1,2 --cells 4,4,4 --weak-cells 4 --steps 5 --repeat 2 \
  --inertia "$INERTIA" --launcher "$launcher" --workdir "$work/runs" --outdir "$work/out" \
  > "$work/log"
grep -q "time loop" "$work/log"

"$py" - "$work/out" <<'PY'
import csv, sys
out = sys.argv[1]
with open(f"{out}/scaling.csv", newline="") as f:
    rows = list(csv.DictReader(f))
header = list(rows[0].keys())
assert header[:4] == ["mode", "ranks", "dofs", "steps"], header
for column in ["mesh_s", "assemble_s", "solver_setup_s", "time_loop_s", "total_s",
               "speedup_time_loop", "efficiency_time_loop", "speedup_total", "efficiency_total",
               "time_loop_ns_per_dof_step", "peak_rss_max_mb"]:
    assert column in header, (column, header)
got = [(r["mode"], int(r["ranks"]), int(r["dofs"]), int(r["steps"])) for r in rows]
# box of hex8 cells [nx, ny, nz]: 3 (nx+1)(ny+1)(nz+1) DOFs; weak: cells [4 np, 4, 4]
assert got == [("strong", 1, 375, 5), ("strong", 2, 375, 5),
               ("weak", 1, 375, 5), ("weak", 2, 675, 5)], got
for r in rows:
    assert float(r["time_loop_s"]) > 0 and float(r["total_s"]) >= float(r["time_loop_s"]), r
    expected = float(r["time_loop_s"]) / (int(r["dofs"]) * int(r["steps"])) * 1e9
    assert abs(float(r["time_loop_ns_per_dof_step"]) - expected) <= 1e-2 * expected, r
    assert float(r["efficiency_time_loop"]) > 0 and float(r["efficiency_total"]) > 0, r
    # the largest rank's peak resident set, from the run's memory.csv (a few tens of MB here)
    assert 5 < float(r["peak_rss_max_mb"]) < 4000, r
strong1, strong2 = rows[0], rows[1]
assert float(strong1["speedup_time_loop"]) == 1.0 and float(strong1["efficiency_total"]) == 1.0
s = float(strong2["speedup_time_loop"])
assert abs(float(strong2["efficiency_time_loop"]) - s / 2) < 1e-3, strong2
assert rows[2]["speedup_time_loop"] == "" and float(rows[2]["efficiency_time_loop"]) == 1.0
for name in ["strong_speedup.png", "efficiency.png", "phase_time_per_dof_step.png"]:
    with open(f"{out}/{name}", "rb") as f:
        data = f.read()
    assert len(data) > 1000 and data[:8] == b"\x89PNG\r\n\x1a\n", (name, len(data))
print("scaling.csv:", len(rows), "rows,", len(header), "columns; 3 PNGs")
PY

# The implicit variant with PETSc options passes them on and works.
"$py" "$script" --mode strong --ranks 1 --cells 4,4,4 --steps 5 --inertia "$INERTIA" \
  --launcher "$launcher" --workdir "$work/newmark" --integrator newmark --dt 1e-3 \
  --extra="-ksp_rtol 1e-8" > "$work/log.newmark"
grep -q "ksp_rtol 1e-8" "$work/newmark/strong/np1/rep1/command.txt"
[ -s "$work/newmark/scaling.csv" ] && [ -s "$work/newmark/strong_speedup.png" ]

# The matrix-free explicit operator and another implicit scheme, and the default work directory
# outside the repository.
"$py" "$script" --mode strong --ranks 1,2 --cells 4,4,4 --steps 5 --inertia "$INERTIA" \
  --launcher "$launcher" --workdir "$work/mf" --operator matrix_free > "$work/log.mf"
grep -q "operator: matrix_free" "$work/mf/strong/np2/rep1/case.yaml"
grep -q "^strong,2,375,5,.*,central_difference,matrix_free," "$work/mf/scaling.csv"
"$py" "$script" --mode strong --ranks 1 --cells 4,4,4 --steps 3 --inertia "$INERTIA" \
  --launcher "$launcher" --workdir "$work/hht" --integrator hht --dt 1e-3 > "$work/log.hht"
grep -q "integrator: hht" "$work/hht/strong/np1/rep1/case.yaml"
grep -q "mass: consistent" "$work/hht/strong/np1/rep1/case.yaml"
[ -s "$work/hht/scaling.csv" ]
default=$("$py" "$script" --mode strong --ranks 1 --cells 4,4,4 --steps 3 --inertia "$INERTIA" \
  --launcher "$launcher" --dry-run | sed -n 's/.*; workdir //p')
case "$(realpath -m "$default")/" in
  "$(realpath "$INERTIA_SOURCE_DIR")"/*) echo "the default workdir $default is inside the repository"; exit 1 ;;
esac
status=0
"$py" "$script" --integrator newmark --operator matrix_free --inertia "$INERTIA" \
  > /dev/null 2> "$work/err" || status=$?
[ "$status" -ne 0 ] && grep -q "^scaling.py: error: --operator matrix_free is for the explicit" "$work/err"

# A run that fails: non-zero exit status and one "scaling.py: error:" line naming the run.
status=0
"$py" "$script" --mode strong --ranks 1 --cells 4,4,4 --steps 5 --inertia "$INERTIA" \
  --launcher "$launcher" --workdir "$work/bad" --integrator newmark --extra="-ksp_type no_such_ksp" \
  > /dev/null 2> "$work/err" || status=$?
[ "$status" -ne 0 ] || { echo "a failing run did not make scaling.py fail"; exit 1; }
[ "$(grep -c '^scaling.py: error: strong np=1 rep 1/1: run failed' "$work/err")" -eq 1 ] \
  || { echo "expected one error line naming the run, got:"; cat "$work/err"; exit 1; }
[ ! -e "$work/bad/scaling.csv" ] || { echo "a failed study left a scaling.csv"; exit 1; }
echo "failing run reported: $(head -1 "$work/err" | cut -c1-100)..."

# Every run's memory.csv: one row per rank, the setup's peak within the run's.
"$py" - "$work/runs" <<'PY'
import csv, glob, sys
files = sorted(glob.glob(f"{sys.argv[1]}/*/np*/rep*/out/memory.csv"))
assert len(files) == 8, files  # 2 modes x 2 rank counts x 2 repeats
for path in files:
    ranks = int(path.split("/np")[1].split("/")[0])
    rows = list(csv.DictReader(open(path)))
    assert [int(r["rank"]) for r in rows] == list(range(ranks)), (path, rows)
    for r in rows:
        setup, peak = int(r["setup_peak_rss_bytes"]), int(r["peak_rss_bytes"])
        assert 0 < setup <= peak, (path, r)
print("memory.csv:", len(files), "runs, one row per rank")
PY

# The projection (examples/scaling/project.py): one row per rank count, the output's time the
# same at every rank count, the step's time falling with the ranks.
"$py" "$INERTIA_SOURCE_DIR/examples/scaling/project.py" --ranks 64,4096 > "$work/projection.md"
"$py" - "$work/projection.md" <<'PY'
import sys
rows = [l.split("|")[1:-1] for l in open(sys.argv[1]) if l.startswith("| ") and l[2].isdigit()]
assert [r[0].strip() for r in rows] == ["64", "4,096"], rows
steps = [float(r[4].replace(",", "")) for r in rows]
output = [r[5].strip() for r in rows]
assert steps[1] < steps[0] / 32 and output[0] == output[1], rows
print("projection:", len(rows), "rows")
PY
