#!/usr/bin/env python3
"""Measured vs exact frequencies of the spring chain (examples/spring_chain).

Reads out/probes.csv (one probe per bead, b1..b9), projects the bead displacements on the mode
shapes sin(j pi i / (N + 1)) and measures each excited mode's period from the upward zero
crossings of its modal coordinate; also prints the peaks of the FFT of the middle bead.
Exact: omega_j = 2 sqrt(k/m) sin(j pi / (2 (N + 1))); Newmark's discrete frequency
(2/h) atan(omega h / 2) is printed too (the measured value should equal it)."""
import math
import pathlib
import sys

import numpy as np

N, k, m = 9, 400.0, 0.25
folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "out")


def load(path):
    """A CSV with '#' comment lines: returns {column name: numpy array}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:] if line.strip()])
    return {name: data[:, i] for i, name in enumerate(names)}


p = load(folder / "probes.csv")
t = p["time"]
h = t[1] - t[0]
u = np.array([p[f"b{i}.ux"] for i in range(1, N + 1)])  # (bead, step)
i = np.arange(1, N + 1)

print(f"chain of N = {N} beads, k = {k} N/m, m = {m} kg; {len(t) - 1} steps of {h:g} s")
print(" j  exact omega  measured omega  Newmark omega  exact period  measured period"
      "  measured/exact - 1  amplitude")
print("    (rad/s)      (rad/s)         (rad/s)        (s)           (s)"
      "                                   (m)")
amplitudes = {}
for j in range(1, N + 1):
    shape = np.sin(j * math.pi * i / (N + 1))
    q = shape @ u * 2 / (N + 1)  # modal coordinate: u_i = sum_j q_j sin(j pi i / (N + 1))
    exact = 2 * math.sqrt(k / m) * math.sin(j * math.pi / (2 * (N + 1)))
    newmark = 2 / h * math.atan(exact * h / 2)
    amplitude = np.abs(q).max()
    amplitudes[j] = amplitude
    up = [t[n] - q[n] * h / (q[n + 1] - q[n]) for n in range(len(q) - 1) if q[n] < 0 <= q[n + 1]]
    if amplitude < 1e-9 or len(up) < 2:
        print(f"{j:2d}  {exact:11.5f}  {'(not excited)':>14s}  {newmark:13.5f}"
              f"  {2 * math.pi / exact:12.6f}  {'':15s}  {'':18s}  {amplitude:.1e}")
        continue
    measured = 2 * math.pi * (len(up) - 1) / (up[-1] - up[0])
    print(f"{j:2d}  {exact:11.5f}  {measured:14.5f}  {newmark:13.5f}  {2 * math.pi / exact:12.6f}"
          f"  {2 * math.pi / measured:15.6f}  {measured / exact - 1:+18.2e}  {amplitude:.1e}")

# Spectrum of the middle bead: peaks at the excited (odd) modes, parabolic interpolation.
x = p["b5.ux"] * np.hanning(len(t))
spectrum = np.abs(np.fft.rfft(x, 8 * len(x)))
omega = 2 * math.pi * np.fft.rfftfreq(8 * len(x), h)
# A peak is the largest value within +-8 bins of the unpadded spectrum (64 padded bins): that
# drops the side lobes of the Hann window; the modes are more than 12 bins apart here.
peaks = [n for n in range(1, len(spectrum) - 1)
         if spectrum[n] == spectrum[max(0, n - 64) : n + 65].max()
         and spectrum[n] > 1e-3 * spectrum.max()]
print("FFT of b5.ux (middle bead), peaks:")
for n in peaks:
    a, b, c = np.log(spectrum[n - 1 : n + 2])
    shift = 0.5 * (a - c) / (a - 2 * b + c)
    w = omega[n] + shift * (omega[1] - omega[0])
    j = min(range(1, N + 1), key=lambda j: abs(2 * math.sqrt(k / m) * math.sin(j * math.pi / 20) - w))
    print(f"  omega {w:9.4f} rad/s  (mode {j}: exact {2 * math.sqrt(k / m) * math.sin(j * math.pi / 20):9.4f})")
