#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Before/after table of two runs of the same tester (--csv files): for every case, the
kernel the dispatcher chose in each run and the time ratio after / before.

    compare_testers.py BEFORE.csv[,BEFORE2.csv...] AFTER.csv[,...] [--md OUT.md] [--tol 0.03]

With several runs a side, a case's time is its fastest run (the least disturbed).

A case is the tester's columns before time_ms (mgblas-tester blas, mgblas-tester tsgemm) or before
time_ms in batched's order (iface, type, ops, shape, batch); the kernel is the engine
or kernel column. Prints one row per case and a last line counting the cases whose
kernel changed or whose time moved by more than --tol. Exit status 0 always: the
table is the finding."""
import argparse
import csv
import statistics

KERNEL_COLUMNS = ("engine", "kernel")


def read(paths):
    key_cols, table = [], {}
    for path in paths.split(","):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            continue
        cols = list(rows[0].keys())
        key_cols = cols[: cols.index("time_ms")]
        kernel_col = next((c for c in KERNEL_COLUMNS if c in cols), None)
        for r in rows:
            key = " ".join(r[c] for c in key_cols)
            t = float(r["time_ms"])
            kernel = r.get(kernel_col, "") if kernel_col else ""
            if key not in table or t < table[key][0]:
                table[key] = (t, kernel)
    return key_cols, table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--md", help="also write the table as markdown here")
    ap.add_argument("--csv", help="also write the cases as CSV here (case, before_ms, "
                    "after_ms, ratio, kernel_before, kernel_after)")
    ap.add_argument("--tol", type=float, default=0.03)
    a = ap.parse_args()
    key_cols, before = read(a.before)
    _, after = read(a.after)
    lines = ["| " + " ".join(key_cols) + " | before (ms) | after (ms) | after/before | kernel before | kernel after |",
             "|---|---|---|---|---|---|"]
    ratios, moved, changed, relabelled = [], 0, 0, 0
    csv_rows = []
    for key, (tb, kb) in before.items():
        if key not in after:
            lines.append(f"| {key} | {tb:.4f} | missing | | {kb} | |")
            continue
        ta, ka = after[key]
        r = ta / tb if tb > 0 else float("nan")
        ratios.append(r)
        moved += abs(r - 1) > a.tol
        # The choice is the text before " [": the bracket says where it came from (a
        # rule's or table's label), which may be reworded without another kernel.
        choice = lambda k: k.split(" [")[0].strip()
        changed += choice(ka) != choice(kb)
        relabelled += choice(ka) == choice(kb) and ka != kb
        flag = " **" if abs(r - 1) > a.tol or choice(ka) != choice(kb) else ""
        lines.append(f"| {key} | {tb:.4f} | {ta:.4f} | {r:.3f}{flag} | {kb} | {ka} |")
        csv_rows.append([key, f"{tb:.6g}", f"{ta:.6g}", f"{r:.4f}", kb, ka])
    summary = (f"{len(ratios)} cases: median after/before {statistics.median(ratios):.3f}, "
               f"{moved} beyond {a.tol:.0%}, {changed} with another kernel, {relabelled} relabelled") if ratios else "no cases"
    print("\n".join(lines))
    print(summary)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["case", "before_ms", "after_ms", "ratio", "kernel_before", "kernel_after"])
            w.writerows(csv_rows)
    if a.md:
        with open(a.md, "w") as f:
            f.write("\n".join(lines) + "\n\n" + summary + "\n")


if __name__ == "__main__":
    main()
