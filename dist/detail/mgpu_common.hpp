// SPDX-License-Identifier: BSD-3-Clause
// Private helpers of the distributed Level-2 drivers (gemv_mgpu.cpp, symv_mgpu.cpp):
// argument agreement over ranks, and the forms of input and output vectors (host
// pointer, replicated DistVector, block-cyclic DistVector following A's columns).
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/agreement.hpp"
#include "core/communicator.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/dist_blas.hpp"
#include "dist/reducer.hpp"
#include "kernels/columns.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas::detail {

// Reducer workspace slots the drivers use on each device (the last slot is the
// reducer's own).
inline constexpr int kSlotPartial = 0;  // the device's partial vector (full length)
inline constexpr int kSlotOperand = 1;  // x staged on a GPU (full length)
inline constexpr int kSlotLocal = 2;    // x at the device's columns, or op(A_local) * x

/// Adds what every rank must pass identically about a distributed matrix argument:
/// its precision and layout.
template <Scalar T>
void add_matrix_fields(CallRecord& rec, const DistMatrix<T>& A) {
  const BlockCyclic1D& L = A.layout();
  rec.add_precision<T>()
      .add("A.m", L.m())
      .add("A.n", L.n())
      .add("A.nb", L.nb())
      .add("A.P", L.num_devices())
      .add("A.first", L.first());
}

/// Adds the fields the distributed Level-2 calls share after their own (op/uplo,
/// offsets): the scalars' exact bits, the vector forms, the reducer and the pipeline.
template <Scalar T, typename X, typename Y>
void add_level2_fields(CallRecord& rec, T alpha, T beta, const X& x, const Y& y,
                       const Reducer& red) {
  rec.add_scalar("alpha", alpha)
      .add_scalar("beta", beta)
      .add("x form", static_cast<int64_t>(x.form()))
      .add("y form", static_cast<int64_t>(y.form()))
      .add("reducer", static_cast<int64_t>(red.kind()))
      .add("pipeline chunks", red.pipeline_chunks());
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

/// Whether two layouts deal the same columns to the same devices (the rows may differ:
/// a block-cyclic vector is a 1 x n layout).
inline bool same_columns(const BlockCyclic1D& a, const BlockCyclic1D& b) {
  return a.n() == b.n() && a.nb() == b.nb() && a.num_devices() == b.num_devices() &&
         a.first() == b.first();
}

/// The three forms of a vector argument; the value enters the call signature.
enum class VectorForm : int64_t { Host = 1, Replicated = 2, BlockCyclic = 3 };

/// Checks a DistVector argument. `len` is the length a replicated vector must have;
/// `columns`, when not null, is the column layout a block-cyclic vector may follow
/// (it then has the layout's full length and the call uses its entries at columns
/// >= the call's first column); null forbids the block-cyclic form.
template <Scalar T>
void check_dist_vector(const Context& ctx, const DistVector<T>& v, const char* name, int64_t len,
                       const BlockCyclic1D* columns) {
  if (&v.context() != &ctx)
    MGBLAS_THROW(BadArgument, "argument '", name, "' lives on another Context than A");
  if (v.kind() == VectorLayout::BlockCyclic) {
    if (!columns)
      MGBLAS_THROW(BadArgument, "argument '", name,
                   "' is block-cyclic: this operation takes it replicated here (block-cyclic x "
                   "only for gemv op N, block-cyclic y only for gemv op T/C)");
    if (!same_columns(v.layout(), *columns))
      MGBLAS_THROW(DimensionMismatch, "argument '", name,
                   "' is block-cyclic over other columns than A (n, nb, P and first must match)");
    return;
  }
  if (v.n() != len)
    MGBLAS_THROW(DimensionMismatch, "argument '", name, "' has length ", v.n(), ", expected ", len);
}

/// 8 bytes of the context's first device for kernels/columns.hpp digest, made at the
/// first use and kept with the context.
inline uint64_t* digest_scratch(Context& ctx) {
  std::shared_ptr<void>& slot = ctx.attachment("dist.digest_scratch");
  if (!slot) slot = std::make_shared<DeviceBuffer<uint64_t>>(ctx.device(0), 1);
  return static_cast<DeviceBuffer<uint64_t>*>(slot.get())->data();
}

/// What a driver's x and y have in common: a host array or a DistVector (Vec is
/// DistVector<T> or const DistVector<T>, Ptr the matching pointer), its form and checks.
template <typename Ptr, typename Vec>
class VectorOperand {
 public:
  VectorForm form() const {
    if (!dist_) return VectorForm::Host;
    return dist_->kind() == VectorLayout::BlockCyclic ? VectorForm::BlockCyclic
                                                      : VectorForm::Replicated;
  }
  bool block_cyclic() const { return form() == VectorForm::BlockCyclic; }

  void check(const Context& ctx, const char* name, int64_t len, bool needed,
             const BlockCyclic1D* columns) const {
    if (!dist_) {
      MGBLAS_CHECK_PTR(host_, name, needed);
      return;
    }
    check_dist_vector(ctx, *dist_, name, len, columns);
  }

  /// When the context verifies inputs, adds a digest of the `len` entries every rank
  /// holds (a host array or a replicated vector's first device, digested where it lies:
  /// on a GPU by a kernel, kernels/columns.hpp digest; a block-cyclic vector holds
  /// different entries on each rank and adds nothing). Call after check().
  void add_digest(Context& ctx, CallRecord& rec, const char* name, int64_t len) const {
    using T = std::remove_cv_t<std::remove_pointer_t<Ptr>>;
    if (!ctx.verify_inputs() || len <= 0 || block_cyclic()) return;
    if (!dist_) {
      rec.add_digest(name, host_, static_cast<std::size_t>(len) * sizeof(T));
      return;
    }
    if (ctx.num_devices() == 0) return;
    rec.add_digest(name, digest<T>(ctx.device(0), len, dist_->local(0), digest_scratch(ctx)));
  }

  /// A block-cyclic vector's storage on local device d (local column order).
  Ptr local(int d) const { return dist_->local(d); }

 protected:
  explicit VectorOperand(Ptr host) : host_(host) {}
  explicit VectorOperand(Vec& v) : dist_(&v) {}
  VectorOperand(Ptr host, Vec* dist) : host_(host), dist_(dist) {}
  Ptr host_ = nullptr;
  Vec* dist_ = nullptr;
};

/// x and y of a Level-2 driver: both host arrays or both DistVectors (the one vector
/// argument type of the public calls holds either, the drivers support no mix).
template <typename X, typename Y>
void check_same_forms(const X& x, const Y& y) {
  const bool x_host = x.form() == VectorForm::Host, y_host = y.form() == VectorForm::Host;
  MGBLAS_CHECK_ARG(x_host == y_host, "y", y_host ? "a host array" : "a DistVector",
                   x_host ? "a host array, as x is" : "a DistVector, as x is");
}

/// The input vector x of a driver.
template <Scalar T>
class InputVector : public VectorOperand<const T*, const DistVector<T>> {
 public:
  explicit InputVector(const T* host) : VectorOperand<const T*, const DistVector<T>>(host) {}
  explicit InputVector(const DistVector<T>& v)
      : VectorOperand<const T*, const DistVector<T>>(v) {}
  explicit InputVector(const VectorIn<T>& v)
      : VectorOperand<const T*, const DistVector<T>>(v.host(), v.dist()) {}

  /// The full (replicated) vector in memory device d can use in its kernels: host
  /// memory serves a host device as it is; a GPU gets one copy of a host array.
  const T* on_device(Reducer& red, int d, int64_t n) const {
    const Device& dev = red.context().device(d);
    if (this->dist_) return this->dist_->local(d);
    if (!dev.is_gpu()) return this->host_;
    T* buf = red.workspace<T>(d, kSlotOperand, n);
    dev.make_current();
    copy_vector(dev, n, this->host_, buf, /*async=*/true);
    return buf;
  }
};

/// The output vector y of a driver.
template <Scalar T>
class OutputVector : public VectorOperand<T*, DistVector<T>> {
 public:
  explicit OutputVector(T* host) : VectorOperand<T*, DistVector<T>>(host) {}
  explicit OutputVector(DistVector<T>& v) : VectorOperand<T*, DistVector<T>>(v) {}
  explicit OutputVector(const VectorInOut<T>& v)
      : VectorOperand<T*, DistVector<T>>(v.host(), v.dist()) {}

  /// Where a reducer writes a host or replicated y.
  ReduceOutput<T> target() const {
    ReduceOutput<T> out;
    if (!this->dist_) {
      out.host = this->host_;
      return out;
    }
    for (int d = 0; d < this->dist_->context().num_devices(); ++d)
      out.devices.push_back(this->dist_->local(d));
    return out;
  }

  /// y = beta * y over its `len` entries (block-cyclic: the entries at columns >= c0),
  /// the whole operation when alpha == 0 or the inner dimension is 0. Local to each
  /// rank; returns with the devices synchronised. beta == 0 does not read y.
  void scale(Context& ctx, int64_t len, T beta, int64_t c0) {
    if (len == 0 || beta == T(1)) return;
    if (!this->dist_) {
      finish_sum_host<T>(len, nullptr, beta, this->host_);
      return;
    }
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const Device& dev = ctx.device(d);
      if (!this->block_cyclic()) {
        finish_sum<T>(Queue(dev), len, nullptr, beta, this->dist_->local(d));
        continue;
      }
      const BlockCyclic1D& L = this->dist_->layout();
      const int g = ctx.device_offset() + d;
      const int64_t first = local_begin(L, g, c0);
      finish_sum<T>(Queue(dev), L.local_n(g) - first, nullptr, beta,
                    this->dist_->local(d) + first);
    }
    ctx.synchronize();
  }
};

}  // namespace mgblas::detail
