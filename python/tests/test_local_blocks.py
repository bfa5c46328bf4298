# SPDX-License-Identifier: BSD-3-Clause
"""local_blocks(): every rank fills its own blocks in place through their NumPy views with
f(global i, global j), no root involved; the matrix gathered on every rank must then hold
f everywhere (block-cyclic with odd n and nb, nb not dividing n, more devices than blocks;
row-tiled). Host devices: the views are NumPy arrays."""

import numpy as np
import pytest

import mgblas

from conftest import DTYPES

SHAPES = [(7, 13, 3), (5, 5, 5), (3, 17, 1), (9, 2, 7), (1, 11, 4), (29, 23, 5), (0, 4, 2)]


def f(i, j, dtype):
    """A distinct value per entry, exact in every precision for these sizes."""
    v = i + 64.0 * j
    return (v + 1j * (j - i) if np.dtype(dtype).kind == "c" else v).astype(dtype)


def fill(M):
    blocks = M.local_blocks()
    for b in blocks:
        assert b.array is not None and b.array.shape == (b.rows, b.cols)
        assert b.array.flags.writeable and b.ld >= b.rows
        i, j = np.meshgrid(np.arange(b.row, b.row + b.rows), np.arange(b.col, b.col + b.cols),
                           indexing="ij")
        b.array[...] = f(i, j, M.dtype)
    return sum(b.rows * b.cols for b in blocks)


def check(ctx, M, written):
    m, n = M.shape
    total = sum(int(t) for t in ctx._gather_tokens(str(written)))
    assert total == m * n, "every entry lies in exactly one block of one rank"
    got = M.to_array(root=None)
    i, j = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    np.testing.assert_array_equal(got, f(i, j, M.dtype))


def host_or_skip(ctx):
    if ctx.backend != "host":
        pytest.skip("the NumPy views are of host devices")


def dist_blocks_ok(M, b):
    """A block column of width nb (the last may be narrower), all m rows."""
    return b.row == 0 and b.rows == M.shape[0] and 0 < b.cols <= M.nb and b.col % M.nb == 0


def tiled_blocks_ok(M, b):
    """A device's rows, whole tiles from its first, all n columns."""
    return b.col == 0 and b.cols == M.shape[1] and b.row % M.tile == 0


KINDS = {"DistMatrix": (mgblas.DistMatrix, "nb", dist_blocks_ok),
         "RowTiledMatrix": (mgblas.RowTiledMatrix, "tile", tiled_blocks_ok)}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_fill_in_place_then_gather(ctx, kind, dtype, shape):
    host_or_skip(ctx)
    cls, block_name, block_ok = KINDS[kind]
    m, n, block = shape
    M = cls(ctx, m, n, dtype, **{block_name: block})
    for b in M.local_blocks():
        assert block_ok(M, b), b
    check(ctx, M, fill(M))


def test_views_keep_the_matrix_alive_and_follow_it(ctx):
    host_or_skip(ctx)
    M = mgblas.DistMatrix.from_array(ctx, np.ones((6, 9)), nb=2, root=None)
    blocks = M.local_blocks()
    del M  # the views hold it
    for b in blocks:
        np.testing.assert_array_equal(b.array, 1.0)
        assert b.array.ctypes.data == b.ptr
        assert b.array.strides == (8, 8 * b.ld)
    assert all(isinstance(b, mgblas.LocalBlock) for b in blocks)
