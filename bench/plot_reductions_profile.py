#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots bench/results/h200-reductions-profile.csv (speedup of gebrd_mgpu and hetrd_mgpu
# over cuSOLVER on one H200), h200-fused-kernel-variants.csv (one launch of gebrd's
# fused row step in each variant tried) and h200x4-gebrd-fused.csv (gebrd on 4 H200s).
#   python3 bench/plot_reductions_profile.py RESULTS_DIR out.png
import csv, os, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "h200-reductions-profile.csv"))))
var = list(csv.DictReader(open(os.path.join(d, "h200-fused-kernel-variants.csv"))))
fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(17, 4.5))
ref = {(r["reduction"], r["call"], r["n"]): float(r["cusolver_s"]) for r in rows if r["cusolver_s"]}
series = [("gebrd", "two", "1", "gebrd, two GEMVs"), ("gebrd", "auto", "1", "gebrd, default (5050cde)"),
          ("hetrd", "", "1", "hetrd")]
for red, p, call, label in series:
    pts = [(int(r["n"]), ref[(red, call, r["n"])] / float(r["time_s"])) for r in rows
           if r["reduction"] == red and r["pass"] == p and r["call"] == call]
    a1.plot([n for n, _ in pts], [s for _, s in pts], "o-", label=label)
new = [r for r in rows if r["call"] == "7" and r["pass"] == "auto"][0]
a1.plot([int(new["n"])], [ref[("gebrd", "7", new["n"])] / float(new["time_s"])], "r*", ms=12,
        label="gebrd, default with shared loads")
a1.axhline(1.5, color="gray", ls="--", lw=0.8)
a1.set_xscale("log", base=2)
a1.set_xlabel("n (double)")
a1.set_ylabel("speedup over cuSOLVER (same call)")
a1.set_title("one H200")
a1.legend(fontsize=7)
a2.barh([v["variant"] for v in var], [float(v["fused_kernel_us_at_column_300"]) for v in var])
a2.set_xlabel("us, one launch (n = 16384, column 300, ncu)")
a2.set_title("gebrd fused row step: variants tried")
x4 = list(csv.DictReader(open(os.path.join(d, "h200x4-gebrd-fused.csv"))))
codes = sorted({r["code"] for r in x4}, key=lambda c: c != "7258ae3")
places = [r["placement"] for r in x4 if r["code"] == codes[0]]
for k, code in enumerate(codes):
    vals = [float(r["cusolver_1gpu_s"]) / float(r["time_s"]) for r in x4 if r["code"] == code]
    a3.bar([i + 0.4 * k - 0.2 for i in range(len(vals))], vals, 0.4, label=code)
a3.set_xticks(range(len(places)), places, fontsize=8)
a3.axhline(3, color="gray", ls="--", lw=0.8)
a3.set_ylabel("cuSOLVER on 1 GPU / mgblas")
a3.set_title("gebrd d 16384 on 4 x H200")
a3.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
