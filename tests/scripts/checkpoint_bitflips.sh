#!/usr/bin/env bash
# A reduced checkpoint bit-flip experiment (tests/support/checkpoint_bitflips.sh: 100 flips or
# more by hand): 12 random single-bit flips of a small case's checkpoint, each restarted from at
# 2 ranks. Fails on library output, a signal, a silent change (a restart that runs on with
# damaged values) or a hang: a damaged file gives one error line.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
exec bash "$INERTIA_SOURCE_DIR/tests/support/checkpoint_bitflips.sh" 12 "${INERTIA_FLIP_SEED:-7}" 2
