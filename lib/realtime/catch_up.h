// Catch-up: how a realtime loop lets the modelled stages run behind the clock by a bounded
// amount, so that frames start back to back on the wire and leave in bursts (design.md
// "Time", realtime). Without it a poll at `now` starts one frame, the wire model is busy
// one frame time past `now`, and the loop sends one frame per iteration.
//
// Per iteration and modelled stage (Stage::polled_at_now_only() false) whose next deadline
// d is before `now`:
//
//     t = max(d, previous poll of the stage), raised to now - window if older
//     repeat: poll(t); d = max(next_deadline(), t); stop when t == now, d > now or after
//             max_polls polls; t = d, or now after kMaxPollsPerInstant polls at one t
//
// Each poll is the stage's ordinary virtual-time poll at its own modelled instant, so the
// pacer, congestion control, PFC pauses and the arbiter stay exact per frame inside a
// burst. The cost: a frame with modelled start t leaves the lcore up to one iteration
// later than t (at most `window` late, since older work is moved up to now - window).
// A stage still due at t after a poll is polled at t again, as the virtual scheduler does
// (a timer fired, and its frame starts in the next poll); after kMaxPollsPerInstant polls
// at one instant it is blocked, not catching up (a host whose port is full: its wire is
// free but the port takes nothing), and goes on at `now`.
#pragma once

#include <cstdint>

#include "core/units.h"

namespace rtb::realtime {

// Polls of one stage at one modelled instant before it counts as blocked: a host or switch
// needs one, two when a timer's work leads to a frame.
inline constexpr uint32_t kMaxPollsPerInstant = 4;

struct CatchUp {
  // How far behind the clock due work may still run at its own modelled instant. Work
  // older than that runs at now - window: the model skips the time the lcore lost
  // (window_overruns, skipped), as a NIC whose queue was not served sends nothing then.
  Time window = Time::us(5);
  // Polls of one stage in one iteration: a host starts at most one data frame per port
  // and poll (the wire is then busy), so this bounds the burst a host hands its ports.
  // Work still due after max_polls waits for the next iteration (burst_limited).
  uint32_t max_polls = 64;
};

struct CatchUpCounters {
  uint64_t polls = 0;            // polls beyond one per stage and iteration
  uint64_t window_overruns = 0;  // stage iterations whose due work was older than the window
  Time skipped;                  // modelled time skipped by those
  uint64_t burst_limited = 0;    // stage iterations cut at max_polls with work still due

  void merge(const CatchUpCounters& o) {
    polls += o.polls;
    window_overruns += o.window_overruns;
    skipped += o.skipped;
    burst_limited += o.burst_limited;
  }
};

}  // namespace rtb::realtime
