#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Markdown tables from mgblas-tester blas CSVs (measured rows only), for bench/results/*.md.
#   results_table.py FILE.csv...
import csv
import math
import sys


def main(paths):
    for path in paths:
        rows = list(csv.DictReader(open(path)))
        if not rows:
            continue
        print(f"\n### {path.split('/')[-1]}\n")
        print("| type | op | uplo | m | n | offset | time (ms) | GB/s (A) | % copy | cuBLAS GB/s "
              "| speedup | cuBLAS atomics GB/s | error | status | engine |")
        print("|" + "---|" * 15)
        for r in rows:
            atom = float(r["cublas_atomics_gbs"])
            print(f"| {r['type']} | {r['op']} | {r['uplo']} | {r['m']} | {r['n']} | {r['offset']} "
                  f"| {float(r['time_ms']):.4f} | {float(r['gbs']):.0f} | {float(r['pct_copy_bw']):.1f} "
                  f"| {float(r['cublas_gbs']):.0f} | {float(r['speedup']):.3f} "
                  f"| {'-' if atom <= 0 else f'{atom:.0f}'} | {float(r['error']):.1e} | {r['status']} "
                  f"| {r['engine']} |")
        sp = [float(r["speedup"]) for r in rows]
        print(f"\ngeometric-mean speedup over cuBLAS: "
              f"{math.exp(sum(map(math.log, sp)) / len(sp)):.3f} ({len(sp)} rows)")


if __name__ == "__main__":
    main(sys.argv[1:])
