#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots bench/results/h200-panel-steps.csv (both reductions against cuSOLVER before and
# after the panel-step changes) and h200-panel-steps-kernels.csv (ncu durations of
# hetrd's column step and its SYMV).
#   python3 bench/plot_panel_steps.py RESULTS_DIR out.png
import csv, os, sys
from collections import defaultdict
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "h200-panel-steps.csv"))))
ker = list(csv.DictReader(open(os.path.join(d, "h200-panel-steps-kernels.csv"))))
fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
for red, targets in (("hetrd", {4096: 1.0, 8192: 1.3, 16384: 1.5}), ("gebrd", {4096: 1.0, 8192: 1.5, 16384: 1.5})):
    for after, style in ((False, "o--"), (True, "o-")):
        pts = sorted((int(r["n"]), float(r["cusolver_s"]) / float(r["time_s"])) for r in rows
                     if r["reduction"] == red and (r["code"] == "bc1aa80") == after)
        a1.plot([n for n, _ in pts], [s for _, s in pts], style,
                label=f"{red}, {'bc1aa80' if after else 'before'}")
    a1.plot(list(targets), list(targets.values()), "k_", ms=14)
a1.axhline(1.0, color="gray", lw=0.6)
a1.set_xscale("log", base=2)
a1.set_xlabel("n (double); black bars: issue targets")
a1.set_ylabel("cuSOLVER time / mgblas time (same call)")
a1.set_title("one H200: speedup over cuSOLVER")
a1.legend(fontsize=8)
med = defaultdict(list)
for r in ker:
    med[(r["kernel"], r["code"], int(r["n"]))].append(float(r["duration_us"]))
for (k, code), style in ((("step_kernel", "5ecbc26"), "s--"), (("step_kernel", "bc1aa80"), "s-"),
                         (("symv_kernel", "5ecbc26"), "^--"), (("symv_kernel", "bc1aa80"), "^-")):
    ns = sorted(n for kk, c, n in med if kk == k and c == code)
    ys = [sorted(med[(k, code, n)])[len(med[(k, code, n)]) // 2] for n in ns]
    a2.plot(ns, ys, style, label=f"{k.split('_')[0]} {code}")
a2.set_xscale("log", base=2)
a2.set_xlabel("n (columns 20-21 of hetrd, d)")
a2.set_ylabel("kernel duration (us, ncu, real clocks)")
a2.set_title("hetrd: one column step and its SYMV")
a2.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
