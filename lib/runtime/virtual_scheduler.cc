#include "runtime/virtual_scheduler.h"

#include <chrono>

namespace rtb::runtime {

StageId VirtualScheduler::add(Stage& stage) {
  const auto id = static_cast<StageId>(slots_.size());
  stage.set_id(id);
  slots_.push_back(Slot{&stage});
  schedule(id, stage.next_deadline());
  return id;
}

void VirtualScheduler::schedule(StageId id, Time at) {
  Slot& slot = slots_[id];
  slot.scheduled = at;
  ++slot.generation;
  if (!at.is_never()) heap_.push(Entry{at, id, seq_++, slot.generation});
}

void VirtualScheduler::wake(StageId id, Time at) {
  if (at < now_) at = now_;
  if (at < slots_[id].scheduled) schedule(id, at);
}

RunStats VirtualScheduler::run(Time until) {
  RunStats stats;
  const auto wall_start = std::chrono::steady_clock::now();
  while (!heap_.empty()) {
    const Entry e = heap_.top();
    if (e.at > until) {
      now_ = until;  // stopped by the duration: the run covered [start, until]
      break;
    }
    heap_.pop();
    Slot& slot = slots_[e.stage];
    if (e.generation != slot.generation) continue;  // superseded by an earlier wake
    now_ = e.at;
    slot.scheduled = Time::never();
    if (trace_) trace_(now_, e.stage);
    slot.stage->poll(now_);
    ++stats.polls;
    const Time next = slot.stage->next_deadline();
    if (next < slot.scheduled) schedule(e.stage, next < now_ ? now_ : next);
  }
  stats.idle = heap_.empty();
  stats.simulated = now_;
  stats.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

}  // namespace rtb::runtime
