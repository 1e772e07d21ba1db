#!/usr/bin/env bash
# Contact between bodies (examples/guide/contact_pairs.md), checked against exact answers:
# - two identical bars (meshes/two_bars.msh: L = 1 m, 0.05 m square, 40 x 2 x 2 hex8 each,
#   rho 1000, E 100 MPa, nu 0: c = 316.2 m/s), the left one at v0 = 1 m/s hitting the right one
#   at rest (central difference, lumped mass, the default penalty): the contact force is
#   rho c v0 A / 2 (395.3 N) for 2 L / c (6.325 ms); then the left bar is at rest and the right one
#   moves at v0. Measured: mean force over the middle 60 % of the contact 0.99959 of the exact
#   one, peak 1.175 (the penalty's ringing), duration 1.028, impulse 0.99749 m v0, far ends'
#   velocities -0.0003 and 1.0003 v0, energy after 1.0010 of the initial kinetic energy;
# - the same under generalized-alpha (rho_infinity 0.3, dt = 2e-5 s; Newton with the pair's
#   tangent): the force over 0.3-0.8 of the contact 0.99991 of the exact one (+-2.3 %), duration
#   1.012, impulse 0.988 m v0, energy balance (with the scheme's dissipation) 1.00003; np 3 equal;
# - contact.csv equal on 1, 2 and 3 ranks (the bars on different ranks: the faces cross ranks);
# - one surface made of both end faces (self-contact) gives the pair's answer;
# - a restart from a checkpoint taken in contact (2 ranks -> 3) rewrites the same rows;
# - bad input: one error line each.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

bars() {  # bars FILE DIR [surfaces] [extra output keys]
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/two_bars.msh}
materials:
  - {region: bar1, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
  - {region: bar2, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
contact:
  pairs:
    - {name: ends, surfaces: ${3:-[bar1_end, bar2_end]}}
initial_conditions:
  velocity:
    - {region: bar1, velocity: [1, 0, 0]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.012}
output:
  directory: $2
  every: 0
  history_every: 1
  probes:
    - {name: left, point: [0, 0, 0], fields: [velocity]}
    - {name: right, point: [2, 0, 0], fields: [velocity]}
  ${4:-}
EOF
}

for np in 1 2 3; do
  bars "$work/bars$np.yaml" "out$np"
  run "$np" "$work/bars$np.yaml"
done
# The log names the pair with its nodes, penalties and margin, and counts its searches.
grep -q "^contact   contact pair 'ends' between regions 'bar1_end' and 'bar2_end': 9 + 9 nodes, penalty per pass .* margin 0.0125 m, frictionless" "$work/last.log" ||
  { cat "$work/last.log"; echo "FAIL: the pair's log line"; exit 1; }
grep -q "^finished: .*contact pair 'ends' searched [1-9][0-9]* time" "$work/last.log" ||
  { cat "$work/last.log"; echo "FAIL: the pair's search count"; exit 1; }
bars "$work/self.yaml" outself "[ends]"
run 2 "$work/self.yaml"
# Implicit: generalized-alpha (rho_infinity 0.3, dt = T / 316), Newton with the pair's tangent.
for np in 1 3; do
  bars "$work/ga$np.yaml" "ga$np"
  sed -i 's/integrator: central_difference, mass: lumped, dt: auto/integrator: generalized_alpha, generalized_alpha: {rho_infinity: 0.3}, mass: lumped, dt: 2.0e-5/' "$work/ga$np.yaml"
  run "$np" "$work/ga$np.yaml"
done
# Restart in contact: checkpoint at step 60 (in contact from step 1 to ~115), continued on 3 ranks.
bars "$work/barc.yaml" outc "" "checkpoint: {every: 60, keep: 4}"
run 2 "$work/barc.yaml"
cp "$work/outc/contact.csv" "$work/contact_full.csv"
run 3 "$work/barc.yaml" --restart "$work/outc/checkpoints/checkpoint_000000060.h5"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import math, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed
rho, E, A, L, v0 = 1000.0, 1.0e8, 0.05 * 0.05, 1.0, 1.0
c = math.sqrt(E / rho)
T, F0, m = 2 * L / c, rho * c * v0 * A / 2, rho * A * L
d = read(f"{work}/out1/contact.csv")
t, f = d["time"], [-x for x in d["ends.fx"]]  # the force on bar1 is along -x
on = [i for i, x in enumerate(f) if x > 0]
middle = [x for ti, x in zip(t, f) if 0.2 * T < ti < 0.8 * T]
check("mean contact force / (rho c v0 A / 2), middle of the contact", sum(middle) / len(middle) / F0, 0.995, 1.005)
check("peak contact force / (rho c v0 A / 2)", max(f) / F0, 1.0, 1.3)
check("contact duration / (2 L / c)", (t[on[-1]] - t[on[0]]) / T, 1.0, 1.05)
check("gaps inside the contact (steps without force)", sum(1 for i in range(on[0], on[-1]) if f[i] <= 0), 0, 0)
impulse = sum(0.5 * (f[i] + f[i + 1]) * (t[i + 1] - t[i]) for i in range(len(t) - 1))
check("impulse / (m v0)", impulse / (m * v0), 0.99, 1.01)
check("nodes in contact in the middle (9 per end face, both passes)", max(d["ends.active"]), 18, 18)
p = read(f"{work}/out1/probes.csv")
check("left bar's far end after / v0", p["left.vx"][-1] / v0, -0.02, 0.02)
check("right bar's far end after / v0", p["right.vx"][-1] / v0, 0.98, 1.02)
e = read(f"{work}/out1/energy.csv")
check("energy after / initial kinetic energy", e["total"][-1] / (0.5 * m * v0 ** 2), 0.995, 1.005)
check("normal force / |fx| in the middle of the contact",
      max(abs(n / x - 1) for n, x, ti in zip(d["ends.normal"], f, t) if 0.2 * T < ti < 0.8 * T), 0, 1e-9)
for other in ("out2", "out3", "outself"):
    o = read(f"{work}/{other}/contact.csv")
    # A surface touching itself: its net force is zero; its normal force is the pair's.
    column = "ends.normal" if other == "outself" else "ends.fx"
    diff = largest_difference(d, o, (column,))
    same_active = d["ends.active"] == o["ends.active"] and len(o["ends.fx"]) == len(f)
    check(f"{other} against 1 rank: largest force difference / peak", diff / max(f), 0, 1e-8)
    check(f"{other}: same active counts", int(same_active), 1, 1)
# Implicit (generalized-alpha): the plateau is the exact force once the start's ringing has been
# damped (rho_infinity 0.3); the scheme's dissipation is booked, so the balance closes.
g = read(f"{work}/ga1/contact.csv")
tg, fg = g["time"], [-x for x in g["ends.fx"]]
on = [i for i, x in enumerate(fg) if x > 0]
plateau = [x for ti, x in zip(tg, fg) if 0.3 * T < ti < 0.8 * T]
check("implicit: mean force / (rho c v0 A / 2), 0.3 to 0.8 of the contact", sum(plateau) / len(plateau) / F0, 0.998, 1.002)
check("implicit: force range / (rho c v0 A / 2) there", (max(plateau) - min(plateau)) / F0, 0, 0.1)
check("implicit: contact duration / (2 L / c)", (tg[on[-1]] - tg[on[0]]) / T, 1.0, 1.03)
impulse = sum(0.5 * (fg[i] + fg[i + 1]) * (tg[i + 1] - tg[i]) for i in range(len(tg) - 1))
check("implicit: impulse / (m v0)", impulse / (m * v0), 0.98, 1.02)
e = read(f"{work}/ga1/energy.csv")
check("implicit: energy balance after / initial kinetic energy", e["total"][-1] / (0.5 * m * v0 ** 2), 0.9995, 1.0005)
diff = largest_difference(g, read(f"{work}/ga3/contact.csv"), ("ends.fx",))
check("implicit: 3 ranks against 1: largest force difference / peak", diff / max(fg), 0, 1e-8)
full, resumed = read(f"{work}/contact_full.csv"), read(f"{work}/outc/contact.csv")
diff = largest_difference(full, resumed, ("ends.fx",))
check("restart at step 60 (2 ranks -> 3): largest force difference / peak", diff / max(f), 0, 1e-8)
check("restart: rows", len(resumed["ends.fx"]), len(full["ends.fx"]), len(full["ends.fx"]))
if not passed():
    print("FAIL: contact between bodies"); sys.exit(1)
EOF

# Bad input: one error line each, naming the file, line and key.
bars "$work/bad.yaml" badout "[bar1_end, bar2_end, bar1_end]"
expect_error "bad.yaml:7: contact.pairs\[0\].surfaces: expected two regions of faces, or one" 2 "$work/bad.yaml"
bars "$work/bad.yaml" badout "[bar1_end, bar1_end]"
expect_error "bad.yaml:7: contact.pairs\[0\].surfaces: the two surfaces are the same region" 1 "$work/bad.yaml"
bars "$work/bad.yaml" badout "[bar1_end, nowhere]"
expect_error "bad.yaml:7: contact.pairs\[0\].surfaces: unknown region 'nowhere'" 3 "$work/bad.yaml"
bars "$work/bad.yaml" badout
sed -i 's/surfaces: \[bar1_end, bar2_end\]}/surfaces: [bar1_end, bar2_end], margn: 1}/' "$work/bad.yaml"
expect_error "bad.yaml:7: contact.pairs\[0\]: unknown key 'margn' (did you mean 'margin'?)" 1 "$work/bad.yaml"
finish
