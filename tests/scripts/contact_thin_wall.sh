#!/usr/bin/env bash
# Self-contact of a thin wall with one entry (examples/guide/contact_pairs.md, "Thin walls"), on
# meshes/u_strip.msh: a U-shaped strip 0.5 mm thick (one hex8 through it, 2.5 mm long), its legs
# 4 mm apart thrown at each other at 4 m/s each (E 10 MPa, central difference, 1 ms). Every node
# of a leg starts 0.5 mm behind the faces of the leg's other side (within the pair's reach), so
# the wall's own thickness must not count as a penetration: a node deeper behind a face than
# 0.4 x the height of the face's cell is not in contact with it. Checked, for the strip's
# volume `strip` (its skin) on 1 and 2 ranks and its skin as a surface region `skin`:
# - no contact force and no energy before the legs meet (no launch); the energy balance closes
#   to 3 % (measured 1.3 %, lost as the nodes enter contact within steps: 0.1 % at dt 1e-6 s
#   instead of the auto 3.4e-6 s);
# - a contact force once they meet (measured from 0.44 ms on: 4 mm at 8 m/s, the tips first;
#   peak 5.1 N, 12 nodes), the legs stopped and thrown back (the tips at 5.3 m/s);
# - the two ways of giving the surface and the ranks agree.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
strip() {  # strip FILE DIR SURFACE
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/u_strip.msh}
materials:
  - {region: strip, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
contact:
  pairs:
    - {name: fold, surfaces: [$3]}
initial_conditions:
  velocity:
    - {region: leg1_sides, velocity: [0, -4, 0]}
    - {region: leg2_sides, velocity: [0, 4, 0]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1.0e-3}
output:
  directory: $2
  every: 0
  history_every: 1
  probes:
    - {name: tip1, point: [0.02, 0.002, 0.0025], fields: [velocity]}
    - {name: tip2, point: [0.02, -0.002, 0.0025], fields: [velocity]}
EOF
}
for np in 1 2; do
  strip "$work/volume$np.yaml" "volume$np" strip
  run $np "$work/volume$np.yaml"
done
strip "$work/skin.yaml" skin skin
run 1 "$work/skin.yaml"
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed
c = read(f"{work}/volume1/contact.csv")
e = read(f"{work}/volume1/energy.csv")
p = read(f"{work}/volume1/probes.csv")
t, normal = c["time"], c["fold.normal"]
first = next(i for i, f in enumerate(normal) if f > 0)
check("first contact (ms; the legs 4 mm apart at 8 m/s meet after 0.5 ms)", 1e3 * t[first], 0.3, 0.6)
check("contact force before 0.3 ms (N)", max(f for ti, f in zip(t, normal) if ti < 3e-4), 0, 0)
check("strain energy at the start / initial kinetic energy", abs(e["strain"][0]) / e["kinetic"][0], 0, 1e-12)
check("peak contact force (N)", max(normal), 1, 1e4)
check("nodes in contact at most", max(c["fold.active"]), 1, 1000)
check("energy balance at the end / initial kinetic energy", abs(e["total"][-1] / e["total"][0] - 1), 0, 0.03)
check("leg 1's tip at the end: thrown back (vy, m/s)", p["tip1.vy"][-1], 0, 10)
check("leg 2's tip at the end: thrown back (vy, m/s)", p["tip2.vy"][-1], -10, 0)
peak = max(normal)
for other in ("volume2", "skin"):
    o = read(f"{work}/{other}/contact.csv")
    check(f"{other} against the volume on 1 rank: largest normal force difference / peak",
          largest_difference(c, o, ("fold.normal",)) / peak, 0, 1e-8)
if not passed():
    print("FAIL: thin-wall self-contact"); sys.exit(1)
EOF
echo "thin-wall self-contact: no force at the start, contact when the legs meet, np 1, 2"
