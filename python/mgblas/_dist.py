# SPDX-License-Identifier: BSD-3-Clause
"""Distributed containers: DistMatrix (block columns dealt over every device of every
rank, the layout of the Level-2 drivers and the reductions) and RowTiledMatrix (row
blocks, the layout of the distributed tall-and-skinny GEMM)."""

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Tuple

import numpy as np

from . import _mgblas as _core
from ._arrays import (DTYPE_OF, LETTER, SUPPORTED, Arr, colmajor_ld, cuda_sync, describe,
                      check_dtype)
from ._context import Context
from ._errors import BadArgument, DimensionMismatch
from ._layout2d import BlockCyclic2D


def _dtype(dtype: Any) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise BadArgument(f"dtype = {dtype!r} is not a NumPy dtype") from e
    if dt not in LETTER:
        raise BadArgument(f"dtype = {dt}: mgblas takes {SUPPORTED}")
    return dt


def _check_ctx(ctx: Any) -> Context:
    if not isinstance(ctx, Context):
        raise BadArgument(f"ctx must be an mgblas.Context, not {type(ctx).__name__}")
    return ctx


def _check_root(ctx: Context, root: Optional[int], allow_none: bool = True) -> None:
    if root is None and allow_none:
        return
    if not isinstance(root, (int, np.integer)) or not 0 <= root < ctx.size:
        raise BadArgument(f"root = {root!r}: must be a rank in [0, {ctx.size})"
                          + (" or None (every rank)" if allow_none else ""))


def _source(ctx: Context, A: Any, name: str, host_only: bool) -> Tuple[Arr, Any, int]:
    """The matrix A as the scatter reads it: a column-major view (used in place) or a
    Fortran-ordered copy (other layouts). Device arrays stay on the device when the
    copy runs on this rank only (`host_only` False); otherwise they come to the host,
    since ranks exchange host memory. Returns (description, keep-alive, lda)."""
    arr = describe(A, name)
    if arr.ndim != 2:
        raise DimensionMismatch(f"{name} must be 2-D, not of shape {arr.shape}")
    if arr.on_gpu:
        if ctx.backend != "cuda":
            raise BadArgument(f"{name} is a CUDA array but the context runs on host devices; "
                              "pass a NumPy array or make a Context(backend='cuda')")
        import cupy
        obj = arr.obj
        if host_only:
            obj = cupy.asnumpy(cupy.asfortranarray(obj))
        elif colmajor_ld(arr) is None:
            obj = cupy.asfortranarray(obj)
        cuda_sync(arr.device)
        if obj is not arr.obj:
            arr = describe(obj, name)
        return arr, obj, colmajor_ld(arr) or max(1, arr.shape[0])
    ld = colmajor_ld(arr)
    if ld is None:  # row-major or strided: one host copy into column-major order
        obj = np.asfortranarray(arr.obj)
        arr = describe(obj, name)
        ld = colmajor_ld(arr)
    return arr, arr.obj, ld


def _destination(out: Any, shape: Tuple[int, int], dtype: np.dtype, ctx: Context) -> Tuple[Any, Any, int]:
    """Where a gather writes: (array returned, array written, lda)."""
    if out is None:
        res = np.empty(shape, dtype=dtype, order="F")
        return res, res, max(1, shape[0])
    arr = describe(out, "out", writable=True)
    check_dtype(arr, dtype, "the matrix")
    if arr.shape != tuple(shape):
        raise DimensionMismatch(f"out has shape {arr.shape} but the matrix is {shape}")
    ld = colmajor_ld(arr)
    if ld is None:
        raise BadArgument("out must be column-major (Fortran order) with unit row stride")
    if arr.on_gpu and ctx.size > 1:  # ranks exchange host memory: gather there, then copy
        tmp = np.empty(shape, dtype=dtype, order="F")
        return out, tmp, max(1, shape[0])
    return out, out, ld


def _check_sizes(*rules: Tuple[str, Any, int]) -> None:
    """Each (name, value, low): value must be an integer >= low."""
    for name, v, low in rules:
        if not isinstance(v, (int, np.integer)) or v < low:
            raise BadArgument(f"{name} = {v!r}: must be an integer >= {low}")


class LocalBlock(NamedTuple):
    """One contiguous block of a distributed matrix that this rank holds: global entries
    ``(row + i, col + j)``, ``0 <= i < rows``, ``0 <= j < cols``, column-major at address
    ``ptr`` with leading dimension ``ld`` (in elements), in the memory of local device
    ``device`` (``ctx.devices[device]``). ``array`` is a writable ``rows x cols`` view of
    it: a NumPy array on a host device, a CuPy array on a GPU (None where CuPy cannot be
    imported). Views keep the matrix alive."""

    device: int
    ptr: int
    ld: int
    row: int
    col: int
    rows: int
    cols: int
    array: Any


class _BlockMemory:
    """A block's memory under the (CUDA) array interface, holding its matrix."""

    def __init__(self, owner: Any, ptr: int, rows: int, cols: int, ld: int, dtype: np.dtype,
                 on_gpu: bool) -> None:
        self._owner = owner
        iface = {"shape": (rows, cols), "typestr": dtype.str, "data": (ptr, False),
                 "strides": (dtype.itemsize, ld * dtype.itemsize), "version": 3}
        if on_gpu:
            self.__cuda_array_interface__ = iface
        else:
            self.__array_interface__ = iface


def _block_view(owner: Any, ptr: int, rows: int, cols: int, ld: int, dtype: np.dtype,
                gpu_ordinal: int) -> Any:
    mem = _BlockMemory(owner, ptr, rows, cols, ld, dtype, gpu_ordinal >= 0)
    if gpu_ordinal < 0:
        return np.asarray(mem)
    try:
        import cupy
    except ImportError:
        return None
    with cupy.cuda.Device(gpu_ordinal):
        return cupy.asarray(mem)


class _Distributed:
    """What DistMatrix and RowTiledMatrix share: filling from and gathering into a
    whole array held by one rank or by all. Subclasses take (ctx, m, n, dtype, block)
    where block is nb or tile, and wrap a core object with distribute/collect."""

    ctx: Context
    dtype: np.dtype
    _c: Any

    def _create(self, ctx: Context, m: int, n: int, dtype: Any, block_name: str, block: int,
                factory: Any) -> None:
        """The shared constructor: checks, then factory(ctx, letter, m, n, block)."""
        _check_ctx(ctx)
        dt = _dtype(dtype)
        _check_sizes(("m", m, 0), ("n", n, 0), (block_name, block, 1))
        self.ctx = ctx
        self.dtype = dt
        self._c = factory(ctx._c, LETTER[dt], int(m), int(n), int(block))

    @property
    def shape(self) -> Tuple[int, int]:
        return (self._c.m, self._c.n)

    @classmethod
    def _from_array(cls, ctx: Context, A: Any, block_name: str, block: int, root: Optional[int]):
        _check_ctx(ctx)
        replicated = root is None
        me = ctx.rank
        what = f"{cls.__name__}.from_array"

        def check():
            _check_root(ctx, root)
            _check_sizes((block_name, block, 1))
            if replicated or me == root:
                src = _source(ctx, A, "A", host_only=not replicated and ctx.size > 1)
                m, n = src[0].shape
                return src, f"{root} {block} {m} {n} {src[0].letter}"
            return None, f"{root} {block} ? ? ?"

        if ctx.size == 1:
            src, sig = ctx._agree(what, lambda: (check(), ""))
        else:
            src, sig = _agree_with_root(ctx, what, check, root)
        _, _, m, n, letter = sig.split()
        M = cls(ctx, int(m), int(n), DTYPE_OF[letter], block)
        if replicated:
            M._c.distribute_replicated(src[0].ptr, src[2])
        elif me == root:
            M._c.distribute(src[0].ptr, src[2], root)
        else:
            M._c.distribute(0, 1, root)
        return M

    def local_blocks(self) -> List[LocalBlock]:
        """This rank's blocks of the matrix (:class:`LocalBlock`), to fill or read in
        place without a root: by local device, then in local order; empty blocks are not
        listed. Not collective. Work queued on a GPU may still be writing there: call
        ``ctx.synchronize()`` first where that can be."""
        ords = self.ctx._c.gpu_ordinals
        return [LocalBlock(d, p, ld, r, c, rows, cols,
                           _block_view(self, p, rows, cols, ld, self.dtype, ords[d]))
                for d, p, ld, r, c, rows, cols in self._c.local_blocks()]

    def _to_array(self, root: Optional[int], out: Any) -> Optional[Any]:
        ctx = self.ctx

        def check():
            _check_root(ctx, root)
            receives = root is None or ctx.rank == root
            dst = _destination(out, self.shape, self.dtype, ctx) if receives else None
            return dst, f"{root}"

        dst = ctx._agree(f"{type(self).__name__}.to_array", check)
        if dst is None:
            self._c.collect(0, 1, -1 if root is None else root)
            return None
        res, target, ld = dst
        tarr = describe(target, "out", writable=True)
        self._c.collect(tarr.ptr, ld, -1 if root is None else root)
        if target is not res:
            res[...] = _to_kind(res, target)
        return res


class DistMatrix(_Distributed):
    """An m x n matrix split into block columns of width ``nb``; block column j lives
    on global device j mod P (P devices over all ranks). Each device stores its blocks
    column-major.

    ``DistMatrix(ctx, m, n, dtype, nb)`` allocates (uninitialised); most code uses
    :meth:`from_array`, or fills :meth:`local_blocks` in place (one block per block
    column of width nb, all m rows).
    """

    def __init__(self, ctx: Context, m: int, n: int, dtype: Any = np.float64, nb: int = 256) -> None:
        self._create(ctx, m, n, dtype, "nb", nb, _core.DistMatrix.create)

    @property
    def nb(self) -> int:
        return self._c.nb

    def __repr__(self) -> str:
        return f"mgblas.DistMatrix(shape={self.shape}, dtype={self.dtype}, nb={self.nb})"

    @classmethod
    def from_array(cls, ctx: Context, A: Any, nb: int = 256, root: Optional[int] = 0) -> "DistMatrix":
        """Distribute the matrix A held by rank ``root`` (the other ranks may pass None;
        they learn shape and dtype from the root). ``root=None``: every rank holds all of
        A and copies its own columns (no traffic between ranks).

        A is a NumPy array (a column-major one is read in place; others are first
        copied to Fortran order) or, on a CUDA context, a CuPy array (read on the
        device where no other rank needs it: one rank, or root=None). Collective.
        """
        return cls._from_array(ctx, A, "nb", nb, root)

    def to_array(self, root: Optional[int] = 0, out: Any = None) -> Optional[Any]:
        """Gather the matrix on rank ``root`` (None: on every rank). Returns a
        Fortran-ordered NumPy array there (or ``out``, a column-major NumPy or CuPy
        array of the right shape and dtype) and None on the other ranks. Collective."""
        return self._to_array(root, out)

    def import_2d(self, desc: BlockCyclic2D, local: Any) -> None:
        """Fill the matrix from ScaLAPACK's 2-D block-cyclic layout ``desc``
        (:class:`BlockCyclic2D`, the matrix's shape): ``local`` is this rank's local
        array, a NumPy array of the matrix's dtype with ``desc.local_shape(ctx.rank)``
        = (LOCr, LOCc) entries, or a padded (lld, LOCc) one (lld >= LOCr; only the
        first LOCr rows are read); a layout other than column-major is copied to
        Fortran order first. None on ranks holding nothing (outside the grid). One
        all-to-all between the ranks, no root: no rank holds more than its own parts.
        Collective: every rank calls, with the same desc."""
        self._redistribute_2d("import_2d", desc, local, writes=False)

    def export_2d(self, desc: BlockCyclic2D, local: Any) -> None:
        """Write the matrix into ScaLAPACK's 2-D block-cyclic layout ``desc``: ``local``
        is this rank's local array as for :meth:`import_2d`, written in place, so it
        must be a writable column-major (Fortran-ordered) NumPy array (rows past LOCr
        of a padded one are left alone). Collective."""
        self._redistribute_2d("export_2d", desc, local, writes=True)

    def _redistribute_2d(self, name: str, desc: Any, local: Any, writes: bool) -> None:
        ctx = self.ctx
        what = f"DistMatrix.{name}"

        def check():
            if not isinstance(desc, BlockCyclic2D):
                raise BadArgument("desc must be an mgblas.BlockCyclic2D, not "
                                  f"{type(desc).__name__}")
            if desc.shape != self.shape:
                raise DimensionMismatch(f"desc is {desc.m} x {desc.n} but the matrix is "
                                        f"{self.shape[0]} x {self.shape[1]}: they must be equal")
            if desc.grid_size > ctx.size:
                raise BadArgument(f"desc's grid is {desc.nprow} x {desc.npcol} = "
                                  f"{desc.grid_size} processes but the context has {ctx.size} "
                                  "rank(s): the grid must fit in the ranks")
            return _local_2d(desc, local, ctx.rank, self.dtype, writes), \
                lambda: f"{desc!r} {self.dtype}"

        _keep, ptr, lld = ctx._agree(what, check)  # _keep: a Fortran copy, alive till done
        getattr(self._c, name)(desc._c, ptr, lld)


def _local_2d(desc: BlockCyclic2D, local: Any, rank: int, dtype: np.dtype,
              writes: bool, name: str = "local", desc_name: str = "desc"
              ) -> Tuple[Any, int, int]:
    """This rank's local array of import_2d / export_2d (or of another call: `name` and
    `desc_name` are the arguments its messages name), checked: (keep-alive, address,
    lld); (None, 0, 1) where the rank holds nothing and passed None."""
    locr, locc = desc.local_shape(rank)
    where = (f"rank {rank} (process ({desc.prow_of(rank)}, {desc.pcol_of(rank)}) of "
             f"{desc_name}'s grid)" if desc.prow_of(rank) >= 0
             else f"rank {rank} (outside {desc_name}'s grid)")
    if local is None:
        if locr * locc > 0:
            raise BadArgument(f"{name} is None but {where} holds a {locr} x {locc} part of the "
                              f"matrix: pass its local array ({desc_name}.local_shape(rank))")
        return None, 0, 1
    arr = describe(local, name, writable=writes)
    if arr.on_gpu:
        raise BadArgument(f"{name} is a CUDA array: the 2-D local arrays are host memory; "
                          "pass a NumPy array")
    check_dtype(arr, dtype, "the matrix")
    if arr.ndim != 2:
        raise DimensionMismatch(f"{name} must be 2-D, not of shape {arr.shape}")
    rows, cols = arr.shape
    if cols != locc or rows < locr:
        raise DimensionMismatch(f"{name} has shape {arr.shape} but {where} holds {locr} x "
                                f"{locc} (LOCr x LOCc): pass shape ({locr}, {locc}) or a "
                                f"padded (lld, {locc}) with lld >= {locr}")
    obj = arr.obj
    ld = colmajor_ld(arr)
    if ld is None:
        if writes:
            raise BadArgument(f"{name} must be column-major (Fortran order) with unit row "
                              "stride: it is written in place")
        obj = np.asfortranarray(obj)
        arr = describe(obj, name)
        ld = colmajor_ld(arr)
    return obj, arr.ptr, max(ld, 1)


def _to_kind(ref: Any, host: np.ndarray) -> Any:
    if hasattr(ref, "__cuda_array_interface__"):
        import cupy
        return cupy.asarray(host)
    return host


def _agree_with_root(ctx: Context, what: str, check, root: Optional[int]):
    """Agreement for calls where only the root knows the shape: the root's signature
    fills in the others' '?' fields; the rest must match."""
    err = None
    res, sig = None, ""
    try:
        res, sig = check()
    except Exception as e:  # noqa: BLE001
        err = e
    tokens = ctx._gather_tokens("!" if err is not None else sig)
    if err is not None:
        raise err
    from ._errors import RemoteError
    bad = [r for r, t in enumerate(tokens) if t == "!"]
    if bad:
        raise RemoteError(f"{what}: an argument was rejected on rank(s) "
                          f"{', '.join(map(str, bad))} (see the error there)")
    src = root if root is not None else 0
    ref = tokens[src].split()
    for r, t in enumerate(tokens):
        f = t.split()
        if len(f) != len(ref) or any(a != b and a != "?" for a, b in zip(f, ref)):
            detail = "; ".join(f"rank {q}: {u}" for q, u in enumerate(tokens))
            raise DimensionMismatch(f"{what}: the ranks passed different arguments ({detail}); "
                                    "every rank must pass the same root and block size")
    return res, tokens[src]


class RowTiledMatrix(_Distributed):
    """An m x n matrix split by rows over every device of every rank, each device
    holding a contiguous block of whole ``tile``-row tiles (the layout of
    :func:`tsgemm_mgpu`). :meth:`local_blocks` gives one block per device: its rows,
    all n columns."""

    def __init__(self, ctx: Context, m: int, n: int, dtype: Any = np.float64, tile: int = 1) -> None:
        self._create(ctx, m, n, dtype, "tile", tile, _core.RowTiledMatrix.create)

    @property
    def tile(self) -> int:
        return self._c.tile

    def __repr__(self) -> str:
        return f"mgblas.RowTiledMatrix(shape={self.shape}, dtype={self.dtype}, tile={self.tile})"

    @classmethod
    def from_array(cls, ctx: Context, A: Any, tile: int = 1, root: Optional[int] = 0) -> "RowTiledMatrix":
        """As DistMatrix.from_array, split by rows. Collective."""
        return cls._from_array(ctx, A, "tile", tile, root)

    def to_array(self, root: Optional[int] = 0, out: Any = None) -> Optional[Any]:
        """As DistMatrix.to_array. Collective."""
        return self._to_array(root, out)
