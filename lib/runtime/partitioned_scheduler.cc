#include "runtime/partitioned_scheduler.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>

namespace rtb::runtime {
namespace {

void allow_cpus(const std::vector<unsigned>& cpus) {
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (unsigned c : cpus) CPU_SET(c, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);  // best effort: a refusal only costs speed
}

}  // namespace

PartitionedScheduler::PartitionedScheduler(uint32_t partitions, Time lookahead, uint32_t threads)
    : of_thread_(threads), lookahead_(lookahead) {
  for (uint32_t p = 0; p < partitions; ++p) {
    parts_.push_back(std::make_unique<Part>());
    parts_.back()->owner = p % threads;
    of_thread_[p % threads].push_back(parts_.back().get());
  }
  order_claims();
}

// A thread tries its own partitions first, in order, then the other threads' last first:
// the ones their owners would reach last. (Across ranks every partition's owner is the
// rank's one thread: nothing to take.)
void PartitionedScheduler::order_claims() {
  claim_order_.assign(of_thread_.size(), {});
  for (uint32_t t = 0; t < of_thread_.size(); ++t) {
    claim_order_[t] = of_thread_[t];
    for (auto part = parts_.rbegin(); part != parts_.rend(); ++part) {
      if ((*part)->owner != t) claim_order_[t].push_back(part->get());
    }
  }
}

PartitionedScheduler::~PartitionedScheduler() {
  if (!started_) return;
  quit_ = true;
  barrier_->arrive_and_wait();  // the other threads see quit_ and return
  for (std::thread& t : threads_) t.join();
}

StageId PartitionedScheduler::add(Stage& stage, uint32_t partition) {
  ++parts_[partition]->stages;
  return parts_[partition]->scheduler.add(stage);
}

void PartitionedScheduler::add_crossing(WireLink& link, uint32_t from, uint32_t to) {
  link.make_crossing();
  parts_[from]->outgoing.push_back(&link);
  parts_[to]->incoming.push_back(&link);
  ++crossings_;
}

void PartitionedScheduler::set_ranks(Ranks& ranks, std::vector<uint32_t> rank_of_partition) {
  ranks_ = &ranks;
  rank_of_ = std::move(rank_of_partition);
  ranked_ = std::make_unique<RankCrossings>(ranks);
  of_thread_.assign(1, {});
  for (uint32_t p = 0; p < parts_.size(); ++p) {
    parts_[p]->owner = 0;
    if (here(p)) of_thread_[0].push_back(parts_[p].get());
  }
  order_claims();
}

void PartitionedScheduler::add_crossing(WireLink& link, uint32_t from, uint32_t to, uint32_t id,
                                        PoolSet* receiver_pools) {
  if (here(from) && here(to)) return add_crossing(link, from, to);
  link.make_crossing();
  if (here(from)) {
    parts_[from]->outgoing.push_back(&link);
    ranked_->add_outgoing(link, id, rank_of_[to]);
  } else {
    parts_[to]->incoming.push_back(&link);
    ranked_->add_incoming(link, id, *receiver_pools);
  }
  ++crossings_;
}

// Across ranks, after every window (and once before the first, window 0): each rank's
// earliest report and failure over its partitions, reduced with the frames' exchange.
void PartitionedScheduler::reduce_ranks(const std::vector<Part*>& mine, uint64_t window) {
  const uint32_t k = window & 1;
  Time next = Time::never();
  bool failed = false;
  for (const Part* part : mine) {
    next = std::min(next, part->report[k]);
    failed = failed || part->failed[k];
  }
  const Ranks::Reduced r = ranked_->after_window(window, next, failed);
  ranked_next_[k] = r.next;
  ranked_failed_[k] = r.failed;
}

// The latest instant any rank polled a stage (never: none did).
Time PartitionedScheduler::last_polled_everywhere(Time last) {
  const Time m = ranks_->max(last.is_never() ? Time::zero() : last + Time::ps(1));
  return m == Time::zero() ? Time::never() : m - Time::ps(1);
}

void PartitionedScheduler::start_threads() {
  started_ = true;
  for (auto& part : parts_) part->report[0] = part->scheduler.next_event();
  if (ranks_ != nullptr) reduce_ranks(of_thread_[0], 0);
  serial_next_ = serial_ != nullptr ? serial_->next_deadline() : Time::never();
  barrier_ = std::make_unique<SpinBarrier>(threads());
  for (uint32_t t = 1; t < threads(); ++t) {
    threads_.emplace_back([this, t] {
      allow_cpus(thread_cpus_);
      for (;;) {
        barrier_->arrive_and_wait();  // the start of a run, or the end of the scheduler
        if (quit_) return;
        run_windows(t);
        barrier_->arrive_and_wait();  // every thread has decided: the caller may set until_
      }
    });
  }
}

// Every thread decides the same: it reads only what the threads wrote before the last
// barrier, in the reports of the parity of the windows run so far.
bool PartitionedScheduler::decide(uint64_t windows_run, Window& w) const {
  const uint32_t k = windows_run & 1;
  Time next = serial_next_;
  if (ranks_ != nullptr) {  // every rank's partitions, reduced after the last window
    if (ranked_failed_[k]) return false;
    next = std::min(next, ranked_next_[k]);
  } else {
    for (const auto& part : parts_) {
      if (part->failed[k]) return false;
      next = std::min(next, part->report[k]);
    }
  }
  if (next.is_never() || next > until_) return false;
  w.next = next;
  w.end = std::min({next + lookahead_ - Time::ps(1), serial_next_, until_});
  return true;
}

void PartitionedScheduler::run_window(Part& part, const Window& w) {
  const uint64_t window = ++part.window;
  const uint32_t k = window & 1;
  part.failed[k] = false;
  for (WireLink* link : part.incoming) {
    if (!link->take_staged(window, part.done_through + Time::ps(1))) {
      part.violation = fmt::format(
          "link {}: a frame was due at or before {} ps, the end of its receiver's last window: "
          "the lookahead ({} ps) is longer than the link's propagation delay ({} ps)",
          link->config().name, part.done_through.ps(), lookahead_.ps(), link->config().propagation.ps());
      part.failed[k] = true;
      part.report[k] = Time::never();
      return;
    }
  }
  for (WireLink* link : part.outgoing) link->begin_window(window);
  const RunStats s = part.scheduler.run(w.end);
  part.polls += s.polls;
  part.last_polled = s.last_polled;
  Time report = part.scheduler.next_event();
  for (const WireLink* link : part.outgoing) report = std::min(report, link->first_staged());
  part.report[k] = report;
  part.done_through = w.end;
}

void PartitionedScheduler::poll_serial(Time at) {
  serial_->poll(at);
  ++serial_polls_;
  serial_last_ = at;
  serial_next_ = serial_->next_deadline();
}

// Every partition is claimed by exactly one thread per window: each thread tries them all.
void PartitionedScheduler::claim_and_run(uint32_t thread, uint64_t window, const Window& w) {
  for (Part* part : claim_order_[thread]) {
    uint64_t expected = window - 1;
    if (!part->claimed.compare_exchange_strong(expected, window, std::memory_order_acq_rel)) continue;
    if (part->owner != thread) ++part->stolen;
    run_window(*part, w);
  }
}

// A thread counts the windows itself: a partition's own count may already be one ahead,
// run by a faster thread, while this one still decides.
uint64_t PartitionedScheduler::run_windows(uint32_t thread) {
  const std::vector<Part*>& mine = of_thread_[thread];
  uint64_t windows_run = windows_;  // written between runs
  Window w;
  while (decide(windows_run, w)) {
    claim_and_run(thread, ++windows_run, w);
    if (ranks_ != nullptr) reduce_ranks(mine, windows_run);
    const bool serial_due = serial_ != nullptr && serial_next_ == w.end;  // read before anyone moves it
    barrier_->arrive_and_wait();
    if (serial_due) {
      if (thread == 0) poll_serial(w.end);
      barrier_->arrive_and_wait();
    }
  }
  return windows_run;
}

RunStats PartitionedScheduler::run(Time until) {
  const auto wall_start = std::chrono::steady_clock::now();
  if (!started_) start_threads();
  uint64_t before = serial_polls_;
  for (const auto& part : parts_) before += part->polls;
  until_ = until;
  barrier_->arrive_and_wait();  // the other threads start this run
  const uint64_t windows_run = run_windows(0);
  barrier_->arrive_and_wait();  // no thread still reads until_ for its last decision
  windows_ = windows_run;       // every thread ran as many

  // Everything read below was written before the last barrier every thread passed.
  RunStats stats;
  const std::vector<Part*>& here = of_thread_[0];  // every partition, or this rank's
  const uint32_t k = windows_ & 1;
  Time next = serial_next_;
  Time last = serial_last_;
  stats.polls = serial_polls_ - before;
  for (const auto& part : parts_) {
    stats.polls += part->polls;
    if (part->failed[k] && violation_.empty()) violation_ = part->violation;
    next = std::min(next, part->report[k]);
    if (!part->last_polled.is_never()) last = last.is_never() ? part->last_polled : std::max(last, part->last_polled);
  }
  if (ranks_ != nullptr) {
    next = std::min(serial_next_, ranked_next_[k]);
    if (ranked_failed_[k] && violation_.empty()) {
      violation_ = "a frame crossing to a partition of another rank was due before that partition could see it "
                   "(that rank's error names the link)";
    }
    last = last_polled_everywhere(last);
  }
  stats.last_polled = last;
  stats.idle = next.is_never() && violation_.empty();
  if (stats.idle) {
    stats.simulated = last.is_never() ? Time::zero() : last;
  } else {
    stats.simulated = violation_.empty() ? until : here.front()->done_through;
  }
  stats.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

}  // namespace rtb::runtime
