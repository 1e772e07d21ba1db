"""Reading inertia's CSV histories and checking figures, for the end-to-end scripts
(tests/scripts/*.sh; tests/support/e2e.sh is the shell side): `sys.path.insert(0, support dir)`,
then `from csv_checks import read, rows, check, passed`."""

import csv

_ok = True


def read(path):
    """The columns of a history (contact.csv, probes.csv, energy.csv) by name, comments skipped."""
    rows = [r for r in open(path) if not r.startswith('#')]
    names = rows[0].strip().split(',')
    cols = {n: [] for n in names}
    for r in rows[1:]:
        for n, x in zip(names, r.split(',')):
            cols[n].append(float(x))
    return cols


def rows(path):
    """The rows of a history as dictionaries of strings by column name, comments skipped."""
    return list(csv.DictReader(line for line in open(path) if not line.startswith('#')))


def check(what, value, lo, hi):
    """Prints the figure with its expected range; a figure outside it fails passed()."""
    global _ok
    good = lo <= value <= hi
    _ok = _ok and good
    print(f"{'ok  ' if good else 'FAIL'} {what}: {value:.6g} (within [{lo:g}, {hi:g}])")


def largest_difference(a, b, columns):
    """The largest difference between two histories over the columns (rows in order)."""
    return max(abs(x - y) for k in columns for x, y in zip(a[k], b[k]))


def passed():
    return _ok


def check_at_static_deflection(static, run, label):
    """A transient that starts at a static equilibrium under constant loads stays there: the
    probe `tip`'s largest |u - u_static| / |u_static| over `run`'s rows, u_static `static`'s last
    row (both probes.csv read by read()), within 1e-9."""
    us = [static[f'tip.u{c}'][-1] for c in 'xyz']
    norm = sum(x * x for x in us) ** 0.5
    worst = max(sum((run[f'tip.u{c}'][i] - us[k]) ** 2 for k, c in enumerate('xyz')) ** 0.5
                for i in range(len(run['time'])))
    check(f'{label}: largest |u - u_static| / |u_static| ({norm:.6g} m) over '
          f'{len(run["time"])} rows', worst / norm, 0, 1e-9)
    return norm


def check_superposition(static, both, quake, reactions, weight, label):
    """Gravity then a base motion on a linear model: the probe `tip` of `both` equals the static
    deflection (`static`'s last row) plus the transient from rest under the motion alone
    (`quake`) to 1e-9 of its largest |u|, and the supports' vertical reaction in `reactions`'
    first row carries `weight` to 1e-9."""
    us = {c: static[f'tip.u{c}'][-1] for c in 'xyz'}
    peak = max(abs(x) for c in 'xyz' for x in both[f'tip.u{c}'])
    worst = max(abs(both[f'tip.u{c}'][i] - quake[f'tip.u{c}'][i] - us[c])
                for c in 'xyz' for i in range(len(both['time'])))
    check(f'{label}: gravity then the base motion against static + transient from rest, '
          f'of the largest |u| ({peak:.4g} m)', worst / peak, 0, 1e-9)
    check(f'{label}: the largest tip motion in y under the base motion alone (m)',
          max(abs(x) for x in quake['tip.uy']), 1e-5, 1)
    total = sum(reactions[k][0] for k in reactions if k.endswith('.fz'))
    check(f'{label}: the supports\' vertical reaction at the start against the weight '
          f'{weight:.6g} N, relative', abs(total - weight) / weight, 0, 1e-9)
