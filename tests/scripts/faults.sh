#!/usr/bin/env bash
# Faults of the machine, not of the input (examples/guide/run_promises.md): a run either finishes
# with every row and frame it announces, or exits non-zero with one line saying why, its files
# marked INCOMPLETE, and the newest complete checkpoint usable.
#   1. A full disk (CSV histories, VTK pieces, checkpoints): one line "<file>: No space left on
#      device", non-zero exit, every row left in the histories complete. Written on a 64 KiB
#      tmpfs where the machine lets us mount one (then the INCOMPLETE marks are checked too), and
#      always through an LD_PRELOAD shim that fails writes after a byte budget
#      (tests/support/enospc.c).
#   2. Torn rows: histories cut mid-row by a kill are continued by --restart with complete rows
#      only, equal to an uninterrupted run.
#   3. Damaged newest checkpoints (truncated, zeroed, random bytes, flipped data bits): --restart
#      DIR falls back to the older one, says why, and ends equal to an uninterrupted run; the
#      damaged file given explicitly fails with one line and no HDF5 error stack.
#   4. SIGTERM to the ranks (a batch system's time limit): exit status 143, one line, a
#      checkpoint of the last complete step, complete rows and INCOMPLETE marks; --restart then
#      finishes the run equal to an uninterrupted one.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_ENOSPC:?set INERTIA_ENOSPC to the full-disk shim (libinertia_enospc.so)}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
tmpfs=""
e2e_cleanup() {
  [ -n "$tmpfs" ] && umount "$tmpfs" 2>/dev/null
}
clean_error_line() {  # clean_error_line PATTERN: one_error_line PATTERN, no library error output
  one_error_line "$1"
  ! grep -Eq 'HDF5-DIAG|PETSC ERROR|\.cxx:|main thread' "$work/err" || die "library error output on stderr"
}
complete_rows() {  # complete_rows CSV: every line a comment or a row with the header's field count
  python3 - "$1" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
lines = text.split('\n')
assert lines[-1] == '', f"{path}: the last line is not newline-terminated: {lines[-1]!r}"
rows = [l for l in lines[:-1] if not l.startswith('#')]
fields = len(rows[0].split(','))
steps = []
for l in rows[1:]:
    parts = l.split(',')
    assert len(parts) == fields, f"{path}: a row with {len(parts)} fields: {l!r}"
    float(parts[1])
    steps.append(int(parts[0]))
assert steps == list(range(len(steps))), f"{path}: steps are not 0..N: {steps[:5]}...{steps[-5:]}"
PY
}
same_histories() {  # same_histories DIR_A DIR_B: probes.csv and energy.csv equal to 1e-12
  python3 - "$1" "$2" <<'PY'
import sys
a, b = sys.argv[1:3]
for name in ("probes.csv", "energy.csv"):
    ra = [l.split(',') for l in open(f"{a}/{name}").read().splitlines() if l and not l.startswith('#')]
    rb = [l.split(',') for l in open(f"{b}/{name}").read().splitlines() if l and not l.startswith('#')]
    assert ra[0] == rb[0] and len(ra) == len(rb), (name, len(ra), len(rb))
    scale = max(abs(float(x)) for r in ra[1:] for x in r[2:]) or 1.0
    worst = max(abs(float(x) - float(y)) for p, q in zip(ra[1:], rb[1:]) for x, y in zip(p, q))
    assert worst <= 1e-12 * scale, f"{name}: differs by {worst / scale:.2e}"
PY
}

case_file() {  # case_file DIR STEPS OUTPUT_EVERY CHECKPOINT_EVERY [OUTPUT_DIR]
  mkdir -p "$1"
  cat > "$1/case.yaml" <<EOF
mesh:
  box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [8, 2, 2], element: hex8}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -2000]}
time: {integrator: central_difference, dt: 2.0e-5, steps: $2}
output:
  directory: ${5:-out}
  format: ${FORMAT:-vtu}
  every: $3
  fields: [displacement]
  probes: [{name: tip, point: [1, 0.1, 0.1]}]
  checkpoint: {every: $4, keep: 3}
EOF
}

# ---- 1. A full disk ----------------------------------------------------------------------------
# Through the shim: rank 0's CSV rows, the VTK pieces of every rank, the checkpoints.
# The shim counts the bytes written to paths starting with FILES (relative to the output
# directory) and fails them past BUDGET bytes per process.
full_disk_shim() {  # full_disk_shim LABEL FILES BUDGET OUTPUT_EVERY CHECKPOINT_EVERY PATTERN
  local d="$work/shim_$1"
  case_file "$d" 3000 "$4" "$5"
  mkdir -p "$d/out"
  if INERTIA_FULL_DIR="$d/out/$2" INERTIA_FULL_BYTES=$3 LD_PRELOAD="$INERTIA_ENOSPC" \
    capture "${NP:-2}" "$d/case.yaml"; then die "full disk ($1): exit status 0"; fi
  clean_error_line "$6: ${7:-No space left on device}"
  complete_rows "$d/out/probes.csv"
  complete_rows "$d/out/energy.csv"
  echo "ok: full disk through the shim ($1): $(grep '^inertia: error:' "$work/err")"
}
full_disk_shim probes probes.csv 40000 0 0 'out/probes\.csv'
full_disk_shim energy energy.csv 40000 0 0 'out/energy\.csv'
full_disk_shim vtk case_ 50000 50 0 'out/case_[0-9]+/piece_000[01]\.vtu'
# A checkpoint that would not fit is refused before HDF5 starts (on every rank: a disk filling in
# the middle of a collective HDF5 write can leave a rank waiting in its flush); the one before it
# stays usable.
full_disk_shim checkpoint checkpoints 50000 0 200 'checkpoints/checkpoint_[0-9]+\.h5\.tmp'
grep -q 'the checkpoint needs about' "$work/err" || die "checkpoint: the free space was not checked"
capture 2 "$work/shim_checkpoint/case.yaml" --restart "$work/shim_checkpoint/out/checkpoints" ||
  die "checkpoint: no usable checkpoint was left before the full disk"
# A disk that fills during the write itself (statvfs still says there is room), on one rank.
NP=1 INERTIA_FULL_SPACE=real full_disk_shim checkpoint_write checkpoints 30000 0 200 \
  'checkpoints/checkpoint_[0-9]+\.h5\.tmp'

# An XDMF frame that would not fit is refused before HDF5 starts, as a checkpoint is (the series
# in out/x, so that the shim's free space is the series directory's).
d="$work/shim_xdmf"
FORMAT=xdmf case_file "$d" 3000 1 0 out/x
mkdir -p "$d/out/x"
if INERTIA_FULL_DIR="$d/out/x" INERTIA_FULL_BYTES=1500000 LD_PRELOAD="$INERTIA_ENOSPC" \
  capture 2 "$d/case.yaml"; then die "full disk (xdmf): exit status 0"; fi
clean_error_line "out/x/case\.h5: No space left on device \(the frame needs about"
complete_rows "$d/out/x/probes.csv"
grep -q "<Grid Name=\"step_000000\"" "$d/out/x/case.xdmf" || die "xdmf: no step left in the series"
echo "ok: full disk through the shim (xdmf): $(grep '^inertia: error:' "$work/err")"

# A write of the HDF5 writers that fails although statvfs reported room (a quota, another
# writer, a failing disk), on every rank or on some (a quota fails whichever rank writes past
# it), at 2 and 3 ranks: one line with the system's reason, the marks, a non-zero exit, and no
# hang (these hung until killed before: the collective HDF5 writes). A short timeout, so that a
# regression fails here instead of hanging the suite (the patterns have no "-": the marks in XML
# comments replace it). Then --restart from the checkpoints takes
# the newest complete one (never a .tmp) and finishes the run.
#   quota_fault LABEL NP FORMAT WATCHED BUDGET ERRNO RANKS DEFERRED PATTERN
quota_fault() {
  local label=$1 np=$2 format=$3 watched=$4 budget=$5 errno=$6 ranks=$7 deferred=$8 pattern=$9
  local d="$work/quota_$label" status=0
  FORMAT=$format case_file "$d" 400 "$([ "$format" = xdmf ] && echo 2 || echo 40)" 40 out
  mkdir -p "$d/out/checkpoints"
  INERTIA_FULL_DIR="$d/out/$watched" INERTIA_FULL_BYTES=$budget INERTIA_FULL_SPACE=real \
    INERTIA_FULL_ERRNO=$errno INERTIA_FULL_RANKS=$ranks INERTIA_FULL_DEFERRED=$deferred \
    LD_PRELOAD="$INERTIA_ENOSPC" E2E_TIMEOUT=60 capture "$np" "$d/case.yaml" || status=$?
  [ "$status" != 124 ] && [ "$status" != 137 ] || die "quota ($label): hung (killed after 60 s)"
  [ "$status" != 0 ] || die "quota ($label): exit status 0"
  clean_error_line "$pattern"
  for f in probes energy; do
    complete_rows "$d/out/$f.csv"
    grep -Eq "^# INCOMPLETE: .*$pattern" "$d/out/$f.csv" || die "quota ($label): $f.csv not marked"
  done
  local series="$d/out/case.pvd"
  [ "$format" = xdmf ] && series="$d/out/case.xdmf"
  grep -Eq "INCOMPLETE: .*$pattern" "$series" ||
    die "quota ($label): $series not marked INCOMPLETE"
  python3 -c "import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])" "$series"
  local newest
  newest=$(find "$d/out/checkpoints" -name 'checkpoint_*.h5' | sort | tail -n 1)
  [ -n "$newest" ] || die "quota ($label): no complete checkpoint before the failure"
  echo "ok: quota ($label): status $status: $(grep '^inertia: error:' "$work/err")"
  E2E_TIMEOUT=120 capture "$np" "$d/case.yaml" --restart "$d/out/checkpoints" ||
    die "quota ($label): restart from $d/out/checkpoints"
  grep -q "restart   from $newest: step" "$work/out" ||
    die "quota ($label): not restarted from the newest complete checkpoint $newest"
  grep -q '^finished' "$work/out" || die "quota ($label): the restarted run did not finish"
  complete_rows "$d/out/probes.csv"
  if [ "$format" = xdmf ]; then
    grep -q '<Grid Name="step_000200"' "$d/out/case.xdmf" || die "quota ($label): no last frame"
    python3 -c "import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])" "$series"
  fi
  echo "ok: quota ($label): restarted from $(basename "$newest") and finished"
}
quota_fault ck_np2 2 vtu checkpoints 30000 EDQUOT "" 0 \
  'out/checkpoints/checkpoint_[0-9]+\.h5\.tmp: Disk quota exceeded'
quota_fault ck_np3_rank1_eio 3 vtu checkpoints 3000 EIO 1 0 \
  'out/checkpoints/checkpoint_[0-9]+\.h5\.tmp: Input/output error'
quota_fault ck_np2_at_close 2 vtu checkpoints 5000 ENOSPC 1 1 \
  'out/checkpoints/checkpoint_[0-9]+\.h5\.tmp: No space left on device'
quota_fault xdmf_np2 2 xdmf case.h5 100000 ENOSPC "" 0 'out/case\.h5: No space left on device'
quota_fault xdmf_np3_rank2 3 xdmf case.h5 20000 EDQUOT 2 0 'out/case\.h5: Disk quota exceeded'

# On a real 64 KiB tmpfs, where the machine allows it: the marks are checked too.
if mkdir -p "$work/tmpfs" && mount -t tmpfs -o size=64k tmpfs "$work/tmpfs" 2>/dev/null; then
  tmpfs="$work/tmpfs"
  for label in csv vtk; do
    rm -rf "${tmpfs:?}"/*
    d="$work/tmpfs_$label"
    case_file "$d" 3000 "$([ $label = vtk ] && echo 1 || echo 0)" 0 "$tmpfs/out"
    if capture 2 "$d/case.yaml"; then die "full tmpfs ($label): exit status 0"; fi
    clean_error_line "$tmpfs/out/.*: No space left on device"
    complete_rows "$tmpfs/out/probes.csv"
    grep -q '^# INCOMPLETE: .*No space left on device' "$tmpfs/out/probes.csv" ||
      die "full tmpfs ($label): probes.csv not marked INCOMPLETE"
    if [ $label = vtk ]; then
      grep -q 'INCOMPLETE: .*No space left on device' "$tmpfs/out/case.pvd" ||
        die "full tmpfs: the .pvd is not marked INCOMPLETE"
      python3 -c "import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])" "$tmpfs/out/case.pvd"
    fi
    echo "ok: full 64 KiB tmpfs ($label): $(grep '^inertia: error:' "$work/err")"
  done
else
  echo "note: cannot mount a tmpfs here; the full disk was checked through the shim only"
fi

# ---- 2. Torn rows ------------------------------------------------------------------------------
d="$work/torn"
case_file "$d/full" 20 0 5
capture 2 "$d/full/case.yaml" || die "uninterrupted run"
mkdir -p "$d/cut/out"
cp "$d/full/case.yaml" "$d/cut/"
cp -r "$d/full/out/checkpoints" "$d/cut/out/"
rm "$d/cut/out/checkpoints/checkpoint_000000015.h5" "$d/cut/out/checkpoints/checkpoint_000000020.h5"
# As a kill leaves them: rows up to 13, then the first characters of row 14 ("1"); rows up to 12,
# then row 13 cut in the middle of a number. The fragment "1" parsed as step 1 before.
python3 - "$d/full/out" "$d/cut/out" <<'PY'
import sys
src, dst = sys.argv[1:3]
for name, keep, cut in (("probes.csv", 13, 1), ("energy.csv", 12, 25)):
    lines = open(f"{src}/{name}").read().splitlines(True)
    header = [l for l in lines if l.startswith('#') or l.startswith('step')]
    rows = [l for l in lines if l not in header]
    open(f"{dst}/{name}", "w").write(''.join(header + rows[:keep + 1]) + rows[keep + 1][:cut])
PY
capture 2 "$d/cut/case.yaml" --restart "$d/cut/out" || die "restart after torn rows"
complete_rows "$d/cut/out/probes.csv"
complete_rows "$d/cut/out/energy.csv"
same_histories "$d/full/out" "$d/cut/out"
echo "ok: torn rows are dropped on restart; the continued histories equal the uninterrupted run"

# ---- 3. Damaged checkpoints --------------------------------------------------------------------
for damage in truncated zeroed random flipped; do
  d="$work/damaged_$damage"
  cp -r "$work/torn/full" "$d"
  newest="$d/out/checkpoints/checkpoint_000000020.h5"
  case $damage in
    truncated) truncate -s 5000 "$newest" ;;
    zeroed) dd if=/dev/zero of="$newest" bs=1k count=8 conv=notrunc 2>/dev/null ;;
    random) head -c 30000 /dev/urandom > "$newest" ;;
    flipped) python3 - "$newest" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
for i in range(4096, len(b) - 4096, 512):  # data bits, past HDF5's superblock
    b[i] ^= 0x5a
open(sys.argv[1], 'wb').write(b)
PY
    ;;
  esac
  if capture 2 "$d/case.yaml" --restart "$newest"; then die "restart from a $damage checkpoint: status 0"; fi
  clean_error_line "checkpoint_000000020\.h5: cannot restart from this checkpoint: it is damaged"
  capture 2 "$d/case.yaml" --restart "$d/out/checkpoints" || die "restart beside a $damage checkpoint"
  grep -q "restart   skipped .*checkpoint_000000020.h5: .*damaged" "$work/out" ||
    die "the log does not say why the $damage checkpoint was skipped"
  grep -q "restart   from .*checkpoint_000000015.h5: step 15" "$work/out" ||
    die "not restarted from the older checkpoint"
  same_histories "$work/torn/full/out" "$d/out"
  echo "ok: a $damage newest checkpoint is skipped for the older one ($(grep -o 'damaged (.*' "$work/out" | head -c 70)...)"
done

# ---- 4. SIGTERM --------------------------------------------------------------------------------
d="$work/sigterm"
case_file "$d/full" 4000 0 1000
capture 2 "$d/full/case.yaml" || die "uninterrupted run"
case_file "$d/cut" 4000 0 1000
timeout 300 "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n 2 "$INERTIA" "$d/cut/case.yaml" \
  > "$work/out" 2> "$work/err" < /dev/null &
launcher=$!
for _ in $(seq 600); do  # until the ranks are in the time loop (rows on disk)
  [ -s "$d/cut/out/energy.csv" ] && [ "$(wc -l < "$d/cut/out/energy.csv")" -gt 2 ] && break
  sleep 0.1
done
# The ranks (whose command lines start with the program; mpiexec's does not): a launcher that is
# signalled itself reports its own status (OpenMPI's: 1), though the ranks still stop cleanly.
pkill -TERM -f "^$INERTIA $d/cut/case.yaml" || true
status=0
wait "$launcher" || status=$?
if grep -q '^finished' "$work/out"; then
  echo "note: the run finished before the signal; SIGTERM not checked"
else
  [ "$status" = 143 ] || die "SIGTERM: exit status $status, expected 143"
  clean_error_line "interrupted by SIGTERM after step [0-9]+ of 4000.*checkpoint of step"
  step=$(grep -o 'after step [0-9]*' "$work/err" | grep -o '[0-9]*$')
  for f in probes energy; do
    complete_rows "$d/cut/out/$f.csv"
    tail -n 1 "$d/cut/out/$f.csv" | grep -q '^# INCOMPLETE: .*interrupted by SIGTERM' ||
      die "SIGTERM: $f.csv is not marked INCOMPLETE"
    [ "$(grep -v '^#' "$d/cut/out/$f.csv" | tail -n 1 | cut -d, -f1)" = "$step" ] ||
      die "SIGTERM: $f.csv does not end at step $step"
  done
  [ -f "$d/cut/out/checkpoints/$(printf 'checkpoint_%09d.h5' "$step")" ] ||
    die "SIGTERM: no checkpoint of step $step"
  capture 2 "$d/cut/case.yaml" --restart "$d/cut/out" || die "restart after SIGTERM"
  same_histories "$d/full/out" "$d/cut/out"
  echo "ok: SIGTERM after step $step: status 143, checkpoint, marks; the restarted run equals the uninterrupted one"
fi
finish
