# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures of the mgblas Python tests.

Run on one rank (python -m pytest python/tests) or several
(mpirun -np 2 python -m pytest python/tests): every rank runs every test in the same
order, with the same random data (the seed comes from rank 0), since the distributed
calls are collective. Without a GPU the context runs on host devices (two per rank,
env MGBLAS_TEST_HOST_DEVICES); GPU and CuPy tests are skipped.
"""

import os
import secrets

import numpy as np
import pytest

import mgblas

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
REAL_DTYPES = [np.float32, np.float64]
COMPLEX_DTYPES = [np.complex64, np.complex128]


@pytest.fixture(scope="session")
def ctx():
    backend = os.environ.get("MGBLAS_TEST_BACKEND", "auto")
    host_devices = int(os.environ.get("MGBLAS_TEST_HOST_DEVICES", "2"))
    return mgblas.Context(backend=backend, host_devices=host_devices)


def shared_seed(ctx):
    """A fresh seed, the same on every rank (rank 0's)."""
    return int(ctx._gather_tokens(str(secrets.randbits(63)))[0])


@pytest.fixture
def rng(ctx, request):
    seed = shared_seed(ctx)
    request.node.user_properties.append(("seed", seed))
    return np.random.default_rng(seed)


def random(rng, shape, dtype):
    """Entries uniform in [-1, 1] (real and imaginary parts)."""
    dtype = np.dtype(dtype)
    a = rng.uniform(-1, 1, shape)
    if dtype.kind == "c":
        a = a + 1j * rng.uniform(-1, 1, shape)
    return a.astype(dtype)


def symmetric(rng, n, dtype, hermitian=False):
    B = random(rng, (n, n), dtype)
    A = B + (B.conj().T if hermitian else B.T)
    if hermitian:
        A[np.diag_indices(n)] = A.diagonal().real
    return A


def eps(dtype):
    return float(np.finfo(np.dtype(dtype)).eps)


def hi(a):
    """a in double precision (the reference's)."""
    a = np.asarray(a)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def assert_close(got, ref, bound, k, dtype, what=""):
    """|got - ref| <= 2 (k + 2) eps max(bound) entrywise: the rounding bound of a sum of
    k products (bound = the sum of their magnitudes, e.g. |alpha| |A| |x| + |beta| |y|),
    with ref computed in double precision."""
    got = np.asarray(got)
    ref = np.asarray(ref)
    assert got.shape == ref.shape, f"{what}: shape {got.shape} != {ref.shape}"
    if got.size == 0:
        return
    err = float(np.max(np.abs(hi(got) - ref)))
    tol = 2 * (k + 2) * eps(dtype) * max(float(np.max(np.abs(bound))), 1e-300)
    assert err <= tol, f"{what}: error {err:.3e} > tolerance {tol:.3e}"


def gpu_available():
    return mgblas.has_cuda and mgblas.cuda_device_count() > 0


def cupy_or_skip():
    if not gpu_available():
        pytest.skip("no CUDA GPU visible (or mgblas built without CUDA)")
    return pytest.importorskip("cupy")
