// SPDX-License-Identifier: BSD-3-Clause
// run_and_join (dist/detail/device_threads.hpp), the join behind for_each_local_device and
// the two-stage SVD's Q2 beside P2: every task has ended before it returns or throws, and
// the exception it rethrows is the first by its order (this thread's, then the others' in
// the order given), whichever finished first in time.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dist/detail/device_threads.hpp"

namespace mgblas::detail {
namespace {

// A task that sleeps `ms`, counts itself done, then throws `what` unless it is empty.
std::future<void> task(std::atomic<int>& done, int ms, std::string what) {
  return std::async(std::launch::async, [&done, ms, what] {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ++done;
    if (!what.empty()) throw std::runtime_error(what);
  });
}

// The message run_and_join rethrows ("" when it returns), with here() throwing `mine`.
std::string outcome(std::vector<std::future<void>>& others, std::atomic<int>& done,
                    const std::string& mine) {
  try {
    run_and_join(
        [&] {
          ++done;
          if (!mine.empty()) throw std::runtime_error(mine);
        },
        others);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(RunAndJoin, WaitsForEveryTaskWithoutErrors) {
  std::atomic<int> done{0};
  std::vector<std::future<void>> others;
  for (int ms : {30, 1, 15}) others.push_back(task(done, ms, ""));
  EXPECT_EQ(outcome(others, done, ""), "");
  EXPECT_EQ(done.load(), 4);
}

TEST(RunAndJoin, ThisThreadsErrorFirstAfterEveryTaskEnded) {
  std::atomic<int> done{0};
  std::vector<std::future<void>> others;
  others.push_back(task(done, 1, "first other"));
  others.push_back(task(done, 40, ""));  // still running when here() throws
  EXPECT_EQ(outcome(others, done, "here"), "here");
  EXPECT_EQ(done.load(), 3);
}

TEST(RunAndJoin, OthersErrorsInTheirOrderNotInTime) {
  std::atomic<int> done{0};
  std::vector<std::future<void>> others;
  others.push_back(task(done, 40, "slow, listed first"));
  others.push_back(task(done, 1, "fast, listed second"));
  others.push_back(task(done, 20, ""));
  EXPECT_EQ(outcome(others, done, ""), "slow, listed first");
  EXPECT_EQ(done.load(), 4);
}

}  // namespace
}  // namespace mgblas::detail
