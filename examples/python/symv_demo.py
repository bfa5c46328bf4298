#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Distributed GEMV / SYMV / HEMV from Python: the Python twin of
examples/00_distributed_demo.

What it does
  Rank 0 draws an n x n matrix A; DistMatrix.from_array deals its block columns
  (width nb) round-robin over every device of every rank. Every rank holds the same x
  and y. Each operation (gemv: y = alpha A x + beta y; symv: A symmetric, lower
  triangle; hemv: A Hermitian) runs on all devices at once and every rank receives the
  whole y. The first call is checked on rank 0 against NumPy in double precision; the
  next --niter calls are timed.

How to run
  mpirun -np 2 python examples/python/symv_demo.py
  mpirun -np 4 python examples/python/symv_demo.py --n 8192 --nb 512 --type d,z --ops symv
  Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
  GPUs are used when present (--cupy keeps x and y on the GPU as CuPy arrays), else
  host devices (MGBLAS_HOST_DEVICES per rank, default 1).

Expected output (host devices, 2 ranks x 2 devices; times vary)
  # mgblas 0.1.0 (Python) -- distributed Level-2 demo
  # back-end host, 2 ranks, 4 devices (2 on rank 0), vectors numpy
  # type  op        n     nb  ranks  devices   time(ms)      GB/s     error  status
       d  gemv   4096    256      2        4     20.512      6.55   2.1e-03  ok
       ...
  # 12 cases, 0 failed
  error = ||y - y_ref|| / ((n |alpha| ||A||_F ||x|| + |beta| ||y0||) eps) must stay
  below 10 (x sqrt(2) for complex); the exit status is non-zero if any case fails.
  GB/s counts the least traffic: gemv (n^2 + 2n) elements, symv/hemv (n(n+1)/2 + 2n).
"""

import argparse
import sys
import time

import numpy as np

import mgblas

DTYPES = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=4096)
    p.add_argument("--nb", type=int, default=256)
    p.add_argument("--type", default="s,d,c,z", help="precisions, comma-separated")
    p.add_argument("--ops", default="gemv,symv,hemv")
    p.add_argument("--niter", type=int, default=5)
    p.add_argument("--cupy", action="store_true", help="x and y as CuPy arrays (GPU)")
    args = p.parse_args()

    ctx = mgblas.Context()
    xp = np
    if args.cupy:
        import cupy as xp  # noqa: F811
    report = ctx.binding_report()  # collective: every rank calls it
    if ctx.rank == 0:
        print(f"# mgblas {mgblas.__version__} (Python) -- distributed Level-2 demo")
        print(f"# back-end {ctx.backend}, {ctx.size} ranks, {ctx.global_num_devices} devices "
              f"({ctx.num_devices} on rank 0), vectors {'cupy' if args.cupy else 'numpy'}")
        print("# binding:")
        for line in report.splitlines():
            print(f"#   {line}")
        print(f"# {'type':>4}  {'op':>4} {'n':>8} {'nb':>6} {'ranks':>6} {'devices':>8} "
              f"{'time(ms)':>10} {'GB/s':>9} {'error':>9}  status")

    n, cases, failed = args.n, 0, 0
    rng = np.random.default_rng(2024)  # the same data on every rank
    for letter in args.type.split(","):
        dtype = np.dtype(DTYPES[letter])
        complex_ = dtype.kind == "c"
        for op in args.ops.split(","):
            def draw(shape):
                a = rng.uniform(-1, 1, shape)
                if complex_:
                    a = a + 1j * rng.uniform(-1, 1, shape)
                return a.astype(dtype)

            A = draw((n, n))
            if op == "symv":
                A = np.tril(A)
            elif op == "hemv":
                A = np.tril(A)
                A[np.diag_indices(n)] = A.diagonal().real
            x, y0 = draw(n), draw(n)
            alpha, beta = (0.5 + 0.25j, -1.0 + 0.5j) if complex_ else (0.5, -1.0)
            M = mgblas.DistMatrix.from_array(ctx, A if ctx.rank == 0 else None, nb=args.nb, root=0)
            f = {"gemv": lambda y: mgblas.gemv_mgpu(M, dx, "N", alpha, beta, y),
                 "symv": lambda y: mgblas.symv_mgpu(M, dx, "L", alpha, beta, y),
                 "hemv": lambda y: mgblas.hemv_mgpu(M, dx, "L", alpha, beta, y)}[op]
            dx = xp.asarray(x)
            y = f(xp.array(y0))  # a copy: y0 stays for the reference
            y = y.get() if hasattr(y, "get") else y
            error = 0.0
            if ctx.rank == 0:
                Ah = A.astype(np.complex128)
                if op != "gemv":  # the full matrix from its lower triangle
                    L = np.tril(Ah, -1)
                    Ah = np.diag(Ah.diagonal()) + L + (L.conj().T if op == "hemv" else L.T)
                ref = alpha * Ah @ x.astype(np.complex128) + beta * y0.astype(np.complex128)
                eps = np.finfo(dtype).eps
                scale = (n * abs(alpha) * np.linalg.norm(Ah) * np.linalg.norm(x)
                         + abs(beta) * np.linalg.norm(y0)) * eps
                error = float(np.linalg.norm(y - ref) / scale)
            ok = ctx._gather_tokens("1" if error < 10 * (np.sqrt(2) if complex_ else 1) else "0")[0] == "1"
            yt = xp.array(y0)
            ctx.barrier()
            t = time.perf_counter()
            for _ in range(args.niter):
                f(yt)
            ms = (time.perf_counter() - t) / max(args.niter, 1) * 1e3
            elems = n * n + 2 * n if op == "gemv" else n * (n + 1) // 2 + 2 * n
            gbs = elems * dtype.itemsize / (ms * 1e-3) / 1e9 if ms > 0 else 0.0
            cases += 1
            failed += 0 if ok else 1
            if ctx.rank == 0:
                print(f"  {letter:>4}  {op:>4} {n:>8} {args.nb:>6} {ctx.size:>6} "
                      f"{ctx.global_num_devices:>8} {ms:>10.3f} {gbs:>9.2f} {error:>9.1e}  "
                      f"{'ok' if ok else 'FAILED'}")
    if ctx.rank == 0:
        print(f"# {cases} cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
