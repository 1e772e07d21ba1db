"""dt: auto's figures for the end-to-end scripts (dt_auto.sh, mass_scaling.sh): the same rounding
as the solver (round_down_to_digits in src/system/spectrum.cpp, 6 digits for the step that follows
the mesh) and the calibration k read from the log."""

import math
import re


def round_down_to_digits(x, digits):
    """The C++ round_down_to_digits, operation for operation (IEEE doubles both)."""
    if not (1e-290 < x < 1e290):
        return x
    lowest = 10.0 ** (digits - 1)
    highest = 10 * lowest
    p = int(math.floor(math.log10(x))) - (digits - 1)

    def decimal(m):
        scale = 10.0 ** abs(p)
        return m * scale if p >= 0 else m / scale

    def leading():
        scale = 10.0 ** abs(p)
        return math.floor(x / scale if p >= 0 else x * scale)

    m = leading()
    if m >= highest:
        p += 1
        m = leading()
    if m < lowest:
        p -= 1
        m = leading()
    if decimal(m) > x:
        m -= 1
    if m + 1 < highest and decimal(m + 1) <= x:
        m += 1
    return decimal(m)


def calibration(log):
    """The calibration k of dt: auto from a run's log (printed with 17 digits)."""
    for line in open(log):
        found = re.search(r"calibration k = ([0-9.eE+-]+)", line)
        if found:
            return float(found.group(1))
    raise SystemExit(f"FAIL: no 'calibration k' line in {log}")


def wave_speed(E, nu, rho):
    lam = E * nu / ((1 + nu) * (1 - 2 * nu))
    mu = E / (2 * (1 + nu))
    return math.sqrt((lam + 2 * mu) / rho)
