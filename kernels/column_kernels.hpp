// SPDX-License-Identifier: BSD-3-Clause
// Kernels on one device's share of a distributed vector or matrix, the device work of
// the multi-device drivers (dist/): the final sum of a reduction, gathers and scatters
// of a vector's entries at a device's columns, the SYMV/HEMV product over a device's
// columns, the power-of-two scaling of a matrix whose entries are out of range, and the
// digest of a replicated vector that ranks compare. The share comes as plain index data (layouts/local_columns.hpp),
// so no kernel knows a distribution. beta == 0 never reads y.
#pragma once

#include "kernels/kernel_declaration.hpp"
#include "layouts/local_columns.hpp"

/// y[i] = s[i] + beta * y[i] for i < n; s == nullptr stands for zeros.
#define MGBLAS_DECLARE_FINISH_SUM_KERNEL(T)                                                \
  void finish_sum(const Device& dev, cudaStream_t stream, int64_t n, const T* s, T beta,   \
                  T* y)

/// out[t] = x[cols.global_col(cols.local_begin + t) - c0] for t < cols.count(): the
/// entries of a vector indexed from global column c0 at the device's columns.
#define MGBLAS_DECLARE_GATHER_COLUMNS_KERNEL(T)                                            \
  void gather_columns(const Device& dev, cudaStream_t stream, const LocalColumns& cols,    \
                      const T* x, int64_t c0, T* out)

/// The reverse, for `parts` column sets at once (cols: a host array; their global
/// columns must not overlap): for p < parts and t < cols[p].count(), with
/// i = cols[p].global_col(cols[p].local_begin + t) - c0,
/// y[i] = in[p * in_stride + t] + beta * y[i]. Other entries of y are untouched.
#define MGBLAS_DECLARE_SCATTER_COLUMNS_KERNEL(T)                                           \
  void scatter_columns(const Device& dev, cudaStream_t stream, int parts,                  \
                       const LocalColumns* cols, const T* in, int64_t in_stride, int64_t c0, \
                       T beta, T* y)

/// y += alpha * (the part of S = A(off:n, off:n) in the device's columns `cols`), S
/// symmetric (herm = false) or Hermitian (herm = true; imaginary parts of the diagonal
/// taken as zero) with only the `uplo` triangle stored and read. A: the device's local
/// columns, leading dimension ld >= n; x and y indexed from global row/column off; the
/// columns must lie in [off, n). Every stored entry is read once and adds to y at its
/// row (as itself) and at its column (mirrored); y must hold the sum so far (zeros at
/// first). CUDA: atomics, in varying order; with `tiles` and nb a multiple of the SYMV
/// engine's tile, its tile kernel, else a kernel over tiles of 16 (double complex: 8)
/// local columns. Host: per contiguous run of columns, symv/hemv on its diagonal block
/// and two gemv on the panel of the stored triangle beside it. quad, when not null (a
/// scalar in the device's memory), accumulates x^H times what this call adds to y:
/// summed over the devices, x^H (alpha S) x. On a GPU it needs the tile kernel (`tiles`,
/// with nb, stride and first_col multiples of its tile) and a real symmetric or
/// Hermitian S; otherwise NotImplemented.
#define MGBLAS_DECLARE_SYMV_COLUMNS_KERNEL(T)                                              \
  void symv_columns(const Device& dev, cudaStream_t stream, Uplo uplo, bool herm,          \
                    int64_t n, int64_t off, const LocalColumns& cols, T alpha, const T* A,  \
                    int64_t ld, const T* x, T* y, bool tiles, T* quad)

/// *out = the largest max(|Re a|, |Im a|) over the entries a of the rows x cols block A
/// (leading dimension ld): 0 when the block is empty, NaN when an entry is NaN. (Within
/// a factor sqrt(2) of the largest |a|, which is all the choice of a scale needs.)
#define MGBLAS_DECLARE_MAX_MAGNITUDE_KERNEL(T)                                              \
  void max_magnitude(const Device& dev, cudaStream_t stream, int64_t rows, int64_t cols,   \
                     const T* A, int64_t ld, real_type_t<T>* out)

/// A *= f over the rows x cols block A (leading dimension ld; rows = 1 and ld = stride
/// for a strided vector), f the power of two of kernels/detail/range_scale.hpp for the
/// largest of maxima[0:count] (device memory, count >= 1), or 1 / f when `inverse`:
/// the scale of a matrix whose entries lie outside LAPACK's drivers' range, chosen on
/// the device so that no device waits for the host. When f == 1 (the usual case) A is
/// neither read nor written.
#define MGBLAS_DECLARE_RANGE_SCALE_KERNEL(T)                                                \
  void range_scale(const Device& dev, cudaStream_t stream, int64_t rows, int64_t cols,      \
                   int64_t count, const real_type_t<T>* maxima, bool inverse, T* A,         \
                   int64_t ld)

/// *out = hash_word_sum (core/hash.hpp) of the n * sizeof(T) bytes at x: the order-free
/// part of a digest, so that a vector in a GPU's memory is digested where it lies
/// (hash_finish on the host completes it, equal to hash_bytes of the same bytes).
#define MGBLAS_DECLARE_DIGEST_SUM_KERNEL(T)                                                 \
  void digest_sum(const Device& dev, cudaStream_t stream, int64_t n, const T* x,            \
                  uint64_t* out)

/// The copies of a 2-D block-cyclic redistribution on one device (dist/redistribute_2d):
/// for c < count and il < rows, entry (i, cols[c]) of A (leading dimension ld) and
/// packed[c * rows + il], where i = (il / mb * nprow + phase) * mb + il % mb is the
/// global row of local row il of the process row `phase` rows past the first (nprow = 1
/// and mb >= rows give i = il). to_columns copies packed into A, else A into packed.
/// cols: count entries in the device's memory.
#define MGBLAS_DECLARE_COPY_ROW_BLOCKS_KERNEL(T)                                            \
  void copy_row_blocks(const Device& dev, cudaStream_t stream, int64_t count, int64_t rows, \
                       int64_t mb, int nprow, int phase, const int64_t* cols, T* packed,    \
                       T* A, int64_t ld, bool to_columns)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_FINISH_SUM_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GATHER_COLUMNS_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_SCATTER_COLUMNS_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_SYMV_COLUMNS_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_MAX_MAGNITUDE_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_RANGE_SCALE_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_DIGEST_SUM_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_COPY_ROW_BLOCKS_KERNEL)
