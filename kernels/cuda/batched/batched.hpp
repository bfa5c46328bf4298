// SPDX-License-Identifier: BSD-3-Clause
// mgblas's batched small GEMM engine, host side (private to the CUDA engine, its tests,
// the tuner and the testers). Plain C++: no CUDA header is needed to call it.
//
// One call C_i = alpha op(A_i) op(B_i) + beta C_i, i < batch, in one of three forms
// (strided, pointer arrays, variable size; kernels/batched_kernels.hpp) is run by one
// of the compiled kernel instances (batched_tuning.hpp):
//   small    sizes <= 32, several whole entries per block (E, chosen per call);
//            "small_MxNxK_tAxB" compile-time sizes, "smallb_MxNxK_tAxB" bounds;
//   tiled    a block per C tile of one entry, any size ("tiled_BMxBNxBK_dXxY");
//   generic  the engine's simple variable-size kernel (kernels/cuda/batched/gemm_vbatched.cu);
//   cublas   cublas<t>gemmStridedBatched / gemmBatched (fixed sizes only).
// The dispatcher picks one per call: a forced choice (tests, tuner) first, then the
// tuning table of the device's architecture (tables/<arch>.json, schema and loader in
// common/tuning_table.hpp), then the model (model_choice, batched_dispatch.cpp), and
// falls back to cuBLAS or the generic kernel where no instance applies. last_choice()
// reports what the calling thread ran last and why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/types.hpp"

namespace mgblas::kernels::cuda::batched {

enum class Interface : unsigned char { Strided, PointerArray, Variable };
enum class Family : unsigned char { Small, SmallBounded, Tiled, Generic, Cublas };

const char* to_string(Interface i);
const char* to_string(Family f);

/// What the dispatcher knows about a call (sizes of a fixed-size call, or the
/// maxima of a variable-size one).
struct Problem {
  Interface iface = Interface::Strided;
  char prec = 'd';
  Op opA = Op::N, opB = Op::N;
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 0;
  bool alpha_one_beta_zero = false;
};

/// A kernel instance and its launch parameter.
struct Choice {
  Family family = Family::Cublas;
  std::string kernel;         ///< instance name ("small_4x4x4_t2x2", "cublas", ...)
  int entries_per_block = 0;  ///< E of the small family; 0 elsewhere
  std::string source;         ///< "table sm_90 (builtin)", "model", "forced", ...
  /// "small_4x4x4_t2x2 E=32 [table sm_90 (builtin) d NN 4x4x4]"
  std::string label() const;
};

/// What the dispatcher would run for `p` on the current device (no launch).
template <Scalar T> Choice choose(const Problem& p);

/// The choice of the last batched call made by this thread (empty kernel: none yet).
Choice last_choice();

/// Force a kernel for the calls of this thread (tests, tuner, tester): instance name
/// and E (0: the model's E). A forced choice that cannot run the call (sizes beyond
/// its bounds, or not built) raises BadArgument at the call. "cublas" and "generic"
/// may be forced too.
struct Forced {
  std::string kernel;
  int entries_per_block = 0;
};
void set_forced(std::optional<Forced> f);
std::optional<Forced> forced();
/// RAII form of set_forced, restoring the previous setting.
class ScopedForce {
 public:
  explicit ScopedForce(Forced f) : previous_(forced()) { set_forced(std::move(f)); }
  ~ScopedForce() { set_forced(previous_); }
  ScopedForce(const ScopedForce&) = delete;
  ScopedForce& operator=(const ScopedForce&) = delete;

 private:
  std::optional<Forced> previous_;
};

/// Testing hook: at most this many blocks per kernel launch (0: the hardware limit,
/// 2^31 - 1), so that split launches are exercised with small batches.
void set_max_blocks_per_launch(int64_t blocks);

/// A compiled kernel instance, as the tuner sees it.
struct InstanceInfo {
  std::string name;
  Family family = Family::Small;
  int m = 0, n = 0, k = 0;  ///< small: sizes (exact) or bounds; tiled: tile BM, BN, BK
  int tm = 0, tn = 0;       ///< small: C elements per thread; tiled: threads DX, DY
  int threads_per_entry = 0;  ///< small: threads per entry; tiled: threads per block
  int shared_bytes = 0;       ///< small: dynamic bytes per entry; tiled: static per block
  int max_threads = 0;        ///< launch bounds
  bool alpha_one_beta_zero = false;  ///< an alpha = 1, beta = 0 instance is built too
};
/// The instances of precision `prec` ('s', 'd', 'c', 'z') built into this library
/// (the CI instance list is narrower: MGBLAS_INSTANCES=ci).
const std::vector<InstanceInfo>& instances(char prec);
const InstanceInfo* find_instance(char prec, const std::string& name);

/// Registers per thread, static shared bytes and the maximum block size of an
/// instance on the current device (cudaFuncGetAttributes), for the tuner's hard
/// constraints.
struct KernelAttributes {
  int registers = 0;
  int static_shared_bytes = 0;
  int max_threads_per_block = 0;
  int local_bytes = 0;
};
KernelAttributes attributes(char prec, const std::string& name, bool alpha_one_beta_zero);

/// Whether `inst` can run problem `p` at all (sizes within its bounds, ...).
bool applicable(const InstanceInfo& inst, const Problem& p);
/// The entries-per-block values that satisfy the hard constraints of `inst`
/// (threads <= launch bounds, shared memory <= 48 KiB), ascending powers of two.
std::vector<int> feasible_entries_per_block(const InstanceInfo& inst);

/// The size class of a problem, the key of the tuning table: "MxNxK" for the shapes
/// with compile-time instances (squares 1..32 and m = n in {8, 16, 32} with k in
/// {8, 16, 32}), else "mnAkB" with A, B the buckets {2, 4, 8, 16, 32, 48, 64, 96, 128,
/// big} of max(m, n) and k; variable size prefixes "v".
std::string size_class(const Problem& p);
/// "NN", "TC", ...
std::string op_pair(Op opA, Op opB);

/// The model's choice (no table): also what the tuner compares the tuned choice with.
template <Scalar T> Choice model_choice(const Problem& p);

/// Which tuning tables are loaded ("builtin: batched/sm_80.json (236) ...; env
/// MGBLAS_TUNING_TABLE: /path (3)"); BadArgument for a malformed one.
std::string table_sources();
/// Reload the tables (after the environment changed); tests only.
void reload_tables();

// ---- the calls (arguments as kernels::cuda::gemm_batched_* after validation) -------

template <Scalar T>
void gemm_strided(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,
                  int64_t k, T alpha, const T* A, int64_t lda, int64_t strideA, const T* B,
                  int64_t ldb, int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC,
                  int64_t batch);

template <Scalar T>
void gemm_pointer_array(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m,
                        int64_t n, int64_t k, T alpha, const T* const* Aarray, int64_t lda,
                        const T* const* Barray, int64_t ldb, T beta, T* const* Carray,
                        int64_t ldc, int64_t batch);

template <Scalar T>
void gemm_variable(const Device& dev, cudaStream_t stream, Op opA, Op opB, const int64_t* m,
                   const int64_t* n, const int64_t* k, T alpha, const T* const* Aarray,
                   const int64_t* lda, const T* const* Barray, const int64_t* ldb, T beta,
                   T* const* Carray, const int64_t* ldc, int64_t batch, int64_t max_m,
                   int64_t max_n, int64_t max_k);

/// Variable-size batched gemm with the simple tiled kernel of batched/gemm_vbatched.cu
/// (arguments as kernels::cuda::gemm_vbatched, all arrays device memory). With
/// max_k == 0 or alpha == 0 only m, n, ldc and Carray are read.
template <Scalar T>
void gemm_vbatched_tiled(cudaStream_t stream, Op opA, Op opB, const int64_t* m,
                         const int64_t* n, const int64_t* k, T alpha, const T* const* Aarray,
                         const int64_t* lda, const T* const* Barray, const int64_t* ldb, T beta,
                         T* const* Carray, const int64_t* ldc, int64_t batch, int64_t max_m,
                         int64_t max_n, int64_t max_k);

}  // namespace mgblas::kernels::cuda::batched
