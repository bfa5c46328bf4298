#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots mgblas-tester hetrd's CSV (bench/device.sh hetrd): time per precision and size against
# cuSOLVER and the SYMV read floor, and the per-phase split of the profiled calls.
#   python3 bench/plot_hetrd.py bench/results/h200-hetrd.csv bench/results/h200-hetrd.png
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["uplo"] == "L" and r["gpus"] == "1"]
fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5))
for t, color in zip("dszc", ["C0", "C1", "C2", "C3"]):
    rs = sorted((r for r in rows if r["type"] == t), key=lambda r: int(r["n"]))
    if not rs:
        continue
    n = [int(r["n"]) for r in rs]
    ax.plot(n, [float(r["time_s"]) for r in rs], "o-", color=color, label=f"mgblas {t}")
    ax.plot(n, [float(r["cusolver_s"]) for r in rs], "x--", color=color, label=f"cuSOLVER {t}")
    ax.plot(n, [float(r["symv_floor_s"]) for r in rs], ":", color=color, alpha=0.5)
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xlabel("n")
ax.set_ylabel("seconds (dotted: SYMV read floor)")
ax.set_title("tridiagonal reduction, one H200")
ax.legend(fontsize=7)
labels, parts = [], {k: [] for k in ["symv", "panel", "comm", "update"]}
for r in sorted(rows, key=lambda r: ("dszc".index(r["type"]), int(r["n"]))):
    labels.append(f'{r["type"]} {r["n"]}')
    for k in parts:
        parts[k].append(float(r["phase_" + k + "_s"]) / max(float(r["time_s"]), 1e-12))
bottom = [0.0] * len(labels)
for k, v in parts.items():
    bx.bar(labels, v, bottom=bottom, label=k)
    bottom = [a + b for a, b in zip(bottom, v)]
bx.set_ylabel("profiled phase / unprofiled time")
bx.set_title("where the time goes (profiled call)")
bx.tick_params(axis="x", rotation=60, labelsize=7)
bx.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
