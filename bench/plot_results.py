#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# PNG plots of the distributed and tall-skinny benchmark CSVs in bench/results/.
#   plot_results.py mgpu  bench/results/h200x2-mgpu.csv   bench/results/h200x2-mgpu.png
#   plot_results.py tsgemm bench/results/h200-tsgemm.csv  bench/results/h200-tsgemm.png
#   plot_results.py batched bench/results/h200-batched.csv bench/results/h200-batched.png
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def mgpu(rows, png):
    # Best speedup over 1 GPU per (type, op, placement), against n.
    best = defaultdict(dict)
    for r in rows:
        if r["status"] != "ok" or r["offset"] != "0":
            continue
        # The default SYMV path and resident vectors (comparison runs left out).
        if r.get("symv_path", "kernel") != "kernel" or r.get("vectors", "device") != "device":
            continue
        key = (r["type"], f"{r['op']} {r['variant']}", r["placement"])
        n = int(r["n"])
        best[key][n] = max(best[key].get(n, 0.0), float(r["speedup"]))
    ops = sorted({(k[0], k[1]) for k in best})
    fig, axes = plt.subplots(1, len(ops), figsize=(3.2 * len(ops), 3.2), sharey=True)
    for ax, (t, op) in zip(axes, ops):
        order = ("1gpu", "1rank_2gpu", "2rank_1gpu", "1rank_4gpu", "4rank_1gpu", "2rank_2gpu")
        for placement in order:
            pts = sorted(best.get((t, op, placement), {}).items())
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=placement)
        for ideal in sorted({int(r["gpus"]) for r in rows} - {1}):
            ax.axhline(ideal, color="gray", lw=0.5, ls="--")
        ax.set_xscale("log", base=2)
        ax.set_title(f"{t} {op}")
        ax.set_xlabel("n")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("speedup over mgblas on 1 GPU")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def tsgemm_scaling(rows, png):
    # Row-tiled speedup over 1 GPU against the number of GPUs, per type and shape.
    fig, ax = plt.subplots(figsize=(4.5, 3.4))
    curves = defaultdict(dict)
    for r in rows:
        if r["status"] == "ok":
            g = int(r["ngpu"])
            curves[(r["type"], f"{r['n']}x{r['k']}")][g] = 1.0 if g == 1 else float(r["speedup"])
    for (t, shape), pts in sorted(curves.items()):
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], "o-", label=f"{t} k=n={shape.split('x')[0]}")
    top = max(max(p) for p in curves.values())
    ax.plot([1, top], [1, top], color="gray", lw=0.5, ls="--")
    ax.set_xlabel("GPUs")
    ax.set_ylabel("speedup over 1 GPU")
    ax.set_title("TSM2L m = 2^26, row-tiled")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def tsgemm(rows, png):
    # % of read bandwidth, mgblas and cuBLAS, per paper grid row.
    groups = [g for g in ("tsm2r", "tsm2l", "ahb") if any(r["group"] == g for r in rows)]
    if not groups:  # a scaling run only
        return tsgemm_scaling(rows, png)
    fig, axes = plt.subplots(1, len(groups), figsize=(5 * len(groups), 3.4))
    for ax, g in zip(axes, groups):
        sel = [r for r in rows if r["group"] == g and r["status"] == "ok" and r["ngpu"] == "1"]
        for t, colour in zip("sdcz", ("C0", "C1", "C2", "C3")):
            pts = [r for r in sel if r["type"] == t]
            xs = range(len(pts))
            ax.plot(xs, [float(r["pct_read_bw"]) for r in pts], "o-", color=colour, label=f"{t} mgblas")
            ax.plot(xs, [float(r["cublas_pct_read_bw"]) for r in pts], "x--", color=colour,
                    label=f"{t} cuBLAS")
        ax.set_title(f"{g}: % of read bandwidth per grid point")
        ax.set_xlabel("grid point (order of the table)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("% of measured read bandwidth")
    axes[0].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def batched(rows, png):
    # Square shapes, batch 100000, strided: % of read bandwidth and speedup over cuBLAS.
    sel = [r for r in rows if r["set"] == "fixed" and r["iface"] == "strided" and r["status"] == "ok"]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.4))
    for t, colour in zip("sdcz", ("C0", "C1", "C2", "C3")):
        pts = []
        for r in sel:
            m, n, k = (int(v) for v in r["shape"].split("x"))
            if r["type"] == t and m == n == k:
                pts.append((m, float(r["pct_read_bw"]), float(r["speedup"])))
        pts.sort()
        a1.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=colour, label=t)
        a2.plot([p[0] for p in pts], [p[2] for p in pts], "o-", color=colour, label=t)
    a1.set_ylabel("% of read bandwidth")
    a2.set_ylabel("speedup over cuBLAS strided batched")
    a2.set_yscale("log")
    for a in (a1, a2):
        a.set_xscale("log", base=2)
        a.set_xlabel("m = n = k (batch 100000)")
        a.grid(alpha=0.3)
        a.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    kind, src, png = sys.argv[1:4]
    rows = list(csv.DictReader(open(src)))
    {"mgpu": mgpu, "tsgemm": tsgemm, "batched": batched}[kind](rows, png)
