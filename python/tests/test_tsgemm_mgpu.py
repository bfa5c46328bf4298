# SPDX-License-Identifier: BSD-3-Clause
"""RowTiledMatrix and the distributed tall-and-skinny GEMM in its two forms."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, assert_close, hi, random


def opm(A, op):
    return {"N": A, "T": A.T, "C": A.conj().T}[op]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("tile", [1, 16])
def test_row_tiled_roundtrip(ctx, rng, dtype, tile):
    A = random(rng, (333, 5), dtype)
    M = mgblas.RowTiledMatrix.from_array(ctx, A if ctx.rank == 0 else None, tile=tile, root=0)
    assert M.shape == (333, 5) and M.tile == tile and M.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(M.to_array(root=None), A)
    R = mgblas.RowTiledMatrix.from_array(ctx, A, root=None)
    got = R.to_array(root=0)
    if ctx.rank == 0:
        np.testing.assert_array_equal(got, A)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("opb", ["N", "T", "C"])
def test_tsgemm_mgpu_rows(ctx, rng, dtype, opb):
    m, k, n = 1001, 6, 4
    A = random(rng, (m, k), dtype)
    B = random(rng, (k, n) if opb == "N" else (n, k), dtype)
    C0 = random(rng, (m, n), dtype)
    At = mgblas.RowTiledMatrix.from_array(ctx, A, tile=8)
    Ct = mgblas.RowTiledMatrix.from_array(ctx, C0, tile=8)
    out = mgblas.tsgemm_mgpu(At, B, Ct, transb=opb, alpha=2.0, beta=-1.0)
    assert out is Ct
    ref = 2 * hi(A) @ opm(hi(B), opb) - hi(C0)
    bound = 2 * np.abs(hi(A)) @ np.abs(opm(hi(B), opb)) + np.abs(hi(C0))
    assert_close(Ct.to_array(root=None), ref, bound, k, dtype)
    new = mgblas.tsgemm_mgpu(At, np.asfortranarray(B), transb=opb)
    assert isinstance(new, mgblas.RowTiledMatrix) and new.shape == (m, n)
    assert_close(new.to_array(root=None), hi(A) @ opm(hi(B), opb), bound, k, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("opa", ["T", "C"])
def test_tsgemm_mgpu_ksplit(ctx, rng, dtype, opa):
    k, m, n = 777, 5, 3
    A = random(rng, (k, m), dtype)
    B = random(rng, (k, n), dtype)
    At = mgblas.RowTiledMatrix.from_array(ctx, A)
    Bt = mgblas.RowTiledMatrix.from_array(ctx, B)
    C0 = random(rng, (m, n), dtype)
    C = np.asfortranarray(C0)
    out = mgblas.tsgemm_mgpu(At, Bt, C, transa=opa, alpha=0.5, beta=3.0)
    assert out is C
    ref = 0.5 * opm(hi(A), opa) @ hi(B) + 3 * hi(C0)
    bound = 0.5 * np.abs(opm(hi(A), opa)) @ np.abs(hi(B)) + 3 * np.abs(hi(C0))
    assert_close(C, ref, bound, k, dtype)
    new = mgblas.tsgemm_mgpu(At, Bt, transa=opa)  # a new C, row-major input is fine too
    assert_close(new, opm(hi(A), opa) @ hi(B), bound, k, dtype)
    Cc = np.ascontiguousarray(C0)
    mgblas.tsgemm_mgpu(At, Bt, Cc, transa=opa, alpha=0.5, beta=3.0)
    assert_close(Cc, ref, bound, k, dtype)


def test_tsgemm_mgpu_bad_inputs(ctx):
    At = mgblas.RowTiledMatrix(ctx, 50, 3)
    with pytest.raises(mgblas.DimensionMismatch):
        mgblas.tsgemm_mgpu(At, np.ones((4, 2)))
    with pytest.raises(mgblas.BadArgument, match="transa"):
        mgblas.tsgemm_mgpu(At, np.ones((3, 2)), transa="T")
    with pytest.raises(mgblas.BadArgument, match="transa"):
        mgblas.tsgemm_mgpu(At, mgblas.RowTiledMatrix(ctx, 50, 2), transa="N")
    with pytest.raises(mgblas.DimensionMismatch, match="rows"):
        mgblas.tsgemm_mgpu(At, mgblas.RowTiledMatrix(ctx, 51, 2), transa="T")
    with pytest.raises(mgblas.BadArgument, match="dtype"):
        mgblas.tsgemm_mgpu(At, np.ones((3, 2), np.float32))
    with pytest.raises(mgblas.BadArgument, match="RowTiledMatrix"):
        mgblas.tsgemm_mgpu(np.ones((50, 3)), np.ones((3, 2)))
