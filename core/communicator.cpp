// SPDX-License-Identifier: BSD-3-Clause
#include "core/communicator.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

#include "core/agreement.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"
#if MGBLAS_HAVE_MPI
#include "core/detail/mpi_check.hpp"
#endif

namespace mgblas {

namespace {
// MGBLAS_COMM_TIMEOUT: seconds a host collective may wait for the other ranks.
double timeout_from_env() {
  const char* v = std::getenv("MGBLAS_COMM_TIMEOUT");
  if (!v || !*v) return 300.0;
  char* end = nullptr;
  const double s = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(s > 0))
    MGBLAS_THROW(BadArgument, "environment MGBLAS_COMM_TIMEOUT = '", v,
                 "': must be a positive number of seconds");
  return s;
}

// MGBLAS_ABORT_ON_TIMEOUT: whether a timeout ends the job (MPI_Abort) instead of raising.
bool abort_on_timeout_from_env() {
  const char* v = std::getenv("MGBLAS_ABORT_ON_TIMEOUT");
  if (!v || !*v) return false;
  const std::string s = v;
  if (s != "0" && s != "1")
    MGBLAS_THROW(BadArgument, "environment MGBLAS_ABORT_ON_TIMEOUT = '", s, "': must be 0 or 1");
  return s == "1";
}
}  // namespace

struct Communicator::State {
  int rank = 0;
  int size = 1;
  int local_rank = 0;
  int local_size = 1;
  double timeout_s = 300.0;
  bool abort_on_timeout = false;  // a timeout ends the job instead of raising
  int64_t calls = 0;          // collective library calls begun on this communicator
  const char* call = "";      // the current one's name
  std::map<uint64_t, int64_t> calls_of_kind;  // by hash of the call's name
  std::string broken;         // why this communicator is unusable (after a timeout)

  std::string current_call() const {
    if (calls == 0) return "before the first library call on it";
    const auto it = calls_of_kind.find(hash_bytes(call, std::strlen(call)));
    return detail::concat("during call #", calls, " '", call, "' (its ", call, " #",
                          it == calls_of_kind.end() ? 0 : it->second, ")");
  }
#if MGBLAS_HAVE_MPI
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm node = MPI_COMM_NULL;

  void check_usable() const {
    if (!broken.empty())
      MGBLAS_THROW(Timeout, "this communicator is unusable after an earlier timeout (", broken, ")");
  }

  // Polls `req` until it completes or the deadline passes. Spins briefly (latency of
  // small control collectives), then sleeps between polls.
  void wait(MPI_Request* req, const char* op) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const auto deadline = start + std::chrono::duration<double>(timeout_s);
    for (long polls = 0;; ++polls) {
      int done = 0;
      MGBLAS_CHECK_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
      if (done) return;
      if (polls < 4096) continue;
      if (clock::now() > deadline) break;
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    broken = detail::concat("rank ", rank, " waited ", timeout_s, " s in ", op, " ",
                            current_call());
    const std::string message = detail::concat(
        broken, ": another of the ", size,
        " ranks did not join (it skipped this call, made a different one, failed, or stalled). "
        "MGBLAS_COMM_TIMEOUT sets the limit; this communicator can no longer be used");
    if (abort_on_timeout) Communicator::abort_job(message);
    MGBLAS_THROW(Timeout, message);
  }

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

Communicator::Communicator() : state_(std::make_shared<State>()) {
  state_->timeout_s = timeout_from_env();
  state_->abort_on_timeout = abort_on_timeout_from_env();
}

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
  // A bad environment on one rank is raised only once the ranks have met, and then on
  // every rank: raising here at once would leave the others in the duplication.
  std::exception_ptr env_error = detail::capture([&] {
    state_->timeout_s = timeout_from_env();
    state_->abort_on_timeout = abort_on_timeout_from_env();
  });
  MGBLAS_CHECK_MPI(MPI_Comm_rank(comm, &state_->rank));
  MGBLAS_CHECK_MPI(MPI_Comm_size(comm, &state_->size));
  // Non-blocking, so that a rank that never joins is a Timeout, not a hang.
  MPI_Request req;
  MGBLAS_CHECK_MPI(MPI_Comm_idup(comm, &state_->comm, &req));
  try {
    state_->wait(&req, "MPI_Comm_idup (duplicating the communicator)");
  } catch (...) {
    state_->comm = MPI_COMM_NULL;  // never complete: freeing it could wait for the others
    throw;
  }
  MGBLAS_CHECK_MPI(MPI_Comm_set_errhandler(state_->comm, MPI_ERRORS_RETURN));
  detail::agree_on_outcome(*this, "creating a communicator", env_error);
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

double Communicator::timeout() const noexcept { return state_->timeout_s; }

int64_t Communicator::begin_call(const char* what) const {
  state_->call = what;
  ++state_->calls_of_kind[hash_bytes(what, std::strlen(what))];
  return ++state_->calls;
}
int64_t Communicator::calls_of_kind(uint64_t kind) const noexcept {
  const auto it = state_->calls_of_kind.find(kind);
  return it == state_->calls_of_kind.end() ? 0 : it->second;
}

bool Communicator::abort_on_timeout() const noexcept { return state_->abort_on_timeout; }
void Communicator::set_abort_on_timeout(bool on) const noexcept { state_->abort_on_timeout = on; }

// The one place the library ends the process, and only when asked to: MPI cannot cancel
// the collective a peer never joined, so MPI_Finalize would wait for it.
void Communicator::abort_job(const std::string& message) {
  std::fprintf(stderr,
               "mgblas: Timeout: %s\nmgblas: MGBLAS_ABORT_ON_TIMEOUT is set: calling MPI_Abort "
               "(error code %d)\n",
               message.c_str(), kTimeoutAbortCode);
  std::fflush(stderr);
#if MGBLAS_HAVE_MPI
  MPI_Abort(MPI_COMM_WORLD, kTimeoutAbortCode);
#endif
  std::abort();  // MPI_Abort does not return; if it did (or without MPI), still end the process
}
int64_t Communicator::call_number() const noexcept { return state_->calls; }
const char* Communicator::call_name() const noexcept { return state_->call; }

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
  // A barrier is a collective call like any other: made an agreement of the same shape,
  // a rank in barrier() while another is in gemv_mgpu gets "call 'barrier' vs
  // 'gemv_mgpu'" on both, where two different MPI collectives would be erroneous MPI
  // (Open MPI aborts the job on the truncated message).
  if (!uses_mpi()) return;
  detail::agree_on_call(*this, CallRecord("barrier"), nullptr);
}

template <Scalar T>
void Communicator::allreduce_sum(T* buf, int64_t count) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi() || state_->size == 1) return;
  state_->check_usable();
  for (int64_t off = 0; off < count; off += kMaxChunk) {
    const int n = static_cast<int>(std::min(kMaxChunk, count - off));
    MPI_Request req;
    MGBLAS_CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, buf + off, n, mpi_type<T>(), MPI_SUM,
                                    state_->comm, &req));
    state_->wait(&req, "MPI allreduce (sum)");
  }
#else
  (void)buf;
  (void)count;
#endif
}
#define MGBLAS_INSTANTIATE(T) template void Communicator::allreduce_sum<T>(T*, int64_t) const;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

#if MGBLAS_HAVE_MPI
namespace {
int64_t allreduce_int64(Communicator::State& st, int64_t v, MPI_Op op, const char* what) {
  st.check_usable();
  MPI_Request req;
  MGBLAS_CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, op, st.comm, &req));
  st.wait(&req, what);
  return v;
}
}  // namespace
#endif

int64_t Communicator::allreduce_max(int64_t v) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) return allreduce_int64(*state_, v, MPI_MAX, "MPI allreduce (max)");
#endif
  return v;
}

int64_t Communicator::allreduce_min(int64_t v) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) return allreduce_int64(*state_, v, MPI_MIN, "MPI allreduce (min)");
#endif
  return v;
}

bool Communicator::all_ok(bool ok) const { return allreduce_min(ok ? 1 : 0) == 1; }

std::vector<int64_t> Communicator::allgather(int64_t v) const { return allgather(&v, 1); }

std::vector<int64_t> Communicator::allgather(const int64_t* v, int count) const {
  std::vector<int64_t> all(v, v + count);
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) {
    state_->check_usable();
    all.resize(static_cast<std::size_t>(state_->size) * count);
    MPI_Request req;
    MGBLAS_CHECK_MPI(MPI_Iallgather(v, count, MPI_INT64_T, all.data(), count, MPI_INT64_T,
                                    state_->comm, &req));
    state_->wait(&req, "MPI allgather");
  }
#endif
  return all;
}

#if MGBLAS_HAVE_MPI
namespace {
std::vector<std::string> allgather_strings(Communicator::State& st, MPI_Comm comm, int size,
                                           const std::string& s) {
  st.check_usable();
  int len = static_cast<int>(s.size());
  std::vector<int> lens(size), displs(size);
  MPI_Request req;
  MGBLAS_CHECK_MPI(MPI_Iallgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm, &req));
  st.wait(&req, "MPI allgather (lengths)");
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = total;
    total += lens[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MGBLAS_CHECK_MPI(MPI_Iallgatherv(s.data(), len, MPI_CHAR, all.data(), lens.data(),
                                   displs.data(), MPI_CHAR, comm, &req));
  st.wait(&req, "MPI allgather (strings)");
  std::vector<std::string> out(size);
  for (int r = 0; r < size; ++r) out[r] = all.substr(displs[r], lens[r]);
  return out;
}
}  // namespace
#endif

std::vector<std::string> Communicator::allgather(const std::string& s) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) return allgather_strings(*state_, state_->comm, state_->size, s);
#endif
  return {s};
}

std::vector<std::string> Communicator::allgather_local(const std::string& s) const {
#if MGBLAS_HAVE_MPI
  if (uses_mpi()) return allgather_strings(*state_, state_->node, state_->local_size, s);
#endif
  return {s};
}

void Communicator::bcast(void* buf, std::size_t bytes, int root) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi()) return;
  state_->check_usable();
  auto* p = static_cast<char*>(buf);
  for (std::size_t off = 0; off < bytes; off += kMaxChunk) {
    const int n = static_cast<int>(std::min<std::size_t>(kMaxChunk, bytes - off));
    MPI_Request req;
    MGBLAS_CHECK_MPI(MPI_Ibcast(p + off, n, MPI_BYTE, root, state_->comm, &req));
    state_->wait(&req, "MPI broadcast");
  }
#else
  (void)buf, (void)bytes, (void)root;
#endif
}

void Communicator::send(const void* buf, std::size_t bytes, int dest, int tag) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi()) MGBLAS_THROW(MpiError, "send on a communicator without MPI");
  state_->check_usable();
  const auto* p = static_cast<const char*>(buf);
  for (std::size_t off = 0; off < bytes; off += kMaxChunk) {
    const int n = static_cast<int>(std::min<std::size_t>(kMaxChunk, bytes - off));
    MPI_Request req;
    MGBLAS_CHECK_MPI(MPI_Isend(p + off, n, MPI_BYTE, dest, tag, state_->comm, &req));
    state_->wait(&req, "MPI send");
  }
#else
  (void)buf, (void)bytes, (void)dest, (void)tag;
  MGBLAS_THROW(NotCompiled, "send: mgblas was built without MPI");
#endif
}

void Communicator::recv(void* buf, std::size_t bytes, int source, int tag) const {
#if MGBLAS_HAVE_MPI
  if (!uses_mpi()) MGBLAS_THROW(MpiError, "recv on a communicator without MPI");
  state_->check_usable();
  auto* p = static_cast<char*>(buf);
  for (std::size_t off = 0; off < bytes; off += kMaxChunk) {
    const int n = static_cast<int>(std::min<std::size_t>(kMaxChunk, bytes - off));
    MPI_Request req;
    MGBLAS_CHECK_MPI(MPI_Irecv(p + off, n, MPI_BYTE, source, tag, state_->comm, &req));
    state_->wait(&req, "MPI receive");
  }
#else
  (void)buf, (void)bytes, (void)source, (void)tag;
  MGBLAS_THROW(NotCompiled, "recv: mgblas was built without MPI");
#endif
}

void Communicator::alltoallv(const void* send, const std::vector<std::size_t>& send_bytes,
                             const std::vector<std::size_t>& send_offset, void* recv,
                             const std::vector<std::size_t>& recv_bytes,
                             const std::vector<std::size_t>& recv_offset) const {
  const auto n = static_cast<std::size_t>(size());
  if (send_bytes.size() != n || send_offset.size() != n || recv_bytes.size() != n ||
      recv_offset.size() != n)
    MGBLAS_THROW(BadArgument, "alltoallv: the count and offset vectors need ", n,
                 " entries, one per rank");
  const auto* s = static_cast<const char*>(send);
  auto* r = static_cast<char*>(recv);
  const auto me = static_cast<std::size_t>(rank());
  if (send_bytes[me] != recv_bytes[me])
    MGBLAS_THROW(BadArgument, "alltoallv: rank ", me, " sends itself ", send_bytes[me],
                 " bytes but expects ", recv_bytes[me]);
  if (send_bytes[me] > 0) std::memcpy(r + recv_offset[me], s + send_offset[me], send_bytes[me]);
#if MGBLAS_HAVE_MPI
  if (n == 1) return;
  state_->check_usable();
  // Receives first, so that no send waits for a matching receive to be posted.
  constexpr int kTag = 7301;
  std::vector<MPI_Request> reqs;
  for (std::size_t q = 0; q < n; ++q)
    for (std::size_t off = 0; q != me && off < recv_bytes[q]; off += kMaxChunk) {
      const int len = static_cast<int>(std::min<std::size_t>(kMaxChunk, recv_bytes[q] - off));
      MPI_Request req;
      MGBLAS_CHECK_MPI(MPI_Irecv(r + recv_offset[q] + off, len, MPI_BYTE, static_cast<int>(q),
                                 kTag, state_->comm, &req));
      reqs.push_back(req);
    }
  for (std::size_t k = 1; k < n; ++k) {  // staggered, so that ranks do not all hit rank 0
    const std::size_t q = (me + k) % n;
    for (std::size_t off = 0; off < send_bytes[q]; off += kMaxChunk) {
      const int len = static_cast<int>(std::min<std::size_t>(kMaxChunk, send_bytes[q] - off));
      MPI_Request req;
      MGBLAS_CHECK_MPI(MPI_Isend(s + send_offset[q] + off, len, MPI_BYTE, static_cast<int>(q),
                                 kTag, state_->comm, &req));
      reqs.push_back(req);
    }
  }
  for (auto& req : reqs) state_->wait(&req, "MPI all-to-all");
#endif
}

}  // namespace mgblas
