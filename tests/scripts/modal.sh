#!/usr/bin/env bash
# The modal analysis as users run it: a modal-only case writes modes.csv (the documented columns,
# mass-normalised modes) and <case>_modes.pvd (one entry per mode) with the same frequencies on
# 1, 2 and 3 ranks (1e-8); a free body logs its six rigid-body modes; Rayleigh damping asked at
# modes 1 and 3 gives those modes exactly the asked ratio; bad modal input is one line, exit 1.
set -uo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

cat >"$work/plate.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.6, 0.05], cells: [10, 6, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
modal: {modes: 5}
output: {directory: out}
YAML
for np in 1 2 3; do
  mkdir -p "$work/np$np" && cp "$work/plate.yaml" "$work/np$np/"
  (cd "$work/np$np" && mpi "$np" "$INERTIA" plate.yaml >log 2>&1) || fail "np $np: $(tail -1 "$work/np$np/log")"
done
python3 - "$work" <<'PY' || failed=1
import csv, re, sys
work = sys.argv[1]
def modes(np):
    with open(f"{work}/np{np}/out/modes.csv") as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]
header, ref = modes(1)
assert header == ["mode", "frequency", "omega", "generalized_mass", "participation_x",
                  "participation_y", "participation_z", "effective_mass_x", "effective_mass_y",
                  "effective_mass_z", "participation_rx", "participation_ry", "participation_rz",
                  "effective_mass_rx", "effective_mass_ry", "effective_mass_rz"], header
assert len(ref) == 5 and [r[0] for r in ref] == [1, 2, 3, 4, 5]
for r in ref:
    assert abs(r[3] - 1) < 1e-10, r              # mass-normalised
    assert abs(r[2] - 2 * 3.141592653589793 * r[1]) < 1e-9 * r[2], r
    for d in range(3):
        assert abs(r[7 + d] - r[4 + d] ** 2) <= 1e-12 * max(1, r[7 + d]), r
        assert abs(r[13 + d] - r[10 + d] ** 2) <= 1e-12 * max(1, r[13 + d]), r
assert all(a[1] < b[1] for a, b in zip(ref, ref[1:])), "frequencies ascend"
for np in (2, 3):
    h, other = modes(np)
    assert h == header
    worst = max(abs(a[1] - b[1]) / a[1] for a, b in zip(ref, other))
    assert worst < 1e-8, (np, worst)
pvd = open(f"{work}/np2/out/plate_modes.pvd").read()
times = re.findall(r'timestep="([^"]*)"', pvd)
assert [float(t) for t in times] == [1, 2, 3, 4, 5], times
print(f"modal: 5 modes, {ref[0][1]:.3f} to {ref[-1][1]:.3f} Hz, equal on 1, 2, 3 ranks")
PY

# The inner solve: chosen from MUMPS's estimate (a factorisation here, and the log says why), or
# as -st_ksp_type/-st_pc_type say, with the same frequencies.
grep -q 'inner solve of K - sigma M: MUMPS Cholesky, factored once (.*estimated .* s direct against' \
  "$work/np2/log" || fail "np 2: the log does not say why the inner solve factors: $(grep '^modal' "$work/np2/log")"
mkdir -p "$work/gamg" && cp "$work/plate.yaml" "$work/gamg/"
(cd "$work/gamg" && mpi 2 "$INERTIA" plate.yaml -st_ksp_type cg -st_pc_type gamg >log 2>&1) ||
  fail "-st_pc_type gamg: $(tail -1 "$work/gamg/log")"
grep -q 'inner solve of K - sigma M: as -st_ksp_type/-st_pc_type say' "$work/gamg/log" ||
  fail "-st_pc_type gamg: not reported: $(grep '^modal' "$work/gamg/log")"
python3 - "$work/np2/out/modes.csv" "$work/gamg/out/modes.csv" <<'PY' || failed=1
import csv, sys
a, b = ([float(r[1]) for r in list(csv.reader(open(p)))[1:]] for p in sys.argv[1:])
worst = max(abs(x - y) / x for x, y in zip(a, b))
assert len(a) == len(b) == 5 and worst < 1e-8, (a, b, worst)
print(f"modal: CG + GAMG inner solve == factorisation to {worst:.1e}")
PY

# A free body: six rigid-body modes at 0 Hz, then elastic ones.
sed -e '/boundary_conditions/d' -e '/type: fixed/d' -e 's/modes: 5/modes: 7/' "$work/plate.yaml" >"$work/free.yaml"
(cd "$work" && mpi 2 "$INERTIA" free.yaml >free.log 2>&1) || fail "free body: $(tail -1 "$work/free.log")"
[ "$(grep -c 'rigid-body mode (0 Hz)' "$work/free.log")" = 6 ] || fail "free body: expected six rigid-body modes"

# Rayleigh damping at modes 1 and 3 of the modal analysis, then a short transient.
cat >"$work/damped.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.6, 0.05], cells: [10, 6, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -1000]}
modal: {modes: 4}
time: {integrator: newmark, dt: 1.0e-4, steps: 5, rayleigh: {damping_ratios: [0.02, 0.04], modes: [1, 3]}}
output: {directory: out, every: 0}
YAML
(cd "$work" && mpi 2 "$INERTIA" damped.yaml >damped.log 2>&1) || fail "damped: $(tail -1 "$work/damped.log")"
python3 - "$work/damped.log" <<'PY' || failed=1
import sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if "Rayleigh ratio" in l)
ratios = [float(lines[i + 1 + m].split()[-1]) for m in range(4)]
assert abs(ratios[0] - 0.02) < 1e-9 and abs(ratios[2] - 0.04) < 1e-9, ratios
assert any(l.startswith("rayleigh  from damping ratios 0.02 at mode 1 (") for l in lines)
print(f"rayleigh at modes 1 and 3: ratios per mode {ratios}")
PY

# Bad input: one line naming the file, line and key; exit status 1.
bad() {  # bad NAME YAML_TAIL EXPECTED
  printf '%s\n' "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [2, 2, 2], element: hex8}}" \
    "materials: [{region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}]" "$2" >"$work/$1.yaml"
  out=$(cd "$work" && mpi 2 "$INERTIA" "$1.yaml" 2>&1 >/dev/null)
  status=$?
  [ $status = 1 ] || fail "$1: exit status $status"
  [ "$(printf '%s\n' "$out" | grep -c 'inertia: error')" = 1 ] || fail "$1: not one error line: $out"
  printf '%s' "$out" | grep -q "$3" || fail "$1: expected '$3' in: $out"
}
bad no_modes "modal: {}" "modal: missing key 'modes'"
bad rayleigh_mode_without_modal "time: {dt: 1, steps: 1, rayleigh: {damping_ratios: [0.05, 0.05], modes: [1, 2]}}" "needs a modal analysis"
bad rayleigh_mode_too_high "modal: {modes: 2}
time: {dt: 1, steps: 1, rayleigh: {damping_ratios: [0.05, 0.05], modes: [1, 3]}}" "from 1 to modal.modes = 2"
bad rigid_mode "modal: {modes: 8}
time: {dt: 1, steps: 1, rayleigh: {damping_ratios: [0.05, 0.05], modes: [1, 7]}}" "rigid-body mode"
finish
