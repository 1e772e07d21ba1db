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
