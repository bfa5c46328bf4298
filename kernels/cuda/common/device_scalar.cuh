// SPDX-License-Identifier: BSD-3-Clause
// Device-side scalars for mgblas's own CUDA kernels (private, not installed).
//
// Kernels compute on float, double, cuFloatComplex (float2) and cuDoubleComplex
// (double2): the types cuBLAS uses, layout-compatible with std::complex, with plain
// arithmetic written out here. (cuda::std::complex's operator* adds C99 Annex G
// inf/NaN recovery branches that a BLAS kernel does not want in its inner loop.)
// Launchers convert once: device_ptr(p) for arrays, device_ptr_array(p) for arrays of
// pointers, to_device(v) for alpha/beta.
//
// The arithmetic is MGBLAS_SCALAR_FN: __host__ __device__ under nvcc, plain inline for
// the host compiler, so that the batched block programs' emulation test
// (tests/kernels/test_batched_host.cpp) runs the same helpers on CPU threads.
#pragma once

#include <cuComplex.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define MGBLAS_SCALAR_FN __host__ __device__ __forceinline__
#else
#define MGBLAS_SCALAR_FN inline
#endif

namespace mgblas::kernels::cuda::common {

template <typename T> struct DeviceScalar { using type = T; };
template <> struct DeviceScalar<std::complex<float>> { using type = cuFloatComplex; };
template <> struct DeviceScalar<std::complex<double>> { using type = cuDoubleComplex; };
/// The device type of an API scalar T.
template <typename T> using device_t = typename DeviceScalar<T>::type;

static_assert(sizeof(cuFloatComplex) == sizeof(std::complex<float>));
static_assert(sizeof(cuDoubleComplex) == sizeof(std::complex<double>));

// Arrays: same bytes, viewed as the device type. std::complex<double> arrays must be
// 16-byte aligned (as double2 loads require, and as cuBLAS requires too); device
// allocations are, and element offsets keep it.
template <typename T> device_t<T>* device_ptr(T* p) { return reinterpret_cast<device_t<T>*>(p); }
template <typename T> const device_t<T>* device_ptr(const T* p) {
  return reinterpret_cast<const device_t<T>*>(p);
}
/// Device arrays of pointers to arrays (batched operands).
template <typename T> device_t<T>* const* device_ptr_array(T* const* p) {
  return reinterpret_cast<device_t<T>* const*>(p);
}
template <typename T> const device_t<T>* const* device_ptr_array(const T* const* p) {
  return reinterpret_cast<const device_t<T>* const*>(p);
}

/// A host scalar as a kernel argument.
template <typename T> device_t<T> to_device(T v) {
  if constexpr (std::is_same_v<T, std::complex<float>>)
    return make_cuFloatComplex(v.real(), v.imag());
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return make_cuDoubleComplex(v.real(), v.imag());
  else return v;
}

// ---- arithmetic: one overload per device type ----------------------------------------
// mul_add(a, b, c) = a * b + c with fused multiply-adds (rounding as cuBLAS-like kernels).

MGBLAS_SCALAR_FN bool is_zero(float a) { return a == 0.0f; }
MGBLAS_SCALAR_FN bool is_zero(double a) { return a == 0.0; }
MGBLAS_SCALAR_FN bool is_zero(cuFloatComplex a) { return a.x == 0.0f && a.y == 0.0f; }
MGBLAS_SCALAR_FN bool is_zero(cuDoubleComplex a) { return a.x == 0.0 && a.y == 0.0; }

MGBLAS_SCALAR_FN float conj(float a) { return a; }
MGBLAS_SCALAR_FN double conj(double a) { return a; }
MGBLAS_SCALAR_FN cuFloatComplex conj(cuFloatComplex a) { return {a.x, -a.y}; }
MGBLAS_SCALAR_FN cuDoubleComplex conj(cuDoubleComplex a) { return {a.x, -a.y}; }

/// conj(a) when c, else a (a run-time choice, e.g. op = C of an operand).
template <typename D> MGBLAS_SCALAR_FN D maybe_conj(D a, bool c) { return c ? conj(a) : a; }

MGBLAS_SCALAR_FN float neg(float a) { return -a; }
MGBLAS_SCALAR_FN double neg(double a) { return -a; }
MGBLAS_SCALAR_FN cuFloatComplex neg(cuFloatComplex a) { return {-a.x, -a.y}; }
MGBLAS_SCALAR_FN cuDoubleComplex neg(cuDoubleComplex a) { return {-a.x, -a.y}; }

MGBLAS_SCALAR_FN float add(float a, float b) { return a + b; }
MGBLAS_SCALAR_FN double add(double a, double b) { return a + b; }
MGBLAS_SCALAR_FN cuFloatComplex add(cuFloatComplex a, cuFloatComplex b) {
  return {a.x + b.x, a.y + b.y};
}
MGBLAS_SCALAR_FN cuDoubleComplex add(cuDoubleComplex a, cuDoubleComplex b) {
  return {a.x + b.x, a.y + b.y};
}

MGBLAS_SCALAR_FN float mul(float a, float b) { return a * b; }
MGBLAS_SCALAR_FN double mul(double a, double b) { return a * b; }
MGBLAS_SCALAR_FN cuFloatComplex mul(cuFloatComplex a, cuFloatComplex b) {
  return {fmaf(a.x, b.x, -a.y * b.y), fmaf(a.x, b.y, a.y * b.x)};
}
MGBLAS_SCALAR_FN cuDoubleComplex mul(cuDoubleComplex a, cuDoubleComplex b) {
  return {fma(a.x, b.x, -a.y * b.y), fma(a.x, b.y, a.y * b.x)};
}

MGBLAS_SCALAR_FN float mul_add(float a, float b, float c) { return fmaf(a, b, c); }
MGBLAS_SCALAR_FN double mul_add(double a, double b, double c) { return fma(a, b, c); }
MGBLAS_SCALAR_FN cuFloatComplex mul_add(cuFloatComplex a, cuFloatComplex b, cuFloatComplex c) {
  return {fmaf(a.x, b.x, fmaf(-a.y, b.y, c.x)), fmaf(a.x, b.y, fmaf(a.y, b.x, c.y))};
}
MGBLAS_SCALAR_FN cuDoubleComplex mul_add(cuDoubleComplex a, cuDoubleComplex b,
                                         cuDoubleComplex c) {
  return {fma(a.x, b.x, fma(-a.y, b.y, c.x)), fma(a.x, b.y, fma(a.y, b.x, c.y))};
}

// ---- parts and construction ----------------------------------------------------------

template <typename D> struct DeviceReal { using type = D; };
template <> struct DeviceReal<cuFloatComplex> { using type = float; };
template <> struct DeviceReal<cuDoubleComplex> { using type = double; };
/// The real type of a device scalar.
template <typename D> using device_real_t = typename DeviceReal<D>::type;

MGBLAS_SCALAR_FN float real_part(float a) { return a; }
MGBLAS_SCALAR_FN double real_part(double a) { return a; }
MGBLAS_SCALAR_FN float real_part(cuFloatComplex a) { return a.x; }
MGBLAS_SCALAR_FN double real_part(cuDoubleComplex a) { return a.x; }
MGBLAS_SCALAR_FN float imag_part(float) { return 0.0f; }
MGBLAS_SCALAR_FN double imag_part(double) { return 0.0; }
MGBLAS_SCALAR_FN float imag_part(cuFloatComplex a) { return a.y; }
MGBLAS_SCALAR_FN double imag_part(cuDoubleComplex a) { return a.y; }
/// re + i im as the device scalar D (im dropped for real D); make_scalar<D>(0) and
/// make_scalar<D>(1) are zero and one.
template <typename D>
MGBLAS_SCALAR_FN D make_scalar(device_real_t<D> re, device_real_t<D> im = 0) {
  if constexpr (std::is_same_v<D, device_real_t<D>>) return re;
  else return D{re, im};
}
/// a with its imaginary part dropped, as D: the diagonal of a Hermitian matrix, whose
/// stored imaginary part BLAS ignores.
template <typename D> MGBLAS_SCALAR_FN D real_diag(D a) { return make_scalar<D>(real_part(a)); }
/// a - b.
template <typename D> MGBLAS_SCALAR_FN D sub(D a, D b) {
  return make_scalar<D>(real_part(a) - real_part(b), imag_part(a) - imag_part(b));
}
/// |a|^2.
template <typename D> MGBLAS_SCALAR_FN device_real_t<D> abs_sq(D a) {
  return real_part(a) * real_part(a) + imag_part(a) * imag_part(a);
}

#if defined(__CUDACC__)
/// *p += v atomically. Complex: the two parts are independent sums, so two scalar
/// atomics are exact.
__device__ __forceinline__ void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(cuFloatComplex* p, cuFloatComplex v) {
  atomicAdd(&p->x, v.x);
  atomicAdd(&p->y, v.y);
}
__device__ __forceinline__ void atomic_add(cuDoubleComplex* p, cuDoubleComplex v) {
  atomicAdd(&p->x, v.x);
  atomicAdd(&p->y, v.y);
}
#endif

// ---- launch arithmetic --------------------------------------------------------------

__host__ __device__ constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Blocks for `work` items of `per_block` each, capped (kernels grid-stride past the cap).
constexpr unsigned grid_dim(int64_t work, int64_t per_block, int64_t cap) {
  const int64_t blocks = ceil_div(work, per_block);
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > cap ? cap : blocks));
}

/// Hardware limit of gridDim.y and gridDim.z.
inline constexpr int64_t kMaxGridY = 65535;

}  // namespace mgblas::kernels::cuda::common
