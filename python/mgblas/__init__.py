# SPDX-License-Identifier: BSD-3-Clause
"""mgblas: multi-GPU, multi-rank BLAS from Python.

Matrices are spread over every device (GPU, or host device without one) of every
MPI rank; the operations are collective over the ranks of a :class:`Context`::

    from mpi4py import MPI
    import numpy as np, mgblas

    ctx = mgblas.Context(MPI.COMM_WORLD)
    A = mgblas.DistMatrix.from_array(ctx, A_host if ctx.rank == 0 else None, nb=256)
    y = mgblas.symv_mgpu(A, x, uplo="L")          # the same y on every rank

dtype picks the precision (float32, float64, complex64, complex128). NumPy arrays are
host memory; CuPy arrays (or any object with ``__cuda_array_interface__`` or a CUDA
DLPack capsule) are device memory, used in place. Errors are :class:`Error`
subclasses, raised on every rank of a collective call.
"""

from . import _mgblas
from ._errors import (ERROR_TYPES, AllocationError, BadArgument, CublasError, CudaError,
                      DimensionMismatch, Error, HwlocError, MpiError, NcclError, NotCompiled,
                      RemoteError, Timeout, Unimplemented)

_mgblas.set_error_types(ERROR_TYPES)

from ._context import Context  # noqa: E402
from ._dist import DistMatrix, LocalBlock, RowTiledMatrix  # noqa: E402
from ._layout2d import BlockCyclic2D  # noqa: E402
from ._blas import (gebrd, eigh, eigvalsh, gemm_batched, gemv, gemv_mgpu, gemv_mgpu_offset,  # noqa: E402
                    hemv, hemv_mgpu, hemv_mgpu_offset, hetrd, ormtr, symv, symv_mgpu,
                    symv_mgpu_offset, sytrd, tridiag_eigenvalues, tsgemm, tsgemm_mgpu, unmtr,
                    svd, unmbr, ormbr, geqrf)
# The rest of the manifest's operations (api/operations.py), under their C++/C names.
from ._ops import (band_to_bidiag, band_to_tridiag, band_to_tridiag_apply_q,  # noqa: E402
                   gebrd_2d, gebrd_mgpu, gemm, gemm_batched_strided,
                   gemm_batched_strided_mgpu, gemm_batched_strided_mgpu_local, gemm_grouped,
                   geqrf_mgpu, gesvd_mgpu, ormbr_mgpu, unmbr_mgpu,
                   gemm_vbatched, gemm_vbatched_mgpu, gemv_offset, gesvd_2d, heevd_2d, heevd_mgpu,
                   hemv_offset, her2k_mgpu, hetrd_2d, hetrd_2stage_mgpu, hetrd_band_mgpu,
                   hetrd_mgpu, ormtr_mgpu, symv_offset, syevd_2d, syr2k_mgpu, sytrd_2d,
                   sytrd_mgpu, tridiag_eigenvalues_mgpu, tridiag_eigenvectors_mgpu,
                   tsgemm_mgpu_ksplit, unmtr_mgpu)

__version__ = _mgblas.__version__
has_cuda: bool = _mgblas.has_cuda
has_mpi: bool = _mgblas.has_mpi
has_nccl: bool = _mgblas.has_nccl
#: The precision letters this build has (MGBLAS_PRECISIONS), e.g. "sdcz"; a call with
#: another dtype raises NotCompiled.
precisions: str = _mgblas.precisions


def cuda_device_count() -> int:
    """CUDA GPUs visible to this process (0 without CUDA or without a GPU)."""
    return _mgblas.cuda_device_count()


__all__ = [
    "Context", "DistMatrix", "RowTiledMatrix", "LocalBlock", "BlockCyclic2D",
    "gemv", "symv", "hemv", "tsgemm", "gemm_batched",
    "gemv_mgpu", "gemv_mgpu_offset", "symv_mgpu", "symv_mgpu_offset",
    "hemv_mgpu", "hemv_mgpu_offset", "tsgemm_mgpu",
    "hetrd", "sytrd", "gebrd", "tridiag_eigenvalues", "eigvalsh", "eigh", "unmtr", "ormtr",
    "gemv_offset", "symv_offset", "hemv_offset", "gemm", "gemm_batched_strided",
    "gemm_vbatched", "gemm_grouped", "gemm_batched_strided_mgpu", "gemm_vbatched_mgpu",
    "gemm_batched_strided_mgpu_local", "tsgemm_mgpu_ksplit", "her2k_mgpu", "syr2k_mgpu",
    "hetrd_mgpu", "sytrd_mgpu", "hetrd_band_mgpu", "hetrd_2stage_mgpu", "gebrd_mgpu",
    "unmtr_mgpu", "ormtr_mgpu",
    "tridiag_eigenvalues_mgpu", "heevd_mgpu", "heevd_2d", "syevd_2d",
    "band_to_tridiag", "band_to_tridiag_apply_q", "band_to_bidiag", "tridiag_eigenvectors_mgpu",
    "hetrd_2d", "sytrd_2d", "gebrd_2d", "gesvd_2d",
    "svd", "unmbr", "ormbr", "geqrf", "gesvd_mgpu", "unmbr_mgpu", "ormbr_mgpu", "geqrf_mgpu",
    "Error", "BadArgument", "DimensionMismatch", "NotCompiled", "Unimplemented",
    "RemoteError", "CudaError", "CublasError", "NcclError", "MpiError", "HwlocError",
    "AllocationError", "Timeout",
    "cuda_device_count", "has_cuda", "has_mpi", "has_nccl", "precisions",
    "__version__",
]
