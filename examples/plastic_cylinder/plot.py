"""The elastic-plastic thick cylinder against Hill's closed form (hill.py) and against the same
cylinder solved in 1D without Hill's sigma_z assumption (hill.reference, nu = 0.3, and nu = 0.49 to
show Hill's limit): (a) the pressure against the elastic-plastic radius c, (b) the radial, hoop and
axial stress across the wall at the last load, (c) the pressure against the bore's radial
displacement. Prints the README's figures and writes plastic_cylinder.png.

    python3 plot.py [OUT_DIR]     # default: out (from run.sh)
"""
import bisect
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hill  # noqa: E402

out = os.path.join(here, sys.argv[1] if len(sys.argv) > 1 else "out")
a, b, p_c, sy = hill.a, hill.b, hill.p_c, hill.sy


def ramp(t):  # the case's amplitude: [[0, 0], [1, 0.5], [19, 0.95]]
    return 0.5 * t if t <= 1 else 0.5 + 0.025 * (t - 1)


def interp(ref, key, r):
    rs = ref["r"]
    i = min(max(bisect.bisect(rs, r) - 1, 0), len(rs) - 2)
    w = (r - rs[i]) / (rs[i + 1] - rs[i])
    return ref[key][i] * (1 - w) + ref[key][i + 1] * w


reactions = hill.rows(os.path.join(out, "reactions.csv"))
probes = hill.rows(os.path.join(out, "probes.csv"))
frames = hill.frames(out)
times = [r["time"] for r in reactions]
pressures = [ramp(t) * p_c for t in times]
# The load the run applied: the hoop force across x = 0 balances p a t on any material.
applied = max(abs(-r["xsym.fx"] / (a * 0.01) - p) / p for r, p in zip(reactions[1:], pressures[1:]))
print(f"pressure from the reaction on xsym (p a t) against the prescribed one: largest difference "
      f"{applied:.2e} relative")
# The 1D references at the run's own load steps (the return map depends a little on them).
ref = hill.reference(pressures[1:], nu=0.3, elements=1000, substeps=1)
ref49 = hill.reference(pressures[1:], nu=0.49, elements=1000, substeps=1)

print("p / p_c   c Hill    c ref 0.3  c FE (fit)  FE band           u_a FE / Hill  / ref 0.3"
      "   ref 0.49 c - Hill")
h = (b - a) / 12  # the mesh's ring width (plastic_cylinder_fine.msh: nr = 12)
c_fe, c_band, u_fe = [], [], []
for i, (cells, p) in enumerate(zip(frames[1:], pressures[1:])):
    c, (lo, hi) = hill.plastic_radius_fit(cells, h), hill.plastic_radius_band(cells)
    u = (probes[i + 1]["bore.ux"] + probes[i + 1]["bore.uy"]) / math.sqrt(2)
    c_fe.append(c)
    c_band.append((lo, hi))
    u_fe.append(u)
    print(f"{p / p_c:6.3f}   {hill.hill_c(p):.5f}   {ref[i]['c']:.5f}    {c:.5f}     "
          f"[{lo:.4f}, {hi:.4f}]  {u / hill.hill_u_inner(p):.4f}        {u / ref[i]['u_a']:.4f}"
          f"     {ref49[i]['c'] - hill.hill_c(p):+.5f}")
last, p = frames[-1], pressures[-1]
err = hill.stress_errors(last, p)
print(f"last load {p / p_c:.3f} p_c: over the cells, |FE - Hill| / sigma_y: sigma_r rms "
      f"{err['s_r'][0]:.4f} max {err['s_r'][1]:.4f}, sigma_theta rms {err['s_t'][0]:.4f} max "
      f"{err['s_t'][1]:.4f}")
for label, cells in (("all cells", last), ("cells farther than h from c", [
        c for c in last if abs(c["r"] - ref[-1]["c"]) > h])):
    e = {key: [(c[key] - interp(ref[-1], key, c["r"])) / sy for c in cells]
         for key in ("s_r", "s_t", "s_z")}
    print(f"  against the 1D nu = 0.3 reference, {label}: " + ", ".join(
        f"{key} rms {math.sqrt(sum(x * x for x in v) / len(v)):.4f} max {max(map(abs, v)):.4f}"
        for key, v in e.items()))
for nu_label, r in (("0.3", ref[-1]), ("0.49", ref49[-1])):
    diff = max(max(abs(r["s_r"][j] - hill.hill_stress(x, p)[0]), abs(r["s_t"][j] - hill.hill_stress(x, p)[1]))
               for j, x in enumerate(r["r"])) / sy
    print(f"  1D reference nu = {nu_label} against Hill: c {r['c']:.5f} (Hill {hill.hill_c(p):.5f}), "
          f"sigma_r, sigma_theta within {diff:.4f} sigma_y, u_a / Hill's {r['u_a'] / hill.hill_u_inner(p, float(nu_label)):.4f}")

fig, (left, mid, right) = plt.subplots(1, 3, figsize=(15, 4.6))
cs = [a + (b - a) * i / 200 for i in range(201)]
left.plot([c / a for c in cs], [hill.hill_p(c) / p_c for c in cs], "k-", label="Hill (nu = 0.5 in sigma_z)")
left.plot([r["c"] / a for r in ref], [q / p_c for q in pressures[1:]], "C2--",
          label="1D reference, nu = 0.3")
left.hlines([q / p_c for q in pressures[1:]], [lo / a for lo, hi in c_band],
            [hi / a for lo, hi in c_band], color="C0", lw=3, alpha=0.35,
            label="inertia: last yielded / first elastic cell centroid")
left.plot([c / a for c in c_fe], [q / p_c for q in pressures[1:]], "o", color="C0", ms=4,
          label="inertia, tet10 12 x 24: c from the plastic strain's fit")
left.axhline(1, color="grey", lw=0.5)
left.set_xlabel("elastic-plastic radius c / a")
left.set_ylabel("pressure / p_c")
left.set_title("(a) plastic zone")
left.legend(fontsize=8)

rs = [a + (b - a) * i / 400 for i in range(401)]
for key, i, colour, name in (("s_r", 0, "C0", "sigma_r"), ("s_t", 1, "C3", "sigma_theta")):
    mid.plot(rs, [hill.hill_stress(r, p)[i] / 1e6 for r in rs], "-", color=colour, label=f"{name}, Hill")
    mid.plot([c["r"] for c in last], [c[key] / 1e6 for c in last], ".", color=colour, ms=2,
             label=f"{name}, inertia (cells)")
mid.plot(rs, [0.5 * sum(hill.hill_stress(r, p)) / 1e6 for r in rs], "-", color="C1",
         label="sigma_z, Hill ((sigma_r + sigma_theta) / 2)")
mid.plot(ref[-1]["r"], [s / 1e6 for s in ref[-1]["s_z"]], "--", color="C1", label="sigma_z, 1D nu = 0.3")
mid.plot([c["r"] for c in last], [c["s_z"] / 1e6 for c in last], ".", color="C1", ms=2,
         label="sigma_z, inertia (cells)")
mid.axvline(hill.hill_c(p), color="grey", lw=0.5)
mid.set_xlabel("r (m)")
mid.set_ylabel("stress (MPa)")
mid.set_title(f"(b) stresses at p = {p / p_c:.2f} p_c")
mid.legend(fontsize=7)

ps = [p_c * i / 200 for i in range(191)]
right.plot([1e6 * hill.hill_u_inner(q) for q in ps], [q / p_c for q in ps], "k-",
           label="Hill: Lame zone, plastic zone of constant volume")
right.plot([1e6 * r["u_a"] for r in ref], [q / p_c for q in pressures[1:]], "C2--",
           label="1D reference, nu = 0.3")
right.plot([1e6 * u for u in u_fe], [q / p_c for q in pressures[1:]], "o", color="C0", ms=4,
           label="inertia (probe at the bore)")
right.set_xlabel("u_r(a) (um)")
right.set_ylabel("pressure / p_c")
right.set_title("(c) bore displacement")
right.legend(fontsize=8)
fig.suptitle("Thick cylinder b = 2a, elastic-perfectly plastic (sigma_y 250 MPa, E 200 GPa, nu 0.3), plane strain")
fig.tight_layout()
fig.savefig(os.path.join(here, "plastic_cylinder.png"), dpi=110)
print("wrote plastic_cylinder.png")
