#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# h200-reductions-speedups.png from h200-reductions-speedups.csv: left, hetrd's speedup over
# cuSOLVER before and after the SYMV hands back v^H A v (one call); middle, gebrd's time
# per panel width relative to panels of 64 (same calls); right, the eigenvalue step
# (hetrd + tridiag_eigenvalues_mgpu minus hetrd) per lanes per eigenvalue at n = 16384.
#   python3 bench/plot_reductions_speedups.py bench/results/h200-reductions-speedups.csv OUT.png
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from speedup_axes import finish_panel_width_axis, plot_hetrd_before_after  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
fig, (left, mid, right) = plt.subplots(1, 3, figsize=(15, 4.5))

ab = [r for r in rows if r["call"] == "1" and r["type"] == "d"]
plot_hetrd_before_after(
    left, [(v, style, [r for r in ab if r["version"] == v])
           for v, style in [("49b2ded", "o--"), ("f3c15e8 (v^H A v from the SYMV)", "s-")]],
    "hetrd, one H200: before / after")

sweep = [r for r in rows if r["reduction"] == "gebrd" and r["call"] in ("4", "5")]
cases = sorted({(r["type"], int(r["m"]), int(r["n"])) for r in sweep})
for t, m, n in cases:
    own = [r for r in sweep if (r["type"], int(r["m"]), int(r["n"])) == (t, m, n)]
    by_call = {}
    for r in own:
        by_call.setdefault(r["call"], {})[int(r["panel"])] = float(r["time_s"])
    # Relative to panels of 64 in the same call where that call has them, else call 4's.
    ref64 = next((c[64] for c in by_call.values() if 64 in c), None)
    if ref64 is None:
        continue
    pts = sorted({p: v for c in by_call.values() for p, v in c.items()}.items())
    label = f"{t} {m}x{n}" if m != n else f"{t} {n}"
    mid.plot([p for p, _ in pts], [v / ref64 for _, v in pts], "o-", label=label)
finish_panel_width_axis(mid, [16, 32, 64], "gebrd panel width (columns)",
                        "gebrd panel width, one H200 (auto is now 32)")

pts = sorted((int(r["reduction"].split()[-1]), float(r["eig_s"]) - float(r["time_s"]))
             for r in rows if r["reduction"].startswith("eig points"))
right.plot([p for p, _ in pts], [s * 1e3 for _, s in pts], "o-")
right.set_xscale("log", base=2)
right.set_xticks([1, 4, 8, 16, 32], ["1", "4", "8", "16", "32"])
right.set_xlabel("lanes per eigenvalue (MGBLAS_STEBZ_POINTS; 1 = bisection)")
right.set_ylabel("eigenvalue step (ms): eig run minus hetrd run")
right.set_title("tridiag_eigenvalues_mgpu, d, n = 16384, one H200")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
