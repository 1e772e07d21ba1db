#!/usr/bin/env bash
# The energy rows of an explicit run of J2 solids take the stored energy from the step's own
# force pass (SolidTerm::force_energy: each point's free energy from the state the pass wrote,
# the trial rows or, after the step's commit, the committed ones; a reduced cell's hourglass
# energy at u besides) and the reactions from the step's own internal force: a bar of 10 x 2 x 2
# hex8 (full and reduced), J2 past yield, fixed at one end and thrown at 54 m/s, a history row
# every step, 400 steps of central difference:
# - the energy balance (total against the initial kinetic energy) closes at the end to 6e-5
#   (measured 2.8e-5 full, 2.5e-5 reduced; the energy taken from the state before the step, one
#   step late, gave 1.2e-4 and 1.5e-4: checked by running this script on such a build);
# - the plastic dissipation is most of the initial kinetic energy (the bar flows); the reduced
#   bar's hourglass energy is part of its strain energy and not zero (the hourglass column takes
#   it at u: the force pass keeps none for solids; measured 16 % of it on this coarse bar);
# - energy.csv on 2 ranks equals 1 rank's to 1e-10 of the initial kinetic energy;
# - reactions.csv: the fixed end's force in x is finite and not zero (from the step's force).
# About 5 s.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
for form in full reduced; do
  for np in 1 2; do
    cat > "$work/${form}_$np.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.02, 0.02], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, formulation: $form,
     plasticity: {yield_stress: 2.0e8, isotropic_hardening: 1.0e9}}
boundary_conditions:
  - {region: xmin, type: fixed}
initial_conditions: {velocity: [-50, 0, 20]}
time: {integrator: central_difference, mass: lumped, dt: auto, steps: 400}
output: {directory: ${form}_$np, every: 0, reactions: true}
EOF
    (cd "$work" && run "$np" "${form}_$np.yaml") || exit 1
  done
done
python3 - "$work" <<'PY' || fail "energy rows"
import csv, math, sys
work = sys.argv[1]
bad = []
def rows(path):
    return list(csv.DictReader(l for l in open(path) if not l.startswith("#")))
for form in ("full", "reduced"):
    e1, e2 = rows(f"{work}/{form}_1/energy.csv"), rows(f"{work}/{form}_2/energy.csv")
    k0 = float(e1[0]["kinetic"])
    end = abs(float(e1[-1]["total"]) - float(e1[0]["total"])) / k0
    plastic = float(e1[-1]["plastic_dissipation"]) / k0
    apart = max(abs(float(a[c]) - float(b[c])) for a, b in zip(e1, e2) for c in a if c != "step")
    print(f"{form}: balance at the end {end:.2e} of the initial kinetic energy, plastic "
          f"dissipation {plastic:.3f} of it, 1 and 2 ranks {apart / k0:.1e} apart")
    if not end < 6e-5: bad.append(f"{form}: balance {end:.2e}")
    if not plastic > 0.5: bad.append(f"{form}: plastic dissipation {plastic:.3f}")
    if form == "reduced":
        hg, strain = float(e1[-1]["hourglass"]), float(e1[-1]["strain"])
        print(f"reduced: hourglass energy {hg / strain:.2e} of the strain energy at the end")
        if not 0 < hg < 0.5 * strain: bad.append(f"reduced: hourglass {hg} of strain {strain}")
    if len(e1) != 401 or len(e2) != 401: bad.append(f"{form}: {len(e1)}, {len(e2)} energy rows")
    if not apart < 1e-10 * k0: bad.append(f"{form}: ranks {apart:.2e} apart")
    r = rows(f"{work}/{form}_1/reactions.csv")
    fx = [float(x[c]) for x in r for c in x if c.endswith(".fx")]
    if not fx or not all(math.isfinite(v) for v in fx) or max(abs(v) for v in fx) == 0:
        bad.append(f"{form}: reactions {fx[:3]}")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
finish
