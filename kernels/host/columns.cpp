// SPDX-License-Identifier: BSD-3-Clause
// The host engine's column kernels (kernels/column_kernels.hpp): plain loops in the
// order of the math (no BLAS routine gathers by a block-cyclic index), and SYMV/HEMV
// per run of columns on the engine's own CBLAS-backed symv and gemv.
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "core/hash.hpp"
#include "kernels/column_kernels.hpp"
#include "kernels/columns.hpp"
#include "kernels/detail/range_scale.hpp"
#include "kernels/detail/symv_column_runs.hpp"
#include "kernels/gemv_kernels.hpp"
#include "kernels/symv_kernels.hpp"

namespace mgblas {

template <Scalar T>
void finish_sum_host(int64_t n, const T* s, T beta, T* y) {
  // beta == 0 overwrites y without reading it, so NaN or garbage in y cannot leak.
  for (int64_t i = 0; i < n; ++i) {
    const T si = s ? s[i] : T(0);
    y[i] = beta == T(0) ? si : si + beta * y[i];
  }
}

namespace kernels::host {
namespace {

template <Scalar T>
void gather_host(const LocalColumns& cols, const T* x, int64_t c0, T* out) {
  for (int64_t t = 0; t < cols.count(); ++t) out[t] = x[cols.global_col(cols.local_begin + t) - c0];
}

template <Scalar T>
void scatter_host(int parts, const LocalColumns* cols, const T* in, int64_t in_stride, int64_t c0,
                  T beta, T* y) {
  for (int p = 0; p < parts; ++p) {
    const LocalColumns& c = cols[p];
    for (int64_t t = 0; t < c.count(); ++t) {
      const T v = in[p * in_stride + t];
      T& yi = y[c.global_col(c.local_begin + t) - c0];
      yi = beta == T(0) ? v : v + beta * yi;
    }
  }
}

template <Scalar T>
void symv_columns_host(const Device& dev, cudaStream_t stream, Uplo uplo, bool herm, int64_t n,
                       int64_t off, const LocalColumns& cols, T alpha, const T* A, int64_t ld,
                       const T* x, T* y, T* quad) {
  if (quad) {
    // The share's products into zeros, then x^H of them and their sum into y.
    const int64_t len = n - off;
    std::vector<T> z(static_cast<std::size_t>(len), T(0));
    symv_columns_host(dev, stream, uplo, herm, n, off, cols, alpha, A, ld, x, z.data(),
                      static_cast<T*>(nullptr));
    T q(0);
    for (int64_t i = 0; i < len; ++i) {
      q += mgblas::conj(x[i]) * z[i];
      y[i] += z[i];
    }
    *quad += q;
    return;
  }
  // The mirrored triangle is the stored one transposed (symv) or conjugate-transposed
  // (hemv); for real T both are T.
  const Op op_mirror = herm ? Op::C : Op::T;
  detail::symv_column_runs(
      uplo, n, off, cols,
      [&](int64_t c0, int64_t jl, int64_t w) {
        const T* diag = A + c0 + jl * ld;  // rows and columns [c0, c0 + w) at local (c0, jl)
        if (herm)
          hemv(dev, stream, uplo, w, alpha, diag, ld, x + c0 - off, 1, T(1), y + c0 - off, 1);
        else
          symv(dev, stream, uplo, w, alpha, diag, ld, x + c0 - off, 1, T(1), y + c0 - off, 1);
      },
      [&](int64_t r0, int64_t h, int64_t jl, int64_t c0, int64_t w) {
        gemv_offset(dev, stream, Op::N, h, w, alpha, A, ld, r0, jl, x + c0 - off, 1, T(1),
                    y + r0 - off, 1);
        gemv_offset(dev, stream, op_mirror, h, w, alpha, A, ld, r0, jl, x + r0 - off, 1, T(1),
                    y + c0 - off, 1);
      });
}

template <Scalar T>
void max_magnitude_host(int64_t rows, int64_t cols, const T* A, int64_t ld, real_type_t<T>* out) {
  using R = real_type_t<T>;
  R most = 0;
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) {
      const T a = A[i + j * ld];
      for (R part : {std::abs(std::real(a)), std::abs(std::imag(a))})
        if (std::isnan(part) || part > most) most = part;  // a NaN stays: nothing is > NaN
    }
  *out = most;
}

template <Scalar T>
void range_scale_host(int64_t rows, int64_t cols, int64_t count, const real_type_t<T>* maxima,
                      bool inverse, T* A, int64_t ld) {
  using R = real_type_t<T>;
  R most = 0, factor[2];
  for (int64_t i = 0; i < count; ++i)
    if (std::isnan(maxima[i]) || maxima[i] > most) most = maxima[i];
  kernels::detail::range_scale_factors(most, factor);
  const R f = factor[inverse ? 1 : 0];
  if (f == R(1)) return;
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) A[i + j * ld] *= f;
}

template <Scalar T>
void copy_row_blocks_host(int64_t count, int64_t rows, int64_t mb, int nprow, int phase,
                          const int64_t* cols, T* packed, T* A, int64_t ld, bool to_columns) {
  for (int64_t c = 0; c < count; ++c) {
    T* column = A + cols[c] * ld;
    T* run = packed + c * rows;
    // One run of up to mb contiguous rows at a time.
    for (int64_t il = 0; il < rows; il += mb) {
      const int64_t i = (il / mb * nprow + phase) * mb, len = std::min(mb, rows - il);
      if (to_columns) std::copy_n(run + il, len, column + i);
      else std::copy_n(column + i, len, run + il);
    }
  }
}

}  // namespace

#define MGBLAS_HOST_COLUMNS_(T)                                                               \
  MGBLAS_DECLARE_FINISH_SUM_KERNEL(T) { finish_sum_host(n, s, beta, y); }                     \
  MGBLAS_DECLARE_GATHER_COLUMNS_KERNEL(T) { gather_host(cols, x, c0, out); }                  \
  MGBLAS_DECLARE_SCATTER_COLUMNS_KERNEL(T) {                                                  \
    scatter_host(parts, cols, in, in_stride, c0, beta, y);                                    \
  }                                                                                           \
  MGBLAS_DECLARE_SYMV_COLUMNS_KERNEL(T) {                                                     \
    symv_columns_host(dev, stream, uplo, herm, n, off, cols, alpha, A, ld, x, y, quad);       \
  }                                                                                           \
  MGBLAS_DECLARE_MAX_MAGNITUDE_KERNEL(T) { max_magnitude_host(rows, cols, A, ld, out); }      \
  MGBLAS_DECLARE_RANGE_SCALE_KERNEL(T) {                                                      \
    range_scale_host(rows, cols, count, maxima, inverse, A, ld);                              \
  }                                                                                           \
  MGBLAS_DECLARE_DIGEST_SUM_KERNEL(T) {                                                       \
    *out = hash_word_sum(x, static_cast<std::size_t>(n) * sizeof(T));                         \
  }                                                                                           \
  MGBLAS_DECLARE_COPY_ROW_BLOCKS_KERNEL(T) {                                                  \
    copy_row_blocks_host(count, rows, mb, nprow, phase, cols, packed, A, ld, to_columns);     \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_COLUMNS_)
#undef MGBLAS_HOST_COLUMNS_

}  // namespace kernels::host

#define MGBLAS_INSTANTIATE_(T) template void finish_sum_host<T>(int64_t, const T*, T, T*);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_)
#undef MGBLAS_INSTANTIATE_

}  // namespace mgblas
