// SPDX-License-Identifier: BSD-3-Clause
// Private helpers of the distributed Level-2 drivers (gemv_mgpu.cpp, symv_mgpu.cpp):
// argument agreement over ranks, the two forms of input and output vectors (host
// pointer or replicated DistVector), and block-cyclic gathers/scatters of vectors.
#pragma once

#include <cstdint>
#include <exception>
#include <initializer_list>
#include <vector>

#include "core/communicator.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/reducer.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas::detail {

// Reducer workspace slots the drivers use on each device.
inline constexpr int kSlotPartial = 0;  // the device's partial vector (full length)
inline constexpr int kSlotOperand = 1;  // x staged on a GPU (full or gathered)
inline constexpr int kSlotLocal = 2;    // op(A_local) * x before scattering (gemv T/C)

/// A fingerprint of what every rank must call identically: operation, op/uplo, sizes,
/// layout, and whether alpha/beta are zero (they select different code paths).
inline int64_t call_signature(std::initializer_list<int64_t> values) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the values' bytes
  for (int64_t v : values)
    for (int b = 0; b < 8; ++b)
      h = (h ^ ((static_cast<uint64_t>(v) >> (8 * b)) & 0xffu)) * 1099511628211ull;
  return static_cast<int64_t>(h >> 1);  // non-negative: -1 marks a failed rank
}

/// Runs the local argument checks of `what` on every rank, then agrees in one
/// collective both on the outcome (as all_or_nothing: a rank that failed rethrows its
/// own error, the others raise RemoteError) and on the call itself (every rank must
/// pass the same signature, else DimensionMismatch everywhere, before any rank
/// starts a collective the others would not join).
template <typename Check>
void agree_on_arguments(const Communicator& comm, const char* what, int64_t signature,
                        Check&& check) {
  std::exception_ptr failure;
  try {
    check();
  } catch (...) {
    failure = std::current_exception();
  }
  const int64_t key = failure ? -1 : signature;
  const std::vector<int64_t> keys = comm.size() > 1 ? comm.allgather(key) : std::vector{key};
  if (failure) std::rethrow_exception(failure);
  for (std::size_t r = 0; r < keys.size(); ++r)
    if (keys[r] < 0)
      MGBLAS_THROW(RemoteError, what, ": invalid arguments on rank ", r,
                   " (see that rank's error)");
  for (std::size_t r = 0; r < keys.size(); ++r)
    if (keys[r] != key)
      MGBLAS_THROW(DimensionMismatch, what, ": rank ", r,
                   " called with other sizes, layout or options than rank ", comm.rank(),
                   " (every rank must pass the same)");
}

/// A must be laid out over exactly the devices of ctx, and live on ctx.
template <Scalar T>
void check_matrix(const Context& ctx, const DistMatrix<T>& A) {
  if (A.layout().num_devices() != ctx.global_num_devices())
    MGBLAS_THROW(DimensionMismatch, "argument 'A': layout over P = ", A.layout().num_devices(),
                 " devices, but the context has ", ctx.global_num_devices(),
                 " devices over all ranks");
  if (&A.context() != &ctx)
    MGBLAS_THROW(BadArgument, "argument 'A' lives on another Context than the one given");
}

/// Copies the entries of a full-length vector `full` at the global columns that global
/// device g owns into `local` (local column order), through dev. Either pointer may be
/// host memory or memory of dev.
template <Scalar T>
void gather_local_columns(const Device& dev, const BlockCyclic1D& L, int g, const T* full,
                          T* local) {
  const int64_t blocks = L.local_blocks(g);
  if (blocks == 0) return;
  const int64_t nb = L.nb(), last = L.num_blocks() - 1;
  const bool ragged = L.block_owner(last) == g && L.block_width(last) < nb;
  const int64_t whole = blocks - (ragged ? 1 : 0);
  // Local block k comes from global block first_block + k * P: one strided copy.
  copy_2d(dev, local, nb * sizeof(T), full + L.global_col(g, 0), L.num_devices() * nb * sizeof(T),
          nb * sizeof(T), static_cast<std::size_t>(whole), /*async=*/true);
  if (ragged)
    copy_vector(dev, L.block_width(last), full + last * nb, local + whole * nb, /*async=*/true);
}

/// The reverse of gather_local_columns: local entries to their global positions
/// (other entries of `full` untouched).
template <Scalar T>
void scatter_local_columns(const Device& dev, const BlockCyclic1D& L, int g, const T* local,
                           T* full) {
  const int64_t blocks = L.local_blocks(g);
  if (blocks == 0) return;
  const int64_t nb = L.nb(), last = L.num_blocks() - 1;
  const bool ragged = L.block_owner(last) == g && L.block_width(last) < nb;
  const int64_t whole = blocks - (ragged ? 1 : 0);
  copy_2d(dev, full + L.global_col(g, 0), L.num_devices() * nb * sizeof(T), local,
          nb * sizeof(T), nb * sizeof(T), static_cast<std::size_t>(whole), /*async=*/true);
  if (ragged)
    copy_vector(dev, L.block_width(last), local + whole * nb, full + last * nb, /*async=*/true);
}

/// The input vector x of a driver: a host array every rank holds in full, or a
/// replicated DistVector (a full copy on each local device).
template <Scalar T>
class InputVector {
 public:
  explicit InputVector(const T* host) : host_(host) {}
  explicit InputVector(const DistVector<T>& v) : dist_(&v) {}

  void check(const Context& ctx, const char* name, int64_t n, bool needed) const {
    if (!dist_) {
      MGBLAS_CHECK_PTR(host_, name, needed);
      return;
    }
    if (&dist_->context() != &ctx)
      MGBLAS_THROW(BadArgument, "argument '", name, "' lives on another Context than A");
    if (dist_->kind() != VectorLayout::Replicated)
      MGBLAS_THROW(BadArgument, "argument '", name,
                   "' is block-cyclic: these operations take a replicated vector");
    if (dist_->n() != n)
      MGBLAS_THROW(DimensionMismatch, "argument '", name, "' has length ", dist_->n(),
                   ", expected ", n);
  }

  /// Where local device d reads the full vector from (host memory or memory of d).
  const T* source(int d) const { return dist_ ? dist_->local(d) : host_; }

  /// The full vector in memory device d can use in its kernels: host memory serves a
  /// host device as it is; a GPU gets a copy of a host array in the workspace.
  const T* on_device(Reducer& red, int d, int64_t n) const {
    const Device& dev = red.context().device(d);
    if (dist_ || !dev.is_gpu()) return source(d);
    T* buf = red.workspace<T>(d, kSlotOperand, n);
    copy_vector(dev, n, host_, buf, /*async=*/true);
    return buf;
  }

 private:
  const T* host_ = nullptr;
  const DistVector<T>* dist_ = nullptr;
};

/// The output vector y: a host array every rank holds, or a replicated DistVector,
/// which is assembled on the host and then copied to every local device.
template <Scalar T>
class OutputVector {
 public:
  explicit OutputVector(T* host) : host_(host) {}
  explicit OutputVector(DistVector<T>& v) : dist_(&v), staging_(static_cast<std::size_t>(v.n())) {}

  void check(const Context& ctx, const char* name, int64_t n, bool needed) const {
    InputVector<T> view = dist_ ? InputVector<T>(*dist_) : InputVector<T>(host_);
    view.check(ctx, name, n, needed);
  }

  /// The host array the reducer writes.
  T* host() { return dist_ ? staging_.data() : host_; }

  /// Bring y0 to host() when it will be read (a DistVector's copies are equal: the
  /// first local device's is taken).
  void load(bool needed) {
    if (!dist_ || !needed || staging_.empty()) return;
    const Device& dev = dist_->context().device(0);
    dev.make_current();
    copy_vector(dev, dist_->n(), dist_->local(0), staging_.data());
  }

  /// Publish host() to every local device of a DistVector.
  void store() {
    if (!dist_ || staging_.empty()) return;
    Context& ctx = dist_->context();
    for (int d = 0; d < ctx.num_devices(); ++d) {
      ctx.device(d).make_current();
      copy_vector(ctx.device(d), dist_->n(), staging_.data(), dist_->local(d), /*async=*/true);
    }
    for (int d = 0; d < ctx.num_devices(); ++d) ctx.device(d).synchronize();
  }

  /// y = beta * y: the whole operation when alpha == 0 or the inner dimension is 0.
  /// Local to each rank (every rank holds y). beta == 0 does not read y.
  void scale(int64_t n, T beta) {
    if (n == 0 || beta == T(1)) return;
    load(beta != T(0));
    T* y = host();
    for (int64_t i = 0; i < n; ++i) y[i] = beta == T(0) ? T(0) : beta * y[i];
    store();
  }

 private:
  T* host_ = nullptr;
  DistVector<T>* dist_ = nullptr;
  std::vector<T> staging_;
};

}  // namespace mgblas::detail
