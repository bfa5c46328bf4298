# SPDX-License-Identifier: BSD-3-Clause
"""gemm_batched: strided 3-D arrays and lists of variable sizes, on a host device and
over every device of every rank (ctx=)."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, assert_close, hi, random


def opm(A, op):
    return {"N": A, "T": np.swapaxes(A, -1, -2), "C": np.swapaxes(A, -1, -2).conj()}[op]


def check(C, A, B, opa, opb, alpha, beta, C0, dtype, k):
    ref = alpha * opm(hi(A), opa) @ opm(hi(B), opb) + beta * hi(C0)
    bound = abs(alpha) * np.abs(opm(hi(A), opa)) @ np.abs(opm(hi(B), opb)) + abs(beta) * np.abs(hi(C0))
    assert_close(C, ref, bound, k, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("opa, opb", [("N", "N"), ("T", "C"), ("C", "N")])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("distributed", [False, True], ids=["host_device", "ctx"])
def test_gemm_batched_strided(ctx, rng, dtype, opa, opb, order, distributed):
    batch, m, n, k = 13, 5, 7, 3

    def mat(r, c):
        a = random(rng, (batch, r, c), dtype)
        return a if order == "C" else np.ascontiguousarray(np.swapaxes(a, 1, 2)).swapaxes(1, 2)

    A = mat(*((m, k) if opa == "N" else (k, m)))
    B = mat(*((k, n) if opb == "N" else (n, k)))
    C0 = mat(m, n)
    C = C0.copy(order="K")  # keeps the entries' layout
    kw = dict(ctx=ctx) if distributed else {}
    out = mgblas.gemm_batched(A, B, C, transa=opa, transb=opb, alpha=0.5, beta=2.0, **kw)
    assert out is C
    check(C, A, B, opa, opb, 0.5, 2.0, C0, dtype, k)
    new = mgblas.gemm_batched(A, B, transa=opa, transb=opb, **kw)
    assert new.shape == (batch, m, n)
    check(new, A, B, opa, opb, 1.0, 0.0, np.zeros_like(C0), dtype, k)


def test_gemm_batched_shared_operand(ctx, rng):
    A = random(rng, (6, 4), np.float64)       # one A for every entry
    B = random(rng, (9, 4, 3), np.float64)
    for kw in ({}, {"ctx": ctx}):
        C = mgblas.gemm_batched(A, B, **kw)
        check(C, np.broadcast_to(A, (9, 6, 4)), B, "N", "N", 1.0, 0.0, np.zeros((9, 6, 3)), np.float64, 4)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("distributed", [False, True], ids=["host_device", "ctx"])
def test_gemm_batched_variable_sizes(ctx, rng, dtype, distributed):
    shapes = [(3, 4, 2), (1, 1, 1), (8, 2, 5), (0, 3, 2), (4, 4, 0), (6, 1, 7)]
    A = [random(rng, (m, k), dtype) for m, n, k in shapes]
    B = [random(rng, (n, k), dtype) for m, n, k in shapes]     # used transposed
    C0 = [random(rng, (m, n), dtype) for m, n, k in shapes]
    C = [c.copy() for c in C0]
    kw = dict(ctx=ctx) if distributed else {}
    out = mgblas.gemm_batched(A, B, C, transb="T", alpha=-1.0, beta=0.5, **kw)
    assert out is C
    for a, b, c, c0, (m, n, k) in zip(A, B, C, C0, shapes):
        check(c, a, b, "N", "T", -1.0, 0.5, c0, dtype, k)
    new = mgblas.gemm_batched(A, B, transb="T", **kw)
    assert [c.shape for c in new] == [(m, n) for m, n, _ in shapes]


def test_gemm_batched_bad_inputs(ctx):
    A = np.ones((4, 3, 2))
    with pytest.raises(mgblas.DimensionMismatch, match="inner"):
        mgblas.gemm_batched(A, np.ones((4, 3, 2)))
    with pytest.raises(mgblas.DimensionMismatch, match="entries"):
        mgblas.gemm_batched(A, np.ones((4, 2, 5)), np.zeros((5, 3, 5)))
    with pytest.raises(mgblas.BadArgument, match="dtype"):
        mgblas.gemm_batched(A, np.ones((4, 2, 5), np.float32))
    with pytest.raises(mgblas.BadArgument, match="all row-major"):
        mgblas.gemm_batched(A, np.ones((4, 2, 5)), np.zeros((4, 5, 3)).swapaxes(1, 2))
    with pytest.raises(mgblas.DimensionMismatch, match="lists"):
        mgblas.gemm_batched([np.ones((2, 2))], [np.ones((2, 2))] * 2)
    with pytest.raises(mgblas.BadArgument, match="overlap"):
        mgblas.gemm_batched(A, np.ones((4, 2, 5)), np.lib.stride_tricks.as_strided(
            np.zeros((3, 5)), shape=(4, 3, 5), strides=(0, 40, 8), writeable=True))
    ro = np.zeros((4, 3, 5))
    ro.flags.writeable = False
    with pytest.raises(mgblas.BadArgument, match="read-only"):
        mgblas.gemm_batched(A, np.ones((4, 2, 5)), ro)
