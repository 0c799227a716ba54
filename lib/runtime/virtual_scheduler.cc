#include "runtime/virtual_scheduler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace rtb::runtime {

StageId VirtualScheduler::add(Stage& stage) {
  const auto id = static_cast<StageId>(slots_.size());
  if (id >> (64 - kGenerationBits) != 0) {
    std::fprintf(stderr, "rocetb: virtual scheduler: more than 2^%u stages\n", 64 - kGenerationBits);
    std::abort();  // an entry's key holds the stage id in its top bits
  }
  stage.set_id(id);
  slots_.push_back(Slot{&stage, Time::never(), uint64_t{id} << kGenerationBits});
  ++stages_;
  if (stages_ == scan_up_to_ + 1) build_heap();  // from now on the heap orders
  schedule(id, stage.next_deadline());
  return id;
}

// A new generation supersedes the stage's previous entry, if any.
void VirtualScheduler::schedule(StageId id, Time at) {
  Slot& slot = slots_[id];
  slot.scheduled = at;
  if (scanning()) return;
  slot.key = next_key(slot.key);
  if (!at.is_never()) push(Entry{at, slot.key});
}

// One live entry per scheduled stage, when the stage count outgrows the scan.
void VirtualScheduler::build_heap() {
  for (StageId id = 0; id < stages_; ++id) {
    Slot& slot = slots_[id];
    slot.key = next_key(slot.key);
    if (!slot.scheduled.is_never()) push(Entry{slot.scheduled, slot.key});
  }
}

void VirtualScheduler::wake(StageId id, Time at) {
  if (at < now_) at = now_;
  if (at < slots_[id].scheduled) schedule(id, at);
}

void VirtualScheduler::push(Entry e) {
  size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (!e.before(heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void VirtualScheduler::pop() {
  const Entry last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) replace_root(last);
}

// The root's entry replaced by `e`, sifted down into place.
void VirtualScheduler::replace_root(Entry e) {
  const size_t n = heap_.size();
  size_t i = 0;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && heap_[child + 1].before(heap_[child])) ++child;
    if (!heap_[child].before(e)) break;
    heap_[i] = heap_[child];
    i = child;
  }
  heap_[i] = e;
}

// The earliest entry that is not the polled stage's own (`polled`, at the root unless an
// entry pushed during the poll went above it), or nothing.
const VirtualScheduler::Entry* VirtualScheduler::first_other(uint64_t polled) const {
  if (heap_.empty()) return nullptr;
  if (heap_.front().key != polled) return &heap_.front();
  if (heap_.size() == 1) return nullptr;
  if (heap_.size() == 2 || heap_[1].before(heap_[2])) return &heap_[1];
  return &heap_[2];
}

uint64_t VirtualScheduler::next_key(uint64_t key) {
  return (key & ~kGenerationMask) | ((key + 1) & kGenerationMask);
}

// Polls stage `id` at `at`, then records its next deadline. With a heap, the stage's entry
// stays at the root while it is polled and is then replaced by its next one (one sift
// down, where a pop and a push took two); a stage is polled again at once while that
// deadline is due before every other entry (live or stale: a stale one only makes this
// path give way to the heap).
void VirtualScheduler::poll_stage(StageId id, Time at, Time until, RunStats& stats) {
  Slot& slot = slots_[id];
  Stage& stage = *slot.stage;
  const uint64_t polled = slot.key;  // its root entry's key (heap)
  for (;;) {
    now_ = at;
    slot.scheduled = Time::never();
    if (trace_) trace_(now_, id);
    stage.poll(now_);
    ++stats.polls;
    Time next = stage.next_deadline();
    if (next < now_) next = now_;
    if (next >= slot.scheduled) {  // never, or a wake during the poll came first
      if (!scanning()) retire(id, polled);
      return;
    }
    if (scanning()) {
      schedule(id, next);
      return;
    }
    slot.key = next_key(slot.key);  // retires an entry a wake during the poll pushed
    const Entry mine{next, slot.key};
    const Entry* other = first_other(polled);
    if (next <= until && (other == nullptr || mine.before(*other))) {
      at = next;
      continue;
    }
    slot.scheduled = next;
    if (!heap_.empty() && heap_.front().key == polled) {
      replace_root(mine);
    } else {
      push(mine);
    }
    return;
  }
}

// A polled stage with nothing scheduled: its root entry, if still live, becomes stale, and
// goes if it is still the root.
void VirtualScheduler::retire(StageId id, uint64_t polled) {
  Slot& slot = slots_[id];
  if (slot.key == polled) slot.key = next_key(slot.key);
  if (!heap_.empty() && heap_.front().key == polled) pop();
}

void VirtualScheduler::run_heap(Time until, RunStats& stats) {
  while (!heap_.empty()) {
    const Entry e = heap_.front();
    if (e.at > until) {
      if (stats.polls > 0) last_polled_ = now_;
      now_ = until;  // stopped by the duration: the run covered [start, until]
      return;
    }
    const StageId id = e.stage();
    if (e.key != slots_[id].key) {  // superseded by an earlier wake
      pop();
      continue;
    }
    poll_stage(id, e.at, until, stats);  // replaces or removes the root entry
  }
  if (stats.polls > 0) last_polled_ = now_;
  stats.idle = true;
}

// The earliest deadline, the lowest stage id among equals (strict <), by a scan.
void VirtualScheduler::run_scan(Time until, RunStats& stats) {
  for (;;) {
    StageId best = kNoStage;
    Time at = Time::never();
    for (StageId id = 0; id < stages_; ++id) {
      if (slots_[id].scheduled < at) {
        at = slots_[id].scheduled;
        best = id;
      }
    }
    if (best == kNoStage) {
      if (stats.polls > 0) last_polled_ = now_;
      stats.idle = true;
      return;
    }
    if (at > until) {
      if (stats.polls > 0) last_polled_ = now_;
      now_ = until;  // stopped by the duration: the run covered [start, until]
      return;
    }
    poll_stage(best, at, until, stats);
  }
}

Time VirtualScheduler::next_event() {
  if (scanning()) {
    Time at = Time::never();
    for (StageId id = 0; id < stages_; ++id) at = std::min(at, slots_[id].scheduled);
    return at;
  }
  while (!heap_.empty() && heap_.front().key != slots_[heap_.front().stage()].key) pop();
  return heap_.empty() ? Time::never() : heap_.front().at;
}

RunStats VirtualScheduler::run(Time until) {
  RunStats stats;
  const auto wall_start = std::chrono::steady_clock::now();
  if (scanning()) {
    run_scan(until, stats);
  } else {
    run_heap(until, stats);
  }
  stats.simulated = now_;
  stats.last_polled = last_polled_;
  stats.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

}  // namespace rtb::runtime
