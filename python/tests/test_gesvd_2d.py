# SPDX-License-Identifier: BSD-3-Clause
"""mgblas.gesvd_2d: the SVD on ScaLAPACK-style 2-D block-cyclic local arrays. Every rank
cuts its local arrays of one random matrix (the same seed on every rank) by
BlockCyclic2D's index functions; the singular values are checked against NumPy's, and U
and V, gathered from the ranks' local arrays, by A V = U diag(s), U^H U = I and V^H V = I
(under 30, LAPACK's threshold). Tall, wide and square A on every grid that fits, U and V
on their own blocks, some vectors, one side, values only; A's local arrays are left as
they were, U's and V's columns past the vectors too. Then bad arguments, raising on every
rank."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, hi, random
from test_heevd_2d import gather, grids, local_of


def check(A, s, U, V, dtype, what):
    m, n = A.shape
    big = max(m, n, 1)
    ref = np.linalg.svd(hi(A), compute_uv=False)
    anorm = max(np.linalg.norm(hi(A), 2), 1e-300)
    assert np.all(np.diff(s) <= 0), f"{what}: not descending"
    err = float(np.max(np.abs(hi(s) - ref))) if len(s) else 0.0
    assert err < 30 * big * anorm * eps(dtype), f"{what}: singular value error {err:.3g}"
    k = U.shape[1] if U is not None else (V.shape[1] if V is not None else 0)
    if U is not None and k:
        orth = np.linalg.norm(U.conj().T @ U - np.eye(k), 1) / (m * eps(dtype))
        assert orth < 30, f"{what}: orthogonality of U {orth:.1f}"
    if V is not None and k:
        orth = np.linalg.norm(V.conj().T @ V - np.eye(k), 1) / (n * eps(dtype))
        assert orth < 30, f"{what}: orthogonality of V {orth:.1f}"
    if U is not None and V is not None and k:
        a1 = max(np.linalg.norm(hi(A), 1), 1e-300)
        res = np.linalg.norm(hi(A) @ V - U * hi(s[:k])[None, :], 1) / (big * a1 * eps(dtype))
        assert res < 30, f"{what}: residual {res:.1f}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_gesvd_2d_every_grid(ctx, rng, dtype):
    for m, n in [(31, 19), (19, 31)]:
        A = random(rng, (m, n), dtype)
        k = min(m, n)
        for nprow, npcol, order in grids(ctx.size):
            what = f"{m}x{n} grid {nprow}x{npcol}{order}"
            desca = mgblas.BlockCyclic2D(m, n, 4, 3, nprow, npcol, nprow - 1, 0, order)
            a = local_of(desca, A, ctx.rank, pad=1)
            a0 = None if a is None else a.copy()
            for nv, KU in [(None, k + 2), (5, 5)]:
                want = k if nv is None else nv
                descu = mgblas.BlockCyclic2D(m, KU, 5, 2, npcol, nprow, 0, 0, order)
                descv = mgblas.BlockCyclic2D(n, KU, 3, 4, nprow, npcol, 0, npcol - 1, order)
                u = local_of(descu, np.full((m, KU), -7, dtype=dtype), ctx.rank, pad=2, fill=-9)
                v = local_of(descv, np.full((n, KU), -7, dtype=dtype), ctx.rank, pad=1, fill=-9)
                s = mgblas.gesvd_2d(ctx, desca, a, descu, u, descv, v, k=nv, dtype=dtype)
                assert len(s) == k, what
                U, V = gather(ctx, descu, u, dtype), gather(ctx, descv, v, dtype)
                check(A, s, U[:, :want], V[:, :want], dtype, f"{what} k={nv}")
                assert np.all(U[:, want:] == -7) and np.all(V[:, want:] == -7), \
                    f"{what}: columns past the vectors written"
                for x in (u, v):
                    if x is not None:
                        assert np.all(x[x.shape[0] - 1:, :] == -9), f"{what}: padding written"
            if a is not None:
                np.testing.assert_array_equal(a, a0, err_msg=f"{what}: a changed")


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_gesvd_2d_one_side_and_values(ctx, rng, dtype):
    m, n = 26, 20
    A = random(rng, (m, n), dtype)
    desc = mgblas.BlockCyclic2D(m, n, 5, 5, 1, ctx.size)
    a = local_of(desc, A, ctx.rank)
    s = mgblas.gesvd_2d(ctx, desc, a)
    check(A, s, None, None, dtype, "values only")
    descv = mgblas.BlockCyclic2D(n, n, 4, 4, ctx.size, 1)
    v = local_of(descv, np.zeros((n, n), dtype=dtype), ctx.rank)
    s = mgblas.gesvd_2d(ctx, desc, a, descv=descv, v=v, stages="1")
    check(A, s, None, gather(ctx, descv, v, dtype), dtype, "V only")
    descu = mgblas.BlockCyclic2D(m, m, 4, 4, 1, ctx.size)
    u = local_of(descu, np.zeros((m, m), dtype=dtype), ctx.rank)
    s = mgblas.gesvd_2d(ctx, desc, a, descu, u)
    U = gather(ctx, descu, u, dtype)  # m x m with all vectors: the full U
    orth = np.linalg.norm(U.conj().T @ U - np.eye(m), 1) / (m * eps(dtype))
    assert orth < 30, f"full U: orthogonality {orth:.1f}"
    check(A, s, U[:, :n], None, dtype, "full U")


def test_gesvd_2d_bad_arguments(ctx, rng):
    m, n = 12, 9
    A = random(rng, (m, n), np.float64)
    desc = mgblas.BlockCyclic2D(m, n, 4, 4, 1, ctx.size)
    a = local_of(desc, A, ctx.rank)
    descv = mgblas.BlockCyclic2D(n, n, 4, 4, 1, ctx.size)
    v = local_of(descv, np.zeros((n, n)), ctx.rank)
    with pytest.raises(mgblas.BadArgument, match="desca"):
        mgblas.gesvd_2d(ctx, "desc", a)
    with pytest.raises(mgblas.BadArgument, match="descu"):
        mgblas.gesvd_2d(ctx, desc, a, descu="U")
    with pytest.raises(mgblas.BadArgument, match="k = "):
        mgblas.gesvd_2d(ctx, desc, a, k=n + 1)
    with pytest.raises(mgblas.BadArgument, match="band"):
        mgblas.gesvd_2d(ctx, desc, a, band=-1)
    short = mgblas.BlockCyclic2D(n - 1, n, 4, 4, 1, ctx.size)
    with pytest.raises(mgblas.DimensionMismatch, match="descv"):
        mgblas.gesvd_2d(ctx, desc, a, descv=short, v=local_of(short, np.zeros((n - 1, n)),
                                                                ctx.rank))
    with pytest.raises(mgblas.BadArgument, match="grid"):
        mgblas.gesvd_2d(ctx, mgblas.BlockCyclic2D(m, n, 4, 4, 1, ctx.size + 1), a)
    with pytest.raises(mgblas.BadArgument, match="NaN"):
        mgblas.gesvd_2d(ctx, desc, None if a is None else np.full_like(a, np.nan), dtype="d",
                        descv=descv, v=v)
    # One rank's bad local array: its error there, RemoteError on the others.
    last = ctx.size - 1
    bad = np.zeros((1, 1)) if ctx.rank == last else a
    with pytest.raises((mgblas.DimensionMismatch, mgblas.RemoteError)):
        mgblas.gesvd_2d(ctx, desc, bad)
