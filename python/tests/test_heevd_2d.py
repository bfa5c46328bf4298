# SPDX-License-Identifier: BSD-3-Clause
"""mgblas.heevd_2d / syevd_2d: the eigen-solver on ScaLAPACK-style 2-D block-cyclic local
arrays. Every rank cuts its local arrays of one random Hermitian matrix (the same seed on
every rank) by BlockCyclic2D's index functions; the eigenvalues are checked against
NumPy's, and Z, gathered from the ranks' local arrays, by A Z = Z diag(w) and Z^H Z = I
(under 30, LAPACK's threshold). Grids of every shape that fits (a rank outside a 1 x 1 grid
passing None), Z on its own blocks, subsets, values only; A's local arrays are left as
they were, Z's columns past m too. Then bad arguments, raising on every rank."""

import itertools

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, hi, symmetric


def local_of(desc, A, rank, pad=0, fill=None):
    """rank's local array of the global A (Fortran order, `pad` extra rows holding
    `fill`), None outside the grid."""
    if desc.prow_of(rank) < 0:
        return None
    rows, cols = desc.local_indices(rank)
    out = np.full((len(rows) + pad, len(cols)), np.nan if fill is None else fill,
                  dtype=A.dtype, order="F")
    out[:len(rows), :] = A[np.ix_(rows, cols)]
    return out


def gather(ctx, desc, local, dtype):
    """The global matrix of `desc` from every rank's local array (a sum over ranks of
    each one's entries: every entry lives on exactly one rank)."""
    mine = np.zeros(desc.shape, dtype=np.complex128)
    if local is not None:
        rows, cols = desc.local_indices(ctx.rank)
        mine[np.ix_(rows, cols)] = local[:len(rows), :]
    parts = ctx._gather_tokens(mine.tobytes().hex())
    total = sum(np.frombuffer(bytes.fromhex(p), dtype=np.complex128).reshape(desc.shape)
                for p in parts)
    return total if np.dtype(dtype).kind == "c" else total.real


def grids(size):
    """(nprow, npcol, order) of every grid with at most `size` processes."""
    return [(p, q, o) for p, q in itertools.product(range(1, size + 1), repeat=2)
            if p * q <= size for o in ("RC" if p > 1 and q > 1 else "R")]


def check(ctx, A, w, ref_w, Z, dtype, what):
    n = A.shape[0]
    anorm = max(np.linalg.norm(hi(A), 1), 1e-300)
    assert np.all(np.diff(w) >= 0), f"{what}: not ascending"
    if len(w):
        err = float(np.max(np.abs(hi(w) - ref_w)))
        assert err < 30 * n * anorm * eps(dtype), f"{what}: eigenvalue error {err:.3g}"
    if Z is None or len(w) == 0:
        return
    res = np.linalg.norm(hi(A) @ Z - Z * hi(w)[None, :], 1) / (n * anorm * eps(dtype))
    orth = np.linalg.norm(Z.conj().T @ Z - np.eye(len(w)), 1) / (n * eps(dtype))
    assert res < 30 and orth < 30, f"{what}: residual {res:.1f}, orthogonality {orth:.1f}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_heevd_2d_every_grid(ctx, rng, dtype):
    n = 29
    A = symmetric(rng, n, dtype, hermitian=True)
    ref = np.linalg.eigvalsh(hi(A))
    for nprow, npcol, order in grids(ctx.size):
        what = f"grid {nprow}x{npcol}{order}"
        desca = mgblas.BlockCyclic2D(n, n, 4, 3, nprow, npcol, nprow - 1, 0, order)
        a = local_of(desca, np.tril(A) + np.triu(np.full_like(A, np.nan), 1), ctx.rank, pad=1)
        a0 = None if a is None else a.copy()
        for sub, first, K in [(None, 0, n), ((0, 0), 0, 3), ((n - 4, n - 1), n - 4, 4)]:
            descz = mgblas.BlockCyclic2D(n, K, 5, 2, npcol, nprow, 0, 0, order)
            zfill = np.array(-7, dtype=dtype)
            z = local_of(descz, np.full((n, K), zfill, dtype=dtype), ctx.rank, pad=2, fill=-9)
            w = mgblas.heevd_2d(ctx, desca, a, descz, z, subset_by_index=sub, dtype=dtype)
            m = len(w)
            assert m == (n if sub is None else sub[1] - sub[0] + 1), what
            Z = gather(ctx, descz, z, dtype)
            check(ctx, A, w, ref[first:first + m], Z[:, :m], dtype, f"{what} {sub}")
            assert np.all(Z[:, m:] == -7), f"{what}: Z's columns past m written"
            if z is not None:
                assert np.all(z[z.shape[0] - 2:, :] == -9), f"{what}: z's padding written"
            if a is not None:
                np.testing.assert_array_equal(a, a0, err_msg=f"{what}: a changed")


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_heevd_2d_values_and_value_range(ctx, rng, dtype):
    n = 24
    A = symmetric(rng, n, dtype, hermitian=True)
    ref = np.linalg.eigvalsh(hi(A))
    desc = mgblas.BlockCyclic2D(n, n, 5, 5, 1, ctx.size)
    a = local_of(desc, A, ctx.rank)
    w = mgblas.heevd_2d(ctx, desc, a, uplo="U")
    check(ctx, A, w, ref, None, dtype, "values only")
    vl, vu = 0.5 * (ref[5] + ref[6]), 0.5 * (ref[15] + ref[16])
    z = local_of(desc, np.zeros((n, n), dtype=dtype), ctx.rank)
    w = mgblas.syevd_2d(ctx, desc, a, desc, z, subset_by_value=(vl, vu)) \
        if np.dtype(dtype).kind == "f" else \
        mgblas.heevd_2d(ctx, desc, a, desc, z, subset_by_value=(vl, vu))
    Z = gather(ctx, desc, z, dtype)
    check(ctx, A, w, ref[6:16], Z[:, :len(w)], dtype, "value range")
    w = mgblas.heevd_2d(ctx, desc, a, desc, z, subset_by_value=(1e3, 2e3))
    assert len(w) == 0


def test_heevd_2d_bad_arguments(ctx, rng):
    n = 12
    A = symmetric(rng, n, np.float64)
    desc = mgblas.BlockCyclic2D(n, n, 4, 4, 1, ctx.size)
    a = local_of(desc, A, ctx.rank)
    z = local_of(desc, np.zeros((n, n)), ctx.rank)
    with pytest.raises(mgblas.BadArgument, match="desca"):
        mgblas.heevd_2d(ctx, "desc", a)
    with pytest.raises(mgblas.BadArgument, match="uplo"):
        mgblas.heevd_2d(ctx, desc, a, uplo="X")
    with pytest.raises(mgblas.BadArgument, match="subset_by_index"):
        mgblas.heevd_2d(ctx, desc, a, subset_by_index=(3, 2))
    narrow = mgblas.BlockCyclic2D(n, n - 1, 4, 4, 1, ctx.size)
    with pytest.raises(mgblas.DimensionMismatch, match="descz"):
        mgblas.heevd_2d(ctx, desc, a, narrow, local_of(narrow, np.zeros((n, n - 1)), ctx.rank))
    # z cut for desc, not for narrow: wrong on the ranks whose columns differ.
    with pytest.raises((mgblas.DimensionMismatch, mgblas.RemoteError), match="z has shape|rank"):
        mgblas.heevd_2d(ctx, desc, a, narrow, z)
    with pytest.raises(mgblas.BadArgument, match="grid"):
        mgblas.heevd_2d(ctx, mgblas.BlockCyclic2D(n, n, 4, 4, 1, ctx.size + 1), a)
    with pytest.raises(mgblas.BadArgument, match="NaN"):
        mgblas.heevd_2d(ctx, desc, None if a is None else np.full_like(a, np.nan), desc, z)
    # One rank's bad local array: its error there, RemoteError on the others.
    last = ctx.size - 1
    bad = np.zeros((1, 1)) if ctx.rank == last else a
    with pytest.raises((mgblas.DimensionMismatch, mgblas.RemoteError)):
        mgblas.heevd_2d(ctx, desc, bad)
    # z is written in place: a C-ordered one is refused.
    zc = None if z is None else np.ascontiguousarray(z.T).T.copy(order="C")
    if zc is not None and zc.shape[0] > 1 and zc.shape[1] > 1:
        with pytest.raises(mgblas.BadArgument, match="column-major"):
            mgblas.heevd_2d(ctx, desc, a, desc, zc)
