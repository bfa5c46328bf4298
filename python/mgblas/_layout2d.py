# SPDX-License-Identifier: BSD-3-Clause
"""BlockCyclic2D: ScaLAPACK's 2-D block-cyclic layout (layouts/block_cyclic_2d.hpp), the
descriptor of DistMatrix.import_2d / export_2d. Pure index arithmetic, not collective."""

from __future__ import annotations

from typing import Any, Sequence, Tuple

import numpy as np

from . import _mgblas as _core
from ._errors import BadArgument

_ORDERS = {"R": "R", "ROW": "R", "C": "C", "COL": "C"}


def _int(name: str, v: Any) -> int:
    # bool is an int in Python, but never a size or an index here.
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise BadArgument(f"{name} = {v!r}: must be an integer")
    return int(v)


def _in_range(name: str, v: Any, hi: int, what: str) -> int:
    v = _int(name, v)
    if not 0 <= v < hi:
        raise BadArgument(f"{name} = {v}: must be in [0, {what} = {hi})")
    return v


def _field(name: str, doc: str) -> Any:
    """A read-only property forwarding to the C++ descriptor's."""
    return property(lambda self: getattr(self._c, name), doc=doc)


def _index(name: str, arg: str, limit: str, doc: str) -> Any:
    """An index function of one argument in [0, self.<limit>), forwarding to C++'s."""
    def f(self: BlockCyclic2D, value: int) -> int:
        return getattr(self._c, name)(_in_range(arg, value, getattr(self, limit), limit))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}({arg}): {doc}"
    return f


class BlockCyclic2D:
    """ScaLAPACK's 2-D block-cyclic layout of an m x n matrix over an nprow x npcol
    process grid: the matrix is cut into mb x nb blocks; block (ib, jb) lives on process
    row (ib + rsrc) mod nprow and process column (jb + csrc) mod npcol, and each process
    holds its blocks column-major in one local array of LOCr x LOCc entries
    (:meth:`local_shape`), with a leading dimension of its own (ScaLAPACK's LLD).

    Ranks map to grid positions as BLACS's ``Cblacs_gridinit`` does: ``order="R"``
    (row-major, the default) rank = prow * npcol + pcol, ``order="C"`` rank =
    pcol * nprow + prow. Ranks from nprow * npcol on are outside the grid and hold
    nothing. Indices are 0-based (ScaLAPACK's TOOLS numroc, indxg2p, indxg2l, indxl2g).

    Raises BadArgument for m, n < 0, mb, nb, nprow, npcol < 1, a source process outside
    the grid or an order other than "R" / "C" ("Row" / "Col", any case).
    """

    def __init__(self, m: int, n: int, mb: int, nb: int, nprow: int, npcol: int,
                 rsrc: int = 0, csrc: int = 0, order: str = "R") -> None:
        args = [_int(name, v) for name, v in (("m", m), ("n", n), ("mb", mb), ("nb", nb),
                                              ("nprow", nprow), ("npcol", npcol),
                                              ("rsrc", rsrc), ("csrc", csrc))]
        o = _ORDERS.get(order.strip().upper()) if isinstance(order, str) else None
        if o is None:
            raise BadArgument(f"order = {order!r}: must be 'R' (row-major grid, BLACS's "
                              "\"Row\") or 'C' (column-major, \"Col\")")
        # Ranges are checked, and named, by the C++ constructor.
        self._c = _core.BlockCyclic2D.create(*args, o)

    @classmethod
    def from_scalapack(cls, desc: Sequence[int], nprow: int, npcol: int,
                       order: str = "R") -> "BlockCyclic2D":
        """The layout of a ScaLAPACK array descriptor ``desc`` (9 integers, DTYPE_ = 1:
        DTYPE_, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_) on the grid shape that
        ``Cblacs_gridinfo`` reports (mgblas_desc2d_from_scalapack of the C API). LLD_ is
        each rank's own and stays with its local array."""
        d = list(desc)
        if len(d) != 9:
            raise BadArgument(f"desc has {len(d)} entries: a ScaLAPACK descriptor has 9")
        if d[0] != 1:
            raise BadArgument(f"desc[0] (DTYPE_) = {d[0]!r}: must be 1 (a dense block-cyclic "
                              "descriptor)")
        return cls(d[2], d[3], d[4], d[5], nprow, npcol, d[6], d[7], order)

    # -- the descriptor (read-only) ---------------------------------------------------
    m = _field("m", "Global rows.")
    n = _field("n", "Global columns.")
    mb = _field("mb", "Rows of a block.")
    nb = _field("nb", "Columns of a block.")
    nprow = _field("nprow", "Process rows of the grid.")
    npcol = _field("npcol", "Process columns of the grid.")
    rsrc = _field("rsrc", "Process row of the first block row.")
    csrc = _field("csrc", "Process column of the first block column.")
    order = _field("order", '"R" (row-major grid) or "C".')
    grid_size = _field("grid_size", "nprow * npcol: the ranks in the grid.")

    @property
    def shape(self) -> Tuple[int, int]:
        """(m, n), the global matrix's."""
        return (self._c.m, self._c.n)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BlockCyclic2D):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> Tuple[Any, ...]:
        return (self.m, self.n, self.mb, self.nb, self.nprow, self.npcol, self.rsrc,
                self.csrc, self.order)

    def __repr__(self) -> str:
        return ("mgblas.BlockCyclic2D(m={}, n={}, mb={}, nb={}, nprow={}, npcol={}, rsrc={}, "
                "csrc={}, order={!r})".format(*self._key()))

    # -- ranks and grid positions -------------------------------------------------
    def rank_of(self, prow: int, pcol: int) -> int:
        """The rank at grid position (prow, pcol)."""
        return self._c.rank_of(_in_range("prow", prow, self.nprow, "nprow"),
                               _in_range("pcol", pcol, self.npcol, "npcol"))

    def prow_of(self, rank: int) -> int:
        """Process row of `rank`; -1 outside the grid."""
        return self._c.prow_of(_int("rank", rank))

    def pcol_of(self, rank: int) -> int:
        """Process column of `rank`; -1 outside the grid."""
        return self._c.pcol_of(_int("rank", rank))

    def local_shape(self, rank: int) -> Tuple[int, int]:
        """(LOCr, LOCc): the shape of `rank`'s local array; (0, 0) outside the grid."""
        rank = _int("rank", rank)
        if rank < 0:
            raise BadArgument(f"rank = {rank}: must be >= 0")
        prow, pcol = self._c.prow_of(rank), self._c.pcol_of(rank)
        if prow < 0:
            return (0, 0)
        return (self._c.local_rows(prow), self._c.local_cols(pcol))

    # -- global <-> local indices -------------------------------------------------
    row_owner = _index("row_owner", "i", "m", "Process row holding global row i (indxg2p).")
    col_owner = _index("col_owner", "j", "n", "Process column holding global column j (indxg2p).")
    local_rows = _index("local_rows", "prow", "nprow",
                        "Rows held by process row prow (numroc): its LOCr.")
    local_cols = _index("local_cols", "pcol", "npcol",
                        "Columns held by process column pcol (numroc): its LOCc.")
    local_row = _index("local_row", "i", "m", "Local row of global row i on its owner (indxg2l).")
    local_col = _index("local_col", "j", "n",
                       "Local column of global column j on its owner (indxg2l).")

    def global_row(self, prow: int, il: int) -> int:
        """Global row of local row il of process row prow (indxl2g)."""
        prow = _in_range("prow", prow, self.nprow, "nprow")
        return self._c.global_row(prow, _in_range("il", il, self._c.local_rows(prow),
                                                  f"local_rows({prow})"))

    def global_col(self, pcol: int, jl: int) -> int:
        """Global column of local column jl of process column pcol (indxl2g)."""
        pcol = _in_range("pcol", pcol, self.npcol, "npcol")
        return self._c.global_col(pcol, _in_range("jl", jl, self._c.local_cols(pcol),
                                                  f"local_cols({pcol})"))

    def local_indices(self, rank: int) -> Tuple[np.ndarray, np.ndarray]:
        """The global rows and columns of `rank`'s local array, as two int64 arrays of
        lengths LOCr and LOCc (empty outside the grid): ``A[np.ix_(rows, cols)]`` is that
        rank's local array of a global matrix A."""
        locr, locc = self.local_shape(rank)  # (0, 0), empty ranges, outside the grid
        return (_global(np.arange(locr, dtype=np.int64), self.mb, self.nprow, self.rsrc,
                        self._c.prow_of(rank)),
                _global(np.arange(locc, dtype=np.int64), self.nb, self.npcol, self.csrc,
                        self._c.pcol_of(rank)))


def _global(il: np.ndarray, b: int, p: int, src: int, me: int) -> np.ndarray:
    """indxl2g on an array of local indices (BlockCyclic2D::global_row's arithmetic)."""
    k = (me - src + p) % p
    return (il // b * p + k) * b + il % b
