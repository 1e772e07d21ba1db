#!/usr/bin/env bash
# A beam welded to a solid block by a rigid coupling (`couplings:`): meshes/beam_on_block.msh, a
# hex8 block 1 x 1 x 1 m (E 1e9, its base fixed) and a 3 m beam (E 2.1e11, A 0.01, I 8.333e-6,
# Euler-Bernoulli) standing on the centre of its top face, whose foot node is a node of the face.
# A tip load P = 1000 N along x:
# - without the coupling the shared node transmits forces only (a hinge): the beam is a mechanism
#   and the static solve must not return an answer;
# - with it (static, np 1, 2, 3): the block's base section (plane z = 0) carries the force -P and
#   the moment -P (h + L) about y (equilibrium: 1e-6), np 2 and 3 agree with np 1 (1e-9), the
#   beam's own bending is the clamped cantilever's, tip - foot - theta_foot L = P L^3 / 3 E I
#   (1e-6), the tip deflection lies above the rigidly clamped beam's (the block's compliance),
#   the foot turns with the block's top face (the rotation of its x = +-0.5 edges' midpoints, 1e-4:
#   the coupling makes the whole face rigid), and the penalty's error: the tip deflection with
#   penalty 10, 100, 1000, 1e4 against 1e6, first order in 1/penalty (measured 1.7e-4 / penalty:
#   1.7e-7 at the default 1000; within 1e-6, and error(100) / error(1000) within [5, 20]);
# - central difference (lumped) under a ramped load: the energy balance closes (energy.csv's total
#   within 1e-6 of the external work; measured 3e-8), np 1 and 3 agree (1e-9). The default penalty
#   costs explicit runs their step (the stiff coupling on the beam node's small rotary inertia):
#   this one takes penalty 10, dt 5.3e-7 s against 9.7e-5 s without the coupling.
# The rigid link (meshes/beam_on_block_offset.msh: the beam starts 0.5 m above the face's centre,
# not a node of the block; np 1 and 3): the base carries P (h + g + L), the beam bends as the
# clamped cantilever, the foot moves as the face's centre plus theta x (0, 0, g) and turns with
# the face (the penalty's gap: 9.3e-7 of the foot's motion at the default penalty; within 2e-6),
# np 3 = np 1.
# Bad input: a node region that is not one beam node, a surface that is not a face region, an
# unknown type, a zero penalty, a modal analysis (its operators would leave the coupling out): one
# error line, the same from the run and --check.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
meshes="$INERTIA_SOURCE_DIR/meshes"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/support"
cd "$work"

case_file() {  # case_file FILE COUPLINGS TIME
  cat > "$1" << EOF
mesh: {file: $meshes/beam_on_block.msh}
materials:
  - {region: block, model: linear_elastic, density: 2000, youngs_modulus: 1.0e9, poissons_ratio: 0.3}
  - {region: beam, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: beam, area: 0.01, iy: 8.333333333333e-6, iz: 8.333333333333e-6, torsion: 1.4e-5, theory: euler_bernoulli}
$2
boundary_conditions:
  - {region: block_base, type: fixed}
  - {region: tip, type: force, value: [1000, 0, 0]${4:-}}
$3
output:
  directory: out
  every: 0
  history_every: ${5:-1}
  probes:
    - {name: tip, point: [0, 0, 4], fields: [displacement, rotation]}
    - {name: foot, point: [0, 0, 1], fields: [displacement, rotation]}
    - {name: east, point: [0.5, 0, 1], fields: [displacement]}
    - {name: west, point: [-0.5, 0, 1], fields: [displacement]}
  sections:
    - {name: base, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}
EOF
}
static="time: {integrator: static, dt: 1, end_time: 1}"
weld() { echo "couplings:
  - {name: weld, node: beam_end, surface: block_top, type: rigid${1:+, penalty: $1}}"; }
case_file hinge.yaml "" "$static"
case_file weld.yaml "$(weld)" "$static"
for p in 10 100 10000 1000000; do case_file "weld_p$p.yaml" "$(weld $p)" "$static"; done
case_file explicit.yaml "$(weld 10)" "time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 2.0e-3}
amplitudes: {ramp: {type: table, points: [[0, 0], [1.0e-3, 1], [1, 1]]}}" ", amplitude: ramp" 20


# Bad input: one error line, the same from the run and --check, at np 1 (and 3 for the checks made on the partitioned mesh).
refusal() {  # refusal NAME PATTERN COUPLING [NPS]
  case_file "$1.yaml" "couplings:
  - {$3}" "$static"
  for np in ${4:-1}; do same_refusal "$np" "$2" "$1.yaml"; done
}
refusal solid_node "node of region 'block_corner' is not a beam or shell node" \
  "node: block_corner, surface: block_top" "1 3"
refusal face_node "node region 'block_top' is not a point region" "node: block_top, surface: block_top"
refusal line_surface "surface 'beam' is not a face region" "node: beam_end, surface: beam" "1 3"
refusal no_region "surface 'top' is not in the mesh" "node: beam_end, surface: top"
refusal soft "type: .*rigid" "node: beam_end, surface: block_top, type: soft"
refusal no_surface "missing key 'surface'" "node: beam_end"
refusal zero_penalty "penalty" "node: beam_end, surface: block_top, penalty: 0"
# The linear analyses' operators leave the coupling out (a modal analysis found two 0 Hz modes):
# refused.
case_file modal.yaml "$(weld)" "modal: {modes: 4}"
same_refusal 1 "couplings .*linear analysis does not take" modal.yaml
case_file sequence.yaml "$(weld)" "analyses:
  - {name: modes, type: modal, modes: 4}"
same_refusal 1 "couplings .*modal analysis does not take" sequence.yaml

rm -rf out  # what the refused runs made

# The hinge: a mechanism (the beam turns freely about the shared node): the static solve finds
# the operator singular.
mkdir -p hinge && cp hinge.yaml hinge/
if (cd hinge && capture 1 hinge.yaml); then
  fail "hinge: the static solve of a beam hinged on the block returned an answer"
elif grep -q "^inertia: error: .*singular" "$work/err"; then
  echo "ok   hinge: refused ($(grep -m1 'error' "$work/err" | cut -c1-120))"
else
  fail "hinge: failed without naming a singular operator: $(head -c 400 "$work/err")"
fi
# ... and before it, one warning line names the joint (the beam's foot, node at (0, 0, 1)).
if [ "$(grep -c '^warning .*1 beam node (the first: node [0-9]* at (0, 0, 1), region .beam.) also belong to solid cells.*a hinge.*couplings' "$work/out")" = 1 ]; then
  echo "ok   hinge: one warning line names the beam node on the solid"
else
  fail "hinge: no (or not one) warning of the beam node on the solid: $(grep -m2 '^warning' "$work/out")"
fi

# The rigid link: the beam's foot 0.5 m above the face's centre, no node of the block.
sed -e 's/beam_on_block.msh/beam_on_block_offset.msh/' -e 's/point: \[0, 0, 4\]/point: [0, 0, 4.5]/' \
  -e 's/{name: foot, point: \[0, 0, 1\]/{name: centre, point: [0, 0, 1], fields: [displacement]}\n    - {name: foot, point: [0, 0, 1.5]/' \
  weld.yaml > offset.yaml
for np in 1 2 3; do in_dir "weld$np" "$np" weld.yaml; done
# The welded joint is no hinge: no warning of it.
if grep -q "also belong to solid cells" "$work/weld1.log" "$work/weld3.log"; then
  fail "weld: the coupled beam node is still warned of as a hinge"
else
  echo "ok   weld: no hinge warning"
fi
in_dir offset1 1 offset.yaml
in_dir offset3 3 offset.yaml
for p in 10 100 10000 1000000; do in_dir "p$p" 1 "weld_p$p.yaml"; done
in_dir explicit1 1 explicit.yaml
in_dir explicit3 3 explicit.yaml

python3 - "$work" << 'PY' || failed=1
import sys
from csv_checks import read, check, passed

work = sys.argv[1]
P, E, I, L, h = 1000.0, 2.1e11, 8.333333333333e-6, 3.0, 1.0
clamped = P * L ** 3 / (3 * E * I)


def last(run, name):
    return {k: v[-1] for k, v in read(f"{work}/{run}/out/{name}").items()}


w1 = last("weld1", "probes.csv")
s1 = last("weld1", "sections.csv")
print(f"     base section: fx {s1['base.fx']:.9g} N, my {s1['base.my']:.9g} N m")
check("base section fx + P (relative to P)", abs(s1["base.fx"] + P) / P, 0, 1e-6)
check("base section my + P (h + L) (relative)", abs(s1["base.my"] + P * (h + L)) / (P * (h + L)),
      0, 1e-6)
for k in ("base.fy", "base.fz", "base.mx", "base.mz"):
    check(f"base section {k} (relative to P, P (h + L))", abs(s1[k]) / (P * (h + L)), 0, 1e-6)
tip, foot, ry = w1["tip.ux"], w1["foot.ux"], w1["foot.ry"]
own = tip - foot - ry * L
print(f"     tip {tip:.9g} m = foot {foot:.6g} + theta_foot L {ry * L:.6g} + bending {own:.9g} "
      f"(P L^3 / 3 E I = {clamped:.9g})")
check("beam's own bending against P L^3 / 3 E I (relative)", abs(own / clamped - 1), 0, 1e-6)
check("tip deflection over the rigidly clamped beam's (the block's compliance)", tip / clamped,
      1.0 + 1e-3, 10)
face = (w1["east.uz"] - w1["west.uz"]) / 1.0  # the top face's mean rotation about -y (uz = -ry x)
check("foot rotation against the top face's (east - west uz) / width (relative)",
      abs(-face / ry - 1), 0, 1e-4)
for np_ in (2, 3):
    wn = last(f"weld{np_}", "probes.csv")
    d = max(abs(wn[k] - w1[k]) for k in w1 if k != "time")
    check(f"np {np_} against np 1 (probes, relative to the tip)", d / abs(tip), 0, 1e-9)
o1 = last("offset1", "probes.csv")
so = last("offset1", "sections.csv")
g = 0.5
check("rigid link: base section my + P (h + g + L) (relative)",
      abs(so["base.my"] + P * (h + g + L)) / (P * (h + g + L)), 0, 1e-6)
check("rigid link: beam's own bending against P L^3 / 3 E I (relative)",
      abs((o1["tip.ux"] - o1["foot.ux"] - o1["foot.ry"] * L) / clamped - 1), 0, 1e-6)
link = o1["foot.ux"] - o1["centre.ux"] - o1["foot.ry"] * g
print(f"     rigid link: foot ux {o1['foot.ux']:.9g} = centre ux {o1['centre.ux']:.9g} + theta_y g "
      f"{o1['foot.ry'] * g:.9g} + {link:.3g} (the penalty's gap)")
check("rigid link: foot ux - centre ux - theta_y g (relative to foot ux)", abs(link / o1["foot.ux"]),
      0, 2e-6)
check("rigid link: foot rotation against the face's (east - west uz) / width (relative)",
      abs((o1["west.uz"] - o1["east.uz"]) / o1["foot.ry"] - 1), 0, 1e-4)
o3 = last("offset3", "probes.csv")
check("rigid link: np 3 against np 1 (probes, relative to the tip)",
      max(abs(o3[k] - o1[k]) for k in o1 if k != "time") / abs(o1["tip.ux"]), 0, 1e-9)
ref = last("p1000000", "probes.csv")["tip.ux"]
print("     penalty  tip ux            error vs penalty 1e6   error x penalty")
errors = {}
for p in (10, 100, 1000, 10000):
    t = last(f"p{p}" if p != 1000 else "weld1", "probes.csv")["tip.ux"]
    errors[p] = abs(t / ref - 1)
    print(f"     {p:7g}  {t:.12g}  {errors[p]:.3e}              {errors[p] * p:.3e}")
check("penalty 1000 (default): relative error of the tip deflection", errors[1000], 0, 1e-6)
check("the error falls as 1/penalty (error(100) / error(1000))", errors[100] / errors[1000], 5, 20)

e1, e3 = read(f"{work}/explicit1/out/energy.csv"), read(f"{work}/explicit3/out/energy.csv")
work_max = max(abs(x) for x in e1["external_work"])
balance = max(abs(x) for x in e1["total"]) / work_max
print(f"     explicit: external work {work_max:.6g} J, kinetic {e1['kinetic'][-1]:.6g}, strain "
      f"{e1['strain'][-1]:.6g}")
check("explicit: energy balance |total| / external work", balance, 0, 1e-6)
check("explicit: np 3's strain energy against np 1's (relative)",
      max(abs(a - b) for a, b in zip(e1["strain"], e3["strain"])) / max(e1["strain"]), 0, 1e-9)
sys.exit(0 if passed() else 1)
PY
finish
