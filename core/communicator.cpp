// SPDX-License-Identifier: BSD-3-Clause
#include "core/communicator.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "core/error.hpp"
#if MGBLAS_HAVE_MPI
#include "core/detail/mpi_check.hpp"
#endif

namespace mgblas {

struct Communicator::State {
  int rank = 0;
  int size = 1;
  int local_rank = 0;
  int local_size = 1;
#if MGBLAS_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm node = MPI_COMM_NULL;
  ~State() {
    // Freeing after MPI_Finalize is erroneous; then the handles just die with MPI.
    int fin = 0;
    MPI_Finalized(&fin);
    if (fin) return;
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
#endif
};

Communicator::Communicator() : state_(std::make_shared<State>()) {}

#if MGBLAS_HAVE_MPI
namespace {
bool mpi_active() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

template <typename T> MPI_Datatype mpi_type();
template <> MPI_Datatype mpi_type<float>() { return MPI_FLOAT; }
template <> MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }
template <> MPI_Datatype mpi_type<scomplex>() { return MPI_C_FLOAT_COMPLEX; }
template <> MPI_Datatype mpi_type<zcomplex>() { return MPI_C_DOUBLE_COMPLEX; }

// MPI counts are int: split large transfers into chunks below INT_MAX elements.
constexpr int64_t kMaxChunk = INT_MAX / 2;
}  // namespace

Communicator::Communicator(MPI_Comm comm) : state_(std::make_shared<State>()) {
  if (!mpi_active()) MGBLAS_THROW(MpiError, "MPI is not initialised (call MPI_Init first)");
  MGBLAS_CHECK_MPI(MPI_Comm_dup(comm, &state_->comm));
  MGBLAS_CHECK_MPI(MPI_Comm_set_errhandler(state_->comm, MPI_ERRORS_RETURN));
  MGBLAS_CHECK_MPI(MPI_Comm_rank(state_->comm, &state_->rank));
  MGBLAS_CHECK_MPI(MPI_Comm_size(state_->comm, &state_->size));
  MGBLAS_CHECK_MPI(MPI_Comm_split_type(state_->comm, MPI_COMM_TYPE_SHARED, state_->rank,
                                       MPI_INFO_NULL, &state_->node));
  MGBLAS_CHECK_MPI(MPI_Comm_set_errhandler(state_->node, MPI_ERRORS_RETURN));
  MGBLAS_CHECK_MPI(MPI_Comm_rank(state_->node, &state_->local_rank));
  MGBLAS_CHECK_MPI(MPI_Comm_size(state_->node, &state_->local_size));
}

MPI_Comm Communicator::native() const { return state_->comm; }

Communicator Communicator::world() {
  return mpi_active() ? Communicator(MPI_COMM_WORLD) : Communicator();
}
#else
Communicator Communicator::world() { return Communicator(); }
#endif

int Communicator::rank() const noexcept { return state_->rank; }
int Communicator::size() const noexcept { return state_->size; }
int Communicator::local_rank() const noexcept { return state_->local_rank; }
int Communicator::local_size() const noexcept { return state_->local_size; }

bool Communicator::uses_mpi() const noexcept {
#if MGBLAS_HAVE_MPI
  return state_->comm != MPI_COMM_NULL;
#else
  return false;
#endif
}

std::string Communicator::hostname() const {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

void Communicator::barrier() const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) MGBLAS_CHECK_MPI(MPI_Barrier(state_->comm));
#endif
}

template <Scalar T>
void Communicator::allreduce_sum(T* buf, int64_t count) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi() || state_->size == 1) return;
  for (int64_t off = 0; off < count; off += kMaxChunk) {
    const int n = static_cast<int>(std::min(kMaxChunk, count - off));
    MGBLAS_CHECK_MPI(
        MPI_Allreduce(MPI_IN_PLACE, buf + off, n, mpi_type<T>(), MPI_SUM, state_->comm));
  }
#else
  (void)buf;
  (void)count;
#endif
}
#define MGBLAS_INSTANTIATE(T) template void Communicator::allreduce_sum<T>(T*, int64_t) const;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

int64_t Communicator::allreduce_max(int64_t v) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi())
    MGBLAS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_MAX, state_->comm));
#endif
  return v;
}

int64_t Communicator::allreduce_min(int64_t v) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi())
    MGBLAS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_MIN, state_->comm));
#endif
  return v;
}

bool Communicator::all_ok(bool ok) const { return allreduce_min(ok ? 1 : 0) == 1; }

std::vector<int64_t> Communicator::allgather(int64_t v) const {
  std::vector<int64_t> all(state_->size, v);
#if MGBLAS_HAVE_MPI
  if (uses_mpi())
    MGBLAS_CHECK_MPI(
        MPI_Allgather(&v, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, state_->comm));
#endif
  return all;
}

#if MGBLAS_HAVE_MPI
namespace {
std::vector<std::string> allgather_strings(MPI_Comm comm, int size, const std::string& s) {
  int len = static_cast<int>(s.size());
  std::vector<int> lens(size), displs(size);
  MGBLAS_CHECK_MPI(MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm));
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = total;
    total += lens[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MGBLAS_CHECK_MPI(MPI_Allgatherv(s.data(), len, MPI_CHAR, all.data(), lens.data(),
                                  displs.data(), MPI_CHAR, comm));
  std::vector<std::string> out(size);
  for (int r = 0; r < size; ++r) out[r] = all.substr(displs[r], lens[r]);
  return out;
}
}  // namespace
#endif

std::vector<std::string> Communicator::allgather(const std::string& s) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) return allgather_strings(state_->comm, state_->size, s);
#endif
  return {s};
}

std::vector<std::string> Communicator::allgather_local(const std::string& s) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) return allgather_strings(state_->node, state_->local_size, s);
#endif
  return {s};
}

void Communicator::bcast(void* buf, std::size_t bytes, int root) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi()) return;
  auto* p = static_cast<char*>(buf);
  for (std::size_t off = 0; off < bytes; off += kMaxChunk) {
    const int n = static_cast<int>(std::min<std::size_t>(kMaxChunk, bytes - off));
    MGBLAS_CHECK_MPI(MPI_Bcast(p + off, n, MPI_BYTE, root, state_->comm));
  }
#else
  (void)buf, (void)bytes, (void)root;
#endif
}

void Communicator::send(const void* buf, std::size_t bytes, int dest, int tag) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi()) MGBLAS_THROW(MpiError, "send on a communicator without MPI");
  const auto* p = static_cast<const char*>(buf);
  for (std::size_t off = 0; off < bytes; off += kMaxChunk) {
    const int n = static_cast<int>(std::min<std::size_t>(kMaxChunk, bytes - off));
    MGBLAS_CHECK_MPI(MPI_Send(p + off, n, MPI_BYTE, dest, tag, state_->comm));
  }
#else
  (void)buf, (void)bytes, (void)dest, (void)tag;
  MGBLAS_THROW(NotCompiled, "send: mgblas was built without MPI");
#endif
}

void Communicator::recv(void* buf, std::size_t bytes, int source, int tag) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi()) MGBLAS_THROW(MpiError, "recv on a communicator without MPI");
  auto* p = static_cast<char*>(buf);
  for (std::size_t off = 0; off < bytes; off += kMaxChunk) {
    const int n = static_cast<int>(std::min<std::size_t>(kMaxChunk, bytes - off));
    MGBLAS_CHECK_MPI(MPI_Recv(p + off, n, MPI_BYTE, source, tag, state_->comm, MPI_STATUS_IGNORE));
  }
#else
  (void)buf, (void)bytes, (void)source, (void)tag;
  MGBLAS_THROW(NotCompiled, "recv: mgblas was built without MPI");
#endif
}

}  // namespace mgblas
