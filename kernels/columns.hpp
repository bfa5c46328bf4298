// SPDX-License-Identifier: BSD-3-Clause
// Per-device entries of the column kernels (kernels/column_kernels.hpp), the device
// work of the multi-device drivers: check the arguments, then run the engine of the
// queue's device, with the asynchrony rules of kernels/blas.hpp (on a GPU queued on
// q.stream, pointers device memory; on a host device run to completion). A device's
// columns come as plain index data from layouts/ (BlockCyclic1D's local_columns).
#pragma once

#include <cstdint>
#include <span>

#include "core/device.hpp"
#include "core/types.hpp"
#include "layouts/local_columns.hpp"

namespace mgblas {

/// y = s + beta * y over n entries of host memory (s == nullptr: zeros); beta == 0 does
/// not read y. The host engine's finish_sum, for a reduction whose result is in host
/// memory rather than on a device.
template <Scalar T>
void finish_sum_host(int64_t n, const T* s, T beta, T* y);

/// y[i] = s[i] + beta * y[i] for i < n (s == nullptr: zeros): the last step of a
/// reduction. beta == 0 does not read y.
template <Scalar T>
void finish_sum(const Queue& q, int64_t n, const T* s, T beta, T* y);

/// out[t] = x[cols.global_col(cols.local_begin + t) - c0] for t < cols.count().
template <Scalar T>
void gather_columns(const Queue& q, const LocalColumns& cols, const T* x, int64_t c0, T* out);

/// For each column set p and t < cols[p].count(): y[i] = in[p * in_stride + t] + beta *
/// y[i], i = cols[p].global_col(cols[p].local_begin + t) - c0 (the sets must not share
/// a global column; beta == 0 does not read y). One set: the reverse of gather_columns;
/// every device's set: the unpacking of an all-gather padded to in_stride per device.
template <Scalar T>
void scatter_columns(const Queue& q, std::span<const LocalColumns> cols, const T* in,
                     int64_t in_stride, int64_t c0, T beta, T* y);

/// Rows and columns of the GPU SYMV engine's tiles: symv_columns' Tiles form takes that
/// kernel for blocks (nb, stride, first column) that are multiples of it.
template <Scalar T>
constexpr int64_t symv_columns_tile() {
  return sizeof(T) == 16 ? 32 : 64;
}

/// How a GPU computes symv_columns (a host device always uses the engine's products).
/// Tiles: the SYMV engine's tile kernel when nb is a multiple of its tile, else Columns;
/// Columns: a kernel over tiles of 16 (double complex: 8) local columns, any nb;
/// Engine: the engine's symv/hemv and gemv per run of contiguous columns.
enum class SymvColumns { Tiles, Columns, Engine };

/// y += alpha * (the part of S = A(off:n, off:n) in the device's columns `cols`), S
/// symmetric (herm = false) or Hermitian (herm = true) with its `uplo` triangle stored;
/// see MGBLAS_DECLARE_SYMV_COLUMNS_KERNEL. Summed over every device's columns of
/// [off, n): y = alpha * S * x. x, y: length n - off, indexed from off; A: the device's
/// local columns (leading dimension ld >= max(1, n)); the columns must lie in [off, n).
/// quad, when not null, accumulates x^H times what this call adds to y (form Tiles with
/// tile-aligned blocks on a GPU; see the kernel declaration).
template <Scalar T>
void symv_columns(const Queue& q, Uplo uplo, bool herm, int64_t n, int64_t off,
                  const LocalColumns& cols, T alpha, const T* A, int64_t ld, const T* x, T* y,
                  SymvColumns form = SymvColumns::Tiles, T* quad = nullptr);

// ---- a matrix out of range, scaled by a power of two chosen on the devices ------------
// A driver whose products of entries could overflow or underflow (gebrd_mgpu) writes
// each device's max_magnitude into its slot of a zeroed vector, sums that vector over
// the devices (every device then holds every maximum) and runs range_scale on each
// device: no device waits for the host, and every device picks the same factor. The
// kernel declarations (kernels/column_kernels.hpp) say what each computes.

/// *out = the largest max(|Re a|, |Im a|) of the rows x cols block A (ld >= max(1, rows)).
template <Scalar T>
void max_magnitude(const Queue& q, int64_t rows, int64_t cols, const T* A, int64_t ld,
                   real_type_t<T>* out);

/// A *= the power of two that brings the largest of maxima[0:count] into LAPACK's
/// drivers' range (its inverse when `inverse`); A untouched when none is needed.
template <Scalar T>
void range_scale(const Queue& q, int64_t rows, int64_t cols, int64_t count,
                 const real_type_t<T>* maxima, bool inverse, T* A, int64_t ld);

/// hash_bytes (core/hash.hpp) of the n entries at x, memory of the queue's device: on a
/// GPU one kernel sums the words' mixes where x lies, then 8 bytes come to the host
/// (through `scratch`, 8 bytes of the device's memory; unused on a host device, where
/// it may be null); the call waits for the queue.
template <Scalar T>
uint64_t digest(const Queue& q, int64_t n, const T* x, uint64_t* scratch);

/// Row blocks of 2-D block-cyclic columns to or from packed columns (the device side of
/// a ScaLAPACK-layout redistribution): for c < count and il < rows, entry
/// (i, cols[c]) of A and packed[c * rows + il], with i = (il / mb * nprow + phase) * mb
/// + il % mb (nprow = 1, mb >= rows: i = il). to_columns writes A, else packed. cols:
/// memory of the queue's device. Every i must lie below ld.
template <Scalar T>
void copy_row_blocks(const Queue& q, int64_t count, int64_t rows, int64_t mb, int nprow,
                     int phase, const int64_t* cols, T* packed, T* A, int64_t ld,
                     bool to_columns);

}  // namespace mgblas
