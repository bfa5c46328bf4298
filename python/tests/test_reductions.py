# SPDX-License-Identifier: BSD-3-Clause
"""hetrd / sytrd, tridiag_eigenvalues, unmtr and gebrd against NumPy/SciPy."""

import numpy as np
import pytest

import mgblas
from conftest import COMPLEX_DTYPES, DTYPES, REAL_DTYPES, assert_close, hi, random, symmetric

scipy_linalg = pytest.importorskip("scipy.linalg")


def same_on_every_rank(ctx, *arrays):
    for a in arrays:
        tokens = ctx._gather_tokens(np.ascontiguousarray(a).tobytes().hex())
        assert all(t == tokens[0] for t in tokens)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("n, nb", [(96, 16), (71, 8)])
def test_hetrd_eigenvalues(ctx, rng, dtype, uplo, n, nb):
    A = symmetric(rng, n, dtype, hermitian=True)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=nb)
    d, e, tau = mgblas.hetrd(M, uplo=uplo)
    real = np.finfo(np.dtype(dtype)).dtype
    assert d.shape == (n,) and e.shape == (n - 1,) and tau.shape == (n - 1,)
    assert d.dtype == real and e.dtype == real and tau.dtype == np.dtype(dtype)
    same_on_every_rank(ctx, d, e, tau)
    ref = np.linalg.eigvalsh(hi(A))
    norm = np.linalg.norm(hi(A), 2)
    # T's eigenvalues (by SciPy) are A's: the reduction is an orthogonal similarity.
    assert_close(scipy_linalg.eigvalsh_tridiagonal(hi(d).real, hi(e).real), ref, norm, n, dtype, "T")
    # and mgblas's bisection finds the same ones.
    w = mgblas.tridiag_eigenvalues(ctx, d, e)
    assert w.dtype == real
    assert np.all(np.diff(w) >= 0)
    assert_close(w, ref, norm, n, dtype, "tridiag_eigenvalues")
    same_on_every_rank(ctx, w)


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_unmtr_gives_the_similarity(ctx, rng, dtype, uplo):
    n = 60
    A = symmetric(rng, n, dtype, hermitian=True)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=8)
    d, e, tau = mgblas.hetrd(M, uplo=uplo)
    Q = mgblas.DistMatrix.from_array(ctx, np.eye(n, dtype=dtype), nb=16)
    f = mgblas.ormtr if np.dtype(dtype).kind == "f" else mgblas.unmtr
    assert f(M, tau, Q, trans="N", uplo=uplo) is Q
    Qh = hi(Q.to_array(root=None))
    T = np.diag(hi(d)) + np.diag(hi(e), -1) + np.diag(hi(e), 1)
    norm = np.linalg.norm(hi(A), 2)
    assert_close(Qh.conj().T @ hi(A) @ Qh, T, norm, n, dtype, "Q^H A Q = T")
    assert_close(Qh.conj().T @ Qh, np.eye(n), 1.0, n, dtype, "Q^H Q = I")


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigvalsh(ctx, rng, dtype):
    A = symmetric(rng, 80, dtype, hermitian=True)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=16)
    norm = np.linalg.norm(hi(A), 2)
    assert_close(mgblas.eigvalsh(M), np.linalg.eigvalsh(hi(A)), norm, 80, dtype)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_sytrd_is_hetrd(ctx, rng, dtype):
    A = symmetric(rng, 45, dtype)
    d1, e1, t1 = mgblas.sytrd(mgblas.DistMatrix.from_array(ctx, A, nb=8), uplo="U")
    d2, e2, t2 = mgblas.hetrd(mgblas.DistMatrix.from_array(ctx, A, nb=8), uplo="U")
    for a, b in ((d1, d2), (e1, e2), (t1, t2)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, nb", [((90, 60), 16), ((50, 77), 8), ((64, 64), 32)])
@pytest.mark.parametrize("one_pass", [None, False, True])
def test_gebrd_singular_values(ctx, rng, dtype, shape, nb, one_pass):
    m, n = shape
    A = random(rng, shape, dtype)
    M = mgblas.DistMatrix.from_array(ctx, A, nb=nb)
    d, e, tauq, taup = mgblas.gebrd(M, one_pass=one_pass)
    k = min(m, n)
    assert d.shape == (k,) and e.shape == (k - 1,) and tauq.shape == (k,) and taup.shape == (k,)
    same_on_every_rank(ctx, d, e, tauq, taup)
    B = np.diag(hi(d)) + np.diag(hi(e), 1 if m >= n else -1)
    ref = np.linalg.svd(hi(A), compute_uv=False)
    got = np.linalg.svd(B, compute_uv=False)
    assert_close(got, ref, ref[0], max(m, n), dtype, "singular values")


def test_reduction_bad_inputs(ctx):
    with pytest.raises(mgblas.DimensionMismatch, match="square"):
        mgblas.hetrd(mgblas.DistMatrix(ctx, 4, 5))
    with pytest.raises(mgblas.BadArgument, match="real"):
        mgblas.sytrd(mgblas.DistMatrix(ctx, 4, 4, np.complex128))
    with pytest.raises(mgblas.BadArgument, match="uplo"):
        mgblas.hetrd(mgblas.DistMatrix(ctx, 4, 4), uplo="X")
    with pytest.raises(mgblas.Error):
        mgblas.hetrd(mgblas.DistMatrix(ctx, 8, 8, nb=4), panel=3)  # not a divisor of nb
    with pytest.raises(mgblas.BadArgument, match="one_pass"):
        mgblas.gebrd(mgblas.DistMatrix(ctx, 6, 5), one_pass="yes")
    with pytest.raises(mgblas.BadArgument, match="float32 or float64"):
        mgblas.tridiag_eigenvalues(ctx, np.ones(3, np.complex128), np.ones(2, np.complex128))
    with pytest.raises(mgblas.DimensionMismatch, match="length"):
        mgblas.tridiag_eigenvalues(ctx, np.ones(3), np.ones(3))
