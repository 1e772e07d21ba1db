#!/usr/bin/env bash
# A full run of the cantilever example gives the same probe histories on 1, 2 and 3 ranks
# and the same support reactions (METIS partitions differ with the rank count) to 1e-8 relative,
# and its energy balance holds; the same case with generalized_alpha gives the same histories on
# 1, 2 and 3 ranks too, and its balance closes with the algorithmic dissipation column; and so
# does central_difference with lumped mass and dt: auto, whose dt (the log's line and the 17 digits
# of every row's time) is the same on 1, 2 and 3 ranks and whose last row is at end_time.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
sed -e "s|file: ../../meshes/|file: $INERTIA_SOURCE_DIR/meshes/|" -e 's|end_time: 0.03|end_time: 0.01|' \
    -e "s|^  dt: .*|  dt: 2.0e-4|" -e "s|every: 5|every: 0|" "$INERTIA_SOURCE_DIR/examples/cantilever/cantilever.yaml" > "$work/case.yaml"
sed "s|^  integrator: newmark|  integrator: generalized_alpha|" "$work/case.yaml" > "$work/alpha.yaml"
grep -q "integrator: generalized_alpha" "$work/alpha.yaml"
sed -e "s|^  integrator: newmark|  integrator: central_difference|" -e "/^  newmark:/d" \
    -e "s|^  mass: consistent|  mass: lumped|" -e "s|^  dt: .*|  dt: auto|" \
    -e "s|end_time: 0.01|end_time: 0.0002|" "$work/case.yaml" > "$work/auto.yaml"
grep -q "dt: auto" "$work/auto.yaml" && grep -q "mass: lumped" "$work/auto.yaml"
for scheme in newmark alpha auto; do
  template="$work/$scheme.yaml"
  [ "$scheme" = newmark ] && template="$work/case.yaml"
  for np in 1 2 3; do
    mkdir -p "$work/$scheme/np$np"
    sed "s|directory: out|directory: $work/$scheme/np$np|" "$template" > "$work/$scheme/np$np.yaml"
    mpi "$np" "$INERTIA" "$work/$scheme/np$np.yaml" -ksp_rtol 1e-12 > "$work/$scheme/np$np.log"
  done
done
for scheme in newmark alpha auto; do
python3 - "$work/$scheme" "$scheme" <<'PY'
import csv, re, sys
work, scheme = sys.argv[1], sys.argv[2]
def rows(path):
    with open(path) as f:
        return [r for r in csv.reader(line for line in f if not line.startswith('#'))]
if scheme == "auto":
    # dt: auto: the same dt on every rank count, to the last bit (the times are printed with 17
    # digits), and the run ends at end_time.
    logs = {np: open(f"{work}/np{np}.log").read() for np in (1, 2, 3)}
    lines = {np: re.findall(r"^ +dt: auto = .*$|^time +central_difference.*$", logs[np], re.M)
             for np in (1, 2, 3)}
    assert len(lines[1]) == 2, lines[1]
    print("\n".join(re.findall(r"^frequency .*$", logs[1], re.M) + lines[1]))
    assert lines[1] == lines[2] == lines[3], lines
    times = {np: [r[1] for r in rows(f"{work}/np{np}/probes.csv")[1:]] for np in (1, 2, 3)}
    assert times[1] == times[2] == times[3], "the step times differ between rank counts"
    assert abs(float(times[1][-1]) - 0.0002) <= 1e-12 * 0.0002, times[1][-1]
    print(f"auto: {len(times[1]) - 1} steps on np 1, 2, 3; last row at t = {times[1][-1]}")
ref = rows(f"{work}/np1/probes.csv")
header, ref = ref[0], [[float(x) for x in r] for r in ref[1:]]
assert header[:4] == ['step', 'time', 'tip.ux', 'tip.uy'], header
assert scheme == "auto" or len(ref) == 51, len(ref)  # 50 steps of 2e-4 s, and step 0
# Relative to the magnitude of the probe's displacement (or velocity) vector, or stress tensor,
# over the run: a component that is zero by symmetry (tip.uy here) has only round-off to compare.
def quantity(column):  # tip.ux -> tip.u, root.sxy -> root.s, root.von_mises -> root.von_mises
    probe, name = column.rsplit('.', 1)
    return column if name == 'von_mises' else f"{probe}.{name[0]}"
assert any(quantity(c) == 'root.s' for c in header[2:]), header  # the stress probe is compared too
scale = [1.0] * len(header)
for c in range(2, len(header)):
    group = [k for k in range(2, len(header)) if quantity(header[k]) == quantity(header[c])]
    scale[c] = max(sum(r[k] ** 2 for k in group) ** 0.5 for r in ref)
worst = 0.0
for np in (2, 3):
    other = rows(f"{work}/np{np}/probes.csv")
    assert other[0] == header
    other = [[float(x) for x in r] for r in other[1:]]
    assert len(other) == len(ref), (np, len(other))
    for a, b in zip(ref, other):
        for c in range(2, len(header)):
            worst = max(worst, abs(a[c] - b[c]) / scale[c])
# support reactions: the same on every rank count, relative to their largest component
reactions = {np: rows(f"{work}/np{np}/reactions.csv") for np in (1, 2, 3)}
assert reactions[1][0][2:] == ['clamp.fx', 'clamp.fy', 'clamp.fz'], reactions[1][0]
rscale = max(abs(float(x)) for r in reactions[1][1:] for x in r[2:])
assert rscale > 0
rworst = 0.0
for np in (2, 3):
    assert reactions[np][0] == reactions[1][0] and len(reactions[np]) == len(reactions[1])
    for a, b in zip(reactions[1][1:], reactions[np][1:]):
        rworst = max(rworst, max(abs(float(x) - float(y)) for x, y in zip(a[2:], b[2:])) / rscale)
print(f"reactions: max relative difference np2/np3 vs np1 = {rworst:.3e}")
assert rworst < 1e-8, rworst
# energy: total (kinetic + strain - work) stays at zero relative to the work done
# (generalized_alpha: the algorithmic dissipation column closes its balance too)
energy = rows(f"{work}/np2/energy.csv")
columns = ['step', 'time', 'kinetic', 'strain', 'external_work', 'damping_dissipation', 'total']
if scheme == "alpha":
    columns.insert(6, 'algorithmic_dissipation')
assert energy[0] == columns, energy[0]
work_max = max(abs(float(r[4])) for r in energy[1:])
drift = max(abs(float(r[-1])) for r in energy[1:]) / work_max
print(f"{scheme}: probe histories: max relative difference np2/np3 vs np1 = {worst:.3e}; "
      f"energy drift = {drift:.3e}")
assert worst < 1e-8, worst
assert scheme == "auto" or drift < 1e-8, drift  # central difference: O(dt^2)
PY
done
