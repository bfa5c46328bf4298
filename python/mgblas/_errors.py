# SPDX-License-Identifier: BSD-3-Clause
"""The exceptions of mgblas, mirroring the C++ hierarchy of core/error.hpp.

Every error of the library is an :class:`Error`; argument errors are also
``ValueError`` and missing features ``NotImplementedError``, so generic handlers
work. Errors of collective calls are raised on every rank: the rank that found the
problem raises its own error, the others :class:`RemoteError`.
"""

from __future__ import annotations


class Error(RuntimeError):
    """Base class of every mgblas error. ``code`` holds the raw code of the failing
    library call (cudaError_t, MPI error class, ...) or 0."""

    code: int = 0


class BadArgument(Error, ValueError):
    """An argument is out of its domain: wrong dtype, non-contiguous array, negative
    size, unknown option, ..."""


class DimensionMismatch(Error, ValueError):
    """Operands disagree: shapes, lengths, layouts, or arguments that differ across
    ranks."""


class NotCompiled(Error, NotImplementedError):
    """The feature exists but this build lacks it (CUDA, MPI or NCCL off)."""


class Unimplemented(Error, NotImplementedError):
    """The combination of options is not implemented (C++ mgblas::NotImplemented)."""


class RemoteError(Error):
    """Another rank (or device) failed; its own error is raised there."""


class CudaError(Error):
    """A CUDA runtime call failed, or a CUDA array was given where no GPU is
    visible."""


class CublasError(Error):
    """A cuBLAS call failed."""


class NcclError(Error):
    """An NCCL collective failed."""


class MpiError(Error):
    """An MPI call failed."""


class HwlocError(Error):
    """hwloc (topology discovery) failed."""


class AllocationError(Error, MemoryError):
    """An allocation failed; the message names the bytes and the device."""


class Timeout(Error, TimeoutError):
    """The other ranks did not join a collective within MGBLAS_COMM_TIMEOUT seconds;
    the context's communicator cannot be used afterwards."""


ERROR_TYPES = {
    cls.__name__: cls
    for cls in (Error, BadArgument, DimensionMismatch, NotCompiled, Unimplemented,
                RemoteError, CudaError, CublasError, NcclError, MpiError, HwlocError,
                AllocationError, Timeout)
}
