#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots bench/results/h200-panel-sums.csv (both reductions against cuSOLVER before and
# after the 2026-11-27 changes, same call) and h200-panel-sums-symv.csv (SYMV time per
# forced split at small n).
#   python3 bench/plot_panel_sums.py RESULTS_DIR out.png
import os, sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speedup_axes import load, plot_speedups, save, two_panels  # noqa: E402

rows, symv = load(sys.argv[1], "h200-panel-sums.csv", "h200-panel-sums-symv.csv")
fig, (a1, a2) = two_panels()
lanes = ("GPU 1", "GPU 2")  # the same-call before/after lanes, d, one GPU
plot_speedups(a1, rows, [(code, style, lambda r, c=code: r["code"] == c and r["type"] == "d" and
                          r["gpus"] == "1" and r["call"].endswith(lanes))
                         for code, style in (("0818a48", "o--"), ("4a33b8a", "o-"))],
              "one H200 (of a 4 x H200 machine): speedup over cuSOLVER")
by = defaultdict(dict)
for r in symv:
    by[(r["type"], int(r["split"]))][int(r["n"])] = float(r["best_us"])
for (t, k), pts in sorted(by.items()):
    if k not in (0, 4):
        continue
    ns = sorted(pts)
    a2.plot(ns, [pts[n] for n in ns], "o-" if k == 4 else "o--",
            label=f"{t}, {'policy before (split 0)' if k == 0 else '4 tiles/block'}")
a2.set_xlabel("n (SYMV/HEMV lower, cold L2)")
a2.set_ylabel("time (us), best tuning set")
a2.set_title("mgblas-tester blas --split: one H200")
a2.legend(fontsize=8)
save(fig, sys.argv[2])
