#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots bench/results/h100-gebrd-tma.csv: gebrd_mgpu with two GEMVs per column and with
# its default (the TMA fused row step on large trailing matrices), on one GPU against
# cuSOLVER, and at n = 16384 on two GPUs (1 rank x 2, 2 ranks x 1).
#   python3 bench/plot_gebrd_tma.py bench/results/h100-gebrd-tma.csv out.png
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
def get(p, n, gpus, ranks, key="time_s"):
    for r in rows:
        if (r["pass"], int(r["n"]), int(r["gpus"]), int(r["ranks"])) == (p, n, gpus, ranks):
            return float(r[key] or 0)
    return 0.0
fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
sizes = sorted({int(r["n"]) for r in rows if r["gpus"] == "1"})
x = range(len(sizes))
w = 0.27
a1.bar([i - w for i in x], [get("two", n, 1, 1) for n in sizes], w, label="two GEMVs per column")
a1.bar(list(x), [get("auto", n, 1, 1) for n in sizes], w, label="default (one pass when large)")
a1.bar([i + w for i in x], [get("two", n, 1, 1, "cusolver_s") for n in sizes], w,
       label="cusolverDnDgebrd")
a1.set_xticks(list(x), [f"d {n}" for n in sizes])
a1.set_yscale("log")
a1.set_ylabel("seconds")
a1.set_title("gebrd_mgpu, one H100")
a1.legend(fontsize=7)
configs = [("1 GPU", 1, 1), ("1 rank x 2", 2, 1), ("2 ranks x 1", 2, 2)]
x = range(len(configs))
a2.bar([i - w / 2 for i in x], [get("two", 16384, g, r) for _, g, r in configs], w, label="two GEMVs")
a2.bar([i + w / 2 for i in x], [get("auto", 16384, g, r) for _, g, r in configs], w, label="default")
a2.axhline(get("two", 16384, 1, 1, "cusolver_s"), color="gray", ls="--", label="cuSOLVER, 1 GPU")
a2.set_xticks(list(x), [c for c, _, _ in configs])
a2.set_ylabel("seconds")
a2.set_title("gebrd_mgpu d 16384 on H100s")
a2.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
