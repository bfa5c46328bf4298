# SPDX-License-Identifier: BSD-3-Clause
# What the reduction plots share (plot_panel_steps.py, plot_panel_sums.py, plot_hetrd_step.py,
# plot_reductions_speedups.py): their CSVs,
# a figure of two panels, and the left one: each reduction's speedup over cuSOLVER per n,
# one line per code version, with issue 11's and issue 13's targets as black bars; and the
# panel-width sweeps' axis (time relative to panels of 64).
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TARGETS = {"hetrd": {4096: 1.0, 8192: 1.3, 16384: 1.5}, "gebrd": {4096: 1.0, 8192: 1.5, 16384: 1.5}}


def _speedup_line(ax, rows, style, label):
    """cusolver_s / time_s per n of rows, as one line."""
    pts = sorted((int(r["n"]), float(r["cusolver_s"]) / float(r["time_s"])) for r in rows)
    ax.plot([n for n, _ in pts], [s for _, s in pts], style, label=label)


def _finish_speedup_axis(ax, xlabel, ylabel, title):
    ax.axhline(1.0, color="gray", lw=0.6)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)


def plot_speedups(ax, rows, versions, title):
    """rows: dicts with reduction, n, time_s, cusolver_s; versions: (label, style, keep)
    with keep(row) choosing that version's rows."""
    for red, targets in TARGETS.items():
        for label, style, keep in versions:
            _speedup_line(ax, [r for r in rows if r["reduction"] == red and keep(r)], style,
                          f"{red}, {label}")
        ax.plot(list(targets), list(targets.values()), "k_", ms=14)
    _finish_speedup_axis(ax, "n (double); black bars: issue targets",
                         "cuSOLVER time / mgblas time (same call)", title)


def plot_hetrd_before_after(ax, series, title):
    """series: (label, style, rows) with rows holding n, time_s and cusolver_s of one
    version of hetrd; one line each, issue 11's targets as black bars."""
    for label, style, rows in series:
        _speedup_line(ax, rows, style, label)
    targets = TARGETS["hetrd"]
    ax.plot(list(targets), list(targets.values()), "k_", ms=14, label="issue 11 target")
    _finish_speedup_axis(ax, "n (double)", "cusolverDnDsytrd time / mgblas time (same call)",
                         title)


def finish_panel_width_axis(ax, widths, xlabel, title):
    """The axis of a panel-width sweep whose lines are time / time with panels of 64."""
    ax.axhline(1.0, color="gray", lw=0.6)
    ax.set_xscale("log", base=2)
    ax.set_xticks(widths, [str(w) for w in widths])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("time / time with panels of 64")
    ax.set_title(title)
    ax.legend(fontsize=8)


def load(results_dir, *names):
    """The rows of each CSV named, as lists of dicts."""
    return [list(csv.DictReader(open(os.path.join(results_dir, n)))) for n in names]


def two_panels():
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    return fig, axes


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
