// SPDX-License-Identifier: BSD-3-Clause
// Unit tests of core: error messages, Context on host devices and its environment
// variables, buffers and copies on host devices, the single-rank Communicator, and
// the GPU assignment of topology.hpp on synthetic CPU sets.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/communicator.hpp"
#include "core/config.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"
#include "core/memory.hpp"
#include "core/topology.hpp"
#include "core/types.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---------------------------------------------------------------------------------
// Errors

void check_lda_like_a_public_entry(int64_t lda, int64_t m) {
  MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, m), "lda", lda,
                   ">= max(1, m) = ", std::max<int64_t>(1, m));
}

TEST(Error, CheckArgNamesArgumentAndValueAndKeepsTheLocationApart) {
  try {
    check_lda_like_a_public_entry(3, 7);
    FAIL() << "no exception";
  } catch (const BadArgument& e) {
    const std::string what = e.what();
    EXPECT_EQ(what, "argument 'lda' = 3: must be >= max(1, m) = 7");
    // The location is a detail: the file name only, not the build machine's path.
    EXPECT_TRUE(contains(e.where(), "test_core.cpp:")) << e.where();
    EXPECT_TRUE(contains(e.where(), "check_lda_like_a_public_entry")) << e.where();
    EXPECT_FALSE(contains(e.where(), "/")) << e.where();
    EXPECT_TRUE(contains(e.file(), "test_core.cpp"));
    EXPECT_GT(e.line(), 0);
    EXPECT_STREQ(e.function(), "check_lda_like_a_public_entry");
    EXPECT_EQ(e.code(), 0);
  }
  EXPECT_NO_THROW(check_lda_like_a_public_entry(7, 7));
  EXPECT_NO_THROW(check_lda_like_a_public_entry(1, 0));
}

void needs_pointer(const double* A, int64_t m) { MGBLAS_CHECK_PTR(A, "A", m > 0); }

TEST(Error, CheckPtrNamesTheArgument) {
  try {
    needs_pointer(nullptr, 4);
    FAIL() << "no exception";
  } catch (const BadArgument& e) {
    EXPECT_TRUE(contains(e.what(), "'A'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "null")) << e.what();
    EXPECT_TRUE(contains(e.where(), "needs_pointer")) << e.where();
  }
  EXPECT_NO_THROW(needs_pointer(nullptr, 0));
}

TEST(Error, HierarchyAndRawCode) {
  const MpiError e("dir/some_file.cpp", 42, "fn", "MPI_Send failed", 17);
  EXPECT_EQ(e.code(), 17);
  EXPECT_EQ(e.line(), 42);
  EXPECT_STREQ(e.what(), "MPI_Send failed");
  EXPECT_EQ(e.where(), "some_file.cpp:42 (fn)");
  const Error& base = e;
  EXPECT_NE(dynamic_cast<const MpiError*>(&base), nullptr);
  EXPECT_THROW(MGBLAS_THROW(DimensionMismatch, "x has ", 3, " entries"), Error);
  EXPECT_THROW(MGBLAS_THROW(NotCompiled, "no"), std::runtime_error);
  try {
    MGBLAS_THROW(DimensionMismatch, "x has ", 3, " entries, y ", 4.5);
  } catch (const DimensionMismatch& d) {
    EXPECT_TRUE(contains(d.what(), "x has 3 entries, y 4.5")) << d.what();
  }
}

// ---------------------------------------------------------------------------------
// Context on host devices, and its environment variables

// Sets (or unsets) an environment variable for the lifetime of the guard.
class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~EnvGuard() {
    if (old_)
      setenv(name_.c_str(), old_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

ContextOptions host_options(int host_devices) {
  ContextOptions o;
  o.backend = BackendChoice::Host;
  o.host_devices = host_devices;
  return o;
}

// The one precision list (MGBLAS_FOR_EACH_SCALAR, filtered in core/types.hpp) agrees
// with the configured MGBLAS_PRECISIONS (core/config.hpp), and a precision outside it is
// a NotCompiled error naming the precision and the list, not a crash or a link error.
TEST(Precisions, ListMatchesConfig) {
  std::string configured = MGBLAS_PRECISIONS_STRING;
  std::erase(configured, ';');
  EXPECT_EQ(std::string(enabled_precision_letters()), configured);
  ASSERT_FALSE(configured.empty());

  std::string listed;
#define MGBLAS_TEST_LIST_(T) listed += precision_letter<T>();
  MGBLAS_FOR_EACH_SCALAR(MGBLAS_TEST_LIST_)
#undef MGBLAS_TEST_LIST_
  EXPECT_EQ(listed, configured);
  const auto count = []<typename... Ts>(TypeList<Ts...>*) { return sizeof...(Ts); };
  EXPECT_EQ(count(static_cast<EnabledScalars*>(nullptr)), configured.size());

  for (char c : std::string("sdcz")) {
    const DataType t = data_type_of_letter(c);
    EXPECT_EQ(precision_letter(t), c);
    const bool enabled = configured.find(c) != std::string::npos;
    EXPECT_EQ(precision_enabled(t), enabled) << c;
    if (enabled) {
      char seen = 0;
      visit_scalar(c, [&](auto tag) { seen = precision_letter<typename decltype(tag)::type>(); });
      EXPECT_EQ(seen, c);
    } else {
      try {
        visit_scalar(c, [](auto) {}, "--type");
        ADD_FAILURE() << "no NotCompiled for " << c;
      } catch (const NotCompiled& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(std::string("'") + c + "'"), std::string::npos) << what;
        EXPECT_NE(what.find("MGBLAS_PRECISIONS"), std::string::npos) << what;
      }
    }
  }
  EXPECT_THROW(data_type_of_letter('x'), BadArgument);
  EXPECT_EQ(enabled_of("zdx"), std::string(configured.find('z') != std::string::npos ? "z" : "") +
                                   (configured.find('d') != std::string::npos ? "d" : ""));
}

TEST(Context, HostDevicesHaveGlobalIndices) {
  auto ctx = Context::create(host_options(3));
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(ctx->backend(), Backend::Host);
  EXPECT_EQ(ctx->nranks(), 1);
  EXPECT_EQ(ctx->rank(), 0);
  ASSERT_EQ(ctx->num_devices(), 3);
  EXPECT_EQ(ctx->global_num_devices(), 3);
  EXPECT_EQ(ctx->device_offset(), 0);
  EXPECT_EQ(ctx->devices_on_rank(0), 3);
  for (int d = 0; d < 3; ++d) {
    const Device& dev = ctx->device(d);
    EXPECT_FALSE(dev.is_gpu());
    EXPECT_EQ(dev.backend(), Backend::Host);
    EXPECT_EQ(dev.local_index(), d);
    EXPECT_EQ(dev.global_index(), d);
    EXPECT_EQ(dev.gpu_ordinal(), -1);
    EXPECT_EQ(dev.stream(), nullptr);
    EXPECT_EQ(dev.name(), "host:" + std::to_string(d));
    EXPECT_EQ(ctx->rank_of_device(d), 0);
    EXPECT_EQ(ctx->local_index_of(d), d);
    EXPECT_NO_THROW(dev.synchronize());
  }
  EXPECT_EQ(ctx->local_index_of(3), -1);
  EXPECT_EQ(ctx->local_index_of(-1), -1);
  EXPECT_THROW(ctx->rank_of_device(3), BadArgument);
  EXPECT_THROW(ctx->device(3), std::out_of_range);
  ASSERT_EQ(ctx->binding().size(), 3u);
  EXPECT_EQ(ctx->binding()[2].device, "host:2");
  const std::string report = ctx->binding_report();
  EXPECT_TRUE(contains(report, "host:0")) << report;
  EXPECT_TRUE(contains(report, "host:2")) << report;
  EXPECT_NO_THROW(ctx->synchronize());
}

TEST(Context, EnvHostDevices) {
  {
    EnvGuard g("MGBLAS_HOST_DEVICES", "2");
    EXPECT_EQ(Context::create(host_options(0))->num_devices(), 2);
    // An explicit count wins over the environment.
    EXPECT_EQ(Context::create(host_options(4))->num_devices(), 4);
  }
  {
    EnvGuard g("MGBLAS_HOST_DEVICES", nullptr);
    EXPECT_EQ(Context::create(host_options(0))->num_devices(), 1);
  }
  for (const char* bad : {"0", "-1", "abc", "2x", "5000"}) {
    EnvGuard g("MGBLAS_HOST_DEVICES", bad);
    try {
      Context::create(host_options(0));
      ADD_FAILURE() << "no exception for MGBLAS_HOST_DEVICES=" << bad;
    } catch (const BadArgument& e) {
      EXPECT_TRUE(contains(e.what(), "MGBLAS_HOST_DEVICES")) << e.what();
      EXPECT_TRUE(contains(e.what(), std::string("'") + bad + "'")) << e.what();
    }
  }
}

TEST(Context, EnvBackend) {
  EnvGuard devices("MGBLAS_HOST_DEVICES", "2");
  {
    EnvGuard g("MGBLAS_BACKEND", "host");
    auto ctx = Context::create();  // backend Auto: the environment decides
    EXPECT_EQ(ctx->backend(), Backend::Host);
    EXPECT_EQ(ctx->num_devices(), 2);
  }
  {
    EnvGuard g("MGBLAS_BACKEND", "auto");
    auto ctx = Context::create(host_options(0));
    EXPECT_EQ(ctx->backend(), Backend::Host);
    if (cuda_device_count() == 0) EXPECT_EQ(Context::create()->backend(), Backend::Host);
  }
  {
    EnvGuard g("MGBLAS_BACKEND", "bogus");
    try {
      Context::create();
      ADD_FAILURE() << "no exception for MGBLAS_BACKEND=bogus";
    } catch (const BadArgument& e) {
      EXPECT_TRUE(contains(e.what(), "MGBLAS_BACKEND")) << e.what();
      EXPECT_TRUE(contains(e.what(), "'bogus'")) << e.what();
    }
    // An explicit back-end is not overridden by the environment.
    EXPECT_EQ(Context::create(host_options(1))->backend(), Backend::Host);
  }
  if (cuda_device_count() == 0) {
    EnvGuard g("MGBLAS_BACKEND", "cuda");
    try {
      Context::create();
      ADD_FAILURE() << "no exception for MGBLAS_BACKEND=cuda without a GPU";
    } catch (const BadArgument& e) {
      EXPECT_TRUE(contains(e.what(), "cuda")) << e.what();
    }
  }
}

TEST(Context, AbortOnTimeoutFromOptionsOrEnvironment) {
  {
    EnvGuard g("MGBLAS_ABORT_ON_TIMEOUT", nullptr);
    EXPECT_FALSE(Context::create(host_options(1))->abort_on_timeout());
    ContextOptions o = host_options(1);
    o.abort_on_timeout = 1;
    const auto ctx = Context::create(o);
    EXPECT_TRUE(ctx->abort_on_timeout());
    EXPECT_TRUE(ctx->comm().abort_on_timeout());
  }
  {
    EnvGuard g("MGBLAS_ABORT_ON_TIMEOUT", "1");
    EXPECT_TRUE(Context::create(host_options(1))->abort_on_timeout());
    ContextOptions o = host_options(1);
    o.abort_on_timeout = 0;  // an explicit choice wins over the environment
    EXPECT_FALSE(Context::create(o)->abort_on_timeout());
  }
  for (const char* bad : {"yes", "2", "-1"}) {
    EnvGuard g("MGBLAS_ABORT_ON_TIMEOUT", bad);
    try {
      Context::create(host_options(1));
      ADD_FAILURE() << "no exception for MGBLAS_ABORT_ON_TIMEOUT=" << bad;
    } catch (const BadArgument& e) {
      EXPECT_TRUE(contains(e.what(), "MGBLAS_ABORT_ON_TIMEOUT")) << e.what();
      EXPECT_TRUE(contains(e.what(), std::string("'") + bad + "'")) << e.what();
    }
  }
}

TEST(Context, BadOptionsAreNamed) {
  const auto expect_named = [](ContextOptions o, const std::string& field) {
    try {
      Context::create(o);
      ADD_FAILURE() << "no exception for " << field;
    } catch (const BadArgument& e) {
      EXPECT_TRUE(contains(e.what(), "'" + field + "'")) << e.what();
    }
  };
  ContextOptions o = host_options(-1);
  expect_named(o, "opts.host_devices");
  o = host_options(1);
  o.gpus_per_rank = -2;
  expect_named(o, "opts.gpus_per_rank");
  o = host_options(1);
  o.verify_inputs = 3;
  expect_named(o, "opts.verify_inputs");
  o = host_options(1);
  o.abort_on_timeout = -7;
  expect_named(o, "opts.abort_on_timeout");
}

TEST(Context, EnvIsRestoredByGuard) {
  const char* before = std::getenv("MGBLAS_BACKEND");
  const std::optional<std::string> saved =
      before ? std::optional<std::string>(before) : std::nullopt;
  { EnvGuard g("MGBLAS_BACKEND", "bogus"); }
  const char* after = std::getenv("MGBLAS_BACKEND");
  EXPECT_EQ(saved.has_value(), after != nullptr);
  if (saved && after) EXPECT_EQ(*saved, after);
}

// ---------------------------------------------------------------------------------
// Buffers and copies on host devices

TEST(Memory, DeviceBufferOnHostDevice) {
  auto dev = Device::make_host(0);
  DeviceBuffer<double> buf(*dev, 1000);
  ASSERT_NE(buf.data(), nullptr);
  EXPECT_EQ(buf.size(), 1000u);
  EXPECT_EQ(buf.device(), dev.get());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buf.data()) % 256, 0u);
  for (std::size_t i = 0; i < buf.size(); ++i) buf.data()[i] = static_cast<double>(i);

  DeviceBuffer<double> moved(std::move(buf));
  EXPECT_EQ(buf.data(), nullptr);  // NOLINT: moved-from state is specified
  EXPECT_EQ(buf.size(), 0u);
  ASSERT_EQ(moved.size(), 1000u);
  EXPECT_EQ(moved.data()[999], 999.0);

  DeviceBuffer<double> assigned;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.data()[5], 5.0);
  assigned.reset();
  EXPECT_EQ(assigned.data(), nullptr);
  EXPECT_EQ(assigned.size(), 0u);

  DeviceBuffer<float> empty(*dev, 0);
  EXPECT_EQ(empty.data(), nullptr);
}

TEST(Memory, PinnedBuffer) {
  PinnedBuffer<std::complex<float>> p(77);
  ASSERT_NE(p.data(), nullptr);
  EXPECT_EQ(p.size(), 77u);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = {static_cast<float>(i), -1.0f};
  PinnedBuffer<std::complex<float>> q(std::move(p));
  EXPECT_EQ(p.data(), nullptr);  // NOLINT: moved-from state is specified
  EXPECT_EQ(q[76], std::complex<float>(76.0f, -1.0f));
  PinnedBuffer<std::complex<float>> r;
  r = std::move(q);
  EXPECT_EQ(r.size(), 77u);
  EXPECT_EQ(r[3].real(), 3.0f);
  EXPECT_EQ(PinnedBuffer<double>(0).data(), nullptr);
}

template <typename T>
class CopyMatrix : public ::testing::Test {};
// The precisions of this build (MGBLAS_PRECISIONS).
using ScalarTypes = EnabledScalars::apply<::testing::Types>;
struct ScalarNames {
  template <typename T>
  static std::string GetName(int) {
    return std::string(1, precision_letter<T>());
  }
};
TYPED_TEST_SUITE(CopyMatrix, ScalarTypes, ScalarNames);

// +-----------------------------------------------------------------------+
// | host A (lda) -> device D (ldd) -> host B (ldb):  B(0:m, 0:n) = A exactly |
// | and B's padding rows (m <= i < ldb) keep their NaN poison               |
// +-----------------------------------------------------------------------+
TYPED_TEST(CopyMatrix, RoundTripOnHostDevice) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  auto dev = Device::make_host(1);
  const struct {
    int64_t m, n, lda, ldd, ldb;
  } shapes[] = {{1, 1, 1, 1, 1},
                {17, 5, 20, 32, 19},
                {64, 3, 64, 64, 64},
                {31, 40, 31, 48, 33},
                {0, 4, 1, 1, 1}};
  for (const auto& s : shapes) {
    SCOPED_TRACE(detail::concat(s.m, "x", s.n, " lda ", s.lda, " ldd ", s.ldd, " ldb ", s.ldb));
    const auto A = testing::random_vector<T>(static_cast<std::size_t>(s.lda * s.n), rng);
    if (s.m > 0) ASSERT_GT(testing::norm_fro(s.m, s.n, A.data(), s.lda), 0.0);
    DeviceBuffer<T> D(*dev, static_cast<std::size_t>(s.ldd * s.n));
    std::vector<T> B(static_cast<std::size_t>(s.ldb * s.n), testing::nan_value<T>());
    copy_matrix(*dev, s.m, s.n, A.data(), s.lda, D.data(), s.ldd);
    copy_matrix(*dev, s.m, s.n, D.data(), s.ldd, B.data(), s.ldb);
    int64_t wrong = 0, poison_lost = 0;
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t i = 0; i < s.ldb; ++i) {
        if (i < s.m)
          wrong += B[i + j * s.ldb] != A[i + j * s.lda];
        else
          poison_lost += !testing::is_nan(B[i + j * s.ldb]);
      }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(poison_lost, 0);
  }
}

TYPED_TEST(CopyMatrix, VectorAndMemset) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  auto dev = Device::make_host(0);
  const auto x = testing::random_vector<T>(101, rng);
  ASSERT_GT(testing::norm_vec<T>(101, x.data()), 0.0);
  DeviceBuffer<T> d(*dev, 101);
  copy_vector(*dev, 101, x.data(), d.data());
  std::vector<T> y(101, testing::nan_value<T>());
  copy_vector(*dev, 101, d.data(), y.data());
  EXPECT_EQ(testing::norm_diff<T>(101, y.data(), 1, x.data(), 1), 0.0);
  memset_bytes(*dev, d.data(), 0, 101 * sizeof(T));
  copy_vector(*dev, 101, d.data(), y.data());
  EXPECT_EQ(testing::norm_vec<T>(101, y.data()), 0.0);
}

// ---------------------------------------------------------------------------------
// Single-rank Communicator and all_or_nothing

TEST(Communicator, SingleRankCollectivesAreIdentities) {
  const Communicator c;
  EXPECT_EQ(c.rank(), 0);
  EXPECT_EQ(c.size(), 1);
  EXPECT_EQ(c.local_rank(), 0);
  EXPECT_EQ(c.local_size(), 1);
  EXPECT_FALSE(c.uses_mpi());
  EXPECT_TRUE(c.all_ok(true));
  EXPECT_FALSE(c.all_ok(false));
  EXPECT_EQ(c.allreduce_max(5), 5);
  EXPECT_EQ(c.allgather(int64_t{9}), std::vector<int64_t>{9});
  EXPECT_EQ(c.allgather(std::string("abc")), std::vector<std::string>{"abc"});
  double v[2] = {1.5, -2.0};
  c.allreduce_sum(v, 2);
  EXPECT_EQ(v[0], 1.5);
  EXPECT_EQ(v[1], -2.0);
  EXPECT_NO_THROW(c.barrier());
  EXPECT_FALSE(c.hostname().empty());
}

TEST(Communicator, AllOrNothingRethrowsTheOwnError) {
  const Communicator c;
  int calls = 0;
  all_or_nothing(c, "nothing", [&] { ++calls; });
  EXPECT_EQ(calls, 1);
  try {
    all_or_nothing(c, "step", [] { MGBLAS_THROW(BadArgument, "argument 'x' = 1: must be 2"); });
    FAIL() << "no exception";
  } catch (const BadArgument& e) {
    EXPECT_TRUE(contains(e.what(), "'x' = 1")) << e.what();
  }
}

// ---------------------------------------------------------------------------------
// GPU assignment on synthetic CPU sets

std::vector<std::vector<int>> assign_all(const std::vector<std::string>& ranks,
                                         const std::vector<std::string>& gpus, int per_rank) {
  std::vector<std::vector<int>> out;
  for (int r = 0; r < static_cast<int>(ranks.size()); ++r)
    out.push_back(assign_gpus(r, ranks, gpus, per_rank));
  return out;
}

TEST(Topology, DisjointNumaSetsPickTheCloseGpu) {
  if (!MGBLAS_HAVE_HWLOC) GTEST_SKIP() << "built without hwloc: CPU sets are not compared";
  EXPECT_FALSE(cpusets_intersect("0-7", "8-15"));
  EXPECT_TRUE(cpusets_intersect("0-7", "7-9"));
  // GPUs 0, 1 near NUMA 1 (CPUs 8-15), GPUs 2, 3 near NUMA 0 (CPUs 0-7).
  const std::vector<std::string> gpus = {"8-15", "8-15", "0-7", "0-7"};
  using V = std::vector<std::vector<int>>;
  EXPECT_EQ(assign_all({"0-7", "8-15"}, gpus, 1), (V{{2}, {0}}));
  EXPECT_EQ(assign_all({"0-7", "8-15", "0-7", "8-15"}, gpus, 1), (V{{2}, {0}, {3}, {1}}));
  EXPECT_EQ(assign_all({"8-15", "0-7"}, gpus, 2), (V{{0, 1}, {2, 3}}));
  // A rank whose NUMA node has no free GPU left takes any free one.
  EXPECT_EQ(assign_all({"0-7", "0-7", "0-7"}, {"0-7", "8-15", "0-7"}, 1), (V{{0}, {2}, {1}}));
}

TEST(Topology, UnknownSetsPartitionByOrder) {
  using V = std::vector<std::vector<int>>;
  EXPECT_TRUE(cpusets_intersect("", "0-3"));
  EXPECT_EQ(assign_all({"", ""}, {"", "", "", ""}, 2), (V{{0, 1}, {2, 3}}));
  EXPECT_EQ(assign_all({"", "", ""}, {"", "", ""}, 1), (V{{0}, {1}, {2}}));
  EXPECT_EQ(assign_all({"", ""}, {"0-3", "4-7", "8-11"}, 1), (V{{0}, {1}}));
}

TEST(Topology, MoreRanksThanGpusShareRoundRobin) {
  using V = std::vector<std::vector<int>>;
  EXPECT_EQ(assign_all({"", "", "", "", ""}, {"", ""}, 1), (V{{0}, {1}, {0}, {1}, {0}}));
  // per_rank GPUs cannot be given to every rank: one each, shared.
  EXPECT_EQ(assign_all({"", "", ""}, {"", "", "", ""}, 2), (V{{0}, {1}, {2}}));
  EXPECT_TRUE(assign_gpus(0, {"0-3"}, {}, 1).empty());
}

TEST(Topology, EveryGpuAssignedAtMostOnceWhenEnough) {
  auto rng = testing::make_rng();
  const std::vector<std::string> pool = {"", "0-3", "4-7", "0-7", "8-11", "2-5"};
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  int checked = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const int ngpus = std::uniform_int_distribution<int>(1, 8)(rng);
    const int per_rank = std::uniform_int_distribution<int>(1, ngpus)(rng);
    const int nranks = std::uniform_int_distribution<int>(1, ngpus / per_rank)(rng);
    std::vector<std::string> gpus(ngpus), ranks(nranks);
    for (auto& s : gpus) s = pool[pick(rng)];
    for (auto& s : ranks) s = pool[pick(rng)];
    std::set<int> used;
    int total = 0;
    for (const auto& mine : assign_all(ranks, gpus, per_rank)) {
      EXPECT_EQ(static_cast<int>(mine.size()), per_rank);
      for (int g : mine) {
        EXPECT_GE(g, 0);
        EXPECT_LT(g, ngpus);
        used.insert(g);
        ++total;
      }
    }
    EXPECT_EQ(static_cast<int>(used.size()), total) << "a GPU was given twice";
    ++checked;
    if (HasFailure()) return;
  }
  EXPECT_EQ(checked, 500);
}

TEST(Topology, BadArgumentsThrow) {
  try {
    assign_gpus(2, {"", ""}, {"", ""}, 1);
    FAIL() << "no exception";
  } catch (const BadArgument& e) {
    EXPECT_TRUE(contains(e.what(), "'local_rank' = 2")) << e.what();
  }
  try {
    assign_gpus(0, {""}, {""}, 0);
    FAIL() << "no exception";
  } catch (const BadArgument& e) {
    EXPECT_TRUE(contains(e.what(), "'per_rank' = 0")) << e.what();
  }
}

// ---------------------------------------------------------------------------------
// Scalar traits

// The digest ranks compare: equal bytes give equal digests, any one flipped bit (any
// position, lengths 0 to 300, so every path: words in stripes, single words, tail bytes)
// gives another, and the pieces of a chained digest depend on their order.
TEST(Hash, EveryBitAndLengthCounts) {
  auto rng = testing::make_rng();
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::size_t len : {0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 255, 300}) {
    std::vector<unsigned char> a(len + 1);
    for (auto& c : a) c = static_cast<unsigned char>(byte(rng));
    const std::vector<unsigned char> b(a);
    const uint64_t h = hash_bytes(a.data(), len);
    EXPECT_EQ(h, hash_bytes(b.data(), len)) << len;
    EXPECT_NE(h, hash_bytes(a.data(), len + 1)) << "length " << len << " vs " << len + 1;
    EXPECT_NE(h, hash_bytes(a.data(), len, kHashSeed + 1)) << "seed, length " << len;
    for (std::size_t i = 0; i < len; ++i)
      for (int bit = 0; bit < 8; ++bit) {
        a[i] ^= static_cast<unsigned char>(1u << bit);
        EXPECT_NE(h, hash_bytes(a.data(), len)) << "length " << len << " byte " << i << " bit " << bit;
        a[i] ^= static_cast<unsigned char>(1u << bit);
      }
  }
  const double x[4] = {1.0, -2.5, 3.25, 0.0};
  const double y[4] = {3.25, 0.0, 1.0, -2.5};  // x's columns of two swapped
  EXPECT_NE(hash_matrix(2, 2, x, 2), hash_matrix(2, 2, y, 2));
  EXPECT_EQ(hash_matrix(2, 2, x, 2), hash_bytes(x + 2, 16, hash_bytes(x, 16)));
  EXPECT_NE(hash_value(0), hash_value(1));
}

TEST(Types, Traits) {
  EXPECT_EQ(precision_letter<float>(), 's');
  EXPECT_EQ(precision_letter<double>(), 'd');
  EXPECT_EQ(precision_letter<scomplex>(), 'c');
  EXPECT_EQ(precision_letter<zcomplex>(), 'z');
  EXPECT_TRUE(is_complex_v<zcomplex>);
  EXPECT_FALSE(is_complex_v<double>);
  EXPECT_TRUE((std::is_same_v<real_type_t<scomplex>, float>));
  EXPECT_EQ(conj(zcomplex(1, 2)), zcomplex(1, -2));
  EXPECT_EQ(conj(3.0), 3.0);
  EXPECT_STREQ(to_string(Op::C), "C");
  EXPECT_STREQ(to_string(Uplo::Lower), "L");
}

}  // namespace
}  // namespace mgblas
