// SPDX-License-Identifier: BSD-3-Clause
// Shared pieces of the batched GEMM tests (test_cuda_batched, test_cuda_batched_engine,
// test_batched_host, tests/dist/test_batched_mgpu): where each entry lives in its host
// buffers, NaN-gapped operand buffers, pointer arrays, grouped calls and the per-entry
// check. One copy, so that the tests cannot drift apart in what they call correct.
// Needs no GPU: the CUDA tests upload what these build (cuda_test_helpers.hpp).
//
// Operands live in one buffer per role with NaN in every gap between entries and in
// every ld padding: NaN in A/B gaps shows up in C if an engine reads them, NaN in C
// gaps must come out bit-for-bit untouched.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing {

inline constexpr Op kOps[] = {Op::N, Op::T, Op::C};

/// One entry's view for the checks: where its operands start in the host buffers.
struct EntryView {
  int64_t m, n, k;
  int64_t a_off, lda, b_off, ldb, c_off, ldc;
};

/// Random values in the rows x cols matrix at buf[off] (ld); the rest stays as it is.
template <Scalar T>
void fill_random(std::vector<T>& buf, int64_t off, int64_t rows, int64_t cols, int64_t ld,
                 std::mt19937_64& rng) {
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) buf[off + i + j * ld] = random_value<T>(rng);
}

/// Random stored op(A) and op(B) of one entry, and its C unless `fill_c` is false (C
/// keeps its NaN for beta = 0), in this order.
template <Scalar T>
void fill_entry(Op opA, Op opB, const EntryView& v, std::vector<T>& A, std::vector<T>& B,
                std::vector<T>& C, bool fill_c, std::mt19937_64& rng) {
  fill_random(A, v.a_off, opA == Op::N ? v.m : v.k, opA == Op::N ? v.k : v.m, v.lda, rng);
  fill_random(B, v.b_off, opB == Op::N ? v.k : v.n, opB == Op::N ? v.n : v.k, v.ldb, rng);
  if (fill_c) fill_random(C, v.c_off, v.m, v.n, v.ldc, rng);
}

/// A buffer of `count` entries, entry i a rows x cols matrix (ld) at i * stride, random
/// inside (when `fill`) and NaN elsewhere (padding and gaps).
template <Scalar T>
std::vector<T> strided_entries(int64_t rows, int64_t cols, int64_t ld, int64_t stride,
                               int64_t count, bool fill, std::mt19937_64& rng) {
  const int64_t size = count > 0 ? (count - 1) * stride + ld * std::max<int64_t>(cols, 1) : 1;
  std::vector<T> buf(static_cast<std::size_t>(size), nan_value<T>());
  if (fill)
    for (int64_t e = 0; e < count; ++e) fill_random(buf, e * stride, rows, cols, ld, rng);
  return buf;
}

/// The entries of a strided call: entry e at e * stride of each buffer.
inline std::vector<EntryView> strided_views(int64_t m, int64_t n, int64_t k, int64_t batch,
                                            int64_t lda, int64_t sA, int64_t ldb, int64_t sB,
                                            int64_t ldc, int64_t sC) {
  std::vector<EntryView> entries;
  for (int64_t e = 0; e < batch; ++e)
    entries.push_back({m, n, k, e * sA, lda, e * sB, ldb, e * sC, ldc});
  return entries;
}

/// The entries' pointer arrays over the buffers A, B, C (host or device memory).
template <typename T>
PointerArrays<T> entry_pointers(const std::vector<EntryView>& entries, const T* A, const T* B,
                                T* C) {
  PointerArrays<T> p;
  for (const EntryView& v : entries) {
    p.a.push_back(A + v.a_off);
    p.b.push_back(B + v.b_off);
    p.c.push_back(C + v.c_off);
  }
  return p;
}

/// The largest of per-entry sizes, 0 for an empty batch (max_m/n/k of vbatched).
inline int64_t largest(const std::vector<int64_t>& sizes) {
  return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
}

/// Checks every entry against the reference and everything outside the entries' C
/// regions against the input; `C0`, `C` and `C_ref` are whole buffers. `c_poisoned`: C0
/// held NaN (beta = 0), so it adds nothing to the bound. `note` ends the failure message
/// (the CUDA engine's kernel choice).
template <Scalar T>
void check_entries(Op opA, Op opB, const std::vector<EntryView>& entries, T alpha, T beta,
                   bool c_poisoned, const std::vector<T>& A, const std::vector<T>& B,
                   const std::vector<T>& C0, const std::vector<T>& C,
                   const std::vector<T>& C_ref, const std::string& note = "") {
  double worst = 0, ref_norm_sum = 0;
  int64_t worst_entry = -1;
  std::vector<char> in_output(C0.size(), 0);
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const EntryView& v = entries[e];
    const int64_t rowsA = opA == Op::N ? v.m : v.k, colsA = opA == Op::N ? v.k : v.m;
    const int64_t rowsB = opB == Op::N ? v.k : v.n, colsB = opB == Op::N ? v.n : v.k;
    for (int64_t j = 0; j < v.n; ++j)
      for (int64_t i = 0; i < v.m; ++i) in_output[v.c_off + i + j * v.ldc] = 1;
    const double normA = norm_fro(rowsA, colsA, A.data() + v.a_off, v.lda);
    const double normB = norm_fro(rowsB, colsB, B.data() + v.b_off, v.ldb);
    const double normC0 = c_poisoned ? 0.0 : norm_fro(v.m, v.n, C0.data() + v.c_off, v.ldc);
    ref_norm_sum += norm_fro(v.m, v.n, C_ref.data() + v.c_off, v.ldc);
    //  +----------------------------------------------------------------------+
    //  |  per entry i:  err_i = ||C_i - C_ref,i||_F / ((k_i * |alpha|         |
    //  |      * ||A_i||_F * ||B_i||_F + |beta| * ||C0_i||_F) * eps)           |
    //  |  passes when max_i err_i <= 10 (x sqrt(2) for complex)               |
    //  +----------------------------------------------------------------------+
    const double err = scaled_error(
        matrix_diff_norm(v.m, v.n, C.data() + v.c_off, v.ldc, C_ref.data() + v.c_off, v.ldc),
        v.k, alpha, normA, normB, beta, normC0);
    if (std::isnan(err) || err > worst) {  // a NaN error sticks (as infinity)
      worst = std::isnan(err) ? INFINITY : err;
      worst_entry = static_cast<int64_t>(e);
    }
  }
  // Some reference entry must be non-zero: one with a non-empty C and either a
  // product to add or beta != 0.
  const bool nonzero_expected =
      std::any_of(entries.begin(), entries.end(), [&](const EntryView& v) {
        return v.m > 0 && v.n > 0 && (beta != T(0) || (alpha != T(0) && v.k > 0));
      });
  if (nonzero_expected) {
    EXPECT_GT(ref_norm_sum, 0.0) << "zero reference: the comparison would pass vacuously";
  }
  EXPECT_LE(worst, error_tolerance<T>()) << "worst entry " << worst_entry << note;
  expect_untouched_outside(C0, C, [&](int64_t p) { return in_output[p] != 0; }, "C");
}

// ---- grouped calls ------------------------------------------------------------------

/// One group of a grouped call: its op pair, sizes and entry count; beta = 0 (over NaN
/// in C) or random.
struct GroupSpec {
  Op opA, opB;
  int64_t m, n, k, count;
  bool beta_zero;
};

/// Where a grouped call's entries live: leading dimensions max(1, rows) + pad (C: m +
/// pad); A and B from pools of a_pool / b_pool matrices per group (entry e takes matrix
/// e % pool: repeated read-only pointers), or one per entry where the pool is 0; `gap`
/// NaN elements after every stored matrix.
struct GroupedLayout {
  int64_t lda_pad, ldb_pad, ldc_pad;
  int a_pool, b_pool;
  int64_t a_gap, b_gap, c_gap;
};

/// The arguments of a grouped call drawn for `groups` (scalars per group, then the
/// operands entry by entry), with the entries' views for the checks.
template <Scalar T>
struct GroupedProblem {
  std::vector<GroupSpec> groups;
  std::vector<Op> opA, opB;
  std::vector<int64_t> m, n, k, lda, ldb, ldc, size;
  std::vector<T> alpha, beta;
  std::vector<EntryView> entries;
  std::vector<int> group_of;
  std::vector<T> A, B, C0;
};

template <Scalar T>
GroupedProblem<T> grouped_problem(const std::vector<GroupSpec>& groups, const GroupedLayout& L,
                                  std::mt19937_64& rng) {
  GroupedProblem<T> p;
  p.groups = groups;
  int64_t a_len = 0, b_len = 0, c_len = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const GroupSpec& x = groups[g];
    p.opA.push_back(x.opA);
    p.opB.push_back(x.opB);
    p.m.push_back(x.m);
    p.n.push_back(x.n);
    p.k.push_back(x.k);
    const int64_t ra = x.opA == Op::N ? x.m : x.k, ca = x.opA == Op::N ? x.k : x.m;
    const int64_t rb = x.opB == Op::N ? x.k : x.n, cb = x.opB == Op::N ? x.n : x.k;
    const int64_t lda = std::max<int64_t>(1, ra) + L.lda_pad;
    const int64_t ldb = std::max<int64_t>(1, rb) + L.ldb_pad, ldc = x.m + L.ldc_pad;
    p.lda.push_back(lda);
    p.ldb.push_back(ldb);
    p.ldc.push_back(ldc);
    p.size.push_back(x.count);
    p.alpha.push_back(random_scalar<T>(rng));
    p.beta.push_back(x.beta_zero ? T(0) : random_scalar<T>(rng));
    const int64_t a_step = lda * std::max<int64_t>(ca, 1) + L.a_gap;
    const int64_t b_step = ldb * std::max<int64_t>(cb, 1) + L.b_gap;
    const int64_t a_pool = a_len, b_pool = b_len;
    a_len += L.a_pool * a_step;
    b_len += L.b_pool * b_step;
    for (int64_t e = 0; e < x.count; ++e) {
      const int64_t a_off = L.a_pool ? a_pool + (e % L.a_pool) * a_step : a_len;
      const int64_t b_off = L.b_pool ? b_pool + (e % L.b_pool) * b_step : b_len;
      p.entries.push_back({x.m, x.n, x.k, a_off, lda, b_off, ldb, c_len, ldc});
      p.group_of.push_back(static_cast<int>(g));
      if (!L.a_pool) a_len += a_step;
      if (!L.b_pool) b_len += b_step;
      c_len += ldc * x.n + L.c_gap;
    }
  }
  p.A.assign(static_cast<std::size_t>(a_len + 1), nan_value<T>());
  p.B.assign(static_cast<std::size_t>(b_len + 1), nan_value<T>());
  p.C0.assign(static_cast<std::size_t>(c_len + 1), nan_value<T>());
  for (std::size_t e = 0; e < p.entries.size(); ++e) {
    const GroupSpec& x = groups[p.group_of[e]];
    fill_entry(x.opA, x.opB, p.entries[e], p.A, p.B, p.C0, !x.beta_zero, rng);
  }
  return p;
}

/// Checks each group with its own op pair and scalars. The other groups' results are
/// copied into that group's "before", so each check also sees that nothing outside all
/// the entries changed.
template <Scalar T>
void check_groups(const GroupedProblem<T>& p, const std::vector<T>& C,
                  const std::vector<T>& C_ref, const std::string& note = "") {
  for (std::size_t g = 0; g < p.groups.size(); ++g) {
    SCOPED_TRACE(detail::concat("group ", g, ", ", seed_text()));
    std::vector<EntryView> mine;
    std::vector<T> C0g = p.C0;
    for (std::size_t e = 0; e < p.entries.size(); ++e) {
      const EntryView& v = p.entries[e];
      if (p.group_of[e] == static_cast<int>(g)) {
        mine.push_back(v);
        continue;
      }
      for (int64_t j = 0; j < v.n; ++j)
        for (int64_t i = 0; i < v.m; ++i) C0g[v.c_off + i + j * v.ldc] = C[v.c_off + i + j * v.ldc];
    }
    check_entries(p.opA[g], p.opB[g], mine, p.alpha[g], p.beta[g], p.groups[g].beta_zero, p.A,
                  p.B, C0g, C, C_ref, note);
  }
}

}  // namespace mgblas::testing
