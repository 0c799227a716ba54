// Swift (Kumar et al., "Swift: Delay is Simple and Effective for Congestion Control in
// the Datacenter", SIGCOMM 2020, §3 and Algorithm 1; cc-reference.md §4.5), the fabric
// loop: a congestion window driven by the RTT sample against a target delay that grows
// with the path's hop count and shrinks as the window grows (flow scaling). Registered
// as "swift".
//
//   target = base_target + hops·h + clamp(A/√cwnd + B, 0, fs_range)
//            A = fs_range / (1/√fs_min_cwnd − 1/√fs_max_cwnd),  B = −A/√fs_max_cwnd
//   ACK, delay < target:  cwnd += ai·acked/cwnd (cwnd ≥ 1),  cwnd += ai·acked (cwnd < 1)
//   ACK, delay ≥ target, at most once per RTT:
//                         cwnd ← cwnd·max(1 − β·(delay − target)/delay, 1 − max_mdf)
//   NAK (fast recovery), at most once per RTT:  cwnd ← cwnd·(1 − max_mdf)
//   cwnd held in [min_cwnd, max_cwnd]
// cwnd counts packets of mtu_bytes (acked = acked_bytes / mtu_bytes). The window is
// cwnd·mtu_bytes and the flow is paced at the line rate; below one packet it is paced at
// cwnd·mtu_bytes per RTT (the paper's pacing delay RTT/cwnd) with a one-packet window.
//
// Not modelled: the endpoint loop (rocetb's RTT sample includes the fixed ACK turnaround,
// not host delay that varies), the retransmission-timeout branch (no timeouts here).
#pragma once

#include <span>

#include "cc_algos/algorithm.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc {

struct Swift {
  static constexpr const char* kName = "swift";
  static constexpr const char* kDescription =
      "Swift, delay-based window with hop and flow scaling of the target delay (fabric loop)";
  static constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT;

  struct Params {
    double base_target_ps;
    double hop_scale_ps;   // h, per switch on the path
    double fs_range_ps;
    double fs_a;           // A, ps·√packets
    double fs_b;           // B, ps
    double ai;             // packets per RTT
    double beta;
    double max_mdf;
    double min_cwnd;       // packets
    double max_cwnd;       // packets; 0 = one base-RTT BDP at the line rate
    double mtu_bytes;
    ResolvedParams resolved;  // every parameter as parsed, for effective.json
  };
  struct State {
    double cwnd;           // packets
    double max_cwnd;       // packets
    Rate line;
    Time rtt;              // latest sample (base RTT until the first)
    Time last_decrease;    // a decrease waits one RTT after this
    uint32_t hops;
    uint8_t decreased;     // a decrease has happened (last_decrease is set)
  };

  static bool parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r);
  static Decision start(const Params& p, State& s, const rtb_cc_flow_start& st, Time now);
  static Decision on_timer(const Params& p, State& s, Time) { return decide(p, s); }
  static Decision on_ack(const Params& p, State& s, const rtb_cc_ack& ack, Time now);
  // cwnd_packets, target_delay_ps, rtt_ps.
  static size_t describe(const Params& p, const State& s, Time,
                         std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out);

  // Exposed for tests: the target delay (ps) for this flow at its current window.
  static double target_ps(const Params& p, const State& s);

 private:
  static Decision decide(const Params& p, const State& s);
};

}  // namespace rtb::cc
