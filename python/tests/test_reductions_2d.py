# SPDX-License-Identifier: BSD-3-Clause
"""mgblas.hetrd_2d / sytrd_2d and gebrd_2d: the reductions on ScaLAPACK-style 2-D
block-cyclic local arrays. Every rank cuts its local arrays of one random matrix (the same
seed on every rank) by BlockCyclic2D's index functions; the reduced arrays, gathered from
the ranks, are checked against their definition with the reflectors formed here as LAPACK
stores them: A = Q T Q^H (A = Q B P^H) and Q^H Q = I under 30 (LAPACK's threshold), d and
e in the array where LAPACK keeps them, the other triangle (hetrd) and the padding rows
left alone. Grids of every shape that fits (a rank outside a 1 x 1 grid passing None),
both triangles, tall and wide matrices. Then bad arguments, raising on every rank."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, hi, random, symmetric
from test_heevd_2d import gather, grids, local_of


def reflector(n, tau, v):
    """I - tau v v^H (n x n, double precision)."""
    return np.eye(n, dtype=np.complex128) - tau * np.outer(v, v.conj())


def tridiagonal_errors(A, R, d, e, tau, uplo, dtype):
    """(||A - Q T Q^H||_1 / (n ||A||_1 eps), ||I - Q^H Q||_1 / (n eps)) of hetrd's output R
    (the gathered array), eps of `dtype`: Q from R's reflectors (LAPACK's ?hetrd storage:
    Lower, H(i) has v(i+1) = 1, v(i+2:) in R(i+2:, i), Q = H(0) ... H(n-2); Upper, v(i) = 1,
    v(:i) in R(:i, i+1), Q = H(n-2) ... H(0))."""
    n = A.shape[0]
    Q = np.eye(n, dtype=np.complex128)
    for i in range(n - 1):
        v = np.zeros(n, dtype=np.complex128)
        if uplo == "L":
            v[i + 1] = 1
            v[i + 2:] = R[i + 2:, i]
            Q = Q @ reflector(n, tau[i], v)
        else:
            v[i] = 1
            v[:i] = R[:i, i + 1]
            Q = reflector(n, tau[i], v) @ Q
    T = np.diag(hi(d)).astype(np.complex128)
    T += np.diag(hi(e), -1) + np.diag(hi(e), 1)
    ep = eps(dtype)
    anorm = max(np.linalg.norm(hi(A), 1), 1e-300)
    res = np.linalg.norm(hi(A) - Q @ T @ Q.conj().T, 1) / (n * anorm * ep)
    orth = np.linalg.norm(np.eye(n) - Q.conj().T @ Q, 1) / (n * ep)
    return res, orth


def bidiagonal_errors(A, R, d, e, tauq, taup, dtype):
    """(||A - Q B P^H||_1 / (max(m, n) ||A||_1 eps), both orthogonalities / (max(m, n)
    eps)), eps of `dtype`, of gebrd's output R (the gathered array), the reflectors as
    LAPACK's ?gebrd stores them: m >= n, H(i) has v(i) = 1, v(i+1:) in R(i+1:, i), G(i)
    has u(i+1) = 1, u(i+2:) conjugated in R(i, i+2:); m < n, v(i+1) = 1, v(i+2:) in
    R(i+2:, i), u(i) = 1, u(i+1:) conjugated in R(i, i+1:); Q = H(0) H(1) ...,
    P = G(0) G(1) ..."""
    m, n = A.shape
    k = min(m, n)
    Q, P = np.eye(m, dtype=np.complex128), np.eye(n, dtype=np.complex128)
    upper = m >= n
    for i in range(k):
        s = 0 if upper else 1  # the column reflectors start at row i + s
        if i + s < m:
            v = np.zeros(m, dtype=np.complex128)
            v[i + s] = 1
            v[i + s + 1:] = R[i + s + 1:, i]
            Q = Q @ reflector(m, tauq[i], v)
        t = 1 if upper else 0  # the row reflectors at column i + t
        if i + t < n:
            u = np.zeros(n, dtype=np.complex128)
            u[i + t] = 1
            u[i + t + 1:] = R[i, i + t + 1:].conj()
            P = P @ reflector(n, taup[i], u)
    B = np.zeros((m, n), dtype=np.complex128)
    B[range(k), range(k)] = hi(d)
    if upper:
        B[range(k - 1), range(1, k)] = hi(e)
    else:
        B[range(1, k), range(k - 1)] = hi(e)
    ep, big = eps(dtype), max(m, n)
    anorm = max(np.linalg.norm(hi(A), 1), 1e-300)
    res = np.linalg.norm(hi(A) - Q @ B @ P.conj().T, 1) / (big * anorm * ep)
    orth = max(np.linalg.norm(np.eye(m) - Q.conj().T @ Q, 1),
               np.linalg.norm(np.eye(n) - P.conj().T @ P, 1)) / (big * ep)
    return res, orth


@pytest.mark.parametrize("dtype", DTYPES)
def test_hetrd_2d_every_grid(ctx, rng, dtype):
    n = 29
    A = symmetric(rng, n, dtype, hermitian=True)
    for nprow, npcol, order in grids(ctx.size):
        for uplo in "LU":
            what = f"grid {nprow}x{npcol}{order} uplo {uplo}"
            desca = mgblas.BlockCyclic2D(n, n, 4, 3, nprow, npcol, nprow - 1, 0, order)
            other = np.triu(np.ones((n, n), dtype=bool), 1) if uplo == "L" else \
                np.tril(np.ones((n, n), dtype=bool), -1)
            a = local_of(desca, np.where(other, np.nan, A).astype(dtype), ctx.rank, pad=1,
                         fill=-9)
            reduce = mgblas.sytrd_2d if np.dtype(dtype).kind == "f" else mgblas.hetrd_2d
            d, e, tau = reduce(ctx, desca, a, uplo=uplo, dtype=dtype)
            assert d.shape == (n,) and e.shape == (n - 1,) and tau.shape == (n - 1,), what
            assert d.dtype == np.finfo(dtype).dtype and tau.dtype == np.dtype(dtype), what
            R = gather(ctx, desca, a, dtype)
            assert np.all(np.isnan(R[other])), f"{what}: the other triangle written"
            np.testing.assert_array_equal(np.diag(R).real, d, err_msg=f"{what}: d not in a")
            off = np.diag(R, -1 if uplo == "L" else 1).real
            np.testing.assert_array_equal(off, e, err_msg=f"{what}: e not in a")
            res, orth = tridiagonal_errors(A, R, d, e, tau, uplo, dtype)
            assert res < 30 and orth < 30, \
                f"{what}: residual {res:.1f}, orthogonality {orth:.1f}"
            if a is not None:
                assert np.all(a[-1, :] == -9), f"{what}: a's padding row written"


@pytest.mark.parametrize("dtype", DTYPES)
def test_gebrd_2d_shapes(ctx, rng, dtype):
    for m, n in [(31, 17), (17, 31), (12, 12)]:
        A = random(rng, (m, n), dtype)
        for nprow, npcol, order in grids(ctx.size):
            what = f"{m} x {n}, grid {nprow}x{npcol}{order}"
            desca = mgblas.BlockCyclic2D(m, n, 5, 3, nprow, npcol, 0, npcol - 1, order)
            a = local_of(desca, A, ctx.rank, pad=2, fill=-7)
            d, e, tauq, taup = mgblas.gebrd_2d(ctx, desca, a, dtype=dtype,
                                               one_pass=bool(m % 2))
            k = min(m, n)
            assert d.shape == (k,) and e.shape == (k - 1,) and taup.shape == (k,), what
            R = gather(ctx, desca, a, dtype)
            np.testing.assert_array_equal(np.diag(R).real, d, err_msg=f"{what}: d not in a")
            off = np.diag(R, 1 if m >= n else -1).real
            np.testing.assert_array_equal(off, e, err_msg=f"{what}: e not in a")
            res, orth = bidiagonal_errors(A, R, d, e, tauq, taup, dtype)
            assert res < 30 and orth < 30, \
                f"{what}: residual {res:.1f}, orthogonality {orth:.1f}"
            if a is not None:
                assert np.all(a[-2:, :] == -7), f"{what}: a's padding rows written"


def test_reductions_2d_bad_arguments(ctx, rng):
    n = 12
    A = symmetric(rng, n, np.float64)
    desc = mgblas.BlockCyclic2D(n, n, 4, 4, 1, ctx.size)
    a = local_of(desc, A, ctx.rank)
    a0 = None if a is None else a.copy()
    with pytest.raises(mgblas.BadArgument, match="desca"):
        mgblas.hetrd_2d(ctx, "desc", a)
    with pytest.raises(mgblas.BadArgument, match="uplo"):
        mgblas.hetrd_2d(ctx, desc, a, uplo="X")
    with pytest.raises(mgblas.BadArgument, match="panel"):
        mgblas.hetrd_2d(ctx, desc, a, panel=-1)
    with pytest.raises(mgblas.BadArgument, match="panel"):  # not a divisor of the devices' nb
        mgblas.hetrd_2d(ctx, desc, a, panel=7)
    with pytest.raises(mgblas.BadArgument, match="grid"):
        mgblas.hetrd_2d(ctx, mgblas.BlockCyclic2D(n, n, 4, 4, 1, ctx.size + 1), a)
    rect = mgblas.BlockCyclic2D(n, n + 1, 4, 4, 1, ctx.size)
    with pytest.raises(mgblas.DimensionMismatch, match="square"):
        mgblas.hetrd_2d(ctx, rect, local_of(rect, np.zeros((n, n + 1)), ctx.rank),
                        dtype=np.float64)
    with pytest.raises(mgblas.BadArgument, match="one_pass"):
        mgblas.gebrd_2d(ctx, desc, a, one_pass="yes")
    # a is written in place: a C-ordered or read-only one is refused.
    if a is not None and a.shape[0] > 1 and a.shape[1] > 1:
        with pytest.raises(mgblas.BadArgument, match="column-major"):
            mgblas.hetrd_2d(ctx, desc, np.ascontiguousarray(a))
        ro = a.copy(order="F")
        ro.flags.writeable = False
        with pytest.raises(mgblas.BadArgument):
            mgblas.gebrd_2d(ctx, desc, ro)
    # One rank's bad local array: its error there, RemoteError on the others.
    last = ctx.size - 1
    bad = np.zeros((1, 1), order="F") if ctx.rank == last else a
    with pytest.raises((mgblas.DimensionMismatch, mgblas.RemoteError)):
        mgblas.gebrd_2d(ctx, desc, bad, dtype=np.float64)
    if a is not None:
        np.testing.assert_array_equal(a, a0, err_msg="a changed by a call that raised")
