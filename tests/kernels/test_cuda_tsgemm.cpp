// SPDX-License-Identifier: BSD-3-Clause
// The tall-and-skinny GEMM engine (TSM2R, TSM2L, the A^H B k-split, cuBLAS fallback)
// on the GPU compared with the host engine on the same fresh random data, for s, d, c,
// z: every (n, k) from 1 to 33, m below and off the thread-block size, op(B) = T/C,
// op(A) = T/C, lda/ldb/ldc padding holding NaN (C's must come out untouched), beta = 0
// over NaN, complex alpha and beta, m = 2^22, zero sizes, every compiled tuning set
// with forced k-splits and grids, the dispatcher's labels, the model's inputs, and
// the errors of forced engines that do not cover a shape.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/blas.hpp"
#include "kernels/cuda/tsgemm/tsgemm.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

namespace ts = kernels::cuda::tsm2;

struct Case {
  Op opA = Op::N, opB = Op::N;
  int64_t m = 1, n = 1, k = 1;
  Scalars scalars = Scalars::Random;
  ts::Params params{};  ///< engine Auto and no overrides: the public entry (kernels/blas.hpp)
  int64_t pad_a = 3, pad_b = 2, pad_c = 5;  ///< ld - rows: NaN-filled padding
};

bool forced(const Case& c) {
  return c.params.engine != ts::Engine::Auto || c.params.variant >= 0 || c.params.split > 0 ||
         c.params.blocks > 0;
}

std::string describe(const Case& c) {
  return detail::concat("tsgemm opA=", to_string(c.opA), " opB=", to_string(c.opB), " m=", c.m,
                        " n=", c.n, " k=", c.k, " ", to_string(c.scalars), " pads=", c.pad_a, "/",
                        c.pad_b, "/", c.pad_c, forced(c) ? " forced " : " public entry",
                        forced(c) ? ts::to_string(c.params.engine) : "",
                        forced(c) ? detail::concat(" variant=", c.params.variant, " split=",
                                                   c.params.split, " blocks=", c.params.blocks)
                                  : std::string(),
                        ", ", seed_text());
}

template <Scalar T>
void run_case(const Case& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(c));
  // A is stored m x k for op N, k x m otherwise; B k x n or n x k.
  const int64_t rowsA = c.opA == Op::N ? c.m : c.k, colsA = c.opA == Op::N ? c.k : c.m;
  const int64_t rowsB = c.opB == Op::N ? c.k : c.n, colsB = c.opB == Op::N ? c.n : c.k;
  const int64_t lda = std::max<int64_t>(1, rowsA) + c.pad_a;
  const int64_t ldb = std::max<int64_t>(1, rowsB) + c.pad_b;
  const int64_t ldc = std::max<int64_t>(1, c.m) + c.pad_c;
  const std::vector<T> A = random_padded_matrix<T>(rowsA, colsA, lda, rng);
  const std::vector<T> B = random_padded_matrix<T>(rowsB, colsB, ldb, rng);
  std::vector<T> C0 = random_padded_matrix<T>(c.m, c.n, ldc, rng);
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  if (poisons_output(c.scalars))
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t i = 0; i < c.m; ++i) C0[i + j * ldc] = nan_value<T>();

  std::vector<T> C_ref = C0;
  tsgemm<T>(host(), c.opA, c.opB, c.m, c.n, c.k, alpha, A.data(), lda, B.data(), ldb, beta,
            C_ref.data(), ldc);
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  if (forced(c)) {
    gpu().make_current();
    ts::tsgemm<T>(gpu().cublas(), gpu().stream(), c.opA, c.opB, c.m, c.n, c.k, alpha, dA.data(),
                  lda, dB.data(), ldb, beta, dC.data(), ldc, c.params);
  } else {
    tsgemm<T>(gpu(), c.opA, c.opB, c.m, c.n, c.k, alpha, dA.data(), lda, dB.data(), ldb, beta,
              dC.data(), ldc);
  }
  const std::vector<T> C = download(dC);

  check_gemm(c.m, c.n, c.k, alpha, beta, rowsA, colsA, A, lda, rowsB, colsB, B, ldb, C0, C, C_ref,
             ldc, poisons_output(c.scalars));
}

template <typename T>
class Tsgemm_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Tsgemm_Cuda, TestScalars, PrecisionName);

// Every (n, k) in [1, 33]^2 through the public entry (TSM2L for k <= 32, TSM2R above,
// cuBLAS for n = 33), m drawn below, at and off the block sizes; beta = 0 over NaN on
// every third case.
TYPED_TEST(Tsgemm_Cuda, n_k_sweep) {
  auto rng = make_rng();
  static constexpr int64_t kM[] = {1, 5, 31, 64, 100, 127, 129, 257, 600};
  std::uniform_int_distribution<int> pick(0, static_cast<int>(std::size(kM)) - 1);
  int idx = 0;
  for (int64_t n = 1; n <= 33; ++n)
    for (int64_t k = 1; k <= 33; ++k, ++idx) {
      Case c{.m = kM[pick(rng)], .n = n, .k = k};
      c.scalars = idx % 3 == 0 ? Scalars::BetaZero : Scalars::Random;
      run_case<TypeParam>(c, rng);
    }
}

// op(B) = T and C (conjugation staged with B), on both kernels for op(A) = N.
TYPED_TEST(Tsgemm_Cuda, op_b_transposed) {
  auto rng = make_rng();
  const int64_t shapes[][3] = {{1000, 7, 5},  {333, 32, 32}, {129, 1, 1},   {2131, 16, 300},
                               {517, 3, 129}, {64, 32, 33},  {1000, 33, 8}, {45, 9, 1000}};
  for (Op opB : {Op::T, Op::C})
    for (const auto& s : shapes)
      for (Scalars sc : {Scalars::Random, Scalars::BetaZero})
        run_case<TypeParam>({.opB = opB, .m = s[0], .n = s[1], .k = s[2], .scalars = sc}, rng);
}

// A^T B and A^H B with two tall inputs: the k-split kernel for m, n <= 32, cuBLAS
// beyond or for op(B) != N.
TYPED_TEST(Tsgemm_Cuda, a_transposed_k_split) {
  auto rng = make_rng();
  const int64_t mn[][2] = {{1, 1}, {2, 5}, {8, 8}, {16, 3}, {31, 32}, {32, 32}, {33, 4}, {5, 40}};
  for (Op opA : {Op::T, Op::C})
    for (const auto& s : mn)
      for (int64_t k : {1, 37, 1000, 20011}) {
        run_case<TypeParam>({.opA = opA, .m = s[0], .n = s[1], .k = k}, rng);
        run_case<TypeParam>(
            {.opA = opA, .m = s[0], .n = s[1], .k = k, .scalars = Scalars::BetaZero}, rng);
      }
  // op(B) = T/C with op(A) = T/C goes to cuBLAS.
  run_case<TypeParam>({.opA = Op::C, .opB = Op::T, .m = 8, .n = 8, .k = 500}, rng);
  run_case<TypeParam>({.opA = Op::T, .opB = Op::C, .m = 3, .n = 7, .k = 500}, rng);
}

// m not a multiple of any block size, including m below one block, with wide padding.
TYPED_TEST(Tsgemm_Cuda, ragged_m_and_padding) {
  auto rng = make_rng();
  for (int64_t m : {1, 3, 31, 33, 63, 65, 127, 129, 255, 257, 1000, 2131})
    for (int64_t k : {8, 100}) {
      run_case<TypeParam>({.m = m, .n = 5, .k = k, .pad_a = 17, .pad_b = 9, .pad_c = 31}, rng);
      run_case<TypeParam>({.m = m, .n = 5, .k = k, .scalars = Scalars::BetaZero, .pad_a = 1,
                           .pad_b = 0, .pad_c = 0},
                          rng);
    }
}

// alpha = 0 and k = 0: C = beta * C (beta = 0: zeros over NaN); empty C.
TYPED_TEST(Tsgemm_Cuda, quick_returns) {
  auto rng = make_rng();
  for (Scalars s : {Scalars::AlphaZero, Scalars::BothZero, Scalars::Random, Scalars::BetaZero}) {
    run_case<TypeParam>({.m = 300, .n = 8, .k = 0, .scalars = s}, rng);
    run_case<TypeParam>({.opA = Op::T, .m = 8, .n = 8, .k = 0, .scalars = s}, rng);
    run_case<TypeParam>({.m = 0, .n = 8, .k = 8, .scalars = s}, rng);
    run_case<TypeParam>({.m = 300, .n = 0, .k = 8, .scalars = s}, rng);
    run_case<TypeParam>({.m = 0, .n = 0, .k = 0, .scalars = s}, rng);
  }
  for (Scalars s : {Scalars::AlphaZero, Scalars::BothZero})
    run_case<TypeParam>({.m = 300, .n = 8, .k = 500, .scalars = s}, rng);
}

// m = 2^22 (+5) through TSM2L, and a k-split over k = 2^22; TSM2R at m = 2^22 for s.
TYPED_TEST(Tsgemm_Cuda, large) {
  auto rng = make_rng();
  const int64_t big = (int64_t{1} << 22) + 5;
  run_case<TypeParam>({.m = big, .n = 4, .k = 8, .pad_a = 0, .pad_b = 0, .pad_c = 0}, rng);
  run_case<TypeParam>({.opA = Op::C, .m = 3, .n = 3, .k = big, .pad_a = 0}, rng);
  if constexpr (std::is_same_v<TypeParam, float>)
    run_case<TypeParam>({.m = big, .n = 2, .k = 40, .scalars = Scalars::BetaZero, .pad_a = 0,
                         .pad_b = 0, .pad_c = 0},
                        rng);
}

// Every compiled tuning set of every kernel, forced, with forced k-splits and grids
// (1 and several k ranges; one block and a handful, so threads walk many rows).
TYPED_TEST(Tsgemm_Cuda, every_kernel_path) {
  using T = TypeParam;
  auto rng = make_rng();
  gpu().make_current();
  for (int v = 0; v < ts::variant_count<T>(ts::Engine::Tsm2r); ++v)
    for (int64_t split : {1, 3, 0})
      for (Op opB : {Op::N, Op::C}) {
        ts::Params p{.engine = ts::Engine::Tsm2r, .variant = v, .split = split};
        run_case<T>({.opB = opB, .m = 301, .n = 19, .k = 777, .params = p}, rng);
        run_case<T>({.m = 130, .n = 4, .k = 300, .scalars = Scalars::BetaZero, .params = p}, rng);
        run_case<T>({.m = 70, .n = 33, .k = 40, .params = p}, rng);  // n > t2: several passes
      }
  for (int v = 0; v < ts::variant_count<T>(ts::Engine::Tsm2l); ++v) {
    // n up to the set's n_max: read it off the label ("tsm2l 128xn16x8 opt2").
    const std::string name = ts::variant_name<T>(ts::Engine::Tsm2l, v);
    const int n_max = std::stoi(name.substr(name.find("xn") + 2));
    for (int64_t blocks : {1, 7, 0})
      for (Op opB : {Op::N, Op::T, Op::C}) {
        ts::Params p{.engine = ts::Engine::Tsm2l, .variant = v, .blocks = blocks};
        run_case<T>({.opB = opB, .m = 5003, .n = n_max, .k = 32, .params = p}, rng);
        run_case<T>({.m = 999, .n = std::max(1, n_max - 3), .k = 5, .scalars = Scalars::BetaZero,
                     .params = p},
                    rng);
        run_case<T>({.m = 3, .n = 1, .k = 1, .params = p}, rng);
      }
  }
  for (int v = 0; v < ts::variant_count<T>(ts::Engine::Tsmttsm); ++v)
    for (int64_t split : {1, 5, 0})
      for (Op opA : {Op::T, Op::C}) {
        ts::Params p{.engine = ts::Engine::Tsmttsm, .variant = v, .split = split};
        run_case<T>({.opA = opA, .m = 13, .n = 9, .k = 4099, .params = p}, rng);
        run_case<T>({.opA = opA, .m = 40, .n = 2, .k = 600, .scalars = Scalars::BetaZero,
                     .params = p},
                    rng);  // m beyond the automatic range: still covered when forced
      }
  run_case<T>({.m = 500, .n = 8, .k = 8, .params = {.engine = ts::Engine::Cublas}}, rng);
}

// The TSM2L sets that spread a row's columns over threads (label " c<cols>"), forced
// over the k and n edges: k across chunk ends (t3) up to kMaxK, n across column-group
// ends (cols +- 1) up to n_max, m across block-row ends; several tiles per block.
TYPED_TEST(Tsgemm_Cuda, tsm2l_column_groups) {
  using T = TypeParam;
  auto rng = make_rng();
  gpu().make_current();
  int tested = 0;
  for (int v = 0; v < ts::variant_count<T>(ts::Engine::Tsm2l); ++v) {
    const std::string name = ts::variant_name<T>(ts::Engine::Tsm2l, v);
    const std::size_t at = name.find(" c");
    if (at == std::string::npos) continue;
    const int n_max = std::stoi(name.substr(name.find("xn") + 2));
    const int cols = std::stoi(name.substr(at + 2));
    ++tested;
    for (int64_t blocks : {1, 3, 0})
      for (int64_t k : {1, 2, 3, 5, 8, 9, 15, 16, 17, 31, 32})
        for (int64_t n : {1, cols - 1, cols, cols + 1, n_max - 1, n_max}) {
          if (n < 1 || n > n_max) continue;
          ts::Params p{.engine = ts::Engine::Tsm2l, .variant = v, .blocks = blocks};
          run_case<T>({.m = 1000, .n = n, .k = k, .params = p}, rng);
        }
    ts::Params p{.engine = ts::Engine::Tsm2l, .variant = v, .blocks = 2};
    for (int64_t m : {1, 31, 33, 127, 129, 255, 257, 2131})
      for (Op opB : {Op::N, Op::T, Op::C}) {
        run_case<T>({.opB = opB, .m = m, .n = n_max, .k = 32, .params = p}, rng);
        run_case<T>({.opB = opB, .m = m, .n = std::min(cols + 1, n_max), .k = 7,
                     .scalars = Scalars::BetaZero, .params = p, .pad_a = 0, .pad_b = 1,
                     .pad_c = 9},
                    rng);
      }
    // n_max + 1 is not this set's shape.
    EXPECT_THROW(run_case<T>({.m = 64, .n = n_max + 1, .k = 8, .params = p}, rng), BadArgument);
  }
  if (ts::variant_count<T>(ts::Engine::Tsm2l) > 1) EXPECT_GT(tested, 0) << "no column-group set built";
}

// What the dispatcher says it runs, and the model's inputs.
TYPED_TEST(Tsgemm_Cuda, dispatcher_and_model) {
  using T = TypeParam;
  gpu().make_current();
  const DeviceBuffer<T> buf(gpu(), 64);
  const T* p = buf.data();
  auto label = [&](Op opA, Op opB, int64_t m, int64_t n, int64_t k) {
    return std::string(ts::tsgemm_choice<T>(opA, opB, m, n, k, p, 1 << 20, p, 1 << 20,
                                            const_cast<T*>(p), 1 << 20));
  };
  // A kernel's shapes go to that kernel, or to cuBLAS where the model expects cuBLAS to
  // be faster (the table's cublas_fraction) or the table says it was measured faster, and
  // the label says which.
  auto kernel_or_model_cublas = [](const std::string& l, const char* kernel) {
    return l.rfind(kernel, 0) == 0 || l.rfind("cublas (the model predicts", 0) == 0 ||
           l.rfind("cublas (measured", 0) == 0;
  };
  EXPECT_PRED2(kernel_or_model_cublas, label(Op::N, Op::N, 1 << 20, 8, 8), "tsm2l");
  EXPECT_PRED2(kernel_or_model_cublas, label(Op::N, Op::T, 1 << 20, 16, 16), "tsm2l");
  EXPECT_PRED2(kernel_or_model_cublas, label(Op::N, Op::N, 20480, 16, 20480), "tsm2r");
  EXPECT_PRED2(kernel_or_model_cublas, label(Op::T, Op::N, 16, 16, 1 << 20), "tsmttsm");
  // Forcing the engine always names its tuning set.
  EXPECT_EQ(std::string(ts::choose<T>(Op::N, Op::N, 20480, 16, 20480, p, 1 << 20, p, 1 << 20, p,
                                      1 << 20, true, {.engine = ts::Engine::Tsm2r})
                            .label)
                .rfind("tsm2r", 0),
            0u);
  EXPECT_EQ(label(Op::N, Op::N, 20480, 64, 20480).rfind("cublas", 0), 0u);
  if constexpr (sizeof(real_type_t<T>) == 4)  // measured rule: TSM2R s n > 16, c n > 8
    EXPECT_EQ(label(Op::N, Op::N, 20480, 32, 20480).rfind("cublas (measured", 0), 0u);
  if constexpr (std::is_same_v<T, scomplex>)
    EXPECT_EQ(label(Op::N, Op::N, 20480, 16, 20480).rfind("cublas (measured", 0), 0u);
  EXPECT_EQ(label(Op::T, Op::T, 16, 16, 1 << 20).rfind("cublas", 0), 0u);
  EXPECT_EQ(label(Op::C, Op::N, 64, 64, 1 << 20).rfind("cublas", 0), 0u);
  if constexpr (std::is_same_v<T, zcomplex>) {
    // 8 bytes off: aligned for std::complex<double>, not for the kernels' double2 loads.
    const T* odd = reinterpret_cast<const T*>(reinterpret_cast<const char*>(p) + 8);
    EXPECT_EQ(std::string(ts::tsgemm_choice<T>(Op::N, Op::N, 1000, 8, 8, odd, 2000, p, 8,
                                               const_cast<T*>(p), 1000))
                  .rfind("cublas", 0),
              0u);
  }
  const ts::Choice c =
      ts::choose<T>(Op::N, Op::N, 1 << 22, 16, 16, p, 1 << 22, p, 16, p, 1 << 22, true);
  ASSERT_TRUE(c.prediction.valid) << ts::describe(c);
  EXPECT_GT(c.prediction.time_us, 0.0);
  EXPECT_GT(c.prediction.bytes, 0.0);
  const ts::DeviceModel& dm = ts::device_model();
  EXPECT_GT(dm.sms, 0);
  EXPECT_GT(dm.bw_gbs, 0.0);
  EXPECT_GT(dm.clock_ghz, 0.0);
  // Every compiled kernel is launchable and does not spill (the tuning sets' caps).
  for (ts::Engine e : {ts::Engine::Tsm2r, ts::Engine::Tsm2l, ts::Engine::Tsmttsm})
    for (int v = 0; v < ts::variant_count<T>(e); ++v) {
      const ts::KernelResources r = ts::variant_resources<T>(e, v);
      SCOPED_TRACE(ts::variant_name<T>(e, v));
      EXPECT_GT(r.blocks_per_sm, 0);
      EXPECT_GT(r.regs, 0);
      EXPECT_EQ(r.local_bytes, 0) << "spills: re-cap min_blocks in tsgemm_tuning.hpp";
    }
}

// Forced engines that cannot run a shape, and bad arguments at the public entry.
TYPED_TEST(Tsgemm_Cuda, errors) {
  using T = TypeParam;
  gpu().make_current();
  DeviceBuffer<T> buf(gpu(), 1 << 12);
  T* p = buf.data();
  auto forced_call = [&](ts::Params prm, Op opA, Op opB, int64_t m, int64_t n, int64_t k) {
    ts::tsgemm<T>(gpu().cublas(), gpu().stream(), opA, opB, m, n, k, T(1), p, 64, p, 64, T(0), p,
                  64, prm);
  };
  EXPECT_THROW(forced_call({.engine = ts::Engine::Tsm2l}, Op::N, Op::N, 64, 8, 40), BadArgument);
  EXPECT_THROW(forced_call({.engine = ts::Engine::Tsm2r}, Op::T, Op::N, 8, 8, 40), BadArgument);
  EXPECT_THROW(forced_call({.engine = ts::Engine::Tsmttsm}, Op::N, Op::N, 8, 8, 40), BadArgument);
  EXPECT_THROW(forced_call({.engine = ts::Engine::Tsmttsm}, Op::T, Op::T, 8, 8, 40), BadArgument);
  EXPECT_THROW(forced_call({.engine = ts::Engine::Tsm2r, .variant = 99}, Op::N, Op::N, 64, 8, 40),
               BadArgument);
  EXPECT_THROW(tsgemm<T>(gpu(), Op::N, Op::N, -1, 8, 8, T(1), p, 64, p, 64, T(0), p, 64),
               BadArgument);
  EXPECT_THROW(tsgemm<T>(gpu(), Op::N, Op::N, 100, 8, 8, T(1), p, 64, p, 64, T(0), p, 100),
               BadArgument);  // lda < m
  EXPECT_THROW(tsgemm<T>(gpu(), Op::N, Op::N, 64, 8, 8, T(1), nullptr, 64, p, 64, T(0), p, 64),
               BadArgument);
  gpu().synchronize();
}

}  // namespace
}  // namespace mgblas::testing
