// SPDX-License-Identifier: BSD-3-Clause
// Communicator: the ranks of a Context and the host-side collectives the library
// needs (control path, host reductions). Built on MPI when MGBLAS_HAVE_MPI and MPI is
// initialised; otherwise a single rank whose collectives are identities.
//
// The communicator is a duplicate of the caller's, with MPI_ERRORS_RETURN set, so
// that an MPI failure becomes an MpiError instead of aborting the job.
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

class Communicator {
 public:
  /// A single-rank communicator (no MPI).
  Communicator();
#if MGBLAS_HAVE_MPI
  /// Duplicates `comm` (collective over comm). MPI must be initialised.
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

  void barrier() const;
  /// In-place sum over ranks of `count` elements (chunked past INT_MAX).
  template <Scalar T> void allreduce_sum(T* buf, int64_t count) const;
  int64_t allreduce_max(int64_t v) const;
  int64_t allreduce_min(int64_t v) const;
  /// Logical AND of `ok` over ranks: how one rank's failure reaches every rank.
  bool all_ok(bool ok) const;
  /// Every rank's `v`, in rank order.
  std::vector<int64_t> allgather(int64_t v) const;
  /// Every rank's string, in rank order (for reports; strings of any length).
  std::vector<std::string> allgather(const std::string& s) const;
  /// Among the ranks of this node only.
  std::vector<std::string> allgather_local(const std::string& s) const;
  void bcast(void* buf, std::size_t bytes, int root) const;
  void send(const void* buf, std::size_t bytes, int dest, int tag) const;
  void recv(void* buf, std::size_t bytes, int source, int tag) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

/// Run `f` on every rank of `comm` and agree on the outcome: if it throws anywhere,
/// it throws everywhere (the failing ranks their own error, the others RemoteError
/// naming `what`), so no rank is left waiting in a later collective.
template <typename F>
void all_or_nothing(const Communicator& comm, const char* what, F&& f) {
  std::exception_ptr failure;
  try {
    f();
  } catch (...) {
    failure = std::current_exception();
  }
  const bool ok = comm.all_ok(!failure);
  if (failure) std::rethrow_exception(failure);
  if (!ok) MGBLAS_THROW(RemoteError, what, ": failed on another rank (see that rank's error)");
}

}  // namespace mgblas
