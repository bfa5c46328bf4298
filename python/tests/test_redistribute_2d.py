# SPDX-License-Identifier: BSD-3-Clause
"""BlockCyclic2D and DistMatrix.import_2d / export_2d: ScaLAPACK's 2-D block-cyclic local
arrays in and out of a DistMatrix. Every grid that fits in the ranks (1 x 1 on one rank;
1 x 1, 1 x 2 and 2 x 1 on two, a rank outside a 1 x 1 grid passing None), both grid
orders, source processes other than 0, sizes that are not multiples of the blocks, empty
matrices, padded local arrays; the local arrays are cut from a global matrix that every
rank draws from the same seed, and the round trip must give them back exactly. Then the
argument checks, on every rank or on one (the others raise RemoteError)."""

import itertools

import numpy as np
import pytest

import mgblas

from conftest import DTYPES, random

# (m, n, mb, nb, DistMatrix nb)
SHAPES = [(9, 7, 2, 3, 2), (16, 16, 4, 4, 5), (5, 11, 3, 1, 3), (1, 6, 2, 4, 1),
          (13, 2, 5, 2, 7), (0, 4, 2, 2, 2), (6, 0, 1, 2, 3)]


def grids(size):
    """(nprow, npcol, rsrc, csrc, order) of every grid with at most `size` processes,
    with the last process row and column as the sources too."""
    out = []
    for p, q in itertools.product(range(1, size + 1), repeat=2):
        if p * q > size:
            continue
        for order in "RC":
            out.append((p, q, 0, 0, order))
            if p > 1 or q > 1:
                out.append((p, q, p - 1, q - 1, order))
    return out


def numroc(n, nb, iproc, isrc, nprocs):
    """ScaLAPACK's TOOLS/numroc.f, translated (0-based iproc and isrc)."""
    mydist = (nprocs + iproc - isrc) % nprocs
    nblocks = n // nb
    num = (nblocks // nprocs) * nb
    extra = nblocks % nprocs
    if mydist < extra:
        num += nb
    elif mydist == extra:
        num += n % nb
    return num


def local_of(desc, A, rank):
    """rank's local array of the global A (Fortran order), None outside the grid."""
    if desc.prow_of(rank) < 0:
        return None
    rows, cols = desc.local_indices(rank)
    return np.asfortranarray(A[np.ix_(rows, cols)])


# ---- the descriptor (no communication) -------------------------------------------

@pytest.mark.parametrize("grid", grids(6), ids=lambda g: "{}x{}@{},{}{}".format(*g))
def test_index_functions(grid):
    p, q, rsrc, csrc, order = grid
    m, n, mb, nb = 23, 17, 3, 4
    d = mgblas.BlockCyclic2D(m, n, mb, nb, p, q, rsrc, csrc, order)
    assert (d.shape, d.mb, d.nb, d.nprow, d.npcol, d.rsrc, d.csrc, d.order, d.grid_size) == \
        ((m, n), mb, nb, p, q, rsrc, csrc, order, p * q)
    # BLACS's rank order, and back; ranks past the grid hold nothing.
    for prow, pcol in itertools.product(range(p), range(q)):
        r = d.rank_of(prow, pcol)
        assert r == (prow * q + pcol if order == "R" else pcol * p + prow)
        assert (d.prow_of(r), d.pcol_of(r)) == (prow, pcol)
        assert d.local_shape(r) == (numroc(m, mb, prow, rsrc, p), numroc(n, nb, pcol, csrc, q))
        assert d.local_shape(r) == (d.local_rows(prow), d.local_cols(pcol))
    assert (d.prow_of(p * q), d.pcol_of(p * q), d.local_shape(p * q)) == (-1, -1, (0, 0))
    # Global -> (owner, local) -> global, block by block as ScaLAPACK deals them.
    for i in range(m):
        assert d.row_owner(i) == (i // mb + rsrc) % p
        assert d.global_row(d.row_owner(i), d.local_row(i)) == i
    for j in range(n):
        assert d.col_owner(j) == (j // nb + csrc) % q
        assert d.global_col(d.col_owner(j), d.local_col(j)) == j
    # local_indices: the same indxl2g, vectorised; every entry on exactly one rank.
    seen = np.zeros((m, n), dtype=int)
    for r in range(p * q + 1):
        rows, cols = d.local_indices(r)
        assert (len(rows), len(cols)) == d.local_shape(r)
        if r < p * q:
            assert list(rows) == [d.global_row(d.prow_of(r), il) for il in range(len(rows))]
            assert list(cols) == [d.global_col(d.pcol_of(r), jl) for jl in range(len(cols))]
        seen[np.ix_(rows, cols)] += 1
    assert (seen == 1).all()


def test_descriptor_equality_and_scalapack_form():
    d = mgblas.BlockCyclic2D(10, 8, 3, 2, 2, 3, 1, 2, order="col")
    assert d.order == "C" and "order='C'" in repr(d)
    # DTYPE_, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_
    assert mgblas.BlockCyclic2D.from_scalapack([1, 0, 10, 8, 3, 2, 1, 2, 5], 2, 3, "C") == d
    assert d != mgblas.BlockCyclic2D(10, 8, 3, 2, 2, 3, 1, 2, order="R")
    assert hash(d) == hash(mgblas.BlockCyclic2D(10, 8, 3, 2, 2, 3, 1, 2, order="c"))


@pytest.mark.parametrize("args, kwargs, name", [
    ((-1, 4, 2, 2, 1, 1), {}, "'m'"),
    ((4, 4, 0, 2, 1, 1), {}, "'mb'"),
    ((4, 4, 2, 2, 0, 1), {}, "'nprow'"),
    ((4, 4, 2, 2, 2, 1), {"rsrc": 2}, "'rsrc'"),
    ((4, 4, 2, 2, 1, 2), {"csrc": -1}, "'csrc'"),
    ((4, 4, 2, 2, 1, 1), {"order": "X"}, "order"),
    ((4, 4.0, 2, 2, 1, 1), {}, "n ="),
])
def test_descriptor_rejects(args, kwargs, name):
    with pytest.raises(mgblas.BadArgument, match=name):
        mgblas.BlockCyclic2D(*args, **kwargs)


def test_index_functions_reject_out_of_range():
    d = mgblas.BlockCyclic2D(5, 5, 2, 2, 2, 1)
    for call, name in [(lambda: d.local_rows(2), "prow"), (lambda: d.row_owner(5), "i"),
                       (lambda: d.global_col(0, 5), "jl"), (lambda: d.local_shape(-1), "rank"),
                       (lambda: d.rank_of(0, 1), "pcol")]:
        with pytest.raises(mgblas.BadArgument, match=name):
            call()
    with pytest.raises(mgblas.BadArgument, match="DTYPE_"):
        mgblas.BlockCyclic2D.from_scalapack([2, 0, 5, 5, 2, 2, 0, 0, 5], 2, 1)


# ---- import_2d / export_2d (collective) ---------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_round_trip(ctx, rng, dtype, shape):
    m, n, mb, nb, dist_nb = shape
    A = random(rng, (m, n), dtype)  # the same on every rank
    me = ctx.rank
    for p, q, rsrc, csrc, order in grids(ctx.size):
        d = mgblas.BlockCyclic2D(m, n, mb, nb, p, q, rsrc, csrc, order)
        what = f"{d!r}"
        M = mgblas.DistMatrix(ctx, m, n, dtype, nb=dist_nb)
        M.import_2d(d, local_of(d, A, me))
        np.testing.assert_array_equal(M.to_array(root=None), A, err_msg=what)
        # Back out into a padded local array: the rows past LOCr are left alone.
        locr, locc = d.local_shape(me)
        out = np.full((locr + 3, locc), 7, dtype=dtype, order="F") if d.prow_of(me) >= 0 else None
        M.export_2d(d, out)
        if out is not None:
            np.testing.assert_array_equal(out[:locr], local_of(d, A, me), err_msg=what)
            assert (out[locr:] == 7).all(), what


def test_padded_views_row_major_import_and_the_local_shape_array(ctx, rng):
    """A (LOCr, LOCc) view of a padded buffer (lld = the buffer's rows), a row-major
    local array on import (copied), and np.empty(desc.local_shape(rank)) on a rank
    outside the grid (0 x 0, taken as None)."""
    m, n = 11, 9
    A = random(rng, (m, n), np.float64)
    d = mgblas.BlockCyclic2D(m, n, 2, 3, 1, 1)  # rank 0 holds all; others nothing
    me = ctx.rank
    M = mgblas.DistMatrix(ctx, m, n, np.float64, nb=4)
    src = np.ascontiguousarray(local_of(d, A, me)) if me == 0 else np.empty(d.local_shape(me))
    M.import_2d(d, src)
    np.testing.assert_array_equal(M.to_array(root=None), A)
    buf = np.zeros((m + 5, n), order="F")
    view = buf[:m] if me == 0 else np.empty(d.local_shape(me), order="F")
    M.export_2d(d, view)
    if me == 0:
        np.testing.assert_array_equal(buf[:m], A)
        assert not buf[m:].any()


def test_bad_arguments_raise_on_every_rank(ctx, rng):
    m, n = 8, 6
    A = random(rng, (m, n), np.float64)
    d = mgblas.BlockCyclic2D(m, n, 3, 2, 1, ctx.size)  # every rank in the grid
    M = mgblas.DistMatrix(ctx, m, n, np.float64, nb=2)
    mine = local_of(d, A, ctx.rank)
    locr, locc = d.local_shape(ctx.rank)
    with pytest.raises(mgblas.BadArgument, match="local has dtype float32"):
        M.import_2d(d, mine.astype(np.float32))
    with pytest.raises(mgblas.DimensionMismatch, match=r"local has shape .* holds"):
        M.import_2d(d, np.zeros((max(locr - 1, 0), locc + 1), order="F"))
    with pytest.raises(mgblas.BadArgument, match="local is None"):
        M.export_2d(d, None)
    with pytest.raises(mgblas.BadArgument, match="column-major"):
        M.export_2d(d, np.zeros((locr, locc + 1))[:, :locc])  # row-major, locr, locc > 1
    with pytest.raises(mgblas.BadArgument, match="read-only"):
        ro = np.zeros((locr, locc), order="F")
        ro.flags.writeable = False
        M.export_2d(d, ro)
    with pytest.raises(mgblas.DimensionMismatch, match="desc is 8 x 5"):
        M.import_2d(mgblas.BlockCyclic2D(m, n - 1, 3, 2, 1, 1), mine)
    with pytest.raises(mgblas.BadArgument, match="grid must fit in the ranks"):
        M.import_2d(mgblas.BlockCyclic2D(m, n, 3, 2, ctx.size + 1, 1), mine)
    with pytest.raises(mgblas.BadArgument, match="desc must be an mgblas.BlockCyclic2D"):
        M.import_2d((m, n, 3, 2, 1, 1), mine)
    # One rank's bad argument: that rank raises it, the others RemoteError; nothing hangs.
    bad = ctx.rank == ctx.size - 1
    expected = mgblas.BadArgument if bad or ctx.size == 1 else mgblas.RemoteError
    with pytest.raises(expected):
        M.import_2d(d, mine.astype(np.complex128) if bad else mine)
    # The matrix still works.
    M.import_2d(d, mine)
    np.testing.assert_array_equal(M.to_array(root=None), A)
