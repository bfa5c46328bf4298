#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fails unless the Fortran module (generated fortran/mgblas.f90) has a bind(c) interface
for every function the C header (generated mgblas/mgblas.h) declares, under the C name,
with the C argument names in the C order (the generated operations' and the hand-written
entries' alike), and a bind(c) derived type for every C struct (mgblas_reduction_options_t,
...) with the C fields' names, order and interoperable kinds (the types are written by
hand in fortran/mgblas.f90.in, so a field added in C must be added there too).

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


C_KINDS = {"int64_t": "c_int64_t", "int32_t": "c_int32_t", "int": "c_int", "double": "c_double",
           "float": "c_float"}


def c_structs(text):
    """{struct: [(field, Fortran kind)]} of the header's typedef structs (enums: c_int,
    pointers: c_ptr)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    enums = set(re.findall(r"typedef\s+enum\s+(\w+)", text))
    out = {}
    for name, body in re.findall(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*\1\s*;", text, re.S):
        fields = []
        for decl in (d.strip() for d in body.split(";") if d.strip()):
            m = re.match(r"([\w\s]+?)\s*(\*?)\s*(\w+(?:\s*,\s*\w+)*)$", decl)
            if not m:
                sys.exit(f"{name}: cannot read the field declaration '{decl}'")
            ctype, star, names = m.group(1).strip(), m.group(2), m.group(3)
            kind = "c_ptr" if star else "c_int" if ctype in enums else C_KINDS.get(ctype, ctype)
            fields += [(n.strip().lower(), kind) for n in names.split(",")]
        out[name] = fields
    return out


def fortran_types(text):
    """{type: [(field, kind)]} of the module's bind(c) derived types."""
    out = {}
    for name, body in re.findall(r"^\s*type\s*,\s*bind\(c\)\s*::\s*(\w+)\s*\n(.*?)^\s*end\s+type\s+\1",
                                 text, re.S | re.M):
        fields = []
        for line in body.splitlines():
            line = line.split("!")[0].strip()
            if "::" not in line:
                continue
            decl, names = line.split("::", 1)
            kind = re.search(r"\((\w+)\)", decl).group(1).lower()
            fields += [(n.split("=")[0].strip().lower(), kind) for n in names.split(",")
                       if n.split("=")[0].strip()]
        out[name] = fields
    return out


def main():
    with open(sys.argv[1]) as f:
        c = c_functions(f.read())
    with open(sys.argv[2]) as f:
        fortran = fortran_interfaces(f.read())
    with open(sys.argv[1]) as f:
        structs = c_structs(f.read())
    with open(sys.argv[2]) as f:
        types = fortran_types(f.read())
    missing = sorted(set(c) - set(fortran))
    differ = sorted(n for n in c if n in fortran and fortran[n] != c[n])
    problems = [f"no interface for {n}" for n in missing] + \
        [f"{n}: Fortran ({', '.join(fortran[n])}), C ({', '.join(c[n])})" for n in differ]
    for name, fields in sorted(structs.items()):
        if name not in types:
            problems.append(f"no bind(c) type for the C struct {name}")
        elif types[name] != fields:
            show = lambda fs: ", ".join(f"{n}: {k}" for n, k in fs)  # noqa: E731
            problems.append(f"type {name}: Fortran ({show(types[name])}), C ({show(fields)})")
    if problems:
        sys.exit("the Fortran module differs from the C header:\n  " + "\n  ".join(problems))
    print(f"{len(c)} C functions: every one has its Fortran interface; {len(structs)} C "
          "structs: every one has its bind(c) type with the same fields")


if __name__ == "__main__":
    main()
