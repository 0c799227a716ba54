// Parallel virtual time (design.md "Time", virtual): the stages split into partitions, each
// under its own VirtualScheduler on its own thread, synchronised conservatively in windows
// (Chandy-Misra-Bryant lookahead; here a barrier per window, as in Unison, EuroSys'24).
//
// Partitions meet only at crossing links (WireLink::make_crossing()). A frame started on one
// at time t arrives no earlier than t + its propagation delay, so if every window is at most
// `lookahead` (the smallest crossing propagation delay) long, no frame sent in a window is
// due in that window: each partition runs the window alone, and the frames it staged are
// handed to their receivers before the next one. Each window:
//
//   1. every thread computes the same window (next, end]: `next` is the earliest event any
//      partition reported (its scheduler's next deadline and the arrivals it staged), end =
//      min(next + lookahead - 1 ps, the serial stage's deadline, until);
//   2. each partition takes in the frames staged for it in the previous window (and checks
//      that none is due at or before the previous end: a lookahead violation), then runs
//      its scheduler to `end`, then reports its next event;
//   3. barrier (spin_barrier.h); if the serial stage (the sampler, which reads every partition) is due at
//      `end`, the first thread polls it alone, and a second barrier follows.
//
// Within a partition, stages are polled in (time, stage id) order with ids in the order they
// were added, as in one VirtualScheduler; across partitions nothing happens at the same
// instant that one partition could see of another. So every stage is polled at the same
// instants with the same inputs as in a single scheduler holding every stage (in the same
// relative order), and results are byte-identical for any partition count. Windows only
// change how often threads wait: a window costs a barrier of a few microseconds, so it
// pays while a window holds more work than that (a 128-host 400 Gb/s fabric does about
// 190 frame-hops in 10 ns) and does not for a lightly loaded fabric with short cables.
//
// Partitions go to threads round robin (partition p to thread p mod threads): a thread runs
// each of its partitions' window in turn, so fewer threads than partitions (fewer free
// cores) give the same results with fewer waits, and one thread runs the windows with no
// barrier at all. A partition is claimed for each window (an atomic window count), so a
// thread done with its own partitions takes those another thread has not started yet, last
// first (work stealing at window grain, as Unison balances its partitions): the window ends
// when the work is done, not when the slowest thread is. Which thread runs a partition does
// not change what it computes, so results stay byte-identical. The caller's thread is
// thread 0; the others are started at the first run() and kept, parked at the barrier,
// between runs (a run in slices costs no new threads).
//
// Across processes (MPI ranks, set_ranks()): each rank runs its own partitions on one
// thread, and after every window it ships the frames staged on wires to other ranks and
// takes in theirs (rank_crossings.h); the same exchange reduces every rank's next event and
// failure, so every rank decides the same windows. The serial stage is then each rank's
// own (its sampler reads only its partitions), polled at the same instants on every rank.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/units.h"
#include "runtime/spin_barrier.h"
#include "runtime/rank_crossings.h"
#include "runtime/ranks.h"
#include "runtime/stage.h"
#include "runtime/virtual_scheduler.h"
#include "runtime/wire_link.h"

namespace rtb::runtime {

class PartitionedScheduler {
 public:
  // partitions >= 1; lookahead > 0: no crossing link may have a shorter propagation delay;
  // 1 <= threads <= partitions.
  PartitionedScheduler(uint32_t partitions, Time lookahead, uint32_t threads);
  ~PartitionedScheduler();
  PartitionedScheduler(const PartitionedScheduler&) = delete;
  PartitionedScheduler& operator=(const PartitionedScheduler&) = delete;

  uint32_t partitions() const { return static_cast<uint32_t>(parts_.size()); }
  uint32_t threads() const { return static_cast<uint32_t>(of_thread_.size()); }
  Time lookahead() const { return lookahead_; }
  // Before the first run(). Ids are per partition, in the order added.
  StageId add(Stage& stage, uint32_t partition);
  // What a link delivering into `partition` wakes.
  Waker& waker(uint32_t partition) { return parts_[partition]->scheduler; }
  // A link whose receiver is connected to waker(to) and whose sender is in `from`.
  void add_crossing(WireLink& link, uint32_t from, uint32_t to);
  // Across processes: partition p runs on rank rank_of_partition[p]; only this rank's
  // partitions get stages. One thread per rank. Before add().
  void set_ranks(Ranks& ranks, std::vector<uint32_t> rank_of_partition);
  bool here(uint32_t partition) const { return ranks_ == nullptr || rank_of_[partition] == ranks_->rank(); }
  // As add_crossing(), for a wire with at least one end here: `id` names it on every rank,
  // and frames from another rank are copied into `receiver_pools` (the receiving
  // partition's, when it is here).
  void add_crossing(WireLink& link, uint32_t from, uint32_t to, uint32_t id, PoolSet* receiver_pools);
  // A stage polled alone at its deadlines once every partition has run through them: it may
  // read any partition (the sampler). It must not send frames. At most one.
  void set_serial(Stage& stage) { serial_ = &stage; }
  // The CPUs the other threads may run on (the caller's thread keeps its own): the EAL pins
  // the thread that started it to one core, and threads inherit that, so without this every
  // partition would share that one core. Empty: inherit.
  void set_thread_cpus(std::vector<unsigned> cpus) { thread_cpus_ = std::move(cpus); }

  // Runs until `until` (inclusive) or until no stage has work; as VirtualScheduler::run.
  // violation() is non-empty if a crossing frame was due before its receiver could see it;
  // the run then stops at once.
  RunStats run(Time until = Time::never());
  const std::string& violation() const { return violation_; }

  uint64_t windows() const { return windows_; }
  // Across ranks: frames this rank sent to and received from the others.
  const RankCrossings* rank_crossings() const { return ranked_.get(); }
  uint64_t polls(uint32_t partition) const { return parts_[partition]->polls; }
  // Windows of the partition run by a thread other than its own (partition mod threads).
  uint64_t stolen_windows(uint32_t partition) const { return parts_[partition]->stolen; }
  uint32_t stages(uint32_t partition) const { return parts_[partition]->stages; }
  uint32_t crossing_links() const { return crossings_; }

 private:
  struct alignas(64) Part {
    VirtualScheduler scheduler;
    uint32_t stages = 0;
    std::vector<WireLink*> incoming;  // crossing links this partition receives from
    std::vector<WireLink*> outgoing;  // crossing links this partition sends on
    uint64_t window = 0;              // windows it ran (all partitions alike after a barrier)
    std::atomic<uint64_t> claimed{0}; // the last window a thread claimed it for
    uint32_t owner = 0;               // the thread that tries it first
    uint64_t stolen = 0;              // windows another thread ran
    Time done_through = Time::zero(); // the end of the last window
    uint64_t polls = 0;
    Time last_polled = Time::never();
    // Its next event (including the arrivals it staged) and whether a lookahead violation
    // stopped it, by the parity of the window that wrote them: a thread still deciding
    // window k reads parity k-1 while a faster one writes parity k.
    std::array<Time, 2> report{Time::never(), Time::never()};
    std::array<bool, 2> failed{false, false};
    std::string violation;
  };
  struct Window {
    Time next;
    Time end;
  };
  bool decide(uint64_t windows_run, Window& w) const;
  uint64_t run_windows(uint32_t thread);  // returns the windows run so far
  void claim_and_run(uint32_t thread, uint64_t window, const Window& w);
  void order_claims();
  void run_window(Part& part, const Window& w);
  void poll_serial(Time at);
  void reduce_ranks(const std::vector<Part*>& mine, uint64_t window);
  Time last_polled_everywhere(Time last);
  void start_threads();

  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<std::vector<Part*>> of_thread_;  // the partitions each thread runs, in order
  // Per thread: its own partitions in order, then the others' last first.
  std::vector<std::vector<Part*>> claim_order_;
  Time lookahead_;
  Stage* serial_ = nullptr;
  Time serial_next_ = Time::never();  // written by the first thread between barriers
  Time serial_last_ = Time::never();
  uint64_t serial_polls_ = 0;
  uint32_t crossings_ = 0;
  uint64_t windows_ = 0;  // windows run by the end of the last run()
  Time until_;
  bool quit_ = false;
  bool started_ = false;
  std::string violation_;
  std::unique_ptr<SpinBarrier> barrier_;
  std::vector<std::thread> threads_;
  std::vector<unsigned> thread_cpus_;
  // Across ranks: the reduced reports, by window parity as Part::report.
  Ranks* ranks_ = nullptr;
  std::vector<uint32_t> rank_of_;
  std::unique_ptr<RankCrossings> ranked_;
  std::array<Time, 2> ranked_next_{Time::never(), Time::never()};
  std::array<bool, 2> ranked_failed_{false, false};
};

}  // namespace rtb::runtime
