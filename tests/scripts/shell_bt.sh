#!/usr/bin/env bash
# The one-point Belytschko-Tsay shell (`shells: [{formulation: belytschko_tsay}]`, fe/shell_bt.hpp)
# through the program, explicit (central difference, dt auto):
# - a clamped square plate under pressure (a 1, t 0.01, E 2.1e11, nu 0.3, q 1000: w / t 0.007,
#   linear), damped to rest (velocity_damping 1100 1/s, about critical for its first mode, 30 ms)
#   against Kirchhoff's centre deflection 0.00126532 q a^4 / D: 16 x 16 within 0.5 % (measured
#   1.0031; MITC4 0.9991), 8 x 8 farther (measured 1.0069); 8 x 8 on np 2 and 3 the np 1
#   deflection to 1e-10 (measured 1e-15);
#   energy.csv's hourglass column below 1e-3 of the strain energy (measured 2.6e-5); the log's
#   shells line names the element;
# - the same plate 8 x 8 at q 6e5 (w / t 2), undamped for 20 ms: elastic and plastic (J2,
#   sigma_y 2.5e8, H 2.1e9, Simpson 5), the energy balance (the largest |total| over the work)
#   within 3e-4 (measured 1.1e-4 and 2.1e-5: the force is the energy's gradient; the elastic
#   corotational MITC4's 1.0e-4 the same way: central difference's own), plastic dissipation > 0;
# - damped to rest at q 6e5, plastic: against the corotational plastic MITC4 on the same mesh,
#   the centre within 2 % (measured 0.8 %) and the plastic dissipation within 2 % (0.9 %);
# - in contact (the shells' thickness offset, examples/guide/contact_pairs.md): the 8 x 8 plate
#   (t 10 mm) falling at 1 m/s onto a wall 20 mm below: the first wall force in the step where it
#   has fallen 15 mm, the centre thrown back (vz > 0.9 m/s at 20 ms; measured 0.99); a U strip's
#   legs thrown at each other (self-contact, dt 3e-6): no force while farther apart than t, the
#   tips thrown back, the energy at the end within 1 % of the start (measured 1.0009; 1.026 at dt
#   auto, 87 steps, where the corotational MITC4 gives 1.003: the contact's own step error);
# - bad input, one error line (the run and --check alike): belytschko_tsay under a static run,
#   with kinematics: linear; hourglass without it, hourglass 0, an unknown formulation (np 1; the
#   static run, refused where the terms are built, also on np 2 and 3). (Triangles, refused
#   before, are degenerate quadrilaterals now: e2e.shell_triangles.)
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "the Belytschko-Tsay shells"
cd "$work" || exit 1
meshes="$INERTIA_SOURCE_DIR/meshes"

plate() {  # plate N PRESSURE SHELL-KEYS TIME-EXTRA [PLASTICITY]
  cat <<YAML
mesh: {file: $meshes/shell_plate_$1.msh}
materials:
  - {region: plate, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3${5:-}}
shells:
  - {region: plate, thickness: 0.01$3}
boundary_conditions:
  - {region: edges, type: fixed}
  - {region: plate, type: pressure, value: $2}
time: {integrator: central_difference, mass: lumped, dt: auto$4}
output:
  directory: out
  every: 0
  probes:
    - {name: centre, point: [0.5, 0.5, 0]}
YAML
}
bt=", formulation: belytschko_tsay"
damped=", end_time: 0.03, velocity_damping: 1100"
j2=", plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.1e9}"

plate 16 1000 "$bt" "$damped" > p16.yaml
plate 8 1000 "$bt" "$damped" > p8.yaml
plate 8 6.0e5 "$bt" ", end_time: 0.02" > swing.yaml
plate 8 6.0e5 ", kinematics: corotational" ", end_time: 0.02" > swing_mitc4.yaml
plate 8 6.0e5 "$bt" ", end_time: 0.02" "$j2" > swing_j2.yaml
plate 8 6.0e5 "$bt" "$damped" "$j2" > bt_j2.yaml
plate 8 6.0e5 "" "$damped" "$j2" > mitc4_j2.yaml
cat > drop.yaml <<YAML
mesh: {file: $meshes/shell_plate_8.msh}
materials:
  - {region: plate, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
shells:
  - {region: plate, thickness: 0.01$bt}
contact:
  walls:
    - {name: floor, region: plate, plane: {point: [0, 0, -0.02], normal: [0, 0, 1]}}
initial_conditions:
  velocity: [0, 0, -1]
time: {integrator: central_difference, dt: auto, end_time: 0.02}
output: {directory: out, every: 0, history_every: 1,
         probes: [{name: c, point: [0.5, 0.5, 0], fields: [velocity]}]}
YAML
cat > fold.yaml <<YAML
mesh: {file: $meshes/shell_u_strip.msh}
materials:
  - {region: strip, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
shells:
  - {region: strip, thickness: 0.0005$bt}
contact:
  pairs:
    - {name: fold, surfaces: [strip]}
initial_conditions:
  velocity:
    - {region: leg1, velocity: [0, -4, 0]}
    - {region: leg2, velocity: [0, 4, 0]}
time: {integrator: central_difference, mass: lumped, dt: 3.0e-6, end_time: 1.0e-3}
output:
  directory: out
  every: 0
  history_every: 1
  probes:
    - {name: tip1, point: [0.02, 0.00225, 0.0025], fields: [velocity]}
    - {name: tip2, point: [0.02, -0.00225, 0.0025], fields: [velocity]}
YAML
for np in 1 2 3; do in_dir p8_np$np $np p8.yaml; done
for run in drop fold; do in_dir $run 1 $run.yaml; done
for run in p16 swing swing_mitc4 swing_j2 bt_j2 mitc4_j2; do in_dir $run 1 $run.yaml; done
has p16.log "256 shells (Belytschko-Tsay, one point, hourglass 0.1, corotational)"
has bt_j2.log "(Belytschko-Tsay, one point, hourglass 0.1, corotational, plane-stress J2 at 5 Simpson"

"$py" - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY' || failed=1
import sys

sys.path.insert(0, sys.argv[2])
from csv_checks import read

work = sys.argv[1]
bad = []


def last(path, column):
    return float(read(f"{work}/{path}")[column][-1])


D = 2.1e11 * 0.01 ** 3 / (12 * (1 - 0.3 ** 2))
w = 0.00126532 * 1000 / D
r16, r8 = (-last(f"{run}/out/probes.csv", "centre.uz") / w for run in ("p16", "p8_np1"))
print("clamped plate, Kirchhoff %.6e: 16 x 16 %.5f, 8 x 8 %.5f of it" % (w, r16, r8))
if not abs(r16 - 1) < 5e-3: bad.append("16 x 16 not within 0.5 % of Kirchhoff")
if not abs(r8 - 1) > abs(r16 - 1): bad.append("8 x 8 not farther than 16 x 16")
for np in (2, 3):
    d = abs(last(f"p8_np{np}/out/probes.csv", "centre.uz") / last("p8_np1/out/probes.csv", "centre.uz") - 1)
    print("np %d against np 1: %.1e" % (np, d))
    if not d < 1e-10: bad.append(f"np {np} differs from np 1 by {d:.1e}")
e = read(f"{work}/p16/out/energy.csv")
h = float(e["hourglass"][-1]) / float(e["strain"][-1])
print("hourglass energy / strain energy at rest: %.2e" % h)
if not h < 1e-3: bad.append("hourglass energy above 1e-3 of the strain energy")
for run in ("swing", "swing_j2", "swing_mitc4"):
    e = read(f"{work}/{run}/out/energy.csv")
    balance = max(abs(float(t)) for t in e["total"]) / float(e["external_work"][-1])
    line = "undamped q 6e5 %s: energy balance %.1e of the work" % (run, balance)
    if run != "swing_mitc4":
        line += ", hourglass %.1e of strain" % (float(e["hourglass"][-1]) / float(e["strain"][-1]))
    if run == "swing_j2":
        line += ", plastic dissipation %.1f J" % float(e["plastic_dissipation"][-1])
        if not float(e["plastic_dissipation"][-1]) > 0: bad.append("no plastic dissipation")
    print(line)
    if not balance < 3e-4: bad.append(f"{run}: energy balance {balance:.1e}")
wb, wm = (last(f"{run}/out/probes.csv", "centre.uz") for run in ("bt_j2", "mitc4_j2"))
db, dm = (last(f"{run}/out/energy.csv", "plastic_dissipation") for run in ("bt_j2", "mitc4_j2"))
print("plastic plate at rest: centre %.5e (MITC4 %.5e, %.2f %%), dissipation %.1f J (%.1f J, %.2f %%)"
      % (wb, wm, 100 * (wb / wm - 1), db, dm, 100 * (db / dm - 1)))
if not abs(wb / wm - 1) < 0.02: bad.append("plastic centre not within 2 % of MITC4's")
if not abs(db / dm - 1) < 0.02: bad.append("plastic dissipation not within 2 % of MITC4's")
c, p = read(f"{work}/drop/out/contact.csv"), read(f"{work}/drop/out/probes.csv")
i = next(k for k, f in enumerate(c["floor.fz"]) if f > 0)
dt = c["time"][1] - c["time"][0]
print("plate onto the wall: first force at %.6f s (15 mm of fall: 0.015 s, dt %.2e), centre vz %.3f m/s at the end"
      % (c["time"][i], dt, p["c.vz"][-1]))
if not 0.015 - 1e-9 <= c["time"][i] <= 0.015 + 1.5 * dt: bad.append("the wall's first force not after 15 mm")
if not p["c.vz"][-1] > 0.9: bad.append("the plate not thrown back")
c, e, p = (read(f"{work}/fold/out/{f}.csv") for f in ("contact", "energy", "probes"))
early = max(f for t, f in zip(c["time"], c["fold.normal"]) if t < 4e-4)
ratio = e["total"][-1] / e["total"][0]
print("U strip: force before 0.4 ms %.1e N, tips %.2f and %.2f m/s, energy end / start %.4f"
      % (early, p["tip1.vy"][-1], p["tip2.vy"][-1], ratio))
if not (early == 0 and p["tip1.vy"][-1] > 0.5 and p["tip2.vy"][-1] < -0.5): bad.append("U strip: no clean fold")
if not abs(ratio - 1) < 0.01: bad.append("U strip: energy not kept to 1 %")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# Bad input: one error line, the run and --check alike, on 1, 2 and 3 ranks.
static="time: {integrator: static, dt: 1, steps: 1}"
plate 4 1000 "$bt" "" | sed "s/^time: .*/$static/" > static.yaml
plate 4 1000 "$bt, kinematics: linear" ", steps: 2" > linear.yaml
plate 4 1000 ", hourglass: 0.1" ", steps: 2" > hourglass_alone.yaml
plate 4 1000 "$bt, hourglass: 0" ", steps: 2" > hourglass_zero.yaml
plate 4 1000 ", formulation: bt" ", steps: 2" > unknown.yaml
for np in 1 2 3; do
  same_refusal $np "shells\[0\]\.formulation: the belytschko_tsay shells of region 'plate' are for explicit runs" static.yaml
done
same_refusal 1 "shells\[0\]\.kinematics: the belytschko_tsay shells of region 'plate' are corotational" linear.yaml
same_refusal 1 "shells\[0\]\.hourglass: the hourglass coefficient belongs to formulation: belytschko_tsay" hourglass_alone.yaml
same_refusal 1 "shells\[0\]\.hourglass: must lie in \(0, 1\] \(got 0\)" hourglass_zero.yaml
same_refusal 1 "shells\[0\]\.formulation: unknown value 'bt'; expected one of: mitc4, belytschko_tsay" unknown.yaml
finish
