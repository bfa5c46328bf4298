# SPDX-License-Identifier: BSD-3-Clause
import numpy as np
import pytest

import mgblas
from conftest import DTYPES, random


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, nb", [((37, 53), 8), ((64, 64), 16), ((5, 200), 32), ((0, 7), 4)])
def test_roundtrip_from_root(ctx, rng, dtype, shape, nb):
    A = random(rng, shape, dtype)
    M = mgblas.DistMatrix.from_array(ctx, A if ctx.rank == 0 else None, nb=nb, root=0)
    assert M.shape == shape and M.dtype == np.dtype(dtype) and M.nb == nb
    B = M.to_array(root=0)
    if ctx.rank == 0:
        assert B.flags.f_contiguous
        np.testing.assert_array_equal(B, A)
    else:
        assert B is None
    np.testing.assert_array_equal(M.to_array(root=None), A)


def test_roundtrip_other_root_and_replicated(ctx, rng):
    root = ctx.size - 1
    A = random(rng, (30, 41), np.float64)
    M = mgblas.DistMatrix.from_array(ctx, A if ctx.rank == root else None, nb=5, root=root)
    got = M.to_array(root=root)
    if ctx.rank == root:
        np.testing.assert_array_equal(got, A)
    R = mgblas.DistMatrix.from_array(ctx, A, nb=7, root=None)  # every rank holds A
    np.testing.assert_array_equal(R.to_array(root=None), A)


def test_layouts_of_the_source(ctx, rng):
    A = random(rng, (40, 30), np.complex128)
    for src in (A, np.asfortranarray(A), np.asfortranarray(random(rng, (50, 30), np.complex128))[:40],
                A[::2, ::3]):
        M = mgblas.DistMatrix.from_array(ctx, src, nb=4, root=None)
        np.testing.assert_array_equal(M.to_array(root=None), src)


def test_to_array_into_out(ctx, rng):
    A = random(rng, (20, 9), np.float32)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=2, root=None)
    out = np.zeros((20, 9), np.float32, order="F")
    assert M.to_array(root=None, out=out) is out
    np.testing.assert_array_equal(out, A)
    with pytest.raises(mgblas.BadArgument, match="column-major"):
        M.to_array(root=None, out=np.zeros((20, 9), np.float32))
    with pytest.raises(mgblas.DimensionMismatch):
        M.to_array(root=None, out=np.zeros((9, 20), np.float32, order="F"))
    with pytest.raises(mgblas.BadArgument, match="dtype"):
        M.to_array(root=None, out=np.zeros((20, 9), np.float64, order="F"))


def test_empty_and_bad_constructor_arguments(ctx):
    M = mgblas.DistMatrix(ctx, 10, 12, np.complex64, nb=3)
    assert M.shape == (10, 12) and M.dtype == np.complex64
    with pytest.raises(mgblas.BadArgument, match="int32"):
        mgblas.DistMatrix(ctx, 4, 4, np.int32)
    with pytest.raises(mgblas.BadArgument, match="nb"):
        mgblas.DistMatrix(ctx, 4, 4, nb=0)
    with pytest.raises(mgblas.BadArgument, match="Context"):
        mgblas.DistMatrix(None, 4, 4)


@pytest.mark.parametrize("bad, exc, match", [
    (np.zeros((4, 4), np.int64), mgblas.BadArgument, "int64"),
    (np.zeros(4), mgblas.DimensionMismatch, "2-D"),
    (np.zeros((2, 2, 2)), mgblas.DimensionMismatch, "2-D"),
])
def test_from_array_bad_input_raises_everywhere(ctx, bad, exc, match):
    # Only the root holds A: the others learn of the error as RemoteError.
    if ctx.rank == 0:
        with pytest.raises(exc, match=match):
            mgblas.DistMatrix.from_array(ctx, bad, root=0)
    else:
        with pytest.raises(mgblas.RemoteError):
            mgblas.DistMatrix.from_array(ctx, None, root=0)


def test_bad_root(ctx):
    A = np.zeros((3, 3))
    for root in (-1, ctx.size, "0"):
        with pytest.raises(mgblas.BadArgument, match="root"):
            mgblas.DistMatrix.from_array(ctx, A, root=root)


def test_ranks_that_disagree_raise_everywhere(ctx):
    if ctx.size < 2:
        pytest.skip("needs 2 ranks")
    A = np.zeros((4, 4 + ctx.rank))  # replicated, but the shapes differ
    with pytest.raises(mgblas.DimensionMismatch, match="different"):
        mgblas.DistMatrix.from_array(ctx, A, root=None)
    with pytest.raises(mgblas.DimensionMismatch):
        mgblas.DistMatrix.from_array(ctx, np.zeros((4, 4)), nb=2 + ctx.rank, root=0)
