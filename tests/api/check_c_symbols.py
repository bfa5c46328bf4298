#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fails unless the C library (static or shared) defines every C name of the manifest's
surface list (generated/api/surface.json): each operation in each of its precisions,
with its _async (single-device) and _ex (options) forms.

    check_c_symbols.py SURFACE_JSON LIBRARY
"""
import json
import subprocess
import sys


def main():
    surface_json, library = sys.argv[1:3]
    with open(surface_json) as f:
        surface = json.load(f)
    nm = ["nm", "-g", "--defined-only"] + (["-D"] if library.endswith(".so") else [])
    out = subprocess.run(nm + [library], check=True, capture_output=True, text=True).stdout
    defined = {line.split()[-1] for line in out.splitlines() if len(line.split()) >= 2}
    wanted = [n for op in surface for n in op["c"] + op["c_async"] + op["c_ex"]]
    missing = [n for n in wanted if n not in defined]
    if missing:
        sys.exit(f"{library} lacks {len(missing)} C entries of the manifest: {missing}")
    print(f"{len(surface)} operations, {len(wanted)} C entries: all defined")


if __name__ == "__main__":
    main()
