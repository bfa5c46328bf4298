# SPDX-License-Identifier: BSD-3-Clause
"""The Fortran surface's part of api/generate.py: one bind(c) interface body per C entry
of every operation of the manifest, under the C name with the C argument order, for
fortran/mgblas.f90.in (the module `mgblas`; docs/fortran.md).

How an argument crosses (its role, and whether the entry is collective):
- op, uplo, range: integer(c_int), value (MGBLAS_OP_N, MGBLAS_UPLO_LOWER,
  MGBLAS_RANGE_ALL, ...);
- int: integer(c_int64_t), value; real: the real kind, value;
- scalar: by value; complex ones as type(mgblas_complex_float/double), the C struct;
- handles (ctx, dev, stream, matrix, tiled, matrix_opt): type(c_ptr), value (c_null_ptr
  for an absent matrix_opt);
- int_out of a collective entry: integer(c_int64_t), intent(out), a scalar by reference;
- arrays of a collective entry (host memory): assumed-size arrays of their type,
  intent(in) or intent(inout); arrays of pointers (and local_in/out): type(c_ptr) :: x(*);
- out_opt (an array that may be NULL): type(c_ptr), value: c_loc of the array (a
  `target`), or c_null_ptr for none;
- every array of a single-device entry (device memory, some host arrays): type(c_ptr),
  value: the address from mgblas_malloc_device, or c_loc of a host array;
- options: type(mgblas_reduction_options_t), intent(in) (the _ex forms; plain: defaults);
- desc2d: type(mgblas_desc2d_t), intent(in); desc2d_opt: type(c_ptr), value, as
  matrix_opt (c_loc of a type(mgblas_desc2d_t), target; c_null_ptr for none: the module
  is Fortran 2008, which has no OPTIONAL in bind(c));
- local_2d_in / local_2d_out: assumed-size arrays of the scalar type (this rank's local
  array; any array, e.g. of size 1, where the rank holds nothing).
"""
import textwrap

import operations as manifest

KINDS = {  # letter: (Fortran scalar type, Fortran real type, by-value scalar type)
    "s": ("real(c_float)", "real(c_float)", "real(c_float)"),
    "d": ("real(c_double)", "real(c_double)", "real(c_double)"),
    "c": ("complex(c_float_complex)", "real(c_float)", "type(mgblas_complex_float)"),
    "z": ("complex(c_double_complex)", "real(c_double)", "type(mgblas_complex_double)"),
}
ARRAY_INTENT = {"in": "in", "out": "inout", "real_in": "in", "real_out": "out",
                "local_2d_in": "in", "local_2d_out": "inout",
                "ints": "in", "scalars": "in", "ops": "in", "in_ptrs": "in",
                "out_ptrs": "in", "local_in": "in", "local_out": "in"}


def declaration(role, letter, collective):
    """The Fortran declaration (without the name) of an argument of `role`."""
    T, R, V = KINDS[letter]
    if role in ("op", "uplo", "vect", "range"):
        return "integer(c_int), value"
    if role == "int":
        return "integer(c_int64_t), value"
    if role == "scalar":
        return f"{V}, value"
    if role == "real":
        return f"{R}, value"
    if role in ("matrix", "tiled", "matrix_opt"):
        return "type(c_ptr), value"
    if role == "options":
        return "type(mgblas_reduction_options_t), intent(in)"
    if role == "desc2d":
        return "type(mgblas_desc2d_t), intent(in)"
    if role in ("desc2d_opt", "out_opt"):
        return "type(c_ptr), value"
    if not collective:
        return "type(c_ptr), value"
    if role == "int_out":
        return "integer(c_int64_t), intent(out)"
    element = {"in": T, "out": T, "scalars": T, "real_in": R, "real_out": R,
               "local_2d_in": T, "local_2d_out": T,
               "ints": "integer(c_int64_t)", "ops": "integer(c_int)"}.get(role, "type(c_ptr)")
    return f"{element}, intent({ARRAY_INTENT[role]}), dimension(*)"


def wrap_call(head, args, tail, indent, width=92):
    """`head(args)tail` in free-form lines of at most `width` columns ('&' continued)."""
    lines, cur = [], head + "("
    for i, a in enumerate(args):
        piece = a + (", " if i + 1 < len(args) else ")")
        if len(cur) + len(piece) > width - 2:
            lines.append(cur.rstrip() + " &")
            cur = " " * indent
        cur += piece
    if len(cur) + len(tail) > width - 2:
        lines.append(cur + " &")
        cur = " " * indent + tail.strip()
    else:
        cur += tail
    return lines + [cur]


def interface(c_name, params):
    """One interface body: `params` is a list of (name, declaration)."""
    names = [n for n, _ in params]
    folded = [n.lower() for n in names]
    assert len(set(folded)) == len(folded), f"{c_name}: argument names differ only in case"
    decls = [d for _, d in params]
    imports = ["c_int"] + sorted({w for d in decls for w in
                                  ("c_ptr", "c_int64_t", "c_float", "c_double",
                                   "c_float_complex", "c_double_complex",
                                   "mgblas_complex_float", "mgblas_complex_double",
                                   "mgblas_reduction_options_t", "mgblas_desc2d_t")
                                  if f"({w})" in d} - {"c_int"})
    pad = "    "
    out = [pad + line for line in
           wrap_call(f"function {c_name}", names, f' bind(c, name="{c_name}")', 8, 88)]
    out.append(pad + "  import :: " + ", ".join(imports))
    width = max(len(d) for d in decls) if decls else 0
    out += [f"{pad}  {d.ljust(width)} :: {n}" for n, d in params]
    out.append(f"{pad}  integer(c_int) :: {c_name}")
    out.append(f"{pad}end function {c_name}")
    return "\n".join(out)


def entry_interfaces(entry, letter):
    """The interface bodies of one operation in one precision (plain, _async, _ex)."""
    name = manifest.c_name(entry, letter)
    collective = entry["kind"] == "collective"
    args = [(n, declaration(r, letter, collective)) for r, n in entry["args"]]
    plain = [(n, d) for (r, _), (n, d) in zip(entry["args"], args) if r != "options"]
    handle = "type(c_ptr), value"
    if not collective:
        dev = [("dev", handle)]
        return [interface(name, dev + args),
                interface(name + "_async", dev + [("stream", handle)] + args)]
    ctx = [("ctx", handle)]
    out = [interface(name, ctx + plain)]
    if len(plain) != len(args):
        out.append(interface(name + "_ex", ctx + args))
    return out


def fortran_interfaces(ops, banner):
    """The interface bodies of every operation, grouped as the C header groups them."""
    parts = [f"    ! {banner}"]
    for group in dict.fromkeys(e["group"] for e in ops):
        parts.append(f"\n    ! ---- {group} " + "-" * max(4, 78 - len(group)))
        for e in (e for e in ops if e["group"] == group):
            parts.append("\n" + textwrap.fill(f"{e['name']}: {e['doc']}", 92,
                                               initial_indent="    ! ",
                                               subsequent_indent="    !   "))
            for letter in e["precisions"]:
                parts.extend(entry_interfaces(e, letter))
    return "\n".join(parts) + "\n"
