// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM without a GPU:
// - GemmGrouped_Host: the grouped call (kernels/blas.hpp) on the host engine against
//   one host gemm per entry, and its argument errors;
// - BatchedEmulation: the CUDA engine's block programs (kernels/cuda/batched/
//   batched_programs.cuh) run on CPU threads, one std::thread per CUDA thread and a
//   std::barrier for __syncthreads, on host memory, against the host engine. This checks
//   the index arithmetic of every family (entries per block, ragged thread tiles, the
//   op pairs, pointer arrays, variable sizes with zeros, early termination, NaN in the
//   gaps and in shared memory) on machines without a GPU. Built with the CUDA engine
//   only (the programs use cuComplex's types).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "kernels/blas.hpp"
#include "tests/kernels/batched_test_helpers.hpp"
#include "tests/testing/testing.hpp"

#if MGBLAS_HAVE_CUDA
#include <barrier>
#include <thread>

#include "kernels/cuda/batched/batched.hpp"
#include "kernels/cuda/batched/batched_programs.cuh"
#include "kernels/cuda/batched/batched_table.hpp"
#include "kernels/cuda/batched/batched_tuning.hpp"
#endif

namespace mgblas::testing {
namespace {

const Device& host() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

// ---------------------------------------------------------------------------------
// Grouped call on the host engine
// ---------------------------------------------------------------------------------

template <typename T>
class GemmGrouped_Host : public ::testing::Test {};
TYPED_TEST_SUITE(GemmGrouped_Host, TestScalars, PrecisionName);

/// Groups of several shapes, op pairs and scalars (one group empty, one with k = 0,
/// one with beta = 0 over NaN), entries scattered in the buffers with NaN gaps, A and B
/// pointers repeated inside a group.
TYPED_TEST(GemmGrouped_Host, groups) {
  using T = TypeParam;
  auto rng = make_rng();
  // Two A matrices per group (entries alternate) and one B for the whole group;
  // lda/ldb/ldc padded by 1, 2, 3 and NaN gaps of 2, 3, 5.
  const std::vector<GroupSpec> groups = {
      {Op::N, Op::N, 4, 4, 4, 5, false}, {Op::T, Op::C, 7, 3, 9, 3, true},
      {Op::C, Op::N, 2, 5, 0, 2, false}, {Op::N, Op::T, 6, 6, 6, 0, false},
      {Op::C, Op::C, 16, 8, 8, 4, false}, {Op::T, Op::N, 1, 1, 33, 1, true}};
  const auto p = grouped_problem<T>(groups, {1, 2, 3, 2, 1, 2, 3, 5}, rng);
  std::vector<T> C = p.C0, C_ref = p.C0;
  const auto ptr = entry_pointers(p.entries, p.A.data(), p.B.data(), C.data());
  gemm_grouped<T>(host(), static_cast<int64_t>(p.groups.size()), p.opA.data(), p.opB.data(),
                  p.m.data(), p.n.data(), p.k.data(), p.alpha.data(), ptr.a.data(), p.lda.data(),
                  ptr.b.data(), p.ldb.data(), p.beta.data(), ptr.c.data(), p.ldc.data(),
                  p.size.data());
  // Reference: one host gemm per entry.
  for (std::size_t e = 0; e < p.entries.size(); ++e) {
    const EntryView& v = p.entries[e];
    const int g = p.group_of[e];
    gemm<T>(host(), p.opA[g], p.opB[g], v.m, v.n, v.k, p.alpha[g], p.A.data() + v.a_off, v.lda,
            p.B.data() + v.b_off, v.ldb, p.beta[g], C_ref.data() + v.c_off, v.ldc);
  }
  check_groups(p, C, C_ref);
}

TYPED_TEST(GemmGrouped_Host, bad_arguments) {
  using T = TypeParam;
  const Op op[2] = {Op::N, Op::N};
  int64_t m[2] = {2, 3}, n[2] = {2, 3}, k[2] = {2, 3}, lda[2] = {2, 3}, ldb[2] = {2, 3},
          ldc[2] = {2, 3}, size[2] = {1, 1};
  const T alpha[2] = {T(1), T(1)}, beta[2] = {T(0), T(0)};
  std::vector<T> a(9, T(1)), c(16, T(0));
  const T* pa[2] = {a.data(), a.data()};
  T* pc[2] = {c.data(), c.data() + 4};
  auto call = [&] {
    gemm_grouped<T>(host(), 2, op, op, m, n, k, alpha, pa, lda, pa, ldb, beta, pc, ldc, size);
  };
  EXPECT_NO_THROW(call());
  auto expect_bad = [&](const char* what) {
    try {
      call();
      ADD_FAILURE() << "no error for " << what;
    } catch (const BadArgument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  lda[1] = 2;
  expect_bad("lda[1]");
  lda[1] = 3;
  m[0] = -1;
  expect_bad("m[0]");
  m[0] = 2;
  size[1] = -4;
  expect_bad("group_size[1]");
  size[1] = 1;
  EXPECT_THROW(gemm_grouped<T>(host(), 2, op, op, m, n, k, alpha, nullptr, lda, pa, ldb, beta,
                               pc, ldc, size),
               BadArgument);
  EXPECT_THROW(gemm_grouped<T>(host(), -1, op, op, m, n, k, alpha, pa, lda, pa, ldb, beta, pc,
                               ldc, size),
               BadArgument);
  // No groups: nothing is read, null arrays are fine.
  EXPECT_NO_THROW(gemm_grouped<T>(host(), 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                                  static_cast<const T*>(nullptr), nullptr, nullptr, nullptr,
                                  nullptr, static_cast<const T*>(nullptr), nullptr, nullptr,
                                  nullptr));
}

#if MGBLAS_HAVE_CUDA
// ---------------------------------------------------------------------------------
// Emulation of the CUDA block programs
// ---------------------------------------------------------------------------------

namespace bd = kernels::cuda::batched::dev;

/// The thread context of an emulated block: one std::thread per CUDA thread.
struct HostCtx {
  int tid;
  std::barrier<>* bar;
  int thread() const { return tid; }
  void sync() const { bar->arrive_and_wait(); }
};

/// Runs `blocks` blocks of `threads` threads of Prog on args, shared memory of
/// `shared` elements poisoned with NaN before every block.
template <typename Prog>
void emulate(const bd::BatchArgs<typename Prog::Scalar>& args, int64_t blocks, int threads,
             std::size_t shared) {
  using D = typename Prog::Scalar;
  std::vector<D> smem(shared);
  for (int64_t b = 0; b < blocks; ++b) {
    std::fill(reinterpret_cast<char*>(smem.data()), reinterpret_cast<char*>(smem.data() + shared),
              static_cast<char>(0xff));  // all-ones bytes: NaN in every float and double
    std::barrier<> bar(threads);
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        HostCtx ctx{t, &bar};
        Prog::run(args, ctx, smem.data(), b);
      });
    for (auto& th : pool) th.join();
  }
}

enum class Form { Strided, Array, Variable };
const char* to_string(Form f) {
  return f == Form::Strided ? "strided" : f == Form::Array ? "array" : "variable";
}

/// One emulated call: the program Prog (SmallGemm with entries per block E, or
/// TiledGemm) on fresh data in the given form, against the host engine. `unit`:
/// alpha = 1, beta = 0 (the kAlphaOneBetaZero policy).
template <typename T, typename Prog, bool kTiled>
void emulate_case(Form form, Op opA, Op opB, int64_t m, int64_t n, int64_t k, int64_t batch,
                  int E, bool beta_zero, std::mt19937_64& rng, bool unit = false) {
  using D = typename Prog::Scalar;
  SCOPED_TRACE(std::string(to_string(form)) + " " + to_string(opA) + to_string(opB) + " m=" +
               std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
               " batch=" + std::to_string(batch) + " E=" + std::to_string(E) +
               (beta_zero ? " beta=0" : "") + (unit ? " alpha=1" : "") + " seed " +
               std::to_string(test_seed()));
  // Sizes per entry (variable: uniform in [0, max] with zeros inside).
  std::vector<int64_t> ms(batch, m), ns(batch, n), ks(batch, k);
  const bool var = form == Form::Variable;
  if (var) {
    std::uniform_int_distribution<int64_t> um(0, m), un(0, n), uk(0, k);
    for (int64_t e = 0; e < batch; ++e) {
      ms[e] = e % 4 == 1 ? 0 : um(rng);
      ns[e] = e % 5 == 2 ? 0 : un(rng);
      ks[e] = e % 6 == 3 ? 0 : uk(rng);
    }
    ms[0] = m;  // the maxima occur
    ns[0] = n;
    ks[0] = k;
  }
  // Strided: regular strides with NaN gaps; arrays: C in reverse order; variable:
  // per-entry leading dimensions. Fixed-size leading dimensions exceed the rows.
  const int64_t sa = (opA == Op::N ? m : k) + 1, sb = (opB == Op::N ? k : n) + 2, sc = m + 1;
  std::vector<EntryView> entries(batch);
  std::vector<int64_t> lda(batch), ldb(batch), ldc(batch);
  int64_t a_len = 0, b_len = 0, c_len = 0;
  const int64_t stride_a = sa * (opA == Op::N ? k : m) + 3;
  const int64_t stride_b = sb * (opB == Op::N ? n : k) + 1;
  const int64_t stride_c = sc * n + 2;
  for (int64_t e = 0; e < batch; ++e) {
    const int64_t ra = opA == Op::N ? ms[e] : ks[e], ca = opA == Op::N ? ks[e] : ms[e];
    const int64_t rb = opB == Op::N ? ks[e] : ns[e], cb = opB == Op::N ? ns[e] : ks[e];
    lda[e] = var ? std::max<int64_t>(ra, 1) + e % 3 : sa;
    ldb[e] = var ? std::max<int64_t>(rb, 1) + e % 2 : sb;
    ldc[e] = var ? std::max<int64_t>(ms[e], 1) + e % 3 : sc;
    entries[e] = {ms[e], ns[e], ks[e], a_len, lda[e], b_len, ldb[e], c_len, ldc[e]};
    a_len += var ? lda[e] * std::max<int64_t>(ca, 1) + 3 : stride_a;
    b_len += var ? ldb[e] * std::max<int64_t>(cb, 1) + 1 : stride_b;
    c_len += var ? ldc[e] * std::max<int64_t>(ns[e], 1) + 2 : stride_c;
  }
  if (form == Form::Array)
    for (int64_t e = 0; e < batch / 2; ++e) std::swap(entries[e].c_off, entries[batch - 1 - e].c_off);
  std::vector<T> A(a_len + 1, nan_value<T>()), B(b_len + 1, nan_value<T>()),
      C0(c_len + 1, nan_value<T>());
  for (const EntryView& v : entries) fill_entry(opA, opB, v, A, B, C0, !beta_zero, rng);
  const T alpha = unit ? T(1) : random_scalar<T>(rng);
  const T beta = beta_zero ? T(0) : random_scalar<T>(rng);
  std::vector<T> C = C0, C_ref = C0;

  // Reference: the host engine, entry by entry.
  for (const EntryView& v : entries)
    gemm<T>(host(), opA, opB, v.m, v.n, v.k, alpha, A.data() + v.a_off, v.lda, B.data() + v.b_off,
            v.ldb, beta, C_ref.data() + v.c_off, v.ldc);

  bd::BatchArgs<D> args;
  std::vector<const D*> pa, pb;
  std::vector<D*> pc;
  for (const EntryView& v : entries) {
    pa.push_back(reinterpret_cast<const D*>(A.data() + v.a_off));
    pb.push_back(reinterpret_cast<const D*>(B.data() + v.b_off));
    pc.push_back(reinterpret_cast<D*>(C.data() + v.c_off));
  }
  if (form == Form::Strided) {
    args.a = {reinterpret_cast<const D*>(A.data()), nullptr, stride_a, sa, nullptr};
    args.b = {reinterpret_cast<const D*>(B.data()), nullptr, stride_b, sb, nullptr};
    args.c = {reinterpret_cast<D*>(C.data()), nullptr, stride_c, sc, nullptr};
  } else {
    args.a = {nullptr, pa.data(), 0, sa, var ? lda.data() : nullptr};
    args.b = {nullptr, pb.data(), 0, sb, var ? ldb.data() : nullptr};
    args.c = {nullptr, pc.data(), 0, sc, var ? ldc.data() : nullptr};
    if (var) {
      args.m_array = ms.data();
      args.n_array = ns.data();
      args.k_array = ks.data();
    }
  }
  args.m = m;
  args.n = n;
  args.k = k;
  args.batch = batch;
  args.alpha = reinterpret_cast<const D&>(alpha);
  args.beta = reinterpret_cast<const D&>(beta);
  args.trans_a = opA != Op::N;
  args.conj_a = opA == Op::C && is_complex_v<T>;
  args.trans_b = opB != Op::N;
  args.conj_b = opB == Op::C && is_complex_v<T>;
  args.beta_zero = beta_zero;
  if constexpr (kTiled) {
    args.tiles_m = static_cast<int>((m + Prog::kTileM - 1) / Prog::kTileM);
    args.tiles_n = static_cast<int>((n + Prog::kTileN - 1) / Prog::kTileN);
    emulate<Prog>(args, batch * args.tiles_m * args.tiles_n, Prog::kThreads,
                  Prog::kSharedElements);
  } else {
    args.entries_per_block = E;
    emulate<Prog>(args, (batch + E - 1) / E, E * Prog::kThreadsPerEntry,
                  static_cast<std::size_t>(E) * Prog::kSharedPerEntry);
  }
  check_entries(opA, opB, entries, alpha, beta, beta_zero, A, B, C0, C, C_ref);
}

// Programs under test: exact sizes with one thread per element, ragged 2x2 and 4x4
// thread tiles, one thread per entry, a small-k shape; bounds with smaller fixed sizes
// and with variable sizes; tiled programs with several tiles per entry. The thread
// counts are kept small: every CUDA thread is a CPU thread here.
using Exact3 = bd::SmallGemm<double, 3, 3, 3, 1, 1, true, bd::kGeneral>;
using Exact3Whole = bd::SmallGemm<double, 3, 3, 3, 3, 3, true, bd::kGeneral>;
using Exact5Ragged = bd::SmallGemm<double, 5, 5, 5, 2, 2, true, bd::kGeneral>;
using Exact7Unit = bd::SmallGemm<double, 7, 7, 7, 4, 4, true, bd::kAlphaOneBetaZero>;
using ExactC8k16 = bd::SmallGemm<cuFloatComplex, 8, 8, 16, 2, 2, true, bd::kGeneral>;
using BoundZ4 = bd::SmallGemm<cuDoubleComplex, 4, 4, 4, 4, 4, false, bd::kGeneral>;
using BoundC8 = bd::SmallGemm<cuFloatComplex, 8, 8, 8, 1, 1, false, bd::kGeneral>;
using BoundD16 = bd::SmallGemm<double, 16, 16, 16, 4, 4, false, bd::kGeneral>;
using TiledD = bd::TiledGemm<double, 16, 16, 8, 8, 4, bd::kGeneral>;
using TiledC = bd::TiledGemm<cuFloatComplex, 16, 8, 4, 8, 4, bd::kGeneral>;

TEST(BatchedEmulation, small_exact_op_pairs) {
  auto rng = make_rng();
  for (Op a : kOps)
    for (Op b : kOps) {
      emulate_case<double, Exact5Ragged, false>(Form::Strided, a, b, 5, 5, 5, 11, 3, false, rng);
      emulate_case<double, Exact3, false>(Form::Array, a, b, 3, 3, 3, 7, 2, false, rng);
      emulate_case<std::complex<float>, ExactC8k16, false>(Form::Strided, a, b, 8, 8, 16, 5, 2,
                                                           false, rng);
    }
}

TEST(BatchedEmulation, small_exact_scalars_and_policies) {
  auto rng = make_rng();
  emulate_case<double, Exact3Whole, false>(Form::Strided, Op::N, Op::N, 3, 3, 3, 9, 4, true, rng);
  emulate_case<double, Exact3Whole, false>(Form::Array, Op::T, Op::C, 3, 3, 3, 33, 32, false, rng);
  emulate_case<double, Exact7Unit, false>(Form::Strided, Op::N, Op::N, 7, 7, 7, 6, 4, true, rng,
                                          true);
  emulate_case<double, Exact7Unit, false>(Form::Array, Op::C, Op::T, 7, 7, 7, 3, 2, true, rng,
                                          true);
  emulate_case<std::complex<float>, ExactC8k16, false>(Form::Array, Op::C, Op::C, 8, 8, 16, 4, 1,
                                                       true, rng);
}

TEST(BatchedEmulation, small_bounded_fixed_and_variable) {
  auto rng = make_rng();
  // Fixed sizes below the bounds.
  emulate_case<std::complex<float>, BoundC8, false>(Form::Strided, Op::N, Op::C, 5, 7, 3, 6, 2,
                                                    false, rng);
  emulate_case<std::complex<double>, BoundZ4, false>(Form::Array, Op::C, Op::N, 3, 2, 4, 9, 8,
                                                     false, rng);
  // Variable sizes with zeros.
  for (Op a : kOps)
    for (Op b : kOps)
      emulate_case<std::complex<float>, BoundC8, false>(Form::Variable, a, b, 8, 8, 8, 13, 4,
                                                        a == Op::T, rng);
  emulate_case<double, BoundD16, false>(Form::Variable, Op::T, Op::N, 16, 13, 16, 9, 2, false, rng);
  emulate_case<std::complex<double>, BoundZ4, false>(Form::Variable, Op::N, Op::T, 4, 4, 3, 17, 8,
                                                     true, rng);
}

TEST(BatchedEmulation, tiled) {
  auto rng = make_rng();
  for (Op a : kOps)
    for (Op b : kOps)
      emulate_case<double, TiledD, true>(Form::Strided, a, b, 20, 17, 9, 2, 0, a == Op::C, rng);
  // Variable sizes: blocks past an entry's C leave at once.
  emulate_case<double, TiledD, true>(Form::Variable, Op::N, Op::T, 37, 21, 19, 4, 0, false, rng);
  emulate_case<std::complex<float>, TiledC, true>(Form::Array, Op::C, Op::N, 17, 9, 6, 3, 0,
                                                  false, rng);
  emulate_case<std::complex<float>, TiledC, true>(Form::Variable, Op::T, Op::C, 19, 12, 11, 5, 0,
                                                  true, rng);
}

/// The instance lists themselves: names unique, exact squares 1..32 and the small-k
/// shapes present in the full build.
TEST(BatchedEmulation, instance_lists) {
  using kernels::cuda::batched::kSmallSpecs;
  using kernels::cuda::batched::kTiledSpecs;
  EXPECT_GE(kSmallSpecs.size(), 1u);
  EXPECT_GE(kTiledSpecs.size(), 1u);
#if !defined(MGBLAS_INSTANCES_CI)
  for (int s = 1; s <= 32; ++s) {
    bool found = false;
    for (const auto& x : kSmallSpecs) found = found || (x.exact && x.m == s && x.n == s && x.k == s);
    EXPECT_TRUE(found) << "no exact instance for size " << s;
  }
#endif
}

/// The dispatcher's host-side logic (no GPU needed): size classes, the registry, the
/// model's choices (an applicable instance with feasible E for every problem up to 128,
/// cuBLAS beyond for fixed sizes), the feasible E of every instance.
TEST(BatchedDispatch, classes_registry_and_model) {
  namespace bt = kernels::cuda::batched;
  using P = bt::Problem;
  EXPECT_EQ(bt::size_class(P{bt::Interface::Strided, 'd', Op::N, Op::N, 7, 7, 7, 1, false}), "7x7x7");
  EXPECT_EQ(bt::size_class(P{bt::Interface::PointerArray, 'd', Op::N, Op::N, 16, 16, 8, 1, false}),
            "16x16x8");
  EXPECT_EQ(bt::size_class(P{bt::Interface::Strided, 'd', Op::N, Op::N, 7, 5, 7, 1, false}), "mn8k8");
  EXPECT_EQ(bt::size_class(P{bt::Interface::Strided, 'd', Op::N, Op::N, 33, 40, 3, 1, false}),
            "mn48k4");
  EXPECT_EQ(bt::size_class(P{bt::Interface::Variable, 'z', Op::N, Op::N, 128, 100, 130, 1, false}),
            "vmn128kbig");
  EXPECT_EQ(bt::op_pair(Op::C, Op::T), "CT");
  for (const char* it = enabled_precision_letters(); *it; ++it) {
    const char prec = *it;
    const auto& all = bt::instances(prec);
    ASSERT_FALSE(all.empty());
    for (const auto& inst : all) {
      EXPECT_EQ(bt::find_instance(prec, inst.name), &inst);
      const auto es = bt::feasible_entries_per_block(inst);
      ASSERT_FALSE(es.empty()) << inst.name;
      if (inst.family == bt::Family::Small || inst.family == bt::Family::SmallBounded)
        for (int e : es) {
          EXPECT_LE(e * inst.threads_per_entry, inst.max_threads) << inst.name;
          EXPECT_LE(static_cast<int64_t>(e) * inst.shared_bytes, 48 * 1024) << inst.name;
        }
    }
    for (auto iface : {bt::Interface::Strided, bt::Interface::PointerArray, bt::Interface::Variable})
      for (int64_t m : {1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 64, 100, 128, 200})
        for (int64_t k : {1, 8, 32, 64}) {
          const P p{iface, prec, Op::N, Op::T, m, std::max<int64_t>(1, m / 2), k, 1000, false};
          const bt::Choice c = visit_scalar(prec, [&](auto tag) {
            return bt::model_choice<typename decltype(tag)::type>(p);
          });
          SCOPED_TRACE(c.label() + " for " + bt::size_class(p));
          if (c.kernel == "cublas") {
            EXPECT_NE(iface, bt::Interface::Variable);
            EXPECT_GT(std::max({m, k}), 32);
            continue;
          }
          ASSERT_NE(c.kernel, "generic");
          const auto* inst = bt::find_instance(prec, c.kernel);
          ASSERT_NE(inst, nullptr);
          EXPECT_TRUE(bt::applicable(*inst, p));
          if (inst->family != bt::Family::Tiled) {
            const auto es = bt::feasible_entries_per_block(*inst);
            EXPECT_NE(std::find(es.begin(), es.end(), c.entries_per_block), es.end());
          }
          if (std::max({m, k}) <= 32)
            EXPECT_NE(inst->family, bt::Family::Tiled) << "sizes <= 32 belong to the small family";
        }
  }
}

/// Tuning tables without a GPU: the built-in ones parse, MGBLAS_BATCHED_TABLE overrides
/// them entry by entry (an op pair first, then "*"), a broken file is an error naming it.
TEST(BatchedDispatch, tables) {
  namespace bt = kernels::cuda::batched;
  namespace bd_ = kernels::cuda::batched::detail;
  unsetenv("MGBLAS_BATCHED_TABLE");
  bt::reload_tables();
  EXPECT_NE(bt::table_sources().find("batched/sm_90.json"), std::string::npos) << bt::table_sources();
  const auto builtin = bd_::table_lookup("sm_90", 'd', "NN", "4x4x4");
  ASSERT_TRUE(builtin.has_value());
  EXPECT_NE(bt::find_instance('d', builtin->kernel), nullptr) << builtin->kernel;

  const std::string path = ::testing::TempDir() + "mgblas_batched_host_table.json";
  {
    std::ofstream f(path);
    f << R"({"format": "mgblas-batched-table/1", "tables": {"sm_90": {"note": "test",
          "d": {"TN": {"4x4x4": {"kernel": "tiled_x", "entries_per_block": 3}},
                "*": {"5x5x5": {"kernel": "cublas"}}},
          "summary": {"d": {}}}}})";
  }
  setenv("MGBLAS_BATCHED_TABLE", path.c_str(), 1);
  bt::reload_tables();
  EXPECT_NE(bt::table_sources().find(path + " (2)"), std::string::npos) << bt::table_sources();
  const auto tn = bd_::table_lookup("sm_90", 'd', "TN", "4x4x4");
  ASSERT_TRUE(tn.has_value());
  EXPECT_EQ(tn->kernel, "tiled_x");
  EXPECT_EQ(tn->entries_per_block, 3);
  EXPECT_EQ(tn->origin, path);
  const auto any = bd_::table_lookup("sm_90", 'd', "CC", "5x5x5");
  ASSERT_TRUE(any.has_value());
  EXPECT_EQ(any->kernel, "cublas");
  EXPECT_FALSE(bd_::table_lookup("sm_12", 'd', "NN", "4x4x4").has_value());
  {
    std::ofstream f(path);
    f << "{ broken";
  }
  bt::reload_tables();
  try {
    bt::table_sources();
    ADD_FAILURE() << "a broken table was accepted";
  } catch (const BadArgument& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  unsetenv("MGBLAS_BATCHED_TABLE");
  bt::reload_tables();
  std::remove(path.c_str());
}

#endif  // MGBLAS_HAVE_CUDA

}  // namespace
}  // namespace mgblas::testing
