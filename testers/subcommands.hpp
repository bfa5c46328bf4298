// SPDX-License-Identifier: BSD-3-Clause
// The sub-commands of mgblas-tester (testers/mgblas_tester.cpp), one per tester_<routine>.cpp:
// each takes the argv of its routine (argv[0] is "mgblas-tester <routine>") and returns the
// tester's exit status (the failure count, kSkipped without a GPU, 255 on an exception).
#pragma once

namespace mgblas::testers {

int blas_main(int argc, char** argv);       // tester_blas.cpp: single-GPU gemv/symv/hemv
int tsgemm_main(int argc, char** argv);     // tester_tsgemm.cpp: tall-and-skinny GEMM
int batched_main(int argc, char** argv);    // tester_batched.cpp: batched small GEMM
int dist_main(int argc, char** argv);       // tester_dist.cpp: distributed gemv/symv/hemv
int allreduce_main(int argc, char** argv);  // tester_allreduce.cpp: per-column all-reduce
int band2tri_main(int argc, char** argv);   // tester_band2tri.cpp: band-to-tridiagonal chase
#if MGBLAS_TESTER_LAPACK
int hetrd_main(int argc, char** argv);  // tester_hetrd.cpp: tridiagonal reduction (MPI)
int gebrd_main(int argc, char** argv);  // tester_gebrd.cpp: bidiagonal reduction (MPI)
int unmtr_main(int argc, char** argv);  // tester_unmtr.cpp: hetrd's Q applied to C (MPI)
int redistribute_main(int argc, char** argv);  // tester_redistribute.cpp: 2-D layout (MPI)
int heevd_main(int argc, char** argv);  // tester_heevd.cpp: eigen-solver with vectors (MPI)
int svd_main(int argc, char** argv);    // tester_svd.cpp: singular value decomposition (MPI)
#endif

}  // namespace mgblas::testers
