#!/usr/bin/env bash
# `inertia --help [SECTION]` and the keyword reference (examples/guide/reference.md), generated
# from the registries (include/inertia/core/registry.hpp). Checked:
# - examples/guide/reference.md is exactly `inertia --help-reference` (regenerate it with that
#   command when a registry row or a section changes);
# - `inertia --help` lists the sections; each prints its page, and `--help all` all of them after
#   the overview; a row of a registry by its name (an integrator with its options and defaults);
# - an unknown section: exit status 1 and one line on stderr with a hint and the sections.
set -u
: "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 2

reference=$INERTIA_SOURCE_DIR/examples/guide/reference.md
"$INERTIA" --help-reference > reference.md || fail "inertia --help-reference exited with $?"
if ! diff -u "$reference" reference.md > reference.diff; then
  head -40 reference.diff
  fail "examples/guide/reference.md is not what the registries print: regenerate it with" \
    "build/bin/inertia --help-reference > examples/guide/reference.md"
fi

"$INERTIA" --help > overview.txt || fail "inertia --help exited with $?"
grep -q "^usage: mpirun -n N inertia CASE.yaml" overview.txt || fail "--help has no usage line"
sections=$(sed -n '/^inertia --help SECTION prints one section/,$p' overview.txt |
  awk '/^  [a-z_]+ / {print $1}')
[[ $(wc -w <<< "$sections") -ge 10 ]] || fail "--help lists too few sections: $sections"
"$INERTIA" --help all > all.txt || fail "inertia --help all exited with $?"
cmp -s overview.txt <(head -n "$(wc -l < overview.txt)" all.txt) ||
  fail "--help all does not start with the overview"
for s in $sections; do
  "$INERTIA" --help "$s" > "page_$s.txt" || fail "inertia --help $s exited with $?"
  [[ -s page_$s.txt ]] || fail "inertia --help $s printed nothing"
  grep -qF -f <(head -1 "page_$s.txt") all.txt || fail "--help all lacks the page of $s"
  grep -q "^## $s\$" "$reference" || fail "examples/guide/reference.md has no section $s"
done

"$INERTIA" --help newmark > newmark.txt || fail "inertia --help newmark exited with $?"
grep -q "options time.newmark: beta, gamma (by default beta 0.25, gamma 0.5)" newmark.txt ||
  fail "--help newmark: $(cat newmark.txt)"
grep -q "e.g. time: {integrator: newmark" newmark.txt || fail "--help newmark has no example"
"$INERTIA" --help time | grep -Eq '^  hht +Hilber-Hughes-Taylor' || fail "--help time lacks hht"
"$INERTIA" --help conditions | grep -q "keys: region, type, components, value, amplitude" ||
  fail "--help conditions does not give the keys of a type"
"$INERTIA" --help contact | grep -q "e.g. contact: {walls:" || fail "--help contact: no example"

refuses "an unknown section" \
  "unknown help section 'integrator' \(did you mean 'integrators'\?\) \(expected run, mesh, " \
  "$INERTIA" --help integrator

finish
