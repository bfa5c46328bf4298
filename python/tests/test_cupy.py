# SPDX-License-Identifier: BSD-3-Clause
"""CUDA arrays: CuPy on a GPU (skipped without one), and the clear error a CUDA array
gets where there is no GPU (runs everywhere else)."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, assert_close, cupy_or_skip, gpu_available, hi, random, symmetric


class FakeCudaArray:
    """Looks like a CuPy array (``__cuda_array_interface__``) but has no memory."""

    def __init__(self, shape, dtype=np.float64):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": np.dtype(dtype).str, "data": (0xDEAD000, False),
            "strides": None, "version": 3}


def test_cuda_array_without_gpu_is_a_clear_error(ctx):
    if gpu_available():
        pytest.skip("a GPU is visible")
    expected = mgblas.NotCompiled if not mgblas.has_cuda else mgblas.CudaError
    x = FakeCudaArray((4,))
    A = FakeCudaArray((4, 4))
    for call in (lambda: mgblas.gemv(A, x), lambda: mgblas.symv(A, x),
                 lambda: mgblas.tsgemm(A, A), lambda: mgblas.gemm_batched(FakeCudaArray((2, 4, 4)), A)):
        with pytest.raises(expected, match="CUDA array"):
            call()
    M = mgblas.DistMatrix(ctx, 4, 4)
    with pytest.raises(expected, match="CUDA array"):
        mgblas.symv_mgpu(M, x)
    if ctx.rank == 0:
        with pytest.raises(expected, match="CUDA array"):
            mgblas.DistMatrix.from_array(ctx, A)
    else:
        with pytest.raises(mgblas.RemoteError):
            mgblas.DistMatrix.from_array(ctx, None)


# ---------------------------------------------------------------------------------
# On a GPU, with CuPy.

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["F", "C"])
def test_cupy_single_device(rng, dtype, order):
    cp = cupy_or_skip()
    n = 300
    A = symmetric(rng, n, dtype)
    x = random(rng, n, dtype)
    dA = cp.asarray(A, order=order)
    dx = cp.asarray(x)
    y = mgblas.symv(dA, dx, uplo="L")
    assert isinstance(y, cp.ndarray)
    assert_close(cp.asnumpy(y), hi(A) @ hi(x), np.abs(hi(A)) @ np.abs(hi(x)), n, dtype, "symv")
    y = mgblas.gemv(dA, dx, trans="T", alpha=2.0)
    assert_close(cp.asnumpy(y), 2 * hi(A).T @ hi(x), 2 * np.abs(hi(A)) @ np.abs(hi(x)), n, dtype, "gemv")
    if order == "F":
        H = symmetric(rng, n, dtype, hermitian=True)
        y = mgblas.hemv(cp.asarray(H, order="F"), dx, uplo="U")
        assert_close(cp.asnumpy(y), hi(H) @ hi(x), np.abs(hi(H)) @ np.abs(hi(x)), n, dtype, "hemv")
    # On a non-default stream: the call is queued there.
    with cp.cuda.Stream(non_blocking=True) as s:
        y = mgblas.symv(dA, dx)
        s.synchronize()
    assert_close(cp.asnumpy(y), hi(A) @ hi(x), np.abs(hi(A)) @ np.abs(hi(x)), n, dtype, "stream")


@pytest.mark.parametrize("dtype", DTYPES)
def test_cupy_batched_and_tsgemm(rng, dtype):
    cp = cupy_or_skip()
    A = random(rng, (20, 4, 3), dtype)
    B = random(rng, (20, 3, 5), dtype)
    C = mgblas.gemm_batched(cp.asarray(A), cp.asarray(B))
    assert_close(cp.asnumpy(C), hi(A) @ hi(B), np.abs(hi(A)) @ np.abs(hi(B)), 3, dtype)
    As = [random(rng, (m, 2), dtype) for m in (1, 3, 4)]
    Bs = [random(rng, (2, n), dtype) for n in (2, 1, 3)]
    Cs = mgblas.gemm_batched([cp.asarray(a) for a in As], [cp.asarray(b) for b in Bs])
    for a, b, c in zip(As, Bs, Cs):
        assert_close(cp.asnumpy(c), hi(a) @ hi(b), np.abs(hi(a)) @ np.abs(hi(b)), 2, dtype)
    T = random(rng, (5000, 8), dtype)
    S = random(rng, (8, 4), dtype)
    C = mgblas.tsgemm(cp.asarray(T, order="F"), cp.asarray(S, order="F"))
    assert_close(cp.asnumpy(C), hi(T) @ hi(S), np.abs(hi(T)) @ np.abs(hi(S)), 8, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cupy_distributed(ctx, rng, dtype):
    cp = cupy_or_skip()
    if ctx.backend != "cuda":
        pytest.skip("the context runs on host devices")
    n = 513
    A = symmetric(rng, n, dtype)
    x = random(rng, n, dtype)
    M = mgblas.DistMatrix.from_array(ctx, cp.asarray(A) if ctx.rank == 0 else None, nb=64)
    y = mgblas.symv_mgpu(M, cp.asarray(x))
    assert isinstance(y, cp.ndarray)
    bound = np.abs(hi(A)) @ np.abs(hi(x))
    assert_close(cp.asnumpy(y), hi(A) @ hi(x), bound, n, dtype, "symv_mgpu (CuPy)")
    y = mgblas.gemv_mgpu(M, cp.asarray(x), trans="N", beta=1.0, y=cp.ones(n, dtype=dtype))
    assert_close(cp.asnumpy(y), hi(A) @ hi(x) + 1, bound + 1, n, dtype, "gemv_mgpu (CuPy)")
    back = M.to_array(root=None, out=cp.empty((n, n), dtype=dtype, order="F"))
    assert isinstance(back, cp.ndarray)
    np.testing.assert_array_equal(cp.asnumpy(back), A)
    R = mgblas.DistMatrix.from_array(ctx, cp.asarray(A), nb=64, root=None)
    np.testing.assert_array_equal(R.to_array(root=None), A)


def test_cupy_mixed_memory_is_an_error(ctx):
    cp = cupy_or_skip()
    with pytest.raises(mgblas.BadArgument, match="memor"):
        mgblas.gemv(cp.ones((3, 3)), np.ones(3))
    if ctx.backend == "host":
        M = mgblas.DistMatrix(ctx, 3, 3)
        with pytest.raises(mgblas.BadArgument, match="host devices"):
            mgblas.symv_mgpu(M, cp.ones(3))
