# SPDX-License-Identifier: BSD-3-Clause
"""The operations: distributed GEMV/SYMV/HEMV (and their offset forms), single-device
GEMV/SYMV/HEMV, tall-and-skinny GEMM, batched GEMM, and the reductions."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _mgblas as _core
from ._arrays import (REAL_OF, Arr, check_dtype, cuda_stream, cuda_sync, describe,
                      zeros_like_kind, matrix_orders, option, scalar, vector)
from ._context import Context
from ._dist import DistMatrix, RowTiledMatrix, _check_ctx
from ._errors import BadArgument, DimensionMismatch

# Tests set this to send host vectors through the device-vector path of the
# distributed Level-2 calls (on host devices "device" memory is host memory).
_force_device_vectors = False


def _check_dist(A: Any, name: str = "A") -> DistMatrix:
    if not isinstance(A, DistMatrix):
        raise BadArgument(f"{name} must be an mgblas.DistMatrix (DistMatrix.from_array), "
                          f"not {type(A).__name__}")
    return A


def _check_index(v: Any, name: str, hi: int) -> int:
    if not isinstance(v, (int, np.integer)) or not 0 <= v <= hi:
        raise BadArgument(f"{name} = {v!r}: must be an integer in [0, {hi}]")
    return int(v)


# ---------------------------------------------------------------------------------
# Distributed Level 2
# ---------------------------------------------------------------------------------

def _level2_vectors(A: DistMatrix, x: Any, y: Any, xlen: int, ylen: int, beta: complex
                    ) -> Tuple[Arr, Arr, Any, bool]:
    """Checks x and y against A; returns (x, y, y's array, device-vector path)."""
    xa, _, y, ya, _ = _operand_vectors(None, A.dtype, x, xlen, y, ylen, beta, unit_stride=True)
    if xa.on_gpu != ya.on_gpu:
        raise BadArgument(f"x is in {xa.where} memory but y in {ya.where} memory; pass both "
                          "as NumPy arrays or both as CuPy arrays")
    if xa.on_gpu and A.ctx.backend != "cuda":
        raise BadArgument("x and y are CUDA arrays but A's context runs on host devices; pass "
                          "NumPy arrays or use a Context(backend='cuda')")
    dev = xa.on_gpu or _force_device_vectors
    return xa, ya, y, dev


def _sig(*parts: Any) -> str:
    return " ".join(str(p) for p in parts)


def gemv_mgpu(A: DistMatrix, x: Any, trans: str = "N", alpha: Any = 1.0, beta: Any = 0.0,
              y: Any = None) -> Any:
    """y = alpha * op(A) @ x + beta * y over every device of every rank; returns y,
    the same on every rank. x and y are NumPy arrays or, on a CUDA context, CuPy
    arrays (y=None allocates one like x). Collective."""
    return _gemv(A, 0, 0, x, trans, alpha, beta, y, False)


def gemv_mgpu_offset(A: DistMatrix, i0: int, j0: int, x: Any, trans: str = "N",
                     alpha: Any = 1.0, beta: Any = 0.0, y: Any = None) -> Any:
    """gemv_mgpu on the trailing submatrix A[i0:, j0:]. Collective."""
    return _gemv(A, i0, j0, x, trans, alpha, beta, y, True)


def _gemv(A, i0, j0, x, trans, alpha, beta, y, offset):
    _check_dist(A)
    name = "gemv_mgpu_offset" if offset else "gemv_mgpu"

    def check():
        op = option(trans, "trans", "NTC")
        m, n = A.shape
        r0 = _check_index(i0, "i0", m)
        c0 = _check_index(j0, "j0", n)
        letter = A._c.dt
        a = scalar(alpha, letter, "alpha")
        b = scalar(beta, letter, "beta")
        rows, cols = m - r0, n - c0
        xlen, ylen = (cols, rows) if op == "N" else (rows, cols)
        xa, ya, yo, dev = _level2_vectors(A, x, y, xlen, ylen, b)
        return ((op, r0, c0, a, b, xa, ya, yo, dev),
                lambda: _sig(name, letter, op, m, n, r0, c0, dev, a, b))

    op, r0, c0, a, b, xa, ya, yo, dev = A.ctx._agree(name, check)
    m, n = A.shape
    if (n - c0 if op == "N" else m - r0) == 0:
        return yo  # BLAS's quick return on an empty inner dimension: y as it was
    if xa.on_gpu:
        cuda_sync(xa.device)
    _core.gemv_mgpu(A.ctx._c, A._c, op, a, r0, c0, xa.ptr, b, ya.ptr, offset, dev)
    return yo


def symv_mgpu(A: DistMatrix, x: Any, uplo: str = "L", alpha: Any = 1.0, beta: Any = 0.0,
              y: Any = None) -> Any:
    """y = alpha * A @ x + beta * y for the symmetric (complex: complex symmetric) A,
    of which only the ``uplo`` triangle is read; returns y, the same on every rank.
    Collective."""
    return _symv(A, 0, x, uplo, alpha, beta, y, False, False)


def symv_mgpu_offset(A: DistMatrix, off: int, x: Any, uplo: str = "L", alpha: Any = 1.0,
                     beta: Any = 0.0, y: Any = None) -> Any:
    """symv_mgpu on the trailing diagonal submatrix A[off:, off:]. Collective."""
    return _symv(A, off, x, uplo, alpha, beta, y, False, True)


def hemv_mgpu(A: DistMatrix, x: Any, uplo: str = "L", alpha: Any = 1.0, beta: Any = 0.0,
              y: Any = None) -> Any:
    """y = alpha * A @ x + beta * y for the Hermitian A (imaginary parts of the
    diagonal taken as zero); returns y, the same on every rank. Collective."""
    return _symv(A, 0, x, uplo, alpha, beta, y, True, False)


def hemv_mgpu_offset(A: DistMatrix, off: int, x: Any, uplo: str = "L", alpha: Any = 1.0,
                     beta: Any = 0.0, y: Any = None) -> Any:
    """hemv_mgpu on the trailing diagonal submatrix A[off:, off:]. Collective."""
    return _symv(A, off, x, uplo, alpha, beta, y, True, True)


def _symv(A, off, x, uplo, alpha, beta, y, hermitian, offset):
    _check_dist(A)
    name = ("hemv" if hermitian else "symv") + ("_mgpu_offset" if offset else "_mgpu")

    def check():
        u = option(uplo, "uplo", "LU")
        m, n = A.shape
        if m != n:
            raise DimensionMismatch(f"{name}: A is {m} x {n} but must be square")
        o = _check_index(off, "off", n)
        letter = A._c.dt
        a = scalar(alpha, letter, "alpha")
        b = scalar(beta, letter, "beta")
        xa, ya, yo, dev = _level2_vectors(A, x, y, n - o, n - o, b)
        return (u, o, a, b, xa, ya, yo, dev), lambda: _sig(name, letter, u, n, o, dev, a, b)

    u, o, a, b, xa, ya, yo, dev = A.ctx._agree(name, check)
    if xa.on_gpu:
        cuda_sync(xa.device)
    _core.symv_mgpu(A.ctx._c, A._c, hermitian, u, a, o, xa.ptr, b, ya.ptr, offset, dev)
    return yo


# ---------------------------------------------------------------------------------
# Single device: CuPy arrays on their GPU (CuPy's current stream), NumPy arrays on a
# host device (the host engine). Not collective.
# ---------------------------------------------------------------------------------

def _queue(arrs: Sequence[Arr]) -> Tuple[int, int]:
    """(device ordinal or -1, stream) shared by the arrays, which must all live on
    one device."""
    where = {a.where for a in arrs}
    if len(where) > 1:
        raise BadArgument("the arrays live in different memories (" +
                          ", ".join(f"{a.name}: {a.where}" for a in arrs) +
                          "); pass them all as NumPy arrays or all as CuPy arrays of one GPU")
    dev = arrs[0].device
    return dev, (cuda_stream(dev) if dev >= 0 else 0)


def _single(arrs: Sequence[Arr]) -> Tuple[int, int]:
    dev, stream = _queue(arrs)
    return dev, stream


def _operand_vectors(like, dtype, x, xlen, y, ylen, beta, unit_stride=False):
    """x and y of a matrix-vector product, checked against A's dtype and the lengths;
    y = None becomes zeros (allowed only with beta = 0) of the kind of `like` (NumPy or
    CuPy; None: x's kind). Returns (x described, incx, y, y described, incy)."""
    xa = describe(x, "x")
    check_dtype(xa, dtype, "A's dtype")
    incx = vector(xa, xlen, unit_stride=unit_stride)
    if y is None:
        if beta != 0:
            raise BadArgument("beta != 0 needs y (the vector it scales)")
        y = zeros_like_kind(xa if like is None else like, (ylen,), dtype)
    ya = describe(y, "y", writable=True)
    check_dtype(ya, dtype, "A's dtype")
    incy = vector(ya, ylen, unit_stride=unit_stride)
    return xa, incx, y, ya, incy


def gemv(A: Any, x: Any, trans: str = "N", alpha: Any = 1.0, beta: Any = 0.0,
         y: Any = None) -> Any:
    """y = alpha * op(A) @ x + beta * y on one device: CuPy arrays on their GPU, queued
    on CuPy's current stream (returns without waiting); NumPy arrays on the host.
    A may be column- or row-major (row-major complex A with trans='C' is not
    supported); x and y may be strided. Returns y."""
    Aa = describe(A, "A")
    if Aa.ndim != 2:
        raise DimensionMismatch(f"A must be 2-D, not of shape {Aa.shape}")
    letter = Aa.letter
    op = option(trans, "trans", "NTC")
    a = scalar(alpha, letter, "alpha")
    b = scalar(beta, letter, "beta")
    m, n = Aa.shape
    xlen, ylen = (n, m) if op == "N" else (m, n)
    xa, incx, y, ya, incy = _operand_vectors(Aa, Aa.dtype, x, xlen, y, ylen, b)
    dev, stream = _single([Aa, xa, ya])
    orders = matrix_orders(Aa.shape, Aa.strides)
    if "F" in orders:
        bop, bm, bn, lda = op, m, n, orders["F"]
    elif "C" in orders:  # the buffer is A^T, column-major
        if op == "C" and letter in "cz":
            raise BadArgument("gemv with trans='C' needs a column-major (Fortran-order) complex A")
        bop, bm, bn, lda = ("T" if op == "N" else "N"), n, m, orders["C"]
    else:
        raise BadArgument("A is not contiguous along either axis; pass a column- or "
                          "row-major matrix")
    _core.gemv(letter, dev, stream, bop, bm, bn, a, Aa.ptr, lda, xa.ptr, incx, b, ya.ptr, incy)
    return y


def symv(A: Any, x: Any, uplo: str = "L", alpha: Any = 1.0, beta: Any = 0.0, y: Any = None) -> Any:
    """Single-device SYMV (see gemv for where it runs). Returns y."""
    return _symv1(A, x, uplo, alpha, beta, y, False)


def hemv(A: Any, x: Any, uplo: str = "L", alpha: Any = 1.0, beta: Any = 0.0, y: Any = None) -> Any:
    """Single-device HEMV (see gemv for where it runs); a complex A must be
    column-major. Returns y."""
    return _symv1(A, x, uplo, alpha, beta, y, True)


def _symv1(A, x, uplo, alpha, beta, y, hermitian):
    name = "hemv" if hermitian else "symv"
    Aa = describe(A, "A")
    if Aa.ndim != 2 or Aa.shape[0] != Aa.shape[1]:
        raise DimensionMismatch(f"{name}: A must be a square matrix, not of shape {Aa.shape}")
    letter = Aa.letter
    u = option(uplo, "uplo", "LU")
    a = scalar(alpha, letter, "alpha")
    b = scalar(beta, letter, "beta")
    n = Aa.shape[0]
    xa, incx, y, ya, incy = _operand_vectors(Aa, Aa.dtype, x, n, y, n, b)
    dev, stream = _single([Aa, xa, ya])
    orders = matrix_orders(Aa.shape, Aa.strides)
    if "F" in orders:
        bu, lda = u, orders["F"]
    elif "C" in orders:
        # The buffer is A^T: the same symmetric matrix with the other triangle stored;
        # for a complex Hermitian A it would be conj(A).
        if hermitian and letter in "cz":
            raise BadArgument("hemv needs a column-major (Fortran-order) complex A")
        bu, lda = ("U" if u == "L" else "L"), orders["C"]
    else:
        raise BadArgument("A is not contiguous along either axis")
    (_core.hemv if hermitian else _core.symv)(letter, dev, stream, bu, n, a, Aa.ptr, lda, xa.ptr,
                                               incx, b, ya.ptr, incy)
    return y


# ---------------------------------------------------------------------------------
# GEMM planning shared by tsgemm and gemm_batched: NumPy's row-major matrices are
# handed to the column-major engines as their transposes (C = op(A) op(B) is
# C^T = op(B)^T op(A)^T, and the transpose of op(X) is op applied to X^T).
# ---------------------------------------------------------------------------------

def _op_shape(shape: Tuple[int, int], op: str) -> Tuple[int, int]:
    return shape if op == "N" else (shape[1], shape[0])


def _gemm_sizes(ashape, bshape, cshape, opa, opb):
    m, k = _op_shape(ashape, opa)
    kb, n = _op_shape(bshape, opb)
    if kb != k:
        raise DimensionMismatch(f"op(A) is {m} x {k} but op(B) is {kb} x {n}: inner dimensions differ")
    if cshape is not None and tuple(cshape) != (m, n):
        raise DimensionMismatch(f"C has shape {tuple(cshape)} but op(A) op(B) is {m} x {n}")
    return m, n, k


def _common_order(items) -> str:
    """items: (name, shape, strides) of 2-D matrices; returns 'F' or 'C' (with the
    leading dimensions) for a layout all of them share."""
    common = None
    for name, shape, strides in items:
        o = set(matrix_orders(shape, strides))
        if not o:
            raise BadArgument(f"{name} is not contiguous along either axis; pass column- or "
                              "row-major matrices")
        common = o if common is None else common & o
    if not common:
        raise BadArgument("A, B and C must all be column-major (Fortran order) or all "
                          "row-major (C order)")
    return "F" if "F" in common else "C"


def _ld(shape, strides, order):
    return matrix_orders(shape, strides)[order]


def tsgemm(A: Any, B: Any, C: Any = None, transa: str = "N", transb: str = "N",
           alpha: Any = 1.0, beta: Any = 0.0) -> Any:
    """C = alpha * op(A) @ op(B) + beta * C on one device with the tall-and-skinny
    kernels (CuPy arrays on their GPU, CuPy's current stream; NumPy on the host).
    All three matrices column-major, or all row-major. Returns C."""
    return _gemm2d(_core.tsgemm, A, B, C, transa, transb, alpha, beta)


def _gemm2d(core, A, B, C, transa, transb, alpha, beta):
    """A single-device GEMM entry of the extension (tsgemm, gemm) on 2-D arrays."""
    Aa, Ba = describe(A, "A"), describe(B, "B")
    for X in (Aa, Ba):
        if X.ndim != 2:
            raise DimensionMismatch(f"{X.name} must be 2-D, not of shape {X.shape}")
    check_dtype(Ba, Aa.dtype, "A's dtype")
    letter = Aa.letter
    opa, opb = option(transa, "transa", "NTC"), option(transb, "transb", "NTC")
    a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
    m, n, k = _gemm_sizes(Aa.shape, Ba.shape, None, opa, opb)
    if C is None:
        if b != 0:
            raise BadArgument("beta != 0 needs C (the matrix it scales)")
        order = _common_order([("A", Aa.shape, Aa.strides), ("B", Ba.shape, Ba.strides)])
        C = zeros_like_kind(Aa, (m, n), Aa.dtype, order=order)
    Ca = describe(C, "C", writable=True)
    check_dtype(Ca, Aa.dtype, "A's dtype")
    _gemm_sizes(Aa.shape, Ba.shape, Ca.shape, opa, opb)
    dev, stream = _single([Aa, Ba, Ca])
    order = _common_order([(X.name, X.shape, X.strides) for X in (Aa, Ba, Ca)])
    lda, ldb, ldc = (_ld(X.shape, X.strides, order) for X in (Aa, Ba, Ca))
    if order == "F":
        core(letter, dev, stream, opa, opb, m, n, k, a, Aa.ptr, lda, Ba.ptr, ldb, b, Ca.ptr, ldc)
    else:  # row-major: C^T = op(B)^T op(A)^T
        core(letter, dev, stream, opb, opa, n, m, k, a, Ba.ptr, ldb, Aa.ptr, lda, b, Ca.ptr, ldc)
    return C


def gemm_batched(A: Any, B: Any, C: Any = None, transa: str = "N", transb: str = "N",
                 alpha: Any = 1.0, beta: Any = 0.0, ctx: Optional[Context] = None) -> Any:
    """C[i] = alpha * op(A[i]) @ op(B[i]) + beta * C[i] for every entry i.

    Strided: A, B, C are 3-D arrays (batch, rows, cols), entries column- or row-major
    (all alike); a 2-D A or B is one operand shared by every entry. Variable sizes: A,
    B (and C) are lists of 2-D arrays. Returns C (allocated when None).

    Where it runs: CuPy arrays on their GPU (CuPy's current stream); NumPy arrays on
    a host device, or with ``ctx`` over every device of every rank (collective; every
    rank passes the whole batch and receives all of C).
    """
    if isinstance(A, (list, tuple)):
        return _gemm_vbatched(A, B, C, transa, transb, alpha, beta, ctx)
    Aa, Ba = describe(A, "A"), describe(B, "B")
    check_dtype(Ba, Aa.dtype, "A's dtype")
    letter = Aa.letter
    opa, opb = option(transa, "transa", "NTC"), option(transb, "transb", "NTC")
    a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
    for X in (Aa, Ba):
        if X.ndim not in (2, 3):
            raise DimensionMismatch(f"{X.name} must be 3-D (batch, rows, cols) or 2-D "
                                    f"(shared by every entry), not of shape {X.shape}")
    batches = {X.shape[0] for X in (Aa, Ba) if X.ndim == 3}
    if C is None:
        if len(batches) > 1:
            raise DimensionMismatch(f"A and B hold different batch counts {sorted(batches)}")
        if b != 0:
            raise BadArgument("beta != 0 needs C (the matrices it scales)")
        batch = batches.pop() if batches else 1
        m, n, _ = _gemm_sizes(Aa.shape[-2:], Ba.shape[-2:], None, opa, opb)
        order = _common_order([("A", Aa.shape[-2:], Aa.strides[-2:]),
                               ("B", Ba.shape[-2:], Ba.strides[-2:])])
        if order == "C":
            C = zeros_like_kind(Aa, (batch, m, n), Aa.dtype, order="C")
        else:  # column-major entries: (batch, n, m) row-major, seen transposed
            C = zeros_like_kind(Aa, (batch, n, m), Aa.dtype, order="C").transpose(0, 2, 1)
    Ca = describe(C, "C", writable=True)
    check_dtype(Ca, Aa.dtype, "A's dtype")
    if Ca.ndim != 3:
        raise DimensionMismatch(f"C must be 3-D (batch, m, n), not of shape {Ca.shape}")
    batch = Ca.shape[0]
    for X in (Aa, Ba):
        if X.ndim == 3 and X.shape[0] != batch:
            raise DimensionMismatch(f"{X.name} holds {X.shape[0]} entries but C holds {batch}")
    m, n, k = _gemm_sizes(Aa.shape[-2:], Ba.shape[-2:], Ca.shape[1:], opa, opb)
    order = _common_order([(X.name, X.shape[-2:], X.strides[-2:]) for X in (Aa, Ba, Ca)])
    lda, ldb, ldc = (_ld(X.shape[-2:], X.strides[-2:], order) for X in (Aa, Ba, Ca))
    sa, sb, sc = ((X.strides[0] if X.ndim == 3 and X.shape[0] > 1 else 0) for X in (Aa, Ba, Ca))
    if batch > 1 and sc == 0:
        raise BadArgument("C's entries overlap (batch stride 0)")
    if batch <= 1:
        sc = max(sc, ldc * (n if order == "F" else m))
    if order == "F":
        args = (opa, opb, m, n, k, a, Aa.ptr, lda, sa, Ba.ptr, ldb, sb, b, Ca.ptr, ldc, sc, batch)
    else:
        args = (opb, opa, n, m, k, a, Ba.ptr, ldb, sb, Aa.ptr, lda, sa, b, Ca.ptr, ldc, sc, batch)
    if ctx is not None:
        _check_ctx(ctx)

        def check():
            if any(X.on_gpu for X in (Aa, Ba, Ca)):
                raise BadArgument("gemm_batched with ctx= takes NumPy arrays (every rank "
                                  "passes the whole batch); for CuPy arrays leave ctx out")
            return None, lambda: _sig("gemm_batched", letter, *args[:5], a, b, batch, order)

        ctx._agree("gemm_batched", check)
        _core.gemm_batched_strided_mgpu(ctx._c, letter, *args)
        return C
    dev, stream = _single([Aa, Ba, Ca])
    _core.gemm_batched_strided(letter, dev, stream, *args)
    return C


def _gemm_vbatched(A, B, C, transa, transb, alpha, beta, ctx):
    if not isinstance(B, (list, tuple)) or len(B) != len(A):
        raise DimensionMismatch("for variable sizes A and B must be lists of equal length")
    if C is not None and (not isinstance(C, (list, tuple)) or len(C) != len(A)):
        raise DimensionMismatch("C must be a list as long as A")
    batch = len(A)
    opa, opb = option(transa, "transa", "NTC"), option(transb, "transb", "NTC")
    As = [describe(X, f"A[{i}]") for i, X in enumerate(A)]
    Bs = [describe(X, f"B[{i}]") for i, X in enumerate(B)]
    if batch == 0:
        return [] if C is None else C
    dtype = As[0].dtype
    letter = As[0].letter
    a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
    sizes = []
    for Xa, Xb in zip(As, Bs):
        for X in (Xa, Xb):
            check_dtype(X, dtype, "A[0]'s dtype")
            if X.ndim != 2:
                raise DimensionMismatch(f"{X.name} must be 2-D, not of shape {X.shape}")
        sizes.append(_gemm_sizes(Xa.shape, Xb.shape, None, opa, opb))
    if C is None:
        if b != 0:
            raise BadArgument("beta != 0 needs C (the matrices it scales)")
        order = _common_order([(X.name, X.shape, X.strides) for X in As + Bs])
        C = [zeros_like_kind(As[0], (m, n), dtype, order=order) for m, n, _ in sizes]
    Cs = [describe(X, f"C[{i}]", writable=True) for i, X in enumerate(C)]
    for Xc, (m, n, _) in zip(Cs, sizes):
        check_dtype(Xc, dtype, "A[0]'s dtype")
        if Xc.shape != (m, n):
            raise DimensionMismatch(f"{Xc.name} has shape {Xc.shape} but must be {(m, n)}")
    order = _common_order([(X.name, X.shape, X.strides) for X in As + Bs + Cs])
    lda = [_ld(X.shape, X.strides, order) for X in As]
    ldb = [_ld(X.shape, X.strides, order) for X in Bs]
    ldc = [_ld(X.shape, X.strides, order) for X in Cs]
    ms = [s[0] for s in sizes]
    ns = [s[1] for s in sizes]
    ks = [s[2] for s in sizes]
    pa, pb, pc = [X.ptr for X in As], [X.ptr for X in Bs], [X.ptr for X in Cs]
    if order == "F":
        args = [opa, opb, ms, ns, ks, a, pa, lda, pb, ldb, b, pc, ldc]
    else:
        args = [opb, opa, ns, ms, ks, a, pb, ldb, pa, lda, b, pc, ldc]
    if ctx is not None:
        _check_ctx(ctx)

        def check():
            if any(X.on_gpu for X in As + Bs + Cs):
                raise BadArgument("gemm_batched with ctx= takes NumPy arrays; for CuPy arrays "
                                  "leave ctx out")
            return None, lambda: _sig("gemm_vbatched", letter, opa, opb, ms, ns, ks, a, b, order)

        ctx._agree("gemm_batched", check)
        # The sizes, leading dimensions and pointers as host int64 arrays.
        keep = [np.asarray(v, dtype=np.int64) if isinstance(v, list) else v for v in args]
        _core.gemm_vbatched_mgpu(ctx._c, letter, *[_addr(v) if isinstance(v, np.ndarray) else v
                                                   for v in keep], batch)
        return C
    dev, stream = _single(As + Bs + Cs)
    maxima = (max(args[2]), max(args[3]), max(args[4]))
    # The engine reads sizes, leading dimensions and pointers as int64 arrays in the
    # memory of the device (host arrays for a host device).
    if dev < 0:
        keep = [np.asarray(v, dtype=np.int64) if isinstance(v, list) else v for v in args]
        ptrs = [int(v.ctypes.data) if isinstance(v, np.ndarray) else v for v in keep]
        _core.gemm_vbatched(letter, -1, 0, *ptrs, batch, *maxima)
        return C
    import cupy
    with cupy.cuda.Device(dev):
        keep = [cupy.asarray(np.asarray(v, dtype=np.int64)) if isinstance(v, list) else v
                for v in args]
        ptrs = [v.data.ptr if isinstance(v, cupy.ndarray) else v for v in keep]
        _core.gemm_vbatched(letter, dev, stream, *ptrs, batch, *maxima)
        # CuPy's pool hands freed blocks only to later work on the same stream, so the
        # size arrays may go out of scope while the call is still queued.
    return C


# ---------------------------------------------------------------------------------
# Distributed tall-and-skinny GEMM
# ---------------------------------------------------------------------------------

def tsgemm_mgpu(A: RowTiledMatrix, B: Any, C: Any = None, transa: str = "N", transb: str = "N",
                alpha: Any = 1.0, beta: Any = 0.0) -> Any:
    """Distributed tall-and-skinny GEMM over row-tiled matrices. Collective.

    Rows form (B an array): C = alpha * A @ op(B) + beta * C, A (m x k) and C (m x n)
    RowTiledMatrix with the same tiling, B small (k x n, or n x k for transb T/C), the
    same NumPy array on every rank; returns C (a new RowTiledMatrix when None).

    k-split form (B a RowTiledMatrix): C = alpha * op(A) @ B + beta * C with transa
    'T' or 'C', A (k x m) and B (k x n) tiled alike along k; C is a small m x n NumPy
    array, the same on every rank on return.
    """
    if not isinstance(A, RowTiledMatrix):
        raise BadArgument(f"A must be an mgblas.RowTiledMatrix, not {type(A).__name__}")
    ctx = A.ctx
    letter = A._c.dt
    if isinstance(B, RowTiledMatrix):
        def check():
            opa = option(transa, "transa", "TC")
            if option(transb, "transb", "NTC") != "N":
                raise BadArgument("the k-split form takes transb='N'")
            if B._c.dt != letter:
                raise BadArgument(f"B has dtype {B.dtype} but A has {A.dtype}")
            a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
            k, m = A.shape
            n = B.shape[1]
            if B.shape[0] != k:
                raise DimensionMismatch(f"A is {A.shape} and B is {B.shape}: they must have "
                                        "the same number of rows")
            out = C
            if out is None:
                if b != 0:
                    raise BadArgument("beta != 0 needs C (the matrix it scales)")
                out = np.zeros((m, n), dtype=A.dtype, order="F")
            Ca = describe(out, "C", writable=True)
            check_dtype(Ca, A.dtype, "A's dtype")
            if Ca.on_gpu:
                raise BadArgument("C of the k-split form is a NumPy array")
            if Ca.shape != (m, n):
                raise DimensionMismatch(f"C has shape {Ca.shape} but must be {(m, n)}")
            work = out if "F" in matrix_orders(Ca.shape, Ca.strides) else np.asfortranarray(out)
            return (opa, a, b, out, work), lambda: _sig("tsgemm_mgpu_ksplit", letter, opa, k, m, n, a, b)

        opa, a, b, out, work = ctx._agree("tsgemm_mgpu", check)
        wa = describe(work, "C", writable=True)
        _core.tsgemm_mgpu_ksplit(ctx._c, opa, a, A._c, B._c, b, wa.ptr,
                                 matrix_orders(wa.shape, wa.strides)["F"])
        if work is not out:
            out[...] = work
        return out

    def check():
        if option(transa, "transa", "NTC") != "N":
            raise BadArgument("the rows form takes transa='N'")
        opb = option(transb, "transb", "NTC")
        a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
        Ba = describe(B, "B")
        check_dtype(Ba, A.dtype, "A's dtype")
        if Ba.on_gpu:
            raise BadArgument("B of the rows form is a NumPy array (the same on every rank)")
        if Ba.ndim != 2:
            raise DimensionMismatch(f"B must be 2-D, not of shape {Ba.shape}")
        m, k = A.shape
        kb, n = _op_shape(Ba.shape, opb)
        if kb != k:
            raise DimensionMismatch(f"A is {m} x {k} but op(B) is {kb} x {n}")
        out = C
        if out is None:
            if b != 0:
                raise BadArgument("beta != 0 needs C (the matrix it scales)")
            out = RowTiledMatrix(ctx, m, n, A.dtype, A.tile)
        if not isinstance(out, RowTiledMatrix):
            raise BadArgument(f"C must be an mgblas.RowTiledMatrix, not {type(out).__name__}")
        if out.shape != (m, n) or out._c.dt != letter:
            raise DimensionMismatch(f"C is {out.shape} {out.dtype} but must be {(m, n)} {A.dtype}")
        Bf = Ba.obj if "F" in matrix_orders(Ba.shape, Ba.strides) else np.asfortranarray(Ba.obj)
        return (opb, a, b, out, Bf), lambda: _sig("tsgemm_mgpu_rows", letter, opb, m, k, n, a, b)

    opb, a, b, out, Bf = ctx._agree("tsgemm_mgpu", check)
    bf = describe(Bf, "B")
    _core.tsgemm_mgpu(ctx._c, opb, a, A._c, bf.ptr, matrix_orders(bf.shape, bf.strides)["F"], b,
                      out._c)
    return out


# ---------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------

def hetrd(A: DistMatrix, uplo: str = "L", panel: int = 0) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reduce the Hermitian (real: symmetric) A to tridiagonal form T = Q^H A Q in
    place (LAPACK ?hetrd / ?sytrd storage). Returns (d, e, tau) as NumPy arrays, the
    same on every rank: T's diagonal (n) and off-diagonal (n - 1, real) and the
    reflectors' scalars (n - 1). ``panel``: columns per panel, a divisor of A.nb
    (0 picks one). Collective."""
    _check_dist(A)

    def check():
        u, n = _hermitian_args("hetrd", A, uplo, panel)
        return (u, n), lambda: _sig("hetrd", A._c.dt, u, n, panel)

    u, n = A.ctx._agree("hetrd", check)
    real = REAL_OF[A._c.dt]
    d = np.zeros(n, dtype=real)
    e = np.zeros(max(0, n - 1), dtype=real)
    tau = np.zeros(max(0, n - 1), dtype=A.dtype)
    _core.hetrd_mgpu(A.ctx._c, u, A._c, _addr(d), _addr(e), _addr(tau), int(panel), -1, 0,
                     "A")
    return d, e, tau


def _hermitian_args(name: str, A: DistMatrix, uplo: str, panel: Any) -> Tuple[str, int]:
    """The checks of a call on the uplo triangle of a square A with a panel width:
    (uplo letter, n)."""
    u = option(uplo, "uplo", "LU")
    m, n = A.shape
    if m != n:
        raise DimensionMismatch(f"{name}: A is {m} x {n} but must be square")
    if not isinstance(panel, (int, np.integer)) or panel < 0:
        raise BadArgument(f"panel = {panel!r}: must be an integer >= 0")
    return u, n


def sytrd(A: DistMatrix, uplo: str = "L", panel: int = 0) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """hetrd for real symmetric A (float32, float64). Collective."""
    _check_dist(A)
    if A.dtype.kind == "c":
        raise BadArgument("sytrd takes a real A; use hetrd for complex Hermitian matrices")
    return hetrd(A, uplo, panel)


def _pass_mode(one_pass: Optional[bool]) -> int:
    """gebrd's one_pass for the extension: -1 the default, 0 two GEMVs, 1 one pass."""
    return -1 if one_pass is None else int(bool(one_pass))


def gebrd(A: DistMatrix, panel: int = 0,
          one_pass: Optional[bool] = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Reduce the m x n A to bidiagonal form B = Q^H A P in place (LAPACK ?gebrd
    storage; upper bidiagonal for m >= n, lower otherwise). Returns (d, e, tauq,
    taup) as NumPy arrays, the same on every rank. one_pass: True reads A once for a
    column's two large products on every column (the fused row step), False runs two
    GEMVs on every column, None (default) the fused step while the trailing matrix is
    large (GebrdOptions; bench/results/h100-gebrd-tma.md). Collective."""
    _check_dist(A)

    def check():
        if not isinstance(panel, (int, np.integer)) or panel < 0:
            raise BadArgument(f"panel = {panel!r}: must be an integer >= 0")
        if one_pass is not None and not isinstance(one_pass, (bool, np.bool_)):
            raise BadArgument(f"one_pass = {one_pass!r}: must be True, False or None")
        m, n = A.shape
        return min(m, n), lambda: _sig("gebrd", A._c.dt, m, n, panel, _pass_mode(one_pass))

    k = A.ctx._agree("gebrd", check)
    real = REAL_OF[A._c.dt]
    d = np.zeros(k, dtype=real)
    e = np.zeros(max(0, k - 1), dtype=real)
    tauq = np.zeros(k, dtype=A.dtype)
    taup = np.zeros(k, dtype=A.dtype)
    _core.gebrd_mgpu(A.ctx._c, A._c, _addr(d), _addr(e), _addr(tauq), _addr(taup), int(panel),
                     _pass_mode(one_pass), 0, "A")
    return d, e, tauq, taup


def tridiag_eigenvalues(ctx: Context, d: Any, e: Any) -> np.ndarray:
    """All eigenvalues, ascending, of the real symmetric tridiagonal matrix with
    diagonal d (n) and off-diagonal e (n - 1), by bisection over every device of
    every rank; the same on every rank. Collective."""
    _check_ctx(ctx)

    def check():
        da = describe(d, "d")
        if da.dtype.kind != "f":
            raise BadArgument(f"d has dtype {da.dtype}; it must be float32 or float64")
        n = da.shape[0] if da.ndim == 1 else -1
        vector(da, n)
        ea = describe(e, "e")
        check_dtype(ea, da.dtype, "d's dtype")
        vector(ea, max(0, n - 1))
        if da.on_gpu or ea.on_gpu:
            raise BadArgument("d and e are NumPy arrays (the same on every rank)")
        return (da, ea, n), lambda: _sig("tridiag_eigenvalues", da.letter, n)

    da, ea, n = ctx._agree("tridiag_eigenvalues", check)
    w = np.empty(n, dtype=da.dtype)
    _core.tridiag_eigenvalues_mgpu(ctx._c, da.letter, n, da.ptr, ea.ptr if n > 1 else 0, _addr(w))
    return w


def eigvalsh(A: DistMatrix, uplo: str = "L", panel: int = 0) -> np.ndarray:
    """Eigenvalues, ascending, of the Hermitian (real: symmetric) A: hetrd, then
    tridiag_eigenvalues. A is overwritten by the reduction. Collective."""
    d, e, _ = hetrd(A, uplo, panel)
    return tridiag_eigenvalues(A.ctx, d, e)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def _subset(subset_by_index: Any, subset_by_value: Any, n: int
            ) -> Tuple[str, float, float, int, int, int]:
    """eigh's subset as the extension takes it: (range letter, vl, vu, il, iu, the columns
    Z needs)."""
    if subset_by_index is not None and subset_by_value is not None:
        raise BadArgument("subset_by_index and subset_by_value were both given: pass one "
                          "of them, or neither for every eigenvalue")
    if subset_by_index is not None:
        pair = tuple(subset_by_index) if isinstance(subset_by_index, (tuple, list)) else ()
        if len(pair) != 2 or not all(isinstance(v, (int, np.integer)) and
                                     not isinstance(v, bool) for v in pair):
            raise BadArgument(f"subset_by_index = {subset_by_index!r}: must be a pair of "
                              "integers (il, iu)")
        il, iu = (int(v) for v in pair)
        if not 0 <= il <= iu < n:
            raise BadArgument(f"subset_by_index = {subset_by_index!r}: must have 0 <= il <= "
                              f"iu < n = {n} (0-based, inclusive)")
        return "I", 0.0, 0.0, il, iu, iu - il + 1
    if subset_by_value is not None:
        pair = tuple(subset_by_value) if isinstance(subset_by_value, (tuple, list)) else ()
        if len(pair) != 2 or not all(_number(v) for v in pair):
            raise BadArgument(f"subset_by_value = {subset_by_value!r}: must be a pair of real "
                              "numbers (vl, vu)")
        vl, vu = (float(v) for v in pair)
        if not vl < vu:  # NaN fails too
            raise BadArgument(f"subset_by_value = {subset_by_value!r}: must have vl < vu (the "
                              "half-open interval (vl, vu])")
        return "V", vl, vu, 0, -1, n
    return "A", 0.0, 0.0, 0, -1, n


def _stages(stages: Any) -> str:
    """The eigen-solver's and the SVD's choice of reduction as the extension takes it: 'A'
    (automatic), '1' (one stage: hetrd_mgpu, gebrd_mgpu) or '2' (two stages); 1 and 2 as
    ints too."""
    if isinstance(stages, (int, np.integer)) and not isinstance(stages, bool) and \
            int(stages) in (1, 2):
        return str(int(stages))
    if isinstance(stages, str) and stages.strip().upper() in ("A", "1", "2"):
        return stages.strip().upper()
    raise BadArgument(f"stages = {stages!r}: must be 'A' (automatic), '1' or '2'")


def eigh(A: DistMatrix, uplo: str = "L", vectors: bool = True, subset_by_index: Any = None,
         subset_by_value: Any = None, panel: int = 0, stages: Any = "A"
         ) -> Union[np.ndarray, Tuple[np.ndarray, DistMatrix]]:
    """Eigenvalues and (``vectors=True``) eigenvectors of the Hermitian (real: symmetric)
    n x n A whose ``uplo`` triangle is read: A Z = Z diag(w) (LAPACK ?heevd / ?syevd with
    ?syevr's subsets; SciPy's eigh). ``subset_by_index=(il, iu)``: the eigenvalues il..iu
    of the ascending order, 0-based and inclusive; ``subset_by_value=(vl, vu)``: those in
    the half-open interval (vl, vu], possibly none; neither: all of them.

    Returns ``w``, the m selected eigenvalues ascending (a NumPy array of A's real dtype,
    the same on every rank), or with vectors ``(w, Z)``: Z a new n x m DistMatrix on A's
    context with A's nb, column j the unit eigenvector of ``w[j]``. A is overwritten by
    the reduction (as LAPACK's). ``panel``: columns per panel of the reduction and
    reflectors per block of the back-transformation, a divisor of A.nb (0 picks them).
    ``stages``: how A is reduced to tridiagonal form: '1' one stage (hetrd_mgpu), '2' two
    stages (hetrd_2stage_mgpu: dense to band, then the bulge chase; with vectors both
    stages' Q are applied to T's eigenvectors), 'A' (default) by the library's measured
    rule (HeevdOptions::stages). Collective."""
    _check_dist(A)

    def check():
        u, n = _hermitian_args("eigh", A, uplo, panel)
        if not isinstance(vectors, (bool, np.bool_)):
            raise BadArgument(f"vectors = {vectors!r}: must be True or False")
        sub = _subset(subset_by_index, subset_by_value, n)
        st = _stages(stages)
        return (u, n, sub, st), lambda: _sig("eigh", A._c.dt, u, n, bool(vectors), *sub, panel,
                                             st)

    u, n, (kind, vl, vu, il, iu, cols), st = A.ctx._agree("eigh", check)
    w = np.zeros(n, dtype=REAL_OF[A._c.dt])
    count = np.zeros(1, dtype=np.int64)
    Z = DistMatrix(A.ctx, n, cols, A.dtype, A.nb) if vectors else None
    _core.heevd_mgpu(A.ctx._c, u, A._c, kind, vl, vu, il, iu, _addr(count), _addr(w),
                     None if Z is None else Z._c, int(panel), -1, 0, st)
    m = int(count[0])
    w = w[:m].copy()
    if Z is None:
        return w
    return w, (Z if m == cols else _leading_columns(Z, m))


def _leading_columns(Z: DistMatrix, m: int) -> DistMatrix:
    """A new n x m DistMatrix (Z's nb) with Z's first m columns. Column j lies on the same
    device in both (the block columns are dealt out alike), so each device copies its own
    blocks; through the host only on a GPU without CuPy. Collective."""
    ctx = Z.ctx
    out = DistMatrix(ctx, Z.shape[0], m, Z.dtype, Z.nb)
    ctx.synchronize()
    src = {(b.device, b.col): b.array for b in Z.local_blocks()}
    dst = out.local_blocks()
    views = all(a is not None for a in src.values()) and all(b.array is not None for b in dst)
    if ctx.size > 1:  # the same path on every rank: the other one is collective
        views = all(t == "1" for t in ctx._gather_tokens("1" if views else "0"))
    if not views:
        return DistMatrix.from_array(ctx, Z.to_array(root=None)[:, :m], nb=Z.nb, root=None)
    ords = ctx._c.gpu_ordinals
    gpus = set()
    for b in dst:
        if ords[b.device] < 0:
            b.array[...] = src[(b.device, b.col)][:, :b.cols]
            continue
        import cupy
        with cupy.cuda.Device(ords[b.device]):
            b.array[...] = src[(b.device, b.col)][:, :b.cols]
        gpus.add(ords[b.device])
    for g in gpus:  # the copies ran on CuPy's stream: done before mgblas's next call
        import cupy
        cupy.cuda.Device(g).synchronize()
    return out


def unmtr(A: DistMatrix, tau: Any, C: DistMatrix, trans: str = "N", uplo: str = "L",
          panel: int = 0) -> DistMatrix:
    """C := op(Q) C in place, Q as hetrd(A, uplo) left it in A and tau (uplo 'L': Q =
    H(0) ... H(n-2); 'U': Q = H(n-2) ... H(0)): the step from eigenvectors of T to
    those of A. trans 'N' (Q C) or 'C' (Q^H C; 'T' for real types). C is n x K, its own
    DistMatrix on A's context. Returns C. Collective."""
    _check_dist(A)
    return _apply_reflectors("unmtr", _core.unmtr_mgpu, A, tau, C, "uplo", uplo, "LU",
                             max(0, A.shape[0] - 1), "hetrd", trans, panel)


def ormtr(A: DistMatrix, tau: Any, C: DistMatrix, trans: str = "N", uplo: str = "L",
          panel: int = 0) -> DistMatrix:
    """unmtr for real types."""
    _check_dist(A)
    if A.dtype.kind == "c":
        raise BadArgument("ormtr takes a real A; use unmtr for complex matrices")
    return unmtr(A, tau, C, trans, uplo, panel)


def geqrf(A: DistMatrix, panel: int = 0) -> np.ndarray:
    """Factor the m x n A = Q R in place (LAPACK ?geqrf storage: R in the upper triangle,
    Q's reflectors below it); returns tau (min(m, n) entries, a NumPy array, the same on
    every rank). ``panel``: columns per panel, a divisor of A.nb (0 picks it).
    Collective."""
    _check_dist(A)

    def check():
        if not isinstance(panel, (int, np.integer)) or panel < 0:
            raise BadArgument(f"panel = {panel!r}: must be an integer >= 0")
        return None, lambda: _sig("geqrf", A._c.dt, A.shape, panel)

    A.ctx._agree("geqrf", check)
    tau = np.zeros(min(A.shape), dtype=A.dtype)
    _core.geqrf_mgpu(A.ctx._c, A._c, _addr(tau), int(panel), -1, 0, "A")
    return tau


def svd(A: DistMatrix, vectors: bool = True, k: Optional[int] = None, full: bool = False,
        panel: int = 0, stages: Any = "A", band: int = 0
        ) -> Union[np.ndarray, Tuple[DistMatrix, np.ndarray, DistMatrix]]:
    """Singular values and (``vectors=True``) singular vectors of the m x n A: A V = U
    diag(s) (LAPACK ?gesvd; gesvd_mgpu). Returns ``s``, all min(m, n) singular values
    descending (a NumPy array of A's real dtype, the same on every rank), or with vectors
    ``(U, s, V)``: U (m x k) and V (n x k) new DistMatrices on A's context with A's nb,
    the vectors of the k largest singular values (``k=None``: all min(m, n)). Note that
    V is returned, not NumPy's Vh = V^H: its columns live on the devices. ``full=True``
    (k None) makes U m x m and V n x n, the larger one completed by an orthonormal basis
    of the complement. A is overwritten by its bidiagonal reduction. ``panel``: the
    reduction's panel and the back-transformation's block, a divisor of A.nb (0 picks
    them). ``stages``: how A (or, for a tall A, its R) is reduced to bidiagonal form: '1'
    one stage (gebrd), '2' two stages (dense to band, then the bulge chase; needs m >= n),
    'A' (default) by the library's measured rule (GesvdOptions::stages); ``band``: the
    two-stage band width, a divisor of A.nb (0 picks it). Collective."""
    _check_dist(A)
    m, n = A.shape
    kk = min(m, n)

    def check():
        if not isinstance(vectors, (bool, np.bool_)):
            raise BadArgument(f"vectors = {vectors!r}: must be True or False")
        if not isinstance(full, (bool, np.bool_)):
            raise BadArgument(f"full = {full!r}: must be True or False")
        if k is not None and (not isinstance(k, (int, np.integer)) or not 0 <= k <= kk):
            raise BadArgument(f"k = {k!r}: must be None or an integer in [0, min(m, n) = {kk}]")
        if full and k is not None:
            raise BadArgument("full = True computes all vectors: k must be None")
        if not isinstance(panel, (int, np.integer)) or panel < 0:
            raise BadArgument(f"panel = {panel!r}: must be an integer >= 0")
        if not isinstance(band, (int, np.integer)) or isinstance(band, bool) or band < 0:
            raise BadArgument(f"band = {band!r}: must be an integer >= 0")
        st = _stages(stages)
        nvec = kk if k is None else int(k)
        return (nvec, st), lambda: _sig("svd", A._c.dt, m, n, bool(vectors), nvec, bool(full),
                                        panel, st, int(band))

    nvec, st = A.ctx._agree("svd", check)
    s = np.zeros(kk, dtype=REAL_OF[A._c.dt])
    U = V = None
    if vectors:
        U = DistMatrix(A.ctx, m, m if full else nvec, A.dtype, A.nb)
        V = DistMatrix(A.ctx, n, n if full else nvec, A.dtype, A.nb)
    _core.gesvd_mgpu(A.ctx._c, A._c, _addr(s), None if U is None else U._c,
                     None if V is None else V._c, int(nvec), int(panel), -1, int(band), st)
    if not vectors:
        return s
    return U, s, V


def unmbr(A: DistMatrix, tau: Any, C: DistMatrix, vect: str = "Q", trans: str = "N",
          panel: int = 0) -> DistMatrix:
    """C := op(Q) C (vect 'Q', C m x K) or C := op(P) C (vect 'P', C n x K) in place, Q
    and P as gebrd(A) left them in the m x n A and tauq or taup (LAPACK ?unmbr with side
    L; the step from B's singular vectors to A's). trans 'N' or 'C' ('T' for real
    types). C is its own DistMatrix on A's context. Returns C. Collective."""
    _check_dist(A)
    return _apply_reflectors("unmbr", _core.unmbr_mgpu, A, tau, C, "vect", vect, "QP",
                             min(A.shape), "gebrd", trans, panel)


def _apply_reflectors(name, core, A, tau, C, which, letter, letters, tau_len, source, trans,
                      panel):
    """unmtr and unmbr: C := op(Q) C with the reflectors `source` left in A and tau
    (tau_len entries, a NumPy array); `which` (uplo, vect) is one of `letters`. Returns C.
    Collective."""
    _check_dist(A)
    _check_dist(C, "C")

    def check():
        w = option(letter, which, letters)
        op = option(trans, "trans", "NTC")
        ta = describe(tau, "tau")
        check_dtype(ta, A.dtype, "A's dtype")
        vector(ta, tau_len)
        if ta.on_gpu:
            raise BadArgument(f"tau is a NumPy array (as {source} returns it)")
        if C.ctx is not A.ctx:
            raise BadArgument("C must live on A's context")
        return (w, op, ta), lambda: _sig(name, A._c.dt, w, op, A.shape, C.shape, panel)

    w, op, ta = A.ctx._agree(name, check)
    core(A.ctx._c, w, op, A._c, ta.ptr, C._c, int(panel), -1, 0, "A")
    return C


def ormbr(A: DistMatrix, tau: Any, C: DistMatrix, vect: str = "Q", trans: str = "N",
          panel: int = 0) -> DistMatrix:
    """unmbr for real types."""
    _check_dist(A)
    if A.dtype.kind == "c":
        raise BadArgument("ormbr takes a real A; use unmbr for complex matrices")
    return unmbr(A, tau, C, vect, trans, panel)


def _addr(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])
