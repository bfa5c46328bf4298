# SPDX-License-Identifier: BSD-3-Clause
"""Time mgblas.symv from Python on CuPy arrays (issue 14's target: within 5 % of the C++
call, measured by mgblas-tester blas in the same run), and check that the call
makes no hidden copies: y is written in place and CuPy's memory pool does not grow.

    python3 bench/python_symv.py [n] [iterations]
"""
import sys
import time

import cupy as cp
import numpy as np

import mgblas

n = int(sys.argv[1]) if len(sys.argv) > 1 else 16384
iters = int(sys.argv[2]) if len(sys.argv) > 2 else 20
rng = cp.random.default_rng(7)
for dtype, name in ((np.float64, "d"), (np.float32, "s")):
    A = rng.standard_normal((n, n), dtype=np.float64).astype(dtype)
    A = cp.asfortranarray(A + A.T)
    x = rng.standard_normal(n, dtype=np.float64).astype(dtype)
    y = cp.zeros(n, dtype=dtype)
    for _ in range(3):
        mgblas.symv(A, x, uplo="L", y=y)
    cp.cuda.Device().synchronize()
    pool = cp.get_default_memory_pool()
    used = pool.used_bytes()
    # Event-timed: each call alone on the stream, as the C++ tester times it.
    times = []
    stream = cp.cuda.get_current_stream()
    for _ in range(iters):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        out = mgblas.symv(A, x, uplo="L", y=y)
        stop.record(stream)
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    assert out is y, "y was not written in place"
    grew = pool.used_bytes() - used
    # Wall-timed back to back, Python overhead included.
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        mgblas.symv(A, x, uplo="L", y=y)
    cp.cuda.Device().synchronize()
    wall = (time.perf_counter() - t0) / iters
    ref = cp.asnumpy(A.astype(np.float64) @ x.astype(np.float64))
    err = np.linalg.norm(cp.asnumpy(y) - ref) / np.linalg.norm(ref)
    med = float(np.median(times))
    gbs = n * n * np.dtype(dtype).itemsize / 2 / med / 1e9
    print(f"python {name}symv L n={n}: median {med * 1e3:.4f} ms ({gbs:.0f} GB/s of the "
          f"lower triangle), back-to-back {wall * 1e3:.4f} ms/call, pool growth {grew} B, "
          f"rel err {err:.1e}")
