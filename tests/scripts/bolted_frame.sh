#!/usr/bin/env bash
# examples/bolted_frame: a steel base block (hex8, fixed at its base) carrying a portal frame whose
# column feet are coupled rigidly to patches of its top face (couplings:), a horizontal load
# P = 10 kN at the girder's middle, static; the example as it stands, at np 2 (its README's
# command), and at np 1 and 3:
# - the base section (plane z = 0) carries fx = -P and my = -P (h + g + H) = -17.2 kN m, the load
#   times its lever arm over the base (1e-6 relative), the other components 0 (1e-6 of P, P H);
# - np 1 and 3 agree with np 2 (probe and section, 1e-9);
# - its frames in ParaView (pvpython; skipped without it): 16 beams as lines, the points are the
#   mesh's 152 nodes (no rotation node), von_mises and section_forces are there, the top probe's
#   rotation and displacement at its node to 1e-12, the tube recipe runs
#   (tests/support/check_beams_pvd.py); the columns' feet carry P/2 each (the frame's symmetry),
#   and their moments plus the axial forces' couple balance P H (1e-6,
#   tests/support/check_bolted_frame.py).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work"
mkdir -p examples/bolted_frame meshes
cp "$INERTIA_SOURCE_DIR/examples/bolted_frame/bolted_frame.yaml" examples/bolted_frame/
cp "$INERTIA_SOURCE_DIR/meshes/bolted_frame.msh" meshes/
for np in 2 1 3; do
  rm -rf examples/bolted_frame/out
  run_log "$work/np$np.log" "$np" examples/bolted_frame/bolted_frame.yaml
  cp -r examples/bolted_frame/out "out$np"
done
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/support"
python3 - "$work" << 'PY' || failed=1
import sys
from csv_checks import read, check, passed

work = sys.argv[1]
P, h, g, H = 1.0e4, 0.2, 0.02, 1.5


def last(np_, name):
    return {k: v[-1] for k, v in read(f"{work}/out{np_}/{name}").items()}


s = last(2, "sections.csv")
print(f"     base section: fx {s['base.fx']:.12g} N, my {s['base.my']:.12g} N m "
      f"(-P (h + g + H) = {-P * (h + g + H):g})")
check("base fx + P (relative to P)", abs(s["base.fx"] + P) / P, 0, 1e-6)
check("base my + P (h + g + H) (relative)", abs(s["base.my"] + P * (h + g + H)) / (P * (h + g + H)),
      0, 1e-6)
for k in ("base.fy", "base.fz", "base.mx", "base.mz"):
    check(f"{k} (relative to P (h + g + H))", abs(s[k]) / (P * (h + g + H)), 0, 1e-6)
p2 = last(2, "probes.csv")
for np_ in (1, 3):
    pn, sn = last(np_, "probes.csv"), last(np_, "sections.csv")
    d = max(abs(pn[k] - p2[k]) for k in p2 if k != "time") / abs(p2["top.ux"])
    check(f"np {np_} against np 2: top probe (relative to top ux)", d, 0, 1e-9)
    d = max(abs(sn[k] - s[k]) for k in s if k != "time") / (P * (h + g + H))
    check(f"np {np_} against np 2: base section (relative to P (h + g + H))", d, 0, 1e-9)
sys.exit(0 if passed() else 1)
PY
# The frames as ParaView shows them.
# shellcheck source=../support/pvpython.sh
source "$INERTIA_SOURCE_DIR/tests/support/pvpython.sh"
find_pvpython "bolted frame's ParaView check"
tip() {  # tip CSV COLUMNS...: the last row's values of the columns, comma-separated
  python3 - "$@" << 'PY'
import csv, sys
rows = list(csv.DictReader(line for line in open(sys.argv[1]) if not line.startswith("#")))
print(",".join(rows[-1][c] for c in sys.argv[2:]))
PY
}
for np in 2 3; do
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_beams_pvd.py" "out$np/bolted_frame.pvd" \
    --beams 16 --nodes 152 --arrays displacement,rotation --at 0,0,1.72 \
    --rotation="$(tip "out$np/probes.csv" top.rx top.ry top.rz)" \
    --displacement="$(tip "out$np/probes.csv" top.ux top.uy top.uz)" || failed=1
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_bolted_frame.py" "out$np/bolted_frame.pvd" \
    --load 1e4 --height 1.5 --half-span 0.5 --foot-z 0.22 || failed=1
done
finish
