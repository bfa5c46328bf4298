// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM over the devices and ranks of a Context (dist/batched_mgpu.hpp).
#include "dist/batched_mgpu.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/communicator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "kernels/blas.hpp"

namespace mgblas {

namespace {

/// Entries [0, count) of rows x cols matrices at src + e * stride (leading dimension
/// ld) into the compact array dst (leading dimension rows, stride rows * cols).
template <Scalar T>
void pack(const T* src, int64_t ld, int64_t stride, int64_t rows, int64_t cols, int64_t count,
          T* dst) {
  for (int64_t e = 0; e < count; ++e)
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(dst + (e * cols + j) * rows, src + e * stride + j * ld,
                  static_cast<std::size_t>(rows) * sizeof(T));
}

template <Scalar T>
void unpack(const T* src, int64_t rows, int64_t cols, int64_t count, T* dst, int64_t ld,
            int64_t stride) {
  for (int64_t e = 0; e < count; ++e)
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(dst + e * stride + j * ld, src + (e * cols + j) * rows,
                  static_cast<std::size_t>(rows) * sizeof(T));
}

/// What every rank must pass identically to a strided batched call.
template <Scalar T>
CallRecord strided_record(const char* what, Op opA, Op opB, int64_t m, int64_t n, int64_t k,
                          T alpha, int64_t lda, int64_t strideA, int64_t ldb, int64_t strideB,
                          T beta, int64_t ldc, int64_t strideC, int64_t batch) {
  CallRecord rec(what);
  rec.add_precision<T>()
      .add("opA", static_cast<char>(opA))
      .add("opB", static_cast<char>(opB))
      .add("m", m).add("n", n).add("k", k)
      .add("lda", lda).add("strideA", strideA)
      .add("ldb", ldb).add("strideB", strideB)
      .add("ldc", ldc).add("strideC", strideC)
      .add("batch", batch)
      .add_scalar("alpha", alpha)
      .add_scalar("beta", beta);
  return rec;
}

/// Digest of the per-entry sizes of a variable-size batch.
uint64_t hash_sizes(std::initializer_list<const int64_t*> arrays, int64_t batch) {
  uint64_t h = kHashSeed;
  for (const int64_t* p : arrays)
    if (p) h = hash_bytes(p, static_cast<std::size_t>(batch) * sizeof(int64_t), h);
  return h;
}

/// The highest element a strided batch touches must be addressable: (batch - 1) *
/// stride + ld * cols fits in 64 bits.
void check_extent(const char* name, int64_t batch, int64_t stride, int64_t ld, int64_t cols) {
  if (batch == 0 || cols == 0) return;
  checked_add(checked_mul(batch - 1, stride, name), checked_mul(ld, cols, name), name);
}

void check_ld(const char* name, int64_t ld, int64_t rows) {
  MGBLAS_CHECK_ARG(ld >= std::max<int64_t>(1, rows), name, ld, ">= max(1, rows) = ",
                   std::max<int64_t>(1, rows));
}

/// First entry of the global devices of rank r (the ranks' ranges are contiguous:
/// a rank's devices are consecutive global devices); r = nranks gives the end.
int64_t rank_first(const Context& ctx, const std::vector<int64_t>& bounds, int r) {
  return bounds[static_cast<std::size_t>(ctx.device_offset(r))];
}

/// Boundaries of the even split (batch_share) as a bounds vector.
std::vector<int64_t> even_bounds(int64_t batch, int P) {
  std::vector<int64_t> b(static_cast<std::size_t>(P) + 1, batch);
  for (int g = 0; g < P; ++g) b[g] = batch_share(batch, P, g).first;
  return b;
}

/// Every rank broadcasts the packed entries its devices computed; the others unpack
/// them. pack_range(first, end, buf) / unpack_range(first, end, buf) move the C
/// entries [first, end) to and from a compact buffer of `elements(first, end)` T.
template <Scalar T, typename Elements, typename Pack, typename Unpack>
void gather_over_ranks(const Context& ctx, const std::vector<int64_t>& bounds, Elements elements,
                       Pack pack_range, Unpack unpack_range) {
  if (ctx.nranks() <= 1) return;
  for (int r = 0; r < ctx.nranks(); ++r) {
    const int64_t first = rank_first(ctx, bounds, r), last = rank_first(ctx, bounds, r + 1);
    const int64_t count = elements(first, last);
    if (count == 0) continue;
    std::vector<T> buf(static_cast<std::size_t>(count));
    if (ctx.rank() == r) pack_range(first, last, buf.data());
    ctx.comm().bcast(buf.data(), buf.size() * sizeof(T), r);
    if (ctx.rank() != r) unpack_range(first, last, buf.data());
  }
}

}  // namespace

template <Scalar T>
void gemm_batched_strided_mgpu(const std::shared_ptr<Context>& ctx_ptr, Op opA, Op opB, int64_t m,
                               int64_t n, int64_t k, std::type_identity_t<T> alpha, const T* A,
                               int64_t lda, int64_t strideA, const T* B, int64_t ldb,
                               int64_t strideB, std::type_identity_t<T> beta, T* C, int64_t ldc,
                               int64_t strideC, int64_t batch) {
  MGBLAS_CHECK_PTR(ctx_ptr.get(), "ctx", true);
  Context& ctx = *ctx_ptr;
  const int64_t ra = opA == Op::N ? m : k, ca = opA == Op::N ? k : m;
  const int64_t rb = opB == Op::N ? k : n, cb = opB == Op::N ? n : k;
  CallRecord rec = strided_record<T>("gemm_batched_strided_mgpu", opA, opB, m, n, k, alpha, lda,
                                     strideA, ldb, strideB, beta, ldc, strideC, batch);
  agree(ctx.comm(), rec, [&] {
    for (const auto& [op, name] : {std::pair{opA, "opA"}, std::pair{opB, "opB"}})
      MGBLAS_CHECK_ARG(op == Op::N || op == Op::T || op == Op::C, name, static_cast<char>(op),
                       "'N', 'T' or 'C'");
    MGBLAS_CHECK_ARG(m >= 0, "m", m, ">= 0");
    MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
    MGBLAS_CHECK_ARG(k >= 0, "k", k, ">= 0");
    MGBLAS_CHECK_ARG(batch >= 0, "batch", batch, ">= 0");
    MGBLAS_CHECK_ARG(strideA >= 0, "strideA", strideA, ">= 0");
    MGBLAS_CHECK_ARG(strideB >= 0, "strideB", strideB, ">= 0");
    MGBLAS_CHECK_ARG(strideC >= 0, "strideC", strideC, ">= 0");
    check_ld("lda", lda, ra);
    check_ld("ldb", ldb, rb);
    check_ld("ldc", ldc, m);
    if (batch > 1 && m > 0 && n > 0) {
      const int64_t c_size = checked_mul(ldc, n, "ldc * n");
      MGBLAS_CHECK_ARG(strideC >= c_size, "strideC", strideC, ">= ldc * n = ", c_size,
                       " when batch > 1");
    }
    if (k > 0) check_extent("the extent of A ((batch - 1) * strideA + lda * cols)", batch, strideA, lda, ca);
    if (k > 0) check_extent("the extent of B ((batch - 1) * strideB + ldb * cols)", batch, strideB, ldb, cb);
    check_extent("the extent of C ((batch - 1) * strideC + ldc * n)", batch, strideC, ldc, n);
    const bool writes = batch > 0 && m > 0 && n > 0;
    MGBLAS_CHECK_PTR(A, "A", writes && k > 0);
    MGBLAS_CHECK_PTR(B, "B", writes && k > 0);
    MGBLAS_CHECK_PTR(C, "C", writes);
  });
  if (batch == 0 || m == 0 || n == 0) return;

  const int P = ctx.global_num_devices();
  const bool reads_ab = k > 0 && alpha != T(0), reads_c = beta != T(0);
  all_or_nothing(ctx.comm(), "gemm_batched_strided_mgpu", [&] {
    struct Staging {
      BatchShare share;
      PinnedBuffer<T> c;
      DeviceBuffer<T> da, db, dc;
    };
    std::vector<Staging> st(static_cast<std::size_t>(ctx.num_devices()));
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const BatchShare s = batch_share(batch, P, ctx.device_offset() + d);
      st[d].share = s;
      if (s.count == 0) continue;
      const Device& dev = ctx.device(d);
      if (!dev.is_gpu()) {  // host memory is the device's memory: run in place
        gemm_batched_strided<T>(Queue(dev), opA, opB, m, n, k, alpha, A + s.first * strideA, lda,
                                strideA, B + s.first * strideB, ldb, strideB, beta,
                                C + s.first * strideC, ldc, strideC, s.count);
        continue;
      }
      dev.make_current();
      // A stride of 0 shares one operand: stage it once.
      const int64_t na = strideA == 0 ? 1 : s.count, nb = strideB == 0 ? 1 : s.count;
      st[d].da = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, na * ra * ca)));
      st[d].db = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, nb * rb * cb)));
      st[d].dc = DeviceBuffer<T>(dev, static_cast<std::size_t>(s.count * m * n));
      st[d].c = PinnedBuffer<T>(static_cast<std::size_t>(s.count * m * n));
      if (reads_ab) {
        PinnedBuffer<T> a(static_cast<std::size_t>(na * ra * ca)), b(static_cast<std::size_t>(nb * rb * cb));
        pack(A + s.first * strideA, lda, strideA, ra, ca, na, a.data());
        pack(B + s.first * strideB, ldb, strideB, rb, cb, nb, b.data());
        copy_vector(dev, na * ra * ca, a.data(), st[d].da.data());
        copy_vector(dev, nb * rb * cb, b.data(), st[d].db.data());
      }
      if (reads_c) {
        pack(C + s.first * strideC, ldc, strideC, m, n, s.count, st[d].c.data());
        copy_vector(dev, s.count * m * n, st[d].c.data(), st[d].dc.data(), /*async=*/true);
      }
      gemm_batched_strided<T>(Queue(dev), opA, opB, m, n, k, alpha, st[d].da.data(),
                              std::max<int64_t>(1, ra), strideA == 0 ? 0 : ra * ca,
                              st[d].db.data(), std::max<int64_t>(1, rb),
                              strideB == 0 ? 0 : rb * cb, beta, st[d].dc.data(), m, m * n,
                              s.count);
      copy_vector(dev, s.count * m * n, st[d].dc.data(), st[d].c.data(), /*async=*/true);
    }
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const Device& dev = ctx.device(d);
      if (!dev.is_gpu() || st[d].share.count == 0) continue;
      dev.make_current();
      dev.synchronize();
      unpack(st[d].c.data(), m, n, st[d].share.count, C + st[d].share.first * strideC, ldc,
             strideC);
    }
  });

  gather_over_ranks<T>(
      ctx, even_bounds(batch, P), [&](int64_t first, int64_t end) { return (end - first) * m * n; },
      [&](int64_t first, int64_t end, T* buf) {
        pack(C + first * strideC, ldc, strideC, m, n, end - first, buf);
      },
      [&](int64_t first, int64_t end, const T* buf) {
        unpack(buf, m, n, end - first, C + first * strideC, ldc, strideC);
      });
}

template <Scalar T>
void gemm_vbatched_mgpu(const std::shared_ptr<Context>& ctx_ptr, Op opA, Op opB, const int64_t* m,
                        const int64_t* n, const int64_t* k, std::type_identity_t<T> alpha,
                        const T* const* Aarray, const int64_t* lda, const T* const* Barray,
                        const int64_t* ldb, std::type_identity_t<T> beta, T* const* Carray,
                        const int64_t* ldc, int64_t batch) {
  MGBLAS_CHECK_PTR(ctx_ptr.get(), "ctx", true);
  Context& ctx = *ctx_ptr;
  const auto rows_a = [&](int64_t i) { return opA == Op::N ? m[i] : k[i]; };
  const auto cols_a = [&](int64_t i) { return opA == Op::N ? k[i] : m[i]; };
  const auto rows_b = [&](int64_t i) { return opB == Op::N ? k[i] : n[i]; };
  const auto cols_b = [&](int64_t i) { return opB == Op::N ? n[i] : k[i]; };
  CallRecord rec("gemm_vbatched_mgpu");
  rec.add_precision<T>()
      .add("opA", static_cast<char>(opA))
      .add("opB", static_cast<char>(opB))
      .add("batch", batch)
      .add_scalar("alpha", alpha)
      .add_scalar("beta", beta);
  agree(ctx.comm(), rec, [&] {
    for (const auto& [op, name] : {std::pair{opA, "opA"}, std::pair{opB, "opB"}})
      MGBLAS_CHECK_ARG(op == Op::N || op == Op::T || op == Op::C, name, static_cast<char>(op),
                       "'N', 'T' or 'C'");
    MGBLAS_CHECK_ARG(batch >= 0, "batch", batch, ">= 0");
    if (batch == 0) return;
    MGBLAS_CHECK_PTR(m, "m", true);
    MGBLAS_CHECK_PTR(n, "n", true);
    MGBLAS_CHECK_PTR(k, "k", true);
    MGBLAS_CHECK_PTR(ldc, "ldc", true);
    MGBLAS_CHECK_PTR(Carray, "Carray", true);
    for (int64_t i = 0; i < batch; ++i) {
      const std::string at = detail::concat("[", i, "]");
      MGBLAS_CHECK_ARG(m[i] >= 0, ("m" + at).c_str(), m[i], ">= 0");
      MGBLAS_CHECK_ARG(n[i] >= 0, ("n" + at).c_str(), n[i], ">= 0");
      MGBLAS_CHECK_ARG(k[i] >= 0, ("k" + at).c_str(), k[i], ">= 0");
      if (m[i] == 0 || n[i] == 0) continue;
      check_ld(("ldc" + at).c_str(), ldc[i], m[i]);
      MGBLAS_CHECK_PTR(Carray[i], ("Carray" + at).c_str(), true);
      if (k[i] == 0) continue;
      MGBLAS_CHECK_PTR(lda, "lda", true);
      MGBLAS_CHECK_PTR(ldb, "ldb", true);
      MGBLAS_CHECK_PTR(Aarray, "Aarray", true);
      MGBLAS_CHECK_PTR(Barray, "Barray", true);
      check_ld(("lda" + at).c_str(), lda[i], rows_a(i));
      check_ld(("ldb" + at).c_str(), ldb[i], rows_b(i));
      MGBLAS_CHECK_PTR(Aarray[i], ("Aarray" + at).c_str(), true);
      MGBLAS_CHECK_PTR(Barray[i], ("Barray" + at).c_str(), true);
    }
    rec.add_digest("m, n, k", hash_sizes({m, n, k}, batch));
  });
  if (batch == 0) return;

  const int P = ctx.global_num_devices();
  const std::vector<int64_t> bounds = batch_split_by_work(batch, m, n, k, P);
  const bool reads_c = beta != T(0);
  const auto live = [&](int64_t i) { return m[i] > 0 && n[i] > 0; };
  const auto reads_ab = [&](int64_t i) { return live(i) && k[i] > 0 && alpha != T(0); };
  all_or_nothing(ctx.comm(), "gemm_vbatched_mgpu", [&] {
    struct Staging {
      int64_t first = 0, count = 0;
      std::vector<int64_t> c_off;
      PinnedBuffer<T> c;
      DeviceBuffer<T> da, db, dc;
      DeviceBuffer<int64_t> sizes;  // m, n, k, lda, ldb, ldc of the share
      DeviceBuffer<const T*> pab;   // A then B pointers
      DeviceBuffer<T*> pc;
    };
    std::vector<Staging> st(static_cast<std::size_t>(ctx.num_devices()));
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const int g = ctx.device_offset() + d;
      const int64_t f = bounds[g], cnt = bounds[g + 1] - bounds[g];
      Staging& s = st[d];
      s.first = f;
      s.count = cnt;
      if (cnt == 0) continue;
      int64_t max_m = 0, max_n = 0, max_k = 0;
      for (int64_t i = f; i < f + cnt; ++i) {
        max_m = std::max(max_m, m[i]);
        max_n = std::max(max_n, n[i]);
        max_k = std::max(max_k, k[i]);
      }
      const Device& dev = ctx.device(d);
      if (!dev.is_gpu()) {
        gemm_vbatched<T>(Queue(dev), opA, opB, m + f, n + f, k + f, alpha,
                         Aarray ? Aarray + f : nullptr, lda ? lda + f : nullptr,
                         Barray ? Barray + f : nullptr, ldb ? ldb + f : nullptr, beta,
                         Carray + f, ldc + f, cnt, max_m, max_n, max_k);
        continue;
      }
      dev.make_current();
      // Compact staging: each entry's operands back to back, leading dimension = rows.
      std::vector<int64_t> a_off(cnt), b_off(cnt);
      s.c_off.assign(cnt, 0);
      int64_t a_len = 0, b_len = 0, c_len = 0;
      std::vector<int64_t> sizes(6 * cnt);
      for (int64_t e = 0; e < cnt; ++e) {
        const int64_t i = f + e;
        a_off[e] = a_len;
        b_off[e] = b_len;
        s.c_off[e] = c_len;
        if (reads_ab(i)) {
          a_len += rows_a(i) * cols_a(i);
          b_len += rows_b(i) * cols_b(i);
        }
        if (live(i)) c_len += m[i] * n[i];
        sizes[e] = m[i];
        sizes[cnt + e] = n[i];
        sizes[2 * cnt + e] = k[i];
        sizes[3 * cnt + e] = std::max<int64_t>(1, rows_a(i));
        sizes[4 * cnt + e] = std::max<int64_t>(1, rows_b(i));
        sizes[5 * cnt + e] = std::max<int64_t>(1, m[i]);
      }
      s.da = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, a_len)));
      s.db = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, b_len)));
      s.dc = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, c_len)));
      s.c = PinnedBuffer<T>(static_cast<std::size_t>(std::max<int64_t>(1, c_len)));
      PinnedBuffer<T> a(static_cast<std::size_t>(std::max<int64_t>(1, a_len))),
          b(static_cast<std::size_t>(std::max<int64_t>(1, b_len)));
      std::vector<const T*> pab(2 * cnt);
      std::vector<T*> pc(cnt);
      for (int64_t e = 0; e < cnt; ++e) {
        const int64_t i = f + e;
        pab[e] = s.da.data() + a_off[e];
        pab[cnt + e] = s.db.data() + b_off[e];
        pc[e] = s.dc.data() + s.c_off[e];
        if (reads_ab(i)) {
          pack(Aarray[i], lda[i], 0, rows_a(i), cols_a(i), 1, a.data() + a_off[e]);
          pack(Barray[i], ldb[i], 0, rows_b(i), cols_b(i), 1, b.data() + b_off[e]);
        }
        if (reads_c && live(i)) pack(Carray[i], ldc[i], 0, m[i], n[i], 1, s.c.data() + s.c_off[e]);
      }
      copy_vector(dev, a_len, a.data(), s.da.data());
      copy_vector(dev, b_len, b.data(), s.db.data());
      if (reads_c) copy_vector(dev, c_len, s.c.data(), s.dc.data());
      s.sizes = DeviceBuffer<int64_t>(dev, sizes.size());
      s.pab = DeviceBuffer<const T*>(dev, pab.size());
      s.pc = DeviceBuffer<T*>(dev, pc.size());
      copy_vector(dev, static_cast<int64_t>(sizes.size()), sizes.data(), s.sizes.data());
      copy_vector(dev, static_cast<int64_t>(pab.size()), pab.data(), s.pab.data());
      copy_vector(dev, static_cast<int64_t>(pc.size()), pc.data(), s.pc.data());
      const int64_t* ds = s.sizes.data();
      gemm_vbatched<T>(Queue(dev), opA, opB, ds, ds + cnt, ds + 2 * cnt, alpha, s.pab.data(),
                       ds + 3 * cnt, s.pab.data() + cnt, ds + 4 * cnt, beta, s.pc.data(),
                       ds + 5 * cnt, cnt, max_m, max_n, max_k);
      copy_vector(dev, c_len, s.dc.data(), s.c.data(), /*async=*/true);
    }
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const Device& dev = ctx.device(d);
      const Staging& s = st[d];
      if (!dev.is_gpu() || s.count == 0) continue;
      dev.make_current();
      dev.synchronize();
      for (int64_t e = 0; e < s.count; ++e) {
        const int64_t i = s.first + e;
        if (live(i)) unpack(s.c.data() + s.c_off[e], m[i], n[i], 1, Carray[i], ldc[i], 0);
      }
    }
  });

  const auto elements = [&](int64_t first, int64_t end) {
    int64_t total = 0;
    for (int64_t i = first; i < end; ++i)
      if (live(i)) total += m[i] * n[i];
    return total;
  };
  gather_over_ranks<T>(
      ctx, bounds, elements,
      [&](int64_t first, int64_t end, T* buf) {
        for (int64_t i = first; i < end; ++i)
          if (live(i)) {
            pack(Carray[i], ldc[i], 0, m[i], n[i], 1, buf);
            buf += m[i] * n[i];
          }
      },
      [&](int64_t first, int64_t end, const T* buf) {
        for (int64_t i = first; i < end; ++i)
          if (live(i)) {
            unpack(buf, m[i], n[i], 1, Carray[i], ldc[i], 0);
            buf += m[i] * n[i];
          }
      });
}

template <Scalar T>
void gemm_batched_strided_mgpu_local(const std::shared_ptr<Context>& ctx_ptr, Op opA, Op opB,
                                     int64_t m, int64_t n, int64_t k,
                                     std::type_identity_t<T> alpha, std::span<const T* const> A,
                                     int64_t lda, int64_t strideA, std::span<const T* const> B,
                                     int64_t ldb, int64_t strideB, std::type_identity_t<T> beta,
                                     std::span<T* const> C, int64_t ldc, int64_t strideC,
                                     int64_t batch) {
  MGBLAS_CHECK_PTR(ctx_ptr.get(), "ctx", true);
  Context& ctx = *ctx_ptr;
  CallRecord rec = strided_record<T>("gemm_batched_strided_mgpu_local", opA, opB, m, n, k, alpha,
                                     lda, strideA, ldb, strideB, beta, ldc, strideC, batch);
  const auto devices = static_cast<std::size_t>(ctx.num_devices());
  agree(ctx.comm(), rec, [&] {
    MGBLAS_CHECK_ARG(A.size() == devices, "A.size()", A.size(), "the number of local devices, ",
                     devices);
    MGBLAS_CHECK_ARG(B.size() == devices, "B.size()", B.size(), "the number of local devices, ",
                     devices);
    MGBLAS_CHECK_ARG(C.size() == devices, "C.size()", C.size(), "the number of local devices, ",
                     devices);
    MGBLAS_CHECK_ARG(batch >= 0, "batch", batch, ">= 0");
  });
  // Each device's call validates the rest (sizes, leading dimensions, its pointers);
  // agree on that outcome before returning so that every rank raises together.
  all_or_nothing(ctx.comm(), "gemm_batched_strided_mgpu_local", [&] {
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const BatchShare s = batch_share(batch, ctx.global_num_devices(), ctx.device_offset() + d);
      gemm_batched_strided<T>(Queue(ctx.device(d)), opA, opB, m, n, k, alpha, A[d], lda, strideA,
                              B[d], ldb, strideB, beta, C[d], ldc, strideC, s.count);
    }
    ctx.synchronize();
  });
}

#define MGBLAS_INSTANTIATE_BATCHED_MGPU_(T)                                                     \
  template void gemm_batched_strided_mgpu<T>(const std::shared_ptr<Context>&, Op, Op, int64_t,  \
                                             int64_t, int64_t, T, const T*, int64_t, int64_t,   \
                                             const T*, int64_t, int64_t, T, T*, int64_t,        \
                                             int64_t, int64_t);                                 \
  template void gemm_vbatched_mgpu<T>(const std::shared_ptr<Context>&, Op, Op, const int64_t*,  \
                                      const int64_t*, const int64_t*, T, const T* const*,       \
                                      const int64_t*, const T* const*, const int64_t*, T,       \
                                      T* const*, const int64_t*, int64_t);                      \
  template void gemm_batched_strided_mgpu_local<T>(                                             \
      const std::shared_ptr<Context>&, Op, Op, int64_t, int64_t, int64_t, T,                    \
      std::span<const T* const>, int64_t, int64_t, std::span<const T* const>, int64_t, int64_t, \
      T, std::span<T* const>, int64_t, int64_t, int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_BATCHED_MGPU_)
#undef MGBLAS_INSTANTIATE_BATCHED_MGPU_

}  // namespace mgblas
