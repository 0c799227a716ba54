// HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019, §3.3 and
// Algorithm 1), the sender's reaction to in-band telemetry: a window W from the most
// loaded hop's normalised inflight bytes U, paced at W/T. Registered as "hpcc". The
// per-hop formulas, with L the previous ACK's record of the same hop:
//
//   txRate = (ack.tx_bytes − L.tx_bytes) / (ack.ts − L.ts)
//   u'     = min(ack.qlen, L.qlen) / (ack.B·T) + txRate / ack.B      (the largest over hops,
//            τ = its ack.ts − L.ts)
//   τ ← min(τ, T);   U ← (1 − τ/T)·U + (τ/T)·u'                      (every INT ACK)
//   U ≥ η or incStage ≥ maxStage:  W = Wc / (U/η) + W_AI              (multiplicative)
//   otherwise:                     W = Wc + W_AI                      (additive)
//   an ACK of data sent after the last reference update also sets Wc = W and incStage
//   (0 after the multiplicative branch, +1 after the additive one); W in [W_min, W_init]
//   R = W / T
//
// T is the base RTT, W_init = line rate·T, W_AI = w_ai_bytes or W_init·(1 − η)/8 (the
// headroom η leaves, shared by 8 flows), W_min = min_rate·T. "Data sent after the last update"
// is tracked in payload bytes (on_bytes_sent, go-back-N resends included) against the bytes
// acknowledged, where the paper and the simulator compare sequence numbers with snd_nxt.
// The first INT ACK only records the hops (the simulator's first RTT). Not modelled: the
// simulator's per-hop rates (MultiRate, off in its run.py) and sampled feedback.
#pragma once

#include <span>

#include "cc_algos/algorithm.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc {

struct Hpcc {
  static constexpr const char* kName = "hpcc";
  static constexpr const char* kDescription =
      "HPCC, window and rate from in-band telemetry (utilisation of the busiest hop)";
  static constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_INT;
  static constexpr uint32_t kMaxHops = 5;

  struct Params {
    double eta;              // target utilisation η
    uint32_t max_stage;      // additive steps before a multiplicative one
    double w_ai_bytes;       // W_AI; 0: W_init·(1 − η)/8
    double min_rate_bps;     // W_min = min_rate·T
    uint64_t base_rtt_ps;    // T; 0: the path's base RTT at flow start
    ResolvedParams resolved;  // every parameter as parsed, for effective.json
  };
  struct State {
    double w;          // bytes, the window in use
    double wc;         // bytes, the reference window
    double u;          // normalised inflight bytes of the busiest hop (EWMA)
    double w_init, w_min, w_ai;  // bytes
    Time t;            // T
    Rate line;
    uint64_t sent, acked, last_update;  // payload bytes
    uint32_t inc_stage;
    uint32_t hops;     // records in `last` (0: no INT ACK yet)
    rtb_cc_int_hop last[kMaxHops];
  };

  static bool parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r);
  static Decision start(const Params& p, State& s, const rtb_cc_flow_start& st, Time now);
  static Decision on_timer(const Params&, State& s, Time) { return decide(s); }
  static Decision on_ack(const Params& p, State& s, const rtb_cc_ack& ack, Time now);
  static Decision on_bytes_sent(const Params&, State& s, Bytes bytes, Time) {
    s.sent += bytes.count();
    return decide(s);
  }
  // window_bytes, ref_window_bytes, u, inc_stage, rate_bps.
  static size_t describe(const Params& p, const State& s, Time,
                         std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out);

 private:
  static Decision decide(const State& s);
};

}  // namespace rtb::cc
