# SPDX-License-Identifier: BSD-3-Clause
"""Single-device gemv / symv / hemv / tsgemm on NumPy arrays (a host device; the CuPy
path is in test_cupy.py)."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, REAL_DTYPES, assert_close, hi, random, symmetric


def opm(A, op):
    return {"N": A, "T": A.T, "C": A.conj().T}[op]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["N", "T", "C"])
@pytest.mark.parametrize("order", ["F", "C"])
def test_gemv(rng, dtype, op, order):
    A = np.asarray(random(rng, (45, 31), dtype), order=order)
    xlen, ylen = (31, 45) if op == "N" else (45, 31)
    x = random(rng, 2 * xlen, dtype)[::2]  # strided vectors are fine here
    y0 = random(rng, ylen, dtype)
    if order == "C" and op == "C" and np.dtype(dtype).kind == "c":
        with pytest.raises(mgblas.BadArgument, match="column-major"):
            mgblas.gemv(A, x, trans=op)
        return
    y = y0.copy()
    assert mgblas.gemv(A, x, trans=op, alpha=0.5, beta=2.0, y=y) is y
    ref = 0.5 * opm(hi(A), op) @ hi(x) + 2 * hi(y0)
    assert_close(y, ref, 0.5 * np.abs(opm(hi(A), op)) @ np.abs(hi(x)) + 2 * np.abs(hi(y0)), xlen, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("order", ["F", "C"])
def test_symv_hemv(rng, dtype, uplo, order):
    n = 40
    for hermitian, f in ((False, mgblas.symv), (True, mgblas.hemv)):
        A = symmetric(rng, n, dtype, hermitian)
        stored = np.asarray(np.tril(A) if uplo == "L" else np.triu(A), order=order)
        x = random(rng, n, dtype)
        if hermitian and order == "C" and np.dtype(dtype).kind == "c":
            with pytest.raises(mgblas.BadArgument, match="column-major"):
                f(stored, x, uplo=uplo)
            continue
        y = f(stored, x, uplo=uplo, alpha=-1.0)
        assert_close(y, -hi(A) @ hi(x), np.abs(hi(A)) @ np.abs(hi(x)), n, dtype, f.__name__)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("opa, opb", [("N", "N"), ("T", "N"), ("C", "N"), ("N", "T"), ("N", "C")])
@pytest.mark.parametrize("order", ["F", "C"])
def test_tsgemm(rng, dtype, opa, opb, order):
    m, n, k = 300, 4, 6
    A = np.asarray(random(rng, (m, k) if opa == "N" else (k, m), dtype), order=order)
    B = np.asarray(random(rng, (k, n) if opb == "N" else (n, k), dtype), order=order)
    C0 = np.asarray(random(rng, (m, n), dtype), order=order)
    C = C0.copy(order=order)
    assert mgblas.tsgemm(A, B, C, transa=opa, transb=opb, alpha=2.0, beta=-1.0) is C
    ref = 2 * opm(hi(A), opa) @ opm(hi(B), opb) - hi(C0)
    bound = 2 * np.abs(opm(hi(A), opa)) @ np.abs(opm(hi(B), opb)) + np.abs(hi(C0))
    assert_close(C, ref, bound, k, dtype)
    C2 = mgblas.tsgemm(A, B, transa=opa, transb=opb)
    assert_close(C2, opm(hi(A), opa) @ opm(hi(B), opb), np.abs(hi(A)).sum() + 1, k, dtype)


def test_single_device_bad_inputs():
    A = np.ones((4, 3))
    with pytest.raises(mgblas.DimensionMismatch, match="length"):
        mgblas.gemv(A, np.ones(4))
    with pytest.raises(mgblas.BadArgument, match="dtype"):
        mgblas.gemv(A, np.ones(3, np.complex128))
    with pytest.raises(mgblas.BadArgument, match="contiguous"):
        mgblas.gemv(np.ones((8, 6))[::2, ::2], np.ones(3))
    with pytest.raises(mgblas.DimensionMismatch, match="square"):
        mgblas.symv(A, np.ones(3))
    with pytest.raises(mgblas.DimensionMismatch, match="inner"):
        mgblas.tsgemm(np.ones((10, 3)), np.ones((4, 2)))
    with pytest.raises(mgblas.BadArgument, match="column-major .* or all"):
        mgblas.tsgemm(np.ones((10, 3)), np.ones((3, 2)), np.zeros((10, 2), order="F"))
    with pytest.raises(mgblas.BadArgument, match="int64"):
        mgblas.gemv(np.ones((4, 3), np.int64), np.ones(3, np.int64))
