# SPDX-License-Identifier: BSD-3-Clause
"""The two-stage eigen-solver's pieces through their Python names (host devices):
band_to_tridiag and band_to_tridiag_apply_q on NumPy arrays (one host device) against
the bindings' direct C++ calls bit for bit and A = Q2 T Q2^H; tridiag_eigenvectors_mgpu
on a DistMatrix against the binding's C++ call and A Z = Z diag(w); bad arguments."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, random

REAL = {np.float32: np.float32, np.float64: np.float64, np.complex64: np.float32,
        np.complex128: np.float64}
LETTER = {np.float32: "s", np.float64: "d", np.complex64: "c", np.complex128: "z"}


def band_storage(rng, n, b, dtype):
    """A random Hermitian band matrix: (its lower band storage AB, (b + 1) x n, Fortran
    order; the dense matrix in double precision)."""
    AB = np.zeros((b + 1, n), dtype=dtype, order="F")
    for j in range(n):
        rows = min(b, n - 1 - j) + 1
        AB[:rows, j] = random(rng, rows, dtype)
        AB[0, j] = AB[0, j].real
    A = np.zeros((n, n), dtype=np.complex128)
    for j in range(n):
        for o in range(min(b, n - 1 - j) + 1):
            A[j + o, j] = AB[o, j]
            A[j, j + o] = np.conj(AB[o, j])
    return AB, A


def addr(a):
    return a.__array_interface__["data"][0]


def sizes(n, b):
    """band2tri_v2_size, band2tri_tau2_size of kernels/sb2st_kernels.hpp."""
    if n < 2:
        return 0, 0
    t = (n - 2) // b + 1
    return n * (n - 1) // 2, (n - 1) * (min(t, 2) if b == 1 else t)


#  +----------------------------------------------------------------------------------+
#  |  d, e, V2, tau2 of mgblas.band_to_tridiag == those of the binding (C++) call      |
#  |  Q2 = band_to_tridiag_apply_q(I):                                                  |
#  |    ||A - Q2 T Q2^H||_1 / (n ||A||_1 eps) < 30,  ||I - Q2^H Q2||_1 / (n eps) < 30     |
#  |  apply_q(trans='C') after apply_q(trans='N') gives I back (to 30 n eps)           |
#  +----------------------------------------------------------------------------------+
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n, b", [(37, 3), (40, 1), (9, 16), (1, 2)])
def test_band_to_tridiag(rng, dtype, n, b):
    AB, A = band_storage(rng, n, b, dtype)
    d, e, V2, tau2 = mgblas.band_to_tridiag(AB.copy(order="F"), b, vectors=True)
    real = REAL[dtype]
    assert d.dtype == real and e.dtype == real and d.shape == (n,) and e.shape == (max(0, n - 1),)
    # The C++ call through the binding (ordinal -1: a host device; stream 0).
    AB2 = AB.copy(order="F")
    nv, nt = sizes(n, b)
    rd, re = np.zeros(n, real), np.zeros(max(n - 1, 0), real)
    rv, rt = np.zeros(max(nv, 1), dtype), np.zeros(max(nt, 1), dtype)
    mgblas._mgblas.band_to_tridiag(LETTER[dtype], -1, 0, n, b, addr(AB2), b + 1, addr(rd),
                                   addr(re) if n > 1 else 0, addr(rv), addr(rt))
    assert d.tobytes() == rd.tobytes() and e.tobytes() == re.tobytes()
    assert V2.tobytes() == rv[:nv].tobytes() and tau2.tobytes() == rt[:nt].tobytes()
    d_only, e_only = mgblas.band_to_tridiag(AB.copy(order="F"), b)
    assert d_only.tobytes() == d.tobytes() and e_only.tobytes() == e.tobytes()

    Q = np.asfortranarray(np.eye(n, dtype=dtype))
    assert mgblas.band_to_tridiag_apply_q(V2, tau2, Q, b) is Q
    T = np.diag(d.astype(np.float64)) + np.diag(e.astype(np.float64), -1) + \
        np.diag(e.astype(np.float64), 1)
    Qh = Q.astype(np.complex128)
    ep = eps(dtype)
    norm = max(np.abs(A).sum(axis=0).max(), 1e-300)
    res = np.abs(A - Qh @ T @ Qh.conj().T).sum(axis=0).max() / (n * norm * ep)
    orth = np.abs(np.eye(n) - Qh.conj().T @ Qh).sum(axis=0).max() / (n * ep)
    assert res < 30 and orth < 30, (res, orth)
    mgblas.band_to_tridiag_apply_q(V2, tau2, Q, b, trans="C")
    assert np.abs(Q - np.eye(n)).max() < 30 * n * ep


def test_band_to_tridiag_bad_arguments(rng):
    AB, _ = band_storage(rng, 12, 3, np.float64)
    with pytest.raises(mgblas.BadArgument, match="b = 0"):
        mgblas.band_to_tridiag(AB, 0)
    # ldab = 4 < b + 1 = 5: the C++ check names ldab.
    with pytest.raises(mgblas.BadArgument, match="ldab"):
        mgblas.band_to_tridiag(AB, 4)
    d, e, V2, tau2 = mgblas.band_to_tridiag(AB.copy(order="F"), 3, vectors=True)
    C = np.ones((12, 2), order="F")
    with pytest.raises(mgblas.BadArgument, match="trans"):
        mgblas.band_to_tridiag_apply_q(V2, tau2, C, 3, trans="X")
    with pytest.raises(mgblas.DimensionMismatch, match="V2"):
        mgblas.band_to_tridiag_apply_q(V2[:-1], tau2, C, 3)
    with pytest.raises(mgblas.BadArgument, match="ldc"):  # the binding: the C++ check
        mgblas._mgblas.band_to_tridiag_apply_q("d", -1, 0, "N", 12, 3, addr(V2), addr(tau2), 2,
                                               addr(C), 11)
    assert (C == 1).all()


#  +----------------------------------------------------------------------------------+
#  |  w and Z of mgblas.tridiag_eigenvectors_mgpu == those of the binding (C++) call   |
#  |  ||T Z - Z diag(w)||_1 / (n ||T||_1 eps) < 30, ||I - Z^H Z||_1 / (n eps) < 30       |
#  +----------------------------------------------------------------------------------+
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("subset", [{}, {"subset_by_index": (2, 9)},
                                    {"subset_by_value": (-0.5, 0.75)}])
def test_tridiag_eigenvectors_mgpu(ctx, rng, dtype, subset):
    n, nb = 33, 8
    real = REAL[dtype]
    d, e = random(rng, n, real), random(rng, n - 1, real)
    Z0 = np.full((n, n + 1), -7, dtype=dtype, order="F")
    Z = mgblas.DistMatrix.from_array(ctx, Z0, nb=nb)
    w = mgblas.tridiag_eigenvectors_mgpu(d, e, Z, **subset)
    Zr = mgblas.DistMatrix.from_array(ctx, Z0, nb=nb)
    kind, vl, vu, il, iu = "A", 0.0, 0.0, 0, -1
    if "subset_by_index" in subset:
        kind, (il, iu) = "I", subset["subset_by_index"]
    if "subset_by_value" in subset:
        kind, (vl, vu) = "V", subset["subset_by_value"]
    wr, count = np.zeros(n, real), np.zeros(1, np.int64)
    mgblas._mgblas.tridiag_eigenvectors_mgpu(ctx._c, n, addr(d), addr(e), kind, vl, vu, il, iu,
                                             addr(count), addr(wr), Zr._c)
    m = int(count[0])
    assert m == len(w) and m > 0 and w.tobytes() == wr[:m].tobytes()
    Zh, Zrh = Z.to_array(root=None), Zr.to_array(root=None)
    assert Zh.tobytes() == Zrh.tobytes()
    assert (Zh[:, m:] == -7).all()
    T = np.diag(d.astype(np.float64)) + np.diag(e.astype(np.float64), -1) + \
        np.diag(e.astype(np.float64), 1)
    V = Zh[:, :m].astype(np.complex128)
    ep = eps(dtype)
    res = np.abs(T @ V - V * w.astype(np.float64)).sum(axis=0).max() / \
        (n * np.abs(T).sum(axis=0).max() * ep)
    orth = np.abs(np.eye(m) - V.conj().T @ V).sum(axis=0).max() / (n * ep)
    assert res < 30 and orth < 30, (res, orth)


def test_tridiag_eigenvectors_mgpu_bad_arguments(ctx, rng):
    d, e = random(rng, 10, np.float64), random(rng, 9, np.float64)
    Z = mgblas.DistMatrix.from_array(ctx, np.zeros((10, 10), order="F"), nb=4)
    with pytest.raises(mgblas.BadArgument, match="subset_by_index"):
        mgblas.tridiag_eigenvectors_mgpu(d, e, Z, subset_by_index=(3, 10))
    with pytest.raises(mgblas.BadArgument):
        mgblas.tridiag_eigenvectors_mgpu(d.astype(np.float32), e, Z)
    e[4] = np.nan  # the C++ check names e
    with pytest.raises(mgblas.BadArgument, match="'e'"):
        mgblas.tridiag_eigenvectors_mgpu(d, e, Z)
