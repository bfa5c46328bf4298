#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Plot mgblas-tester blas CSVs in a folder: % of copy bandwidth against n, mgblas (solid) and
# cuBLAS (dashed), one panel per operation, one colour per precision. Writes
# level2.png next to the CSVs.
import csv
import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(folder):
    rows = []
    for p in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        if "sweep" in os.path.basename(p):
            continue
        rows += [r for r in csv.DictReader(open(p)) if r["offset"] == "0"]
    if not rows:
        print("no rows")
        return
    panels = sorted({(r["op"], r["uplo"]) for r in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4), squeeze=False)
    colours = {"s": "C0", "d": "C1", "c": "C2", "z": "C3"}
    for ax, (op, up) in zip(axes[0], panels):
        for t in "sdcz":
            rs = sorted((r for r in rows if r["op"] == op and r["uplo"] == up and r["type"] == t),
                        key=lambda r: int(r["n"]))
            if not rs:
                continue
            n = [int(r["n"]) for r in rs]
            pct = [float(r["pct_copy_bw"]) for r in rs]
            bw = float(rs[0]["gbs"]) / float(rs[0]["pct_copy_bw"]) * 100.0
            cub = [100.0 * float(r["cublas_gbs"]) / bw for r in rs]
            ax.plot(n, pct, "-o", color=colours[t], label=f"{t} mgblas", ms=3)
            ax.plot(n, cub, "--x", color=colours[t], label=f"{t} cuBLAS", ms=3)
        ax.set_xscale("log", base=2)
        ax.set_title(f"{op} {'' if up == '-' else up}")
        ax.set_xlabel("n")
        ax.set_ylabel("% of copy bandwidth (bytes of A)")
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "level2.png"), dpi=110)
    print("wrote", os.path.join(folder, "level2.png"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
