# SPDX-License-Identifier: BSD-3-Clause
"""mgblas.svd (gesvd_mgpu) and mgblas.unmbr (unmbr_mgpu): singular values against NumPy's,
A V = U diag(s), U^H U = I and V^H V = I on the gathered factors, square, tall and wide,
the k largest, full factors, values only; gebrd's Q and P through unmbr rebuild B; bad
arguments raise on every rank."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, hi


def general(rng, m, n, dtype):
    A = rng.uniform(-1, 1, (m, n))
    if np.dtype(dtype).kind == "c":
        A = A + 1j * rng.uniform(-1, 1, (m, n))
    return np.asfortranarray(A.astype(dtype))


def check_values(A, s, dtype, what=""):
    ref = np.linalg.svd(hi(A), compute_uv=False)
    m, n = A.shape
    assert s.shape == ref.shape, what
    assert np.all(np.diff(s) <= 0), f"{what}: not descending"
    bound = max(m, n) * max(ref[0] if len(ref) else 0, 1e-300) * eps(dtype)
    if len(s):
        err = float(np.max(np.abs(hi(s) - ref)))
        assert err < 30 * bound, f"{what}: max error {err:.3g} > {30 * bound:.3g}"


def check_vectors(A, U, s, V, dtype, k, what=""):
    Ah, (m, n) = hi(A), A.shape
    Uh, Vh = hi(U.to_array(root=None)), hi(V.to_array(root=None))
    ep, big = eps(dtype), max(m, n)
    anorm = max(np.linalg.norm(Ah, 1), 1e-300)
    res = np.linalg.norm(Ah @ Vh[:, :k] - Uh[:, :k] * hi(s[:k])[None, :], 1) / (big * anorm * ep)
    ou = np.linalg.norm(Uh.conj().T @ Uh - np.eye(Uh.shape[1]), 1) / (m * ep)
    ov = np.linalg.norm(Vh.conj().T @ Vh - np.eye(Vh.shape[1]), 1) / (n * ep)
    assert res < 30 and ou < 30 and ov < 30, \
        f"{what}: residual {res:.1f}, orthogonality U {ou:.1f}, V {ov:.1f}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(40, 40), (61, 23), (23, 61)])
def test_svd_all_and_largest(ctx, rng, dtype, shape):
    m, n = shape
    A = general(rng, m, n, dtype)
    U, s, V = mgblas.svd(mgblas.DistMatrix.from_array(ctx, A, nb=8))
    k = min(m, n)
    assert U.shape == (m, k) and V.shape == (n, k) and s.dtype == np.finfo(np.dtype(dtype)).dtype
    check_values(A, s, dtype, "s")
    check_vectors(A, U, s, V, dtype, k, "all")
    U5, s5, V5 = mgblas.svd(mgblas.DistMatrix.from_array(ctx, A, nb=8), k=5)
    assert U5.shape == (m, 5) and V5.shape == (n, 5) and len(s5) == k
    check_vectors(A, U5, s5, V5, dtype, 5, "k = 5")
    s0 = mgblas.svd(mgblas.DistMatrix.from_array(ctx, A, nb=8), vectors=False)
    check_values(A, s0, dtype, "values only")
    Uf, sf, Vf = mgblas.gesvd_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=8), full=True)
    assert Uf.shape == (m, m) and Vf.shape == (n, n)
    check_vectors(A, Uf, sf, Vf, dtype, k, "full")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,band", [((40, 40), 8), ((61, 23), 4), ((33, 33), 1)])
def test_svd_two_stage(ctx, rng, dtype, shape, band):
    m, n = shape
    A = general(rng, m, n, dtype)
    U, s, V = mgblas.svd(mgblas.DistMatrix.from_array(ctx, A, nb=8), stages="2", band=band)
    check_values(A, s, dtype, "two-stage s")
    check_vectors(A, U, s, V, dtype, min(m, n), "two-stage vectors")
    s1 = mgblas.svd(mgblas.DistMatrix.from_array(ctx, A, nb=8), vectors=False, stages=2)
    check_values(A, s1, dtype, "two-stage values only")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(30, 18), (18, 30)])
def test_unmbr_rebuilds_b(ctx, rng, dtype, shape):
    """Q^H A P = B with Q = unmbr('Q', I_m) and P = unmbr('P', I_n)."""
    m, n = shape
    A = general(rng, m, n, dtype)
    dA = mgblas.DistMatrix.from_array(ctx, A, nb=4)
    d, e, tauq, taup = mgblas.gebrd(dA)
    Q = mgblas.unmbr(dA, tauq, mgblas.DistMatrix.from_array(ctx, np.eye(m, dtype=dtype), nb=5),
                     vect="Q")
    P = mgblas.unmbr(dA, taup, mgblas.DistMatrix.from_array(ctx, np.eye(n, dtype=dtype), nb=3),
                     vect="P")
    Qh, Ph = hi(Q.to_array(root=None)), hi(P.to_array(root=None))
    B = np.zeros((m, n))
    k = min(m, n)
    B[range(k), range(k)] = d
    if m >= n:
        B[range(k - 1), range(1, k)] = e
    else:
        B[range(1, k), range(k - 1)] = e
    err = np.linalg.norm(Qh.conj().T @ hi(A) @ Ph - B, 1) / (max(m, n) * np.linalg.norm(hi(A), 1)
                                                              * eps(dtype))
    assert err < 30, f"||Q^H A P - B|| {err:.1f}"
    # trans 'C' undoes 'N'
    C = mgblas.DistMatrix.from_array(ctx, Qh.astype(dtype), nb=5)
    mgblas.unmbr(dA, tauq, C, vect="Q", trans="C")
    back = np.linalg.norm(hi(C.to_array(root=None)) - np.eye(m), 1) / (m * eps(dtype))
    assert back < 30


@pytest.mark.parametrize("dtype", DTYPES)
def test_geqrf_q_times_r(ctx, rng, dtype):
    """A = Q R with Q = unmbr('Q', [I; 0]) from geqrf's reflectors (its storage is gebrd's
    Q storage for m >= n) and R the upper triangle."""
    m, n = 33, 14
    A = general(rng, m, n, dtype)
    dA = mgblas.DistMatrix.from_array(ctx, A, nb=4)
    tau = mgblas.geqrf_mgpu(dA)
    assert tau.shape == (n,) and tau.dtype == np.dtype(dtype)
    F = dA.to_array(root=None)
    R = np.triu(F[:n, :])
    Q = mgblas.unmbr(dA, tau, mgblas.DistMatrix.from_array(ctx, np.eye(m, n, dtype=dtype), nb=5))
    Qh = hi(Q.to_array(root=None))
    err = np.linalg.norm(Qh @ hi(R) - hi(A), 1) / (m * np.linalg.norm(hi(A), 1) * eps(dtype))
    orth = np.linalg.norm(Qh.conj().T @ Qh - np.eye(n), 1) / (m * eps(dtype))
    assert err < 30 and orth < 30, f"||A - QR|| {err:.1f}, ||I - Q^H Q|| {orth:.1f}"


def test_svd_bad_arguments(ctx, rng):
    A = general(rng, 12, 8, "float64")
    for kw, what in [(dict(k=9), "k"), (dict(k=-1), "k"), (dict(vectors="yes"), "vectors"),
                     (dict(full=True, k=3), "full"), (dict(panel=-2), "panel"),
                     (dict(stages="3"), "stages"), (dict(band=-1), "band"),
                     (dict(stages="2", band=3), "band")]:
        with pytest.raises(mgblas.BadArgument, match=what):
            mgblas.svd(mgblas.DistMatrix.from_array(ctx, A, nb=4), **kw)
    dA = mgblas.DistMatrix.from_array(ctx, A, nb=4)
    d, e, tauq, taup = mgblas.gebrd(dA)
    C = mgblas.DistMatrix.from_array(ctx, np.eye(12), nb=4)
    with pytest.raises(mgblas.BadArgument, match="vect"):
        mgblas.unmbr(dA, tauq, C, vect="X")
