// SPDX-License-Identifier: BSD-3-Clause
// cuBLAS's symm / hemm against gemm for stage one's product shape (m x m symmetric or
// Hermitian times m x 32), s, d, c and z, side left, lower: the median of 9 calls after 2
// warm-ups, CUDA events; TF/s counts real flops (8 per complex multiply-add).
// Build and run (one GPU): nvcc -O2 -arch=sm_90 -o symm_n32 symm_n32.cu -lcublas && ./symm_n32
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <vector>

#define CK(x)                                                           \
  do {                                                                  \
    if ((x) != 0) {                                                     \
      std::printf("error %d at %s:%d\n", (int)(x), __FILE__, __LINE__); \
      return 1;                                                         \
    }                                                                   \
  } while (0)

template <typename T, typename F>
float median_ms(F&& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 2; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < 9; ++i) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[4];
}

template <typename T>
int run(cublasHandle_t h, const char* name) {
  for (int m : {2048, 4096, 8192, 16384}) {
    const int n = 32;
    T *A, *B, *C;
    CK(cudaMalloc(&A, sizeof(T) * m * m));
    CK(cudaMalloc(&B, sizeof(T) * m * n));
    CK(cudaMalloc(&C, sizeof(T) * m * n));
    cudaMemset(A, 0, sizeof(T) * m * m);
    cudaMemset(B, 0, sizeof(T) * m * n);
    T one{};
    if constexpr (std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>)
      one.x = 1;
    else
      one = 1;
    auto symm = [&] {
      if constexpr (std::is_same_v<T, float>)
        cublasSsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, &one, A, m, B, m, &one, C,
                    m);
      else if constexpr (std::is_same_v<T, double>)
        cublasDsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, &one, A, m, B, m, &one, C,
                    m);
      else if constexpr (std::is_same_v<T, cuComplex>)
        cublasChemm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, &one, A, m, B, m, &one, C,
                    m);
      else
        cublasZhemm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, &one, A, m, B, m, &one, C,
                    m);
    };
    auto gemm = [&](cublasOperation_t op) {
      if constexpr (std::is_same_v<T, float>)
        cublasSgemm(h, op, CUBLAS_OP_N, m, n, m, &one, A, m, B, m, &one, C, m);
      else if constexpr (std::is_same_v<T, double>)
        cublasDgemm(h, op, CUBLAS_OP_N, m, n, m, &one, A, m, B, m, &one, C, m);
      else if constexpr (std::is_same_v<T, cuComplex>)
        cublasCgemm(h, op, CUBLAS_OP_N, m, n, m, &one, A, m, B, m, &one, C, m);
      else
        cublasZgemm(h, op, CUBLAS_OP_N, m, n, m, &one, A, m, B, m, &one, C, m);
    };
    const float ts = median_ms<T>(symm), tn = median_ms<T>([&] { gemm(CUBLAS_OP_N); }),
                tt = median_ms<T>([&] { gemm(CUBLAS_OP_T); });
    const bool cplx = std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>;
    const double fl = (cplx ? 8.0 : 2.0) * m * m * n / 1e9;
    std::printf(
        "%s m=%5d n=32: symm %8.4f ms (%5.1f TF/s)  gemm N %8.4f ms (%5.1f)  gemm T %8.4f ms "
        "(%5.1f)\n",
        name, m, ts, fl / ts, tn, fl / tn, tt, fl / tt);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
  }
  return 0;
}

int main() {
  cublasHandle_t h;
  CK(cublasCreate(&h));
  if (run<float>(h, "s") || run<double>(h, "d") || run<cuComplex>(h, "c") ||
      run<cuDoubleComplex>(h, "z"))
    return 1;
  cublasDestroy(h);
  return 0;
}
