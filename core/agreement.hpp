// SPDX-License-Identifier: BSD-3-Clause
// Collective argument agreement: the one way every collective entry of the library
// starts. Each rank runs its local checks (and allocations) and describes its call
// field by field in a CallRecord; one allgather then tells every rank
//   - whether any rank failed: then every rank raises (the failing ranks their own
//     error, the others RemoteError quoting the first failing rank's message);
//   - whether every rank is in the same call: the call's name and its sequence number
//     on this communicator (always, whatever verify_inputs says). When they differ,
//     every rank raises DimensionMismatch naming each rank's call and how many calls of
//     each kind involved each rank has begun, so that a skipped or extra call is
//     reported at the next call of another kind ("'gemv_mgpu' 3 on rank 0, 2 on rank 1")
//     instead of pairing silently with it. A skipped call followed only by calls of the
//     same kind pairs those calls one apart; only their inputs can tell them apart (the
//     digests below), and the last call then finds no partner (Timeout);
//   - whether every field matches: sizes, options, layouts, the exact bits of alpha
//     and beta, digests of replicated inputs. A difference raises DimensionMismatch on
//     every rank, naming the field and the ranks' values.
// Nothing is written before agree() returns, so an error leaves outputs untouched.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

#include "core/communicator.hpp"
#include "core/hash.hpp"
#include "core/types.hpp"

namespace mgblas {

class CallRecord {
 public:
  /// Fields one call can carry; enough for the widest entry (batched GEMM).
  static constexpr int kMaxFields = 32;

  /// `what` is the public name of the call ("gemv_mgpu"); it must outlive the record.
  explicit CallRecord(const char* what) : what_(what) {}

  const char* what() const noexcept { return what_; }

  /// A size, offset, enum or flag.
  CallRecord& add(const char* name, int64_t value) { return push(name, Kind::Integer, value); }
  /// The exact bits of a scalar (complex: real and imaginary parts as two fields).
  template <Scalar T>
  CallRecord& add_scalar(const char* name, T value) {
    if constexpr (is_complex_v<T>) {
      push(name, bits_kind<real_type_t<T>>(Part::Real), bits_of(value.real()));
      return push(name, bits_kind<real_type_t<T>>(Part::Imag), bits_of(value.imag()));
    } else {
      return push(name, bits_kind<T>(Part::Real), bits_of(value));
    }
  }
  /// The precision of the operands (s, d, c or z).
  template <Scalar T>
  CallRecord& add_precision(const char* name = "precision") {
    return push(name, Kind::Letter, precision_letter<T>());
  }
  /// A digest of `bytes` bytes every rank must hold identically (a replicated input).
  CallRecord& add_digest(const char* name, const void* data, std::size_t bytes) {
    return add_digest(name, hash_bytes(data, bytes));
  }
  /// A digest computed by the caller (hash.hpp).
  CallRecord& add_digest(const char* name, uint64_t digest) {
    return push(name, Kind::Digest, static_cast<int64_t>(digest));
  }

  // How a field's value reads in a message.
  enum class Kind : int { Integer, Letter, Float32, Float64, Float32Imag, Float64Imag, Digest };
  struct Field {
    const char* name;
    Kind kind;
    int64_t value;
  };
  const std::vector<Field>& fields() const noexcept { return fields_; }

 private:
  enum class Part { Real, Imag };
  template <typename R> static Kind bits_kind(Part p) {
    if constexpr (sizeof(R) == 4) return p == Part::Real ? Kind::Float32 : Kind::Float32Imag;
    else return p == Part::Real ? Kind::Float64 : Kind::Float64Imag;
  }
  static int64_t bits_of(float v) { return std::bit_cast<uint32_t>(v); }
  static int64_t bits_of(double v) { return std::bit_cast<int64_t>(v); }
  CallRecord& push(const char* name, Kind kind, int64_t value);

  const char* what_;
  std::vector<Field> fields_;
};

namespace detail {
/// The exchange behind agree(): `failure` is this rank's error from its checks (null
/// if they passed). Rethrows or raises as described above; returns on agreement.
void agree_on_call(const Communicator& comm, const CallRecord& record,
                   std::exception_ptr failure);
}  // namespace detail

/// Runs `check` (argument checks, allocations; it may add fields to `record`, e.g.
/// digests of inputs once they are known to be readable), then agrees with the other
/// ranks of `comm` on the outcome and on the call. Collective.
template <typename Check>
void agree(const Communicator& comm, CallRecord& record, Check&& check) {
  detail::agree_on_call(comm, record, detail::capture(check));
}

}  // namespace mgblas
