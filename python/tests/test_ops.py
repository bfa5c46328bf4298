# SPDX-License-Identifier: BSD-3-Clause
"""The operations of mgblas/_ops.py on NumPy arrays (a host device) and DistMatrix:
the submatrix forms, gemm, grouped GEMM, the batched forms by name, the rank-2k
updates and the reductions' _mgpu names, each against NumPy on fresh random data."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, assert_close, hi, random, symmetric


def opm(A, op):
    return {"N": A, "T": A.T, "C": A.conj().T}[op]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["N", "T", "C"])
def test_gemv_offset(rng, dtype, op):
    A = np.asfortranarray(random(rng, (50, 40), dtype))
    r0, c0, m, n = 17, 3, 29, 31
    S = A[r0:r0 + m, c0:c0 + n]
    xlen, ylen = (n, m) if op == "N" else (m, n)
    x, y0 = random(rng, xlen, dtype), random(rng, ylen, dtype)
    y = mgblas.gemv_offset(A, r0, c0, m, n, x, op, 0.5, 2.0, y0.copy())
    ref = 0.5 * opm(hi(S), op) @ hi(x) + 2 * hi(y0)
    assert_close(y, ref, np.abs(opm(hi(S), op)) @ np.abs(hi(x)) + 2 * np.abs(hi(y0)), xlen, dtype)
    with pytest.raises(mgblas.BadArgument, match="row_off"):
        mgblas.gemv_offset(A, 51, 0, 0, 0, x)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_symv_hemv_offset(rng, dtype, uplo):
    n, off, N = 23, 9, 40
    for hermitian, f in ((False, mgblas.symv_offset), (True, mgblas.hemv_offset)):
        S = symmetric(rng, n, dtype, hermitian)
        A = np.asfortranarray(random(rng, (N, N), dtype))
        A[off:off + n, off:off + n] = np.tril(S) if uplo == "L" else np.triu(S)
        x = random(rng, n, dtype)
        y = f(A, off, n, x, uplo, -1.0)
        assert_close(y, -hi(S) @ hi(x), np.abs(hi(S)) @ np.abs(hi(x)), n, dtype, f.__name__)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["F", "C"])
def test_gemm(rng, dtype, order):
    m, n, k = 37, 21, 13
    A = np.asarray(random(rng, (k, m), dtype), order=order)
    B = np.asarray(random(rng, (k, n), dtype), order=order)
    C0 = np.asarray(random(rng, (m, n), dtype), order=order)
    C = mgblas.gemm(A, B, C0.copy(order=order), transa="C", alpha=2.0, beta=-1.0)
    ref = 2 * hi(A).conj().T @ hi(B) - hi(C0)
    assert_close(C, ref, 2 * np.abs(hi(A)).T @ np.abs(hi(B)) + np.abs(hi(C0)), k, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_grouped(rng, dtype):
    shapes = [((5, 3, 4), "N", "T", 2), ((9, 7, 2), "C", "N", 3)]  # (m, n, k), opA, opB, count
    A, B, C, C0, ta, tb, al, be = [], [], [], [], [], [], [], []
    for g, ((m, n, k), opa, opb, count) in enumerate(shapes):
        A.append([np.asfortranarray(random(rng, (m, k) if opa == "N" else (k, m), dtype))
                  for _ in range(count)])
        B.append([np.asfortranarray(random(rng, (k, n) if opb == "N" else (n, k), dtype))
                  for _ in range(count)])
        C0.append([np.asfortranarray(random(rng, (m, n), dtype)) for _ in range(count)])
        C.append([c.copy(order="F") for c in C0[g]])
        ta.append(opa), tb.append(opb), al.append(1.5 - g), be.append(0.5 * g)
    mgblas.gemm_grouped(A, B, C, ta, tb, al, be)
    for g, ((m, n, k), opa, opb, count) in enumerate(shapes):
        for i in range(count):
            ref = al[g] * opm(hi(A[g][i]), opa) @ opm(hi(B[g][i]), opb) + be[g] * hi(C0[g][i])
            bound = abs(al[g]) * np.abs(opm(hi(A[g][i]), opa)) @ np.abs(opm(hi(B[g][i]), opb)) \
                + abs(be[g]) * np.abs(hi(C0[g][i]))
            assert_close(C[g][i], ref, bound, k, dtype, f"group {g} entry {i}")


def test_batched_names(rng, ctx):
    dtype = np.float64
    A, B = random(rng, (6, 4, 3), dtype), random(rng, (6, 3, 5), dtype)
    ref = np.einsum("bik,bkj->bij", A, B)
    for C in (mgblas.gemm_batched_strided(A, B), mgblas.gemm_batched_strided_mgpu(ctx, A, B)):
        assert_close(C, ref, np.einsum("bik,bkj->bij", abs(A), abs(B)), 3, dtype)
    As = [random(rng, (m, 3), dtype) for m in (2, 7)]
    Bs = [random(rng, (3, n), dtype) for n in (4, 1)]
    for Cs in (mgblas.gemm_vbatched(As, Bs), mgblas.gemm_vbatched_mgpu(ctx, As, Bs)):
        for a, b, c in zip(As, Bs, Cs):
            assert_close(c, a @ b, abs(a) @ abs(b), 3, dtype)
    with pytest.raises(mgblas.BadArgument):
        mgblas.gemm_batched_strided(As, Bs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_her2k_syr2k_mgpu(rng, ctx, dtype, uplo):
    n, k = 27, 4
    tri = np.tril if uplo == "L" else np.triu
    for name, f in (("her2k", mgblas.her2k_mgpu), ("syr2k", mgblas.syr2k_mgpu)):
        C0 = random(rng, (n, n), dtype)
        if name == "her2k":  # a Hermitian C: its diagonal is real
            C0[np.diag_indices(n)] = C0.diagonal().real
        A, B = random(rng, (n, k), dtype), random(rng, (n, k), dtype)
        alpha, beta = (0.5 - 0.25j, 0.75) if np.dtype(dtype).kind == "c" else (0.5, 0.75)
        C = f(mgblas.DistMatrix.from_array(ctx, C0, nb=5), A, B, uplo, alpha, beta)
        got = C.to_array(root=None)
        h = (lambda X: X.conj().T) if name == "her2k" else (lambda X: X.T)
        a2 = np.conj(alpha) if name == "her2k" else alpha
        ref = alpha * hi(A) @ h(hi(B)) + a2 * hi(B) @ h(hi(A)) + beta * hi(C0)
        bound = 2 * abs(alpha) * np.abs(hi(A)) @ np.abs(hi(B)).T + abs(beta) * np.abs(hi(C0))
        assert_close(tri(got), tri(ref), bound, 2 * k, dtype, name)
        assert np.array_equal(got - tri(got), C0 - tri(C0)), f"{name}: the other triangle changed"


def test_reduction_names(rng, ctx):
    n = 30
    A = symmetric(rng, n, np.float64)
    d, e, tau = mgblas.sytrd_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=8))
    w = mgblas.tridiag_eigenvalues_mgpu(ctx, d, e)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(A), atol=50 * n * np.finfo(float).eps)
    assert mgblas.hetrd_mgpu is mgblas.hetrd and mgblas.gebrd_mgpu is mgblas.gebrd
    assert mgblas.unmtr_mgpu is mgblas.unmtr and mgblas.ormtr_mgpu is mgblas.ormtr
