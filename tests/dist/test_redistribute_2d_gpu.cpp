// SPDX-License-Identifier: BSD-3-Clause
// DistMatrix::import_2d / export_2d with the DistMatrix on the GPUs of every rank (the
// 2-D local arrays stay in host memory, as ScaLAPACK holds them): the checks of the host
// test (tests/dist/redistribute_2d_cases.hpp) on grids that fit in the ranks, plus a
// size with many blocks, on both routes: between the GPUs with NCCL (the default where
// every device is a distinct GPU; ranks sharing one GPU take the host route anyway) and
// through host memory and MPI (MGBLAS_REDUCER=host).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "core/context.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/redistribute_2d_cases.hpp"
#include "tests/kernels/host_test_helpers.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

// The route for one scope: MGBLAS_REDUCER=host forces the host route.
struct Route {
  const char* name;
  explicit Route(const char* value) : name(value) { ::setenv("MGBLAS_REDUCER", value, 1); }
  ~Route() { ::unsetenv("MGBLAS_REDUCER"); }
};

template <typename T>
class Redistribute2D_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Redistribute2D_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Redistribute2D_Gpu, GridsAndSizes) {
  using T = TypeParam;
  auto& ctx = td::GpuContext::get();
  const int P = ctx->nranks();
  for (const char* route : {"auto", "host"}) {
    const Route r(route);
    for (int nprow = 1; nprow <= P; ++nprow)
      for (int npcol = 1; nprow * npcol <= P; ++npcol)
        for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor})
          for (int64_t n : {1, 37, 300}) {
            const BlockCyclic2D D(n, n + 3, 8, 5, nprow, npcol, nprow - 1, 0, order);
            for (int64_t nb1d : {1, 64})
              ASSERT_TRUE(td::check_2d_case<T>(ctx, D, nb1d, 2))
                  << "route " << route << " n " << n << " grid " << nprow << "x" << npcol
                  << " nb1d " << nb1d;
          }
  }
}

// Over 64 MiB per rank (threaded host copies, then one copy per GPU).
TEST(Redistribute2DLarge_Gpu, ThreadedCopies) {
  auto& ctx = td::GpuContext::get();
  const int P = ctx->nranks();
  const BlockCyclic2D D(4300, 4300, 64, 64, 1, P, 0, 0);
  for (const char* route : {"auto", "host"}) {
    const Route r(route);
    EXPECT_TRUE(td::check_2d_case<double>(ctx, D, 256, 5)) << "route " << route;
  }
}

}  // namespace
