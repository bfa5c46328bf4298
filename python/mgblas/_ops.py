# SPDX-License-Identifier: BSD-3-Clause
"""The manifest's operations under their C++ and C names (api/operations.py; docs/api.md):
the submatrix (offset) forms, gemm, the batched forms one name each, grouped GEMM, the
per-device batched form, the distributed rank-2k updates, and the reductions' and the
eigen-solver's _mgpu names, the two-stage tridiagonal reduction and the bidiagonal chase.
The shorter Pythonic names of _blas.py (hetrd, gebrd, unmtr, eigh, ...) stay as they
were."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import _mgblas as _core
from ._arrays import (Arr, check_dtype, describe, matrix_orders, option, scalar, vector,
                      zeros_like_kind)
from ._arrays import REAL_OF
from ._blas import (_check_dist, _addr, _hermitian_args, _sig, _single, _stages, _gemm_sizes,
                    _subset,
                    _gemm2d, _operand_vectors, gebrd, eigh, gemm_batched, hetrd, sytrd,
                    tridiag_eigenvalues, tsgemm_mgpu, unmtr, ormtr, svd, unmbr, ormbr,
                    geqrf)
from ._context import Context
from ._dist import DistMatrix, _check_ctx
from ._errors import BadArgument, DimensionMismatch


def _colmajor(Aa: Arr, name: str = "A") -> int:
    """The leading dimension of a column-major (Fortran-order) 2-D array."""
    if Aa.ndim != 2:
        raise DimensionMismatch(f"{name} must be 2-D, not of shape {Aa.shape}")
    orders = matrix_orders(Aa.shape, Aa.strides)
    if "F" not in orders:
        raise BadArgument(f"{name} must be column-major (Fortran order) for the offset forms")
    return orders["F"]


def _offset(v: Any, name: str, hi: int) -> int:
    if not isinstance(v, (int, np.integer)) or not 0 <= v <= hi:
        raise BadArgument(f"{name} = {v!r}: must be an integer in [0, {hi}]")
    return int(v)


# ---- single device: the bulge chase and its Q2 ----------------------------------------

def _band2tri_sizes(n: int, b: int) -> Tuple[int, int]:
    """(entries of V2, entries of tau2) of band_to_tridiag(n, b): kernels/sb2st_kernels.hpp's
    band2tri_v2_size and band2tri_tau2_size (b = 1 has at most 2 tasks a sweep)."""
    if n < 2:
        return 0, 0
    tasks = (n - 2) // b + 1
    return n * (n - 1) // 2, (n - 1) * (min(tasks, 2) if b == 1 else tasks)


def _half_bandwidth(b: Any) -> int:
    if not isinstance(b, (int, np.integer)) or isinstance(b, bool) or b < 1:
        raise BadArgument(f"b = {b!r}: must be an integer >= 1 (the half-bandwidth)")
    return int(b)


def band_to_tridiag(AB: Any, b: int, vectors: bool = False) -> Tuple[Any, ...]:
    """Stage two of the two-stage reduction on one device: the Hermitian (real: symmetric)
    band matrix B of half-bandwidth ``b``, given in LAPACK's lower band storage in the
    column-major AB (``ldab x n``, ldab >= b + 1: AB[i - j, j] = B[i, j]), reduced to the
    real tridiagonal T = Q2^H B Q2. AB is workspace (overwritten). CuPy arrays on their
    GPU, NumPy arrays on a host device. Returns ``(d, e)`` (n and n - 1 entries, of AB's
    real dtype, in AB's memory), with ``vectors=True`` ``(d, e, V2, tau2)``: Q2's
    reflectors for band_to_tridiag_apply_q."""
    ABa = describe(AB, "AB", writable=True)
    ldab = _colmajor(ABa, "AB")
    b = _half_bandwidth(b)
    if not isinstance(vectors, (bool, np.bool_)):
        raise BadArgument(f"vectors = {vectors!r}: must be True or False")
    n = ABa.shape[1]
    real = REAL_OF[ABa.letter]
    d = zeros_like_kind(ABa, (n,), real)
    e = zeros_like_kind(ABa, (max(0, n - 1),), real)
    da, ea = describe(d, "d", writable=True), describe(e, "e", writable=True)
    arrs = [ABa, da, ea]
    v2 = tau2 = None
    if vectors:
        nv, nt = _band2tri_sizes(n, b)
        v2 = zeros_like_kind(ABa, (nv,), ABa.dtype)
        tau2 = zeros_like_kind(ABa, (nt,), ABa.dtype)
        arrs += [describe(v2, "V2", writable=True), describe(tau2, "tau2", writable=True)]
    dev, stream = _single(arrs)
    _core.band_to_tridiag(ABa.letter, dev, stream, n, b, ABa.ptr, ldab, da.ptr,
                          ea.ptr if n > 1 else 0, arrs[3].ptr if vectors and n > 1 else 0,
                          arrs[4].ptr if vectors and n > 1 else 0)
    return (d, e, v2, tau2) if vectors else (d, e)


def band_to_tridiag_apply_q(V2: Any, tau2: Any, C: Any, b: int, trans: str = "N") -> Any:
    """C := op(Q2) C on one device with the Q2 of band_to_tridiag(AB, b, vectors=True)
    given by its V2 and tau2; C column-major, n x m (n the band matrix's order).
    ``trans``: 'N' Q2 C (eigenvectors of T to those of B), 'C' (real: also 'T') Q2^H C.
    CuPy arrays on their GPU, NumPy arrays on a host device. Returns C."""
    Ca = describe(C, "C", writable=True)
    ldc = _colmajor(Ca, "C")
    b = _half_bandwidth(b)
    op = option(trans, "trans", "NTC")
    n, m = Ca.shape
    nv, nt = _band2tri_sizes(n, b)
    va, ta = describe(V2, "V2"), describe(tau2, "tau2")
    for arr, size in ((va, nv), (ta, nt)):
        check_dtype(arr, Ca.dtype, "C's dtype")
        if arr.ndim != 1 or arr.shape[0] < size:
            raise DimensionMismatch(f"{arr.name} has shape {arr.shape}; band_to_tridiag's "
                                    f"(n = {n}, b = {b}) has {size} entries")
        vector(arr, arr.shape[0])
    dev, stream = _single([va, ta, Ca])
    _core.band_to_tridiag_apply_q(Ca.letter, dev, stream, op, n, b, va.ptr if nv else 0,
                                  ta.ptr if nt else 0, m, Ca.ptr, max(1, ldc))
    return C


def band_to_bidiag(AB: Any, b: int, vectors: bool = False) -> Tuple[Any, ...]:
    """Stage two of the two-stage bidiagonal reduction on one device: the upper band
    matrix B with ``b`` superdiagonals, given in LAPACK's upper band storage in the
    column-major AB (``ldab x n``, ldab >= b + 1: AB[b + i - j, j] = B[i, j]), reduced to the
    real upper bidiagonal Q2^H B P2 = bidiag(d, e). AB is read only; a complex B[0, 0] is
    taken as real. CuPy arrays on their GPU, NumPy arrays on a host device. Returns
    ``(d, e)`` (n and n - 1 entries, of AB's real dtype, in AB's memory), with
    ``vectors=True`` ``(d, e, VQ, tauQ, VP, tauP)``: Q2's and P2's reflectors, each pair
    for band_to_tridiag_apply_q(V, tau, C, b)."""
    ABa = describe(AB, "AB")
    ldab = _colmajor(ABa, "AB")
    b = _half_bandwidth(b)
    if not isinstance(vectors, (bool, np.bool_)):
        raise BadArgument(f"vectors = {vectors!r}: must be True or False")
    n = ABa.shape[1]
    real = REAL_OF[ABa.letter]
    d = zeros_like_kind(ABa, (n,), real)
    e = zeros_like_kind(ABa, (max(0, n - 1),), real)
    arrs = [ABa, describe(d, "d", writable=True), describe(e, "e", writable=True)]
    refl = []
    if vectors:
        nv, nt = _band2tri_sizes(n, b)
        refl = [zeros_like_kind(ABa, (size,), ABa.dtype) for size in (nv, nt, nv, nt)]
        arrs += [describe(a, name, writable=True)
                 for a, name in zip(refl, ("VQ", "tauQ", "VP", "tauP"))]
    dev, stream = _single(arrs)
    ptrs = [a.ptr if n > 1 else 0 for a in arrs[3:]] if vectors else [0, 0, 0, 0]
    _core.band_to_bidiag(ABa.letter, dev, stream, n, b, ABa.ptr, ldab, arrs[1].ptr,
                         arrs[2].ptr if n > 1 else 0, *ptrs)
    return (d, e, *refl) if vectors else (d, e)


# ---- single device: submatrix forms -------------------------------------------------

def gemv_offset(A: Any, row_off: int, col_off: int, m: int, n: int, x: Any, trans: str = "N",
                alpha: Any = 1.0, beta: Any = 0.0, y: Any = None) -> Any:
    """gemv on the m x n submatrix of the column-major A at (row_off, col_off), read
    aligned to A itself (faster than a slice at an unaligned offset). Returns y."""
    Aa = describe(A, "A")
    lda = _colmajor(Aa)
    r0 = _offset(row_off, "row_off", Aa.shape[0])
    c0 = _offset(col_off, "col_off", Aa.shape[1])
    m = _offset(m, "m", Aa.shape[0] - r0)
    n = _offset(n, "n", Aa.shape[1] - c0)
    letter = Aa.letter
    op = option(trans, "trans", "NTC")
    a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
    xlen, ylen = (n, m) if op == "N" else (m, n)
    xa, incx, y, ya, incy = _operand_vectors(Aa, Aa.dtype, x, xlen, y, ylen, b)
    dev, stream = _single([Aa, xa, ya])
    _core.gemv_offset(letter, dev, stream, op, m, n, a, Aa.ptr, lda, r0, c0, xa.ptr, incx, b,
                      ya.ptr, incy)
    return y


def _symv_offset(core, A, off, n, x, uplo, alpha, beta, y):
    Aa = describe(A, "A")
    lda = _colmajor(Aa)
    o = _offset(off, "off", min(Aa.shape))
    n = _offset(n, "n", min(Aa.shape) - o)
    letter = Aa.letter
    u = option(uplo, "uplo", "LU")
    a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
    xa, incx, y, ya, incy = _operand_vectors(Aa, Aa.dtype, x, n, y, n, b)
    dev, stream = _single([Aa, xa, ya])
    core(letter, dev, stream, u, n, a, Aa.ptr, lda, o, xa.ptr, incx, b, ya.ptr, incy)
    return y


def symv_offset(A: Any, off: int, n: int, x: Any, uplo: str = "L", alpha: Any = 1.0,
                beta: Any = 0.0, y: Any = None) -> Any:
    """symv on the n x n diagonal submatrix of the column-major A at (off, off)."""
    return _symv_offset(_core.symv_offset, A, off, n, x, uplo, alpha, beta, y)


def hemv_offset(A: Any, off: int, n: int, x: Any, uplo: str = "L", alpha: Any = 1.0,
                beta: Any = 0.0, y: Any = None) -> Any:
    """hemv on the n x n diagonal submatrix of the column-major A at (off, off)."""
    return _symv_offset(_core.hemv_offset, A, off, n, x, uplo, alpha, beta, y)


# ---- single device: GEMM ------------------------------------------------------------

def gemm(A: Any, B: Any, C: Any = None, transa: str = "N", transb: str = "N",
         alpha: Any = 1.0, beta: Any = 0.0) -> Any:
    """C = alpha * op(A) @ op(B) + beta * C on one device (the engine's choice of
    kernel; see tsgemm for where it runs). All three matrices column-major or all
    row-major. Returns C."""
    return _gemm2d(_core.gemm, A, B, C, transa, transb, alpha, beta)


def gemm_batched_strided(A: Any, B: Any, C: Any = None, transa: str = "N", transb: str = "N",
                         alpha: Any = 1.0, beta: Any = 0.0) -> Any:
    """gemm_batched on 3-D arrays (batch, rows, cols) on one device."""
    if isinstance(A, (list, tuple)):
        raise BadArgument("gemm_batched_strided takes 3-D arrays; lists go to gemm_vbatched")
    return gemm_batched(A, B, C, transa, transb, alpha, beta)


def gemm_vbatched(A: Sequence[Any], B: Sequence[Any], C: Optional[Sequence[Any]] = None,
                  transa: str = "N", transb: str = "N", alpha: Any = 1.0,
                  beta: Any = 0.0) -> Any:
    """gemm_batched on lists of 2-D arrays of their own sizes, on one device."""
    if not isinstance(A, (list, tuple)):
        raise BadArgument("gemm_vbatched takes lists of 2-D arrays")
    return gemm_batched(A, B, C, transa, transb, alpha, beta)


def gemm_batched_strided_mgpu(ctx: Context, A: Any, B: Any, C: Any = None, transa: str = "N",
                              transb: str = "N", alpha: Any = 1.0, beta: Any = 0.0) -> Any:
    """gemm_batched_strided split over every device of every rank of ctx; NumPy arrays,
    the whole batch on every rank, all of C on every rank. Collective."""
    _check_ctx(ctx)
    if isinstance(A, (list, tuple)):
        raise BadArgument("the strided forms take 3-D arrays; lists go to the vbatched forms")
    return gemm_batched(A, B, C, transa, transb, alpha, beta, ctx)


def gemm_vbatched_mgpu(ctx: Context, A: Sequence[Any], B: Sequence[Any],
                       C: Optional[Sequence[Any]] = None, transa: str = "N", transb: str = "N",
                       alpha: Any = 1.0, beta: Any = 0.0) -> Any:
    """gemm_vbatched split over every device of every rank of ctx (NumPy arrays, the
    whole batch on every rank). Collective."""
    _check_ctx(ctx)
    if not isinstance(A, (list, tuple)):
        raise BadArgument("gemm_vbatched_mgpu takes lists of 2-D arrays")
    return gemm_batched(A, B, C, transa, transb, alpha, beta, ctx)


def _pointer_array(values: Sequence[int], like: Arr):
    """An int64 array of `values` in the memory of `like`'s device (kept alive by the
    caller until the call is queued)."""
    host = np.asarray(values, dtype=np.int64)
    if not like.on_gpu:
        return host, _addr(host)
    import cupy
    with cupy.cuda.Device(like.device):
        dev = cupy.asarray(host)
    return dev, dev.data.ptr


def _scalars(values: Sequence[complex], dtype: np.dtype) -> np.ndarray:
    return np.asarray([v if dtype.kind == "c" else v.real for v in values], dtype=dtype)


def gemm_grouped(A: Sequence[Sequence[Any]], B: Sequence[Sequence[Any]],
                 C: Sequence[Sequence[Any]], transa: Sequence[str], transb: Sequence[str],
                 alpha: Sequence[Any], beta: Sequence[Any]) -> Sequence[Sequence[Any]]:
    """Groups of GEMMs on one device: group g multiplies the column-major matrices
    A[g][i], B[g][i] into C[g][i] (all of one shape within the group) with its own
    transa[g], transb[g], alpha[g], beta[g]. Returns C."""
    ng = len(A)
    for name, v in (("B", B), ("C", C), ("transa", transa), ("transb", transb),
                    ("alpha", alpha), ("beta", beta)):
        if len(v) != ng:
            raise DimensionMismatch(f"{name} holds {len(v)} groups but A holds {ng}")
    arrs, sizes, lds, ptrs, ops, scal = [], [], [], ([], [], []), ([], []), ([], [])
    letter = None
    for g in range(ng):
        if not (len(A[g]) == len(B[g]) == len(C[g])):
            raise DimensionMismatch(f"group {g}: A, B and C hold different entry counts")
        opa = option(transa[g], f"transa[{g}]", "NTC")
        opb = option(transb[g], f"transb[{g}]", "NTC")
        shape = None
        for i, (a_, b_, c_) in enumerate(zip(A[g], B[g], C[g])):
            Xa = describe(a_, f"A[{g}][{i}]")
            Xb = describe(b_, f"B[{g}][{i}]")
            Xc = describe(c_, f"C[{g}][{i}]", writable=True)
            if letter is None:
                letter, dtype = Xa.letter, Xa.dtype
            for X in (Xa, Xb, Xc):
                check_dtype(X, dtype, "A[0][0]'s dtype")
            mnk = _gemm_sizes(Xa.shape, Xb.shape, Xc.shape, opa, opb)
            ld = tuple(_colmajor(X, X.name) for X in (Xa, Xb, Xc))
            if shape is not None and (mnk, ld) != shape:
                raise DimensionMismatch(f"group {g}: entry {i} has another shape or leading "
                                        "dimension than entry 0")
            shape = (mnk, ld)
            arrs += [Xa, Xb, Xc]
            for p, X in zip(ptrs, (Xa, Xb, Xc)):
                p.append(X.ptr)
        (m, n, k), (lda, ldb, ldc) = shape if shape else ((0, 0, 0), (1, 1, 1))
        sizes.append((m, n, k, len(A[g])))
        lds.append((lda, ldb, ldc))
        ops[0].append(ord(opa))
        ops[1].append(ord(opb))
        if letter is not None:
            scal[0].append(scalar(alpha[g], letter, f"alpha[{g}]"))
            scal[1].append(scalar(beta[g], letter, f"beta[{g}]"))
    if not arrs:
        return C
    dev, stream = _single(arrs)
    host = lambda v, t=np.int64: np.asarray(v, dtype=t)  # noqa: E731
    dtype = arrs[0].dtype
    keep = [host([s[0] for s in sizes]), host([s[1] for s in sizes]), host([s[2] for s in sizes]),
            host([s[3] for s in sizes]), host([x[0] for x in lds]), host([x[1] for x in lds]),
            host([x[2] for x in lds]), host(ops[0], np.uint8), host(ops[1], np.uint8),
            _scalars(scal[0], dtype), _scalars(scal[1], dtype)]
    pa, pb, pc = (_pointer_array(p, arrs[0]) for p in ptrs)
    ms, ns, ks, gs, la, lb, lc, oa, ob, al, be = (_addr(v) for v in keep)
    _core.gemm_grouped(letter, dev, stream, ng, oa, ob, ms, ns, ks, al, pa[1], la, pb[1], lb,
                       be, pc[1], lc, gs)
    return C


def gemm_batched_strided_mgpu_local(ctx: Context, A: Sequence[Any], B: Sequence[Any],
                                    C: Sequence[Any], m: int, n: int, k: int,
                                    transa: str = "N", transb: str = "N", alpha: Any = 1.0,
                                    beta: Any = 0.0, lda: int = 0, ldb: int = 0, ldc: int = 0,
                                    strideA: int = 0, strideB: int = 0, strideC: int = 0,
                                    batch: int = 0) -> Sequence[Any]:
    """Strided batched GEMM on data already split over ctx's local devices: A[d], B[d],
    C[d] are arrays in local device d's memory (CuPy on its GPU, NumPy for a host
    device) holding entry 0 of that device's share, column-major entries of sizes
    m x k, k x n, m x n (op N) at the given leading dimensions and strides (0: packed).
    `batch` is the whole batch over every device of every rank. Collective."""
    _check_ctx(ctx)
    nd = ctx.num_devices
    for name, v in (("A", A), ("B", B), ("C", C)):
        if len(v) != nd:
            raise DimensionMismatch(f"{name} holds {len(v)} arrays but ctx has {nd} local devices")
    opa, opb = option(transa, "transa", "NTC"), option(transb, "transb", "NTC")
    Xs = [[describe(X, f"{nm}[{d}]", writable=(nm == "C")) for d, X in enumerate(v)]
          for nm, v in (("A", A), ("B", B), ("C", C))]
    letter = Xs[0][0].letter
    a, b = scalar(alpha, letter, "alpha"), scalar(beta, letter, "beta")
    ra, ca = (m, k) if opa == "N" else (k, m)
    rb, cb = (k, n) if opb == "N" else (n, k)
    lda, ldb, ldc = lda or max(1, ra), ldb or max(1, rb), ldc or max(1, m)
    strideA, strideB, strideC = strideA or lda * ca, strideB or ldb * cb, strideC or ldc * n
    _core.gemm_batched_strided_mgpu_local(
        ctx._c, letter, opa, opb, m, n, k, a, [X.ptr for X in Xs[0]], lda, strideA,
        [X.ptr for X in Xs[1]], ldb, strideB, b, [X.ptr for X in Xs[2]], ldc, strideC, batch)
    return C


# ---- distributed rank-2k updates ----------------------------------------------------

def _rank2k(name, core, C, A, B, uplo, alpha, beta, real_beta):
    _check_dist(C, "C")

    def check():
        u = option(uplo, "uplo", "LU")
        n = C.shape[0]
        if C.shape[1] != n:
            raise DimensionMismatch(f"{name}: C is {C.shape} but must be square")
        letter = C._c.dt
        Aa, Ba = describe(A, "A"), describe(B, "B")
        for X in (Aa, Ba):
            check_dtype(X, C.dtype, "C's dtype")
            if X.on_gpu:
                raise BadArgument(f"{X.name} is a NumPy array (the same on every rank)")
            if X.ndim != 2 or X.shape[0] != n:
                raise DimensionMismatch(f"{X.name} has shape {X.shape} but must be {n} x k")
        if Aa.shape != Ba.shape:
            raise DimensionMismatch(f"A is {Aa.shape} but B is {Ba.shape}")
        k = Aa.shape[1]
        a = scalar(alpha, letter, "alpha")
        b = scalar(beta, letter, "beta")
        if real_beta and b.imag != 0:
            raise BadArgument(f"beta = {beta!r}: {name} takes a real beta")
        Af = Aa.obj if "F" in matrix_orders(Aa.shape, Aa.strides) else np.asfortranarray(Aa.obj)
        Bf = Ba.obj if "F" in matrix_orders(Ba.shape, Ba.strides) else np.asfortranarray(Ba.obj)
        return (u, k, a, b, Af, Bf), lambda: _sig(name, letter, u, n, k, a, b)

    u, k, a, b, Af, Bf = C.ctx._agree(name, check)
    n = C.shape[0]
    core(C.ctx._c, u, k, a, _addr(Af), max(1, n), _addr(Bf), max(1, n),
         b.real if real_beta else b, C._c)
    return C


def her2k_mgpu(C: DistMatrix, A: Any, B: Any, uplo: str = "L", alpha: Any = 1.0,
               beta: Any = 1.0) -> DistMatrix:
    """C = alpha A B^H + conj(alpha) B A^H + beta C on the uplo triangle of the n x n
    DistMatrix C; A, B n x k NumPy arrays, the same on every rank; beta real. Returns C.
    Collective."""
    return _rank2k("her2k_mgpu", _core.her2k_mgpu, C, A, B, uplo, alpha, beta, True)


def syr2k_mgpu(C: DistMatrix, A: Any, B: Any, uplo: str = "L", alpha: Any = 1.0,
               beta: Any = 1.0) -> DistMatrix:
    """C = alpha A B^T + alpha B A^T + beta C on the uplo triangle of C (complex
    symmetric for complex dtypes). Returns C. Collective."""
    return _rank2k("syr2k_mgpu", _core.syr2k_mgpu, C, A, B, uplo, alpha, beta, False)


# ---- the reductions under their _mgpu names -----------------------------------------

hetrd_mgpu = hetrd
sytrd_mgpu = sytrd
gebrd_mgpu = gebrd
unmtr_mgpu = unmtr
ormtr_mgpu = ormtr
unmbr_mgpu = unmbr
ormbr_mgpu = ormbr
gesvd_mgpu = svd
geqrf_mgpu = geqrf
tridiag_eigenvalues_mgpu = tridiag_eigenvalues
heevd_mgpu = eigh


def tridiag_eigenvectors_mgpu(d: Any, e: Any, Z: DistMatrix, subset_by_index: Any = None,
                              subset_by_value: Any = None) -> np.ndarray:
    """Eigenpairs of the real symmetric tridiagonal matrix with diagonal d (n) and
    off-diagonal e (n - 1) (NumPy arrays of Z's real dtype, the same on every rank): the
    m selected eigenvalues, ascending, are returned (the same on every rank) and their
    eigenvectors written to Z's columns 0..m-1 (Z an n x K DistMatrix, K >= n, or K >=
    iu - il + 1 for ``subset_by_index``; a complex Z receives real vectors; its other
    columns are left alone). Subsets as eigh's. Collective."""
    _check_dist(Z, "Z")

    def check():
        real = REAL_OF[Z._c.dt]
        da, ea = describe(d, "d"), describe(e, "e")
        check_dtype(da, real, "Z's real dtype")
        check_dtype(ea, real, "Z's real dtype")
        n = da.shape[0] if da.ndim == 1 else -1
        vector(da, n)
        vector(ea, max(0, n - 1))
        if da.on_gpu or ea.on_gpu:
            raise BadArgument("d and e are NumPy arrays (the same on every rank)")
        sub = _subset(subset_by_index, subset_by_value, n)
        return (da, ea, n, sub), lambda: _sig("tridiag_eigenvectors_mgpu", Z._c.dt, n, *sub)

    da, ea, n, (kind, vl, vu, il, iu, _) = Z.ctx._agree("tridiag_eigenvectors_mgpu", check)
    w = np.zeros(max(n, 1), dtype=REAL_OF[Z._c.dt])
    count = np.zeros(1, dtype=np.int64)
    _core.tridiag_eigenvectors_mgpu(Z.ctx._c, n, da.ptr, ea.ptr if n > 1 else 0, kind, vl, vu,
                                    il, iu, _addr(count), _addr(w), Z._c)
    return w[:int(count[0])].copy()


def _band_width(band: Any, name: str, minimum: int) -> int:
    if not isinstance(band, (int, np.integer)) or isinstance(band, bool) or band < minimum:
        raise BadArgument(f"{name} = {band!r}: must be an integer >= {minimum}")
    return int(band)


def hetrd_band_mgpu(A: DistMatrix, band: int, uplo: str = "L",
                    band_storage: bool = True) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """Stage one of the two-stage tridiagonal reduction (LAPACK ?sytrd_sy2sb /
    ?hetrd_he2hb): A = Q1 B Q1^H with B Hermitian (real: symmetric) of half-bandwidth
    ``band`` (1..128, a divisor of A.nb), in place: B's band and Q1's reflectors
    overwrite the ``uplo`` triangle of A (dist/lapack/hetrd_2stage_mgpu.hpp says where).

    Returns ``(tau, AB)``, the same on every rank: the reflectors' scalars (n - band of
    them, A's dtype) and, with ``band_storage`` (default), B in LAPACK's lower band
    storage, a (band + 1) x n Fortran-ordered array with ``AB[i - j, j] = B[i, j]`` for
    j <= i <= min(n - 1, j + band) (the input of a bulge chase, e.g. LAPACK's ?hbtrd);
    None without. Collective."""
    _check_dist(A)

    def check():
        u, n = _hermitian_args("hetrd_band_mgpu", A, uplo, 0)
        b = _band_width(band, "band", 1)
        if not isinstance(band_storage, (bool, np.bool_)):
            raise BadArgument(f"band_storage = {band_storage!r}: must be True or False")
        return (u, n, b), lambda: _sig("hetrd_band_mgpu", A._c.dt, u, n, b, bool(band_storage))

    u, n, b = A.ctx._agree("hetrd_band_mgpu", check)
    tau = np.zeros(max(0, n - b), dtype=A.dtype)
    AB = np.zeros((b + 1, n), dtype=A.dtype, order="F") if band_storage else None
    _core.hetrd_band_mgpu(A.ctx._c, u, A._c, b, _addr(tau), 0 if AB is None else _addr(AB),
                          b + 1, 0, -1, 0, "A")
    return tau, AB


def hetrd_2stage_mgpu(A: DistMatrix, uplo: str = "L",
                      band: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    """The tridiagonal form T = Q^H A Q of the Hermitian (real: symmetric) A by the
    two-stage reduction (LAPACK ?sytrd_2stage / ?hetrd_2stage without Q): dense to band
    over every device (hetrd_band_mgpu), then the bulge chase. Returns ``(d, e)``, T's
    diagonal (n) and off-diagonal (n - 1), real, the same on every rank. A is
    overwritten with stage one's reflectors; Q is not kept. ``band``: the half-bandwidth
    of stage one, a divisor of A.nb of at most 128 (0 picks the largest divisor <= 32).
    Collective."""
    _check_dist(A)

    def check():
        u, n = _hermitian_args("hetrd_2stage_mgpu", A, uplo, 0)
        b = _band_width(band, "band", 0)
        return (u, n, b), lambda: _sig("hetrd_2stage_mgpu", A._c.dt, u, n, b)

    u, n, b = A.ctx._agree("hetrd_2stage_mgpu", check)
    real = REAL_OF[A._c.dt]
    d = np.zeros(n, dtype=real)
    e = np.zeros(max(0, n - 1), dtype=real)
    _core.hetrd_2stage_mgpu(A.ctx._c, u, A._c, _addr(d), _addr(e), 0, -1, b, "A")
    return d, e


def _entry_2d_checks(ctx: Context, a: Any, dtype: Any, descs: Any) -> np.dtype:
    """What the ScaLAPACK-shaped solvers (heevd_2d, gesvd_2d) check alike: A's precision
    (``dtype``, else ``a``'s) and that every given descriptor's grid fits in the ranks
    (``descs``: (descriptor or None, its name) pairs)."""
    from ._arrays import LETTER
    if dtype is not None:
        dt = np.dtype(dtype)
    elif a is not None:
        dt = describe(a, "a").dtype
    else:
        raise BadArgument("a is None: pass dtype= (the precision of A) on a rank that "
                          "holds none of A")
    if dt not in LETTER:
        raise BadArgument(f"dtype {dt}: must be float32, float64, complex64 or complex128")
    for d, name in descs:
        if d is not None and d.grid_size > ctx.size:
            raise BadArgument(f"{name}'s grid is {d.nprow} x {d.npcol} = {d.grid_size} "
                              f"processes but the context has {ctx.size} rank(s): the grid "
                              "must fit in the ranks")
    return dt


def heevd_2d(ctx: Context, desca: Any, a: Any, descz: Any = None, z: Any = None,
             uplo: str = "L", subset_by_index: Any = None, subset_by_value: Any = None,
             dtype: Any = None, panel: int = 0, stages: Any = "A") -> np.ndarray:
    """The eigen-solver on ScaLAPACK-style 2-D block-cyclic local arrays (ScaLAPACK's
    p?heevd / p?syevd shape, with eigh's subsets): eigenvalues and, where ``descz`` is
    given, eigenvectors of the n x n Hermitian (real: symmetric) A whose ``uplo``
    triangle is read.

    ``desca`` is A's :class:`BlockCyclic2D` (n x n, the same on every rank) and ``a`` this
    rank's local array (a NumPy array of shape ``desca.local_shape(ctx.rank)``, or a
    padded (lld, LOCc) one; None where the rank holds nothing); it is only read. With
    ``descz`` (Z's layout, n x K with K >= n, or K >= iu - il + 1 for subset_by_index;
    its own blocks and grid, the same on every rank), ``z`` is this rank's local array of
    Z, a writable Fortran-ordered NumPy array of A's dtype: Z's columns 0..m-1 receive the
    eigenvectors (column j that of ``w[j]``), the rest is left alone. ``dtype``: the
    precision where ``a`` is None (otherwise ``a``'s). ``panel`` and ``stages`` as for
    :func:`eigh`.

    Returns ``w``, the m selected eigenvalues ascending, the same on every rank.
    Collective: A and Z move to and from the context's devices by all-to-alls, never
    through one rank."""
    _check_ctx(ctx)
    from ._arrays import LETTER, REAL_OF
    from ._dist import _local_2d
    from ._layout2d import BlockCyclic2D
    from ._blas import _subset

    def check():
        if not isinstance(desca, BlockCyclic2D):
            raise BadArgument(f"desca must be an mgblas.BlockCyclic2D, not {type(desca).__name__}")
        if descz is not None and not isinstance(descz, BlockCyclic2D):
            raise BadArgument(f"descz must be an mgblas.BlockCyclic2D or None, not "
                              f"{type(descz).__name__}")
        u = option(uplo, "uplo", "LU")
        if not isinstance(panel, (int, np.integer)) or panel < 0:
            raise BadArgument(f"panel = {panel!r}: must be an integer >= 0")
        dt = _entry_2d_checks(ctx, a, dtype, ((desca, "desca"), (descz, "descz")))
        n = desca.m
        sub = _subset(subset_by_index, subset_by_value, n)
        st = _stages(stages)
        keep_a, pa, lda = _local_2d(desca, a, ctx.rank, dt, False, "a", "desca")
        keep_z, pz, ldz = (_local_2d(descz, z, ctx.rank, dt, True, "z", "descz")
                           if descz is not None else (None, 0, 1))
        return (u, n, dt, sub, st, (keep_a, pa, lda), (keep_z, pz, ldz)), \
            lambda: _sig("heevd_2d", LETTER[dt], u, repr(desca), repr(descz), *sub, panel, st)

    u, n, dt, (kind, vl, vu, il, iu, _), st, (_ka, pa, lda), (_kz, pz, ldz) = \
        ctx._agree("heevd_2d", check)  # _ka, _kz: Fortran copies, alive till done
    w = np.zeros(max(n, 1), dtype=REAL_OF[LETTER[dt]])
    count = np.zeros(1, dtype=np.int64)
    _core.heevd_2d(ctx._c, LETTER[dt], u, desca._c, pa, lda, kind, vl, vu, il, iu,
                   _addr(count), _addr(w), None if descz is None else descz._c, pz, ldz,
                   int(panel), -1, 0, st)
    return w[:int(count[0])].copy()


syevd_2d = heevd_2d


def gesvd_2d(ctx: Context, desca: Any, a: Any, descu: Any = None, u: Any = None,
             descv: Any = None, v: Any = None, k: Optional[int] = None, dtype: Any = None,
             panel: int = 0, stages: Any = "A", band: int = 0) -> np.ndarray:
    """The SVD on ScaLAPACK-style 2-D block-cyclic local arrays, ScaLAPACK's p?gesvd shape
    with V in place of VT: A V = U diag(s).

    ``desca`` is A's :class:`BlockCyclic2D` (m x n, any m and n; the same on every rank)
    and ``a`` this rank's local array, as for :func:`heevd_2d`; it is only read. With
    ``descu`` (U's layout, m x KU, KU >= k; its own blocks and grid) ``u`` is this rank's
    local array of U, a writable Fortran-ordered NumPy array of A's dtype: its first k
    columns receive the left singular vectors of the k largest singular values (``k=None``:
    all min(m, n); with KU = m and all of them, the full U). ``descv`` and ``v`` likewise
    for V (n x KV): the right singular vectors, V itself, not NumPy's Vh. Other columns
    are left alone. ``dtype``: the precision where ``a`` is None. ``panel``, ``stages``
    and ``band`` as for :func:`svd`.

    Returns ``s``, all min(m, n) singular values descending, the same on every rank.
    Collective: A, U and V move to and from the context's devices by all-to-alls, never
    through one rank."""
    _check_ctx(ctx)
    from ._arrays import LETTER
    from ._dist import _local_2d
    from ._layout2d import BlockCyclic2D
    m, n = (desca.m, desca.n) if isinstance(desca, BlockCyclic2D) else (0, 0)
    kk = min(m, n)

    def check():
        if not isinstance(desca, BlockCyclic2D):
            raise BadArgument(f"desca must be an mgblas.BlockCyclic2D, not {type(desca).__name__}")
        for d, name in ((descu, "descu"), (descv, "descv")):
            if d is not None and not isinstance(d, BlockCyclic2D):
                raise BadArgument(f"{name} must be an mgblas.BlockCyclic2D or None, not "
                                  f"{type(d).__name__}")
        if k is not None and (not isinstance(k, (int, np.integer)) or isinstance(k, bool)
                              or not 0 <= k <= kk):
            raise BadArgument(f"k = {k!r}: must be None or an integer in [0, min(m, n) = {kk}]")
        if not isinstance(panel, (int, np.integer)) or isinstance(panel, bool) or panel < 0:
            raise BadArgument(f"panel = {panel!r}: must be an integer >= 0")
        if not isinstance(band, (int, np.integer)) or isinstance(band, bool) or band < 0:
            raise BadArgument(f"band = {band!r}: must be an integer >= 0")
        dt = _entry_2d_checks(ctx, a, dtype,
                              ((desca, "desca"), (descu, "descu"), (descv, "descv")))
        st = _stages(stages)
        nvec = kk if k is None else int(k)
        keep_a, pa, lda = _local_2d(desca, a, ctx.rank, dt, False, "a", "desca")
        keep_u, pu, ldu = (_local_2d(descu, u, ctx.rank, dt, True, "u", "descu")
                           if descu is not None else (None, 0, 1))
        keep_v, pv, ldv = (_local_2d(descv, v, ctx.rank, dt, True, "v", "descv")
                           if descv is not None else (None, 0, 1))
        return (dt, nvec, st, (keep_a, pa, lda), (keep_u, pu, ldu), (keep_v, pv, ldv)), \
            lambda: _sig("gesvd_2d", LETTER[dt], repr(desca), repr(descu), repr(descv), nvec,
                         panel, st, int(band))

    dt, nvec, st, (_ka, pa, lda), (_ku, pu, ldu), (_kv, pv, ldv) = \
        ctx._agree("gesvd_2d", check)  # _ka, _ku, _kv: Fortran copies, alive till done
    s = np.zeros(max(kk, 1), dtype=REAL_OF[LETTER[dt]])
    _core.gesvd_2d(ctx._c, LETTER[dt], desca._c, pa, lda, _addr(s),
                   None if descu is None else descu._c, pu, ldu,
                   None if descv is None else descv._c, pv, ldv, int(nvec), int(panel), -1,
                   int(band), st)
    return s[:kk].copy()


def _reduction_2d_args(ctx: Context, name: str, desca: Any, a: Any, dtype: Any,
                       panel: Any) -> Tuple[np.dtype, Tuple[Any, int, int]]:
    """The local checks of hetrd_2d / gebrd_2d: A's precision and its local array
    (written in place: Fortran-ordered, writable), (keep-alive, address, lld)."""
    from ._arrays import LETTER
    from ._dist import _local_2d
    from ._layout2d import BlockCyclic2D
    if not isinstance(desca, BlockCyclic2D):
        raise BadArgument(f"desca must be an mgblas.BlockCyclic2D, not {type(desca).__name__}")
    if not isinstance(panel, (int, np.integer)) or isinstance(panel, bool) or panel < 0:
        raise BadArgument(f"panel = {panel!r}: must be an integer >= 0")
    if dtype is not None:
        dt = np.dtype(dtype)
    elif a is not None:
        dt = describe(a, "a").dtype
    else:
        raise BadArgument(f"{name}: a is None: pass dtype= (the precision of A) on a rank "
                          "that holds none of A")
    if dt not in LETTER:
        raise BadArgument(f"dtype {dt}: must be float32, float64, complex64 or complex128")
    if desca.grid_size > ctx.size:
        raise BadArgument(f"desca's grid is {desca.nprow} x {desca.npcol} = {desca.grid_size} "
                          f"processes but the context has {ctx.size} rank(s): the grid must "
                          "fit in the ranks")
    return dt, _local_2d(desca, a, ctx.rank, dt, True, "a", "desca")


def hetrd_2d(ctx: Context, desca: Any, a: Any, uplo: str = "L", dtype: Any = None,
             panel: int = 0) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tridiagonal reduction T = Q^H A Q (real: Q^T A Q) on ScaLAPACK-style 2-D
    block-cyclic local arrays, ScaLAPACK's p?hetrd / p?sytrd shape.

    ``desca`` is A's :class:`BlockCyclic2D` (n x n, the same on every rank) and ``a`` this
    rank's local array, a writable Fortran-ordered NumPy array of shape
    ``desca.local_shape(ctx.rank)`` or a padded (lld, LOCc) one (None where the rank
    holds nothing; then ``dtype`` gives the precision). Its ``uplo`` triangle is read and,
    in place, overwritten as p?sytrd (and LAPACK's ?sytrd) leaves it: T's diagonal and
    off-diagonal, the reflectors beyond them; the other triangle keeps its values.
    ``panel``: hetrd's panel width (0 picks one).

    Returns ``(d, e, tau)``, the same on every rank (p?sytrd leaves them distributed over
    the process columns): T's diagonal (n) and off-diagonal (n - 1, real) and the
    reflectors' scalars (n - 1), numbered as LAPACK numbers them. Collective: A moves to
    and from the context's devices by all-to-alls, never through one rank."""
    _check_ctx(ctx)
    from ._arrays import LETTER

    def check():
        u = option(uplo, "uplo", "LU")
        dt, local = _reduction_2d_args(ctx, "hetrd_2d", desca, a, dtype, panel)
        if desca.m != desca.n:
            raise DimensionMismatch(f"hetrd_2d: desca is {desca.m} x {desca.n} but must be "
                                    "square")
        return (u, dt, local), lambda: _sig("hetrd_2d", LETTER[dt], u, repr(desca), panel)

    u, dt, (_ka, pa, lda) = ctx._agree("hetrd_2d", check)  # _ka: alive till done
    n = desca.m
    real = REAL_OF[LETTER[dt]]
    d = np.zeros(n, dtype=real)
    e = np.zeros(max(0, n - 1), dtype=real)
    tau = np.zeros(max(0, n - 1), dtype=dt)
    _core.hetrd_2d(ctx._c, LETTER[dt], u, desca._c, pa, lda, _addr(d), _addr(e), _addr(tau),
                   int(panel), -1, 0, "A")
    return d, e, tau


sytrd_2d = hetrd_2d


def gebrd_2d(ctx: Context, desca: Any, a: Any, dtype: Any = None, panel: int = 0,
             one_pass: Optional[bool] = None
             ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The bidiagonal reduction B = Q^H A P (real: Q^T A P) on ScaLAPACK-style 2-D
    block-cyclic local arrays, ScaLAPACK's p?gebrd shape.

    ``desca`` is A's :class:`BlockCyclic2D` (m x n, any m and n; the same on every rank)
    and ``a`` this rank's local array, as for :func:`hetrd_2d`. In place, ``a`` is
    overwritten as p?gebrd (and LAPACK's ?gebrd) leaves it: B on the diagonal and the
    first superdiagonal (m >= n) or subdiagonal (m < n), Q's reflectors below, P's above.
    ``panel`` and ``one_pass`` as for :func:`gebrd`.

    Returns ``(d, e, tauq, taup)``, the same on every rank: B's diagonal (k = min(m, n))
    and off-diagonal (k - 1, real) and the scalars of Q's and P's reflectors (k each).
    Collective."""
    _check_ctx(ctx)
    from ._arrays import LETTER
    from ._blas import _pass_mode

    def check():
        if one_pass is not None and not isinstance(one_pass, (bool, np.bool_)):
            raise BadArgument(f"one_pass = {one_pass!r}: must be True, False or None")
        dt, local = _reduction_2d_args(ctx, "gebrd_2d", desca, a, dtype, panel)
        return (dt, local), lambda: _sig("gebrd_2d", LETTER[dt], repr(desca), panel,
                                         _pass_mode(one_pass))

    dt, (_ka, pa, lda) = ctx._agree("gebrd_2d", check)  # _ka: alive till done
    k = min(desca.m, desca.n)
    real = REAL_OF[LETTER[dt]]
    d = np.zeros(k, dtype=real)
    e = np.zeros(max(0, k - 1), dtype=real)
    tauq = np.zeros(k, dtype=dt)
    taup = np.zeros(k, dtype=dt)
    _core.gebrd_2d(ctx._c, LETTER[dt], desca._c, pa, lda, _addr(d), _addr(e), _addr(tauq),
                   _addr(taup), int(panel), _pass_mode(one_pass), 0, "A")
    return d, e, tauq, taup


def tsgemm_mgpu_ksplit(A: Any, B: Any, C: Any = None, transa: str = "T", alpha: Any = 1.0,
                       beta: Any = 0.0) -> Any:
    """The k-split form of tsgemm_mgpu: C = alpha op(A) @ B + beta C, A and B
    RowTiledMatrix tiled alike along k, C a NumPy array on every rank. Collective."""
    from ._dist import RowTiledMatrix
    if not isinstance(B, RowTiledMatrix):
        raise BadArgument(f"B must be an mgblas.RowTiledMatrix, not {type(B).__name__}")
    return tsgemm_mgpu(A, B, C, transa=transa, alpha=alpha, beta=beta)
