// SPDX-License-Identifier: BSD-3-Clause
// symv_mgpu / hemv_mgpu: y = alpha * A(off:, off:) * x + beta * y, A symmetric or
// Hermitian and distributed by block columns, only the `uplo` triangle stored.
#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "dist/detail/mgpu_common.hpp"
#include "dist/detail/symv_share.hpp"
#include "dist/dist_blas.hpp"
#include "kernels/blas.hpp"
#include "kernels/columns.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {

namespace {

// How GPUs compute their share (env MGBLAS_DIST_SYMV): kernel (default): one launch per
// device, the engine's tile kernel when nb is a multiple of its tile, else the column
// kernel (kernels/columns.hpp, SymvColumns); columns: the column kernel always; engine:
// the engine's symv/gemv per block column (for comparison and as a fallback).
enum class SymvPath { Kernel, Columns, Engine };
SymvPath symv_path() {
  const char* v = std::getenv("MGBLAS_DIST_SYMV");
  if (!v || !*v || std::string_view(v) == "kernel") return SymvPath::Kernel;
  if (std::string_view(v) == "columns") return SymvPath::Columns;
  if (std::string_view(v) == "engine") return SymvPath::Engine;
  MGBLAS_THROW(BadArgument, "environment MGBLAS_DIST_SYMV = '", v,
               "': must be kernel, columns or engine");
}

// Column boundaries of the pipeline's chunks over the columns [off, n): chunk c covers
// [b[c], b[c + 1]) and the chunks hold about equal shares of the stored triangle (lower:
// column j holds n - j entries; upper: j - off + 1). Boundaries fall on multiples of 64
// where that keeps a chunk non-empty, so that kernel tiles are rarely cut.
std::vector<int64_t> chunk_bounds(bool lower, int64_t off, int64_t n, int chunks) {
  const auto area = [&](int64_t b) {  // stored entries of columns [off, b)
    const double w = static_cast<double>(b - off);
    return lower ? w * static_cast<double>(n - off) - w * (w - 1) / 2 : w * (w + 1) / 2;
  };
  const double total = area(n);
  std::vector<int64_t> b{off};
  for (int c = 1; c < chunks; ++c) {
    const double target = total * c / chunks;
    int64_t lo = b.back(), hi = n;  // smallest column with area >= target
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (area(mid) >= target) hi = mid;
      else lo = mid + 1;
    }
    const int64_t aligned = lo / 64 * 64;
    b.push_back(aligned > b.back() ? aligned : lo);
  }
  b.push_back(n);
  return b;
}

// One device's columns [a, b) (global, a >= off) when it holds the whole matrix (P = 1):
// the engine's symv/hemv on the diagonal block and the off-diagonal panel of the stored
// triangle twice, as itself (rows beyond the block, reading x at the block) and
// mirrored (rows of the block, reading x at the panel's rows), so each stored entry is
// read once; the offset entries keep reads aligned to the matrix. y (length n - off)
// accumulates.
template <Scalar T>
void symv_whole_columns(const Queue& q, Uplo uplo, bool herm, T alpha, int64_t n, const T* A,
                        int64_t ld, int64_t off, int64_t a, int64_t b, const T* x, T* y) {
  if (a >= b) return;
  const int64_t w = b - a;
  if (herm)
    hemv_offset(q, uplo, w, alpha, A, ld, a, x + a - off, 1, T(1), y + a - off, 1);
  else
    symv_offset(q, uplo, w, alpha, A, ld, a, x + a - off, 1, T(1), y + a - off, 1);
  const bool lower = uplo == Uplo::Lower;
  const int64_t r0 = lower ? b : off;
  const int64_t h = lower ? n - b : a - off;
  if (h == 0) return;
  // The mirrored triangle is the stored one transposed (symv) or conjugate-transposed
  // (hemv); for real T both are T.
  gemv_offset(q, Op::N, h, w, alpha, A, ld, r0, a, x + a - off, 1, T(1), y + r0 - off, 1);
  gemv_offset(q, herm ? Op::C : Op::T, h, w, alpha, A, ld, r0, a, x + r0 - off, 1, T(1),
              y + a - off, 1);
}

// Device g's part of the columns [a, b) (a >= off), the form `path` chooses (a host
// device computes per run of columns with its engine whatever the path).
template <Scalar T>
void symv_share_in(SymvPath path, const Device& dev, Uplo uplo, bool herm, T alpha,
                   const BlockCyclic1D& L, int g, const T* A_local, int64_t ld, int64_t off,
                   int64_t a, int64_t b, const T* x, T* y) {
  if (L.num_devices() == 1)
    return symv_whole_columns(Queue(dev), uplo, herm, alpha, L.n(), A_local, ld, off, a, b, x, y);
  const SymvColumns form = path == SymvPath::Kernel    ? SymvColumns::Tiles
                           : path == SymvPath::Columns ? SymvColumns::Columns
                                                       : SymvColumns::Engine;
  symv_columns(Queue(dev), uplo, herm, L.n(), off, local_columns(L, g, a, b), alpha, A_local, ld,
               x, y, form);
}

template <Scalar T, bool kHermitian>
void symv_run(Reducer& red, Uplo uplo, T alpha, const DistMatrix<T>& A, int64_t off,
              const detail::InputVector<T>& x, T beta, detail::OutputVector<T>& y) {
  const char* what = kHermitian ? "hemv_mgpu" : "symv_mgpu";
  Context& ctx = red.context();
  const BlockCyclic1D& L = A.layout();
  const int chunks = red.pipeline_chunks();

  CallRecord rec(what);
  detail::add_matrix_fields(rec, A);
  rec.add("uplo", static_cast<char>(uplo)).add("off", off);
  detail::add_level2_fields(rec, alpha, beta, x, y, red);
  SymvPath path = SymvPath::Kernel;
  agree(ctx.comm(), rec, [&] {
    detail::check_matrix(ctx, A);
    if (L.m() != L.n())
      MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", L.n(), ": ", what,
                   " needs a square matrix");
    MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo",
                     static_cast<int>(static_cast<char>(uplo)), "'L' or 'U'");
    MGBLAS_CHECK_ARG(off >= 0 && off <= L.n(), "off", off, "in [0, n = ", L.n(), "]");
    const int64_t n = L.n() - off;
    detail::check_same_forms(x, y);
    x.check(ctx, "x", n, alpha != T(0) && n > 0, nullptr);
    y.check(ctx, "y", n, n > 0, nullptr);
    if (alpha != T(0) && n > 0) x.add_digest(ctx, rec, "x", n);
    if (beta != T(0) && n > 0) y.add_digest(ctx, rec, "y", n);
    path = symv_path();
  });

  const int64_t n = L.n() - off;
  if (n == 0) return;
  if (alpha == T(0)) {
    y.scale(ctx, n, beta, off);
    return;
  }

  const bool lower = uplo == Uplo::Lower;
  const std::vector<int64_t> bounds = chunk_bounds(lower, off, L.n(), chunks);
  const int P = ctx.num_devices();
  std::vector<const T*> xd(P, nullptr);
  std::vector<T*> part(P, nullptr);

  red.reduce_chunks<T>(n, beta, y.target(), chunks, [&](int c) {
    if (c == 0) {
      for (int d = 0; d < P; ++d) {
        const int g = ctx.device_offset() + d;
        if (local_count(L, g, off, L.n()) == 0) continue;  // no column in S
        const Device& dev = ctx.device(d);
        xd[d] = x.on_device(red, d, n);
        part[d] = red.workspace<T>(d, detail::kSlotPartial, n);
        dev.make_current();
        memset_bytes(dev, part[d], 0, static_cast<std::size_t>(n) * sizeof(T), /*async=*/true);
      }
    }
    // Lower: left to right, since column j's products reach rows >= j only, the entries
    // of the chunk's columns are then final; upper, for the same reason, right to left.
    const int k = lower ? c : chunks - 1 - c;
    const int64_t a = bounds[k], b = bounds[k + 1];
    for (int d = 0; d < P; ++d) {
      if (!part[d]) continue;
      symv_share_in(path, ctx.device(d), uplo, kHermitian, alpha, L, ctx.device_offset() + d,
                    A.local(d), A.ld(), off, a, b, xd[d], part[d]);
    }
    return Partials<T>{std::vector<const T*>(part.begin(), part.end()), a - off, b - off};
  });
}

}  // namespace

template <Scalar T>
void detail::symv_share(const Device& dev, Uplo uplo, bool herm, T alpha, const BlockCyclic1D& L,
                        int g, const T* A_local, int64_t ld, int64_t off, int64_t a,
                        int64_t b, const T* x, T* y, T* quad) {
  if (quad) {
    // The tile kernel forms x^H of its sums on the way; one device is a block-cyclic
    // matrix of one device too.
    symv_columns(Queue(dev), uplo, herm, L.n(), off, local_columns(L, g, a, b), alpha, A_local,
                 ld, x, y, SymvColumns::Tiles, quad);
    return;
  }
  symv_share_in(symv_path(), dev, uplo, herm, alpha, L, g, A_local, ld, off, a, b, x, y);
}

template <Scalar T>
bool detail::symv_share_has_quad(int64_t nb) {
  return nb > 0 && nb % symv_columns_tile<T>() == 0;
}

// The public entries (dist/dist_blas.hpp's other forms forward to these): KIND is symv
// or hemv, HERM its flag.
#define MGBLAS_DEFINE_SYMV_LIKE_(KIND, HERM)                                                   \
  template <Scalar T>                                                                          \
  void KIND##_mgpu_offset(ReducerOrContext on, Uplo uplo, same_as_a_t<T> alpha,               \
                          const DistMatrix<T>& A, int64_t off, vector_in_t<T> x,               \
                          same_as_a_t<T> beta, vector_inout_t<T> y) {                          \
    std::unique_ptr<Reducer> owned;                                                            \
    detail::OutputVector<T> out(y);                                                            \
    symv_run<T, HERM>(on.reducer(owned), uplo, alpha, A, off, detail::InputVector<T>(x), beta, \
                      out);                                                                    \
  }
MGBLAS_DEFINE_SYMV_LIKE_(symv, false)
MGBLAS_DEFINE_SYMV_LIKE_(hemv, true)
#undef MGBLAS_DEFINE_SYMV_LIKE_

#define MGBLAS_INSTANTIATE(T)                                                                  \
  template void symv_mgpu_offset<T>(ReducerOrContext, Uplo, T, const DistMatrix<T>&, int64_t,  \
                                    VectorIn<T>, T, VectorInOut<T>);                           \
  template void hemv_mgpu_offset<T>(ReducerOrContext, Uplo, T, const DistMatrix<T>&, int64_t,  \
                                    VectorIn<T>, T, VectorInOut<T>);                           \
  template void detail::symv_share<T>(const Device&, Uplo, bool, T, const BlockCyclic1D&, int, \
                                      const T*, int64_t, int64_t, int64_t, int64_t,            \
                                      const T*, T*, T*);                                       \
  template bool detail::symv_share_has_quad<T>(int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
