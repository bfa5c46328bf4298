// SPDX-License-Identifier: BSD-3-Clause
// Per-device entries of the column kernels (kernels/columns.hpp).
#include "kernels/columns.hpp"

#include "core/error.hpp"
#include "core/hash.hpp"
#include "core/memory.hpp"
#include "kernels/blas.hpp"
#include "kernels/column_kernels.hpp"
#include "kernels/detail/dispatch.hpp"
#include "kernels/detail/symv_column_runs.hpp"

namespace mgblas {
namespace {

void check_queue(const Queue& q) {
  if (q.device == nullptr)
    MGBLAS_THROW(BadArgument, "argument 'q.device' is a null pointer but must be a device");
}

void check_columns(const LocalColumns& c) {
  MGBLAS_CHECK_ARG(c.nb >= 1, "cols.nb", c.nb, ">= 1");
  MGBLAS_CHECK_ARG(c.stride >= c.nb, "cols.stride", c.stride, ">= cols.nb = ", c.nb);
  MGBLAS_CHECK_ARG(c.local_begin >= 0 && c.local_begin <= c.local_end, "cols.local_begin",
                   c.local_begin, "in [0, cols.local_end = ", c.local_end, "]");
}

// The engine's products per run of contiguous columns, through the public entries (so
// a GPU's dispatcher picks mgblas's kernel or cuBLAS per block as for any symv/gemv).
template <Scalar T>
void symv_columns_by_engine(const Queue& q, Uplo uplo, bool herm, int64_t n, int64_t off,
                            const LocalColumns& cols, T alpha, const T* A, int64_t ld,
                            const T* x, T* y) {
  const Op op_mirror = herm ? Op::C : Op::T;
  kernels::detail::symv_column_runs(
      uplo, n, off, cols,
      [&](int64_t c0, int64_t jl, int64_t w) {
        const T* diag = A + c0 + jl * ld;  // rows and columns [c0, c0 + w) at local (c0, jl)
        if (herm)
          hemv(q, uplo, w, alpha, diag, ld, x + c0 - off, 1, T(1), y + c0 - off, 1);
        else
          symv(q, uplo, w, alpha, diag, ld, x + c0 - off, 1, T(1), y + c0 - off, 1);
      },
      [&](int64_t r0, int64_t h, int64_t jl, int64_t c0, int64_t w) {
        gemv_offset(q, Op::N, h, w, alpha, A, ld, r0, jl, x + c0 - off, 1, T(1), y + r0 - off, 1);
        gemv_offset(q, op_mirror, h, w, alpha, A, ld, r0, jl, x + r0 - off, 1, T(1),
                    y + c0 - off, 1);
      });
}

}  // namespace

template <Scalar T>
void finish_sum(const Queue& q, int64_t n, const T* s, T beta, T* y) {
  check_queue(q);
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  if (n == 0) return;
  MGBLAS_CHECK_PTR(y, "y", true);
  MGBLAS_DISPATCH(q, finish_sum, n, s, beta, y);
}

template <Scalar T>
void gather_columns(const Queue& q, const LocalColumns& cols, const T* x, int64_t c0, T* out) {
  check_queue(q);
  check_columns(cols);
  if (cols.count() == 0) return;
  MGBLAS_CHECK_PTR(x, "x", true);
  MGBLAS_CHECK_PTR(out, "out", true);
  MGBLAS_DISPATCH(q, gather_columns, cols, x, c0, out);
}

template <Scalar T>
void scatter_columns(const Queue& q, std::span<const LocalColumns> cols, const T* in,
                     int64_t in_stride, int64_t c0, T beta, T* y) {
  check_queue(q);
  bool any = false;
  for (const LocalColumns& c : cols) {
    check_columns(c);
    MGBLAS_CHECK_ARG(cols.size() == 1 || c.count() <= in_stride, "in_stride", in_stride,
                     ">= every column set's count (", c.count(), ")");
    any = any || c.count() > 0;
  }
  if (!any) return;
  MGBLAS_CHECK_PTR(in, "in", true);
  MGBLAS_CHECK_PTR(y, "y", true);
  MGBLAS_DISPATCH(q, scatter_columns, static_cast<int>(cols.size()), cols.data(), in, in_stride,
                  c0, beta, y);
}

template <Scalar T>
void symv_columns(const Queue& q, Uplo uplo, bool herm, int64_t n, int64_t off,
                  const LocalColumns& cols, T alpha, const T* A, int64_t ld, const T* x, T* y,
                  SymvColumns form, T* quad) {
  check_queue(q);
  check_columns(cols);
  MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo", static_cast<int>(uplo),
                   "Uplo::Lower or Uplo::Upper");
  MGBLAS_CHECK_ARG(off >= 0 && off <= n, "off", off, "in [0, n = ", n, "]");
  MGBLAS_CHECK_ARG(ld >= std::max<int64_t>(1, n), "ld", ld, ">= max(1, n) = ",
                   std::max<int64_t>(1, n));
  if (cols.count() == 0) return;
  MGBLAS_CHECK_PTR(A, "A", true);
  MGBLAS_CHECK_PTR(x, "x", true);
  MGBLAS_CHECK_PTR(y, "y", true);
  if (form == SymvColumns::Engine) {
    if (quad)
      MGBLAS_THROW(NotImplemented, "symv_columns: x^H S x (quad) is formed by the kernel forms "
                                   "(Tiles, Columns), not by the engine's products");
    symv_columns_by_engine(q, uplo, herm, n, off, cols, alpha, A, ld, x, y);
    return;
  }
  MGBLAS_DISPATCH(q, symv_columns, uplo, herm, n, off, cols, alpha, A, ld, x, y,
                  form == SymvColumns::Tiles, quad);
}

template <Scalar T>
void max_magnitude(const Queue& q, int64_t rows, int64_t cols, const T* A, int64_t ld,
                   real_type_t<T>* out) {
  check_queue(q);
  MGBLAS_CHECK_ARG(rows >= 0, "rows", rows, ">= 0");
  MGBLAS_CHECK_ARG(cols >= 0, "cols", cols, ">= 0");
  MGBLAS_CHECK_ARG(ld >= std::max<int64_t>(1, rows), "ld", ld, ">= max(1, rows) = ",
                   std::max<int64_t>(1, rows));
  MGBLAS_CHECK_PTR(A, "A", rows > 0 && cols > 0);
  MGBLAS_CHECK_PTR(out, "out", true);
  MGBLAS_DISPATCH(q, max_magnitude, rows, cols, A, ld, out);
}

template <Scalar T>
void range_scale(const Queue& q, int64_t rows, int64_t cols, int64_t count,
                 const real_type_t<T>* maxima, bool inverse, T* A, int64_t ld) {
  check_queue(q);
  MGBLAS_CHECK_ARG(rows >= 0, "rows", rows, ">= 0");
  MGBLAS_CHECK_ARG(cols >= 0, "cols", cols, ">= 0");
  MGBLAS_CHECK_ARG(count >= 1, "count", count, ">= 1");
  MGBLAS_CHECK_ARG(ld >= std::max<int64_t>(1, rows), "ld", ld, ">= max(1, rows) = ",
                   std::max<int64_t>(1, rows));
  if (rows == 0 || cols == 0) return;
  MGBLAS_CHECK_PTR(maxima, "maxima", true);
  MGBLAS_CHECK_PTR(A, "A", true);
  MGBLAS_DISPATCH(q, range_scale, rows, cols, count, maxima, inverse, A, ld);
}

template <Scalar T>
uint64_t digest(const Queue& q, int64_t n, const T* x, uint64_t* scratch) {
  check_queue(q);
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  MGBLAS_CHECK_PTR(x, "x", n > 0);
  const auto bytes = static_cast<std::size_t>(n) * sizeof(T);
  if (n == 0 || !q.device->is_gpu()) return hash_bytes(x, bytes);
  MGBLAS_CHECK_PTR(scratch, "scratch", true);
  MGBLAS_DISPATCH(q, digest_sum, n, x, scratch);
  uint64_t sum = 0;
  copy_vector(*q.device, 1, static_cast<const uint64_t*>(scratch), &sum);  // waits for q
  return hash_finish(sum, bytes, kHashSeed);
}

template <Scalar T>
void copy_row_blocks(const Queue& q, int64_t count, int64_t rows, int64_t mb, int nprow,
                     int phase, const int64_t* cols, T* packed, T* A, int64_t ld,
                     bool to_columns) {
  check_queue(q);
  MGBLAS_CHECK_ARG(count >= 0, "count", count, ">= 0");
  MGBLAS_CHECK_ARG(rows >= 0, "rows", rows, ">= 0");
  MGBLAS_CHECK_ARG(mb >= 1, "mb", mb, ">= 1");
  MGBLAS_CHECK_ARG(nprow >= 1, "nprow", nprow, ">= 1");
  MGBLAS_CHECK_ARG(phase >= 0 && phase < nprow, "phase", phase, "in [0, nprow = ", nprow, ")");
  if (count == 0 || rows == 0) return;
  // The last local row lands lowest: it must fit in A's columns.
  const int64_t last = ((rows - 1) / mb * nprow + phase) * mb + (rows - 1) % mb;
  MGBLAS_CHECK_ARG(ld > last, "ld", ld, "> the last global row ", last);
  MGBLAS_CHECK_PTR(cols, "cols", true);
  MGBLAS_CHECK_PTR(packed, "packed", true);
  MGBLAS_CHECK_PTR(A, "A", true);
  MGBLAS_DISPATCH(q, copy_row_blocks, count, rows, mb, nprow, phase, cols, packed, A, ld,
                  to_columns);
}

#define MGBLAS_INSTANTIATE_COLUMNS_(T)                                                        \
  template void finish_sum<T>(const Queue&, int64_t, const T*, T, T*);                        \
  template void gather_columns<T>(const Queue&, const LocalColumns&, const T*, int64_t, T*);  \
  template void scatter_columns<T>(const Queue&, std::span<const LocalColumns>, const T*,     \
                                   int64_t, int64_t, T, T*);                                  \
  template void symv_columns<T>(const Queue&, Uplo, bool, int64_t, int64_t,                   \
                                const LocalColumns&, T, const T*, int64_t, const T*, T*,      \
                                SymvColumns, T*);                                             \
  template void max_magnitude<T>(const Queue&, int64_t, int64_t, const T*, int64_t,           \
                                 real_type_t<T>*);                                            \
  template void range_scale<T>(const Queue&, int64_t, int64_t, int64_t, const real_type_t<T>*, \
                               bool, T*, int64_t);                                            \
  template uint64_t digest<T>(const Queue&, int64_t, const T*, uint64_t*);                   \
  template void copy_row_blocks<T>(const Queue&, int64_t, int64_t, int64_t, int, int,         \
                                   const int64_t*, T*, T*, int64_t, bool);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_COLUMNS_)
#undef MGBLAS_INSTANTIATE_COLUMNS_

}  // namespace mgblas
