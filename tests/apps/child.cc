#include "tests/apps/child.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <stdexcept>

namespace rtb::apps::testing {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

// VmRSS of a running process in KiB (0 once it is gone).
uint64_t vm_rss_kib(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (f >> key) {
    if (key == "VmRSS:") {
      uint64_t kib = 0;
      f >> kib;
      return kib;
    }
  }
  return 0;
}

// Reads what the child wrote until it closes its end or `deadline` passes; `tick` between reads.
bool read_until(int fd, std::string& out, std::chrono::steady_clock::time_point deadline,
                const std::function<void()>& tick = {}) {
  char buf[4096];
  for (;;) {
    if (tick) tick();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 50))) <= 0) continue;
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return true;
    out.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

std::string source_root() { return env_or("ROCETB_SOURCE_ROOT", "."); }
std::string build_root() { return env_or("ROCETB_BUILD_ROOT", "build"); }

std::pair<int, std::string> run_shell(const std::string& command) {
  std::string out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return {-1, "popen failed"};
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

ChildResult run_rocetb(const std::vector<std::string>& args, std::optional<Signal> signal,
                       std::chrono::seconds timeout, std::optional<std::chrono::milliseconds> rss_every) {
  const std::string binary = build_root() + "/apps/rocetb";
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    if (::chdir(source_root().c_str()) != 0) ::_exit(126);
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  ChildResult r;
  r.pid = pid;
  if (signal) {
    read_until(pipe_fds[0], r.out, start + signal->after);
    ::kill(pid, signal->number);
  }
  auto next_rss = start;
  const auto sample_rss = [&] {
    const auto now = std::chrono::steady_clock::now();
    if (!rss_every || now < next_rss) return;
    next_rss = now + *rss_every;
    if (const uint64_t kib = vm_rss_kib(pid); kib != 0) {
      r.rss_kib.emplace_back(std::chrono::duration<double>(now - start).count(), kib);
    }
  };
  if (!read_until(pipe_fds[0], r.out, start + timeout, sample_rss)) ::kill(pid, SIGKILL);
  ::close(pipe_fds[0]);
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  r.max_rss_kib = static_cast<uint64_t>(usage.ru_maxrss);
  r.wall = std::chrono::steady_clock::now() - start;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  return r;
}

}  // namespace rtb::apps::testing
