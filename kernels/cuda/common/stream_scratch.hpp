// SPDX-License-Identifier: BSD-3-Clause
// A kernel's scratch memory from the stream-ordered pool (cudaMallocAsync): freed on the
// same stream when the holder goes out of scope, also when a launch or a library call
// between them throws, so that no error path leaks it. The free is stream-ordered, so
// the work queued before it may still use the memory.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "core/detail/cuda_check.hpp"

namespace mgblas::kernels::cuda::common {

class StreamScratch {
 public:
  StreamScratch(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    MGBLAS_CHECK_CUDA(cudaMallocAsync(&ptr_, bytes, stream));
  }
  ~StreamScratch() {
    if (ptr_ != nullptr) (void)cudaFreeAsync(ptr_, stream_);  // a destructor cannot throw
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;

  template <typename U = void>
  U* as() const {
    return static_cast<U*>(ptr_);
  }
  unsigned char* bytes() const { return static_cast<unsigned char*>(ptr_); }

 private:
  void* ptr_ = nullptr;
  cudaStream_t stream_;
};

}  // namespace mgblas::kernels::cuda::common
