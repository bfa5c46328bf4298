#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots bench/results/h200-h100-gebrd-one-pass.csv: gebrd_mgpu with two GEMVs per column
# and with the fused one-pass row step, per GPU, against cuSOLVER where measured, and
# the time of the products phase (the step the fused kernel replaces).
#   python3 bench/plot_one_pass.py bench/results/h200-h100-gebrd-one-pass.csv out.png
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
for ax, gpu in zip(axes, ["H200", "H100"]):
    sizes = sorted({int(r["n"]) for r in rows if r["gpu"] == gpu})
    def pick(p, key):  # the first row of each size (one call's baseline)
        out = []
        for n in sizes:
            v = [float(r[key]) for r in rows if r["gpu"] == gpu and r["pass"] == p and int(r["n"]) == n]
            out.append(v[0] if v else 0.0)
        return out
    x = range(len(sizes))
    w = 0.2
    ax.bar([i - 1.5 * w for i in x], pick("two", "time_s"), w, label="two GEMVs (total)")
    ax.bar([i - 0.5 * w for i in x], pick("one", "time_s"), w, label="one pass (total)")
    ax.bar([i + 0.5 * w for i in x], pick("two", "cusolver_s"), w, label="cusolverDnDgebrd")
    ax.bar([i + 1.5 * w for i in x], [t / 2 for t in pick("two", "floor_s")], w, label="one-pass read floor")
    ax.set_xticks(list(x), [f"d {n}" for n in sizes])
    ax.set_yscale("log")
    ax.set_ylabel("seconds")
    ax.set_title(f"gebrd_mgpu, one {gpu}")
    ax.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
