// DCTCP in rate form, as the HPCC authors' simulator runs it for RDMA (cc-reference.md §4.4;
// [HPCC-NS3] rdma-hw.cc HandleAckDctcp, CC_MODE 8). Registered as "dctcp".
//
// The window form's two rules (RFC 8257 §3.3, Alizadeh et al. SIGCOMM 2010) applied to a
// rate: once per round trip α ← (1 − g)·α + g·F, F = the fraction of acknowledged bytes
// whose ACK carried the ECN echo; on an echo outside congestion window reduction (CWR),
// R ← max(R_min, R·(1 − α/2)) and CWR lasts one round trip; once per round trip outside CWR,
// R ← min(line, R + R_AI).
//
// The simulator delimits a round trip by sequence numbers (the ACK passing snd_nxt as it
// was at the last update); an algorithm here sees no sequence numbers, so a round trip is
// the latest RTT sample (the ACK of data sent at the update arrives one RTT later), the
// path's base RTT until the first sample. F counts bytes, as RFC 8257 does; the simulator
// counts ACKs (the same when every frame is acknowledged and frames are full).
#pragma once

#include <span>

#include "cc_algos/algorithm.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc {

struct Dctcp {
  static constexpr const char* kName = "dctcp";
  static constexpr const char* kDescription =
      "DCTCP, rate form of the HPCC simulator (ECN echo on ACKs, alpha once per RTT)";
  static constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT;

  struct Params {
    double g;              // EWMA gain of α
    double initial_alpha;  // α at flow start
    Rate ai_rate;          // R_AI, once per round trip outside CWR
    Rate min_rate;         // R_min
    ResolvedParams resolved;  // every parameter as parsed, for effective.json
  };
  struct State {
    Rate rate;
    Rate cap;              // the line rate
    Rate floor;            // min(R_min, cap)
    double alpha;
    uint64_t batch_acked;  // bytes acknowledged in this round trip
    uint64_t batch_marked; // of which with the ECN echo
    Time batch_end;        // the round trip ends at the first ACK at or after this
    Time cwr_end;          // CWR lasts until the first ACK at or after this
    Time rtt;              // latest sample (base RTT until the first)
    uint8_t in_cwr;
  };

  static bool parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r);
  static Decision start(const Params& p, State& s, const rtb_cc_flow_start& st, Time now);
  static Decision on_timer(const Params&, State& s, Time) { return decide(s); }
  static Decision on_ack(const Params& p, State& s, const rtb_cc_ack& ack, Time now);
  // alpha, rate_bps, in_cwr.
  static size_t describe(const Params&, const State& s, Time,
                         std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out);

 private:
  static Decision decide(const State& s) { return Decision{s.rate, std::nullopt, Time::never()}; }
};

}  // namespace rtb::cc
