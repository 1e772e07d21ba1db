#!/usr/bin/env bash
# What the log says about a model that runs but is not what the engineer meant, at 1 and 3
# ranks (examples/guide/time_integration.md, "Support reactions", "Rayleigh damping from damping
# ratios"; examples/guide/modal.md):
#   - two boxes meshed without being fused: "mesh      2 disconnected parts" and a warning naming
#     the free box's region and nodes (a modal run: its six rigid-body modes; --check of a static
#     run: singular); the same boxes flying free in a dynamic run: information, no warning;
#   - a DOF both fixed and prescribed: a warning per pair of conditions naming both entries and
#     lines, the DOFs they share and which applies; two fixed faces sharing an edge: one line;
#   - Rayleigh targets a factor 1.007 apart (given, and at the two members of a mode pair): a
#     warning with the ratio the fit gives between them and at the highest frequency;
#   - more modes asked than the model has (a spring chain with 9 free DOFs): the 9 modes written
#     (modes.csv rows, the exact chain frequencies) and a warning saying so; Rayleigh damping at
#     a mode beyond them: one error line, after the modes are written; SLEPc stopped early
#     (-eps_max_it 1): the modes it converged, written, and a warning saying how many;
#   - the captured share of the effective masses: against the total mass, never above 100 %;
#   - nu > 0.49 on hex8 or tet4 cells (which lock): one warning naming the material's line.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

python3 "$INERTIA_SOURCE_DIR/tests/support/two_boxes_msh.py" 2 "$work/two_boxes.msh"
cat >"$work/unfused.yaml" <<YAML
mesh: {file: two_boxes.msh}
materials:
  - {region: left, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
  - {region: right, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: base, type: fixed}
modal: {modes: 8}
output: {directory: out}
YAML
sed -e 's/^modal:.*/time: {integrator: static, dt: 1, steps: 1}/' \
  -e 's/^  - {region: base, type: fixed}/&\n  - {region: right, type: force, value: [0, 0, -1]}/' \
  "$work/unfused.yaml" >"$work/unfused_static.yaml"
sed -e '/boundary_conditions/d' -e '/type: fixed/d' \
  -e 's/^modal:.*/time: {integrator: central_difference, dt: auto, steps: 2}\ninitial_conditions: {velocity: [1, 0, 0]}/' \
  "$work/unfused.yaml" >"$work/projectiles.yaml"

# The overlaps: xmin fixed, ymin fixed (sharing xmin's edge y = 0), xmin's x prescribed.
cat >"$work/overlap.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: ymin, type: fixed}
  - {region: xmin, type: displacement, components: [x], value: [0.001], amplitude: shake}
  - {region: xmax, type: traction, value: [0, 0, -1.0e5]}
amplitudes:
  shake: {type: sine, frequency: 50.0}
time: {integrator: newmark, dt: 1.0e-4, steps: 2}
output: {directory: out, every: 0}
YAML

# Rayleigh targets 0.7 % apart: given in Hz, and at the two bending modes of a beam whose
# section is 1 % deeper than wide (0.7 % apart).
beam='mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.101], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
output: {directory: out, every: 0}'
printf '%s\n%s\n' "$beam" \
  "time: {dt: 1.0e-4, steps: 2, rayleigh: {damping_ratios: [0.05, 0.05], frequencies: [80, 80.56]}}" \
  >"$work/rayleigh.yaml"
printf '%s\n%s\n%s\n' "$beam" "modal: {modes: 3}" \
  "time: {dt: 1.0e-4, steps: 2, rayleigh: {damping_ratios: [0.05, 0.05], modes: [1, 2]}}" \
  >"$work/rayleigh_modes.yaml"
printf '%s\n%s\n' "$beam" \
  "time: {dt: 1.0e-4, steps: 2, rayleigh: {damping_ratios: [0.05, 0.05], frequencies: [80, 240]}}" \
  >"$work/rayleigh_apart.yaml"

# Nine beads between fixed ends, moving along the chain: 9 free DOFs (examples/spring_chain).
chain="mesh: {file: $INERTIA_SOURCE_DIR/meshes/spring_chain.msh}
springs:
  - {region: springs, stiffness: 400.0, damping: 0.0, rest_length: mesh}
point_masses:
  - {region: beads, mass: 0.25}
boundary_conditions:
  - {region: ends, type: fixed}
  - {region: beads, type: fixed, components: [y, z]}
output: {directory: out, every: 0}"
printf '%s\n%s\n' "$chain" "modal: {modes: 12, mass: lumped}" >"$work/chain.yaml"
printf '%s\n%s\n%s\n' "$chain" "modal: {modes: 12, mass: lumped}" \
  "time: {dt: 0.01, steps: 2, rayleigh: {damping_ratios: [0.05, 0.05], modes: [1, 12]}}" \
  >"$work/chain_rayleigh.yaml"

cat >"$work/plate.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.6, 0.05], cells: [10, 6, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
modal: {modes: 30}
output: {directory: out}
YAML

# A coarse clamped bar, consistent mass, 60 of its 72 modes: the effective masses include the
# clamp's coupling and add up to more than the free DOFs' mass.
cat >"$work/share.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [6, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
modal: {modes: 60, mass: consistent}
output: {directory: out}
YAML

for np in 1 3; do
  d="$work/np$np"
  mkdir -p "$d" && cp "$work"/*.yaml "$work/two_boxes.msh" "$d/"
  run() {  # run [--check] NAME [PETSC OPTIONS]: exit status 0 expected; the log in NAME.log
    local check=()
    [ "$1" = --check ] && check=(--check) && shift
    local name=$1
    shift
    (cd "$d" && mpi "$np" "$INERTIA" "${check[@]}" "$name.yaml" "$@" >"$name.log" 2>&1) ||
      fail "np $np: $name: $(tail -1 "$d/$name.log")"
  }

  # Unfused boxes: two parts, the right one free (27 nodes), six rigid-body modes.
  run unfused
  has "$d/unfused.log" "mesh      2 disconnected parts (no node shared between them), 1 without any constrained DOF"
  has "$d/unfused.log" "warning   mesh part of 27 nodes (regions right) has no constrained DOF while other parts are held"
  [ "$(grep -c 'rigid-body mode (0 Hz)' "$d/unfused.log")" = 6 ] || fail "np $np: unfused: not six rigid-body modes"
  run --check unfused_static
  has "$d/unfused_static.log" "warning   mesh part of 27 nodes (regions right) has no constrained DOF: free to move as a rigid body, its static stiffness is singular"
  run projectiles
  has "$d/projectiles.log" "mesh      2 disconnected parts (no node shared between them), 2 without any constrained DOF"
  has "$d/projectiles.log" "mesh      part of 27 nodes (regions left) is free"
  has "$d/projectiles.log" "mesh      part of 27 nodes (regions right) is free"
  hasnt "$d/projectiles.log" "warning   mesh"

  # Overlapping conditions: xmin has 3 x 3 nodes, its edge with ymin 3.
  run overlap
  has "$d/overlap.log" "warning   boundary_conditions[0] (fixed, region xmin, line 5) and boundary_conditions[2] (displacement, region xmin, line 7) both constrain 9 DOFs: the later, boundary_conditions[2], applies there"
  has "$d/overlap.log" "warning   boundary_conditions[1] (fixed, region ymin, line 6) and boundary_conditions[2] (displacement, region xmin, line 7) both constrain 3 DOFs: the later, boundary_conditions[2], applies there"
  has "$d/overlap.log" "support   6 DOFs held alike by two conditions, the later one applying (its reaction counts them): boundary_conditions[0] and [1] (regions xmin, ymin)"
  [ "$(grep -c '^warning   boundary_conditions' "$d/overlap.log")" = 2 ] || fail "np $np: overlap: not two warnings"
  hasnt "$d/overlap.log" "disconnected"

  # Close Rayleigh targets; the log's own highest frequency and coefficients give the numbers.
  run rayleigh
  run rayleigh_modes
  run rayleigh_apart
  hasnt "$d/rayleigh_apart.log" "warning   time.rayleigh"
  python3 - "$d" <<'PY' || fail "np $np: rayleigh"
import math, re, sys
d = sys.argv[1]
for name, targets in (("rayleigh", (80.0, 80.56)), ("rayleigh_modes", None)):
    log = open(f"{d}/{name}.log").read()
    f1, f2 = targets or (None, None)
    am, ak = map(float, re.search(r"alpha_M (\S+) 1/s, alpha_K (\S+) s", log).groups())
    top = float(re.search(r"frequency highest ~(\S+) rad/s", log).group(1)) / (2 * math.pi)
    if f1 is None:  # the first two modes of the table
        table = log[log.index("   mode   frequency (Hz)"):].splitlines()
        f1, f2 = float(table[1].split()[1]), float(table[2].split()[1])
    w = re.search(r"^warning   time\.rayleigh: the target frequencies (\S+) and (\S+) Hz are only a "
                  r"factor (\S+) apart \(less than 1\.5\): the fit gives a damping ratio of (\S+) "
                  r"at (\S+) Hz between them and (\S+) at the highest frequency, (\S+) Hz; ", log, re.M)
    assert w, f"{name}: no warning"
    ratio = lambda f: am / (4 * math.pi * f) + ak * math.pi * f
    between = math.sqrt(f1 * f2)
    got = [float(x) for x in w.groups()]
    want = [f1, f2, f2 / f1, ratio(between), between, ratio(top), top]
    for g, x in zip(got, want):
        assert abs(g - x) <= 1e-3 * abs(x), (name, got, want)
    assert 1.004 < f2 / f1 < 1.01 and ratio(top) > 4, (name, f1, f2, ratio(top))
    print(f"{name}: targets {f1:.4g} and {f2:.4g} Hz, ratio {ratio(between):.4g} between, "
          f"{ratio(top):.4g} at {top:.4g} Hz")
PY

  # Twelve modes asked of a model with 9: the 9 written, at the exact chain frequencies.
  run chain
  has "$d/chain.log" "warning   modal: 12 modes asked, the model has 9 free DOFs: 9 modes computed and written"
  python3 - "$d" <<'PY' || fail "np $np: chain modes"
import csv, math, re, sys
d = sys.argv[1]
rows = [[float(x) for x in r] for r in list(csv.reader(open(f"{d}/out/modes.csv")))[1:]]
assert [r[0] for r in rows] == list(range(1, 10)), rows
exact = [2 * math.sqrt(400 / 0.25) * math.sin(j * math.pi / 20) for j in range(1, 10)]
worst = max(abs(r[2] - w) / w for r, w in zip(rows, exact))
assert worst < 1e-8, worst
steps = re.findall(r'timestep="([^"]*)"', open(f"{d}/out/chain_modes.pvd").read())
assert [float(t) for t in steps] == list(range(1, 10)), steps
print(f"chain: 9 of 12 modes written, omega to {worst:.1e} of 2 sqrt(k/m) sin(j pi/20)")
PY
  # Rayleigh damping at mode 12 of those 9: one error line, exit 1, the modes written first.
  rm -rf "$d/out"
  (cd "$d" && mpi "$np" "$INERTIA" chain_rayleigh.yaml >chain_rayleigh.log 2>chain_rayleigh.err)
  [ $? = 1 ] || fail "np $np: chain_rayleigh: exit status not 1"
  [ "$(grep -c 'inertia: error' "$d/chain_rayleigh.err")" = 1 ] &&
    grep -qF "inertia: error: chain_rayleigh.yaml: time.rayleigh.modes: mode 12, but the modal analysis found 9 modes (the model has 9 free DOFs); modes.csv lists them" "$d/chain_rayleigh.err" ||
    fail "np $np: chain_rayleigh: $(cat "$d/chain_rayleigh.err")"
  [ "$(($(wc -l <"$d/out/modes.csv") - 1))" = 9 ] || fail "np $np: chain_rayleigh: modes.csv not written first"

  # SLEPc stopped after one restart: the modes it converged, written, are the lowest ones.
  run plate
  cp "$d/out/modes.csv" "$d/plate_all.csv"
  run plate -eps_max_it 1 -eps_ncv 32
  python3 - "$d" <<'PY' || fail "np $np: SLEPc stopped early"
import csv, re, sys
d = sys.argv[1]
found = int(re.search(r"^warning   modal: 30 modes asked, SLEPc converged (\d+) in 1 iterations: \1 "
                      r"modes written \(more with -eps_max_it\)$", open(f"{d}/plate.log").read(),
                      re.M).group(1))
few, full = ([float(r[1]) for r in list(csv.reader(open(p)))[1:]]
             for p in (f"{d}/out/modes.csv", f"{d}/plate_all.csv"))
assert 0 < found < 30 and len(few) == found and len(full) == 30, (found, len(few), len(full))
worst = max(abs(a - b) / b for a, b in zip(few, full))
assert worst < 1e-8, worst
print(f"plate: SLEPc stopped early, {found} of 30 modes written, the lowest ones to {worst:.1e}")
PY

  # The captured share: at most the total mass (78 kg), the convention's coupling included.
  run share
  python3 - "$d" <<'PY' || fail "np $np: captured share"
import csv, re, sys
d = sys.argv[1]
log = open(f"{d}/share.log").read()
m = re.search(r"sum of the effective masses against the total mass \(every DOF[^)]*\): "
              r"x (\S+) of (\S+) \((\S+) %\), y (\S+) of (\S+) \((\S+) %\), z (\S+) of (\S+) \((\S+) %\)", log)
assert m, "no sum line"
rows = [[float(x) for x in r] for r in list(csv.reader(open(f"{d}/out/modes.csv")))[1:]]
total = float(re.search(r"total mass (\S+)", log).group(1))
for k in range(3):
    s, of, pct = (float(x) for x in m.groups()[3 * k:3 * k + 3])
    assert abs(of - total) < 1e-9 * total, (of, total)
    assert abs(s - sum(r[7 + k] for r in rows)) < 1e-5 * s, (s, k)
    assert s > 69.34 and pct <= 100, (s, pct)  # above the free DOFs' 69.33 kg, below the total
print(f"share: {m.group(1)} of {m.group(2)} kg ({m.group(3)} %) in x")
PY
done
# Near-incompressible material on locking elements: a warning on hex8 (1 and 3 ranks) and tet4,
# none on tet10, none at nu 0.3.
locking() {  # locking ELEMENT NU NAME
  cat >"$work/$3.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [10, 1, 1], cells: [10, 2, 2], element: $1}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e9, poissons_ratio: $2}
boundary_conditions:
  - {region: xmin, type: fixed}
time: {integrator: static, dt: 1, steps: 1}
YAML
  (cd "$work" && "$INERTIA" --check "$3.yaml" >"$3.log" 2>&1) || fail "$3: --check failed"
}
locking hex8 0.4999 lock_hex8
has "$work/lock_hex8.log" "warning   lock_hex8.yaml:3: materials: poissons_ratio 0.4999 on hex8 cells of region all, fully integrated, which lock volumetrically"
locking tet4 0.495 lock_tet4
has "$work/lock_tet4.log" "poissons_ratio 0.495 on tet4 cells of region all"
locking tet10 0.4999 lock_tet10
hasnt "$work/lock_tet10.log" "lock volumetrically"
locking hex8 0.3 lock_soft
hasnt "$work/lock_soft.log" "lock volumetrically"
(cd "$work" && mpi 3 "$INERTIA" --check lock_hex8.yaml >lock3.log 2>&1) || fail "lock_hex8 on 3 ranks"
[ "$(grep -c "lock volumetrically" "$work/lock3.log")" = 1 ] || fail "lock_hex8 on 3 ranks: not one warning"

finish
