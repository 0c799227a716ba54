#include "sweep/runner.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <thread>

namespace rtb::sweep {
namespace {

volatile std::sig_atomic_t g_stop = 0;

void on_signal(int) { g_stop = 1; }

void install_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// In the child: output to the log, no input, then the program (never returns).
[[noreturn]] void exec_child(const std::string& program, const Job& job) {
  const int log = ::open(job.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int null = ::open("/dev/null", O_RDONLY);
  if (log >= 0) {
    ::dup2(log, 1);
    ::dup2(log, 2);
  }
  if (null >= 0) ::dup2(null, 0);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const std::string& a : job.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  ::_exit(127);
}

using Clock = std::chrono::steady_clock;

struct Running {
  size_t job;
  Clock::time_point start;
};

}  // namespace

bool stop_was_requested() { return g_stop != 0; }

std::string own_executable() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

int run_program(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<JobEnd> run_jobs(const std::string& program, const std::vector<Job>& jobs, unsigned parallel,
                             const OnJobEnd& on_end) {
  install_handlers();
  std::vector<JobEnd> ends(jobs.size());
  std::map<pid_t, Running> running;
  size_t next = 0;
  bool forwarded = false;
  while (next < jobs.size() || !running.empty()) {
    while (!g_stop && next < jobs.size() && running.size() < parallel) {
      const pid_t pid = ::fork();
      if (pid == 0) exec_child(program, jobs[next]);
      ends[next].started = pid > 0;
      if (pid > 0) running[pid] = Running{next, Clock::now()};
      ++next;
    }
    if (g_stop && !forwarded) {
      for (const auto& [pid, r] : running) ::kill(pid, SIGINT);
      forwarded = true;
      next = jobs.size();  // nothing more starts
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    JobEnd& e = ends[it->second.job];
    e.seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
    if (WIFEXITED(status)) e.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
    const size_t job = it->second.job;
    running.erase(it);
    on_end(job, e);
  }
  return ends;
}

}  // namespace rtb::sweep
