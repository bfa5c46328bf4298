#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Names the functions of "binary(+0xOFFSET)" frames in a crash log (Open MPI's backtrace)
# from the binary's symbol table, for builds without debug information:
#   python3 bench/symbolize.py BINARY LOG
import re, subprocess, sys
binary, log = sys.argv[1], sys.argv[2]
syms = []
for line in subprocess.run(["nm", "-C", "-n", "--defined-only", binary], capture_output=True,
                           text=True).stdout.splitlines():
    parts = line.split(" ", 2)
    if len(parts) == 3 and parts[1].lower() in "tw":
        syms.append((int(parts[0], 16), parts[2]))
seen = set()
for m in re.finditer(r"\(\+0x([0-9a-f]+)\)", open(log, errors="replace").read()):
    a = int(m.group(1), 16)
    if a in seen:
        continue
    seen.add(a)
    name = "?"
    for addr, s in syms:
        if addr > a:
            break
        name = s
    print(hex(a), name[:200])
