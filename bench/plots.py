#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Every figure of bench/results, and the level-2 text tables, from the CSVs the steps of
# bench/device.sh write: one sub-command per topic,
#
#   python3 bench/plots.py TOPIC INPUT... OUT.png     a figure
#   python3 bench/plots.py TOPIC CSV...               a table (level2-summary, level2-table)
#   python3 bench/plots.py --list                     the topics, their inputs, what they draw
#
# e.g. python3 bench/plots.py hetrd bench/results/h200-hetrd.csv bench/results/h200-hetrd.png
# bench/README.md lists which result each topic draws. bench/scaling_model.py draws its
# figures (scaling-model.png, <gpu>x4-reductions.png, <all-reduce CSV>.png) with the
# functions at the end of this file. matplotlib is imported only when a figure is drawn.
import csv
import glob
import math
import os
import sys
import textwrap
from collections import OrderedDict, defaultdict

# ---- what the figures share -----------------------------------------------------------------
_pyplot = None


def pyplot():
    """matplotlib.pyplot on the Agg back-end, imported on first use."""
    global _pyplot
    if _pyplot is None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        _pyplot = plt
    return _pyplot


def read(path):
    """The rows of a CSV, as dicts."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def figure(ncols, size, **kw):
    """One row of ncols panels."""
    return pyplot().subplots(1, ncols, figsize=size, **kw)


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    pyplot().close(fig)


def finish(ax, title=None, xlabel=None, ylabel=None, logx=None, logy=False, grid=False,
           legend=None, ncol=1):
    """The axis' scales, labels, title, grid and legend (legend: its font size; last, so
    it sees every line). Ticks set after this keep the scale's."""
    if logx:
        ax.set_xscale("log", base=logx)
    if logy:
        ax.set_yscale("log")
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if grid:
        ax.grid(alpha=0.3)
    if legend:
        ax.legend(fontsize=legend, ncol=ncol)


def line(ax, pts, style, **kw):
    """(x, y) points as one line."""
    return ax.plot([x for x, _ in pts], [y for _, y in pts], style, **kw)


def precision_colours(order="sdcz"):
    """(type, colour) per precision, the first of order in C0."""
    return zip(order, ("C0", "C1", "C2", "C3"))


def grouped_bars(ax, series, width):
    """series: (heights, label) per bar of a group; bar group i centred on x = i."""
    for k, (heights, label) in enumerate(series):
        offset = (k - (len(series) - 1) / 2) * width
        ax.bar([i + offset for i in range(len(heights))], heights, width, label=label)


def stacked_bars(ax, x, parts):
    """parts: (label, heights) or (label, heights, colour), bottom to top."""
    bottom = [0.0] * len(x)
    for label, heights, *colour in parts:
        ax.bar(x, heights, bottom=bottom, label=label, **({"color": colour[0]} if colour else {}))
        bottom = [b + h for b, h in zip(bottom, heights)]


def phase_shares(bx, labels, rows, phases):
    """The right panel of the one-GPU reduction figures: each profiled phase over the
    unprofiled time, stacked per row."""
    stacked_bars(bx, labels, [(k, [float(r["phase_" + k + "_s"]) / max(float(r["time_s"]), 1e-12)
                                   for r in rows]) for k in phases])
    bx.set_ylabel("profiled phase / unprofiled time")
    bx.set_title("where the time goes (profiled call)")
    bx.tick_params(axis="x", rotation=60, labelsize=7)
    bx.legend(fontsize=7)


def placement_name(ranks, gpus):
    """'1 rank x 4', '4 ranks x 1': ranks times the GPUs of each."""
    return f"{ranks} rank{'s' if ranks > 1 else ''} x {gpus // ranks}"


def placement_label(r):
    """A reduction tester row's placement: '1 GPU' or placement_name."""
    gpus = int(r["gpus"])
    return "1 GPU" if gpus == 1 else placement_name(int(r["ranks"]), gpus)


# The reductions' targets (speedup over cuSOLVER on one GPU; on two GPUs over one GPU in
# the same call): issue 11 (hetrd) and issue 13 (gebrd).
TARGETS = {"hetrd": {4096: 1.0, 8192: 1.3, 16384: 1.5}, "gebrd": {4096: 1.0, 8192: 1.5, 16384: 1.5}}
TARGETS_2GPU = {("hetrd", 16384): 1.6, ("hetrd", 32768): 1.8, ("gebrd", 16384): 1.7}


def speedup_line(ax, rows, style, label):
    """cusolver_s / time_s per n of rows, as one line."""
    line(ax, sorted((int(r["n"]), float(r["cusolver_s"]) / float(r["time_s"])) for r in rows),
         style, label=label)


def finish_speedup_axis(ax, xlabel, ylabel, title):
    ax.axhline(1.0, color="gray", lw=0.6)
    finish(ax, title, xlabel, ylabel, logx=2, legend=8)


def reduction_speedups(ax, rows, versions, title):
    """Both reductions' speedup over cuSOLVER per n, a line per version, the targets as
    black bars. rows: reduction, n, time_s, cusolver_s; versions: (label, style, keep)
    with keep(row) choosing that version's rows."""
    for red, targets in TARGETS.items():
        for label, style, keep in versions:
            speedup_line(ax, [r for r in rows if r["reduction"] == red and keep(r)], style,
                         f"{red}, {label}")
        ax.plot(list(targets), list(targets.values()), "k_", ms=14)
    finish_speedup_axis(ax, "n (double); black bars: issue targets",
                        "cuSOLVER time / mgblas time (same call)", title)


def hetrd_before_after(ax, series, title):
    """series: (label, style, rows) with rows holding n, time_s and cusolver_s of one
    version of hetrd; one line each, issue 11's targets as black bars."""
    for label, style, rows in series:
        speedup_line(ax, rows, style, label)
    targets = TARGETS["hetrd"]
    ax.plot(list(targets), list(targets.values()), "k_", ms=14, label="issue 11 target")
    finish_speedup_axis(ax, "n (double)", "cusolverDnDsytrd time / mgblas time (same call)", title)


def finish_panel_width_axis(ax, widths, xlabel, title):
    """The axis of a panel-width sweep whose lines are time / time with panels of 64."""
    ax.axhline(1.0, color="gray", lw=0.6)
    finish(ax, title, xlabel, "time / time with panels of 64", logx=2, legend=8)
    ax.set_xticks(widths, [str(w) for w in widths])


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


# ---- the topics -------------------------------------------------------------------------------
TOPICS = OrderedDict()  # name -> (function, inputs, what, draws a figure)


def topic(name, inputs, what, draws=True):
    def add(fn):
        TOPICS[name] = (fn, inputs, what, draws)
        return fn
    return add


def level2_rows(paths):
    """mgblas-tester blas rows at offset 0 of the CSVs named or found in the folders named,
    the tuning sweeps (files named *sweep*) left out."""
    rows = []
    for p in paths:
        files = sorted(glob.glob(os.path.join(p, "*.csv"))) if os.path.isdir(p) else [p]
        for f in files:
            if "sweep" not in os.path.basename(f):
                rows += [r for r in read(f) if r["offset"] == "0"]
    return rows


@topic("level2", "CSV|DIR...", "GEMV/SYMV/HEMV: % of copy bandwidth against n, mgblas (solid) "
       "and cuBLAS (dashed), a panel per operation, a colour per precision (step level2; "
       "<gpu>-gemv-symv)")
def level2(paths, out):
    rows = level2_rows(paths)
    if not rows:
        print("no rows")
        return
    panels = sorted({(r["op"], r["uplo"]) for r in rows})
    fig, axes = figure(len(panels), (4.2 * len(panels), 4), squeeze=False)
    for ax, (op, up) in zip(axes[0], panels):
        for t, colour in precision_colours():
            rs = sorted((r for r in rows if r["op"] == op and r["uplo"] == up and r["type"] == t),
                        key=lambda r: int(r["n"]))
            if not rs:
                continue
            n = [int(r["n"]) for r in rs]
            bw = float(rs[0]["gbs"]) / float(rs[0]["pct_copy_bw"]) * 100.0
            ax.plot(n, [float(r["pct_copy_bw"]) for r in rs], "-o", color=colour,
                    label=f"{t} mgblas", ms=3)
            ax.plot(n, [100.0 * float(r["cublas_gbs"]) / bw for r in rs], "--x", color=colour,
                    label=f"{t} cuBLAS", ms=3)
        finish(ax, f"{op} {'' if up == '-' else up}", "n", "% of copy bandwidth (bytes of A)",
               logx=2, grid=True)
    axes[0][0].legend(fontsize=7, ncol=2)
    save(fig, out)
    print("wrote", out)


@topic("level2-summary", "CSV...", "per file, type, op and uplo: the sizes, % of copy bandwidth "
       "(min-max), median GB/s, speedup over cuBLAS (min, geometric mean), failures (text)",
       draws=False)
def level2_summary(paths):
    for path in paths:
        rows = read(path)
        if not rows:
            continue
        sweep = "sweep" in path
        print(f"== {os.path.basename(path)}")
        groups = OrderedDict()
        for r in rows:
            key = (r["type"], r["op"], r["uplo"], "" if sweep else r["offset"],
                   r["engine"] if sweep else "")
            groups.setdefault(key, []).append(r)
        print(f"{'type':4} {'op':6} {'up':2} {'off':>4} {'sizes':>13} {'%copy':>11} "
              f"{'GB/s':>7} {'xcuBLAS min':>11} {'geo':>6} {'fail':>4}  engine")
        for (t, op, up, off, eng), rs in groups.items():
            pct = [float(r["pct_copy_bw"]) for r in rs]
            sp = [float(r["speedup"]) for r in rs]
            gbs = sorted(float(r["gbs"]) for r in rs)
            sizes = [int(r["n"]) for r in rs]
            fails = sum(r["status"] != "ok" for r in rs)
            size_txt = f"{min(sizes)}-{max(sizes)}" if len(set(sizes)) > 1 else str(sizes[0])
            print(f"{t:4} {op:6} {up:2} {off:>4} {size_txt:>13} {min(pct):5.1f}-{max(pct):5.1f} "
                  f"{gbs[len(gbs) // 2]:7.0f} {min(sp):11.3f} {geomean(sp):6.3f} {fails:4d}  "
                  f"{eng or rs[0]['engine'][:40]}")


@topic("level2-table", "CSV...", "Markdown tables of every row, for bench/results/*.md (text)",
       draws=False)
def level2_table(paths):
    for path in paths:
        rows = read(path)
        if not rows:
            continue
        print(f"\n### {os.path.basename(path)}\n")
        print("| type | op | uplo | m | n | offset | time (ms) | GB/s (A) | % copy | cuBLAS GB/s "
              "| speedup | cuBLAS atomics GB/s | error | status | engine |")
        print("|" + "---|" * 15)
        for r in rows:
            atom = float(r["cublas_atomics_gbs"])
            print(f"| {r['type']} | {r['op']} | {r['uplo']} | {r['m']} | {r['n']} "
                  f"| {r['offset']} | {float(r['time_ms']):.4f} | {float(r['gbs']):.0f} "
                  f"| {float(r['pct_copy_bw']):.1f} | {float(r['cublas_gbs']):.0f} "
                  f"| {float(r['speedup']):.3f} | {'-' if atom <= 0 else f'{atom:.0f}'} "
                  f"| {float(r['error']):.1e} | {r['status']} | {r['engine']} |")
        sp = [float(r["speedup"]) for r in rows]
        print(f"\ngeometric-mean speedup over cuBLAS: {geomean(sp):.3f} ({len(sp)} rows)")


@topic("mgpu", "CSV", "distributed GEMV/SYMV/HEMV: best speedup over mgblas on 1 GPU per "
       "placement against n, a panel per type and op (step dist; <gpu>xP-mgpu)")
def mgpu(paths, out):
    rows = read(paths[0])
    best = defaultdict(dict)  # (type, op, placement) -> n -> best speedup
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
    fig, axes = figure(len(ops), (3.2 * len(ops), 3.2), sharey=True)
    for ax, (t, op) in zip(axes, ops):
        for placement in ("1gpu", "1rank_2gpu", "2rank_1gpu", "1rank_4gpu", "4rank_1gpu",
                          "2rank_2gpu"):
            pts = sorted(best.get((t, op, placement), {}).items())
            if pts:
                line(ax, pts, "o-", label=placement)
        for ideal in sorted({int(r["gpus"]) for r in rows} - {1}):
            ax.axhline(ideal, color="gray", lw=0.5, ls="--")
        finish(ax, f"{t} {op}", "n", logx=2, grid=True)
    axes[0].set_ylabel("speedup over mgblas on 1 GPU")
    axes[0].legend(fontsize=7)
    save(fig, out)


def tsgemm_scaling(rows, out):
    # Row-tiled speedup over 1 GPU against the number of GPUs, per type and shape.
    fig, ax = figure(1, (4.5, 3.4))
    curves = defaultdict(dict)
    for r in rows:
        if r["status"] == "ok":
            g = int(r["ngpu"])
            curves[(r["type"], f"{r['n']}x{r['k']}")][g] = 1.0 if g == 1 else float(r["speedup"])
    for (t, shape), pts in sorted(curves.items()):
        line(ax, sorted(pts.items()), "o-", label=f"{t} k=n={shape.split('x')[0]}")
    top = max(max(p) for p in curves.values())
    ax.plot([1, top], [1, top], color="gray", lw=0.5, ls="--")
    finish(ax, "TSM2L m = 2^26, row-tiled", "GPUs", "speedup over 1 GPU", grid=True, legend=7)
    save(fig, out)


@topic("tsgemm", "CSV", "tall-skinny GEMM: % of read bandwidth per grid point, mgblas and "
       "cuBLAS, a panel per kernel group; a scaling run (row-tiled, P GPUs): speedup over "
       "1 GPU against P (step tsgemm; <gpu>-tsgemm, <gpu>xP-tsgemm)")
def tsgemm(paths, out):
    rows = read(paths[0])
    groups = [g for g in ("tsm2r", "tsm2l", "ahb") if any(r["group"] == g for r in rows)]
    if not groups:  # a scaling run only
        return tsgemm_scaling(rows, out)
    fig, axes = figure(len(groups), (5 * len(groups), 3.4))
    for ax, g in zip(axes, groups):
        sel = [r for r in rows if r["group"] == g and r["status"] == "ok" and r["ngpu"] == "1"]
        for t, colour in precision_colours():
            pts = [r for r in sel if r["type"] == t]
            xs = range(len(pts))
            ax.plot(xs, [float(r["pct_read_bw"]) for r in pts], "o-", color=colour,
                    label=f"{t} mgblas")
            ax.plot(xs, [float(r["cublas_pct_read_bw"]) for r in pts], "x--", color=colour,
                    label=f"{t} cuBLAS")
        finish(ax, f"{g}: % of read bandwidth per grid point", "grid point (order of the table)",
               grid=True)
    axes[0].set_ylabel("% of measured read bandwidth")
    axes[0].legend(fontsize=7, ncol=2)
    save(fig, out)


@topic("batched", "CSV", "batched GEMM, square shapes, batch 100000, strided: % of read "
       "bandwidth and speedup over cuBLAS against m = n = k (step batched; <gpu>-batched)")
def batched(paths, out):
    sel = [r for r in read(paths[0])
           if r["set"] == "fixed" and r["iface"] == "strided" and r["status"] == "ok"]
    fig, (a1, a2) = figure(2, (10, 3.4))
    for t, colour in precision_colours():
        pts = []
        for r in sel:
            m, n, k = (int(v) for v in r["shape"].split("x"))
            if r["type"] == t and m == n == k:
                pts.append((m, float(r["pct_read_bw"]), float(r["speedup"])))
        pts.sort()
        line(a1, [(p[0], p[1]) for p in pts], "o-", color=colour, label=t)
        line(a2, [(p[0], p[2]) for p in pts], "o-", color=colour, label=t)
    a1.set_ylabel("% of read bandwidth")
    a2.set_ylabel("speedup over cuBLAS strided batched")
    a2.set_yscale("log")
    for a in (a1, a2):
        finish(a, xlabel="m = n = k (batch 100000)", logx=2, grid=True, legend=7)
    save(fig, out)


@topic("hetrd", "CSV", "tridiagonal reduction on one GPU: time per precision and n against "
       "cuSOLVER and the SYMV read floor; the profiled phases (step hetrd; <gpu>-hetrd)")
def hetrd(paths, out):
    rows = [r for r in read(paths[0]) if r["uplo"] == "L" and r["gpus"] == "1"]
    fig, (ax, bx) = figure(2, (12, 4.5))
    for t, colour in precision_colours("dszc"):
        rs = sorted((r for r in rows if r["type"] == t), key=lambda r: int(r["n"]))
        if not rs:
            continue
        n = [int(r["n"]) for r in rs]
        ax.plot(n, [float(r["time_s"]) for r in rs], "o-", color=colour, label=f"mgblas {t}")
        ax.plot(n, [float(r["cusolver_s"]) for r in rs], "x--", color=colour, label=f"cuSOLVER {t}")
        ax.plot(n, [float(r["symv_floor_s"]) for r in rs], ":", color=colour, alpha=0.5)
    finish(ax, "tridiagonal reduction, one H200", "n", "seconds (dotted: SYMV read floor)",
           logx=2, logy=True, legend=7)
    rows = sorted(rows, key=lambda r: ("dszc".index(r["type"]), int(r["n"])))
    phase_shares(bx, [f'{r["type"]} {r["n"]}' for r in rows], rows,
                 ["symv", "panel", "comm", "update"])
    save(fig, out)


@topic("gebrd", "CSV", "bidiagonal reduction: time per case against cuSOLVER and the two-GEMV "
       "read floor; the profiled phases (step gebrd; <gpu>-gebrd)")
def gebrd(paths, out):
    rows = read(paths[0])
    labels = [f'{r["type"]} {r["m"]}x{r["n"]} {r["gpus"]}g/{r["ranks"]}r' for r in rows]
    fig, (ax, bx) = figure(2, (13, 4.8))
    grouped_bars(ax, [([float(r["time_s"]) for r in rows], "mgblas gebrd_mgpu"),
                      ([float(r["cusolver_s"]) for r in rows], "cusolverDn<t>gebrd (1 GPU)"),
                      ([float(r["floor_s"]) for r in rows], "two-GEMV read floor (1 GPU)")], 0.27)
    ax.set_xticks(range(len(rows)), labels, rotation=60, fontsize=7)
    finish(ax, "bidiagonal reduction, H200", ylabel="seconds", logy=True, legend=7)
    phase_shares(bx, labels, rows, ["products", "panel", "comm", "update"])
    save(fig, out)


@topic("placements", "CSV", "a reduction on 1 and P GPUs (the scaling step's hetrd or gebrd "
       "rows): time per placement and n beside cuSOLVER on 1 GPU; the profiled phases "
       "(<gpu>xP-hetrd)")
def placements(paths, out):
    rows = read(paths[0])
    first = "phase_symv_s" if "phase_symv_s" in rows[0] else "phase_products_s"
    phases = [first, "phase_panel_s", "phase_comm_s", "phase_update_s"]
    fig, (ax, bx) = figure(2, (12, 4.2))
    ax.bar(range(len(rows)), [float(r["time_s"]) for r in rows], color="C0", label="mgblas")
    for i, r in enumerate(rows):
        if float(r["cusolver_s"]) > 0:
            ax.bar(i + 0.35, float(r["cusolver_s"]), 0.3, color="C3", label="cuSOLVER, 1 GPU")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([f"n={r['n']}\n{placement_label(r)}" for r in rows], fontsize=8)
    finish(ax, "time per placement", ylabel="seconds", legend=8)
    prof = [r for r in rows if sum(float(r[p]) for p in phases) > 0]
    stacked_bars(bx, range(len(prof)), [(p[6:-2], [float(r[p]) for r in prof], c)
                                        for p, c in zip(phases, ("C0", "C1", "C2", "C4"))])
    bx.set_xticks(range(len(prof)))
    bx.set_xticklabels([f"n={r['n']}\n{placement_label(r)}" for r in prof], fontsize=8)
    finish(bx, "profiled phases (devices synchronised per phase)", legend=8)
    save(fig, out)


@topic("x2-reductions", "CSV", "each reduction's speedup on two GPUs (1 rank x 2, 2 ranks x 1) "
       "over one GPU in the same call, the 2-GPU targets as black bars (<gpu>x2-reductions)")
def x2_reductions(paths, out):
    rows = [r for r in read(paths[0]) if r["gpus"] == "2"]
    cases = sorted({(r["reduction"], int(r["n"])) for r in rows})
    fig, ax = figure(1, (8, 4.5))
    width = 0.38

    def speedup(case, ranks):
        r = next(r for r in rows if (r["reduction"], int(r["n"])) == case and r["ranks"] == ranks)
        return float(r["one_gpu_s"]) / float(r["time_s"])

    grouped_bars(ax, [([speedup(c, ranks) for c in cases], label)
                      for ranks, label in [("1", "1 rank x 2 GPUs"), ("2", "2 ranks x 1 GPU")]],
                 width)
    for i, case in enumerate(cases):
        if case in TARGETS_2GPU:
            ax.plot([i - width, i + width], [TARGETS_2GPU[case]] * 2, "k-", lw=2)
    ax.axhline(1.0, color="gray", lw=0.6)
    ax.axhline(2.0, color="gray", lw=0.6, ls=":")
    ax.set_xticks(range(len(cases)), [f"{red} d {n}" for red, n in cases])
    finish(ax, "Reductions on 2 H200s (NVLink, NCCL); black: issue targets",
           ylabel="one-GPU time / two-GPU time (same call)", legend=8)
    save(fig, out)


@topic("x4-reductions", "HETRD_CSV GEBRD_CSV", "per reduction and n on 1 and 4 GPUs: a profiled "
       "call's phases per placement, the first and warm calls' times, cuSOLVER on 1 GPU "
       "(the scaling step; <gpu>x4-reductions, also drawn by scaling_model.py)")
def x4_reductions(paths, out):
    panels = []
    for path in paths:
        rs = read(path)
        first, label = (("phase_symv_s", "symv") if "phase_symv_s" in rs[0]
                        else ("phase_products_s", "products"))
        red = "hetrd" if label == "symv" else "gebrd"
        for n in sorted({int(r["n"]) for r in rs}):
            panels.append((red, first, label, [r for r in rs if int(r["n"]) == n]))
    fig, ax = figure(len(panels), (5.5 * len(panels), 4), squeeze=False)
    for a, (red, first, label, rs) in zip(ax[0], panels):
        # Per placement: the profiled call's phases as bars, and the unprofiled times: the
        # process's first call and a warm one (first_call 0) where measured.
        def name(r):
            return placement_name(int(r["ranks"]), int(r["gpus"]))
        names = list(OrderedDict.fromkeys(name(r) for r in rs))
        prof = [next((r for r in rs if name(r) == nm and float(r["phase_panel_s"]) > 0), None)
                for nm in names]
        stacked_bars(a, names, [(lab, [float(r[col]) if r else 0.0 for r in prof])
                                for col, lab in ((first, label + " (profiled call)"),
                                                 ("phase_panel_s", "panel"),
                                                 ("phase_comm_s", "comm"),
                                                 ("phase_update_s", "update"))])
        for flag, mark, lab in (("1", "k*", "first call of the process"), ("0", "wD", "warm call")):
            calls = [r for nm in names for r in rs if name(r) == nm and r.get("first_call") == flag]
            if calls:
                a.plot([name(r) for r in calls], [float(r["time_s"]) for r in calls], mark,
                       mec="k", label=lab)
        cus = [float(r["cusolver_s"]) for r in rs if float(r["cusolver_s"]) > 0]
        if cus:
            a.axhline(cus[-1], color="red", ls="--", label="cuSOLVER, 1 GPU")
        a.tick_params(axis="x", labelsize=8)
        finish(a, f"{red} d n = {rs[0]['n']}, 4 x H200", ylabel="s", legend=6)
    save(fig, out)


@topic("gebrd-tma", "CSV", "gebrd_mgpu with two GEMVs per column and its default (TMA fused "
       "row step when large) against cuSOLVER on one GPU, and at n = 16384 on two GPUs "
       "(h100-gebrd-tma)")
def gebrd_tma(paths, out):
    rows = read(paths[0])

    def get(p, n, gpus, ranks, key="time_s"):
        for r in rows:
            if (r["pass"], int(r["n"]), int(r["gpus"]), int(r["ranks"])) == (p, n, gpus, ranks):
                return float(r[key] or 0)
        return 0.0
    fig, (a1, a2) = figure(2, (12, 4.5))
    sizes = sorted({int(r["n"]) for r in rows if r["gpus"] == "1"})
    grouped_bars(a1, [([get("two", n, 1, 1) for n in sizes], "two GEMVs per column"),
                      ([get("auto", n, 1, 1) for n in sizes], "default (one pass when large)"),
                      ([get("two", n, 1, 1, "cusolver_s") for n in sizes], "cusolverDnDgebrd")],
                 0.27)
    a1.set_xticks(range(len(sizes)), [f"d {n}" for n in sizes])
    finish(a1, "gebrd_mgpu, one H100", ylabel="seconds", logy=True, legend=7)
    configs = [("1 GPU", 1, 1), ("1 rank x 2", 2, 1), ("2 ranks x 1", 2, 2)]
    grouped_bars(a2, [([get("two", 16384, g, r) for _, g, r in configs], "two GEMVs"),
                      ([get("auto", 16384, g, r) for _, g, r in configs], "default")], 0.27)
    a2.axhline(get("two", 16384, 1, 1, "cusolver_s"), color="gray", ls="--",
               label="cuSOLVER, 1 GPU")
    a2.set_xticks(range(len(configs)), [c for c, _, _ in configs])
    finish(a2, "gebrd_mgpu d 16384 on H100s", ylabel="seconds", legend=7)
    save(fig, out)


@topic("gebrd-one-pass", "CSV", "gebrd_mgpu with two GEMVs per column and with the one-pass row "
       "step per GPU, cuSOLVER and the one-pass read floor (step gebrd-passes; "
       "h200-h100-gebrd-one-pass)")
def gebrd_one_pass(paths, out):
    rows = read(paths[0])
    fig, axes = figure(2, (12, 4.5))
    for ax, gpu in zip(axes, ["H200", "H100"]):
        sizes = sorted({int(r["n"]) for r in rows if r["gpu"] == gpu})

        def pick(p, key):  # the first row of each size (one call's baseline)
            firsts = []
            for n in sizes:
                v = [float(r[key]) for r in rows
                     if r["gpu"] == gpu and r["pass"] == p and int(r["n"]) == n]
                firsts.append(v[0] if v else 0.0)
            return firsts
        grouped_bars(ax, [(pick("two", "time_s"), "two GEMVs (total)"),
                          (pick("one", "time_s"), "one pass (total)"),
                          (pick("two", "cusolver_s"), "cusolverDnDgebrd"),
                          ([t / 2 for t in pick("two", "floor_s")], "one-pass read floor")], 0.2)
        ax.set_xticks(range(len(sizes)), [f"d {n}" for n in sizes])
        finish(ax, f"gebrd_mgpu, one {gpu}", ylabel="seconds", logy=True, legend=7)
    save(fig, out)


@topic("trailing-update", "CSV", "the trailing update as GEMMs: the profiled update phase and "
       "the whole reduction, after / before, per GPU, reduction and n (h200-h100-trailing-update)")
def trailing_update(paths, out):
    rows = read(paths[0])

    def key(r):
        return (r["gpu"], r["reduction"], int(r["n"]))
    before = {key(r): r for r in rows if r["variant"] == "before"}
    after = [r for r in rows if r["variant"] == "after"]
    fig, ax = figure(1, (11, 4))
    grouped_bars(ax, [([float(r["phase_update_s"]) / float(before[key(r)]["phase_update_s"])
                        for r in after], "update phase, after / before"),
                      ([float(r["time_s"]) / float(before[key(r)]["time_s"]) for r in after],
                       "whole reduction, after / before")], 0.4)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(range(len(after)))
    ax.set_xticklabels([f"{r['gpu']} {r['reduction']}\n{r['n']}" for r in after], fontsize=8)
    finish(ax, "Trailing update as GEMMs: hetrd (H200: diagonal block 512, H100: 4096), gebrd "
           "(one GEMM)", ylabel="after / before (lower is faster)", legend=8)
    save(fig, out)


@topic("hetrd-step", "CSV", "hetrd's speedup over cuSOLVER before and after the one-pass column "
       "step (one call), and the panel-width sweep (h200-hetrd-step)")
def hetrd_step(paths, out):
    rows = read(paths[0])
    fig, (left, right) = figure(2, (12, 4.5))
    final = [r for r in rows if r["call"] == "H200 call 6" and r["type"] == "d"]
    hetrd_before_after(
        left, [("84707c1 (before)", "o--", [r for r in final if r["code"] == "84707c1"]),
               ("this change", "s-", [r for r in final if r["code"] != "84707c1"])],
        "hetrd on one H200: before and after, one call")
    sweep = [r for r in rows if r["call"].startswith("H200 call 2")]
    ref = {int(r["n"]): float(r["time_s"]) for r in sweep if r["panel"] == "64"}
    for n in sorted(ref):
        line(right, sorted((int(r["panel"]), float(r["time_s"]) / ref[n])
                           for r in sweep if int(r["n"]) == n), "o-", label=f"n = {n}")
    finish_panel_width_axis(right, [32, 64, 128], "panel width (columns)",
                            "panel width sweep, one H200, d, nb 256")
    save(fig, out)


@topic("reductions-speedups", "CSV", "hetrd's speedup over cuSOLVER before / after v^H A v from "
       "the SYMV; gebrd's time per panel width; the eigenvalue step per lanes per eigenvalue "
       "(h200-reductions-speedups)")
def reductions_speedups(paths, out):
    rows = read(paths[0])
    fig, (left, mid, right) = figure(3, (15, 4.5))
    ab = [r for r in rows if r["call"] == "1" and r["type"] == "d"]
    hetrd_before_after(
        left, [(v, style, [r for r in ab if r["version"] == v])
               for v, style in [("49b2ded", "o--"), ("f3c15e8 (v^H A v from the SYMV)", "s-")]],
        "hetrd, one H200: before / after")

    sweep = [r for r in rows if r["reduction"] == "gebrd" and r["call"] in ("4", "5")]
    for t, m, n in sorted({(r["type"], int(r["m"]), int(r["n"])) for r in sweep}):
        by_call = {}
        for r in sweep:
            if (r["type"], int(r["m"]), int(r["n"])) == (t, m, n):
                by_call.setdefault(r["call"], {})[int(r["panel"])] = float(r["time_s"])
        # Relative to panels of 64 in the same call where that call has them, else call 4's.
        ref64 = next((c[64] for c in by_call.values() if 64 in c), None)
        if ref64 is None:
            continue
        pts = sorted({p: v for c in by_call.values() for p, v in c.items()}.items())
        line(mid, [(p, v / ref64) for p, v in pts], "o-",
             label=f"{t} {m}x{n}" if m != n else f"{t} {n}")
    finish_panel_width_axis(mid, [16, 32, 64], "gebrd panel width (columns)",
                            "gebrd panel width, one H200 (auto is now 32)")

    pts = sorted((int(r["reduction"].split()[-1]), float(r["eig_s"]) - float(r["time_s"]))
                 for r in rows if r["reduction"].startswith("eig points"))
    line(right, [(p, s * 1e3) for p, s in pts], "o-")
    finish(right, "tridiag_eigenvalues_mgpu, d, n = 16384, one H200",
           "lanes per eigenvalue (MGBLAS_STEBZ_POINTS; 1 = bisection)",
           "eigenvalue step (ms): eig run minus hetrd run", logx=2)
    right.set_xticks([1, 4, 8, 16, 32], ["1", "4", "8", "16", "32"])
    save(fig, out)


@topic("panel-steps", "CSV KERNELS_CSV", "both reductions against cuSOLVER before and after the "
       "panel-step changes; ncu durations of hetrd's column step and its SYMV (h200-panel-steps)")
def panel_steps(paths, out):
    rows, ker = read(paths[0]), read(paths[1])
    fig, (a1, a2) = figure(2, (12, 4.5))
    reduction_speedups(a1, rows, [("before", "o--", lambda r: r["code"] != "bc1aa80"),
                                  ("bc1aa80", "o-", lambda r: r["code"] == "bc1aa80")],
                       "one H200: speedup over cuSOLVER")
    durations = defaultdict(list)
    for r in ker:
        durations[(r["kernel"], r["code"], int(r["n"]))].append(float(r["duration_us"]))
    for (k, code), style in ((("step_kernel", "5ecbc26"), "s--"),
                             (("step_kernel", "bc1aa80"), "s-"),
                             (("symv_kernel", "5ecbc26"), "^--"),
                             (("symv_kernel", "bc1aa80"), "^-")):
        ns = sorted(n for kk, c, n in durations if kk == k and c == code)
        medians = [sorted(durations[(k, code, n)])[len(durations[(k, code, n)]) // 2] for n in ns]
        line(a2, list(zip(ns, medians)), style, label=f"{k.split('_')[0]} {code}")
    finish(a2, "hetrd: one column step and its SYMV", "n (columns 20-21 of hetrd, d)",
           "kernel duration (us, ncu, real clocks)", logx=2, legend=8)
    save(fig, out)


@topic("panel-sums", "CSV SYMV_CSV", "both reductions against cuSOLVER before and after the "
       "2026-11-27 changes (same call); SYMV time per forced split at small n (h200-panel-sums)")
def panel_sums(paths, out):
    rows, symv = read(paths[0]), read(paths[1])
    fig, (a1, a2) = figure(2, (12, 4.5))
    lanes = ("GPU 1", "GPU 2")  # the same-call before/after lanes, d, one GPU
    reduction_speedups(
        a1, rows, [(code, style, lambda r, c=code: r["code"] == c and r["type"] == "d" and
                    r["gpus"] == "1" and r["call"].endswith(lanes))
                   for code, style in (("0818a48", "o--"), ("4a33b8a", "o-"))],
        "one H200 (of a 4 x H200 machine): speedup over cuSOLVER")
    by = defaultdict(dict)
    for r in symv:
        by[(r["type"], int(r["split"]))][int(r["n"])] = float(r["best_us"])
    for (t, k), pts in sorted(by.items()):
        if k in (0, 4):
            line(a2, sorted(pts.items()), "o-" if k == 4 else "o--",
                 label=f"{t}, {'policy before (split 0)' if k == 0 else '4 tiles/block'}")
    finish(a2, "mgblas-tester blas --split: one H200", "n (SYMV/HEMV lower, cold L2)",
           "time (us), best tuning set", legend=8)
    save(fig, out)


@topic("reductions-profile", "CSV VARIANTS_CSV X4_CSV", "both reductions' speedup over cuSOLVER "
       "on one GPU; one launch of gebrd's fused row step per variant tried; gebrd on 4 GPUs per "
       "placement and code (h200-reductions-profile, with h200-fused-kernel-variants and "
       "h200x4-gebrd-fused)")
def reductions_profile(paths, out):
    rows, var, x4 = (read(p) for p in paths)
    fig, (a1, a2, a3) = figure(3, (17, 4.5))
    ref = {(r["reduction"], r["call"], r["n"]): float(r["cusolver_s"])
           for r in rows if r["cusolver_s"]}
    for red, p, call, label in (("gebrd", "two", "1", "gebrd, two GEMVs"),
                                ("gebrd", "auto", "1", "gebrd, default (5050cde)"),
                                ("hetrd", "", "1", "hetrd")):
        line(a1, [(int(r["n"]), ref[(red, call, r["n"])] / float(r["time_s"])) for r in rows
                  if r["reduction"] == red and r["pass"] == p and r["call"] == call], "o-",
             label=label)
    new = [r for r in rows if r["call"] == "7" and r["pass"] == "auto"][0]
    a1.plot([int(new["n"])], [ref[("gebrd", "7", new["n"])] / float(new["time_s"])], "r*", ms=12,
            label="gebrd, default with shared loads")
    a1.axhline(1.5, color="gray", ls="--", lw=0.8)
    finish(a1, "one H200", "n (double)", "speedup over cuSOLVER (same call)", logx=2, legend=7)
    a2.barh([v["variant"] for v in var], [float(v["fused_kernel_us_at_column_300"]) for v in var])
    finish(a2, "gebrd fused row step: variants tried",
           "us, one launch (n = 16384, column 300, ncu)")
    codes = sorted({r["code"] for r in x4}, key=lambda c: c != "7258ae3")
    places = [r["placement"] for r in x4 if r["code"] == codes[0]]
    grouped_bars(a3, [([float(r["cusolver_1gpu_s"]) / float(r["time_s"]) for r in x4
                        if r["code"] == code], code) for code in codes], 0.4)
    a3.set_xticks(range(len(places)), places, fontsize=8)
    a3.axhline(3, color="gray", ls="--", lw=0.8)
    finish(a3, "gebrd d 16384 on 4 x H200", ylabel="cuSOLVER on 1 GPU / mgblas", legend=7)
    save(fig, out)


@topic("unmtr", "CSV DIGEST_CSV", "unmtr_mgpu against cuSOLVER ormtr/unmtr on one GPU: the "
       "speedup per case, a bar per run (larft form, block width); and the replicated-input "
       "digest's cost, time with MGBLAS_VERIFY_INPUTS=1 over =0 per distributed level-2 case "
       "(<gpu>-unmtr)")
def unmtr(paths, out):
    rows, digest = read(paths[0]), read(paths[1])
    fig, (a1, a2) = figure(2, (13, 4.5))
    runs = list(OrderedDict.fromkeys((r["run"], r["larft"], r["block"]) for r in rows))
    cases = list(OrderedDict.fromkeys((r["type"], r["n"], r["K"], r["uplo"]) for r in rows))
    series = []
    for run in runs:
        by_case = {(r["type"], r["n"], r["K"], r["uplo"]): float(r["cusolver_s"]) / float(r["time_s"])
                   for r in rows if (r["run"], r["larft"], r["block"]) == run}
        series.append(([by_case.get(c, 0.0) for c in cases], f"run {run[0]}: larft {run[1]}, block {run[2]}"))
    grouped_bars(a1, series, 0.8 / len(series))
    a1.set_xticks(range(len(cases)), [f"{t} {n}x{k} {u}" for t, n, k, u in cases], rotation=60,
                  ha="right", fontsize=7)
    a1.axhline(1.0, color="gray", ls="--", lw=0.8)
    finish(a1, "unmtr_mgpu on 1 x H200", ylabel="cuSOLVER time / mgblas time", legend=7)
    base = {(r["op"], r["n"], r["reducer"], r["vectors"]): float(r["time_ms"])
            for r in digest if r["verify_inputs"] == "0"}
    keys = [k for k in base]
    on = {(r["op"], r["n"], r["reducer"], r["vectors"]): float(r["time_ms"])
          for r in digest if r["verify_inputs"] == "1"}
    a2.bar(range(len(keys)), [on[k] / base[k] for k in keys])
    a2.set_xticks(range(len(keys)), [f"{o} {n} {red} x:{v}" for o, n, red, v in keys],
                  rotation=60, ha="right", fontsize=7)
    a2.axhline(1.02, color="red", ls="--", lw=0.8, label="issue 32: 2 %")
    finish(a2, "digest of x on (d, 1 rank, 1 GPU)", ylabel="time verify=1 / verify=0", legend=7)
    save(fig, out)


@topic("edges", "CSV", "the replicated-input digest's cost (MGBLAS_VERIFY_INPUTS=1 over =0) per "
       "distributed level-2 case, a bar per hash: the byte-wise FNV-1a on a host copy, the "
       "word sum formed by a GPU kernel (<gpu>-edges)")
def edges(paths, out):
    rows = read(paths[0])
    fig, ax = figure(1, (9, 4.5))
    hashes = list(OrderedDict.fromkeys(r["hash"] for r in rows))
    key = lambda r: (r["op"], r["n"], r["reducer"], r["vectors"])
    cases = list(OrderedDict.fromkeys(key(r) for r in rows))
    series = []
    for h in hashes:
        t = {(key(r), r["verify_inputs"]): float(r["time_ms"]) for r in rows if r["hash"] == h}
        series.append(([t[(c, "1")] / t[(c, "0")] for c in cases], h))
    grouped_bars(ax, series, 0.8 / len(series))
    ax.set_xticks(range(len(cases)), [f"{o} {n} {red} x:{v}" for o, n, red, v in cases],
                  rotation=60, ha="right", fontsize=7)
    ax.axhline(1.02, color="red", ls="--", lw=0.8, label="issue 32: 2 %")
    finish(ax, "digest of replicated inputs (d, 1 rank, 1 H200)",
           ylabel="time verify=1 / verify=0", legend=7)
    save(fig, out)


@topic("redistribute", "CSV", "ScaLAPACK 2-D block-cyclic to and from a DistMatrix on GPUs: "
       "import_2d, export_2d, the route through rank 0 and one hetrd_mgpu per size, a line "
       "per grid (<gpu>-redistribute)")
def redistribute(paths, out):
    rows = read(paths[0])
    fig, ax = figure(2, (11, 4.5))

    def key(r):
        return (r["type"], r["nprow"], r["npcol"], r["ranks"], r["gpus"], r.get("route", ""))

    for g in OrderedDict.fromkeys(key(r) for r in rows):
        sel = [r for r in rows if key(r) == g]
        if len(sel) < 2:
            continue
        ns = [int(r["n"]) for r in sel]
        route = f", {g[5]} route" if g[5] else ""
        label = f"{g[0]} {g[1]}x{g[2]} grid, {g[3]} rank(s), {g[4]} GPUs{route}"
        line = ax[0].loglog(ns, [float(r["import_s"]) for r in sel], "o-", label=f"import {label}")
        # Runs without the route through rank 0 (or hetrd) write 0 there.
        for col, style, what in (("root_s", "x--", "through rank 0"), ("hetrd_s", ":", "hetrd_mgpu")):
            timed = [r for r in sel if float(r[col]) > 0]
            if timed:
                ax[0].loglog([int(r["n"]) for r in timed], [float(r[col]) for r in timed], style,
                             color=line[0].get_color(), label=f"{what} {label}")
        gb = [int(r["n"]) ** 2 * (16 if r["type"] in "cz" else 8) * 1e-9 for r in sel]
        ax[1].semilogx(ns, [b / float(r["import_s"]) for b, r in zip(gb, sel)], "o-",
                       color=line[0].get_color(), label=f"import {label}")
        ax[1].semilogx(ns, [b / float(r["export_s"]) for b, r in zip(gb, sel)], "s--",
                       color=line[0].get_color(), label=f"export {label}")
    finish(ax[0], "time (s), mb = 64", "n", "seconds", legend=6)
    finish(ax[1], "matrix bytes / time", "n", "GB/s", legend=6)
    save(fig, out)


@topic("heevd", "CSV", "heevd_mgpu against cusolverDnXsyevd with vectors: time per phase "
       "(reduction, tridiagonal, back-transformation) beside cuSOLVER's total, per n and "
       "vector count (<gpu>-heevd)")
def heevd(paths, out):
    rows = read(paths[0])
    fig, ax = figure(1, (8, 4.5))
    labels = [f"{r['type']} {r['n']}\n{r['vectors']}\n{r['ranks']}x{int(r['devices']) // int(r['ranks'])}"
              + (f"\n{r['stages']}" if r.get("stages") else "") for r in rows]
    x = list(range(len(rows)))
    parts = [("reduction", [float(r["reduction"]) for r in rows]),
             ("tridiagonal (divide and conquer)", [float(r["tridiagonal"]) for r in rows]),
             ("back-transformation", [float(r["back_transform"]) for r in rows])]
    stacked_bars(ax, [i - 0.2 for i in x], parts)
    ax.bar([i + 0.2 for i in x], [float(r["t_cusolver_V"]) for r in rows], 0.35,
           label="cusolverDnXsyevd jobz V")
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    finish(ax, "heevd_mgpu phases (ranks x GPUs) vs cuSOLVER on one GPU", None, "seconds", logy=True, legend=6)
    ax.set_ylim(bottom=0.01)  # the smallest phases (4096) stay visible
    ax.tick_params(axis="x", labelsize=7)
    save(fig, out)


@topic("svd", "CSV", "gesvd_mgpu against cusolverDnXgesvd and Xgesvdp: time per phase "
       "(bidiagonal reduction, the bidiagonal's SVD, back-transformation) beside cuSOLVER's, per "
       "type, shape and vector count (<gpu>-svd)")
def svd(paths, out):
    rows = [r for p in paths for r in read(p)]
    fig, ax = figure(1, (12, 5))
    labels = [f"{r['type']}\n{r['m']}\nx{r['n']}\n{r['vectors']}" for r in rows]
    x = list(range(len(rows)))
    parts = [("gebrd (bidiagonal reduction)", [float(r["reduction"]) for r in rows]),
             ("bidiagonal SVD", [float(r["bidiagonal"]) for r in rows]),
             ("back-transformation", [float(r["back_transform"]) for r in rows])]
    bottom = [0.0] * len(x)
    for label, heights in parts:  # stacked_bars' default width would hide the neighbours
        ax.bar([i - 0.27 for i in x], heights, 0.25, bottom=bottom, label=label)
        bottom = [b + h for b, h in zip(bottom, heights)]
    num = lambda v: float(v) if v not in ("", "nan") else float("nan")
    ax.bar(x, [num(r["t_gesvd"]) for r in rows], 0.25, label="cusolverDnXgesvd")
    ax.bar([i + 0.27 for i in x], [num(r["t_gesvdp"]) for r in rows], 0.25,
           label="cusolverDnXgesvdp")
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    finish(ax, "gesvd_mgpu phases vs cuSOLVER on one GPU", None, "seconds", logy=True, legend=6)
    ax.set_ylim(bottom=0.1)
    ax.tick_params(axis="x", labelsize=7)
    save(fig, out)


@topic("svd-2stage", "CSV", "gesvd_mgpu one-stage against two-stage (stage one, chase, "
       "bidiagonal SVD, back-transformation stacked) beside cusolverDnXgesvdp, per type, shape "
       "and vectors (<gpu>-svd-2stage)")
def svd_2stage(paths, out):
    rows = read(paths[0])
    cases = []  # (one-stage row, two-stage row) per case
    for r in rows:
        if r["stages"] == "two":
            one = [o for o in rows if o["stages"] == "one" and all(
                o[k] == r[k] for k in ("type", "m", "n", "vectors"))]
            cases.append((one[0] if one else None, r))
    fig, ax = figure(1, (12, 5))
    x = list(range(len(cases)))
    labels = [f"{t['type']}\n{t['m']}\nx{t['n']}\n{t['vectors']}" for _, t in cases]
    f = lambda r, k: float(r[k]) if r and r[k] not in ("", "nan") else float("nan")
    parts = [("QR first (tall)", [f(t, "qr") for _, t in cases]),
             ("two-stage: stage one", [f(t, "reduction") - f(t, "chase") for _, t in cases]),
             ("two-stage: chase", [f(t, "chase") for _, t in cases]),
             ("two-stage: bidiagonal SVD", [f(t, "bidiagonal") for _, t in cases]),
             ("two-stage: back-transformation", [f(t, "back_transform") for _, t in cases])]
    bottom = [0.0] * len(x)
    for label, heights in parts:
        ax.bar([i - 0.27 for i in x], heights, 0.25, bottom=bottom, label=label)
        bottom = [b + h for b, h in zip(bottom, heights)]
    ax.bar(x, [f(o, "t_mgblas") for o, _ in cases], 0.25, label="one-stage (gebrd_mgpu) total")
    ax.bar([i + 0.27 for i in x], [f(t, "t_gesvdp") for _, t in cases], 0.25,
           label="cusolverDnXgesvdp")
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    finish(ax, "gesvd_mgpu on one H200: two-stage vs one-stage vs cuSOLVER Xgesvdp", None,
           "seconds", logy=True, legend=6)
    ax.set_ylim(bottom=0.005)
    ax.tick_params(axis="x", labelsize=7)
    save(fig, out)


@topic("twostage", "CSV", "the two-stage tridiagonal reduction (hetrd_2stage_mgpu): stage one and "
       "the chase stacked, beside the one-stage hetrd_mgpu and cusolverDn<t>sytrd, per n and band "
       "(<gpu>-twostage)")
def twostage(paths, out):
    rows = read(paths[0])
    fig, ax = figure(1, (8, 4.5))
    labels = [f"{r['type']} {r['n']}\nband {r['band']}" for r in rows]
    x = list(range(len(rows)))
    # The unprofiled two-stage time, split as the profiled call's phases split it.
    def share(r, part):
        prof = float(r["stage_one_profiled_s"]) + float(r["chase_s"])
        return float(r["two_stage_s"]) * float(r[part]) / prof
    parts = [("two-stage: stage one (dense to band)",
              [share(r, "stage_one_profiled_s") for r in rows]),
             ("two-stage: chase (band to tridiagonal)", [share(r, "chase_s") for r in rows])]
    bottom = [0.0] * len(x)
    for label, heights in parts:
        ax.bar([i - 0.27 for i in x], heights, 0.25, bottom=bottom, label=label)
        bottom = [b + h for b, h in zip(bottom, heights)]
    ax.bar(x, [float(r["one_stage_s"]) for r in rows], 0.25, label="one-stage hetrd_mgpu")
    ax.bar([i + 0.27 for i in x], [float(r["cusolver_sytrd_s"] or "nan") for r in rows], 0.25,
           label="cusolverDnDsytrd")
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    finish(ax, "tridiagonal reduction on one H200: two-stage vs one-stage vs cuSOLVER", None,
           "seconds", logy=True, legend=6)
    ax.set_ylim(bottom=0.02)  # stage one at 4096 stays visible
    ax.tick_params(axis="x", labelsize=7)
    save(fig, out)


@topic("sy2sb-update", "CSV", "stage one's deferred update: the two-stage time per pending-column "
       "width against panel by panel, and the profiled phases (<gpu>-sy2sb-update)")
def sy2sb_update(paths, out):
    rows = read(paths[0])
    fig, (ax, bx) = figure(2, (12, 4.5))
    sizes = sorted({int(r["n"]) for r in rows})
    for n in sizes:
        rs = sorted((r for r in rows if int(r["n"]) == n), key=lambda r: int(r["update"]))
        base = float(rs[0]["two_stage_s"])  # the narrowest width: the band, panel by panel
        ax.plot([int(r["update"]) for r in rs], [base / float(r["two_stage_s"]) for r in rs],
                "o-", label=f"n = {n}")
    finish(ax, "hetrd_2stage_mgpu, d, band 32, one H200", "pending columns before the update",
           "speedup over panel by panel", logx=2, legend=8, grid=True)
    picked = [r for r in rows if r["update"] in ("32", "256")]
    labels = [f'{r["n"]}\n{r["update"]}' for r in picked]
    x = list(range(len(picked)))
    stacked_bars(bx, x, [(name, [float(r[col]) for r in picked])
                         for name, col in (("panel QR + catch-up", "qr_s"), ("hemm", "hemm_s"),
                                           ("update", "update_s"), ("chase", "chase_s"))])
    bx.set_xticks(x)
    bx.set_xticklabels(labels)
    finish(bx, "profiled phases (n, pending columns)", None, "seconds", legend=8)
    save(fig, out)


@topic("apply-q", "CSV", "Q2 of the bulge chase applied (band_to_tridiag_apply_q): its TF/s per "
       "case and kernel shape beside cuBLAS gemm's in the same run (<gpu>-band2tri-apply-q)")
def apply_q(paths, out):
    rows = read(paths[0])
    fig, ax = figure(1, (8, 4.5))
    labels = [f"{r['type']} {r['n']}\nb {r['b']}\n{r['shape'].split(' ')[0]}\nrun {r['run']}"
              for r in rows]
    x = list(range(len(rows)))
    ax.bar([i - 0.2 for i in x], [float(r["apply_q_tflops"]) for r in rows], 0.4,
           label="band_to_tridiag_apply_q (nominal flops)")
    ax.bar([i + 0.2 for i in x], [float(r["gemm_tflops"]) for r in rows], 0.4,
           label="cuBLAS gemm n x n x n")
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    finish(ax, "Q2 C on one H200 against GEMM in the same run", None, "TFLOP/s", legend=6)
    ax.tick_params(axis="x", labelsize=6)
    save(fig, out)


# ---- bench/scaling_model.py's figures (their data come from the model) -----------------------
@topic("ab-testers", "CSV...", "before/after of a change: each case's after/before time ratio, "
       "one column of points per tester CSV (compare_testers.py --csv), the 3% band shaded "
       "(step ab-testers; <gpu>-redesign)")
def ab_testers(paths, out):
    fig, ax = figure(1, (7, 4))
    names = []
    for i, p in enumerate(paths):
        ratios = [float(r["ratio"]) for r in read(p)]
        xs = [i + 0.25 * ((j % 9) - 4) / 4 for j in range(len(ratios))]
        ax.plot(xs, ratios, "o", ms=4, alpha=0.7)
        names.append(os.path.basename(p).split("-compare")[0].split(".")[0])
    ax.axhspan(0.97, 1.03, color="0.9", zorder=0)
    ax.axhline(1.0, color="0.5", lw=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    finish(ax, title="after / before, same GPU, same call (shaded: within 3%)",
           ylabel="time after / time before")
    save(fig, out)


def scaling_model_figure(out, projection, measured, cases):
    """projection: (GPUs, SYMV speedup, hetrd speedup) of the model, d 65536; measured:
    (GPUs, speedup) of the distributed SYMV; cases: (reduction, n, placement, |error|)."""
    fig, ax = figure(2, (11, 5))
    ps = [p[0] for p in projection]
    ax[0].loglog(ps, [p[1] for p in projection], "o-", label="SYMV d 65536 (model)")
    ax[0].loglog(ps, [p[2] for p in projection], "s-", label="hetrd d 65536 (model)")
    ax[0].loglog(ps, ps, ":", color="gray", label="ideal")
    for gpus, speedup in measured:
        ax[0].plot(gpus, speedup, "k*")
    finish(ax[0], "projection (stars: measured SYMV)", "GPUs", "speedup over 1 GPU", legend=7)
    ax[1].bar(range(len(cases)), [100 * c[3] for c in cases])
    ax[1].set_xticks(range(len(cases)),
                     [f"{red} {n}, {pl.replace(' rank', 'r').replace('s x', ' x')}"
                      for red, n, pl, _ in cases], rotation=70, ha="right", fontsize=6)
    ax[1].axhline(15, color="red", ls="--", lw=0.8, label="issue 15: 15 %")
    finish(ax[1], "reductions on 2 and 4 GPUs: model error", ylabel="|model / measured - 1| (%)",
           legend=7)
    save(fig, out)


def allreduce_figure(out, fits):
    """The all-reduce's synchronised time per message size and its alpha-beta fit, a panel
    per transport, a line per GPU count and placement. fits: (GPUs, placement, transport,
    type) -> (points (bytes, us, queued us), fit (alpha us, beta GB/s, dev) or None, _)."""
    transports = sorted({k[2] for k in fits})
    fig, ax = figure(len(transports), (5.5 * len(transports), 4), squeeze=False)
    for a, tr in zip(ax[0], transports):
        for (gpus, pl, t, ty), (pts, ft, _) in fits.items():
            if t != tr:
                continue
            xs = [p[0] for p in pts]
            drawn, = a.loglog(xs, [p[1] for p in pts], "o", ms=3, label=f"{ty} {pl}")
            if ft:
                a.loglog(xs, [ft[0] + x / (ft[1] * 1e3) for x in xs], "-", lw=0.8,
                         color=drawn.get_color())
        finish(a, f"all-reduce ({tr}): measured, alpha + bytes / beta", "bytes per device",
               "us per call", legend=7)
    save(fig, out)


# ---- the command line -------------------------------------------------------------------------
def usage(stream):
    print("usage: python3 bench/plots.py TOPIC INPUT... OUT.png   (tables: TOPIC CSV...)",
          file=stream)
    for name, (_, inputs, what, draws) in TOPICS.items():
        print(f"  {name} {inputs}{' OUT.png' if draws else ''}", file=stream)
        print(textwrap.fill(what, 92, initial_indent=" " * 6, subsequent_indent=" " * 6),
              file=stream)


@topic("sy2sb-blocks", "CSV", "stage one's A22 V over several devices, per block against grouped: "
       "the two-stage time per placement and the profiled phases (<gpu>-sy2sb-blocks)")
def sy2sb_blocks(paths, out):
    rows = read(paths[0])
    fig, (ax, bx) = figure(2, (12, 4.5))
    sizes = sorted({int(r["n"]) for r in rows})
    places = [("1", "1", "one device"), ("2", "2", "per block"), ("2", "2", "grouped"),
              ("1", "2", "per block"), ("1", "2", "grouped")]
    series = []
    for ranks, gpus, form in places:
        pick = {int(r["n"]): float(r["two_stage_s"]) for r in rows
                if (r["ranks"], r["gpus"], r["form"]) == (ranks, gpus, form)}
        name = "1 GPU" if gpus == "1" else f"{ranks} x {2 // int(ranks)} GPUs, {form}"
        series.append(([pick.get(n, 0.0) for n in sizes], name))
    grouped_bars(ax, series, 0.15)
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([f"n = {n}" for n in sizes])
    finish(ax, "hetrd two-stage, d, band 32, H200s", None, "seconds", legend=7)
    picked = [r for r in rows if r["form"] != "per block" or r["ranks"] == "2"]
    x = list(range(len(picked)))
    stacked_bars(bx, x, [(name, [float(r[col]) for r in picked])
                         for name, col in (("panel QR + catch-up", "qr_s"), ("hemm", "hemm_s"),
                                           ("comm", "comm_s"), ("update", "update_s"),
                                           ("chase", "chase_s"))])
    bx.set_xticks(x)
    bx.set_xticklabels([f'{r["n"]}\n{r["ranks"]}x{int(r["gpus"]) // int(r["ranks"])}\n'
                        f'{r["form"]}' for r in picked], fontsize=6)
    finish(bx, "profiled phases (n, ranks x GPUs per rank, form)", None, "seconds", legend=7)
    save(fig, out)


@topic("sy2sb-fused", "CSV", "stage one's A22 V on one GPU: the hemm phase per form (fused kernel, "
       "cuBLAS gemms) and diagonal block, and the chase per kernel (<gpu>-sy2sb-fused)")
def sy2sb_fused(paths, out):
    rows = [r for r in read(paths[0]) if r["type"] == "d"]
    fig, (ax, bx) = figure(2, (12, 4.5))
    sizes = [16384, 32768]
    # the hemm phase: the latest of runs 1-4 (the form and block comparisons) per (form, block)
    forms = {}
    for r in rows:
        if r["run"] in ("1", "2", "3", "4") and int(r["n"]) in sizes:
            forms[(r["form"], int(r["hemm_block"]), int(r["n"]))] = float(r["hemm_s"])
    keys = sorted({(f, b) for f, b, _ in forms}, key=lambda k: (k[0], k[1]))
    series = [([forms.get((f, b, n), 0.0) for n in sizes], f"{f}, squares of {b}")
              for f, b in keys]
    grouped_bars(ax, series, 0.09)
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([f"n = {n}" for n in sizes])
    finish(ax, "stage one's hemm phase (profiled; runs 1-4), d, band 32, H200", None,
           "seconds", legend=7)
    chase = {}
    for r in rows:
        if r["run"] == "5":
            chase[(r["chase"], int(r["n"]))] = float(r["chase_s"])
    all_n = sorted({n for _, n in chase})
    grouped_bars(bx, [([chase.get((c, n), 0.0) for n in all_n], f"{c} per sweep")
                      for c in ("block", "warp")], 0.3)
    bx.set_xticks(range(len(all_n)))
    bx.set_xticklabels([f"n = {n}" for n in all_n])
    finish(bx, "bulge chase, d, band 32 (run 5)", None, "seconds", legend=7)
    save(fig, out)


@topic("chase-latency", "CSV", "the tridiagonal bulge chase's task latency by phase (clock "
       "trace) and the chase's time per kernel version (<gpu>-chase-latency)")
def chase_latency(paths, out):
    rows = read(paths[0])
    fig, (ax, bx) = figure(2, (12, 4.5))
    versions = ["before", "before, acquire/release hand-off"]
    phases = [r["what"].split(":", 1)[1] for r in rows
              if r["what"].startswith("task_phase:") and r["version"] == versions[0]
              and not r["what"].endswith(":task")]
    parts = []
    for p in phases:
        parts.append((p, [float(r["value"]) for v in versions for r in rows
                          if r["version"] == v and r["what"] == "task_phase:" + p]))
    stacked_bars(ax, range(len(versions)), parts)
    ax.set_xticks(range(len(versions)))
    ax.set_xticklabels(["before", "acquire/release\nhand-off"])
    finish(ax, "a task's phases, thread 0's clock (run 1), d, n = 32768, b = 32", None,
           "microseconds", legend=7)
    picks = [("before", "1"), ("before, acquire/release hand-off", "1"),
             ("loads together + one-thread hand-off", "2"), ("one reduction + row-0 hand-off", "7")]
    vals = []
    for v, run in picks:
        vals.append(next(float(r["value"]) for r in rows
                         if r["version"] == v and r["run"] == run and r["what"] == "chase"
                         and r["n"] == "32768" and r["b"] == "32" and r["type"] == "d"
                         and r["vectors"] == "N"))
    bx.bar(range(len(vals)), vals, color="C0")
    for i, y in enumerate(vals):
        bx.text(i, y, f"{y:.3f}", ha="center", va="bottom", fontsize=8)
    bx.set_xticks(range(len(vals)))
    bx.set_xticklabels([v.replace(" + ", "\n+ ").replace(", ", ",\n") for v, _ in picks],
                       fontsize=7)
    finish(bx, "band_to_tridiag, d, n = 32768, b = 32, H200", None, "seconds")
    save(fig, out)


@topic("panel-qr", "CSV", "stage one's panel QR, one cooperative kernel against cuSOLVER's geqrf: "
       "hetrd_2stage_mgpu's phases per panel QR and n (run 4), and the eigenvalues-only time "
       "per n (run 3) (<gpu>-panel-qr)")
def panel_qr(paths, out):
    rows = read(paths[0])
    fig, (ax, bx) = figure(2, (12, 4.5))
    modes = ["cusolver geqrf", "kernel slab 64", "kernel slab 128"]
    sizes = ["8192", "16384"]

    def get(run, mode, what, n):
        return next(float(r["value_s"]) for r in rows if r["run"] == run and
                    r["panel_qr"] == mode and r["what"] == what and r["n"] == n)

    cases = [(n, m) for n in sizes for m in modes]
    phases = [("panel (QR, catch-up, W)", "panel_phase_profiled"), ("A22 V", "hemm_phase_profiled"),
              ("update", "update_phase_profiled"), ("chase", "chase_profiled")]
    stacked_bars(ax, range(len(cases)), [(label, [get("4", m, key, n) for n, m in cases])
                                         for label, key in phases])
    totals = [get("4", m, "hetrd_two_stage", n) for n, m in cases]
    ax.plot(range(len(cases)), totals, "k*", label="unprofiled call (median of 3)")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([f"{n}\n{m.replace('kernel ', '')}" for n, m in cases], fontsize=7)
    finish(ax, "hetrd_2stage_mgpu, d, band 32, H200 (run 4)", None, "seconds (profiled call)",
           legend=7)
    ns = ["4096", "8192", "16384"]
    width = 0.38
    for i, mode in enumerate(["cusolver geqrf", "kernel slab 64"]):
        vals = [next(float(r["ratio"]) for r in rows if r["run"] == "3" and r["panel_qr"] == mode
                     and r["what"] == "eigenvalues_only" and r["n"] == n) for n in ns]
        xs = [j + (i - 0.5) * width for j in range(len(ns))]
        bx.bar(xs, vals, width, label=mode)
        for x, v in zip(xs, vals):
            bx.text(x, v, f"{v:.2f}", ha="center", va="bottom", fontsize=7)
    bx.set_xticks(range(len(ns)))
    bx.set_xticklabels(ns)
    finish(bx, "eigenvalues only (two-stage hetrd + bisection), d (run 3)", "n",
           "speedup over cusolverDnXsyevd (no vectors)", legend=7)
    save(fig, out)


@topic("panel-wy", "CSV PANEL_QR_CSV", "the panel QR with its WY form in the same kernel: "
       "hetrd_2stage_mgpu per n before (<gpu>-panel-qr's run 4, slab 128) and after (run 1), "
       "and heevd_mgpu's one-, two-stage and automatic paths with all vectors (run 3) "
       "(<gpu>-panel-wy)")
def panel_wy(paths, out):
    rows, before = read(paths[0]), read(paths[1])
    fig, (ax, bx) = figure(2, (11, 4.5))

    def labelled(axis, series, width, fmt):
        """grouped_bars with each bar's value above it."""
        grouped_bars(axis, series, width)
        for k, (heights, _) in enumerate(series):
            for i, v in enumerate(heights):
                axis.text(i + (k - (len(series) - 1) / 2) * width, v, fmt.format(v),
                          ha="center", va="bottom", fontsize=7)

    sizes = ["8192", "16384"]
    old = [next(float(r["value_s"]) for r in before if r["run"] == "4" and
                r["panel_qr"] == "kernel slab 128" and r["what"] == "hetrd_two_stage" and
                r["n"] == n) for n in sizes]
    new = [next(float(r["value_s"]) for r in rows if r["run"] == "1" and
                r["what"] == "hetrd_two_stage" and r["n"] == n) for n in sizes]
    labelled(ax, [(old, "panel QR kernel, larft after it"),
                  (new, "geqrf_wy: V and T in the kernel")], 0.38, "{:.4f}")
    ax.plot([1 - 0.38, 1 + 0.38], [0.55, 0.55], "k--", lw=1, label="issue 33's target at 16384")
    ax.set_xticks(range(len(sizes)), sizes)
    finish(ax, "hetrd_2stage_mgpu, d, band 32, H200 (median of 3)", "n", "seconds", legend=7)
    ns = ["4096", "8192"]
    labelled(bx, [([next(float(r["value_s"]) for r in rows if r["run"] == "3" and
                         r["stages"] == st and r["what"] == "heevd_all_vectors" and r["n"] == n)
                    for n in ns], f"stages {st}") for st in ["one", "two", "auto"]], 0.27, "{:.3f}")
    bx.set_xticks(range(len(ns)), ns)
    finish(bx, "heevd_mgpu, d, all vectors, H200 (run 3)", "n", "seconds", legend=7)
    save(fig, out)


@topic("apply-q-held", "CSV PANEL_WY_CSV", "Q2 C on FP64 tensor cores with the C tile held in "
       "registers against the shared-memory ring, as a share of DGEMM's rate; heevd_mgpu with "
       "all vectors at 16384 per phase before (<gpu>-panel-wy's run 2) and after (run 7) "
       "(<gpu>-apply-q-held)")
def apply_q_held(paths, out):
    rows, before = read(paths[0]), read(paths[1])
    fig, (ax, bx) = figure(2, (11, 4.5))
    sizes = ["8192", "16384", "32768"]

    def ratio(what, runs, n):
        return next(float(r["ratio"]) for r in rows
                    if r["what"] == what and r["run"] in runs and r["n"] == n)
    grouped_bars(ax, [([ratio("apply_q2_ring", ("5", "7"), n) for n in sizes],
                       "ring: tile in shared memory"),
                      ([ratio("apply_q2_held", ("1", "2"), n) for n in sizes],
                       "held in registers (611a473)"),
                      ([ratio("apply_q2_held", ("5", "7"), n) for n in sizes],
                       "held, W in two sums (7d06996)")], 0.27)
    ax.axhline(0.25, color="k", ls="--", lw=1, label="issue 34's target: 25% of DGEMM")
    ax.set_xticks(range(len(sizes)), sizes)
    finish(ax, "Q2 C (n = m, band 32, d, H200): rate / DGEMM's", "n", "share of DGEMM's rate",
           legend=7)
    old = next(float(r["value_s"]) for r in before if r["run"] == "2" and r["n"] == "16384" and
               r["what"] == "heevd_all_vectors" and r["stages"] == "two")
    phases = [("reduction", 0.555), ("tridiagonal", 0.184), ("back_transform", 0.964)]
    new = {w: next(float(r["value_s"]) for r in rows if r["run"] == "7" and
                   r["what"] == f"heevd_all_{w}") for w, _ in phases}
    stacked_bars(bx, [0, 1], [(w, [v, new[w]]) for w, v in phases])
    bx.axhline(1.07, color="k", ls="--", lw=1, label="issue 34's target (1.07 s)")
    bx.set_xticks([0, 1], [f"before ({old:.2f} s)",
                           f"after ({sum(new.values()):.2f} s)"])
    finish(bx, "heevd_mgpu, d, n = 16384, all vectors, two stages, H200", None, "seconds",
           legend=7)
    save(fig, out)


@topic("dc-svd", "CSV", "gesvd_mgpu with all vectors at 16384 per phase as the Golub-Kahan "
       "vectors' repair and the secular solver changed; the values-only tridiagonal (or "
       "bidiagonal) phase by bisection and by the divide and conquer (<gpu>-dc-svd)")
def dc_svd(paths, out):
    rows = read(paths[0])
    fig, (ax, bx) = figure(2, (11, 4.5))

    def row(run, what, n, vectors, setting):
        return next(r for r in rows if r["run"] == run and r["what"] == what and
                    r["n"] == n and r["vectors"] == vectors and r["setting"].startswith(setting))
    steps = [("1", "full QR", "full QR of both halves"), ("1", "weak columns", "weak columns"),
             ("2", "+ secular model", "model secular"), ("5", "final", "automatic rule")]
    picked = [row(run, "gesvd_mgpu", "16384", "all", s) for run, _, s in steps]
    stacked_bars(ax, list(range(len(steps))),
                 [(name, [float(r[col]) for r in picked])
                  for name, col in [("reduction", "reduction_s"), ("bidiagonal SVD", "middle_s"),
                                    ("back-transformation", "back_transform_s")]])
    ax.axhline(3.7, color="k", ls="--", lw=1, label="issue 35's target (3.7 s)")
    ax.set_xticks(range(len(steps)),
                  [f"{label}\n{float(r['t_s']):.2f} s" for (_, label, _), r in zip(steps, picked)])
    finish(ax, "gesvd_mgpu, d, 16384, all vectors, two stages, H200", None, "seconds", legend=7)
    cases = [("heevd_mgpu", "4096"), ("heevd_mgpu", "8192"), ("heevd_mgpu", "16384"),
             ("gesvd_mgpu", "8192"), ("gesvd_mgpu", "16384")]
    grouped_bars(bx, [([1e3 * float(row("3", w, n, "none", f"MGBLAS_STEBZ_DC={v}")["middle_s"])
                        for w, n in cases], label)
                      for v, label in [("0", "bisection"), ("1", "divide and conquer")]], 0.38)
    bx.set_xticks(range(len(cases)), [f"{w.split('_')[0]}\n{n}" for w, n in cases])
    finish(bx, "values only: the tridiagonal phase, H200 (run 3)", None,
           "milliseconds", legend=7)
    save(fig, out)


@topic("svd-overlap", "CSV", "gesvd_mgpu at 8192 per phase before and after the bidiagonal "
       "chase's head hand-off, Q2 with P2 at once and half a spectrum by the divide and "
       "conquer, with and without vectors (<gpu>-svd-overlap)")
def svd_overlap(paths, out):
    rows = read(paths[0])
    fig, (ax, bx) = figure(2, (11, 4.5))

    def row(run, n, vectors):
        return next(r for r in rows if r["run"] == run and r["what"] == "gesvd_mgpu" and
                    r["n"] == n and r["vectors"] == vectors and r["devices"] == "1")
    for axis, vectors, runs, target in [(ax, "all", [("prev-5", "before"), ("6", "now")], 0.63),
                                        (bx, "none", [("prev-3", "before"), ("6", "now")], 0.28)]:
        picked = [row(run, "8192", vectors) for run, _ in runs]
        stacked_bars(axis, list(range(len(runs))),
                     [("reduction", [float(r["reduction_s"]) for r in picked]),
                      ("bidiagonal SVD" if vectors == "all" else "singular values",
                       [float(r["middle_s"]) for r in picked]),
                      ("back-transformation", [float(r["back_transform_s"]) for r in picked])])
        axis.axhline(target, color="k", ls="--", lw=1, label=f"issue 35's target ({target} s)")
        axis.set_xticks(range(len(runs)), [
            f"{label}\n{float(r['t_s']):.3f} s" +
            (f"\n(chase {float(r['chase_s']):.3f})" if r["chase_s"] else "")
            for (_, label), r in zip(runs, picked)])
        finish(axis, f"gesvd_mgpu, d, 8192, {'all vectors' if vectors == 'all' else 'values only'}"
               ", H200", None, "seconds", legend=7)
    save(fig, out)


@topic("tall-svd", "CSV", "gesvd_mgpu of 65536 x 4096 (QR first) per phase before and after "
       "the blocked panel QR, with and without vectors, and the QR's time per panel "
       "configuration (<gpu>-tall-svd)")
def tall_svd(paths, out):
    rows = read(paths[0])
    fig, (ax, bx, cx) = figure(3, (15, 4.5))

    def row(run, vectors, config, devices="1"):
        return next(r for r in rows if r["run"] == run and r["m"] == "65536" and r["n"] == "4096"
                    and r["vectors"] == vectors and r["devices"] == devices and
                    r["config"].startswith(config))
    for axis, vectors in [(ax, "all"), (bx, "none")]:
        picked = [row("1", vectors, "auto panel (64)"), row("7", vectors, "one GPU")]
        stacked_bars(axis, [0, 1], [
            ("QR", [float(r["qr"]) for r in picked]),
            ("reduction of R", [float(r["reduction"]) for r in picked]),
            ("bidiagonal SVD" if vectors == "all" else "singular values",
             [float(r["bidiagonal"]) for r in picked]),
            ("back-transformations", [float(r["back_transform"]) for r in picked])])
        gesvdp = float(row("7", vectors, "one GPU")["t_gesvdp"])
        axis.axhline(gesvdp, color="k", lw=1, label=f"cusolverDnXgesvdp ({gesvdp:.3f} s)")
        if vectors == "all":
            axis.axhline(gesvdp / 2, color="k", ls="--", lw=1, label="issue 35's target (2x)")
        axis.set_xticks([0, 1], [f"{label}\n{float(r['t_mgblas']):.3f} s"
                                 for label, r in zip(["before", "now"], picked)])
        finish(axis, f"d, 65536 x 4096, {'thin vectors' if vectors == 'all' else 'values only'}"
               ", one H200", None, "seconds", legend=7)
    configs = [("1", "auto panel (64)", "cuSOLVER\npanels of 64"),
               ("1", "--qr-panel 128", "cuSOLVER\npanels of 128"),
               ("1", "--qr-panel 32", "one kernel\npanels of 32"),
               ("2", "--qr-panel 64", "blocked\npanels of 64"),
               ("3", "auto panel (128)", "blocked\npanels of 128")]
    qr = [float(row(run, "all", config)["qr"]) for run, config, _ in configs]
    cx.bar(range(len(configs)), qr, color="tab:blue")
    cx.set_xticks(range(len(configs)), [label for _, _, label in configs], fontsize=7)
    finish(cx, "geqrf_mgpu inside gesvd_mgpu, 65536 x 4096, d", None, "QR (s)")
    save(fig, out)


@topic("chase-attempts", "CSV", "the tridiagonal chase per kernel version and n (the grouped "
       "kernel and the relaxed poll, not kept), hetrd_2stage_mgpu's time and chase with band "
       "16 and 32, and its time with the panel QR as a cluster or a grid (<gpu>-chase-attempts)")
def chase_attempts(paths, out):
    rows = read(paths[0])
    fig, (ax, bx, cx) = figure(3, (17, 4.5))

    def value(run, version, what, n, b="32"):
        return next(float(r["value"]) for r in rows if r["run"] == run and
                    r["version"] == version and r["what"] == what and r["type"] == "d" and
                    r["n"] == n and r["b"] == b)
    sizes = ["4096", "8192", "32768"]
    versions = [("2", "block per sweep", "block per sweep (kept)"),
                ("1", "grouped, first version (a warp per sweep, 4 warps)",
                 "grouped: a warp per sweep"),
                ("2", "grouped, copy team (3 task warps + 4 copy warps)",
                 "grouped: + copy team"),
                ("4", "block per sweep, relaxed poll", "block per sweep, relaxed poll")]
    grouped_bars(ax, [([value(run, v, "chase", n) for n in sizes], label)
                      for run, v, label in versions], 0.2)
    ax.set_xticks(range(len(sizes)), [f"n = {n}" for n in sizes])
    finish(ax, "band_to_tridiag alone, d, b = 32, one H200", None, "seconds", logy=True,
           legend=7)
    cases = [("4096", "16"), ("4096", "32"), ("8192", "16"), ("8192", "32")]
    total = [value("6", "block per sweep", "hetrd_two_stage", n, b) for n, b in cases]
    chase = [value("6", "block per sweep", "hetrd_chase_in_call", n, b) for n, b in cases]
    stacked_bars(bx, range(len(cases)), [("chase", chase),
                                         ("the rest (stage one)",
                                          [t - c for t, c in zip(total, chase)])])
    for i, n in enumerate(c[0] for c in cases):
        ref = next(float(r["ref_value"]) for r in rows if r["run"] == "6" and r["n"] == n and
                   r["what"] == "hetrd_two_stage")
        bx.plot([i - 0.4, i + 0.4], [ref / 1.5 if n == "4096" else ref / 3] * 2, "k--", lw=1,
                label="issue 33's target" if i == 0 else None)
    bx.set_xticks(range(len(cases)), [f"n = {n}\nband {b}\n{t:.4f} s"
                                      for (n, b), t in zip(cases, total)], fontsize=8)
    finish(bx, "hetrd_2stage_mgpu, d, one H200", None,
           "seconds", legend=7)
    forms = [("panel QR as a cooperative grid (kept)", "cooperative grid (kept)"),
             ("panel QR as a cluster where it fits", "one cluster where it fits")]
    qr_sizes = ["4096", "8192", "16384"]
    grouped_bars(cx, [([value("7", v, "hetrd_two_stage", n) / value("7", forms[0][0],
                                                                    "hetrd_two_stage", n)
                        for n in qr_sizes], label) for v, label in forms], 0.35)
    cx.set_xticks(range(len(qr_sizes)), [f"n = {n}" for n in qr_sizes])
    cx.set_ylim(0.9, 1.1)
    finish(cx, "hetrd_2stage_mgpu by the panel QR's form, d, one H200", None,
           "time / the grid form's", legend=7)
    save(fig, out)


@topic("apply-q-complex", "CSV CHASE_ATTEMPTS_CSV", "Q2 C in complex double on FP64 tensor "
       "cores (the held tile) against one reflector at a time, as a share of ZGEMM's rate; "
       "heevd_mgpu in z with all vectors at 16384 per phase: before (<gpu>-chase-attempts' "
       "run 5), one stage, two stages now (<gpu>-apply-q-complex)")
def apply_q_complex(paths, out):
    rows, before = read(paths[0]), read(paths[1])
    fig, (ax, bx) = figure(2, (11, 4.5))
    sizes = ["8192", "16384"]

    def q2(kernel, n):
        r = next(r for r in rows if r["what"] == "apply_q2" and r["type"] == "z" and
                 r["n"] == n and r["kernel"].startswith(kernel))
        return float(r["ref_s"]) / float(r["value_s"])
    grouped_bars(ax, [([q2("32x4x2", n) for n in sizes], "one reflector at a time (32x4x2)"),
                      ([q2("held", n) for n in sizes], "held tile on tensor cores")], 0.35)
    ax.axhline(0.25, color="k", ls="--", lw=1, label="issue 34's Q2 target: 25% of GEMM")
    ax.set_xticks(range(len(sizes)), [f"n = {n}" for n in sizes])
    ax.set_ylim(0, 0.65)
    finish(ax, "Q2 C (n = m, band 32, z, H200): rate / ZGEMM's", None, "share of ZGEMM's rate",
           legend=7)
    phases = [("reduction", "reduction_s", "heevd_phase:reduction"),
              ("tridiagonal", "middle_s", "heevd_phase:tridiagonal"),
              ("back-transformation", "back_transform_s", "heevd_phase:back_transform")]
    old = {key: next(float(r["value"]) for r in before if r["run"] == "5" and r["what"] == key
                     and r["type"] == "z" and r["vectors"] == "all (16384), two")
           for _, _, key in phases}
    now = [next(r for r in rows if r["what"] == "heevd_all" and r["n"] == "16384" and
                r["stages"] == st) for st in ("one", "two")]
    stacked_bars(bx, [0, 1, 2], [(name, [old[key]] + [float(r[col]) for r in now])
                                 for name, col, key in phases])
    ref = float(now[0]["ref_s"])
    bx.axhline(ref, color="k", lw=1, label=f"cusolverDnXsyevd V ({ref:.2f} s)")
    bx.axhline(ref / 2.5, color="k", ls="--", lw=1, label="issue 34's target (2.5x)")
    totals = [sum(old.values())] + [float(r["value_s"]) for r in now]
    bx.set_xticks([0, 1, 2], [f"{label}\n{t:.2f} s" for label, t in
                              zip(["two stages, before", "one stage", "two stages, now"], totals)])
    finish(bx, "heevd_mgpu, z, n = 16384, all vectors, H200", None, "seconds", legend=7)
    save(fig, out)


@topic("hemm-tsgemm", "CSV", "stage one's phases (qr, hemm, update) and the chase of "
       "hetrd_2stage_mgpu in s and c with the rectangles' op-N products through tsgemm "
       "(branch) or gemm (main) (<gpu>-hemm-tsgemm)")
def hemm_tsgemm(paths, out):
    rows = read(paths[0])
    fig, ax = figure(1, (7.5, 4.5))
    cases = [(r["type"], r["n"], r["engine"]) for r in rows]
    stacked_bars(ax, list(range(len(rows))),
                 [(name, [float(r[col]) for r in rows])
                  for name, col in [("panel QR", "qr_s"), ("hemm (A22 V)", "hemm_s"),
                                    ("update", "update_s"), ("chase", "chase_s")]])
    ax.set_xticks(range(len(rows)), [f"{t} {n}\n{e.split()[0]}" for t, n, e in cases],
                  fontsize=8)
    finish(ax, "hetrd_2stage_mgpu, profiled phases, one H200", None, "seconds", legend=7)
    save(fig, out)

@topic("skinny-sgemm", "CSV", "the symmetric (s) and Hermitian (c) products with 32 columns "
       "against cuBLAS's SSYMM / CHEMM per size and kernel version, and hetrd_2stage_mgpu s per "
       "phase with each (<gpu>-skinny-sgemm)")
def skinny_sgemm(paths, out):
    rows = read(paths[0])
    fig, (ax1, ax2) = figure(2, (12, 4.5))
    for t, name in (("s", "SSYMM"), ("c", "CHEMM")):
        hemm = [r for r in rows if r["row"] == "hemm" and r["n"] == "32" and r["type"] == t]
        ref = {}
        for r in hemm:
            ref.setdefault(int(r["m"]), float(r["reference"]))
        ms = sorted(ref)
        ax1.plot(ms, [ref[m] for m in ms], "--o", color="k" if t == "s" else "0.5",
                 label=f"cuBLAS {name}")
        for code in dict.fromkeys(r["code"] for r in hemm):
            pts = sorted((int(r["m"]), float(r["mgblas"])) for r in hemm if r["code"] == code)
            ax1.plot([p[0] for p in pts], [p[1] for p in pts], "-o", label=f"skinny.cu {t}, {code}")
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    finish(ax1, "S (m x m, lower) times 32 columns: s and c", "m", "ms", legend=6)
    het = sorted((r for r in rows if r["row"] == "hetrd" and r["type"] == "s"),
                 key=lambda r: (int(r["m"]), r["code"] != "cuBLAS ssymm", int(r["run"])))
    stacked_bars(ax2, list(range(len(het))),
                 [(name, [float(r[col]) for r in het])
                  for name, col in [("panel QR", "qr_s"), ("hemm (A22 V)", "hemm_s"),
                                    ("update", "update_s"), ("chase", "chase_s")]])
    ax2.set_xticks(range(len(het)),
                   [f"{r['m']}\n{'ssymm' if r['code'].startswith('cuBLAS') else r['code'].split(' ')[0]}"
                    f"\n{r['setting'].split(' ')[0]}" for r in het],
                   fontsize=6)
    finish(ax2, "hetrd_2stage_mgpu s, profiled phases (n, code, block)", None, "seconds",
           legend=7)
    save(fig, out)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help", "--list"):
        usage(sys.stdout if len(argv) >= 2 else sys.stderr)
        return 0 if len(argv) >= 2 else 2
    if argv[1] not in TOPICS:
        print(f"plots.py: no topic '{argv[1]}' (plots.py --list)", file=sys.stderr)
        return 2
    fn, inputs, _, draws = TOPICS[argv[1]]
    args = argv[2:]
    fixed = [w for w in inputs.split() if not w.endswith("...")]
    least = len(fixed) if fixed else 1
    if len(args) < least + draws or (fixed and len(args) != least + draws):
        print(f"usage: python3 bench/plots.py {argv[1]} {inputs}{' OUT.png' if draws else ''}",
              file=sys.stderr)
        return 2
    if draws:
        fn(args[:-1], args[-1])
    else:
        fn(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

