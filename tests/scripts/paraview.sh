#!/usr/bin/env bash
# What a user sees: the cantilever example's .pvd opens in ParaView (pvpython) with the expected
# point and cell arrays and time steps, and Warp By Vector on displacement works.
# Needs pvpython: on PATH, or ParaView's Python unpacked under $INERTIA_PVPYTHON_ROOT (see .ci/run).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
pv=()
if [ -n "${INERTIA_PVPYTHON_ROOT:-}" ] && [ -x "$INERTIA_PVPYTHON_ROOT/usr/bin/pvpython" ]; then
  export PYTHONPATH="$INERTIA_PVPYTHON_ROOT/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
  pv=("$INERTIA_PVPYTHON_ROOT/usr/bin/pvpython")
elif command -v pvpython > /dev/null; then
  pv=(pvpython)
else
  echo "SKIP: pvpython not found (install Debian's paraview, or see .ci/run); ParaView check not run"
  exit 0
fi
command -v xvfb-run > /dev/null && pv=(xvfb-run -a "${pv[@]}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e "s|file: ../../meshes/|file: $INERTIA_SOURCE_DIR/meshes/|" -e 's|end_time: 0.03|end_time: 0.005|' \
    -e "s|directory: out|directory: $work/out|" \
    "$INERTIA_SOURCE_DIR/examples/cantilever/cantilever.yaml" > "$work/cantilever.yaml"
"$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n 2 "$INERTIA" "$work/cantilever.yaml" > "$work/log"
"${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_pvd.py" "$work/out/cantilever.pvd" \
  --arrays displacement,velocity,acceleration,nodal_von_mises \
  --cell-arrays von_mises,stress,strain,rank,region \
  --steps 6
