#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fails unless the Fortran module (generated fortran/mgblas.f90) has a bind(c) interface
for every function the C header (generated mgblas/mgblas.h) declares, under the C name,
with the C argument names in the C order (the generated operations' and the hand-written
entries' alike).

    check_fortran_interfaces.py MGBLAS_H MGBLAS_F90
"""
import re
import sys


def c_functions(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    out = {}
    for name, params in re.findall(r"\b(mgblas_\w+)\s*\(([^()]*)\)\s*;", text):
        params = params.strip()
        args = [] if params in ("", "void") else \
            [re.findall(r"\w+", p)[-1] for p in params.split(",")]
        out[name] = [a.lower() for a in args]
    return out


def fortran_interfaces(text):
    text = re.sub(r"&\s*\n\s*", " ", text)
    out = {}
    for fname, args, cname in re.findall(
            r"^\s*function\s+(\w+)\s*\(([^)]*)\)\s*bind\(c,\s*name=\"(\w+)\"\)", text, re.M):
        if not cname.startswith("mgblas_"):
            continue  # the module's own helpers (strlen)
        if fname != cname:
            sys.exit(f"interface {fname} binds to the C name {cname}")
        out[cname] = [a.strip().lower() for a in args.split(",") if a.strip()]
    return out


def main():
    with open(sys.argv[1]) as f:
        c = c_functions(f.read())
    with open(sys.argv[2]) as f:
        fortran = fortran_interfaces(f.read())
    missing = sorted(set(c) - set(fortran))
    differ = sorted(n for n in c if n in fortran and fortran[n] != c[n])
    problems = [f"no interface for {n}" for n in missing] + \
        [f"{n}: Fortran ({', '.join(fortran[n])}), C ({', '.join(c[n])})" for n in differ]
    if problems:
        sys.exit("the Fortran module differs from the C header:\n  " + "\n  ".join(problems))
    print(f"{len(c)} C functions: every one has its Fortran interface")


if __name__ == "__main__":
    main()
