// SPDX-License-Identifier: BSD-3-Clause
// Loads and stores that bypass L1 (ld.cg / st.cg): for data that other multiprocessors
// write while a kernel runs (the bulge chases' bands, kernels/cuda/sb2st and gb2bd), since
// L1 is not coherent between multiprocessors.
#pragma once

#include <cuComplex.h>

#include <type_traits>

namespace mgblas::kernels::cuda::common {

template <typename D>
__device__ __forceinline__ D load_cg(const D* p) {
  if constexpr (std::is_same_v<D, cuFloatComplex>)
    return __ldcg(reinterpret_cast<const float2*>(p));
  else if constexpr (std::is_same_v<D, cuDoubleComplex>)
    return __ldcg(reinterpret_cast<const double2*>(p));
  else
    return __ldcg(p);
}

template <typename D>
__device__ __forceinline__ void store_cg(D* p, D v) {
  if constexpr (std::is_same_v<D, cuFloatComplex>)
    __stcg(reinterpret_cast<float2*>(p), v);
  else if constexpr (std::is_same_v<D, cuDoubleComplex>)
    __stcg(reinterpret_cast<double2*>(p), v);
  else
    __stcg(p, v);
}

}  // namespace mgblas::kernels::cuda::common
