#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# h200x2-reductions.png from h200x2-reductions.csv: each reduction's speedup on two GPUs
# (1 rank x 2, 2 ranks x 1) over one GPU of the same machine in the same call, with
# issue 11's and 13's 2-GPU targets as black bars.
#   python3 bench/plot_x2_reductions.py bench/results/h200x2-reductions.csv OUT.png
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TARGETS = {("hetrd", 16384): 1.6, ("hetrd", 32768): 1.8, ("gebrd", 16384): 1.7}
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["gpus"] == "2"]
cases = sorted({(r["reduction"], int(r["n"])) for r in rows})
fig, ax = plt.subplots(figsize=(8, 4.5))
width = 0.38
for k, (ranks, label) in enumerate([("1", "1 rank x 2 GPUs"), ("2", "2 ranks x 1 GPU")]):
    xs, ys = [], []
    for i, case in enumerate(cases):
        r = next(r for r in rows if (r["reduction"], int(r["n"])) == case and r["ranks"] == ranks)
        xs.append(i + (k - 0.5) * width)
        ys.append(float(r["one_gpu_s"]) / float(r["time_s"]))
    ax.bar(xs, ys, width, label=label)
for i, case in enumerate(cases):
    if case in TARGETS:
        ax.plot([i - width, i + width], [TARGETS[case]] * 2, "k-", lw=2)
ax.axhline(1.0, color="gray", lw=0.6)
ax.axhline(2.0, color="gray", lw=0.6, ls=":")
ax.set_xticks(range(len(cases)), [f"{red} d {n}" for red, n in cases])
ax.set_ylabel("one-GPU time / two-GPU time (same call)")
ax.set_title("Reductions on 2 H200s (NVLink, NCCL); black: issue targets")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
