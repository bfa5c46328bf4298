// SPDX-License-Identifier: BSD-3-Clause
// Context creation is a collective like the others (issue 32, item 3): one rank's bad
// back-end, device count, environment or ContextOptions, through C++ or C, gives every
// rank an error (that rank's own, RemoteError naming it on the others) within the
// deadline, and a context made afterwards works. Run on 1, 2 and 3 ranks of host
// devices; the culprit is the last rank.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>

#include <mgblas/mgblas.h>

#include "core/context.hpp"
#include "core/error.hpp"

namespace mgblas {
namespace {

constexpr double kDeadline = 4.0;  // MGBLAS_COMM_TIMEOUT here, in seconds

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The rank that misbehaves: the last one (rank 0 alone on one rank).
int culprit_of(const Communicator& world) { return world.size() - 1; }

// Sets an environment variable on the culprit rank only, for the guard's lifetime.
class CulpritEnv {
 public:
  CulpritEnv(const char* name, const char* value, bool culprit) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (culprit) setenv(name, value, 1);
  }
  ~CulpritEnv() {
    if (old_) setenv(name_.c_str(), old_->c_str(), 1);
    else unsetenv(name_.c_str());
  }
  CulpritEnv(const CulpritEnv&) = delete;
  CulpritEnv& operator=(const CulpritEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

ContextOptions host_options() {
  ContextOptions o;
  o.backend = BackendChoice::Host;
  o.host_devices = 2;
  o.bind = false;
  return o;
}

struct Outcome {
  std::string kind;  // "" when nothing was raised
  std::string what;
  double seconds = 0;
};
Outcome run(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  Outcome o;
  try {
    f();
  } catch (const RemoteError& e) {
    o = {"remote", e.what()};
  } catch (const BadArgument& e) {
    o = {"bad", e.what()};
  } catch (const DimensionMismatch& e) {
    o = {"mismatch", e.what()};
  } catch (const Timeout& e) {
    o = {"timeout", e.what()};
  } catch (const std::exception& e) {
    o = {"other", e.what()};
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return o;
}

// Every rank raised, before the deadline: the culprit `mine`, the others RemoteError
// naming the culprit; every message names `text`.
void expect_raised_everywhere(int rank, int culprit, const Outcome& o, const std::string& mine,
                              const std::string& text) {
  if (rank == culprit) {
    EXPECT_EQ(o.kind, mine) << o.what;
  } else {
    EXPECT_EQ(o.kind, "remote") << o.what;
    EXPECT_TRUE(contains(o.what, "rank " + std::to_string(culprit))) << o.what;
  }
  EXPECT_TRUE(contains(o.what, text)) << o.what;
  EXPECT_LT(o.seconds, kDeadline) << o.what;
}

// A context made after the failure works: every rank sees every rank's devices.
void expect_creation_works() {
  const Communicator world = Communicator::world();
  const auto ctx = Context::create(host_options());
  EXPECT_EQ(ctx->global_num_devices(), 2 * world.size());
  EXPECT_NO_THROW(ctx->comm().barrier());
}

class ContextCreate : public ::testing::Test {
 protected:
  void SetUp() override { setenv("MGBLAS_COMM_TIMEOUT", "4", 1); }
  const Communicator world_ = Communicator::world();
  int rank() const { return world_.rank(); }
  int culprit() const { return culprit_of(world_); }
};

TEST_F(ContextCreate, BadHostDevicesEnvironmentOnOneRankRaisesEverywhere) {
  {
    CulpritEnv env("MGBLAS_HOST_DEVICES", "abc", rank() == culprit());
    ContextOptions opts = host_options();
    opts.host_devices = 0;  // the environment decides
    const Outcome o = run([&] { Context::create(opts); });
    expect_raised_everywhere(rank(), culprit(), o, "bad", "MGBLAS_HOST_DEVICES");
    EXPECT_TRUE(contains(o.what, "'abc'")) << o.what;
  }
  expect_creation_works();
}

TEST_F(ContextCreate, BadBackendEnvironmentOnOneRankRaisesEverywhere) {
  {
    CulpritEnv env("MGBLAS_BACKEND", "bogus", rank() == culprit());
    ContextOptions opts = host_options();
    opts.backend = BackendChoice::Auto;  // the environment decides
    const Outcome o = run([&] { Context::create(opts); });
    expect_raised_everywhere(rank(), culprit(), o, "bad", "'bogus'");
  }
  expect_creation_works();
}

TEST_F(ContextCreate, BadTimeoutEnvironmentOnOneRankRaisesEverywhere) {
  // Read when the communicator is duplicated, before the context's own agreement.
  {
    CulpritEnv env("MGBLAS_COMM_TIMEOUT", "soon", rank() == culprit());
    const Outcome o = run([&] { Context::create(host_options()); });
    expect_raised_everywhere(rank(), culprit(), o, "bad", "MGBLAS_COMM_TIMEOUT");
  }
  {
    CulpritEnv env("MGBLAS_ABORT_ON_TIMEOUT", "yes", rank() == culprit());
    const Outcome o = run([&] { Context::create(host_options()); });
    expect_raised_everywhere(rank(), culprit(), o, "bad", "MGBLAS_ABORT_ON_TIMEOUT");
  }
  expect_creation_works();
}

TEST_F(ContextCreate, BadOptionsOnOneRankRaiseEverywhere) {
  struct Case {
    const char* field;
    std::function<void(ContextOptions&)> spoil;
  };
  const Case cases[] = {
      {"opts.host_devices", [](ContextOptions& o) { o.host_devices = -3; }},
      {"opts.gpus_per_rank", [](ContextOptions& o) { o.gpus_per_rank = -1; }},
      {"opts.verify_inputs", [](ContextOptions& o) { o.verify_inputs = 7; }},
      {"opts.abort_on_timeout", [](ContextOptions& o) { o.abort_on_timeout = 2; }},
  };
  for (const Case& c : cases) {
    ContextOptions opts = host_options();
    if (rank() == culprit()) c.spoil(opts);
    const Outcome o = run([&] { Context::create(opts); });
    expect_raised_everywhere(rank(), culprit(), o, "bad", c.field);
  }
  expect_creation_works();
}

TEST_F(ContextCreate, DifferentSettingsAreNamedOnEveryRank) {
  if (world_.size() == 1) GTEST_SKIP() << "needs two ranks";
  for (const char* field : {"verify_inputs", "abort_on_timeout"}) {
    ContextOptions opts = host_options();
    const int value = rank() == culprit() ? 1 : 0;
    if (std::string(field) == "verify_inputs") opts.verify_inputs = value;
    else opts.abort_on_timeout = value;
    const Outcome o = run([&] { Context::create(opts); });
    EXPECT_EQ(o.kind, "mismatch") << o.what;
    EXPECT_TRUE(contains(o.what, field)) << o.what;
    EXPECT_LT(o.seconds, kDeadline) << o.what;
  }
  expect_creation_works();
}

TEST_F(ContextCreate, AbortOnTimeoutComesFromOptionsOrEnvironment) {
  {
    ContextOptions opts = host_options();
    opts.abort_on_timeout = 1;
    const auto ctx = Context::create(opts);
    EXPECT_TRUE(ctx->abort_on_timeout());
    EXPECT_TRUE(ctx->comm().abort_on_timeout());
  }
  {
    setenv("MGBLAS_ABORT_ON_TIMEOUT", "1", 1);
    const auto from_env = Context::create(host_options());
    ContextOptions opts = host_options();
    opts.abort_on_timeout = 0;  // an explicit choice wins over the environment
    const auto explicit_off = Context::create(opts);
    unsetenv("MGBLAS_ABORT_ON_TIMEOUT");
    EXPECT_TRUE(from_env->abort_on_timeout());
    EXPECT_FALSE(explicit_off->abort_on_timeout());
    EXPECT_FALSE(explicit_off->comm().abort_on_timeout());
  }
  EXPECT_FALSE(Context::create(host_options())->abort_on_timeout());
}

// ---- the C API -------------------------------------------------------------------

TEST_F(ContextCreate, CBadBackendOnOneRankFailsEverywhere) {
  // The hang of issue 32: the culprit's bad enum used to return at once, leaving the
  // others in the context's collectives.
  const mgblas_backend_t backend =
      rank() == culprit() ? static_cast<mgblas_backend_t>(12345) : MGBLAS_BACKEND_HOST;
  mgblas_context_t ctx = nullptr;
  const auto start = std::chrono::steady_clock::now();
  const mgblas_status_t s = mgblas_context_create_ex(backend, 2, &ctx);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string what = mgblas_last_error();
  EXPECT_EQ(ctx, nullptr);
  if (rank() == culprit()) {
    EXPECT_EQ(s, MGBLAS_ERROR_BAD_ARGUMENT) << what;
  } else {
    EXPECT_EQ(s, MGBLAS_ERROR_REMOTE) << what;
    EXPECT_TRUE(contains(what, "rank " + std::to_string(culprit()))) << what;
  }
  EXPECT_TRUE(contains(what, "'backend' = 12345")) << what;
  EXPECT_LT(seconds, kDeadline) << what;

  ASSERT_EQ(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 2, &ctx), MGBLAS_SUCCESS)
      << mgblas_last_error();
  int local = 0, global = 0;
  EXPECT_EQ(mgblas_context_num_devices(ctx, &local, &global), MGBLAS_SUCCESS);
  EXPECT_EQ(global, 2 * world_.size());
  EXPECT_EQ(mgblas_context_destroy(ctx), MGBLAS_SUCCESS);
}

TEST_F(ContextCreate, CNullOutputOrBadEnvironmentOnOneRankFailsEverywhere) {
  mgblas_context_t ctx = nullptr;
  mgblas_status_t s = mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 2,
                                               rank() == culprit() ? nullptr : &ctx);
  std::string what = mgblas_last_error();
  EXPECT_EQ(s, rank() == culprit() ? MGBLAS_ERROR_BAD_ARGUMENT : MGBLAS_ERROR_REMOTE) << what;
  EXPECT_TRUE(contains(what, "'ctx'")) << what;
  EXPECT_EQ(ctx, nullptr);
  {
    CulpritEnv env("MGBLAS_HOST_DEVICES", "abc", rank() == culprit());
    s = mgblas_context_create_ex(MGBLAS_BACKEND_AUTO, 0, &ctx);
    what = mgblas_last_error();
  }
  EXPECT_EQ(s, rank() == culprit() ? MGBLAS_ERROR_BAD_ARGUMENT : MGBLAS_ERROR_REMOTE) << what;
  EXPECT_TRUE(contains(what, "MGBLAS_HOST_DEVICES")) << what;
  EXPECT_EQ(ctx, nullptr);
}

}  // namespace
}  // namespace mgblas
