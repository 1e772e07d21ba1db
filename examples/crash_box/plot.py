"""The crash box: the crush force against the wall's displacement (contact.csv), its running mean
against the Wierzbicki-Abramowicz and Abramowicz-Jones estimates, the energies (energy.csv) and
the folds (the centre line of the face x = +b/2 from probes.csv, at the end). Prints the figures
of the README and writes crash_box.png.
    python3 plot.py [OUT [PNG]]   (OUT: the run's output directory, default out/ beside this file;
                                   PNG: the figure, default crash_box.png beside it)"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "out")
png = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "crash_box.png")
sigma0, t, b, L, V = 3.0e8, 0.0012, 0.04, 0.12, 10.0   # flow stress, wall, side, length, speed
D, q = 6844.0, 3.91                                     # Cowper-Symonds, mild steel


def table(name):
    rows = [r for r in csv.reader(open(os.path.join(out, name))) if r and r[0][0] != "#"]
    return {k: [float(r[i]) for r in rows[1:]] for i, k in enumerate(rows[0])}


def estimates():
    """Mean crush forces (N) of a square tube, side b and wall t, of a rigid-perfectly plastic
    material of flow stress sigma0; the fold's half-wavelength H (m)."""
    m0 = sigma0 * t * t / 4
    wa = 38.12 * m0 * (b / t) ** (1 / 3)   # Wierzbicki and Abramowicz 1983: 9.53 s0 t^5/3 b^1/3
    aj = wa / 0.73                          # Abramowicz and Jones 1984: 13.06 s0 t^5/3 b^1/3
    rate = 0.33 * V / b                     # their mean strain rate in the folds (1/s)
    dynamic = 1 + (rate / D) ** (1 / q)     # Cowper-Symonds on the flow stress
    H = 0.99 * b ** (2 / 3) * t ** (1 / 3)
    return wa, aj, dynamic, rate, H


def probe_nodes():
    """The probes' nodes and their reference heights z, from probes.csv's header comments (a node
    that two probes share once), in the order of z."""
    nodes = {}
    for line in open(os.path.join(out, "probes.csv")):
        if not line.startswith("# probe face"):
            break
        name, rest = line[len("# probe "):].split(": node ")
        node, at = rest.split(" at (")
        nodes.setdefault(int(node), (float(at.split(")")[0].split(",")[2]), name))
    return sorted(nodes.values())


def folds(p, row, threshold):
    """The lobes along the face's centre line at `row`: runs of the same sign of the outward
    displacement beyond `threshold`, and the line's current shape (z, x)."""
    line = probe_nodes()
    ux = [p[f"{n}.ux"][row] for _, n in line]
    uz = [p[f"{n}.uz"][row] for _, n in line]
    signs = [1 if u > threshold else -1 if u < -threshold else 0 for u in ux]
    lobes, last = 0, 0
    for s in signs:
        if s and s != last:
            lobes += 1
            last = s
    return lobes, [z + w for (z, _), w in zip(line, uz)], [b / 2 + u for u in ux]


def main():
    c = table("contact.csv")
    e = table("energy.csv")
    time, F = c["time"], c["wall.normal"]
    s = [V * x for x in time]               # the wall's displacement (constant speed)
    work = [0.0]        # the crush force's work from the rows of contact.csv, trapezoidal
    for i in range(1, len(s)):
        work.append(work[-1] + 0.5 * (F[i] + F[i - 1]) * (s[i] - s[i - 1]))
    W = e["external_work"]  # the wall's work booked at every step
    mean = [w / x if x > 0 else 0.0 for w, x in zip(W, s)]
    wa, aj, dynamic, rate, H = estimates()
    peak = max(F)
    ipeak = F.index(peak)
    print(f"estimates: Wierzbicki-Abramowicz {wa / 1e3:.3f} kN, Abramowicz-Jones (static, "
          f"effective crushing distance 0.73) {aj / 1e3:.3f} kN; their dynamic factor at "
          f"{V:g} m/s (strain rate 0.33 V / b = {rate:.1f} /s) {dynamic:.3f}: "
          f"{dynamic * aj / 1e3:.3f} kN; H = {1e3 * H:.2f} mm, 2H = {2e3 * H:.2f} mm")
    print(f"crush {1e3 * s[-1]:.2f} mm: peak force {peak / 1e3:.3f} kN at {1e3 * s[ipeak]:.3f} mm, "
          f"mean {mean[-1] / 1e3:.3f} kN = {mean[-1] / aj:.4f} x Abramowicz-Jones, "
          f"{mean[-1] / wa:.4f} x Wierzbicki-Abramowicz (the wall's work over the crush)")
    for lo in (0.1, 0.2):
        k = next(i for i, x in enumerate(s) if x >= lo * s[-1])
        print(f"  mean from {1e3 * s[k]:.1f} mm on: {(W[-1] - W[k]) / (s[-1] - s[k]) / 1e3:.3f} kN "
              f"= {(W[-1] - W[k]) / (s[-1] - s[k]) / aj:.4f} x Abramowicz-Jones")
    E0 = e["total"][0]
    worst = max((abs(x - E0) for x in e["total"]))
    print(f"energy: wall's work {W[-1]:.3f} J (from the force {work[-1]:.3f} J), plastic "
          f"dissipation {e['plastic_dissipation'][-1]:.3f} J, strain (elastic and penalty) "
          f"{e['strain'][-1]:.3f} J, kinetic {e['kinetic'][-1]:.3f} J; balance "
          f"{(e['total'][-1] - E0) / W[-1]:+.2e} of the work at the end, {worst / W[-1]:.2e} "
          f"at worst")
    if os.path.exists(os.path.join(out, "sections.csv")):
        r, cut = table("reactions.csv")["bottom.fz"], table("sections.csv")["base.fz"]
        print(f"the clamped edge's mean force {sum(r) / len(r) / 1e3:.3f} kN (reactions.csv); "
              f"the cut 10 mm above it {sum(cut) / len(cut) / 1e3:.3f} kN (sections.csv, "
              f"base.fz); the rows over the crush")
    fold_plot = None
    if os.path.exists(os.path.join(out, "probes.csv")):
        p = table("probes.csv")
        lobes, zs, xs = folds(p, -1, t)
        fold_plot = (zs, xs)
        print(f"lobes on the face x = +b/2 at the end (|u_x| > t): {lobes}")

    mm = [1e3 * x for x in s]
    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(13, 4.6),
                                     gridspec_kw={"width_ratios": [2.2, 1.6, 0.7]})
    a1.plot(mm, [x / 1e3 for x in F], lw=0.8, label="crush force (the wall's)")
    a1.plot(mm, [x / 1e3 for x in mean], "k", lw=1.5,
            label=f"running mean: {mean[-1] / 1e3:.1f} kN at {mm[-1]:.0f} mm")
    a1.axhline(aj / 1e3, color="C3", ls="--",
               label=f"Abramowicz-Jones, static: {aj / 1e3:.1f} kN")
    a1.axhline(wa / 1e3, color="C2", ls="--",
               label=f"Wierzbicki-Abramowicz: {wa / 1e3:.1f} kN")
    a1.axhline(dynamic * aj / 1e3, color="C3", ls=":",
               label=f"A-J with mild steel's rate factor {dynamic:.2f}: {dynamic * aj / 1e3:.1f} kN")
    a1.set_xlabel("crush: the wall's displacement (mm)")
    a1.set_ylabel("force (kN)")
    a1.set_ylim(0, 1.15 * peak / 1e3)
    a1.set_title(f"square tube {1e3 * b:.0f} x {1e3 * t:.1f} mm, {V:g} m/s; peak "
                 f"{peak / 1e3:.1f} kN, mean {mean[-1] / aj:.3f} x A-J", fontsize=10)
    a1.legend(fontsize=8, loc="upper right")
    a2.plot(mm, W, "k", label="wall's work")
    a2.plot(mm, e["plastic_dissipation"], label="plastic dissipation")
    a2.plot(mm, e["strain"], label="strain (elastic and contact penalty)")
    a2.plot(mm, e["kinetic"], label="kinetic")
    a2.plot(mm, [x - E0 for x in e["total"]], "k:", label="balance")
    a2.set_xlabel("crush (mm)")
    a2.set_ylabel("energy (J)")
    a2.legend(fontsize=8)
    if fold_plot:
        zs, xs = fold_plot
        a3.plot([1e3 * x for x in xs], [1e3 * z for z in zs], ".-", lw=1, ms=3)
        a3.axhline(1e3 * (L - s[-1]), color="k", lw=2)
        a3.set_xlim(0, 1e3 * b / 2 + 20)
        a3.set_aspect("equal")
        a3.set_xlabel("x (mm)")
        a3.set_ylabel("z (mm)")
        a3.set_title("face x = +b/2,\nits centre line", fontsize=9)
    else:
        a3.axis("off")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print(f"wrote {os.path.basename(png)}")


main()
