#!/usr/bin/env bash
# Every example case file of the repository passes `inertia --check` (the case, its mesh, its
# solver options): an example broken by a change of the case-file format fails here. Serial, a
# few seconds.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
failed=0 count=0
for case_file in "$INERTIA_SOURCE_DIR"/examples/*/*.yaml; do
  count=$((count + 1))
  if ! out=$(cd "$(dirname "$case_file")" && "$INERTIA" --check "$(basename "$case_file")" 2>&1); then
    echo "FAIL  ${case_file#"$INERTIA_SOURCE_DIR"/}:"
    printf '%s\n' "$out" | tail -n 3 | sed 's/^/      /'
    failed=$((failed + 1))
  elif grep -Eq '^warning +PETSc' <<<"$out"; then  # an example's petsc: options all used
    echo "FAIL  ${case_file#"$INERTIA_SOURCE_DIR"/}: --check warns:"
    grep -E '^warning +PETSc' <<<"$out" | sed 's/^/      /'
    failed=$((failed + 1))
  else
    echo "ok    ${case_file#"$INERTIA_SOURCE_DIR"/}"
  fi
done
echo "examples_check: $((count - failed)) of $count example cases pass --check"
[ "$failed" -eq 0 ] && [ "$count" -gt 0 ]
