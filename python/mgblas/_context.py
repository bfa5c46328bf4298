# SPDX-License-Identifier: BSD-3-Clause
"""Context: the devices of this rank and the communicator joining the ranks; and the
agreement that makes a rejected argument raise on every rank."""

from __future__ import annotations

import atexit
from typing import Any, Callable, List, Optional, Sequence, Tuple, TypeVar, Union

from . import _mgblas as _core
from ._errors import BadArgument, DimensionMismatch, Error, RemoteError

_R = TypeVar("_R")
_we_initialised_mpi = False


def _ensure_mpi() -> None:
    """MPI is started by mpi4py when it is installed (importing mpi4py.MPI initialises
    it and finalises it at exit); otherwise by mgblas itself, finalised at exit."""
    global _we_initialised_mpi
    if not _core.has_mpi or _core.mpi_initialized():
        return
    try:
        from mpi4py import MPI  # noqa: F401  (initialises MPI)
    except ImportError:
        if _core.mpi_init():
            _we_initialised_mpi = True
            atexit.register(_core.mpi_finalize)


class Context:
    """The devices (GPUs or host devices) of this rank and the ranks of ``comm``.

    Parameters
    ----------
    comm : mpi4py communicator, optional
        The ranks that share the work; None: MPI_COMM_WORLD (a single rank without
        mpirun). It is duplicated, so the caller's communicator stays untouched.
    backend : {"auto", "host", "cuda"}
        "auto": CUDA when a GPU is visible, else host devices (env MGBLAS_BACKEND).
    devices : int or sequence of int, optional
        CUDA ordinals of this rank; None: env MGBLAS_DEVICES, else this rank's share
        of the node's GPUs.
    host_devices : int, optional
        Host devices of this rank (host backend); None: env MGBLAS_HOST_DEVICES or 1.
    bind : bool
        Bind the calling thread near its first GPU when not bound already.

    Creating a Context is collective over ``comm``.
    """

    def __init__(self, comm: Any = None, backend: str = "auto",
                 devices: Optional[Union[int, Sequence[int]]] = None,
                 host_devices: Optional[int] = None, *, bind: bool = True) -> None:
        if backend not in ("auto", "host", "cuda"):
            raise BadArgument(f"backend = {backend!r}: must be 'auto', 'host' or 'cuda'")
        if devices is None:
            gpus: List[int] = []
        elif isinstance(devices, int):
            gpus = [devices]
        else:
            gpus = [int(d) for d in devices]
        if host_devices is not None and (not isinstance(host_devices, int) or host_devices < 1):
            raise BadArgument(f"host_devices = {host_devices!r}: must be an integer >= 1")
        _ensure_mpi()
        fcomm = -1
        if comm is not None:
            if not hasattr(comm, "py2f"):
                raise BadArgument(f"comm must be an mpi4py communicator, not {type(comm).__name__}")
            fcomm = int(comm.py2f())
        self.comm = comm
        self._c = _core.Context.create(fcomm, backend, gpus, host_devices or 0, bind)
        self._size = self._c.nranks

    @property
    def rank(self) -> int:
        """This rank in the context's communicator."""
        return self._c.rank

    @property
    def size(self) -> int:
        """Number of ranks."""
        return self._size

    @property
    def backend(self) -> str:
        """"cuda" or "host"."""
        return self._c.backend

    @property
    def num_devices(self) -> int:
        """Devices of this rank."""
        return self._c.num_devices

    @property
    def global_num_devices(self) -> int:
        """Devices of all ranks together (the P of the layouts)."""
        return self._c.global_num_devices

    @property
    def device_offset(self) -> int:
        """Global index of this rank's first device."""
        return self._c.device_offset

    @property
    def devices(self) -> List[str]:
        """This rank's devices, e.g. ["cuda:0"] or ["host:0", "host:1"]."""
        return list(self._c.device_names)

    def binding_report(self) -> str:
        """Every rank's placement, one line per device (collective)."""
        return self._c.binding_report()

    def synchronize(self) -> None:
        """Wait for every device of this rank."""
        self._c.synchronize()

    def barrier(self) -> None:
        self._c.barrier()

    def __repr__(self) -> str:
        return (f"mgblas.Context(rank={self.rank}, size={self.size}, backend={self.backend!r}, "
                f"devices={self.devices})")

    # -- agreement ----------------------------------------------------------------
    def _agree(self, what: str, check: Callable[[], Tuple[_R, Any]]) -> _R:
        """Runs the local argument checks `check` (returning a result and a signature
        of the call) and agrees with the other ranks before any collective starts: a
        rank whose check raised raises that error, the others RemoteError; ranks whose
        signatures differ all raise DimensionMismatch. One all-gather of a short
        string per call; nothing with one rank (the signature may be given as a
        callable, then only built with several ranks)."""
        err: Optional[BaseException] = None
        res: Any = None
        sig = ""
        try:
            res, sig = check()
        except Exception as e:  # noqa: BLE001  (agreed on, then re-raised)
            err = e
        if self._size == 1:
            if err is not None:
                raise err
            return res
        if err is None and callable(sig):  # built only where there is someone to agree with
            try:
                sig = sig()
            except Exception as e:  # noqa: BLE001
                err = e
        tokens = self._c.allgather("!" if err is not None else "=" + sig)
        if err is not None:
            raise err
        bad = [r for r, t in enumerate(tokens) if t == "!"]
        if bad:
            raise RemoteError(f"{what}: an argument was rejected on rank(s) "
                              f"{', '.join(map(str, bad))} (see the error there)")
        if any(t != tokens[0] for t in tokens):
            detail = "; ".join(f"rank {r}: {t[1:]}" for r, t in enumerate(tokens))
            raise DimensionMismatch(f"{what}: the ranks passed different arguments ({detail}); "
                                    "every rank must make the same call")
        return res

    def _gather_tokens(self, token: str) -> List[str]:
        return list(self._c.allgather(token)) if self._size > 1 else [token]


