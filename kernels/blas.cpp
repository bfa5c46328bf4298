// SPDX-License-Identifier: BSD-3-Clause
// Public single-device entries: validate every argument, take the documented quick
// returns, then run the engine of the queue's device.
#include "kernels/blas.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <source_location>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "kernels/batched_kernels.hpp"
#include "kernels/detail/dispatch.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/gemv_kernels.hpp"
#include "kernels/symv_kernels.hpp"

namespace mgblas {
namespace {

// Argument checks of one public entry. Errors are raised as that entry (`func`, a
// string literal: Error keeps the pointer) at the line that built the checker, in the
// wording of MGBLAS_CHECK_ARG / MGBLAS_CHECK_PTR.
class ArgCheck {
 public:
  explicit ArgCheck(const char* func, std::source_location where = std::source_location::current())
      : func_(func), where_(where) {}

  template <typename V, typename... Rule>
  void require(bool ok, const char* name, const V& value, const Rule&... rule) const {
    if (!ok) fail("argument '", name, "' = ", value, ": must be ", rule...);
  }
  void queue(const Queue& q) const {
    if (q.device == nullptr) fail("argument 'q.device' is a null pointer but must be a device");
  }
  void op(const char* name, Op v) const {
    require(v == Op::N || v == Op::T || v == Op::C, name, static_cast<int>(v),
            "Op::N, Op::T or Op::C");
  }
  void uplo(Uplo v) const {
    require(v == Uplo::Lower || v == Uplo::Upper, "uplo", static_cast<int>(v),
            "Uplo::Lower or Uplo::Upper");
  }
  void nonnegative(const char* name, int64_t v) const { require(v >= 0, name, v, ">= 0"); }
  void positive(const char* name, int64_t v) const { require(v > 0, name, v, "> 0"); }
  /// Vector increments: BLAS reads a negative increment backwards; mgblas does not take
  /// them (on every engine), and says so.
  void increment(const char* name, int64_t v) const {
    require(v > 0, name, v,
            "> 0 (mgblas takes no negative or zero increments; for BLAS's backward "
            "traversal pass a reversed copy)");
  }
  /// `a + b` for an offset plus a size: both non-negative, so only overflow can fail.
  int64_t sum(const char* text, const char* name, int64_t value, int64_t b) const {
    int64_t r;
    if (__builtin_add_overflow(value, b, &r))
      fail("argument '", name, "' = ", value, ": ", text, " overflows 64-bit indexing");
    return r;
  }
  /// The last element of a block of `cols` columns with leading dimension ld, or the
  /// last of `len` entries at increment inc, must have a 64-bit index.
  void extent(const char* name, int64_t value, int64_t ld, int64_t cols) const {
    int64_t r;
    if (cols > 0 && __builtin_mul_overflow(ld, cols, &r))
      fail("argument '", name, "' = ", value, ": ", ld, " * ", cols,
           " elements overflow 64-bit indexing");
  }
  /// ld >= max(1, rows), where `rows_text` spells how rows was formed ("m", "off + n").
  void ld(const char* name, int64_t value, int64_t rows, const char* rows_text) const {
    const int64_t lo = std::max<int64_t>(1, rows);
    require(value >= lo, name, value, ">= max(1, ", rows_text, ") = ", lo);
  }
  void ptr(const void* p, const char* name, bool needed) const {
    if (needed && p == nullptr)
      fail("argument '", name, "' is a null pointer but must be readable/writable for these sizes");
  }

 private:
  template <typename... Args>
  [[noreturn]] void fail(const Args&... args) const {
    throw BadArgument(where_.file_name(), static_cast<int>(where_.line()), func_,
                      detail::concat(func_, ": ", args...));
  }
  const char* func_;
  std::source_location where_;
};

// ---- shared rules ---------------------------------------------------------------

// gemv and gemv_offset, all but lda (whose bound differs).
void check_gemv(const ArgCheck& check, const Queue& q, Op op, int64_t m, int64_t n, const void* A,
                const void* x, int64_t incx, const void* y, int64_t incy) {
  check.queue(q);
  check.op("op", op);
  check.nonnegative("m", m);
  check.nonnegative("n", n);
  check.increment("incx", incx);
  check.increment("incy", incy);
  check.extent("incx", incx, incx, op == Op::N ? n : m);
  check.extent("incy", incy, incy, op == Op::N ? m : n);
  // BLAS's quick return: with an empty y or a zero inner dimension nothing is read or
  // written (y is not scaled by beta).
  const bool product = m > 0 && n > 0;
  check.ptr(A, "A", product);
  check.ptr(x, "x", product);
  check.ptr(y, "y", product);
}

// symv/hemv and their offset forms, all but lda.
void check_symv(const ArgCheck& check, const Queue& q, Uplo uplo, int64_t n, const void* A,
                const void* x, int64_t incx, const void* y, int64_t incy) {
  check.queue(q);
  check.uplo(uplo);
  check.nonnegative("n", n);
  check.increment("incx", incx);
  check.increment("incy", incy);
  check.extent("incx", incx, incx, n);
  check.extent("incy", incy, incy, n);
  check.ptr(A, "A", n > 0);
  check.ptr(x, "x", n > 0);
  check.ptr(y, "y", n > 0);
}

// Shapes and leading dimensions common to every gemm form (pointers differ).
void check_gemm_shape(const ArgCheck& check, const Queue& q, Op opA, Op opB, int64_t m, int64_t n,
                      int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  check.queue(q);
  check.op("opA", opA);
  check.op("opB", opB);
  check.nonnegative("m", m);
  check.nonnegative("n", n);
  check.nonnegative("k", k);
  // A is stored m x k for op N, k x m otherwise; B is k x n or n x k.
  if (opA == Op::N)
    check.ld("lda", lda, m, "m");
  else
    check.ld("lda", lda, k, "k");
  if (opB == Op::N)
    check.ld("ldb", ldb, k, "k");
  else
    check.ld("ldb", ldb, n, "n");
  check.ld("ldc", ldc, m, "m");
  check.extent("lda", lda, lda, opA == Op::N ? k : m);
  check.extent("ldb", ldb, ldb, opB == Op::N ? n : k);
  check.extent("ldc", ldc, ldc, n);
}

void check_gemm_pointers(const ArgCheck& check, int64_t m, int64_t n, int64_t k, int64_t batch,
                         const void* A, const char* a_name, const void* B, const char* b_name,
                         const void* C, const char* c_name) {
  const bool writes_c = batch > 0 && m > 0 && n > 0;
  check.ptr(A, a_name, writes_c && k > 0);
  check.ptr(B, b_name, writes_c && k > 0);
  check.ptr(C, c_name, writes_c);
}

// a * b, saturated: only compared against a stride, and printed.
int64_t saturating_product(int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a)
    return std::numeric_limits<int64_t>::max();
  return a * b;
}


}  // namespace

// ---- GEMV -------------------------------------------------------------------------

template <Scalar T>
void gemv(const Queue& q, Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
          int64_t incx, T beta, T* y, int64_t incy) {
  const ArgCheck check("gemv");
  check_gemv(check, q, op, m, n, A, x, incx, y, incy);
  check.ld("lda", lda, m, "m");
  check.extent("lda", lda, lda, n);
  if (m == 0 || n == 0) return;
  MGBLAS_DISPATCH(q, gemv, op, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

template <Scalar T>
void gemv_offset(const Queue& q, Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
                 int64_t row_off, int64_t col_off, const T* x, int64_t incx, T beta, T* y,
                 int64_t incy) {
  const ArgCheck check("gemv_offset");
  check_gemv(check, q, op, m, n, A, x, incx, y, incy);
  check.nonnegative("row_off", row_off);
  check.nonnegative("col_off", col_off);
  check.ld("lda", lda, check.sum("row_off + m", "row_off", row_off, m), "row_off + m");
  check.extent("col_off", col_off, lda, check.sum("col_off + n", "col_off", col_off, n));
  if (m == 0 || n == 0) return;
  MGBLAS_DISPATCH(q, gemv_offset, op, m, n, alpha, A, lda, row_off, col_off, x, incx, beta, y,
                   incy);
}

// ---- SYMV / HEMV ------------------------------------------------------------------

template <Scalar T>
void symv(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
          int64_t incx, T beta, T* y, int64_t incy) {
  const ArgCheck check("symv");
  check_symv(check, q, uplo, n, A, x, incx, y, incy);
  check.ld("lda", lda, n, "n");
  check.extent("lda", lda, lda, n);
  if (n == 0) return;
  MGBLAS_DISPATCH(q, symv, uplo, n, alpha, A, lda, x, incx, beta, y, incy);
}

template <Scalar T>
void hemv(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
          int64_t incx, T beta, T* y, int64_t incy) {
  const ArgCheck check("hemv");
  check_symv(check, q, uplo, n, A, x, incx, y, incy);
  check.ld("lda", lda, n, "n");
  check.extent("lda", lda, lda, n);
  if (n == 0) return;
  MGBLAS_DISPATCH(q, hemv, uplo, n, alpha, A, lda, x, incx, beta, y, incy);
}

template <Scalar T>
void symv_offset(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda,
                 int64_t off, const T* x, int64_t incx, T beta, T* y, int64_t incy) {
  const ArgCheck check("symv_offset");
  check_symv(check, q, uplo, n, A, x, incx, y, incy);
  check.nonnegative("off", off);
  const int64_t end = check.sum("off + n", "off", off, n);
  check.ld("lda", lda, end, "off + n");
  check.extent("off", off, lda, end);
  if (n == 0) return;
  MGBLAS_DISPATCH(q, symv_offset, uplo, n, alpha, A, lda, off, x, incx, beta, y, incy);
}

template <Scalar T>
void hemv_offset(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda,
                 int64_t off, const T* x, int64_t incx, T beta, T* y, int64_t incy) {
  const ArgCheck check("hemv_offset");
  check_symv(check, q, uplo, n, A, x, incx, y, incy);
  check.nonnegative("off", off);
  const int64_t end = check.sum("off + n", "off", off, n);
  check.ld("lda", lda, end, "off + n");
  check.extent("off", off, lda, end);
  if (n == 0) return;
  MGBLAS_DISPATCH(q, hemv_offset, uplo, n, alpha, A, lda, off, x, incx, beta, y, incy);
}

// ---- GEMM -------------------------------------------------------------------------

template <Scalar T>
void gemm(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A,
          int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  const ArgCheck check("gemm");
  check_gemm_shape(check, q, opA, opB, m, n, k, lda, ldb, ldc);
  check_gemm_pointers(check, m, n, k, 1, A, "A", B, "B", C, "C");
  if (m == 0 || n == 0) return;
  MGBLAS_DISPATCH(q, gemm, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

template <Scalar T>
void tsgemm(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A,
            int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  const ArgCheck check("tsgemm");
  check_gemm_shape(check, q, opA, opB, m, n, k, lda, ldb, ldc);
  check_gemm_pointers(check, m, n, k, 1, A, "A", B, "B", C, "C");
  if (m == 0 || n == 0) return;
  MGBLAS_DISPATCH(q, tsgemm, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// ---- batched GEMM -----------------------------------------------------------------

template <Scalar T>
void gemm_batched_strided(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                          const T* A, int64_t lda, int64_t strideA, const T* B, int64_t ldb,
                          int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC,
                          int64_t batch) {
  const ArgCheck check("gemm_batched_strided");
  check_gemm_shape(check, q, opA, opB, m, n, k, lda, ldb, ldc);
  check.nonnegative("batch", batch);
  check.nonnegative("strideA", strideA);
  check.nonnegative("strideB", strideB);
  check.nonnegative("strideC", strideC);
  // A and B entries may overlap (they are only read); C entries must not.
  if (batch > 1 && m > 0 && n > 0) {
    const int64_t c_size = saturating_product(ldc, n);
    check.require(strideC >= c_size, "strideC", strideC, ">= ldc * n = ", c_size,
                  " when batch > 1 (C entries must not overlap)");
  }
  // The last entry's last element must have a 64-bit index.
  if (batch > 1) {
    const auto last = [&](const char* name, int64_t stride, int64_t ld, int64_t cols) {
      int64_t a, b, r;
      if (__builtin_mul_overflow(batch - 1, stride, &a) || __builtin_mul_overflow(ld, cols, &b) ||
          __builtin_add_overflow(a, b, &r))
        check.require(false, name, stride, "such that (batch - 1) * ", name,
                      " + the entry's size fits 64-bit indexing (batch = ", batch, ")");
    };
    if (k > 0) last("strideA", strideA, lda, opA == Op::N ? k : m);
    if (k > 0) last("strideB", strideB, ldb, opB == Op::N ? n : k);
    last("strideC", strideC, ldc, n);
  }
  check_gemm_pointers(check, m, n, k, batch, A, "A", B, "B", C, "C");
  if (batch == 0 || m == 0 || n == 0) return;
  MGBLAS_DISPATCH(q, gemm_batched_strided, opA, opB, m, n, k, alpha, A, lda, strideA, B, ldb,
                   strideB, beta, C, ldc, strideC, batch);
}

template <Scalar T>
void gemm_batched(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                  const T* const* Aarray, int64_t lda, const T* const* Barray, int64_t ldb, T beta,
                  T* const* Carray, int64_t ldc, int64_t batch) {
  const ArgCheck check("gemm_batched");
  check_gemm_shape(check, q, opA, opB, m, n, k, lda, ldb, ldc);
  check.nonnegative("batch", batch);
  check_gemm_pointers(check, m, n, k, batch, Aarray, "Aarray", Barray, "Barray", Carray, "Carray");
  if (batch == 0 || m == 0 || n == 0) return;
  MGBLAS_DISPATCH(q, gemm_batched, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta,
                   Carray, ldc, batch);
}

template <Scalar T>
void gemm_vbatched(const Queue& q, Op opA, Op opB, const int64_t* m, const int64_t* n,
                   const int64_t* k, T alpha, const T* const* Aarray, const int64_t* lda,
                   const T* const* Barray, const int64_t* ldb, T beta, T* const* Carray,
                   const int64_t* ldc, int64_t batch, int64_t max_m, int64_t max_n, int64_t max_k) {
  const ArgCheck check("gemm_vbatched");
  check.queue(q);
  check.op("opA", opA);
  check.op("opB", opB);
  check.nonnegative("batch", batch);
  check.nonnegative("max_m", max_m);
  check.nonnegative("max_n", max_n);
  check.nonnegative("max_k", max_k);
  // With max_m or max_n zero every C is empty and no array is read; with max_k zero
  // every product is empty and only C is scaled.
  const bool writes_c = batch > 0 && max_m > 0 && max_n > 0;
  const bool reads_ab = writes_c && max_k > 0;
  check.ptr(m, "m", writes_c);
  check.ptr(n, "n", writes_c);
  check.ptr(k, "k", writes_c);
  check.ptr(ldc, "ldc", writes_c);
  check.ptr(Carray, "Carray", writes_c);
  check.ptr(lda, "lda", reads_ab);
  check.ptr(ldb, "ldb", reads_ab);
  check.ptr(Aarray, "Aarray", reads_ab);
  check.ptr(Barray, "Barray", reads_ab);
  if (!writes_c) return;
  MGBLAS_DISPATCH(q, gemm_vbatched, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta,
                   Carray, ldc, batch, max_m, max_n, max_k);
}

template <Scalar T>
void gemm_grouped(const Queue& q, int64_t group_count, const Op* opA, const Op* opB,
                  const int64_t* m, const int64_t* n, const int64_t* k, const T* alpha,
                  const T* const* Aarray, const int64_t* lda, const T* const* Barray,
                  const int64_t* ldb, const T* beta, T* const* Carray, const int64_t* ldc,
                  const int64_t* group_size) {
  const ArgCheck check("gemm_grouped");
  check.queue(q);
  check.nonnegative("group_count", group_count);
  const bool any = group_count > 0;
  for (const auto& [p, name] : {std::pair<const void*, const char*>{opA, "opA"}, {opB, "opB"},
                                {m, "m"}, {n, "n"}, {k, "k"}, {alpha, "alpha"}, {lda, "lda"},
                                {ldb, "ldb"}, {beta, "beta"}, {ldc, "ldc"},
                                {group_size, "group_size"}})
    check.ptr(p, name, any);
  // Every group as gemm_batched checks it, its index in the names; then the arrays.
  bool reads_ab = false, writes_c = false;
  for (int64_t g = 0; g < group_count; ++g) {
    const auto nm = [&](const char* base) { return detail::concat(base, "[", g, "]"); };
    check.op(nm("opA").c_str(), opA[g]);
    check.op(nm("opB").c_str(), opB[g]);
    check.nonnegative(nm("m").c_str(), m[g]);
    check.nonnegative(nm("n").c_str(), n[g]);
    check.nonnegative(nm("k").c_str(), k[g]);
    check.nonnegative(nm("group_size").c_str(), group_size[g]);
    if (opA[g] == Op::N) check.ld(nm("lda").c_str(), lda[g], m[g], nm("m").c_str());
    else check.ld(nm("lda").c_str(), lda[g], k[g], nm("k").c_str());
    if (opB[g] == Op::N) check.ld(nm("ldb").c_str(), ldb[g], k[g], nm("k").c_str());
    else check.ld(nm("ldb").c_str(), ldb[g], n[g], nm("n").c_str());
    check.ld(nm("ldc").c_str(), ldc[g], m[g], nm("m").c_str());
    const bool w = group_size[g] > 0 && m[g] > 0 && n[g] > 0;
    writes_c = writes_c || w;
    reads_ab = reads_ab || (w && k[g] > 0);
  }
  check.ptr(Aarray, "Aarray", reads_ab);
  check.ptr(Barray, "Barray", reads_ab);
  check.ptr(Carray, "Carray", writes_c);
  int64_t first = 0;  // the group's first entry in the arrays
  for (int64_t g = 0; g < group_count; ++g) {
    const int64_t count = group_size[g];
    if (count > 0 && m[g] > 0 && n[g] > 0) {
      // Where no group reads A or B the arrays may be null: pass them on unshifted.
      const T* const* a = Aarray ? Aarray + first : Aarray;
      const T* const* b = Barray ? Barray + first : Barray;
      MGBLAS_DISPATCH(q, gemm_batched, opA[g], opB[g], m[g], n[g], k[g], alpha[g], a, lda[g],
                       b, ldb[g], beta[g], Carray + first, ldc[g], count);
    }
    first += count;
  }
}

#undef MGBLAS_DISPATCH_

// ---- instantiations ---------------------------------------------------------------

#define MGBLAS_INSTANTIATE_BLAS_(T)                                                                \
  template void gemv<T>(const Queue&, Op, int64_t, int64_t, T, const T*, int64_t, const T*,        \
                        int64_t, T, T*, int64_t);                                                  \
  template void gemv_offset<T>(const Queue&, Op, int64_t, int64_t, T, const T*, int64_t, int64_t,  \
                               int64_t, const T*, int64_t, T, T*, int64_t);                        \
  template void symv<T>(const Queue&, Uplo, int64_t, T, const T*, int64_t, const T*, int64_t, T,   \
                        T*, int64_t);                                                              \
  template void hemv<T>(const Queue&, Uplo, int64_t, T, const T*, int64_t, const T*, int64_t, T,   \
                        T*, int64_t);                                                              \
  template void symv_offset<T>(const Queue&, Uplo, int64_t, T, const T*, int64_t, int64_t,         \
                               const T*, int64_t, T, T*, int64_t);                                 \
  template void hemv_offset<T>(const Queue&, Uplo, int64_t, T, const T*, int64_t, int64_t,         \
                               const T*, int64_t, T, T*, int64_t);                                 \
  template void gemm<T>(const Queue&, Op, Op, int64_t, int64_t, int64_t, T, const T*, int64_t,     \
                        const T*, int64_t, T, T*, int64_t);                                        \
  template void tsgemm<T>(const Queue&, Op, Op, int64_t, int64_t, int64_t, T, const T*, int64_t,   \
                          const T*, int64_t, T, T*, int64_t);                                      \
  template void gemm_batched_strided<T>(const Queue&, Op, Op, int64_t, int64_t, int64_t, T,        \
                                        const T*, int64_t, int64_t, const T*, int64_t, int64_t, T, \
                                        T*, int64_t, int64_t, int64_t);                            \
  template void gemm_batched<T>(const Queue&, Op, Op, int64_t, int64_t, int64_t, T,                \
                                const T* const*, int64_t, const T* const*, int64_t, T, T* const*,  \
                                int64_t, int64_t);                                                 \
  template void gemm_vbatched<T>(const Queue&, Op, Op, const int64_t*, const int64_t*,             \
                                 const int64_t*, T, const T* const*, const int64_t*,               \
                                 const T* const*, const int64_t*, T, T* const*, const int64_t*,    \
                                 int64_t, int64_t, int64_t, int64_t);                             \
  template void gemm_grouped<T>(const Queue&, int64_t, const Op*, const Op*, const int64_t*,      \
                                const int64_t*, const int64_t*, const T*, const T* const*,        \
                                const int64_t*, const T* const*, const int64_t*, const T*,        \
                                T* const*, const int64_t*, const int64_t*);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_BLAS_)
#undef MGBLAS_INSTANTIATE_BLAS_

}  // namespace mgblas
