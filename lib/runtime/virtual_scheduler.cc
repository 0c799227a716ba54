#include "runtime/virtual_scheduler.h"

#include <chrono>

namespace rtb::runtime {

StageId VirtualScheduler::add(Stage& stage) {
  const StageId id = due_.add_id();
  stage.set_id(id);
  stages_.push_back(&stage);
  due_.set(id, stage.next_deadline());
  return id;
}

void VirtualScheduler::wake(StageId id, Time at) {
  if (at < now_) at = now_;
  if (at < due_.deadline(id)) due_.set(id, at);
}

RunStats VirtualScheduler::run(Time until) {
  RunStats stats;
  const auto wall_start = std::chrono::steady_clock::now();
  uint32_t id;
  while (!due_.empty()) {
    const Time t = due_.next();
    if (t > until) {
      now_ = until;  // stopped by the duration: the run covered [start, until]
      break;
    }
    due_.pop_due(t, id);
    now_ = t;
    if (trace_) trace_(now_, id);
    Stage& stage = *stages_[id];
    stage.poll(now_);
    ++stats.polls;
    wake(id, stage.next_deadline());  // keeps an earlier wake made during the poll
  }
  stats.idle = due_.empty();
  stats.simulated = now_;
  stats.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

}  // namespace rtb::runtime
