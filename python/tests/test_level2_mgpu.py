# SPDX-License-Identifier: BSD-3-Clause
"""Distributed GEMV / SYMV / HEMV and their offset forms against NumPy."""

import numpy as np
import pytest

import mgblas
import mgblas._blas as blas_impl
from conftest import COMPLEX_DTYPES, DTYPES, assert_close, hi, random, symmetric


def opm(A, op):
    return {"N": A, "T": A.T, "C": A.conj().T}[op]


@pytest.fixture(params=[False, True], ids=["host_vectors", "device_vectors"])
def vector_path(request, ctx):
    """Host-pointer forms, and the replicated-DistVector forms the CuPy path takes (on
    host devices the 'device' memory is host memory, so NumPy arrays exercise it)."""
    if request.param and ctx.backend != "host":
        pytest.skip("the device-vector path takes CuPy arrays on GPUs")
    blas_impl._force_device_vectors = request.param
    yield request.param
    blas_impl._force_device_vectors = False


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["N", "T", "C"])
@pytest.mark.parametrize("shape, nb", [((203, 157), 16), ((64, 300), 64)])
def test_gemv_mgpu(ctx, rng, vector_path, dtype, op, shape, nb):
    A = random(rng, shape, dtype)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=nb, root=0)
    xlen, ylen = (shape[1], shape[0]) if op == "N" else shape
    x = random(rng, xlen, dtype)
    y0 = random(rng, ylen, dtype)
    alpha, beta = (0.75 - 0.5j, 0.25 + 1j) if np.dtype(dtype).kind == "c" else (0.75, -1.5)
    y = y0.copy()
    out = mgblas.gemv_mgpu(M, x, trans=op, alpha=alpha, beta=beta, y=y)
    assert out is y
    ref = alpha * opm(hi(A), op) @ hi(x) + beta * hi(y0)
    bound = abs(alpha) * np.abs(opm(hi(A), op)) @ np.abs(hi(x)) + abs(beta) * np.abs(hi(y0))
    assert_close(y, ref, bound, xlen, dtype, f"gemv_mgpu {op}")
    # y=None: a new vector, beta = 0
    y2 = mgblas.gemv_mgpu(M, x, trans=op)
    assert isinstance(y2, np.ndarray) and y2.dtype == np.dtype(dtype)
    assert_close(y2, opm(hi(A), op) @ hi(x), np.abs(opm(hi(A), op)) @ np.abs(hi(x)), xlen, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["N", "C"])
def test_gemv_mgpu_offset(ctx, rng, vector_path, dtype, op):
    A = random(rng, (120, 90), dtype)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=16, root=0)
    for i0, j0 in [(0, 0), (17, 33), (120, 5), (3, 90)]:
        S = hi(A)[i0:, j0:]
        xlen, ylen = (S.shape[1], S.shape[0]) if op == "N" else S.shape
        x = random(rng, xlen, dtype)
        y = mgblas.gemv_mgpu_offset(M, i0, j0, x, trans=op, alpha=2.0)
        assert y.shape == (ylen,)
        assert_close(y, 2 * opm(S, op) @ hi(x), 2 * np.abs(opm(S, op)) @ np.abs(hi(x)), xlen,
                     dtype, f"gemv_mgpu_offset({i0}, {j0})")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("hermitian", [False, True], ids=["symv", "hemv"])
@pytest.mark.parametrize("n, nb", [(211, 32), (50, 64)])
def test_symv_hemv_mgpu(ctx, rng, vector_path, dtype, uplo, hermitian, n, nb):
    A = symmetric(rng, n, dtype, hermitian)
    # Only the uplo triangle may be read: garbage in the other one.
    stored = np.tril(A) if uplo == "L" else np.triu(A)
    junk = random(rng, (n, n), dtype) * 1e3
    stored = stored + (np.triu(junk, 1) if uplo == "L" else np.tril(junk, -1))
    if hermitian and np.dtype(dtype).kind == "c":
        stored[np.diag_indices(n)] += 7j  # imaginary parts of the diagonal are ignored
    M = mgblas.DistMatrix.from_array(ctx, stored if ctx.rank == 0 else None, nb=nb, root=0)
    x = random(rng, n, dtype)
    y0 = random(rng, n, dtype)
    f = mgblas.hemv_mgpu if hermitian else mgblas.symv_mgpu
    y = f(M, x, uplo=uplo, alpha=1.5, beta=-0.5, y=y0.copy())
    ref = 1.5 * hi(A) @ hi(x) - 0.5 * hi(y0)
    bound = 1.5 * np.abs(hi(A)) @ np.abs(hi(x)) + 0.5 * np.abs(hi(y0))
    assert_close(y, ref, bound, n, dtype, f.__name__)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hermitian", [False, True], ids=["symv", "hemv"])
def test_symv_hemv_mgpu_offset(ctx, rng, vector_path, dtype, hermitian):
    n = 97
    A = symmetric(rng, n, dtype, hermitian)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=8, root=None)
    f = mgblas.hemv_mgpu_offset if hermitian else mgblas.symv_mgpu_offset
    for off in (0, 1, 40, 96, 97):
        x = random(rng, n - off, dtype)
        y = f(M, off, x, uplo="U")
        S = hi(A)[off:, off:]
        assert_close(y, S @ hi(x), np.abs(S) @ np.abs(hi(x)), n - off, dtype, f"off={off}")


def test_same_result_on_every_rank(ctx, rng):
    A = symmetric(rng, 150, np.float64)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=16)
    x = random(rng, 150, np.float64)
    y = mgblas.symv_mgpu(M, x)
    ys = ctx._gather_tokens(y.tobytes().hex())
    assert all(t == ys[0] for t in ys)


# ---------------------------------------------------------------------------------
# Bad inputs: clear exceptions, on every rank.

@pytest.fixture
def M64(ctx, rng):
    return mgblas.DistMatrix.from_array(ctx, symmetric(rng, 64, np.float64), nb=16)


@pytest.mark.parametrize("make_x, exc, match", [
    (lambda: np.ones(64, np.float32), mgblas.BadArgument, "dtype float32"),
    (lambda: np.ones(64, np.int32), mgblas.BadArgument, "int32"),
    (lambda: np.ones(63), mgblas.DimensionMismatch, "length 63"),
    (lambda: np.ones((64, 1)), mgblas.DimensionMismatch, "1-D"),
    (lambda: np.ones(128)[::2], mgblas.BadArgument, "not contiguous"),
])
def test_bad_x(M64, make_x, exc, match):
    with pytest.raises(exc, match=match):
        mgblas.symv_mgpu(M64, make_x())


def test_bad_y_and_options(M64):
    x = np.ones(64)
    ro = np.zeros(64)
    ro.flags.writeable = False
    with pytest.raises(mgblas.BadArgument, match="read-only"):
        mgblas.symv_mgpu(M64, x, y=ro)
    with pytest.raises(mgblas.BadArgument, match="needs y"):
        mgblas.symv_mgpu(M64, x, beta=1.0)
    with pytest.raises(mgblas.BadArgument, match="uplo"):
        mgblas.symv_mgpu(M64, x, uplo="X")
    with pytest.raises(mgblas.BadArgument, match="trans"):
        mgblas.gemv_mgpu(M64, x, trans="Q")
    with pytest.raises(mgblas.BadArgument, match="complex"):
        mgblas.gemv_mgpu(M64, x, alpha=1j)
    with pytest.raises(mgblas.BadArgument, match="off"):
        mgblas.symv_mgpu_offset(M64, 65, x)
    with pytest.raises(mgblas.BadArgument, match="DistMatrix"):
        mgblas.symv_mgpu(np.eye(64), x)
    with pytest.raises(mgblas.BadArgument, match="y must be a writable"):
        mgblas.symv_mgpu(M64, x, y=[0.0] * 64)
    # A list is a fine x (read only).
    np.testing.assert_allclose(mgblas.symv_mgpu(M64, list(x)), mgblas.symv_mgpu(M64, x))


def test_non_square_symv(ctx):
    M = mgblas.DistMatrix(ctx, 10, 12)
    with pytest.raises(mgblas.DimensionMismatch, match="square"):
        mgblas.symv_mgpu(M, np.zeros(12))


def test_error_on_one_rank_raises_on_every_rank(ctx, M64):
    if ctx.size < 2:
        pytest.skip("needs 2 ranks")
    x = np.ones(64 if ctx.rank == 0 else 65)
    expected = mgblas.RemoteError if ctx.rank == 0 else mgblas.DimensionMismatch
    with pytest.raises(expected):
        mgblas.symv_mgpu(M64, x)
    # Ranks asking for different operations all raise.
    with pytest.raises(mgblas.DimensionMismatch, match="different"):
        mgblas.symv_mgpu(M64, np.ones(64), uplo="L" if ctx.rank == 0 else "U")
    # and the context still works afterwards
    mgblas.symv_mgpu(M64, np.ones(64))


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_complex_scalars_are_kept(ctx, rng, dtype):
    A = random(rng, (30, 30), dtype)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=4)
    x = random(rng, 30, dtype)
    y = mgblas.gemv_mgpu(M, x, alpha=1j)
    assert_close(y, 1j * hi(A) @ hi(x), np.abs(hi(A)) @ np.abs(hi(x)), 30, dtype)
