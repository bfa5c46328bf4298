#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots mgblas-tester gebrd's CSV (bench/device.sh gebrd, with the header line of
# bench/results/h200-gebrd.csv): time against cuSOLVER and the two-GEMV read floor per
# case, and the per-phase split of the profiled calls.
#   python3 bench/plot_gebrd.py bench/results/h200-gebrd.csv bench/results/h200-gebrd.png
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
label = lambda r: f'{r["type"]} {r["m"]}x{r["n"]} {r["gpus"]}g/{r["ranks"]}r'
fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 4.8))
x = range(len(rows))
ax.bar([i - 0.27 for i in x], [float(r["time_s"]) for r in rows], 0.27, label="mgblas gebrd_mgpu")
ax.bar(list(x), [float(r["cusolver_s"]) for r in rows], 0.27, label="cusolverDn<t>gebrd (1 GPU)")
ax.bar([i + 0.27 for i in x], [float(r["floor_s"]) for r in rows], 0.27, label="two-GEMV read floor (1 GPU)")
ax.set_xticks(list(x), [label(r) for r in rows], rotation=60, fontsize=7)
ax.set_yscale("log")
ax.set_ylabel("seconds")
ax.set_title("bidiagonal reduction, H200")
ax.legend(fontsize=7)
parts = {k: [] for k in ["products", "panel", "comm", "update"]}
for r in rows:
    for k in parts:
        parts[k].append(float(r["phase_" + k + "_s"]) / max(float(r["time_s"]), 1e-12))
bottom = [0.0] * len(rows)
for k, v in parts.items():
    bx.bar([label(r) for r in rows], v, bottom=bottom, label=k)
    bottom = [a + b for a, b in zip(bottom, v)]
bx.set_ylabel("profiled phase / unprofiled time")
bx.set_title("where the time goes (profiled call)")
bx.tick_params(axis="x", rotation=60, labelsize=7)
bx.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
