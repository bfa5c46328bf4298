// SPDX-License-Identifier: BSD-3-Clause
#include "core/agreement.hpp"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <string>

#include "core/error.hpp"

namespace mgblas {

CallRecord& CallRecord::push(const char* name, Kind kind, int64_t value) {
  if (static_cast<int>(fields_.size()) >= kMaxFields)
    MGBLAS_THROW(NotImplemented, what_, ": more than ", kMaxFields, " agreement fields (",
                 name, ")");
  fields_.push_back({name, kind, value});
  return *this;
}

namespace {

// One rank's message: status, call number, hash of the call's name, its first 24
// bytes (for messages), field count, fields.
constexpr int kNameSlots = 3;
constexpr int kHeader = 4 + kNameSlots;
constexpr int kSlots = kHeader + CallRecord::kMaxFields;

std::string name_of(const int64_t* slots) {
  char text[kNameSlots * 8 + 1] = {};
  std::memcpy(text, slots + 3, kNameSlots * 8);
  return text;
}

std::string format(CallRecord::Kind kind, int64_t v) {
  using K = CallRecord::Kind;
  std::ostringstream os;
  switch (kind) {
    case K::Integer: os << v; break;
    case K::Letter:
      if (v >= 32 && v < 127) os << '\'' << static_cast<char>(v) << '\'';
      else os << v;
      break;
    case K::Float32:
    case K::Float32Imag:
      os << std::setprecision(9) << std::bit_cast<float>(static_cast<uint32_t>(v)) << " (bits 0x"
         << std::hex << v << ")";
      break;
    case K::Float64:
    case K::Float64Imag:
      os << std::setprecision(17) << std::bit_cast<double>(v) << " (bits 0x" << std::hex
         << static_cast<uint64_t>(v) << ")";
      break;
    case K::Digest: os << "digest 0x" << std::hex << static_cast<uint64_t>(v); break;
    default: os << v; break;
  }
  return os.str();
}

const char* part_of(CallRecord::Kind kind) {
  using K = CallRecord::Kind;
  if (kind == K::Float32Imag || kind == K::Float64Imag) return " (imaginary part)";
  if (kind == K::Digest) return " (contents)";
  return "";
}

std::string message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::bad_alloc&) {
    return "out of memory";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

// Raises on every rank after a failure somewhere: the failing ranks their own error,
// the others RemoteError quoting the first failing rank.
[[noreturn]] void raise_failure(const Communicator& comm, const char* what,
                                const std::exception_ptr& failure) {
  const auto messages = comm.allgather(failure ? message_of(failure) : std::string());
  if (failure) std::rethrow_exception(failure);
  std::vector<int> failed;
  for (int r = 0; r < static_cast<int>(messages.size()); ++r)
    if (!messages[r].empty()) failed.push_back(r);
  std::ostringstream also;
  for (std::size_t i = 1; i < failed.size(); ++i) also << (i == 1 ? " (and on rank " : ", ") << failed[i];
  if (failed.size() > 1) also << ")";
  if (failed.empty())
    MGBLAS_THROW(RemoteError, what, ": failed on another rank");
  MGBLAS_THROW(RemoteError, what, ": failed on rank ", failed.front(), also.str(), ": ",
               messages[failed.front()]);
}

// Raises on every rank when the ranks are in different calls (`all` holds every rank's
// header, the same on every rank). Before raising, the ranks exchange how many calls of
// each kind involved they have begun: the calls themselves are numbered in step by
// construction, so it is those counts that show which rank skipped a call or made an
// extra one ("gemv_mgpu: 3 on rank 0, 2 on rank 1").
[[noreturn]] void raise_different_calls(const Communicator& comm, const std::vector<int64_t>& all,
                                        const char* what, const std::exception_ptr& failure) {
  const int n = comm.size();
  const auto header = [&](int r) { return all.data() + static_cast<std::size_t>(r) * kSlots; };
  std::vector<int64_t> kinds;  // name hashes, in order of first appearance
  std::vector<int> named_by;   // a rank in each kind's call, for its name
  for (int r = 0; r < n; ++r) {
    if (std::find(kinds.begin(), kinds.end(), header(r)[2]) != kinds.end()) continue;
    kinds.push_back(header(r)[2]);
    named_by.push_back(r);
  }
  const int k = static_cast<int>(kinds.size());
  std::vector<int64_t> mine(kinds.size());
  for (int i = 0; i < k; ++i) mine[i] = comm.calls_of_kind(static_cast<uint64_t>(kinds[i]));
  const std::vector<int64_t> counts = comm.allgather(mine.data(), k);
  if (failure) std::rethrow_exception(failure);

  const auto count = [&](int r, int64_t kind) {
    const auto i = std::find(kinds.begin(), kinds.end(), kind) - kinds.begin();
    return counts[static_cast<std::size_t>(r) * k + i];
  };
  std::ostringstream os;
  os << "the ranks are in different collective calls:";
  for (int r = 0; r < n; ++r)
    os << (r ? ";" : "") << " rank " << r << " in its call #" << header(r)[1] << ", '"
       << name_of(header(r)) << "' #" << count(r, header(r)[2]);
  os << ". Calls begun so far, this one included:";
  for (int i = 0; i < k; ++i) {
    os << (i ? ";" : "") << " '" << name_of(header(named_by[i])) << "'";
    for (int r = 0; r < n; ++r) os << (r ? ", " : " ") << count(r, kinds[i]) << " on rank " << r;
  }
  os << ". A rank skipped a call, made an extra one, or called another operation (every rank "
        "must make the same collective calls in the same order)";
  MGBLAS_THROW(DimensionMismatch, what, ": ", os.str());
}

}  // namespace

namespace detail {

void agree_on_call(const Communicator& comm, const CallRecord& record,
                   std::exception_ptr failure) {
  const char* what = record.what();
  const int64_t call = comm.begin_call(what);
  int64_t mine[kSlots] = {};
  mine[0] = failure ? 0 : 1;
  mine[1] = call;
  mine[2] = static_cast<int64_t>(hash_bytes(what, std::strlen(what)));
  std::strncpy(reinterpret_cast<char*>(mine + 3), what, kNameSlots * 8);
  const auto& fields = record.fields();
  mine[kHeader - 1] = static_cast<int64_t>(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) mine[kHeader + i] = fields[i].value;
  if (comm.size() == 1) {
    if (failure) std::rethrow_exception(failure);
    return;
  }
  const std::vector<int64_t> all = comm.allgather(mine, kSlots);
  const int me = comm.rank();

  // Every rank sees the same `all`, so every rank takes the same branch below (and joins
  // the same further collective, if any).
  for (int r = 0; r < comm.size(); ++r) {
    const int64_t* theirs = all.data() + static_cast<std::size_t>(r) * kSlots;
    if (theirs[1] != call || theirs[2] != mine[2]) raise_different_calls(comm, all, what, failure);
  }
  for (int r = 0; r < comm.size(); ++r)
    if (all[static_cast<std::size_t>(r) * kSlots] == 0) raise_failure(comm, what, failure);

  for (int r = 0; r < comm.size(); ++r) {
    const int64_t* theirs = all.data() + static_cast<std::size_t>(r) * kSlots;
    const std::size_t count = std::min<std::size_t>(fields.size(), theirs[kHeader - 1]);
    for (std::size_t i = 0; i < count; ++i) {
      if (theirs[kHeader + i] == fields[i].value) continue;
      MGBLAS_THROW(DimensionMismatch, what, ": ranks disagree on '", fields[i].name, "'",
                   part_of(fields[i].kind), ": rank ", r, " passed ",
                   format(fields[i].kind, theirs[kHeader + i]), ", rank ", me, " passed ",
                   format(fields[i].kind, fields[i].value), " (every rank must pass the same)");
    }
    if (theirs[kHeader - 1] != static_cast<int64_t>(fields.size()))
      MGBLAS_THROW(DimensionMismatch, what, ": rank ", r, " described its call with ",
                   theirs[kHeader - 1], " fields, rank ", me, " with ", fields.size(),
                   " (the ranks passed different kinds of arguments)");
  }
}

void agree_on_outcome(const Communicator& comm, const char* what, std::exception_ptr failure) {
  const bool ok = comm.all_ok(!failure);
  if (!ok) raise_failure(comm, what, failure);
}

}  // namespace detail
}  // namespace mgblas
