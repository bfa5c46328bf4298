# SPDX-License-Identifier: BSD-3-Clause
"""Every operation of the manifest (api/operations.py) is on every surface under one name,
and a small case gives the same answer through C and Python.

C++: the C entries and the Python bindings are generated calls of mgblas::NAME<T>, so
the library and the extension build only where the C++ API has every operation.
C: each name (with its _async / _ex forms) is looked up in the shared C library, which
ci_test.sh names in MGBLAS_CAPI_LIB (the test skips without it).
Python: mgblas.NAME exists and is exported; the extension has the binding where the
manifest says it is generated.
"""

import ctypes
import os
import pathlib
import sys

import numpy as np
import pytest

import mgblas

from conftest import random

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "api"))
import operations as manifest  # noqa: E402

OPS = manifest.OPERATIONS


def c_names(entry):
    for p in entry["precisions"]:
        name = manifest.c_name(entry, p)
        yield name
        if entry["kind"] == "single":
            yield name + "_async"
        if any(role == "options" for role, _ in entry["args"]):
            yield name + "_ex"


@pytest.mark.parametrize("entry", OPS, ids=lambda e: e["name"])
def test_python_surface(entry):
    name = entry["name"]
    assert callable(getattr(mgblas, name, None)), f"mgblas.{name} is missing"
    assert name in mgblas.__all__, f"mgblas.__all__ lacks {name}"
    if entry["python_binding"]:
        assert hasattr(mgblas._mgblas, name), f"the extension lacks its binding of {name}"


@pytest.fixture(scope="module")
def capi():
    path = os.environ.get("MGBLAS_CAPI_LIB")
    if not path or not os.path.exists(path):
        pytest.skip("MGBLAS_CAPI_LIB names no shared C library (python/ci_test.sh sets it)")
    return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


@pytest.mark.parametrize("entry", OPS, ids=lambda e: e["name"])
def test_c_surface(capi, entry):
    missing = [n for n in c_names(entry) if not hasattr(capi, n)]
    assert not missing, f"the C library lacks {missing}"


# ---- the same answer from C and from Python (which calls the C++ API directly) ------

class Complex(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


def _ptr(a):
    return ctypes.c_void_p(a.ctypes.data)


@pytest.fixture(scope="module")
def cctx(capi, ctx):
    """A C context like the tests' Python one (host devices; MPI_COMM_WORLD)."""
    if ctx.backend != "host":
        pytest.skip("the C comparisons run on host devices")
    handle = ctypes.c_void_p()
    rc = capi.mgblas_context_create_ex(1, ctx.num_devices, ctypes.byref(handle))
    assert rc == 0, capi.mgblas_last_error
    yield handle
    capi.mgblas_context_destroy(handle)


def _check(capi, rc):
    if rc != 0:
        capi.mgblas_last_error.restype = ctypes.c_char_p
        raise AssertionError(capi.mgblas_last_error().decode())


def _c_matrix(capi, cctx, letter, A, nb):
    m, n = A.shape
    handle = ctypes.c_void_p()
    _check(capi, capi.mgblas_matrix_create(cctx, ord(letter), ctypes.c_int64(m), ctypes.c_int64(n),
                                           ctypes.c_int64(nb), ctypes.byref(handle)))
    Af = np.asfortranarray(A)
    _check(capi, capi.mgblas_matrix_distribute(cctx, handle, _ptr(Af), ctypes.c_int64(m), 0))
    return handle


def _c_collect(capi, cctx, handle, shape, dtype):
    out = np.zeros(shape, dtype=dtype, order="F")
    _check(capi, capi.mgblas_matrix_collect(cctx, handle, _ptr(out), ctypes.c_int64(shape[0]), -1))
    capi.mgblas_matrix_destroy(handle)
    return out


def test_same_gemv(capi, cctx, rng):
    m, n = 37, 29
    A = np.asfortranarray(random(rng, (m, n), np.float64))
    x, y0 = random(rng, n, np.float64), random(rng, m, np.float64)
    y_py = mgblas.gemv(A, x, "N", 0.5, -1.5, y0.copy())
    dev = ctypes.c_void_p()
    _check(capi, capi.mgblas_context_device(cctx, 0, ctypes.byref(dev)))
    y_c = y0.copy()
    i64, dbl = ctypes.c_int64, ctypes.c_double
    _check(capi, capi.mgblas_dgemv(dev, ord("N"), i64(m), i64(n), dbl(0.5), _ptr(A), i64(m),
                                   _ptr(x), i64(1), dbl(-1.5), _ptr(y_c), i64(1)))
    assert np.linalg.norm(y_c) > 0
    np.testing.assert_allclose(y_c, y_py, rtol=0, atol=64 * n * np.finfo(float).eps)


def test_same_symv_mgpu(capi, cctx, ctx, rng):
    n, nb = 45, 8
    A = random(rng, (n, n), np.float64)
    x = random(rng, n, np.float64)
    y_py = mgblas.symv_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=nb), x, "U", 2.0)
    M = _c_matrix(capi, cctx, "d", A, nb)
    y_c = np.zeros(n)
    _check(capi, capi.mgblas_dsymv_mgpu(cctx, ord("U"), ctypes.c_double(2.0), M, _ptr(x),
                                        ctypes.c_double(0.0), _ptr(y_c)))
    capi.mgblas_matrix_destroy(M)
    np.testing.assert_allclose(y_c, y_py, rtol=0, atol=64 * n * np.finfo(float).eps)


def test_same_zher2k_mgpu(capi, cctx, ctx, rng):
    n, k, nb = 23, 5, 4
    C0 = random(rng, (n, n), np.complex128)
    A, B = (np.asfortranarray(random(rng, (n, k), np.complex128)) for _ in range(2))
    alpha, beta = 0.5 - 0.25j, 0.75
    C_py = mgblas.her2k_mgpu(mgblas.DistMatrix.from_array(ctx, C0, nb=nb), A, B, "L", alpha,
                             beta).to_array(root=None)
    M = _c_matrix(capi, cctx, "z", C0, nb)
    i64 = ctypes.c_int64
    _check(capi, capi.mgblas_zher2k_mgpu(cctx, ord("L"), i64(k), Complex(alpha.real, alpha.imag),
                                         _ptr(A), i64(n), _ptr(B), i64(n), ctypes.c_double(beta),
                                         M))
    C_c = _c_collect(capi, cctx, M, (n, n), np.complex128)
    low = np.tril_indices(n)
    assert np.linalg.norm(C_c[low]) > 0
    np.testing.assert_allclose(C_c[low], C_py[low], rtol=0, atol=64 * k * np.finfo(float).eps)


def test_same_tridiag_eigenvalues_mgpu(capi, cctx, ctx, rng):
    n = 50
    d, e = random(rng, n, np.float64), random(rng, n - 1, np.float64)
    w_py = mgblas.tridiag_eigenvalues_mgpu(ctx, d, e)
    w_c = np.zeros(n)
    _check(capi, capi.mgblas_dtridiag_eigenvalues_mgpu(cctx, ctypes.c_int64(n), _ptr(d), _ptr(e),
                                                       _ptr(w_c)))
    np.testing.assert_allclose(w_c, w_py, rtol=0, atol=8 * n * np.finfo(float).eps)


def test_same_zhetrd_mgpu(capi, cctx, ctx, rng):
    n, nb = 31, 8
    A = random(rng, (n, n), np.complex128)
    A = A + A.conj().T
    d_py, e_py, _ = mgblas.hetrd_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=nb), "L")
    M = _c_matrix(capi, cctx, "z", A, nb)
    d_c, e_c = np.zeros(n), np.zeros(n - 1)
    tau = np.zeros(n - 1, dtype=np.complex128)
    _check(capi, capi.mgblas_zhetrd_mgpu(cctx, ord("L"), M, _ptr(d_c), _ptr(e_c), _ptr(tau)))
    capi.mgblas_matrix_destroy(M)
    scale = np.linalg.norm(A) * n * np.finfo(float).eps
    np.testing.assert_allclose(d_c, d_py, rtol=0, atol=8 * scale)
    np.testing.assert_allclose(np.abs(e_c), np.abs(e_py), rtol=0, atol=8 * scale)


def test_same_dsyevd_mgpu(capi, cctx, ctx, rng):
    """The range letter, the int64_t* count and an optional matrix through C: the same
    eigenpairs (up to each vector's sign) as mgblas.eigh."""
    n, nb, il, iu = 29, 8, 2, 10
    A = random(rng, (n, n), np.float64)
    A = A + A.T
    w_py, Z_py = mgblas.eigh(mgblas.DistMatrix.from_array(ctx, A, nb=nb), "U",
                             subset_by_index=(il, iu))
    M = _c_matrix(capi, cctx, "d", A, nb)
    Z = _c_matrix(capi, cctx, "d", np.zeros((n, iu - il + 1)), nb)
    w_c, m = np.zeros(n), ctypes.c_int64(-1)
    i64, dbl = ctypes.c_int64, ctypes.c_double
    _check(capi, capi.mgblas_dsyevd_mgpu(cctx, ord("U"), M, ord("I"), dbl(0), dbl(0), i64(il),
                                         i64(iu), ctypes.byref(m), _ptr(w_c), Z))
    assert m.value == iu - il + 1
    Z_c = _c_collect(capi, cctx, Z, (n, m.value), np.float64)
    # values only (Z NULL), the whole spectrum
    Af = np.asfortranarray(A)  # alive through the call
    _check(capi, capi.mgblas_matrix_distribute(cctx, M, _ptr(Af), i64(n), 0))
    w_all = np.zeros(n)
    _check(capi, capi.mgblas_dsyevd_mgpu(cctx, ord("L"), M, ord("A"), dbl(0), dbl(0), i64(0),
                                         i64(0), ctypes.byref(m), _ptr(w_all), None))
    capi.mgblas_matrix_destroy(M)
    scale = np.linalg.norm(A) * n * np.finfo(float).eps
    np.testing.assert_allclose(w_c[:iu - il + 1], w_py, rtol=0, atol=8 * scale)
    np.testing.assert_allclose(w_all, np.linalg.eigvalsh(A), rtol=0, atol=8 * scale)
    dots = np.abs(np.sum(Z_c * Z_py.to_array(root=None), axis=0))
    np.testing.assert_allclose(dots, 1.0, rtol=0, atol=1e-10)


def test_same_sytrd_2stage_and_band_mgpu(capi, cctx, ctx, rng):
    """The two-stage reduction through C (the _ex form's band, a NULL AB) gives Python's
    d, e and tau bit for bit: the same host devices lay A out alike."""
    n, nb, band = 37, 8, 4
    A = random(rng, (n, n), np.float64)
    A = A + A.T
    d_py, e_py = mgblas.hetrd_2stage_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=nb), "U",
                                          band=band)
    tau_py, _ = mgblas.hetrd_band_mgpu(mgblas.DistMatrix.from_array(ctx, A, nb=nb), band, "L")

    class Options(ctypes.Structure):  # mgblas_reduction_options_t
        _fields_ = [("panel", ctypes.c_int64), ("transport", ctypes.c_int),
                    ("pass_", ctypes.c_int), ("profile", ctypes.c_void_p),
                    ("band", ctypes.c_int64), ("stages", ctypes.c_int)]

    M = _c_matrix(capi, cctx, "d", A, nb)
    d_c, e_c, tau_c = np.zeros(n), np.zeros(n - 1), np.zeros(n - band)
    opts = Options(band=band)
    _check(capi, capi.mgblas_dsytrd_2stage_mgpu_ex(cctx, ord("U"), M, _ptr(d_c), _ptr(e_c),
                                                   ctypes.byref(opts)))
    Af = np.asfortranarray(A)  # alive through the call
    _check(capi, capi.mgblas_matrix_distribute(cctx, M, _ptr(Af), ctypes.c_int64(n), 0))
    _check(capi, capi.mgblas_dsytrd_band_mgpu(cctx, ord("L"), M, ctypes.c_int64(band),
                                              _ptr(tau_c), None, ctypes.c_int64(0)))
    capi.mgblas_matrix_destroy(M)
    assert np.linalg.norm(d_c) > 0 and np.linalg.norm(tau_c) > 0
    np.testing.assert_array_equal(d_c, d_py)
    np.testing.assert_array_equal(e_c, e_py)
    np.testing.assert_array_equal(tau_c, tau_py)
