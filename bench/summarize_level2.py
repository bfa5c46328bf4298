#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Short table of mgblas-tester blas CSVs: per file, type, op and uplo: the sizes, median GB/s,
# % of the copy bandwidth (min..max), speedup over cuBLAS (min, geometric mean), errors.
import csv
import math
import sys
from collections import OrderedDict


def main(paths):
    for path in paths:
        rows = list(csv.DictReader(open(path)))
        if not rows:
            continue
        print(f"== {path.split('/')[-1]}")
        groups = OrderedDict()
        for r in rows:
            key = (r["type"], r["op"], r["uplo"], r["offset"] if "sweep" not in path else "",
                   r["engine"] if "sweep" in path else "")
            groups.setdefault(key, []).append(r)
        print(f"{'type':4} {'op':6} {'up':2} {'off':>4} {'sizes':>13} {'%copy':>11} "
              f"{'GB/s':>7} {'xcuBLAS min':>11} {'geo':>6} {'fail':>4}  engine")
        for (t, op, up, off, eng), rs in groups.items():
            pct = [float(r["pct_copy_bw"]) for r in rs]
            sp = [float(r["speedup"]) for r in rs]
            gbs = sorted(float(r["gbs"]) for r in rs)
            sizes = [int(r["n"]) for r in rs]
            geo = math.exp(sum(math.log(s) for s in sp) / len(sp))
            fails = sum(r["status"] != "ok" for r in rs)
            size_txt = f"{min(sizes)}-{max(sizes)}" if len(set(sizes)) > 1 else str(sizes[0])
            print(f"{t:4} {op:6} {up:2} {off:>4} {size_txt:>13} {min(pct):5.1f}-{max(pct):5.1f} "
                  f"{gbs[len(gbs) // 2]:7.0f} {min(sp):11.3f} {geo:6.3f} {fails:4d}  "
                  f"{eng or rs[0]['engine'][:40]}")


if __name__ == "__main__":
    main(sys.argv[1:])
