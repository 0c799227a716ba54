#include "runtime/pool/eal.h"

#include "runtime/pool/eal_output.h"
#include "runtime/pool/tsc_calibration.h"
#include "wire/icrc.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rtb::runtime {
namespace {

enum class EalState { kNotStarted, kRunning, kFailed, kStopped };

EalState g_state = EalState::kNotStarted;
// rte_eal_init may keep pointers into argv, so the strings live as long as the process.
std::vector<std::string> g_args;
std::vector<char*> g_argv;

std::vector<unsigned> g_cpus_before;  // sched_getaffinity before rte_eal_init pinned us

double g_start_seconds = 0;  // wall time of rte_eal_init()

std::string g_runtime_dir;
bool g_own_runtime_dir = false;  // its --file-prefix is one rocetb made for this process

// Removes this process's runtime folder, so runs do not pile up folders in /var/run/dpdk.
// After rte_eal_cleanup it is empty (--no-shconf); at exit() without it (an error path, or
// rte_exit() from an exhausted pool) the telemetry socket may still be there: a folder of
// a prefix rocetb made for this process (rocetb-<pid>-<n>) is removed with it, any other
// only when empty.
void remove_runtime_dir() {
  std::error_code ec;
  if (g_runtime_dir.empty()) return;
  if (g_own_runtime_dir) {
    std::filesystem::remove_all(g_runtime_dir, ec);
  } else if (std::filesystem::is_empty(g_runtime_dir, ec)) {
    std::filesystem::remove(g_runtime_dir, ec);
  }
}

std::string joined(const std::vector<std::string>& args) {
  return fmt::format("{}", fmt::join(args, " "));
}

std::string file_prefix_of(const std::vector<std::string>& args) {
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--file-prefix") return args[i + 1];
  }
  return "rte";
}

std::string already_message() {
  return fmt::format("the DPDK EAL initialises once per process and was already {} in this "
                     "process (args: {}); start it once, in main(), before any test or run",
                     g_state == EalState::kFailed ? "tried (and failed)" : "started",
                     joined(g_args));
}

}  // namespace

std::string explain_eal_failure(int err, const std::vector<std::string>& args) {
  const std::string cmd = joined(args);
  switch (err) {
    case EACCES:
    case EPERM:
      return fmt::format("DPDK EAL start failed: permission denied ({}); run as root or give "
                         "the binary CAP_SYS_ADMIN, CAP_IPC_LOCK and CAP_NET_ADMIN (setcap), "
                         "or use --no-huge and --no-pci for virtual runs; args: {}",
                         std::strerror(err), cmd);
    case EBUSY:
    case EAGAIN:
    case EEXIST:
      return fmt::format("DPDK EAL start failed: file prefix '{}' is in use by another DPDK "
                         "process ({}); stop that process or choose another file prefix; "
                         "args: {}", file_prefix_of(args), std::strerror(err), cmd);
    case ENOMEM:
      return fmt::format("DPDK EAL start failed: not enough memory ({}); lower the pool "
                         "sizes, raise -m (EalOptions::memory_mb) within what the machine "
                         "has, or free hugepages (see /sys/kernel/mm/hugepages); args: {}",
                         std::strerror(err), cmd);
    case EALREADY:
      return fmt::format("DPDK EAL start failed: the EAL initialises once per process and "
                         "was already started; args: {}", cmd);
    case EINVAL:
      return fmt::format("DPDK EAL start failed: invalid EAL arguments; check the lcores "
                         "exist (-l) and the extra arguments; args: {}", cmd);
    case 0:
      return fmt::format("DPDK EAL start failed without a reason code; the usual cause is "
                         "another DPDK process holding file prefix '{}' (stop it or choose "
                         "another prefix); run with log_level \"debug\" for the EAL's own "
                         "messages; args: {}", file_prefix_of(args), cmd);
    default:
      return fmt::format("DPDK EAL start failed: {} (rte_errno {}); run with log_level "
                         "\"debug\" for the EAL's own messages; args: {}",
                         rte_strerror(err), err, cmd);
  }
}

const std::vector<unsigned>& cpus_before_eal() { return g_cpus_before; }

namespace {

// The CPUs the calling thread may run on (empty if the kernel does not say).
std::vector<unsigned> affinity() {
  std::vector<unsigned> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (unsigned c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

}  // namespace

uint32_t usable_cpus() { return std::max(1u, static_cast<uint32_t>(usable_cpu_list().size())); }

std::vector<unsigned> usable_cpu_list() { return g_state != EalState::kNotStarted ? g_cpus_before : affinity(); }

namespace {

// "0-3,6": runs of consecutive CPUs.
std::string cpu_ranges(const std::vector<unsigned>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += fmt::format("{}{}", out.empty() ? "" : ",", cpus[i]);
    if (j > i) out += fmt::format("-{}", cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

Status check_lcores_usable(const std::vector<unsigned>& lcores) {
  if (lcores.empty()) return Error{"no lcore: expected at least one"};
  const std::vector<unsigned> cpus = usable_cpu_list();
  for (size_t i = 0; i < lcores.size(); ++i) {
    if (std::count(lcores.begin(), lcores.begin() + static_cast<std::ptrdiff_t>(i), lcores[i]) > 0) {
      return Error{fmt::format("lcore {} is listed twice: expected distinct lcores", lcores[i])};
    }
    if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), lcores[i]) == cpus.end()) {
      return Error{fmt::format("lcore {} is not a CPU this process may run on ({})", lcores[i], cpu_ranges(cpus))};
    }
  }
  return {};
}

Status start_eal(const EalOptions& options) {
  if (g_state != EalState::kNotStarted) return Error{already_message()};
  auto args = eal_arguments(options, probe_hugepages());
  if (!args) return args.error();
  g_args = std::move(args).value();
  g_argv.clear();
  for (auto& s : g_args) g_argv.push_back(s.data());
  g_argv.push_back(nullptr);
  g_cpus_before = affinity();
  rte_errno = 0;
  OutputCapture capture;  // the EAL's own lines: one sentence of them on failure (eal_output.h)
  const auto started = std::chrono::steady_clock::now();
  choose_calibration_sleep(options.tsc_calibration_sleep);
  begin_eal_start();  // its TSC calibration sleeps the chosen time in `rocetb` (tsc_calibration.h)
  const int rc = rte_eal_init(static_cast<int>(g_args.size()), g_argv.data());
  const int err = rte_errno;
  end_eal_start();
  g_start_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string said = capture.finish();
  if (rc >= 0 || eal_verbose()) std::fputs(said.c_str(), stderr);
  if (rc < 0) {
    g_state = EalState::kFailed;
    const std::string summary = eal_output_summary(said);
    return Error{explain_eal_failure(err, g_args) + (summary.empty() ? "" : "; the EAL said: " + summary) +
                 (eal_verbose() || said.empty() ? "" : " (rocetb run --verbose shows all it said)")};
  }
  g_state = EalState::kRunning;
  g_runtime_dir = rte_eal_get_runtime_dir();
  g_own_runtime_dir = file_prefix_of(g_args).rfind(fmt::format("rocetb-{}-", ::getpid()), 0) == 0;
  wire::use_fast_crc();
  std::atexit(remove_runtime_dir);
  return {};
}

bool eal_running() { return g_state == EalState::kRunning; }

double eal_start_seconds() { return g_start_seconds; }

const std::vector<std::string>& eal_arguments_used() { return g_args; }

Status stop_eal() {
  if (g_state != EalState::kRunning) {
    return Error{"stop_eal(): the EAL is not running (start_eal() did not succeed, or it "
                 "was already stopped)"};
  }
  const int rc = rte_eal_cleanup();
  g_state = EalState::kStopped;
  if (rc != 0) {
    return Error{fmt::format("rte_eal_cleanup failed: {}", rte_strerror(rte_errno))};
  }
  remove_runtime_dir();
  return {};
}

}  // namespace rtb::runtime
