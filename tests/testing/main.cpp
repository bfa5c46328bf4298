// SPDX-License-Identifier: BSD-3-Clause
// The test main of every mgblas test binary, built in four variants:
// - MGBLAS_TEST_REQUIRES_GPU: exit 77 (CTest: skipped) when no GPU is visible, so a
//   machine without a GPU never reports GPU tests as passed.
// - MGBLAS_TEST_MPI: initialise MPI; only rank 0 prints the full report, other ranks
//   print their failures prefixed with their rank; the exit status is the same on
//   every rank (failed anywhere = failed everywhere).
#include <gtest/gtest.h>

#include <cstdio>

#include "core/config.hpp"
#include "core/device.hpp"

#if defined(MGBLAS_TEST_MPI) && MGBLAS_HAVE_MPI
#include <mpi.h>

namespace {
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
  }

 private:
  int rank_;
};
}  // namespace
#endif

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
#if defined(MGBLAS_TEST_MPI) && MGBLAS_HAVE_MPI
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
#if defined(MGBLAS_TEST_REQUIRES_GPU)
  if (mgblas::cuda_device_count() == 0) {
    std::printf("no CUDA GPU visible%s: skipping GPU tests\n",
                MGBLAS_HAVE_CUDA ? "" : " (built without CUDA)");
#if defined(MGBLAS_TEST_MPI) && MGBLAS_HAVE_MPI
    MPI_Finalize();
#endif
    return 77;
  }
#endif
#if defined(MGBLAS_TEST_MPI) && MGBLAS_HAVE_MPI
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
#else
  return RUN_ALL_TESTS();
#endif
}
