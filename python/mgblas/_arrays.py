# SPDX-License-Identifier: BSD-3-Clause
"""Array intake: what an argument is (host or CUDA memory, address, shape, strides in
elements, dtype) and the checks every binding shares. Nothing here copies: where a
binding needs another layout it says so itself."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import _mgblas as _core
from ._errors import BadArgument, CudaError, DimensionMismatch, NotCompiled

LETTER = {
    np.dtype(np.float32): "s",
    np.dtype(np.float64): "d",
    np.dtype(np.complex64): "c",
    np.dtype(np.complex128): "z",
}
REAL_OF = {"s": np.dtype(np.float32), "d": np.dtype(np.float64),
           "c": np.dtype(np.float32), "z": np.dtype(np.float64)}
DTYPE_OF = {v: k for k, v in LETTER.items()}
SUPPORTED = "float32, float64, complex64 or complex128"


class Arr:
    """A described array argument. ``device`` is -1 for host memory, else the CUDA
    ordinal; ``strides`` are in elements; ``obj`` keeps the memory alive."""

    __slots__ = ("obj", "ptr", "shape", "strides", "dtype", "device", "readonly", "name")

    def __init__(self, obj, ptr, shape, strides, dtype, device, readonly, name):
        self.obj = obj
        self.ptr = ptr
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.dtype = dtype
        self.device = device
        self.readonly = readonly
        self.name = name

    @property
    def on_gpu(self) -> bool:
        return self.device >= 0

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def letter(self) -> str:
        return LETTER[self.dtype]

    @property
    def where(self) -> str:
        return "host" if self.device < 0 else f"cuda:{self.device}"


def _cuda_ordinal(obj: Any) -> int:
    dev = getattr(obj, "device", None)
    for attr in ("id", "index"):  # CuPy, PyTorch
        v = getattr(dev, attr, None)
        if isinstance(v, int):
            return v
    return 0


def _require_gpu(name: str) -> None:
    if not _core.has_cuda:
        raise NotCompiled(
            f"{name} is a CUDA array, but this mgblas was built without CUDA "
            "(MGBLAS_ENABLE_CUDA=OFF); pass a NumPy array")
    if _core.cuda_device_count() == 0:
        raise CudaError(
            f"{name} is a CUDA array, but no CUDA GPU is visible to this process; "
            "pass a NumPy array")


def describe(a: Any, name: str, *, writable: bool = False) -> Arr:
    """Describe `a` without copying it. NumPy arrays (and objects with the array
    interface or a CPU DLPack capsule) are host memory; objects with
    ``__cuda_array_interface__`` (CuPy, Numba, PyTorch) or a CUDA DLPack capsule are
    device memory. Other sequences are converted with numpy.asarray (inputs only)."""
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is None and not isinstance(a, np.ndarray) and hasattr(a, "__dlpack_device__"):
        kind = a.__dlpack_device__()[0]
        if kind == 2:  # kDLCUDA
            _require_gpu(name)
            try:
                import cupy
            except ImportError as e:
                raise BadArgument(f"{name}: CUDA DLPack tensors need CuPy installed") from e
            a = cupy.from_dlpack(a)
            cai = a.__cuda_array_interface__
        elif kind == 1 and not hasattr(a, "__array_interface__"):
            a = np.from_dlpack(a)
    if cai is not None:
        _require_gpu(name)
        ptr, readonly = cai["data"]
        dtype = np.dtype(cai["typestr"])
        shape = tuple(cai["shape"])
        strides = cai.get("strides")
        if strides is None:  # C-contiguous
            strides, s = [], dtype.itemsize
            for d in reversed(shape):
                strides.append(s)
                s *= max(d, 1)
            strides = tuple(reversed(strides))
        arr = Arr(a, int(ptr), shape, _elem_strides(strides, dtype, name), dtype,
                  _cuda_ordinal(a), bool(readonly), name)
    else:
        if not isinstance(a, np.ndarray):
            if writable:
                raise BadArgument(f"{name} must be a writable NumPy or CuPy array, "
                                  f"not {type(a).__name__}")
            a = np.asarray(a)
        ai = a.__array_interface__
        arr = Arr(a, int(ai["data"][0]), a.shape, _elem_strides(a.strides, a.dtype, name),
                  a.dtype, -1, not a.flags.writeable, name)
    if arr.dtype not in LETTER:
        raise BadArgument(f"{name} has dtype {arr.dtype}; mgblas takes {SUPPORTED}")
    if writable and arr.readonly:
        raise BadArgument(f"{name} is read-only but is written")
    return arr


def _elem_strides(strides: Sequence[int], dtype: np.dtype, name: str) -> Tuple[int, ...]:
    out = []
    for s in strides:
        if s % dtype.itemsize:
            raise BadArgument(f"{name} has a stride of {s} bytes, not a whole number of "
                              f"{dtype} elements")
        out.append(s // dtype.itemsize)
    return tuple(out)


def check_dtype(arr: Arr, dtype: np.dtype, what: str) -> None:
    if arr.dtype != dtype:
        raise BadArgument(f"{arr.name} has dtype {arr.dtype} but {what} is {dtype}; "
                          f"convert it first (for example {arr.name}.astype(np.{dtype}))")


def vector(arr: Arr, n: int, *, unit_stride: bool = True) -> int:
    """Checks a vector of length n; returns its stride (elements)."""
    if arr.ndim != 1:
        raise DimensionMismatch(f"{arr.name} must be 1-D (a vector), not of shape {arr.shape}")
    if arr.shape[0] != n:
        raise DimensionMismatch(f"{arr.name} has length {arr.shape[0]} but must have length {n}")
    inc = arr.strides[0] if n > 1 else 1
    if unit_stride and inc != 1:
        raise BadArgument(f"{arr.name} is not contiguous (stride {inc} elements); pass a "
                          f"contiguous vector (numpy.ascontiguousarray)")
    if inc <= 0:
        raise BadArgument(f"{arr.name} has stride {inc}: only positive strides are taken")
    return inc


def matrix_orders(shape: Sequence[int], strides: Sequence[int]) -> dict:
    """The ways an r x c matrix with these element strides can be handed to a
    column-major BLAS: {'F': ld} (column-major, ld = column stride) and/or {'C': ld}
    (row-major, ld = row stride, i.e. column-major of the transpose)."""
    r, c = shape
    sr, sc = strides
    if r == 0 or c == 0:  # nothing is read: any layout will do
        return {"F": max(1, r), "C": max(1, c)}
    out = {}
    if r <= 1 or sr == 1:
        ld = sc if c > 1 else max(1, r)
        if ld >= max(1, r):
            out["F"] = ld
    if c <= 1 or sc == 1:
        ld = sr if r > 1 else max(1, c)
        if ld >= max(1, c):
            out["C"] = ld
    return out


def colmajor_ld(arr: Arr) -> Optional[int]:
    """ld if the 2-D `arr` is column-major with unit row stride, else None."""
    return matrix_orders(arr.shape, arr.strides).get("F")


def scalar(v: Any, letter: str, name: str) -> complex:
    try:
        z = complex(v)
    except (TypeError, ValueError) as e:
        raise BadArgument(f"{name} = {v!r} is not a number") from e
    if letter in "sd" and z.imag != 0:
        raise BadArgument(f"{name} = {v!r} is complex but the matrix is real")
    return z


def option(v: Any, name: str, allowed: str) -> str:
    """A one-letter BLAS option ('N', 'T', 'C', 'L', 'U'; any case; 'lower' / 'upper')."""
    if isinstance(v, str):
        s = v.strip().upper()
        s = {"LOWER": "L", "UPPER": "U"}.get(s, s)
        if len(s) == 1 and s in allowed:
            return s
    raise BadArgument(f"{name} = {v!r}: must be one of " + ", ".join(repr(c) for c in allowed))


def cuda_stream(device: int) -> int:
    """CuPy's current stream on `device` (0, the legacy default stream, without CuPy)."""
    try:
        import cupy
    except ImportError:
        return 0
    with cupy.cuda.Device(device):
        return cupy.cuda.get_current_stream().ptr


def cuda_sync(device: int) -> None:
    """Wait for CuPy's current stream on `device`, so that the library's own streams
    see what it produced."""
    try:
        import cupy
    except ImportError:
        return
    with cupy.cuda.Device(device):
        cupy.cuda.get_current_stream().synchronize()


def zeros_like_kind(ref: Arr, shape, dtype, order: str = "F"):
    """A new zero array in the memory of `ref` (NumPy for host, CuPy for a GPU): zeros,
    so that an output the call leaves alone (BLAS's quick return on an empty inner
    dimension) reads as the exact result, 0."""
    if ref.on_gpu:
        try:
            import cupy
        except ImportError as e:
            raise BadArgument("the output cannot be allocated on the GPU without CuPy; "
                              "pass it explicitly") from e
        with cupy.cuda.Device(ref.device):
            return cupy.zeros(shape, dtype=dtype, order=order)
    return np.zeros(shape, dtype=dtype, order=order)
