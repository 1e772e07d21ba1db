#!/usr/bin/env bash
# Small promises of the messages and of --check (examples/guide/running.md), at 1 and 2 ranks:
#   1. --check refuses output and checkpoint directories that cannot be created, in one line, and
#      creates nothing (the tree around the case is the same before and after); after the case
#      file it checks too;
#   2. control bytes in paths and names (a terminal escape, a newline) are escaped in every error
#      line and in the log: one line, no raw escape byte;
#   3. a huge bad value (a 5 MB number) is quoted as an excerpt of at most 80 characters and its
#      length, in a case file, a mesh and an amplitude table;
#   4. counts out of range say the range.
set -euo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
E2E_TIMEOUT=120

# refused NP PATTERN ARGS...: inertia fails with exactly one error line matching PATTERN (grep -E,
# the whole line from "inertia: error: " on: a line broken by a raw newline does not match), at
# most 400 characters long, and no escape byte on stdout or stderr.
refused() {
  local np=$1 pattern=$2
  shift 2
  if capture "$np" "$@"; then die "np $np: expected an error for: $*"; fi
  [ "$(grep -c '^inertia: error:' "$work/err")" = 1 ] || die "np $np: expected one error line"
  grep -Eq "^inertia: error: $pattern\$" "$work/err" ||
    die "np $np: the error line does not match /^inertia: error: $pattern\$/"
  local length
  length=$(grep '^inertia: error:' "$work/err" | wc -c)
  [ "$length" -le 400 ] || die "np $np: an error line of $length characters"
  ! grep -q $'\x1b' "$work/err" "$work/out" || die "np $np: a raw escape byte in the output"
}
box='mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials:
  - {region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}'
time='time: {integrator: newmark, dt: 1.0e-4, steps: 3}'

for np in 1 2; do
  d="$work/np$np"
  mkdir -p "$d"
  # ---- 1. --check and the directories ----------------------------------------------------------
  echo "not a directory" > "$d/blocker"
  printf '%s\n%s\noutput: {directory: blocker/out}\n' "$box" "$time" > "$d/out_blocked.yaml"
  refused "$np" "$d/blocker/out: cannot create the output directory \\($d/blocker is not a directory\\)" \
    --check "$d/out_blocked.yaml"
  echo "ok: np $np, --check: $(grep '^inertia: error:' "$work/err")"
  # --check after the case file checks too (it is not taken for a PETSc option and the run made).
  printf '%s\n%s\noutput: {directory: after}\n' "$box" "$time" > "$d/after.yaml"
  (cd "$d" && capture "$np" after.yaml --check) || die "np $np: after.yaml --check failed"
  grep -q "^check     OK" "$work/out" || die "np $np: after.yaml --check did not check"
  [ ! -e "$d/after" ] || die "np $np: after.yaml --check ran the case"
  printf '%s\n%s\noutput: {directory: out, checkpoint: {every: 1, directory: blocker/ck}}\n' \
    "$box" "$time" > "$d/ck_blocked.yaml"
  refused "$np" ".*blocker/ck: cannot create the checkpoint directory \\(.*blocker is not a directory\\)" \
    --check "$d/ck_blocked.yaml"
  [ ! -e "$d/out" ] || die "np $np: --check created the output directory"
  refused "$np" ".*blocker/ck: cannot create the checkpoint directory \\(Not a directory\\)" \
    "$d/ck_blocked.yaml"
  echo "ok: np $np, a run: $(grep '^inertia: error:' "$work/err")"
  # Nothing created: new nested output and checkpoint directories, and a modal analysis's.
  printf '%s\n%s\noutput: {directory: new/deep/out, checkpoint: {every: 1, directory: new2/ck}}\n' \
    "$box" "$time" > "$d/fresh.yaml"
  printf '%s\nmodal: {modes: 2}\noutput: {directory: new3/out}\n' "$box" > "$d/fresh_modal.yaml"
  before=$(cd "$d" && find . | sort)
  for c in fresh fresh_modal; do
    capture "$np" --check "$d/$c.yaml" || die "np $np: --check $c.yaml"
    grep -q '^check     OK' "$work/out" || die "np $np: --check $c.yaml did not say OK"
  done
  after=$(cd "$d" && find . | sort)
  [ "$before" = "$after" ] || die "np $np: --check created: $(diff <(echo "$before") <(echo "$after") | grep '^>' | tr '\n' ' ')"
  echo "ok: np $np, --check created nothing"

  # ---- 2. Control bytes in paths and names -----------------------------------------------------
  odd="$d/odd"$'\x1b[31m\n'"dir"
  esc='odd\\x1b\[31m\\ndir'  # how a message shows it
  mkdir -p "$odd"
  printf 'mesh: {file: "me\\x1b[31msh\\nx.msh"}\nmaterials:\n  - {region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}\n%s\n' \
    "$time" > "$odd/mesh.yaml"
  refused "$np" ".*/${esc}/me\\\\x1b\\[31msh\\\\nx\\.msh: cannot open mesh file \\(No such file or directory\\)" \
    "$odd/mesh.yaml"
  echo "ok: np $np, mesh path: $(grep '^inertia: error:' "$work/err" | sed 's|.*/odd|.../odd|')"
  refused "$np" ".*/${esc}/missing\\.yaml: cannot open the case file" "$odd/missing.yaml"
  echo "ok: np $np, case path: $(grep '^inertia: error:' "$work/err" | sed 's|.*/odd|.../odd|')"
  printf '%s\n  - {region: "re\\x1b[31mgion\\n", type: fixed}\n%s\n' "$box" "$time" > "$odd/region.yaml"
  refused "$np" ".*/${esc}/region\\.yaml:6: boundary_conditions\\[1\\]\\.region: unknown region 're\\\\x1b\\[31mgion\\\\n'.*" \
    "$odd/region.yaml"
  echo "ok: np $np, region name: $(grep '^inertia: error:' "$work/err" | sed 's|.*/odd|.../odd|' | cut -c1-110)..."
  printf '%s\n  - {region: xmax, type: force, value: [0, 0, 1], amplitude: a}\namplitudes:\n  a: {type: table, file: "a\\x1b[31m\\nb.csv"}\n%s\n' \
    "$box" "$time" > "$odd/amplitude.yaml"
  refused "$np" ".*amplitudes\\.a\\.file: cannot open '.*/${esc}/a\\\\x1b\\[31m\\\\nb\\.csv': No such file or directory" \
    "$odd/amplitude.yaml"
  echo "ok: np $np, amplitude file: $(grep '^inertia: error:' "$work/err" | sed 's|.*/odd|.../odd|')"
  printf '%s\n%s\noutput: {directory: "o\\x1b[31m\\nut/x"}\n' "$box" "$time" > "$odd/outdir.yaml"
  echo x > "$odd/o"$'\x1b[31m\n'"ut"
  refused "$np" ".*/${esc}/o\\\\x1b\\[31m\\\\nut/x: cannot create the output directory \\(.*/${esc}/o\\\\x1b\\[31m\\\\nut is not a directory\\)" \
    --check "$odd/outdir.yaml"
  echo "ok: np $np, output directory: $(grep '^inertia: error:' "$work/err" | sed 's|.*/odd|.../odd|g')"
  # A run from there: the log names the case, the mesh and the output directory escaped.
  printf '%s\n%s\noutput: {directory: "o\\x1b[31m\\nut2"}\n' "$box" "$time" > "$odd/ok.yaml"
  capture "$np" "$odd/ok.yaml" || die "np $np: a run in a directory with control bytes in its name"
  ! grep -q $'\x1b' "$work/out" || die "np $np: a raw escape byte in the log"
  grep -q "^inertia .*: case .*/${esc}/ok\\.yaml on " "$work/out" || die "np $np: the case line"
  grep -q "^output    .*/${esc}/o\\\\x1b\\[31m\\\\nut2\$" "$work/out" || die "np $np: the output line"
  echo "ok: np $np, the log of a run there escapes them"

  # ---- 3. Huge bad values ----------------------------------------------------------------------
  big=$(head -c 5242880 /dev/zero | tr '\0' 7)
  { printf '%s\ntime: {integrator: newmark, dt: 1.5e' "$box"; printf '%s' "$big"
    printf 'x, steps: 3}\n'; } > "$d/huge_number.yaml"
  refused "$np" ".*huge_number\\.yaml:6: time\\.dt: expected a finite number, got '1\\.5e7{76}\\.\\.\\. \\(5242885 bytes\\)'" \
    "$d/huge_number.yaml"
  echo "ok: np $np, a 5 MB number in a case file: $(grep '^inertia: error:' "$work/err" | sed 's|.*/np|.../np|')"
  { printf '0 0\n1 '; printf '%s' "$big"; printf 'x\n'; } > "$d/huge.csv"
  printf '%s\n  - {region: xmax, type: force, value: [0, 0, 1], amplitude: a}\namplitudes:\n  a: {type: table, file: huge.csv}\n%s\n' \
    "$box" "$time" > "$d/huge_table.yaml"
  refused "$np" ".*huge\\.csv:2: expected two finite numbers, time and value; got '1 7{78}\\.\\.\\. \\(5242883 bytes\\)'" \
    "$d/huge_table.yaml"
  echo "ok: np $np, a 5 MB number in an amplitude table: $(grep '^inertia: error:' "$work/err" | sed 's|.*/np|.../np|')"
  { printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 '; printf '%s' "$big"
    printf 'x\n$EndNodes\n'; } > "$d/huge.msh"
  printf 'mesh: {file: huge.msh}\nmaterials:\n  - {region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}\n%s\n' \
    "$time" > "$d/huge_mesh.yaml"
  refused "$np" ".*huge\\.msh: expected a finite node coordinate, found '7{80}\\.\\.\\. \\(5242881 bytes\\)' \\(line 6\\)" \
    "$d/huge_mesh.yaml"
  echo "ok: np $np, a 5 MB number in a mesh: $(grep '^inertia: error:' "$work/err" | sed 's|.*/np|.../np|')"

  # ---- 4. Counts out of range ------------------------------------------------------------------
  printf '%s\n%s\noutput: {every: 3000000000}\n' "$box" "$time" > "$d/count.yaml"
  refused "$np" ".*count\\.yaml:7: output\\.every: must be an integer in \\[0, 2147483647\\] \\(0: no VTK output\\), got '3000000000'" \
    "$d/count.yaml"
  echo "ok: np $np, a count above 2^31: $(grep '^inertia: error:' "$work/err" | sed 's|.*/np|.../np|')"
  printf '%s\n%s\noutput: {checkpoint: {every: 1, keep: 5000}}\n' "$box" "$time" > "$d/keep.yaml"
  refused "$np" ".*keep\\.yaml:7: output\\.checkpoint\\.keep: must be an integer in \\[1, 1000\\], got '5000'" \
    "$d/keep.yaml"
done
finish
