#!/usr/bin/env bash
# Memory at scale (label "scale"): one Gmsh-file case of 6 N^3 tet4 (N = 50: 750,000 tets,
# 132,651 nodes; INERTIA_SCALE_N overrides), explicit steps at 1, 2, 4 and 8 ranks (8 are
# oversubscribed on a small machine), the 2-, 4- and 8-rank runs from `inertia --split`. Each
# run's memory.csv gives every rank's peak resident set. The bound, for P ranks:
#
#   largest rank's peak(P) <= base(P) + 1.5 (peak(1) - base(1)) / P
#
# where base(P) is the largest rank's peak of a tiny mesh at P ranks (MPI, PETSc and the program
# itself, ~60-90 MB a process, which no partition divides). peak(1) - base(1) is what the mesh and
# the model cost; 1.5 allows for the METIS imbalance and the ghost layers, which grow with P. The
# rank-0 path fails it at P = 8: rank 0 still reads the whole mesh.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
py=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" > /dev/null && "$candidate" -c 'import numpy' 2> /dev/null; then
    py=$candidate
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with numpy (install Debian's python3-numpy); memory check not run"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=${INERTIA_SCALE_N:-50}
dt=$(awk "BEGIN { print 1.0e-2 / $n }")  # half the stable step (3.7e-4 s at N = 50)
run() {  # run NP LOG ARGS...
  local np=$1 log=$2
  shift 2
  "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n "$np" "$INERTIA" "$@" > "$log" 2>&1 ||
    { cat "$log"; echo "FAIL: inertia $*"; exit 1; }
}
case_file() {  # case_file DIR MESH
  mkdir -p "$1"
  cat > "$1/case.yaml" <<EOF
mesh: {file: $2}
materials: [{region: cube, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}]
boundary_conditions: [{region: xmin, type: fixed}]
gravity: [0, 0, -9.81]
time: {integrator: central_difference, mass: lumped, dt: $dt, steps: 10}
output: {directory: out, every: 0, energy: false, probes: [{name: corner, point: [1, 1, 1]}]}
EOF
}
"$py" "$INERTIA_SOURCE_DIR/tests/support/box_tet_msh.py" "$n" "$work/big.msh"
"$py" "$INERTIA_SOURCE_DIR/tests/support/box_tet_msh.py" 2 "$work/tiny.msh"
for np in 1 2 4 8; do
  for size in big tiny; do
    d="$work/$size/np$np"
    case_file "$d" "$work/$size.msh"
    [ "$np" = 1 ] || run 1 "$d/split.log" --split "$np" "$d/case.yaml"
    run "$np" "$d/run.log" "$d/case.yaml"
    if [ "$np" != 1 ]; then
      grep -q "each rank read its share" "$d/run.log" || { cat "$d/run.log"; echo "FAIL: split unused"; exit 1; }
    fi
  done
done
"$py" - "$work" <<'PY'
import csv, sys
work = sys.argv[1]
def peak(size, np):
    rows = list(csv.DictReader(open(f"{work}/{size}/np{np}/out/memory.csv")))
    assert len(rows) == np, (size, np, rows)
    return max(int(r["peak_rss_bytes"]) for r in rows) / 1e6
def probes(np):
    rows = [l for l in open(f"{work}/big/np{np}/out/probes.csv") if not l.startswith("#")]
    return [[float(x) for x in r.split(",")] for r in rows[1:]]
model = peak("big", 1) - peak("tiny", 1)
print(f"np 1: largest rank {peak('big', 1):.0f} MB, of which the mesh and the model {model:.0f} MB")
failed = False
for np in (2, 4, 8):
    p, base = peak("big", np), peak("tiny", np)
    bound = base + 1.5 * model / np
    print(f"np {np}: largest rank {p:.0f} MB, bound {bound:.0f} MB "
          f"(base {base:.0f} + 1.5 x {model:.0f} / {np}); ideal {base + model / np:.0f} MB")
    failed |= p > bound
# The same run on every rank count (an explicit scheme, METIS partitions differing).
ref = probes(1)
scale = max(abs(x) for r in ref for x in r[2:])
for np in (2, 4, 8):
    worst = max(abs(x - y) for a, b in zip(ref, probes(np)) for x, y in zip(a, b)) / scale
    print(f"np {np}: corner displacement == np 1's to {worst:.1e}")
    failed |= not worst <= 1e-10
assert not failed, "a rank count is over its memory bound or its results differ"
PY
