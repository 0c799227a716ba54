#include "realtime/start_line.h"

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_pause.h>

#include <chrono>
#include <thread>

#include <fmt/format.h>

namespace rtb::realtime {

bool StartLine::launch(Launch launch) {
  const unsigned lcore = launch.loop->lcore();
  slots_.push_back(Slot{launch, this});
  const int rc = rte_eal_remote_launch(worker_main, &slots_.back(), lcore);
  if (rc != 0) {
    error_ = fmt::format("could not start the loop on lcore {}: rte_eal_remote_launch "
                         "returned {} ({}); is another function running there?",
                         lcore, rc, rte_strerror(-rc));
    slots_.pop_back();
    return false;
  }
  lcores_.push_back(lcore);
  while (ready_.load(std::memory_order_acquire) < lcores_.size()) rte_pause();
  return true;
}

void StartLine::wait(bool main_idle) {
  for (unsigned lcore : lcores_) {
    while (main_idle && rte_eal_get_lcore_state(lcore) == RUNNING) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    rte_eal_wait_lcore(lcore);
  }
  while (done_.load(std::memory_order_acquire) < lcores_.size()) rte_pause();  // already there
}

int StartLine::worker_main(void* arg) {
  const Slot& s = *static_cast<const Slot*>(arg);
  s.line->ready_.fetch_add(1, std::memory_order_release);
  while (!s.line->go_.load(std::memory_order_acquire)) rte_pause();
  s.launch.loop->run(*s.launch.clock, s.launch.until, *s.launch.stop);
  s.line->done_.fetch_add(1, std::memory_order_release);
  return 0;
}

}  // namespace rtb::realtime
