#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# A reduction on one GPU and on P GPUs (the scaling step's CSVs, mgblas-tester hetrd or
# mgblas-tester gebrd rows): time per placement and size beside cuSOLVER on one GPU, and the
# profiled phases where the run had them.
#   python3 bench/plot_placements.py bench/results/h100x4-hetrd.csv OUT.png
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
first = "phase_symv_s" if "phase_symv_s" in rows[0] else "phase_products_s"
phases = [first, "phase_panel_s", "phase_comm_s", "phase_update_s"]
place = lambda r: "1 GPU" if r["gpus"] == "1" else (
    f"1 rank x {r['gpus']}" if r["ranks"] == "1" else f"{r['ranks']} ranks x 1")
fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.2))
labels = [f"n={r['n']}\n{place(r)}" for r in rows]
ax.bar(range(len(rows)), [float(r["time_s"]) for r in rows], color="C0", label="mgblas")
for i, r in enumerate(rows):
    if float(r["cusolver_s"]) > 0:
        ax.bar(i + 0.35, float(r["cusolver_s"]), 0.3, color="C3", label="cuSOLVER, 1 GPU")
ax.set_xticks(range(len(rows)))
ax.set_xticklabels(labels, fontsize=8)
ax.set_ylabel("seconds")
ax.set_title("time per placement")
ax.legend(fontsize=8)
prof = [r for r in rows if sum(float(r[p]) for p in phases) > 0]
bottom = [0.0] * len(prof)
for p, c in zip(phases, ("C0", "C1", "C2", "C4")):
    v = [float(r[p]) for r in prof]
    bx.bar(range(len(prof)), v, bottom=bottom, color=c, label=p[6:-2])
    bottom = [b + x for b, x in zip(bottom, v)]
bx.set_xticks(range(len(prof)))
bx.set_xticklabels([f"n={r['n']}\n{place(r)}" for r in prof], fontsize=8)
bx.set_title("profiled phases (devices synchronised per phase)")
bx.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
