# SPDX-License-Identifier: BSD-3-Clause
"""Stage two of the two-stage SVD through its Python name (host device): band_to_bidiag on
NumPy arrays against the binding's direct C++ call bit for bit, the singular values of the
bidiagonal against NumPy's of the band matrix, and B = Q2 bidiag(d, e) P2^H with Q2 and P2
formed by band_to_tridiag_apply_q; AB left as it was; bad arguments."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, random

REAL = {np.float32: np.float32, np.float64: np.float64, np.complex64: np.float32,
        np.complex128: np.float64}
LETTER = {np.float32: "s", np.float64: "d", np.complex64: "c", np.complex128: "z"}


def upper_band_storage(rng, n, b, dtype):
    """A random upper band matrix with b superdiagonals: (its upper band storage AB,
    (b + 1) x n, Fortran order; the dense matrix in complex double). B[0, 0] is real (the
    chase's precondition)."""
    AB = np.zeros((b + 1, n), dtype=dtype, order="F")
    B = np.zeros((n, n), dtype=np.complex128)
    for j in range(n):
        lo = max(0, j - b)
        AB[b + lo - j:, j] = random(rng, j - lo + 1, dtype)
        if j == 0:
            AB[b, 0] = AB[b, 0].real
        B[lo:j + 1, j] = AB[b + lo - j:, j]
    return AB, B


def addr(a):
    return a.__array_interface__["data"][0]


def sizes(n, b):
    """band2tri_v2_size, band2tri_tau2_size of kernels/sb2st_kernels.hpp."""
    if n < 2:
        return 0, 0
    t = (n - 2) // b + 1
    return n * (n - 1) // 2, (n - 1) * (min(t, 2) if b == 1 else t)


#  +----------------------------------------------------------------------------------+
#  |  d, e, VQ, tauQ, VP, tauP of mgblas.band_to_bidiag == the binding's (C++) call     |
#  |  max |sigma(bidiag(d, e)) - sigma(B)| / (n ||B||_F eps) < 30                        |
#  |  Q2, P2 = band_to_tridiag_apply_q(I) with (VQ, tauQ), (VP, tauP):                  |
#  |    ||B - Q2 bidiag P2^H||_1 / (n ||B||_1 eps) < 30, ||I - Q^H Q||_1 / (n eps) < 30 |
#  +----------------------------------------------------------------------------------+
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n, b", [(37, 3), (40, 1), (9, 16), (50, 8), (1, 2)])
def test_band_to_bidiag(rng, dtype, n, b):
    AB, B = upper_band_storage(rng, n, b, dtype)
    AB0 = AB.copy(order="F")
    d, e, VQ, tauQ, VP, tauP = mgblas.band_to_bidiag(AB, b, vectors=True)
    assert AB.tobytes() == AB0.tobytes()  # read only
    real = REAL[dtype]
    assert d.dtype == real and e.dtype == real and d.shape == (n,) and e.shape == (max(0, n - 1),)
    # The C++ call through the binding (ordinal -1: a host device; stream 0).
    nv, nt = sizes(n, b)
    rd, re = np.zeros(n, real), np.zeros(max(n - 1, 0), real)
    refl = [np.zeros(max(s, 1), dtype) for s in (nv, nt, nv, nt)]
    mgblas._mgblas.band_to_bidiag(LETTER[dtype], -1, 0, n, b, addr(AB), b + 1, addr(rd),
                                  addr(re) if n > 1 else 0, *[addr(a) for a in refl])
    assert d.tobytes() == rd.tobytes() and e.tobytes() == re.tobytes()
    for got, ref, s in zip((VQ, tauQ, VP, tauP), refl, (nv, nt, nv, nt)):
        assert got.shape == (s,) and got.tobytes() == ref[:s].tobytes()
    d_only, e_only = mgblas.band_to_bidiag(AB, b)
    assert d_only.tobytes() == d.tobytes() and e_only.tobytes() == e.tobytes()

    ep = eps(dtype)
    Bd = np.diag(d.astype(np.float64)) + np.diag(e.astype(np.float64), 1)
    normF = max(np.linalg.norm(B), 1e-300)
    sv = np.linalg.svd(Bd, compute_uv=False)
    sv_ref = np.linalg.svd(B, compute_uv=False)
    assert np.abs(sv - sv_ref).max() / (n * normF * ep) < 30
    Q = np.asfortranarray(np.eye(n, dtype=dtype))
    P = np.asfortranarray(np.eye(n, dtype=dtype))
    mgblas.band_to_tridiag_apply_q(VQ, tauQ, Q, b)
    mgblas.band_to_tridiag_apply_q(VP, tauP, P, b)
    Qh, Ph = Q.astype(np.complex128), P.astype(np.complex128)
    norm1 = max(np.abs(B).sum(axis=0).max(), 1e-300)
    res = np.abs(B - Qh @ Bd @ Ph.conj().T).sum(axis=0).max() / (n * norm1 * ep)
    orth_q = np.abs(np.eye(n) - Qh.conj().T @ Qh).sum(axis=0).max() / (n * ep)
    orth_p = np.abs(np.eye(n) - Ph.conj().T @ Ph).sum(axis=0).max() / (n * ep)
    assert res < 30 and orth_q < 30 and orth_p < 30, (res, orth_q, orth_p)


def test_band_to_bidiag_bad_arguments(rng):
    AB, _ = upper_band_storage(rng, 12, 3, np.float64)
    with pytest.raises(mgblas.BadArgument, match="b = 0"):
        mgblas.band_to_bidiag(AB, 0)
    # ldab = 4 < b + 1 = 5: the C++ check names ldab.
    with pytest.raises(mgblas.BadArgument, match="ldab"):
        mgblas.band_to_bidiag(AB, 4)
    with pytest.raises(mgblas.BadArgument, match="vectors"):
        mgblas.band_to_bidiag(AB, 3, vectors="yes")
    d = np.zeros(12)
    with pytest.raises(mgblas.BadArgument, match="'e'"):  # the binding: the C++ check
        mgblas._mgblas.band_to_bidiag("d", -1, 0, 12, 3, addr(AB), 4, addr(d), 0, 0, 0, 0, 0)
    assert (d == 0).all()
