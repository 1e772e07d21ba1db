# Sourced by the ParaView checks (tests/scripts/paraview.sh, xdmf.sh): sets the array `pv` to the
# command that runs ParaView's Python (under xvfb-run when there is one), or prints SKIP and exits
# the script with status 0 when there is no pvpython. Usage: find_pvpython "WHAT check".
find_pvpython() {
  pv=()
  use_root() {  # ParaView's Python unpacked under $1 (dpkg-deb -x python3-paraview_*.deb $1)
    export PYTHONPATH="$1/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
    pv=("$1/usr/bin/pvpython")
  }
  if [ -n "${INERTIA_PVPYTHON_ROOT:-}" ] && [ -x "$INERTIA_PVPYTHON_ROOT/usr/bin/pvpython" ]; then
    use_root "$INERTIA_PVPYTHON_ROOT"
  elif command -v pvpython > /dev/null; then
    pv=(pvpython)
  elif [ -x /opt/inertia-paraview-python/usr/bin/pvpython ]; then
    use_root /opt/inertia-paraview-python
  else
    echo "SKIP: pvpython not found (install Debian's paraview, or see .ci/run); $1 not run"
    exit 0
  fi
  if command -v xvfb-run > /dev/null; then pv=(xvfb-run -a "${pv[@]}"); fi
}
