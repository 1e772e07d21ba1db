#!/usr/bin/env bash
# The explicit stable step of beams (system/stable_step.hpp: beam_critical_step, 2 / omega_max of
# each element with its lumped mass), at np 1, 2, 3:
# - one free element (meshes/beam_cantilever_1.msh, L = 2): long (the cantilever's section, L / r
#   = 45), the log names it axial-limited with 2 / omega = L / c; stocky (a 1 x 1 m rectangle, L /
#   r = 6.9), bending-limited; a free element's assembled omega_max is the element's, so the power
#   iterations' stable step equals it (to the log's 4 digits);
# - the clamped 16-element cantilever (bending-limited): the element estimate is at most the
#   power iterations' step (its ratio printed); central difference under a tip force at the
#   element estimate runs its 400 steps without the blow-up detector's growth warning; at 1.05 x
#   the power iterations' step (time.allow_unstable) it warns that the solution grows and stops
#   when the energy overflows (step 576);
# - mass scaling of beams (each entry of a scaled beam's lumped mass, rotary inertia included,
#   times s^2): ten 0.1 m elements and a 0.03 m one at the tip, dt_min = 0.9 x the 0.1 m
#   elements' step: the short element alone gets mass, m_e ((dt_min / 0.9 t_e)^2 - 1) with t_e
#   from the element's own K and lumped M (frame_reference.py, numpy's eigenvalues; 1e-5, the
#   log's 6 digits), dt: auto is then at least 0.99 dt_min (8x the unscaled step) and 300 steps
#   run without growth.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "beam stable step checks"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/scripts"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

material="  - {region: beam, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}"
slender="  - {region: beam, area: 0.01, iy: 8.0e-5, iz: 2.0e-5, torsion: 1.0e-5, theory: euler_bernoulli}"
stocky="  - {region: beam, shape: {type: rectangle, width: 1.0, height: 1.0}, theory: euler_bernoulli}"
case_file() {  # case_file FILE MESH SECTION CONDITIONS TIME
  cat > "$1" << EOF
mesh: {file: $2}
materials:
$material
sections:
$3
boundary_conditions:
$4
time: {integrator: central_difference, mass: lumped, $5}
output: {directory: out, every: 0, history_every: 10, energy: true}
EOF
}
free="  - {region: tip, type: force, value: [0, 0, 0]}"
clamped="  - {region: root, type: fixed}
  - {region: tip, type: force, value: [0, 1000, 1000]}"
case_file long.yaml "$meshes/beam_cantilever_1.msh" "$slender" "$free" "dt: auto, steps: 2"
case_file stocky.yaml "$meshes/beam_cantilever_1.msh" "$stocky" "$free" "dt: auto, steps: 2"
case_file cantilever.yaml "$meshes/beam_cantilever_16.msh" "$slender" "$clamped" "dt: auto, steps: 2"
for np in 1 2 3; do
  for run in long stocky cantilever; do in_dir "$run$np" "$np" "$run.yaml"; done
done

# element_step LOG: the log's beam element step; power_step LOG: the power iterations'.
element_step() { sed -nE 's/.*smallest element stable step 2\/omega_max = (\S+) s: beam element.*/\1/p' "$1"; }
power_step() { sed -nE 's/.*stable step of central_difference: dt <= 2\/omega = (\S+) s.*/\1/p' "$1"; }
for np in 1 2 3; do
  grep -qE "smallest element stable step 2/omega_max = \S+ s: beam element [0-9]+ \(region 'beam', L = 2, c = sqrt\(E/rho\) = 5172, lumped mass; its axial mode\)" long$np.log ||
    fail "np $np: long: $(grep 'smallest element' long$np.log)"
  grep -q "; its bending mode), the element that limits explicit steps" stocky$np.log ||
    fail "np $np: stocky: $(grep 'smallest element' stocky$np.log)"
  grep -q "; its bending mode), the element that limits explicit steps" cantilever$np.log ||
    fail "np $np: cantilever: $(grep 'smallest element' cantilever$np.log)"
done
"$py" - "$(element_step long1.log)" "$(power_step long1.log)" "$(element_step stocky1.log)" \
  "$(power_step stocky1.log)" "$(element_step cantilever1.log)" "$(power_step cantilever1.log)" \
  << 'PY' || failed=1
import sys
long_e, long_p, stocky_e, stocky_p, cant_e, cant_p = (float(x) for x in sys.argv[1:])
c = (2.1e11 / 7850) ** 0.5
bad = False
def check(what, ok):
    global bad
    print(("ok    " if ok else "FAIL  ") + what)
    bad |= not ok
check(f"long free element: log {long_e:.4g} s against L / c = {2 / c:.4g} s (4 digits)",
      abs(long_e - 2 / c) <= 1e-4 * long_e)
check(f"long free element: power iterations {long_p:.6g} s against it", abs(long_p - long_e) <= 1e-3 * long_e)
check(f"stocky free element: power iterations {stocky_p:.6g} s against its {stocky_e:.4g} s",
      abs(stocky_p - stocky_e) <= 1e-3 * stocky_e)
check(f"clamped cantilever: element estimate {cant_e:.4g} s <= power iterations' {cant_p:.6g} s "
      f"(ratio {cant_e / cant_p:.4f})", cant_e <= cant_p * (1 + 1e-6))
sys.exit(1 if bad else 0)
PY

# Runs at the element estimate (stable) and at 1.05 x the power iterations' step (it grows).
dt_e=$(element_step cantilever1.log)
dt_p=$(power_step cantilever1.log)
dt_over=$("$py" -c "print(1.05 * $dt_p)")
case_file at_element.yaml "$meshes/beam_cantilever_16.msh" "$slender" "$clamped" "dt: $dt_e, steps: 400"
case_file over.yaml "$meshes/beam_cantilever_16.msh" "$slender" "$clamped" "dt: $dt_over, steps: 800, allow_unstable: true"
for np in 1 2 3; do
  in_dir "at_element$np" "$np" at_element.yaml
  mkdir -p "over$np" && cp over.yaml "over$np/"
  if (cd "over$np" && mpi "$np" "$INERTIA" over.yaml > "$work/over$np.log" 2>&1); then
    fail "np $np: 1.05 x the stable step: exit 0"
  fi
  grep -q '^warning   the solution grows' over$np.log || fail "np $np: 1.05 x: no growth warning"
  grep -qE '^inertia: error: .*not finite at step [0-9]+' over$np.log ||
    fail "np $np: 1.05 x: $(grep '^inertia: error' over$np.log)"
  echo "ok    np $np: at 1.05 x $dt_p s: $(grep '^inertia: error' over$np.log | cut -c1-160)"
  grep -q '^warning   the solution grows' at_element$np.log && fail "np $np: at the element step: it grows"
done
echo "ok    at the element estimate $dt_e s: 400 steps, no growth (np 1, 2, 3)"

# Mass scaling: ten elements of 0.1 m and a short one of 0.03 m at the tip.
"$py" - << 'PY'
xs = [0.1 * i for i in range(11)] + [1.03]
with open("short_tip.msh", "w") as f:
    f.write('$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n3\n1 1 "beam"\n0 2 "root"\n'
            '0 3 "tip"\n$EndPhysicalNames\n')
    f.write(f"$Nodes\n{len(xs)}\n")
    for n, x in enumerate(xs, 1):
        f.write(f"{n} {x!r} 0 0\n")
    f.write(f"$EndNodes\n$Elements\n{len(xs) + 1}\n")
    f.write(f"1 15 2 2 1 1\n2 15 2 3 2 {len(xs)}\n")
    for e in range(len(xs) - 1):
        f.write(f"{e + 3} 1 2 1 1 {e + 1} {e + 2}\n")
    f.write("$EndElements\n")
PY
case_file short.yaml "$work/short_tip.msh" "$slender" "$clamped" "dt: auto, steps: 300"
in_dir short1 1 short.yaml
dt_uniform=$("$py" - << 'PY'
import numpy as np, frame_reference as fr
sec = fr.Section(2.1e11, 0.3, 7850, 0.01, 8.0e-5, 2.0e-5, 1.0e-5)
def step(L):
    K, M = fr.local_stiffness(sec, L), fr.local_lumped_mass(sec, L)
    m = 1 / np.sqrt(np.diag(M))
    return 2 / np.sqrt(np.linalg.eigvalsh(m[:, None] * K * m[None, :]).max())
print(f"{step(0.1):.12g} {step(0.03):.12g}")
PY
)
read -r t_uniform t_short <<< "$dt_uniform"
case_file scaled.yaml "$work/short_tip.msh" "$slender" "$clamped" "dt: auto, steps: 300, mass_scaling: {dt_min: $("$py" -c "print(0.9 * $t_uniform)")}"
for np in 1 2 3; do in_dir "scaled$np" "$np" scaled.yaml; done
"$py" - "$work" "$t_uniform" "$t_short" << 'PY' || failed=1
import re, sys
work, t_uniform, t_short = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
dt_min = 0.9 * t_uniform
m_e = 7850 * 0.01 * 0.03
added = m_e * ((dt_min / (0.9 * t_short)) ** 2 - 1)
bad = False
unscaled = open(f"{work}/short1.log").read()
dt0 = float(re.search(r"^time      central_difference, dt (\S+),", unscaled, re.M).group(1))
for np in (1, 2, 3):
    log = open(f"{work}/scaled{np}.log").read()
    m = re.search(r"mass      scaling to dt_min \S+ s .*: (\d+) cells below it, added mass (\S+) kg", log)
    dt = float(re.search(r"^time      central_difference, dt (\S+),", log, re.M).group(1))
    ok = (m and int(m.group(1)) == 1 and abs(float(m.group(2)) - added) <= 1e-5 * added
          and dt >= 0.99 * dt_min and "the solution grows" not in log)
    print(f"{'ok  ' if ok else 'FAIL'}  np {np}: mass scaling: {m.group(1) if m else '?'} cell, added "
          f"{m.group(2) if m else '?'} kg against m_e ((dt_min / 0.9 t_e)^2 - 1) = {added:.6g} kg "
          f"(t_e = {t_short:.6g} s from the element's own K, M); dt {dt:.6g} s against dt_min "
          f"{dt_min:.6g} s (unscaled {dt0:.6g} s), 300 steps without growth")
    bad |= not ok
sys.exit(1 if bad else 0)
PY

finish
