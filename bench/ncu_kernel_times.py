#!/usr/bin/env python3
"""Per-kernel times from an ncu --csv run with the metric gpu__time_duration.sum: for each
kernel name, the launches, their total and mean time, largest totals first, and the total
over all launches (bench/results/h200-panel-qr.sh, step `kernels`).

    python3 bench/ncu_kernel_times.py ncu.csv
"""
import csv
import sys
from collections import defaultdict

SCALE = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6, "nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}  # to microseconds


def main(path):
    total, count = defaultdict(float), defaultdict(int)
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own lines start with ==
    for row in csv.DictReader(lines):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        name = row["Kernel Name"].split("(")[0][:70]
        total[name] += float(row["Metric Value"].replace(",", "")) * SCALE[row["Metric Unit"]]
        count[name] += 1
    print(f"{'kernel':70s} {'launches':>8s} {'total us':>10s} {'mean us':>8s}")
    for name in sorted(total, key=total.get, reverse=True):
        print(f"{name:70s} {count[name]:8d} {total[name]:10.1f} {total[name] / count[name]:8.2f}")
    print(f"{'all':70s} {sum(count.values()):8d} {sum(total.values()):10.1f}")


if __name__ == "__main__":
    main(sys.argv[1])
