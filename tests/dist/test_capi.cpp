// SPDX-License-Identifier: BSD-3-Clause
// The C API beyond the Level-2 entries: a context on a given communicator, device
// memory and copies, the _async forms of the single-device entries, vbatched and
// grouped GEMM, the distributed tall-skinny and batched GEMMs; each on fresh random
// data against plain loops here, and bad arguments named, on every rank for the
// collective entries.
#include <gtest/gtest.h>

#include "core/config.hpp"
#if MGBLAS_HAVE_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <mgblas/mgblas.h>

#include "core/types.hpp"
#include "layouts/batch_split.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/testing/testing.hpp"

namespace {

// Fresh random values: the same on every rank for the same seed.
std::vector<double> rnd(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return mgblas::testing::random_vector<double>(static_cast<std::size_t>(n), rng);
}
bool contains(const char* s, const std::string& part) { return std::string(s).find(part) != std::string::npos; }
double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}
int world_rank() {
  int r = 0;
#if MGBLAS_HAVE_MPI
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
#endif
  return r;
}
// C = alpha op(A) op(B) + beta C, column-major, real: the reference of every GEMM here.
void ref_gemm(char opA, char opB, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
              int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l)
        s += (opA == 'N' ? A[i + l * lda] : A[l + i * lda]) * (opB == 'N' ? B[l + j * ldb] : B[j + l * ldb]);
      C[i + j * ldc] = alpha * s + (beta == 0 ? 0 : beta * C[i + j * ldc]);
    }
}

using HostContext = mgblas::testing::dist::CHostContext;

bool have_d() { return mgblas::precision_enabled(mgblas::DataType::kFloat64); }

TEST(CApi, ContextOnAGivenCommunicator) {
#if !MGBLAS_HAVE_MPI
  GTEST_SKIP() << "a build without MPI has no communicator to pass";
#else
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Each rank alone: its context spans its own devices only.
  MPI_Comm self = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank(), 0, &self);
  mgblas_context_t alone = nullptr, world = nullptr;
  ASSERT_EQ(mgblas_context_create_comm(&self, MGBLAS_BACKEND_HOST, 2, &alone), MGBLAS_SUCCESS)
      << mgblas_last_error();
  MPI_Comm w = MPI_COMM_WORLD;
  ASSERT_EQ(mgblas_context_create_comm(&w, MGBLAS_BACKEND_HOST, 2, &world), MGBLAS_SUCCESS)
      << mgblas_last_error();
  int local = 0, global = 0;
  ASSERT_EQ(mgblas_context_num_devices(alone, &local, &global), MGBLAS_SUCCESS);
  EXPECT_EQ(local, 2);
  EXPECT_EQ(global, 2);
  ASSERT_EQ(mgblas_context_num_devices(world, &local, &global), MGBLAS_SUCCESS);
  EXPECT_EQ(global, 2 * size);
  // A collective call on the one-rank context needs no other rank.
  if (have_d()) {
    mgblas_matrix_t A = nullptr;
    const int64_t n = 9;
    const auto a = rnd(n * n, 1), x = rnd(n, 2);
    std::vector<double> y(n, 0.0), ref(n, 0.0);
    ASSERT_EQ(mgblas_matrix_create(alone, MGBLAS_PREC_D, n, n, 2, &A), MGBLAS_SUCCESS);
    ASSERT_EQ(mgblas_matrix_distribute(alone, A, a.data(), n, 0), MGBLAS_SUCCESS);
    ASSERT_EQ(mgblas_dgemv_mgpu(alone, MGBLAS_OP_T, 2.0, A, x.data(), 0.0, y.data()), MGBLAS_SUCCESS)
        << mgblas_last_error();
    ref_gemm('T', 'N', n, 1, n, 2.0, a.data(), n, x.data(), n, 0.0, ref.data(), n);
    EXPECT_LT(max_diff(y, ref), 1e-12);
    mgblas_matrix_destroy(A);
  }
  EXPECT_EQ(mgblas_context_destroy(alone), MGBLAS_SUCCESS);
  EXPECT_EQ(mgblas_context_destroy(world), MGBLAS_SUCCESS);
  // The same through the Fortran handle of the one-rank communicator.
  mgblas_context_t from_fortran = nullptr;
  ASSERT_EQ(mgblas_context_create_fcomm(static_cast<int>(MPI_Comm_c2f(self)), MGBLAS_BACKEND_HOST,
                                        3, &from_fortran),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  ASSERT_EQ(mgblas_context_num_devices(from_fortran, &local, &global), MGBLAS_SUCCESS);
  EXPECT_EQ(local, 3);
  EXPECT_EQ(global, 3);
  EXPECT_EQ(mgblas_context_destroy(from_fortran), MGBLAS_SUCCESS);
  MPI_Comm_free(&self);
  EXPECT_EQ(mgblas_context_create_comm(nullptr, MGBLAS_BACKEND_HOST, 1, nullptr),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'ctx'")) << mgblas_last_error();
#endif
}

// The gap an explicit context closes: with several contexts alive, a NULL (or foreign)
// matrix handle on one rank is an error on every rank, not on that rank alone.
TEST(CApi, NullOrForeignMatrixOnOneRankFailsEverywhereWithSeveralContexts) {
  if (!have_d()) GTEST_SKIP() << "needs d";
  setenv("MGBLAS_COMM_TIMEOUT", "10", 1);
  HostContext a, b;
  const int rank = world_rank(), culprit = 0;
  const bool me = rank == culprit;
  const int64_t n = 8;
  mgblas_matrix_t A = nullptr, B = nullptr;
  ASSERT_EQ(mgblas_matrix_create(a.ctx, MGBLAS_PREC_D, n, n, 2, &A), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_create(b.ctx, MGBLAS_PREC_D, n, n, 2, &B), MGBLAS_SUCCESS);
  const auto x = rnd(n, 3);
  std::vector<double> y(n, 5.0);
  const auto y0 = y;
  auto expect = [&](mgblas_status_t s, const char* text) {
    EXPECT_EQ(s, me ? MGBLAS_ERROR_BAD_ARGUMENT : MGBLAS_ERROR_REMOTE) << mgblas_last_error();
    EXPECT_TRUE(contains(mgblas_last_error(), text)) << mgblas_last_error();
  };
  expect(mgblas_dsymv_mgpu(a.ctx, MGBLAS_UPLO_LOWER, 1.0, me ? nullptr : A, x.data(), 0.0, y.data()),
         "'A'");
  expect(mgblas_dgemv_mgpu(a.ctx, MGBLAS_OP_N, 1.0, me ? B : A, x.data(), 0.0, y.data()),
         "another context");
  expect(mgblas_matrix_distribute(a.ctx, me ? nullptr : A, x.data(), n, 0), "'A'");
  EXPECT_EQ(y, y0);
  mgblas_matrix_destroy(A);
  mgblas_matrix_destroy(B);
}

// Any int a C caller passes for an enum is a value of it (the header gives the enums a
// fixed underlying type in C++), so values far outside the enumerators are argument
// errors that name the argument and value, not undefined behaviour (the sanitizer build
// runs this test). The outputs stay untouched.
TEST(CApi, EnumValuesOutsideTheEnumeratorsAreArgumentErrors) {
  if (!have_d()) GTEST_SKIP() << "needs d";
  mgblas_context_t none = nullptr;
  EXPECT_EQ(mgblas_context_create_ex(static_cast<mgblas_backend_t>(100000), 1, &none),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'backend' = 100000")) << mgblas_last_error();
  EXPECT_EQ(none, nullptr);
  HostContext h;
  const int64_t n = 6;
  mgblas_matrix_t A = nullptr;
  EXPECT_EQ(mgblas_matrix_create(h.ctx, static_cast<mgblas_precision_t>(-5), n, n, 2, &A),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'prec' = -5")) << mgblas_last_error();
  EXPECT_EQ(A, nullptr);
  ASSERT_EQ(mgblas_matrix_create(h.ctx, MGBLAS_PREC_D, n, n, 2, &A), MGBLAS_SUCCESS);
  const auto x = rnd(n, 11);
  std::vector<double> y(n, 5.0);
  const auto y0 = y;
  EXPECT_EQ(mgblas_dgemv_mgpu(h.ctx, static_cast<mgblas_op_t>(1 << 20), 1.0, A, x.data(), 0.0,
                              y.data()),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'op' = 1048576")) << mgblas_last_error();
  EXPECT_EQ(mgblas_dsymv_mgpu(h.ctx, static_cast<mgblas_uplo_t>(-1), 1.0, A, x.data(), 0.0,
                              y.data()),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'uplo' = -1")) << mgblas_last_error();
  EXPECT_EQ(y, y0);
  mgblas_matrix_destroy(A);
}

TEST(CApi, DeviceMemoryCopiesAndAsyncSingleDeviceForms) {
  if (!have_d()) GTEST_SKIP() << "needs d";
  HostContext c(1);
  const int64_t m = 7, n = 5, k = 3;
  const auto a = rnd(m * m, 10), b = rnd(m * n, 11), x = rnd(m, 12), y0 = rnd(m, 13);
  // Everything the device reads goes through the C memory entries (on a GPU device the
  // same code runs with device memory).
  auto upload = [&](const std::vector<double>& h) {
    void* p = nullptr;
    EXPECT_EQ(mgblas_malloc_device(c.dev, h.size() * sizeof(double), &p), MGBLAS_SUCCESS);
    EXPECT_EQ(mgblas_memcpy(c.dev, p, h.data(), h.size() * sizeof(double)), MGBLAS_SUCCESS);
    return static_cast<double*>(p);
  };
  auto download = [&](const double* p, std::size_t count) {
    std::vector<double> h(count);
    EXPECT_EQ(mgblas_memcpy(c.dev, h.data(), p, count * sizeof(double)), MGBLAS_SUCCESS);
    return h;
  };
  double *dA = upload(a), *dB = upload(b), *dx = upload(x), *dy = upload(y0);
  double* dC = upload(std::vector<double>(m * n, 0.0));

  // gemv T on the 5 x 3 submatrix at (1, 2), async on the device's stream.
  ASSERT_EQ(mgblas_dgemv_offset_async(c.dev, nullptr, MGBLAS_OP_T, n, k, 1.5, dA, m, 1, 2, dx, 1,
                                      0.5, dy, 1),
            MGBLAS_SUCCESS) << mgblas_last_error();
  ASSERT_EQ(mgblas_device_synchronize(c.dev), MGBLAS_SUCCESS);
  std::vector<double> ref = y0;
  ref_gemm('T', 'N', k, 1, n, 1.5, a.data() + 1 + 2 * m, m, x.data(), m, 0.5, ref.data(), m);
  EXPECT_LT(max_diff(download(dy, m), ref), 1e-12);

  // symv lower (the upper triangle is never read).
  EXPECT_EQ(mgblas_memcpy_async(c.dev, dy, y0.data(), m * sizeof(double)), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_dsymv_async(c.dev, nullptr, MGBLAS_UPLO_LOWER, m, 1.0, dA, m, dx, 1, 0.0, dy, 1),
            MGBLAS_SUCCESS) << mgblas_last_error();
  std::vector<double> sym(m * m);
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i) sym[i + j * m] = i >= j ? a[i + j * m] : a[j + i * m];
  ref.assign(m, 0.0);
  ref_gemm('N', 'N', m, 1, m, 1.0, sym.data(), m, x.data(), m, 0.0, ref.data(), m);
  EXPECT_LT(max_diff(download(dy, m), ref), 1e-12);

  // gemm, tsgemm and the strided batch of two (entries: columns 0-1 and 2-3 of B).
  std::vector<double> refC(m * n, 0.0);
  ref_gemm('N', 'N', m, n, m, 1.0, a.data(), m, b.data(), m, 0.0, refC.data(), m);
  ASSERT_EQ(mgblas_dgemm_async(c.dev, nullptr, MGBLAS_OP_N, MGBLAS_OP_N, m, n, m, 1.0, dA, m, dB, m,
                               0.0, dC, m),
            MGBLAS_SUCCESS) << mgblas_last_error();
  EXPECT_LT(max_diff(download(dC, m * n), refC), 1e-12);
  ASSERT_EQ(mgblas_dtsgemm_async(c.dev, nullptr, MGBLAS_OP_N, MGBLAS_OP_N, m, n, m, 1.0, dA, m, dB,
                                 m, 0.0, dC, m),
            MGBLAS_SUCCESS) << mgblas_last_error();
  EXPECT_LT(max_diff(download(dC, m * n), refC), 1e-12);
  ASSERT_EQ(mgblas_dgemm_batched_strided_async(c.dev, nullptr, MGBLAS_OP_N, MGBLAS_OP_N, m, 2, m,
                                               1.0, dA, m, 0, dB, m, 2 * m, 0.0, dC, m, 2 * m, 2),
            MGBLAS_SUCCESS) << mgblas_last_error();
  auto got = download(dC, m * n);
  for (int64_t i = 0; i < 4 * m; ++i) EXPECT_NEAR(got[i], refC[i], 1e-12) << i;

  // Pointer-array forms: entry 0 = columns 0-1, entry 1 = columns 2-4 (vbatched: n 2, 3).
  const double* As[2] = {dA, dA};
  const double* Bs[2] = {dB, dB + 2 * m};
  double* Cs[2] = {dC, dC + 2 * m};
  ASSERT_EQ(mgblas_dgemm_batched_async(c.dev, nullptr, MGBLAS_OP_N, MGBLAS_OP_N, m, 2, m, 1.0, As,
                                       m, Bs, m, 0.0, Cs, m, 2),
            MGBLAS_SUCCESS) << mgblas_last_error();
  got = download(dC, m * n);
  for (int64_t i = 0; i < 4 * m; ++i) EXPECT_NEAR(got[i], refC[i], 1e-12) << i;
  // The per-entry arrays of vbatched live in device memory too.
  const std::vector<int64_t> ms = {m, m}, ns = {2, 3}, ks = {m, m}, lds = {m, m};
  auto upload_i = [&](const std::vector<int64_t>& h) {
    void* p = nullptr;
    EXPECT_EQ(mgblas_malloc_device(c.dev, h.size() * sizeof(int64_t), &p), MGBLAS_SUCCESS);
    EXPECT_EQ(mgblas_memcpy(c.dev, p, h.data(), h.size() * sizeof(int64_t)), MGBLAS_SUCCESS);
    return static_cast<int64_t*>(p);
  };
  int64_t *dm = upload_i(ms), *dn = upload_i(ns), *dk = upload_i(ks), *dld = upload_i(lds);
  void* arrays = nullptr;
  ASSERT_EQ(mgblas_malloc_device(c.dev, 6 * sizeof(void*), &arrays), MGBLAS_SUCCESS);
  const void* hostArrays[6] = {dA, dA, dB, dB + 2 * m, dC, dC + 2 * m};
  ASSERT_EQ(mgblas_memcpy(c.dev, arrays, hostArrays, sizeof hostArrays), MGBLAS_SUCCESS);
  auto** pa = static_cast<double**>(arrays);
  ASSERT_EQ(mgblas_dgemm_vbatched_async(c.dev, nullptr, MGBLAS_OP_N, MGBLAS_OP_N, dm, dn, dk, 1.0,
                                        pa, dld, pa + 2, dld, 0.0, pa + 4, dld, 2, m, 3, m),
            MGBLAS_SUCCESS) << mgblas_last_error();
  ASSERT_EQ(mgblas_device_synchronize(c.dev), MGBLAS_SUCCESS);
  EXPECT_LT(max_diff(download(dC, m * n), refC), 1e-12);

  // Grouped: group 0 = entry 0 (n 2), group 1 = entry 1 (n 3); per-group arrays on the host.
  const mgblas_op_t ops[2] = {MGBLAS_OP_N, MGBLAS_OP_N};
  const int64_t gm[2] = {m, m}, gn[2] = {2, 3}, gk[2] = {m, m}, gld[2] = {m, m}, gsize[2] = {1, 1};
  const double alphas[2] = {1.0, 1.0}, betas[2] = {0.0, 0.0};
  ASSERT_EQ(mgblas_dgemm_grouped_async(c.dev, nullptr, 2, ops, ops, gm, gn, gk, alphas, pa, gld,
                                       pa + 2, gld, betas, pa + 4, gld, gsize),
            MGBLAS_SUCCESS) << mgblas_last_error();
  ASSERT_EQ(mgblas_device_synchronize(c.dev), MGBLAS_SUCCESS);
  EXPECT_LT(max_diff(download(dC, m * n), refC), 1e-12);

  // Bad inputs are named: a group's op, a null output of an allocation or copy.
  const mgblas_op_t bad_ops[2] = {MGBLAS_OP_N, static_cast<mgblas_op_t>('Q')};
  EXPECT_EQ(mgblas_dgemm_grouped(c.dev, 2, ops, bad_ops, gm, gn, gk, alphas, pa, gld, pa + 2, gld,
                                 betas, pa + 4, gld, gsize),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'opB[1]'")) << mgblas_last_error();
  EXPECT_EQ(mgblas_malloc_device(c.dev, 8, nullptr), MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'ptr'")) << mgblas_last_error();
  EXPECT_EQ(mgblas_memcpy(c.dev, nullptr, x.data(), 8), MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'dst'")) << mgblas_last_error();
  EXPECT_EQ(mgblas_dgemv_async(c.dev, nullptr, MGBLAS_OP_N, m, m, 1.0, dA, 0, dx, 1, 0.0, dy, 1),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'lda'")) << mgblas_last_error();

  for (void* p : {static_cast<void*>(dA), static_cast<void*>(dB), static_cast<void*>(dx),
                  static_cast<void*>(dy), static_cast<void*>(dC), static_cast<void*>(dm),
                  static_cast<void*>(dn), static_cast<void*>(dk), static_cast<void*>(dld), arrays})
    EXPECT_EQ(mgblas_free_device(c.dev, p), MGBLAS_SUCCESS);
}

TEST(CApi, DistributedTallSkinnyAndBatchedGemm) {
  if (!have_d()) GTEST_SKIP() << "needs d";
  setenv("MGBLAS_COMM_TIMEOUT", "10", 1);
  HostContext c;
  const int rank = world_rank();
  const int64_t m = 37, k = 4, n = 3;
  // Rows form: C (m x n) = 2 A (m x k) B^T (B n x k) + 0.5 C.
  const auto a = rnd(m * k, 20), bt = rnd(n * k, 21), c0 = rnd(m * n, 22);
  mgblas_matrix_t A = nullptr, C = nullptr, X = nullptr;
  ASSERT_EQ(mgblas_matrix_create_row_tiled(c.ctx, MGBLAS_PREC_D, m, k, 4, &A), MGBLAS_SUCCESS)
      << mgblas_last_error();
  ASSERT_EQ(mgblas_matrix_create_row_tiled(c.ctx, MGBLAS_PREC_D, m, n, 4, &C), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_distribute(c.ctx, A, a.data(), m, 0), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_distribute(c.ctx, C, c0.data(), m, 0), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_dtsgemm_mgpu(c.ctx, MGBLAS_OP_T, 2.0, A, bt.data(), n, 0.5, C), MGBLAS_SUCCESS)
      << mgblas_last_error();
  std::vector<double> got(m * n), ref = c0;
  ASSERT_EQ(mgblas_matrix_collect(c.ctx, C, got.data(), m, -1), MGBLAS_SUCCESS);
  ref_gemm('N', 'T', m, n, k, 2.0, a.data(), m, bt.data(), n, 0.5, ref.data(), m);
  EXPECT_LT(max_diff(got, ref), 1e-12);
  // k-split form: S (k x n) = A^T C, A and C row-tiled alike along m.
  std::vector<double> s(k * n, 9.0), sref(k * n, 0.0);
  ASSERT_EQ(mgblas_dtsgemm_mgpu_ksplit(c.ctx, MGBLAS_OP_T, 1.0, A, C, 0.0, s.data(), k),
            MGBLAS_SUCCESS) << mgblas_last_error();
  ref_gemm('T', 'N', k, n, m, 1.0, a.data(), m, ref.data(), m, 0.0, sref.data(), k);
  EXPECT_LT(max_diff(s, sref), 1e-11);
  // A block-cyclic matrix on one rank is a named error on every rank.
  ASSERT_EQ(mgblas_matrix_create(c.ctx, MGBLAS_PREC_D, m, k, 4, &X), MGBLAS_SUCCESS);
  const mgblas_status_t st =
      mgblas_dtsgemm_mgpu(c.ctx, MGBLAS_OP_T, 2.0, rank == 0 ? X : A, bt.data(), n, 0.5, C);
  EXPECT_EQ(st, rank == 0 ? MGBLAS_ERROR_BAD_ARGUMENT : MGBLAS_ERROR_REMOTE);
  EXPECT_TRUE(contains(mgblas_last_error(), "row-tiled")) << mgblas_last_error();

  // Batched over every device of every rank: 5 entries of 3 x 2 = (3 x 4)(4 x 2).
  const int64_t bm = 3, bn = 2, bk = 4, batch = 5;
  const auto ba = rnd(bm * bk * batch, 23), bb = rnd(bk * bn * batch, 24);
  std::vector<double> bc(bm * bn * batch, 0.0), bref(bc);
  for (int64_t i = 0; i < batch; ++i)
    ref_gemm('N', 'N', bm, bn, bk, 1.0, ba.data() + i * bm * bk, bm, bb.data() + i * bk * bn, bk,
             0.0, bref.data() + i * bm * bn, bm);
  ASSERT_EQ(mgblas_dgemm_batched_strided_mgpu(c.ctx, MGBLAS_OP_N, MGBLAS_OP_N, bm, bn, bk, 1.0,
                                              ba.data(), bm, bm * bk, bb.data(), bk, bk * bn, 0.0,
                                              bc.data(), bm, bm * bn, batch),
            MGBLAS_SUCCESS) << mgblas_last_error();
  EXPECT_LT(max_diff(bc, bref), 1e-12);
  std::vector<double> vc(bc.size(), 0.0);
  std::vector<const double*> pa, pb;
  std::vector<double*> pc;
  const std::vector<int64_t> vm(batch, bm), vn(batch, bn), vk(batch, bk), lda(batch, bm),
      ldb(batch, bk);
  for (int64_t i = 0; i < batch; ++i) {
    pa.push_back(ba.data() + i * bm * bk);
    pb.push_back(bb.data() + i * bk * bn);
    pc.push_back(vc.data() + i * bm * bn);
  }
  ASSERT_EQ(mgblas_dgemm_vbatched_mgpu(c.ctx, MGBLAS_OP_N, MGBLAS_OP_N, vm.data(), vn.data(),
                                       vk.data(), 1.0, pa.data(), lda.data(), pb.data(), ldb.data(),
                                       0.0, pc.data(), lda.data(), batch),
            MGBLAS_SUCCESS) << mgblas_last_error();
  EXPECT_LT(max_diff(vc, bref), 1e-12);
  // The _local form: each local device holds its own share, in its memory.
  int local = 0, global = 0;
  ASSERT_EQ(mgblas_context_num_devices(c.ctx, &local, &global), MGBLAS_SUCCESS);
  const int offset = rank * local;  // host contexts: the same device count on every rank
  std::vector<const double*> la(local), lb(local);
  std::vector<double*> lc(local);
  std::vector<std::vector<double>> lcs(local);
  for (int d = 0; d < local; ++d) {
    const auto share = mgblas::batch_share(batch, global, offset + d);
    lcs[d].assign(static_cast<std::size_t>(std::max<int64_t>(share.count, 1) * bm * bn), 0.0);
    la[d] = ba.data() + share.first * bm * bk;
    lb[d] = bb.data() + share.first * bk * bn;
    lc[d] = lcs[d].data();
  }
  ASSERT_EQ(mgblas_dgemm_batched_strided_mgpu_local(c.ctx, MGBLAS_OP_N, MGBLAS_OP_N, bm, bn, bk, 1.0,
                                                    la.data(), bm, bm * bk, lb.data(), bk, bk * bn,
                                                    0.0, lc.data(), bm, bm * bn, batch),
            MGBLAS_SUCCESS) << mgblas_last_error();
  for (int d = 0; d < local; ++d) {
    const auto share = mgblas::batch_share(batch, global, offset + d);
    for (int64_t i = 0; i < share.count * bm * bn; ++i)
      EXPECT_NEAR(lcs[d][i], bref[share.first * bm * bn + i], 1e-12) << "device " << d;
  }
  mgblas_matrix_destroy(A);
  mgblas_matrix_destroy(C);
  mgblas_matrix_destroy(X);
}

}  // namespace
