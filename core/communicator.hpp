// SPDX-License-Identifier: BSD-3-Clause
// Communicator: the ranks of a Context and the host-side collectives the library
// needs (control path, host reductions). Built on MPI when MGBLAS_HAVE_MPI and MPI is
// initialised; otherwise a single rank whose collectives are identities.
//
// The communicator is a duplicate of the caller's, with MPI_ERRORS_RETURN set, so
// that an MPI failure becomes an MpiError instead of aborting the job. Every
// operation is a non-blocking MPI call polled against a deadline (env
// MGBLAS_COMM_TIMEOUT seconds, default 300): a rank whose peers never join raises
// Timeout naming the operation and the library call it belongs to, instead of hanging.
// After a timeout the communicator is unusable (MPI cannot cancel a collective), and
// every later operation raises at once. Since MPI_Finalize would still wait for that
// collective, a job can ask to end instead (env MGBLAS_ABORT_ON_TIMEOUT=1, or
// ContextOptions::abort_on_timeout): the timeout's message goes to stderr and the rank
// calls MPI_Abort(MPI_COMM_WORLD, kTimeoutAbortCode), which ends every rank.
//
// Creating a communicator is itself a collective with the same deadline, and a bad
// MGBLAS_COMM_TIMEOUT or MGBLAS_ABORT_ON_TIMEOUT on one rank raises on every rank.
#pragma once

#include <cstddef>
#include <exception>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/error.hpp"
#include "core/types.hpp"

#if MGBLAS_HAVE_MPI
#include <mpi.h>
#endif

namespace mgblas {

/// The error code a timeout passes to MPI_Abort when aborting is asked for (that of
/// timeout(1)); mpiexec usually exits with it.
inline constexpr int kTimeoutAbortCode = 124;

class Communicator {
 public:
  /// A single-rank communicator (no MPI).
  Communicator();
#if MGBLAS_HAVE_MPI
  /// Duplicates `comm` (collective over comm, with the deadline of timeout()). MPI must
  /// be initialised. A bad environment on one rank raises on every rank (RemoteError on
  /// the others).
  explicit Communicator(MPI_Comm comm);
  /// The duplicated communicator, for callers that need raw MPI.
  MPI_Comm native() const;
#endif
  /// MPI_COMM_WORLD when MPI is built and initialised, else a single rank.
  static Communicator world();

  int rank() const noexcept;
  int size() const noexcept;
  /// Rank and size among the ranks of this node (MPI_Comm_split_type shared).
  int local_rank() const noexcept;
  int local_size() const noexcept;
  bool uses_mpi() const noexcept;
  /// Name of this node (MPI_Get_processor_name or gethostname).
  std::string hostname() const;

  /// Seconds an operation may wait for the other ranks (MGBLAS_COMM_TIMEOUT).
  double timeout() const noexcept;
  /// Whether a timeout ends the job (MPI_Abort) instead of raising Timeout; from env
  /// MGBLAS_ABORT_ON_TIMEOUT=0|1 (default 0), changed by Context::create when its
  /// options say so. Shared by every copy of this communicator.
  bool abort_on_timeout() const noexcept;
  void set_abort_on_timeout(bool on) const noexcept;
  /// What a timeout does when abort_on_timeout() is on (here and in dist/'s NCCL
  /// waits): `message` to stderr, then MPI_Abort(MPI_COMM_WORLD, kTimeoutAbortCode).
  [[noreturn]] static void abort_job(const std::string& message);

  /// Counts this rank's collective library calls on this communicator and remembers
  /// the current one (for agreement and timeout messages). Returns the call's number.
  int64_t begin_call(const char* what) const;
  /// Number and name of the current call (0 and "" before the first).
  int64_t call_number() const noexcept;
  const char* call_name() const noexcept;
  /// How many calls of one kind this rank has begun, the kind named by the hash of its
  /// name (hash_bytes of what): the agreement's messages say which rank made fewer.
  int64_t calls_of_kind(uint64_t kind) const noexcept;

  void barrier() const;
  /// In-place sum over ranks of `count` elements (chunked past INT_MAX).
  template <Scalar T> void allreduce_sum(T* buf, int64_t count) const;
  int64_t allreduce_max(int64_t v) const;
  int64_t allreduce_min(int64_t v) const;
  /// Logical AND of `ok` over ranks: how one rank's failure reaches every rank.
  bool all_ok(bool ok) const;
  /// Every rank's `v`, in rank order.
  std::vector<int64_t> allgather(int64_t v) const;
  /// Every rank's `count` values, rank r's at [r * count, (r + 1) * count).
  std::vector<int64_t> allgather(const int64_t* v, int count) const;
  /// Every rank's string, in rank order (for reports; strings of any length).
  std::vector<std::string> allgather(const std::string& s) const;
  /// Among the ranks of this node only.
  std::vector<std::string> allgather_local(const std::string& s) const;
  void bcast(void* buf, std::size_t bytes, int root) const;
  void send(const void* buf, std::size_t bytes, int dest, int tag) const;
  void recv(void* buf, std::size_t bytes, int source, int tag) const;
  /// Personalised all-to-all of bytes: rank r's block for rank q is send_bytes[q] bytes
  /// of `send` from offset send_offset[q] and lands at recv + recv_offset[r] on q, which
  /// passes recv_bytes[r] equal to it. Every vector has size() entries. Any length (no
  /// int limit); every transfer is posted at once and waited for against the deadline.
  void alltoallv(const void* send, const std::vector<std::size_t>& send_bytes,
                 const std::vector<std::size_t>& send_offset, void* recv,
                 const std::vector<std::size_t>& recv_bytes,
                 const std::vector<std::size_t>& recv_offset) const;

  /// The shared state (opaque; public so that communicator.cpp's helpers can name it).
  struct State;

 private:
  std::shared_ptr<State> state_;
};

namespace detail {
/// Runs f and returns what it threw (null if nothing): a rank's checks, before it
/// tells the other ranks how they went.
template <typename F>
std::exception_ptr capture(F&& f) {
  try {
    f();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

/// Agrees on whether any rank failed; if one did, every rank raises (the failing ranks
/// their own error, the others RemoteError naming `what`, the failing rank and its
/// message). Defined in core/agreement.cpp.
void agree_on_outcome(const Communicator& comm, const char* what, std::exception_ptr failure);
}  // namespace detail

/// Run `f` on every rank of `comm` and agree on the outcome: if it throws anywhere,
/// it throws everywhere, so no rank is left waiting in a later collective.
template <typename F>
void all_or_nothing(const Communicator& comm, const char* what, F&& f) {
  detail::agree_on_outcome(comm, what, detail::capture(f));
}

}  // namespace mgblas
