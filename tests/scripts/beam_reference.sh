#!/usr/bin/env bash
# The self-test of tests/scripts/frame_reference.py, the independent direct stiffness method the
# beam scripts (beam_cantilever.sh, beam_portal.sh, beam_frame3.sh) compare inertia with: the
# committed beam meshes read with the expected groups; a cantilever's tip displacement and
# rotation under end forces and moments (P L^3/3EI + P L/G As for Timoshenko, 1e-11), along a
# skew axis too; 40-element bending modes 1-5 against Euler-Bernoulli's beta_n L (consistent mass
# 1e-7 .. 1e-4, lumped 1e-3 .. 1e-2); a portal frame's sway and joint rotation against
# slope-deflection (1e-6); effective masses summing to the total mass (1e-10).
# Needs a python3 with numpy (python3 on PATH, else /usr/bin/python3); SKIP without.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "frame_reference.py --self-test"
"$py" "$INERTIA_SOURCE_DIR/tests/scripts/frame_reference.py" --self-test
