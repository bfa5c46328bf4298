// SPDX-License-Identifier: BSD-3-Clause
/// @file
/// The public C++ interface of mgblas: `#include <mgblas/mgblas.hpp>`.
///
/// mgblas places matrices across the devices (GPUs, or host devices on machines
/// without one) of every MPI rank and runs the memory-bound BLAS work over them.
///
/// - core: Context (the devices of this rank and the Communicator joining the ranks;
///   Context::create picks CUDA when a GPU is visible, else host devices, env
///   MGBLAS_HOST_DEVICES), Device and Queue, DeviceBuffer / PinnedBuffer and copies,
///   the error hierarchy (Error, BadArgument, DimensionMismatch, ...).
/// - layouts: BlockCyclic1D (block columns dealt round-robin over the global device
///   list), RowTiling, DistMatrix<T>, RowTiledMatrix<T> and DistVector<T> with
///   distribute / collect; local_blocks(A), this rank's pieces of a matrix with their
///   global indices, to fill in place.
/// - kernels: single-device BLAS entries on a Queue (gemv, symv, hemv, their offset
///   forms, gemm, tsgemm, batched gemm), CUDA or host engine by the device.
/// - dist: multi-device operations over a DistMatrix (gemv_mgpu, symv_mgpu,
///   hemv_mgpu, their _offset forms on trailing submatrices) and the Reducer that sums
///   partial results across devices and ranks (HostReducer, NcclReducer over the
///   NcclCommunicator of the context).
///
/// Scalars T are float, double, std::complex<float> and std::complex<double>.
///
/// @code
///   MPI_Init(&argc, &argv);
///   {
///     auto ctx = mgblas::Context::create();
///     mgblas::DistMatrix<double> A(ctx, mgblas::BlockCyclic1D(n, n, 256, ctx->global_num_devices()));
///     A.distribute(A_host, n, /*root=*/0);
///     mgblas::symv_mgpu(mgblas::Uplo::Lower, 1.0, A, x, 0.0, y);  // y on every rank
///   }
///   MPI_Finalize();
/// @endcode
#pragma once

#include "core/config.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/batched_mgpu.hpp"
#include "dist/dist_blas.hpp"
#include "dist/lapack/her2k_mgpu.hpp"
#include "dist/lapack/gebrd_2d.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "dist/lapack/geqrf_mgpu.hpp"
#include "dist/lapack/gesvd_mgpu.hpp"
#include "dist/lapack/gesvd_2d.hpp"
#include "dist/lapack/heevd_2d.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "dist/lapack/hetrd_2d.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "dist/nccl_comm.hpp"
#include "dist/reducer.hpp"
#include "dist/tsgemm_mgpu.hpp"
#include "kernels/blas.hpp"
#include "kernels/lapack.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"
#include "layouts/local_blocks.hpp"
#include "layouts/row_tiling.hpp"
