#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The trailing update before/after (bench/results/h200-h100-trailing-update.md): the
# profiled update phase and the whole reduction's time, after / before, per GPU and n.
#   python3 bench/plot_update.py bench/results/h200-h100-trailing-update.csv OUT.png
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
key = lambda r: (r["gpu"], r["reduction"], int(r["n"]))
before = {key(r): r for r in rows if r["variant"] == "before"}
after = [r for r in rows if r["variant"] == "after"]
labels = [f"{r['gpu']} {r['reduction']}\n{r['n']}" for r in after]
upd = [float(r["phase_update_s"]) / float(before[key(r)]["phase_update_s"]) for r in after]
tot = [float(r["time_s"]) / float(before[key(r)]["time_s"]) for r in after]
fig, ax = plt.subplots(figsize=(11, 4))
x = range(len(after))
ax.bar([i - 0.2 for i in x], upd, 0.4, label="update phase, after / before")
ax.bar([i + 0.2 for i in x], tot, 0.4, label="whole reduction, after / before")
ax.axhline(1.0, color="k", lw=0.8)
ax.set_xticks(list(x))
ax.set_xticklabels(labels, fontsize=8)
ax.set_ylabel("after / before (lower is faster)")
ax.set_title("Trailing update as GEMMs: hetrd (H200: diagonal block 512, H100: 4096), gebrd (one GEMM)")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
