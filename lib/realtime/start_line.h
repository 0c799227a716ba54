// The start line of a realtime run's worker lcores (realtime_scheduler.cc): each worker is
// launched with rte_eal_remote_launch, reports ready and spins until release(), so the epoch
// (taken just before release) is shared by every lcore and no lcore's start-up shows up as
// lateness.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "core/units.h"
#include "realtime/lcore_loop.h"
#include "realtime/tsc_clock.h"

namespace rtb::realtime {

// What a worker lcore's loop needs.
struct Launch {
  LcoreLoop* loop;
  const TscClock* clock;
  Time until;
  const std::atomic<bool>* stop;
};

class StartLine {
 public:
  // `loops`: the most launches there will be (their slots must not move).
  explicit StartLine(size_t loops) { slots_.reserve(loops); }
  StartLine(const StartLine&) = delete;
  StartLine& operator=(const StartLine&) = delete;

  // Launches `launch.loop` on its lcore and waits until it is spinning. False (with
  // error() set) when the EAL refuses.
  bool launch(Launch launch);
  // Every launched worker starts its loop.
  void release() { go_.store(true, std::memory_order_release); }
  // Until every launched loop has ended. An idle main thread sleeps between checks instead
  // of spinning in rte_eal_wait_lcore (on a small machine its core is someone's). Returns
  // with every worker's writes visible here: each worker counts itself done (release) and
  // this acquires the count, in C++ atomics a race detector sees, not only inside the EAL.
  void wait(bool main_idle);

  const std::string& error() const { return error_; }

 private:
  struct Slot {
    Launch launch;
    StartLine* line;
  };
  static int worker_main(void* arg);

  std::vector<Slot> slots_;  // reserved: addresses stay put while workers read them
  std::vector<unsigned> lcores_;
  std::atomic<unsigned> ready_{0};
  std::atomic<bool> go_{false};
  std::atomic<unsigned> done_{0};
  std::string error_;
};

}  // namespace rtb::realtime
