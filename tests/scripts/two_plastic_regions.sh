#!/usr/bin/env bash
# Two regions of J2 material (meshes/two_bars.msh, two bars with their own yield stresses) in one
# explicit run: both flow, and a restart from the step-20 checkpoint on another rank count
# continues exactly. Each region's point state is checkpointed under its own name
# ("state.plasticity", "state.plasticity.2"): before, the second was refused as an array given
# twice.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

cp "$INERTIA_SOURCE_DIR/meshes/two_bars.msh" "$work/"
cat > "$work/case.yaml" <<'YAML'
mesh: {file: two_bars.msh}
materials:
  - {region: bar1, density: 7850, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.0e8, isotropic_hardening: 1.0e9}}
  - {region: bar2, model: hencky, density: 7850, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     formulation: reduced, plasticity: {yield_stress: 3.0e8, isotropic_hardening: 5.0e8}}
boundary_conditions:
  - {region: ends, type: fixed}
initial_conditions:
  velocity: [0, 0, 300]
time: {integrator: central_difference, mass: lumped, dt: 2.0e-7, steps: 40}
output:
  directory: out
  every: 0
  history_every: 1
  probes:
    - {name: one, point: [0.5, 0.025, 0.025], fields: [displacement, state]}
  checkpoint: {every: 20, keep: 2}
YAML
run 1 "$work/case.yaml"
cp -r "$work/out" "$work/straight"
run 2 "$work/case.yaml" --restart "$work/out/checkpoints/checkpoint_000000020.h5"
python3 - "$work/straight" "$work/out" <<'PY'
import csv, sys
def rows(path):
    with open(path) as f:
        r = list(csv.reader(l for l in f if not l.startswith('#')))
    return r[0], [[float(x) for x in row] for row in r[1:]]
for name in ("probes.csv", "energy.csv"):
    (ha, ra), (hb, rb) = rows(f"{sys.argv[1]}/{name}"), rows(f"{sys.argv[2]}/{name}")
    assert ha == hb and len(ra) == len(rb) == 41, (name, len(ra), len(rb))
    for c in range(2, len(ha)):
        scale = max(abs(r[c]) for r in ra) or 1.0
        err = max(abs(p[c] - q[c]) for p, q in zip(ra, rb)) / scale
        assert err <= 1e-10, f"{name} {ha[c]}: restart 1 -> 2 ranks differs by {err:.2e}"
h, r = rows(f"{sys.argv[1]}/energy.csv")
dissipated = r[-1][h.index("plastic_dissipation")]
assert dissipated > 0, dissipated
print(f"two J2 regions: restart 1 -> 2 ranks from step 20 agrees to 1e-10 (dissipation {dissipated:.3e} J)")
PY
finish
