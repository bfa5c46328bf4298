// SPDX-License-Identifier: BSD-3-Clause
#include "core/device.hpp"

#include "core/detail/cuda_runtime.hpp"
#include "core/error.hpp"

namespace mgblas {

int cuda_device_count() noexcept { return detail::cuda_count(); }

std::unique_ptr<Device> Device::make_host(int local_index) {
  std::unique_ptr<Device> d(new Device());
  d->backend_ = Backend::Host;
  d->local_index_ = local_index;
  return d;
}

std::unique_ptr<Device> Device::make_cuda(int local_index, int gpu_ordinal) {
  const int count = detail::cuda_count();
  MGBLAS_CHECK_ARG(gpu_ordinal >= 0 && gpu_ordinal < count, "gpu_ordinal", gpu_ordinal,
                   "a visible CUDA device in [0, ", count, ")");
  auto h = detail::cuda_device_create(gpu_ordinal);
  std::unique_ptr<Device> d(new Device());
  d->backend_ = Backend::Cuda;
  d->local_index_ = local_index;
  d->gpu_ = gpu_ordinal;
  d->stream_ = h.stream;
  d->side_ = h.side;
  d->cublas_ = h.cublas;
  d->pci_bus_id_ = h.pci_bus_id;
  d->product_ = h.product;
  return d;
}

Device::~Device() {
  if (is_gpu()) detail::cuda_device_destroy(gpu_, {stream_, side_, cublas_, {}, {}});
}

std::string Device::name() const {
  return is_gpu() ? detail::concat("cuda:", gpu_) : detail::concat("host:", local_index_);
}

void Device::make_current() const {
  if (is_gpu()) detail::cuda_set_device(gpu_);
}

void Device::synchronize() const {
  if (is_gpu()) detail::cuda_stream_sync(gpu_, stream_);
}

}  // namespace mgblas
