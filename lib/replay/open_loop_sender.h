// The open-loop replay's datapath: frames in capture order, pass after pass, into one tx
// queue of one port, on the calling lcore. Reads top to bottom:
//
//   timed (capture timing, --speed, --rate): read the clock; take the frames due by now,
//     up to a burst; hand them to rte_eth_tx_burst; what it did not take is offered again,
//     first, until it is taken (order kept, nothing dropped).
//   top speed: take the next burst whatever the time and hand it over the same way.
//
// Taking a frame is one more reference to its mbuf (frame_mbufs.h) and a pointer in the
// burst; the driver's free drops the reference. A frame is never sent early: its timing
// error is the clock read at the top of the loop turn that handed it to the call that
// accepted it, minus its due time, recorded in a fixed histogram (ns buckets, 6.25%
// wide; realtime/lateness_histogram.h). Nothing is allocated, locked or logged per frame.
//
// A port that accepts nothing for kStallLimit ends the replay (`stalled`): the frames not
// taken are released and the counters say how far it got. So does a stop request (the
// command's SIGINT/SIGTERM handler sets SendPlan::stop), checked once per loop turn
// (`interrupted`).
#pragma once

#include <rte_mbuf.h>

#include <atomic>
#include <cstdint>

#include "core/units.h"
#include "ethport/eth_port.h"
#include "realtime/lateness_histogram.h"
#include "realtime/tsc_clock.h"
#include "replay/frame_mbufs.h"
#include "replay/schedule.h"

namespace rtb::replay {

inline constexpr uint16_t kMaxBurst = 512;
// The mbuf header this many frames ahead is prefetched: a capture larger than the caches
// would otherwise miss on every frame's reference count. SendPlan::frames holds that many
// entries after the pass (FrameMbufs::kLookAhead).
inline constexpr size_t kLookAhead = 32;
inline constexpr Time kStallLimit = Time::s(1);

struct SendCounters {
  uint64_t frames = 0;       // accepted by the port
  uint64_t bytes = 0;        // their lengths (without FCS)
  uint64_t tx_calls = 0;     // rte_eth_tx_burst calls
  uint64_t short_calls = 0;  // calls that took fewer frames than offered (the rest retried)
  uint64_t refused = 0;      // frames offered but not taken, over all calls (each retried)
  Time elapsed;              // from the start (the first frame's due time) to the last call
  bool stalled = false;      // the port took nothing for kStallLimit: the replay stopped
  bool interrupted = false;  // a stop request ended the replay
};

struct SendPlan {
  rte_mbuf* const* frames = nullptr;  // one pass, in capture order, then kLookAhead more
  size_t count = 0;                   // frames in a pass
  const Schedule* schedule = nullptr;  // !timed(): top speed
  uint64_t passes = 1;                 // --loop
  uint16_t burst = 32;                 // 1..kMaxBurst
  const std::atomic<bool>* stop = nullptr;  // set: end the replay at the next loop turn
};

class OpenLoopSender {
 public:
  OpenLoopSender(ethport::EthPort& port, const SendPlan& plan, const realtime::TscClock& clock)
      : port_(port), plan_(plan), clock_(clock), stall_ticks_(stall_ticks(clock)) {}

  // Sends every pass; the clock must have been started (its zero is the first due time).
  void run();

  const SendCounters& counters() const { return counters_; }
  // Timing error of every frame sent (empty at top speed).
  const realtime::LatenessHistogram& timing_error() const { return error_; }

 private:
  struct Cursor {
    size_t index = 0;   // next frame of the pass
    uint64_t pass = 0;  // passes done
    Time base;          // the pass's start: pass * schedule period
  };
  static uint64_t stall_ticks(const realtime::TscClock& clock);

  bool more() const { return cursor_.pass < plan_.passes; }
  bool stop_requested() {
    if (plan_.stop == nullptr || !plan_.stop->load(std::memory_order_relaxed)) return false;
    counters_.interrupted = true;
    return true;
  }
  rte_mbuf* take();
  void run_timed();
  void run_top_speed();
  // Hands frames [0, n) to the port until all are taken; records their timing error when
  // `due` is given. False when the port stalled (the rest were released).
  bool send(rte_mbuf** frames, const Time* due, uint16_t n);
  bool wait_or_stall(uint64_t& stall_since);
  void record(const Time* due, uint16_t from, uint16_t to);

  ethport::EthPort& port_;
  SendPlan plan_;
  const realtime::TscClock& clock_;
  uint64_t stall_ticks_;
  Cursor cursor_;
  SendCounters counters_;
  realtime::LatenessHistogram error_;
};

}  // namespace rtb::replay
