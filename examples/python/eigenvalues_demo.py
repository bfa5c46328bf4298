#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Eigenvalues of a distributed symmetric / Hermitian matrix from Python: hetrd
(tridiagonal reduction over every device of every rank), then tridiag_eigenvalues
(bisection over every device), checked against the spectrum the matrix was made with.

How to run
  mpirun -np 2 python examples/python/eigenvalues_demo.py
  mpirun -np 2 python examples/python/eigenvalues_demo.py --n 4096 --nb 256 --type d,z
  Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
  GPUs are used when present, else host devices (MGBLAS_HOST_DEVICES per rank).

Expected output (host devices, 2 ranks x 2 devices; times vary)
  # mgblas 0.1.0 (Python) -- eigenvalues by hetrd + bisection
  # back-end host, 2 ranks, 4 devices
  # type       n     nb  ranks  devices  hetrd(ms)  eig(ms)     error  status
       d    1024    128      2        4    812.345   95.210   3.1e-01  ok
  # 4 cases, 0 failed
  A = Q diag(lambda) Q^H with lambda spread over [-1, 1] and Q from a QR factorisation;
  error = max |w - lambda| / (n eps max |lambda|) must stay below 10.
"""

import argparse
import sys
import time

import numpy as np

import mgblas

DTYPES = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--nb", type=int, default=128)
    p.add_argument("--type", default="s,d,c,z")
    args = p.parse_args()

    ctx = mgblas.Context()
    if ctx.rank == 0:
        print(f"# mgblas {mgblas.__version__} (Python) -- eigenvalues by hetrd + bisection")
        print(f"# back-end {ctx.backend}, {ctx.size} ranks, {ctx.global_num_devices} devices")
        print(f"# {'type':>4} {'n':>7} {'nb':>6} {'ranks':>6} {'devices':>8} {'hetrd(ms)':>10} "
              f"{'eig(ms)':>8} {'error':>9}  status")
    n, cases, failed = args.n, 0, 0
    rng = np.random.default_rng(7)
    lam = np.sort(np.linspace(-1, 1, n) * (1 + 0.1 * rng.uniform(size=n)))
    for letter in args.type.split(","):
        dtype = np.dtype(DTYPES[letter])
        A = None
        if ctx.rank == 0:  # only the root builds A
            G = rng.standard_normal((n, n))
            if dtype.kind == "c":
                G = G + 1j * rng.standard_normal((n, n))
            Q, _ = np.linalg.qr(G)
            A = ((Q * lam) @ Q.conj().T).astype(dtype)
        M = mgblas.DistMatrix.from_array(ctx, A, nb=args.nb, root=0)
        ctx.barrier()
        t0 = time.perf_counter()
        d, e, _ = mgblas.hetrd(M, uplo="L")
        t1 = time.perf_counter()
        w = mgblas.tridiag_eigenvalues(ctx, d, e)
        t2 = time.perf_counter()
        error = float(np.max(np.abs(w - lam)) / (n * np.finfo(dtype).eps * np.max(np.abs(lam))))
        ok = error < 10
        cases += 1
        failed += 0 if ok else 1
        if ctx.rank == 0:
            print(f"  {letter:>4} {n:>7} {args.nb:>6} {ctx.size:>6} {ctx.global_num_devices:>8} "
                  f"{(t1 - t0) * 1e3:>10.3f} {(t2 - t1) * 1e3:>8.3f} {error:>9.1e}  "
                  f"{'ok' if ok else 'FAILED'}")
    if ctx.rank == 0:
        print(f"# {cases} cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
