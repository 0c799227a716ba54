// DCQCN reaction point as the NVIDIA NIC does it: the public reference model of
// cc-reference.md §1.3 (restated from [ISEKAI]; the firmware itself is closed), with the
// mlx5 `cc_params` names and units. Registered as "dcqcn", mlx5 defaults.
//
// Per flow: current rate R_C, target rate R_T, α in Q10. From the flow's first CNP on,
// three grids run: α every rp_dce_tcp_rtt, the decrease check every
// rp_rate_reduce_monitor_period (both anchored at the first CNP), and the increase timer
// every rp_time_reset (restarted by each cut). Bytes sent drive the byte counter.
//
// Lazy timers: α is never a deadline. It is caught up arithmetically (AlphaDecayTable)
// when it is needed: at a CNP and at a cut. The only deadlines are the next increase-timer
// expiry (none once R_C = R_T = the cap) and the decrease check after a CNP.
#pragma once

#include <span>

#include "cc_algos/algorithm.h"
#include "cc_algos/dcqcn/dcqcn_params.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc::dcqcn {

struct Dcqcn {
  static constexpr const char* kName = "dcqcn";
  static constexpr const char* kDescription =
      "DCQCN reaction point, NVIDIA mlx5 reference model (cc-reference.md §1.3), mlx5 defaults";
  static constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_CNP;

  using Params = NicParams;
  struct State {
    Rate rc;              // current rate R_C
    Rate rt;              // target rate R_T
    Rate cap;             // min(rp_max_rate, line)
    Rate floor;           // min(rp_min_rate, cap)
    Time epoch;           // first CNP: the α and decrease grids start here
    Time dec_due;         // decrease check with a CNP pending, or never
    Time inc_due;         // increase-timer expiry, or never
    uint64_t alpha_ticks; // α periods applied since epoch
    uint64_t byte_count;  // bytes since the last byte-counter event or cut
    uint32_t time_stage;
    uint32_t byte_stage;
    uint16_t alpha;       // Q10
    uint8_t alpha_cnp;    // a CNP arrived in the current α period
    uint8_t seen_cnp;
  };

  static bool parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r) {
    return parse_nic_params(in, p, r);
  }
  static Decision start(const Params& p, State& s, const rtb_cc_flow_start& st, Time now);
  static Decision on_timer(const Params& p, State& s, Time now);
  static Decision on_cnp(const Params& p, State& s, Time now);
  static Decision on_bytes_sent(const Params& p, State& s, Bytes sent, Time now);
  static NpParams np_config(const Params& p) { return p.np; }
  // alpha (0..1, caught up to now), rc_bps, rt_bps, time_stage, byte_stage.
  static size_t describe(const Params& p, const State& s, Time now,
                         std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out);

  // Exposed for tests: α after catching up to `now`, without changing the state.
  static uint32_t alpha_at(const Params& p, const State& s, Time now);
};

}  // namespace rtb::cc::dcqcn
