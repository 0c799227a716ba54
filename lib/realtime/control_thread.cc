#include "realtime/control_thread.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <utility>

namespace rtb::realtime {
namespace {

// Allow every configured CPU: a thread started from the EAL main lcore inherits its
// single-core affinity and would otherwise compete with that lcore's loop. Best effort:
// the kernel keeps the cgroup's limits, and on failure the thread stays where it was.
void unpin_this_thread() {
  cpu_set_t all;
  CPU_ZERO(&all);
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &all);
  (void)pthread_setaffinity_np(pthread_self(), sizeof(all), &all);
}

}  // namespace

ControlThread::ControlThread(std::function<void()> control, std::chrono::microseconds period)
    : control_(std::move(control)), period_(period) {
  if (control_) thread_ = std::thread([this] { main(); });
}

ControlThread::~ControlThread() { finish(); }

void ControlThread::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ControlThread::main() {
  unpin_this_thread();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!done_) {
    lock.unlock();
    control_();
    ++calls_;
    lock.lock();
    wake_.wait_for(lock, period_, [this] { return done_; });
  }
  lock.unlock();
  control_();  // the last call, after every loop ended
  ++calls_;
}

}  // namespace rtb::realtime
