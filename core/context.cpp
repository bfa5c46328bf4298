// SPDX-License-Identifier: BSD-3-Clause
#include "core/context.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "core/agreement.hpp"
#include "core/detail/cuda_runtime.hpp"
#include "core/error.hpp"
#include "core/topology.hpp"

namespace mgblas {

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

Backend choose_backend(BackendChoice choice) {
  if (choice == BackendChoice::Auto) {
    const std::string env = env_or("MGBLAS_BACKEND", "auto");
    if (env == "host") choice = BackendChoice::Host;
    else if (env == "cuda") choice = BackendChoice::Cuda;
    else if (env != "auto")
      MGBLAS_THROW(BadArgument, "environment MGBLAS_BACKEND = '", env,
                   "': must be auto, host or cuda");
  }
  if (choice == BackendChoice::Host) return Backend::Host;
  if (choice == BackendChoice::Cuda) {
    if (detail::cuda_count() == 0)
      MGBLAS_THROW(BadArgument, "backend cuda was asked for but no CUDA GPU is visible",
                   MGBLAS_HAVE_CUDA ? "" : " (mgblas was built without CUDA)");
    return Backend::Cuda;
  }
  return detail::cuda_count() > 0 ? Backend::Cuda : Backend::Host;
}

// "0,2,3" -> {0,2,3}; "all" -> every visible GPU.
std::vector<int> parse_device_list(const std::string& text, int visible) {
  std::vector<int> ids;
  if (text == "all") {
    for (int g = 0; g < visible; ++g) ids.push_back(g);
    return ids;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0')
      MGBLAS_THROW(BadArgument, "environment MGBLAS_DEVICES = '", text,
                   "': must be 'all' or a comma-separated list of GPU ordinals");
    ids.push_back(static_cast<int>(v));
  }
  return ids;
}

int positive_env(const char* name, int fallback) {
  const std::string v = env_or(name, "");
  if (v.empty()) return fallback;
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (*end != '\0' || n < 1 || n > 1024)
    MGBLAS_THROW(BadArgument, "environment ", name, " = '", v, "': must be an integer in [1, 1024]");
  return static_cast<int>(n);
}

}  // namespace

std::shared_ptr<Context> Context::create(const ContextOptions& opts) {
  return create(Communicator::world(), opts);
}

std::shared_ptr<Context> Context::create(Communicator comm, const ContextOptions& opts) {
  std::shared_ptr<Context> ctx(new Context(std::move(comm)));
  // Two steps, each agreed over the ranks so that one rank's bad options or environment
  // raise on every rank within the deadline: the settings (local checks only), then
  // the devices, whose CUDA path has collectives of its own that every rank must reach.
  CallRecord rec("Context::create");
  agree(ctx->comm_, rec, [&] {
    ctx->choose_settings(opts);
    rec.add("backend (0 host, 1 cuda; MGBLAS_BACKEND)", static_cast<int64_t>(ctx->backend_))
        .add("verify_inputs (MGBLAS_VERIFY_INPUTS)", int64_t{ctx->verify_inputs_})
        .add("abort_on_timeout (MGBLAS_ABORT_ON_TIMEOUT)", int64_t{ctx->abort_on_timeout_});
  });
  ctx->comm_.set_abort_on_timeout(ctx->abort_on_timeout_);
  all_or_nothing(ctx->comm_, "Context::create", [&] { ctx->make_devices(opts); });

  const auto counts = ctx->comm_.allgather(static_cast<int64_t>(ctx->devices_.size()));
  ctx->offsets_.assign(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r)
    ctx->offsets_[r + 1] = ctx->offsets_[r] + static_cast<int>(counts[r]);
  for (auto& d : ctx->devices_) d->set_global_index(ctx->device_offset() + d->local_index());
  return ctx;
}

void Context::choose_settings(const ContextOptions& opts) {
  MGBLAS_CHECK_ARG(opts.host_devices >= 0, "opts.host_devices", opts.host_devices,
                   ">= 0 (0: MGBLAS_HOST_DEVICES, else 1)");
  MGBLAS_CHECK_ARG(opts.gpus_per_rank >= 0, "opts.gpus_per_rank", opts.gpus_per_rank,
                   ">= 0 (0: the node's GPUs split evenly over its ranks)");
  MGBLAS_CHECK_ARG(opts.verify_inputs >= -1 && opts.verify_inputs <= 1, "opts.verify_inputs",
                   opts.verify_inputs, "-1 (environment), 0 or 1");
  MGBLAS_CHECK_ARG(opts.abort_on_timeout >= -1 && opts.abort_on_timeout <= 1,
                   "opts.abort_on_timeout", opts.abort_on_timeout, "-1 (environment), 0 or 1");
  backend_ = choose_backend(opts.backend);
#ifdef NDEBUG
  constexpr bool kDebugBuild = false;
#else
  constexpr bool kDebugBuild = true;
#endif
  if (opts.verify_inputs >= 0) {
    verify_inputs_ = opts.verify_inputs != 0;
  } else {
    const std::string v = env_or("MGBLAS_VERIFY_INPUTS", "");
    if (!v.empty() && v != "0" && v != "1")
      MGBLAS_THROW(BadArgument, "environment MGBLAS_VERIFY_INPUTS = '", v, "': must be 0 or 1");
    verify_inputs_ = v.empty() ? kDebugBuild : v == "1";
  }
  // The communicator read MGBLAS_ABORT_ON_TIMEOUT when it was made.
  abort_on_timeout_ =
      opts.abort_on_timeout >= 0 ? opts.abort_on_timeout == 1 : comm_.abort_on_timeout();
  if (backend_ == Backend::Host && opts.host_devices == 0)
    host_devices_ = positive_env("MGBLAS_HOST_DEVICES", 1);
  else
    host_devices_ = opts.host_devices;
}

void Context::make_devices(const ContextOptions& opts) {
  const std::string host = comm_.hostname();
  if (backend_ == Backend::Host) {
    const int n = host_devices_;
    const std::string cpus = current_cpuset();
    const char* bound_by = cpus != machine_cpuset() ? "launcher" : "none";
    for (int d = 0; d < n; ++d) {
      devices_.push_back(Device::make_host(d));
      binding_.push_back(
          {comm_.rank(), comm_.local_rank(), host, devices_.back()->name(), "", cpus, "", bound_by});
    }
    return;
  }

  const int visible = detail::cuda_count();
  std::vector<int> gpus = opts.gpus;
  // Every rank of the node joins this gather, whether it needs it or not: one whose
  // device list is given must not leave the others waiting in it.
  const auto rank_sets = comm_.allgather_local(current_cpuset());
  const std::string env = env_or("MGBLAS_DEVICES", "");
  if (gpus.empty() && !env.empty()) gpus = parse_device_list(env, visible);
  if (gpus.empty()) {
    // This rank's share of the node's GPUs, chosen by locality to its CPU set.
    std::vector<std::string> gpu_sets;
    for (int g = 0; g < visible; ++g) gpu_sets.push_back(pci_device_cpuset(detail::cuda_pci_bus_id(g)));
    const int per_rank = opts.gpus_per_rank > 0
                             ? opts.gpus_per_rank
                             : std::max(1, visible / std::max(1, comm_.local_size()));
    gpus = assign_gpus(comm_.local_rank(), rank_sets, gpu_sets, per_rank);
  }
  for (int g : gpus)
    MGBLAS_CHECK_ARG(g >= 0 && g < visible, "gpus", g, "a visible CUDA ordinal in [0, ", visible, ")");
  for (std::size_t i = 0; i < gpus.size(); ++i) devices_.push_back(Device::make_cuda(static_cast<int>(i), gpus[i]));

  // Bind near the first GPU unless someone (mpirun, the user) bound us already.
  const bool prebound = current_cpuset() != machine_cpuset();
  std::string bound_by = prebound ? "launcher" : "none";
  if (opts.bind && env_or("MGBLAS_BIND", "1") != "0" && !prebound) {
    const std::string near = pci_device_cpuset(devices_.front()->pci_bus_id());
    if (!near.empty() && near != machine_cpuset() && bind_thread_to(near)) bound_by = "mgblas";
  }
  const std::string cpus = current_cpuset();
  for (auto& d : devices_)
    binding_.push_back({comm_.rank(), comm_.local_rank(), host, d->name(), d->pci_bus_id(), cpus,
                        pci_device_cpuset(d->pci_bus_id()), bound_by});
  devices_.front()->make_current();
}

Context::~Context() = default;

int Context::rank_of_device(int g) const {
  MGBLAS_CHECK_ARG(g >= 0 && g < global_num_devices(), "global device", g, "in [0, ",
                   global_num_devices(), ")");
  const auto it = std::upper_bound(offsets_.begin(), offsets_.end(), g);
  return static_cast<int>(it - offsets_.begin()) - 1;
}

int Context::local_index_of(int g) const noexcept {
  const int local = g - device_offset();
  return local >= 0 && local < num_devices() ? local : -1;
}

std::string Context::binding_report() const {
  std::ostringstream os;
  for (const auto& b : binding_)
    os << "rank " << b.rank << " (local " << b.local_rank << ") host " << b.host << "  device "
       << b.device << (b.pci_bus_id.empty() ? "" : " pci " + b.pci_bus_id) << "  cpus "
       << (b.cpuset.empty() ? "?" : b.cpuset) << " (bound by " << b.bound_by << ")"
       << (b.pci_bus_id.empty() ? "" : "  gpu-near cpus " + (b.gpu_cpuset.empty() ? "?" : b.gpu_cpuset))
       << "\n";
  std::string all;
  for (const auto& part : comm_.allgather(os.str())) all += part;
  return all;
}

void Context::synchronize() const {
  for (const auto& d : devices_) d->synchronize();
}

}  // namespace mgblas
