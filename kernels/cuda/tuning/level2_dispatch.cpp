// SPDX-License-Identifier: BSD-3-Clause
// Level-2 dispatcher: table lookup plus the conditions under which mgblas's kernels
// cannot run (operands not aligned to their element type) or cuBLAS cannot (sizes past
// its 32-bit int).
#include "kernels/cuda/tuning/level2_dispatch.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <complex>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/gemv/gemv.hpp"
#include "kernels/cuda/symv/symv.hpp"
#include "kernels/cuda/tuning/level2_table.hpp"

namespace mgblas::kernels::cuda::level2 {
namespace {

constexpr int kMaxDevices = 64;

struct CachedInfo {
  std::atomic<int> sms{0};
  std::atomic<int> cc{0};
};
std::array<CachedInfo, kMaxDevices> g_info;

const CachedInfo& current_info() {
  int dev = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  if (dev < 0 || dev >= kMaxDevices)
    MGBLAS_THROW(NotImplemented, "device ordinal ", dev, " beyond ", kMaxDevices);
  CachedInfo& info = g_info[static_cast<std::size_t>(dev)];
  if (info.sms.load(std::memory_order_acquire) == 0) {
    int sms = 0, major = 0, minor = 0;
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    info.cc.store(major * 10 + minor, std::memory_order_relaxed);
    info.sms.store(sms, std::memory_order_release);
  }
  return info;
}

/// mgblas's kernels read A, x and y as their device element type: each pointer must
/// be aligned to it (8 bytes for std::complex<float>, 16 for std::complex<double>).
template <Scalar T>
bool element_aligned(const T* p) {
  constexpr std::size_t align = is_complex_v<T> ? 2 * sizeof(real_type_t<T>) : sizeof(T);
  return reinterpret_cast<uintptr_t>(p) % align == 0;
}

bool beyond_int(int64_t v) { return v > INT_MAX; }

Choice lookup(char prec, Kind kind, char uplo, int64_t min_dim, int64_t max_dim) {
  const int cc = compute_capability();
  for (const Rule& r : kLevel2Rules) {
    if ((r.cc == 0 || r.cc == cc) && (r.prec == '*' || r.prec == prec) && r.kind == kind &&
        (r.uplo == '*' || r.uplo == uplo) && min_dim <= r.max_min_dim && max_dim <= r.max_dim)
      return {r.engine, r.variant, r.label};
  }
  return {Engine::Mgblas, 0, "mgblas v0 [no rule]"};
}

/// A rule may name a tuning set that the narrow CI instance list does not build.
Choice built(Choice c, int count) {
  if (c.engine == Engine::Mgblas && c.variant >= count)
    return {Engine::Mgblas, 0, "mgblas v0 [the table's tuning set is not built: MGBLAS_INSTANCES=ci]"};
  return c;
}

}  // namespace

int multiprocessor_count() { return current_info().sms.load(std::memory_order_acquire); }
int compute_capability() {
  const CachedInfo& info = current_info();
  return info.cc.load(std::memory_order_relaxed);
}

template <Scalar T>
Choice choose_gemv(Op op, int64_t m, int64_t n, const T* A, int64_t lda, const T* x,
                   int64_t incx, const T* y, int64_t incy) {
  if (beyond_int(m) || beyond_int(n) || beyond_int(lda) || beyond_int(incx) || beyond_int(incy))
    return {Engine::Mgblas, 0, "mgblas v0 [sizes beyond cuBLAS's int]"};
  if (!element_aligned(A) || !element_aligned(x) || !element_aligned(y))
    return {Engine::Cublas, 0, "cublas [operand not aligned to its element type]"};
  // cuBLAS's transposed GEMV runs at half speed once the matrix holds 2^31 elements or
  // more (H200, 2026-11-22: d 65536 x 65536 17.3 ms against 7.6 ms for op N; the same on
  // 65536 x 32768, not on 65536 x 16384): mgblas's set 1 there.
  if (op != Op::N && m * n >= (int64_t{1} << 31) && gemv_variant_count<T>(op) > 1)
    return {Engine::Mgblas, 1, "mgblas v1 [gemvT, m n >= 2^31: cuBLAS at half speed there]"};
  return built(lookup(precision_letter<T>(), op == Op::N ? Kind::GemvN : Kind::GemvT, '*',
                      std::min(m, n), std::max(m, n)),
               gemv_variant_count<T>(op));
}

template <Scalar T>
Choice choose_symv(Uplo uplo, bool hermitian, int64_t n, const T* A, int64_t lda, const T* x,
                   int64_t incx, const T* y, int64_t incy) {
  if (beyond_int(n) || beyond_int(lda) || beyond_int(incx) || beyond_int(incy))
    return {Engine::Mgblas, 0, "mgblas v0 [sizes beyond cuBLAS's int]"};
  if (!element_aligned(A) || !element_aligned(x) || !element_aligned(y))
    return {Engine::Cublas, 0, "cublas [operand not aligned to its element type]"};
  return built(lookup(precision_letter<T>(), Kind::Symv, uplo == Uplo::Lower ? 'L' : 'U', n, n),
               symv_variant_count<T>());
}

#define MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_(T) MGBLAS_LEVEL2_DISPATCH_DECLARE_(, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_)
#undef MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_

}  // namespace mgblas::kernels::cuda::level2
