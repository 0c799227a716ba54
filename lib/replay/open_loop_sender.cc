#include "replay/open_loop_sender.h"

#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

namespace rtb::replay {

uint64_t OpenLoopSender::stall_ticks(const realtime::TscClock& clock) {
  return clock.hz() * (kStallLimit.ps() / Time::s(1).ps());
}

// One more reference to the next frame (the driver's free drops it), and the cursor moved.
rte_mbuf* OpenLoopSender::take() {
  static_assert(kLookAhead <= FrameMbufs::kLookAhead);
  rte_prefetch0(plan_.frames[cursor_.index + kLookAhead]);
  rte_mbuf* m = plan_.frames[cursor_.index];
  rte_mbuf_refcnt_update(m, 1);
  counters_.bytes += m->pkt_len;
  if (++cursor_.index == plan_.count) {
    cursor_.index = 0;
    ++cursor_.pass;
    if (plan_.schedule->timed()) cursor_.base += plan_.schedule->period;
  }
  return m;
}

void OpenLoopSender::run() {
  if (plan_.schedule->timed()) {
    run_timed();
  } else {
    run_top_speed();
  }
  counters_.elapsed = clock_.now();
}

void OpenLoopSender::run_timed() {
  rte_mbuf* burst[kMaxBurst];
  Time due[kMaxBurst];
  const Time* pass_due = plan_.schedule->due.data();
  while (more() && !stop_requested()) {
    const Time now = clock_.now();
    uint16_t n = 0;
    while (n < plan_.burst && more()) {
      const Time d = cursor_.base + pass_due[cursor_.index];
      if (d > now) break;
      due[n] = d;
      burst[n++] = take();
    }
    if (n == 0) continue;
    if (!send(burst, due, n)) return;
  }
}

void OpenLoopSender::run_top_speed() {
  rte_mbuf* burst[kMaxBurst];
  while (more() && !stop_requested()) {
    uint16_t n = 0;
    while (n < plan_.burst && more()) burst[n++] = take();
    if (!send(burst, nullptr, n)) return;
  }
}

bool OpenLoopSender::send(rte_mbuf** frames, const Time* due, uint16_t n) {
  uint16_t done = port_.tx(frames, n);
  ++counters_.tx_calls;
  if (due != nullptr) record(due, 0, done);
  uint64_t stall_since = 0;
  while (done < n) {
    ++counters_.short_calls;
    counters_.refused += n - done;
    if (!wait_or_stall(stall_since)) {
      for (uint16_t i = done; i < n; ++i) {
        counters_.bytes -= frames[i]->pkt_len;
        rte_pktmbuf_free(frames[i]);  // drops the reference take() added
      }
      counters_.frames += done;
      counters_.stalled = true;
      return false;
    }
    const uint16_t k = port_.tx(frames + done, n - done);
    ++counters_.tx_calls;
    if (due != nullptr) record(due, done, done + k);
    if (k > 0) stall_since = 0;
    done += k;
  }
  counters_.frames += n;
  return true;
}

// False once the port has taken nothing for kStallLimit since `stall_since` (0: not yet
// waiting; set here).
bool OpenLoopSender::wait_or_stall(uint64_t& stall_since) {
  const uint64_t t = rte_rdtsc();
  if (stall_since == 0) stall_since = t;
  rte_pause();
  return t - stall_since < stall_ticks_;
}

// The port took frames [from, to) at some instant of the call that just returned: the clock
// read now bounds each one's error from above (a preemption inside or before the call
// counts, as it delays the frame on the wire).
void OpenLoopSender::record(const Time* due, uint16_t from, uint16_t to) {
  if (from == to) return;
  const Time at = clock_.now();
  for (uint16_t i = from; i < to; ++i) error_.record(at - due[i]);
}

}  // namespace rtb::replay
