#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# h200-hetrd-step.png from h200-hetrd-step.csv: left, mgblas-tester hetrd's speedup over
# cusolverDnDsytrd per n before and after the change, each pair from one call, with
# issue 11's targets; right, the panel-width sweep (time relative to panels of 64).
#   python3 bench/plot_hetrd_step.py bench/results/h200-hetrd-step.csv OUT.png
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from speedup_axes import finish_panel_width_axis, plot_hetrd_before_after  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))

final = [r for r in rows if r["call"] == "H200 call 6" and r["type"] == "d"]
plot_hetrd_before_after(
    left, [("84707c1 (before)", "o--", [r for r in final if r["code"] == "84707c1"]),
           ("this change", "s-", [r for r in final if r["code"] != "84707c1"])],
    "hetrd on one H200: before and after, one call")

sweep = [r for r in rows if r["call"].startswith("H200 call 2")]
ref = {int(r["n"]): float(r["time_s"]) for r in sweep if r["panel"] == "64"}
for n in sorted(ref):
    pts = sorted((int(r["panel"]), float(r["time_s"]) / ref[n]) for r in sweep if int(r["n"]) == n)
    right.plot([p for p, _ in pts], [t for _, t in pts], "o-", label=f"n = {n}")
finish_panel_width_axis(right, [32, 64, 128], "panel width (columns)",
                        "panel width sweep, one H200, d, nb 256")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
