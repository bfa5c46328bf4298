# SPDX-License-Identifier: BSD-3-Clause
"""The two-stage tridiagonal reduction: mgblas.hetrd_2stage_mgpu (T's eigenvalues against
NumPy's of the gathered A), mgblas.hetrd_band_mgpu (the band B's eigenvalues, from its
LAPACK band storage), eigh's ``stages`` (one and two stages give A's eigenvalues), and
bad arguments raising on every rank."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, hi, symmetric


def same_on_every_rank(ctx, *arrays):
    for a in arrays:
        tokens = ctx._gather_tokens(np.ascontiguousarray(a).tobytes().hex())
        assert all(t == tokens[0] for t in tokens)


#  +-------------------------------------------------------------------------------+
#  |  values = max_j |w_j - numpy's eigvalsh(A)_j| / (n ||A||_1 eps) < 30           |
#  |  (an orthogonal similarity keeps A's eigenvalues; the reference in double)      |
#  +-------------------------------------------------------------------------------+
def check_values(A, w, dtype, what):
    n = A.shape[0]
    ref = np.linalg.eigvalsh(hi(A))
    assert w.shape == ref.shape, what
    bound = n * max(np.linalg.norm(hi(A), 1), 1e-300) * eps(dtype)
    err = float(np.max(np.abs(hi(w) - ref))) if n else 0.0
    assert err < 30 * bound, f"{what}: max error {err:.3g} > {30 * bound:.3g}"


def tridiagonal(d, e):
    return np.diag(hi(d)) + np.diag(hi(e), 1) + np.diag(hi(e), -1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("n, nb, band", [(50, 8, 0), (61, 16, 4), (1, 4, 0)])
def test_hetrd_2stage_eigenvalues(ctx, rng, dtype, uplo, n, nb, band):
    M = mgblas.DistMatrix.from_array(ctx, symmetric(rng, n, dtype, hermitian=True), nb=nb)
    A = M.to_array(root=None)  # the gathered matrix
    d, e = mgblas.hetrd_2stage_mgpu(M, uplo=uplo, band=band)
    real = np.finfo(np.dtype(dtype)).dtype
    assert d.shape == (n,) and e.shape == (max(0, n - 1),)
    assert d.dtype == real and e.dtype == real
    same_on_every_rank(ctx, d, e)
    check_values(A, np.linalg.eigvalsh(tridiagonal(d, e)), dtype, "T")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_hetrd_band_mgpu(ctx, rng, dtype, uplo):
    n, nb, band = 45, 8, 4
    A = symmetric(rng, n, dtype, hermitian=True)
    tau, AB = mgblas.hetrd_band_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=nb), band, uplo)
    assert tau.shape == (n - band,) and tau.dtype == np.dtype(dtype)
    assert AB.shape == (band + 1, n) and AB.dtype == np.dtype(dtype)
    same_on_every_rank(ctx, tau, AB)
    # B from its lower band storage, AB[i - j, j] = B[i, j]
    B = np.zeros((n, n), dtype=hi(AB).dtype)
    for j in range(n):
        for i in range(j, min(n, j + band + 1)):
            B[i, j] = AB[i - j, j]
            B[j, i] = np.conj(AB[i - j, j])
    check_values(A, np.linalg.eigvalsh(B), dtype, "B")
    # without the band storage: the same tau
    tau2, none = mgblas.hetrd_band_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=nb), band, uplo,
                                        band_storage=False)
    assert none is None
    np.testing.assert_array_equal(tau2, tau)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_stages(ctx, rng, dtype):
    """eigh by either reduction: A's eigenvalues both ways; with vectors through two
    stages, A Z = Z diag(w) and Z^H Z = I (both stages' Q applied)."""
    n, nb = 53, 8
    A = symmetric(rng, n, dtype, hermitian=True)
    w = {}
    for stages in ("1", "2", 2, "a"):
        w[stages] = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), vectors=False,
                                stages=stages)
        check_values(A, w[stages], dtype, f"stages {stages!r}")
        same_on_every_rank(ctx, w[stages])
    np.testing.assert_array_equal(w["2"], w[2])
    for uplo in ("L", "U"):
        w2, Z = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), uplo=uplo, stages="2")
        check_values(A, w2, dtype, f"with vectors, stages '2', uplo {uplo}")
        Ah, Zh = hi(A), hi(Z.to_array(root=None))
        assert Zh.shape == (n, n)
        res = np.linalg.norm(Ah @ Zh - Zh * hi(w2)[None, :], 1) / (
            n * np.linalg.norm(Ah, 1) * eps(dtype))
        orth = np.linalg.norm(Zh.conj().T @ Zh - np.eye(n), 1) / (n * eps(dtype))
        assert res < 30 and orth < 30, f"uplo {uplo}: residual {res:.1f}, orthogonality {orth:.1f}"


def test_two_stage_bad_arguments(ctx):
    n = 16
    A = np.diag(np.arange(n, dtype=np.float64))
    M = mgblas.DistMatrix.from_array(ctx, A, nb=8)
    for bad in ("3", 3, None, True):
        with pytest.raises(mgblas.BadArgument, match="stages"):
            mgblas.eigh(M, vectors=False, stages=bad)
    with pytest.raises(mgblas.BadArgument, match="band"):
        mgblas.hetrd_2stage_mgpu(M, band=3)  # not a divisor of nb = 8 (the C++ check)
    with pytest.raises(mgblas.BadArgument, match="band"):
        mgblas.hetrd_2stage_mgpu(M, band=-1)
    with pytest.raises(mgblas.BadArgument, match="band"):
        mgblas.hetrd_band_mgpu(M, 0)
    with pytest.raises(mgblas.BadArgument, match="band"):
        mgblas.hetrd_band_mgpu(M, 5)
    with pytest.raises(mgblas.BadArgument, match="uplo"):
        mgblas.hetrd_2stage_mgpu(M, uplo="X")
    with pytest.raises(mgblas.DimensionMismatch):
        mgblas.hetrd_2stage_mgpu(mgblas.DistMatrix.from_array(ctx, np.zeros((n, n - 1)), nb=8))
    # the binding itself: stages and band where an operation has no use for them
    d, e = np.zeros(n), np.zeros(n - 1)
    addr = lambda a: a.__array_interface__["data"][0]  # noqa: E731
    with pytest.raises(mgblas.BadArgument, match="stages"):
        mgblas._mgblas.hetrd_2stage_mgpu(ctx._c, "L", M._c, addr(d), addr(e), 0, -1, 0, "2")
    tauq, taup = np.zeros(n), np.zeros(n)
    with pytest.raises(mgblas.BadArgument, match="band"):
        mgblas._mgblas.gebrd_mgpu(ctx._c, M._c, addr(d), addr(e), addr(tauq), addr(taup), 0, -1,
                                  4, "A")
    # A untouched by the failed calls
    np.testing.assert_array_equal(M.to_array(root=None), A)
