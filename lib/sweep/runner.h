// Child processes for the points of a sweep: at most N at a time, started in order, each
// with its output in a log file. SIGINT or SIGTERM to the sweep starts nothing more and
// passes SIGINT on to the children that run (rocetb run then writes its results marked
// incomplete, lib/testbed/README.md), then waits for them.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rtb::sweep {

struct Job {
  std::vector<std::string> args;  // after the program's name
  std::string log;                // stdout and stderr go here
};

struct JobEnd {
  bool started = false;
  int exit_code = -1;  // -1 when it did not exit normally
  int signal = 0;      // the signal that ended it
  double seconds = 0;  // wall time
};

// Called on the main thread as each job ends, in the order they end.
using OnJobEnd = std::function<void(size_t job, const JobEnd&)>;

// Runs `program` once per job, at most `parallel` at once. The result has one entry per job.
std::vector<JobEnd> run_jobs(const std::string& program, const std::vector<Job>& jobs, unsigned parallel,
                             const OnJobEnd& on_end);

// True once SIGINT or SIGTERM reached this process during run_jobs.
bool stop_was_requested();

// Runs `argv[0]` with `argv` in the foreground (output to this process's) and waits: its
// exit code, -1 when it could not start or did not exit normally.
int run_program(const std::vector<std::string>& argv);

// This process's own executable (/proc/self/exe): the children run the same rocetb.
std::string own_executable();

}  // namespace rtb::sweep
