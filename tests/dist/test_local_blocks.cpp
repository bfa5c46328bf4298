// SPDX-License-Identifier: BSD-3-Clause
// Local blocks (layouts/local_blocks.hpp, mgblas_matrix_local_block*): every rank fills
// its own blocks in place with f(global i, global j), no root involved; the matrix
// gathered on every rank must then hold f everywhere. On 1 and 2 ranks with 1-3 host
// devices per rank, block-cyclic (odd n, nb; nb not dividing n; more devices than
// blocks) and row-tiled; the C++ function and the C entries alike; bad index and null
// pointers named in the error.
#include <gtest/gtest.h>

#include "core/config.hpp"
#if MGBLAS_HAVE_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <mgblas/mgblas.h>

#include "core/context.hpp"
#include "core/error.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"
#include "layouts/local_blocks.hpp"
#include "layouts/row_tiled_matrix.hpp"
#include "tests/dist/c_host_context.hpp"

namespace {

using mgblas::zcomplex;

// The value every test writes at global (i, j): distinct per entry, exact in double.
zcomplex f(int64_t i, int64_t j) { return {static_cast<double>(i), 0.5 + static_cast<double>(j)}; }
template <typename T>
T value(int64_t i, int64_t j) {
  if constexpr (std::is_same_v<T, double>) return static_cast<double>(i) + 1000.0 * j;
  else return f(i, j);
}

// Entries of the gathered m x n matrix (lda = m) that are not value(i, j).
template <typename T>
int64_t wrong_entries(const std::vector<T>& A, int64_t m, int64_t n) {
  int64_t wrong = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) wrong += !(A[i + j * m] == value<T>(i, j));
  return wrong;
}

struct Shape {
  int64_t m, n, block;  // block: nb (block-cyclic) or tile (row-tiled)
};
// Odd sizes, nb not dividing n, n < nb, a single block per device or none.
const Shape kShapes[] = {{7, 13, 3}, {5, 5, 5}, {3, 17, 1}, {9, 2, 7}, {1, 11, 4}, {29, 23, 5}};

// ---- C entries ----------------------------------------------------------------------
// Fill every local block of A through the C API; returns how many entries were written.
template <typename T>
int64_t fill_c(mgblas_matrix_t A) {
  int64_t count = -1, written = 0;
  EXPECT_EQ(mgblas_matrix_local_block_count(A, &count), MGBLAS_SUCCESS) << mgblas_last_error();
  for (int64_t k = 0; k < count; ++k) {
    mgblas_local_block_t b{};
    EXPECT_EQ(mgblas_matrix_local_block(A, k, &b), MGBLAS_SUCCESS) << mgblas_last_error();
    EXPECT_NE(b.data, nullptr);
    EXPECT_GE(b.ld, b.rows);
    T* data = static_cast<T*>(b.data);  // host devices: host memory
    for (int64_t j = 0; j < b.cols; ++j)
      for (int64_t i = 0; i < b.rows; ++i) data[i + j * b.ld] = value<T>(b.row + i, b.col + j);
    written += b.rows * b.cols;
  }
  return written;
}

// Creates, fills through the C entries, gathers on every rank and checks.
template <typename T>
void c_round_trip(mgblas_context_t ctx, mgblas_precision_t prec, bool tiled, const Shape& s) {
  SCOPED_TRACE(testing::Message() << (tiled ? "row-tiled" : "block-cyclic") << " m=" << s.m
                                  << " n=" << s.n << " block=" << s.block);
  mgblas_matrix_t A = nullptr;
  const mgblas_status_t st = tiled ? mgblas_matrix_create_row_tiled(ctx, prec, s.m, s.n, s.block, &A)
                                   : mgblas_matrix_create(ctx, prec, s.m, s.n, s.block, &A);
  ASSERT_EQ(st, MGBLAS_SUCCESS) << mgblas_last_error();
  const int64_t written = fill_c<T>(A);
  // Every entry lies in exactly one block of one rank: the ranks' counts add up to m n.
  int64_t total = written;
#if MGBLAS_HAVE_MPI
  MPI_Allreduce(&written, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
#endif
  EXPECT_EQ(total, s.m * s.n);
  std::vector<T> host(static_cast<std::size_t>(s.m * s.n));
  ASSERT_EQ(mgblas_matrix_collect(ctx, A, host.data(), std::max<int64_t>(1, s.m), -1),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  EXPECT_EQ(wrong_entries(host, s.m, s.n), 0);
  EXPECT_EQ(mgblas_matrix_destroy(A), MGBLAS_SUCCESS);
}

TEST(LocalBlocksC, FillInPlaceThenCollect) {
  for (int devices = 1; devices <= 3; ++devices) {
    SCOPED_TRACE(testing::Message() << devices << " host devices per rank");
    mgblas::testing::dist::CHostContext c(devices);
    for (const Shape& s : kShapes)
      for (bool tiled : {false, true}) {
        if (mgblas::precision_enabled(mgblas::DataType::kFloat64))
          c_round_trip<double>(c.ctx, MGBLAS_PREC_D, tiled, s);
        if (mgblas::precision_enabled(mgblas::DataType::kComplex128))
          c_round_trip<zcomplex>(c.ctx, MGBLAS_PREC_Z, tiled, s);
      }
  }
}

bool mentions(const std::string& part) {
  return std::string(mgblas_last_error()).find(part) != std::string::npos;
}

TEST(LocalBlocksC, BadIndexAndNullPointersNamed) {
  if (!mgblas::precision_enabled(mgblas::DataType::kFloat64)) GTEST_SKIP() << "needs d";
  mgblas::testing::dist::CHostContext c(2);
  mgblas_matrix_t A = nullptr;
  ASSERT_EQ(mgblas_matrix_create(c.ctx, MGBLAS_PREC_D, 5, 9, 2, &A), MGBLAS_SUCCESS);
  int64_t count = -1;
  ASSERT_EQ(mgblas_matrix_local_block_count(A, &count), MGBLAS_SUCCESS);
  mgblas_local_block_t b{};
  b.ld = -7;  // untouched on error
  for (int64_t bad : {int64_t{-1}, count, count + 5}) {
    EXPECT_EQ(mgblas_matrix_local_block(A, bad, &b), MGBLAS_ERROR_BAD_ARGUMENT);
    EXPECT_TRUE(mentions("'index' = " + std::to_string(bad))) << mgblas_last_error();
    EXPECT_EQ(b.ld, -7);
  }
  EXPECT_EQ(mgblas_matrix_local_block(A, 0, nullptr), MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(mentions("'block'")) << mgblas_last_error();
  EXPECT_EQ(mgblas_matrix_local_block_count(A, nullptr), MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(mentions("'count'")) << mgblas_last_error();
  EXPECT_EQ(mgblas_matrix_local_block_count(nullptr, &count), MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(mentions("'A'")) << mgblas_last_error();
  EXPECT_EQ(mgblas_matrix_destroy(A), MGBLAS_SUCCESS);
  EXPECT_EQ(mgblas_matrix_local_block(A, 0, &b), MGBLAS_ERROR_BAD_ARGUMENT);  // destroyed
  EXPECT_TRUE(mentions("not a live matrix handle")) << mgblas_last_error();
}

// ---- C++ ------------------------------------------------------------------------------
std::shared_ptr<mgblas::Context> host_context(int devices) {
  mgblas::ContextOptions opts;
  opts.backend = mgblas::BackendChoice::Host;
  opts.host_devices = devices;
  return mgblas::Context::create(opts);
}

// The blocks of global device g tile its local storage in local order: block k of a
// block-cyclic device starts at local column k nb and holds global columns the layout
// maps there.
TEST(LocalBlocksCpp, BlockCyclicBlocksFollowTheLayout) {
  for (int devices = 1; devices <= 3; ++devices) {
    auto ctx = host_context(devices);
    for (const Shape& s : kShapes) {
      const mgblas::BlockCyclic1D L(s.m, s.n, s.block, ctx->global_num_devices());
      mgblas::DistMatrix<double> A(ctx, L);
      const auto blocks = mgblas::local_blocks(A);
      EXPECT_EQ(static_cast<int64_t>(blocks.size()), mgblas::local_block_count(A));
      int64_t k = 0;
      for (const auto& b : blocks) {
        const int g = ctx->device_offset() + b.device;
        EXPECT_EQ(b.rows, s.m);
        EXPECT_EQ(b.ld, A.ld());
        EXPECT_EQ(L.owner(b.col), g);
        EXPECT_EQ(b.data, A.local(b.device) + L.local_col(b.col) * A.ld());
        for (int64_t j = 0; j < b.cols; ++j) EXPECT_EQ(L.owner(b.col + j), g);
        const auto same = mgblas::local_block(A, k++);
        EXPECT_EQ(same.data, b.data);
        EXPECT_EQ(same.col, b.col);
        for (int64_t j = 0; j < b.cols; ++j)
          for (int64_t i = 0; i < b.rows; ++i) b.data[i + j * b.ld] = value<double>(b.row + i, b.col + j);
      }
      std::vector<double> host(static_cast<std::size_t>(s.m * s.n));
      A.collect(host.data(), std::max<int64_t>(1, s.m), -1);
      EXPECT_EQ(wrong_entries(host, s.m, s.n), 0) << "m=" << s.m << " n=" << s.n;
      EXPECT_THROW(mgblas::local_block(A, -1), mgblas::BadArgument);
    }
  }
}

TEST(LocalBlocksCpp, RowTiledBlocksAreTheDevicesRows) {
  for (int devices = 1; devices <= 3; ++devices) {
    auto ctx = host_context(devices);
    for (const Shape& s : kShapes) {
      const mgblas::RowTiledMatrix<zcomplex> A(ctx, s.m, s.n, s.block);
      const auto blocks = mgblas::local_blocks(A);  // const: const pointers
      static_assert(std::is_same_v<decltype(blocks[0].data), const zcomplex*>);
      for (const auto& b : blocks) {
        EXPECT_EQ(b.row, A.row_begin(b.device));
        EXPECT_EQ(b.rows, A.local_m(b.device));
        EXPECT_EQ(b.col, 0);
        EXPECT_EQ(b.cols, s.n);
        EXPECT_EQ(b.ld, A.ld(b.device));
        EXPECT_EQ(b.data, A.local(b.device));
      }
    }
  }
}

}  // namespace
