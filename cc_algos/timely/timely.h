// TIMELY (Mittal et al., SIGCOMM 2015), RTT-gradient rate control with hyperactive
// increase, as the HPCC authors' simulator runs it ([HPCC-NS3] rdma-hw.cc UpdateRateTimely,
// CC_MODE 7; cc-reference.md §4.2). Registered as "timely".
//
// Once per round trip, with the ACK's RTT sample `rtt` and the previous update's `prev`:
//   rtt_diff ← (1 − α)·rtt_diff + α·(rtt − prev);  gradient = rtt_diff / D_minRTT
//   rtt < T_low              → R += δ     (δ = R_AI, or R_HAI after hai_thresh increases in a row)
//   rtt > T_high             → R ← R·(1 − β·(1 − T_high/rtt))
//   gradient ≤ 0             → R += δ
//   otherwise                → R ← R·max(0, 1 − β·gradient)
// then R is held in [R_min, line]. The first sample only sets `prev`.
//
// The simulator updates when an ACK passes snd_nxt as it was at the last update; an
// algorithm here sees no sequence numbers, so the next update is the first ACK one RTT
// sample after the last (the ACK of data sent at the update arrives one RTT later).
// ACKs in between change nothing, as in the simulator (its FastReactTimely is empty).
#pragma once

#include <span>

#include "cc_algos/algorithm.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc {

struct Timely {
  static constexpr const char* kName = "timely";
  static constexpr const char* kDescription =
      "TIMELY, RTT gradient with hyperactive increase (HPCC simulator's form)";
  static constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_RTT;

  struct Params {
    Time t_low;
    Time t_high;
    Time min_rtt;       // D_minRTT, normalises the gradient
    double alpha;       // EWMA weight of the newest RTT difference
    double beta;        // multiplicative decrease factor
    Rate ai_rate;       // δ
    Rate hai_rate;      // δ in hyperactive increase
    uint32_t hai_thresh;// increases in a row before δ = R_HAI
    Rate min_rate;
    ResolvedParams resolved;  // every parameter as parsed, for effective.json
  };
  struct State {
    Rate rate;
    Rate cap;
    Rate floor;
    double rtt_diff_ps;  // EWMA of RTT differences, signed, ps
    Time prev_rtt;       // the RTT at the last update; zero before the first sample
    Time next_update;    // the next update is the first RTT sample at or after this
    uint32_t inc_stage;  // increases in a row
  };

  static bool parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r);
  static Decision start(const Params& p, State& s, const rtb_cc_flow_start& st, Time now);
  static Decision on_timer(const Params&, State& s, Time) { return decide(s); }
  static Decision on_ack(const Params& p, State& s, const rtb_cc_ack& ack, Time now);
  // rate_bps, rtt_diff_ps, prev_rtt_ps, inc_stage.
  static size_t describe(const Params&, const State& s, Time,
                         std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out);

 private:
  static Decision decide(const State& s) { return Decision{s.rate, std::nullopt, Time::never()}; }
};

}  // namespace rtb::cc
