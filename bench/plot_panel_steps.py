#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plots bench/results/h200-panel-steps.csv (both reductions against cuSOLVER before and
# after the panel-step changes) and h200-panel-steps-kernels.csv (ncu durations of
# hetrd's column step and its SYMV).
#   python3 bench/plot_panel_steps.py RESULTS_DIR out.png
import os, sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speedup_axes import load, plot_speedups, save, two_panels  # noqa: E402

rows, ker = load(sys.argv[1], "h200-panel-steps.csv", "h200-panel-steps-kernels.csv")
fig, (a1, a2) = two_panels()
plot_speedups(a1, rows, [("before", "o--", lambda r: r["code"] != "bc1aa80"),
                         ("bc1aa80", "o-", lambda r: r["code"] == "bc1aa80")],
              "one H200: speedup over cuSOLVER")
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
save(fig, sys.argv[2])
