# SPDX-License-Identifier: BSD-3-Clause
"""mgblas.eigh (heevd_mgpu): eigenvalues against NumPy's, A Z = Z diag(w) and Z^H Z = I on
the gathered Z, the subsets by index and by value (empty ones too), values only, and bad
arguments raising on every rank."""

import numpy as np
import pytest

import mgblas
from conftest import DTYPES, eps, hi, symmetric


def same_on_every_rank(ctx, a):
    tokens = ctx._gather_tokens(np.ascontiguousarray(a).tobytes().hex())
    assert all(t == tokens[0] for t in tokens)


def check_pairs(A, w, Z, dtype, what=""):
    """||A Z - Z diag(w)||_1 / (n ||A||_1 eps) and ||Z^H Z - I||_1 / (n eps) under 30."""
    Ah, n = hi(A), A.shape[0]
    Zh = hi(Z.to_array(root=None))
    assert Zh.shape == (n, len(w)), what
    anorm = max(np.linalg.norm(Ah, 1), 1e-300)
    if len(w) == 0:
        return
    res = np.linalg.norm(Ah @ Zh - Zh * hi(w)[None, :], 1) / (n * anorm * eps(dtype))
    orth = np.linalg.norm(Zh.conj().T @ Zh - np.eye(len(w)), 1) / (n * eps(dtype))
    assert res < 30 and orth < 30, f"{what}: residual {res:.1f}, orthogonality {orth:.1f}"


def hermitian(rng, n, dtype):
    """A random Hermitian (real: symmetric) A and its eigenvalues by NumPy."""
    A = symmetric(rng, n, dtype, hermitian=True)
    return A, np.linalg.eigvalsh(hi(A))


def check_values(A, w, ref, dtype, what=""):
    n = A.shape[0]
    bound = n * max(np.linalg.norm(hi(A), 1), 1e-300) * eps(dtype)
    assert w.shape == ref.shape, what
    assert np.all(np.diff(w) >= 0), f"{what}: not ascending"
    if len(w):
        err = float(np.max(np.abs(hi(w) - ref)))
        assert err < 30 * bound, f"{what}: max error {err:.3g} > {30 * bound:.3g}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_every_eigenpair(ctx, rng, dtype, uplo):
    n, nb = 46, 8
    A, ref = hermitian(rng, n, dtype)
    w, Z = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), uplo=uplo)
    real = np.finfo(np.dtype(dtype)).dtype
    assert isinstance(w, np.ndarray) and w.dtype == real
    assert isinstance(Z, mgblas.DistMatrix) and Z.shape == (n, n) and Z.nb == nb
    assert Z.dtype == np.dtype(dtype) and Z.ctx is ctx
    check_values(A, w, ref, dtype, "w")
    check_pairs(A, w, Z, dtype, "Z")
    same_on_every_rank(ctx, w)
    # values only
    v = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), uplo=uplo, vectors=False)
    assert isinstance(v, np.ndarray)
    check_values(A, v, ref, dtype, "values only")


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_subsets(ctx, rng, dtype, uplo):
    n, nb = 40, 4
    A, ref = hermitian(rng, n, dtype)
    # by index: il..iu, 0-based and inclusive
    w, Z = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), uplo=uplo,
                       subset_by_index=(3, 12))
    assert Z.shape == (n, 10)
    check_values(A, w, ref[3:13], dtype, "by index")
    check_pairs(A, w, Z, dtype, "by index")
    w = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), uplo=uplo, vectors=False,
                    subset_by_index=[n - 1, n - 1])
    check_values(A, w, ref[n - 1:], dtype, "the largest")
    # by value: (vl, vu] with its ends in the spectrum's gaps, holding eigenvalues 6..24
    vl, vu = (ref[5] + ref[6]) / 2, (ref[24] + ref[25]) / 2
    w, Z = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), uplo=uplo,
                       subset_by_value=(vl, vu))
    assert Z.shape == (n, 19) and Z.nb == nb
    check_values(A, w, ref[6:25], dtype, "by value")
    check_pairs(A, w, Z, dtype, "by value")
    same_on_every_rank(ctx, w)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_eigh_empty_value_range(ctx, rng, dtype):
    n = 30
    A, ref = hermitian(rng, n, dtype)
    mid, width = (ref[9] + ref[10]) / 2, (ref[10] - ref[9]) / 8
    for vl, vu in ((4.0 * n, 8.0 * n), (mid - width, mid + width)):
        w, Z = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=8), subset_by_value=(vl, vu))
        assert w.shape == (0,) and Z.shape == (n, 0)
        w = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=8), vectors=False,
                        subset_by_value=(vl, vu))
        assert w.shape == (0,)


def test_eigh_is_heevd_mgpu_and_takes_a_panel(ctx, rng):
    assert mgblas.heevd_mgpu is mgblas.eigh
    A = symmetric(rng, 36, np.float64)
    w, Z = mgblas.heevd_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=16), "U", panel=4)
    check_values(A, w, np.linalg.eigvalsh(A), np.float64, "panel 4")
    check_pairs(A, w, Z, np.float64, "panel 4")


def test_eigh_bad_inputs(ctx):
    M = mgblas.DistMatrix(ctx, 8, 8, nb=4)
    bad = [
        (mgblas.DimensionMismatch, "square", dict(A=mgblas.DistMatrix(ctx, 8, 6))),
        (mgblas.BadArgument, "uplo", dict(uplo="X")),
        (mgblas.BadArgument, "vectors", dict(vectors="yes")),
        (mgblas.BadArgument, "one of them", dict(subset_by_index=(0, 1), subset_by_value=(0, 1))),
        (mgblas.BadArgument, "il <= iu", dict(subset_by_index=(5, 4))),
        (mgblas.BadArgument, "iu < n", dict(subset_by_index=(0, 8))),
        (mgblas.BadArgument, "il <= iu", dict(subset_by_index=(-1, 2))),
        (mgblas.BadArgument, "pair of integers", dict(subset_by_index=(0.5, 2))),
        (mgblas.BadArgument, "pair of integers", dict(subset_by_index=3)),
        (mgblas.BadArgument, "vl < vu", dict(subset_by_value=(1.0, 1.0))),
        (mgblas.BadArgument, "vl < vu", dict(subset_by_value=(float("nan"), 1.0))),
        (mgblas.BadArgument, "pair of real numbers", dict(subset_by_value=(0, 1j))),
        (mgblas.BadArgument, "panel", dict(panel=-1)),
        (mgblas.BadArgument, "DistMatrix", dict(A=np.eye(8))),
    ]
    for err, match, kw in bad:
        A = kw.pop("A", M)
        with pytest.raises(err, match=match):
            mgblas.eigh(A, **kw)
    with pytest.raises(mgblas.Error):
        mgblas.eigh(M, panel=3)  # not a divisor of nb
    # One rank's bad subset raises there and RemoteError on the others.
    if ctx.size > 1:
        with pytest.raises((mgblas.BadArgument, mgblas.RemoteError)) as info:
            mgblas.eigh(M, subset_by_index=(0, 9) if ctx.rank == 0 else (0, 1))
        assert isinstance(info.value, mgblas.BadArgument if ctx.rank == 0 else mgblas.RemoteError)


def test_binding_range_letter_and_null_z(ctx):
    """The generated binding: a bad range letter names 'range', no address for the count
    'm' (every rank's, before any collective); None for Z is values only."""
    n = 6
    M = mgblas.DistMatrix.from_array(ctx, np.diag(np.arange(n, dtype=np.float64)), nb=2)
    w = np.zeros(n)
    m = np.zeros(1, dtype=np.int64)
    addr = lambda a: a.__array_interface__["data"][0]  # noqa: E731
    with pytest.raises(mgblas.BadArgument, match="range"):
        mgblas._mgblas.heevd_mgpu(ctx._c, "L", M._c, "X", 0.0, 0.0, 0, 0, addr(m), addr(w),
                                  None, 0, -1, 0, "A")
    with pytest.raises(mgblas.BadArgument, match="'m'"):
        mgblas._mgblas.heevd_mgpu(ctx._c, "L", M._c, "A", 0.0, 0.0, 0, 0, 0, addr(w), None, 0, -1,
                                  0, "A")
    with pytest.raises(mgblas.BadArgument, match="stages"):
        mgblas._mgblas.heevd_mgpu(ctx._c, "L", M._c, "A", 0.0, 0.0, 0, 0, addr(m), addr(w),
                                  None, 0, -1, 0, "3")
    mgblas._mgblas.heevd_mgpu(ctx._c, "L", M._c, "V", 1.5, 4.0, 0, 0, addr(m), addr(w), None,
                              0, -1, 0, "2")
    assert m[0] == 3
    np.testing.assert_allclose(w[:3], [2.0, 3.0, 4.0], rtol=0, atol=1e-13)
