// DCQCN as its authors specified it (Zhu et al., SIGCOMM 2015), restated in
// cc-reference.md §1.1 from CoNEXT'16 and the authors' ns-3 [NS3-RDMA]. Registered as
// "dcqcn_paper"; parameters keep the mlx5 names where the meaning carries over.
//
//   on CNP:        R_T = R_C (clamp);  α = (1 − g)α + g;  R_C = R_C(1 − α/2)
//                  stages reset; increase timer restarted (T); α timer restarted (τ′)
//   α timer:       α = (1 − g)α every τ′ after the last CNP
//   increase:      timer every T, byte counter every B; fast recovery while both stages
//                  < F; hyper (R_T += i·R_HAI, i = min(stages) − F + 1, T and B halved)
//                  when both ≥ F; additive (R_T += R_AI) otherwise; R_C = (R_T + R_C)/2.
//
// α, g and the cut are real numbers (double), as in the paper, the authors' ns-3 and the
// CoNEXT'16 fluid model; the NIC model `dcqcn` keeps the mlx5 Q10 α (alpha.h), whose
// rounding this model must not inherit (README.md, "α resolution").
#pragma once

#include <span>

#include "cc_algos/algorithm.h"
#include "cc_algos/dcqcn/dcqcn_params.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc::dcqcn {

struct DcqcnPaper {
  static constexpr const char* kName = "dcqcn_paper";
  static constexpr const char* kDescription =
      "DCQCN as in the SIGCOMM'15 paper (cc-reference.md §1.1), paper defaults, "
      "R_HAI from the authors' ns-3";
  static constexpr uint32_t kFeedback = RTB_CC_FEEDBACK_CNP;

  using Params = PaperParams;
  struct State {
    Rate rc;
    Rate rt;
    Rate cap;
    Rate floor;
    Time alpha_anchor;     // last CNP: the α timer restarts there
    Time inc_due;          // increase-timer expiry, or never
    uint64_t alpha_ticks;  // α periods applied since alpha_anchor
    uint64_t byte_count;
    uint64_t byte_quota;   // B, or B/2 in hyper increase
    double alpha;          // 0..1, α₀ = 1
    uint32_t time_stage;
    uint32_t byte_stage;
    uint8_t seen_cnp;
  };

  static bool parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r) {
    return parse_paper_params(in, p, r);
  }
  static Decision start(const Params& p, State& s, const rtb_cc_flow_start& st, Time now);
  static Decision on_timer(const Params& p, State& s, Time now);
  static Decision on_cnp(const Params& p, State& s, Time now);
  static Decision on_bytes_sent(const Params& p, State& s, Bytes sent, Time now);
  static NpParams np_config(const Params& p) { return p.np; }
  // alpha (0..1, caught up to now), rc_bps, rt_bps, time_stage, byte_stage.
  static size_t describe(const Params& p, const State& s, Time now,
                         std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out);

  // α (0..1) caught up to `now`.
  static double alpha_at(const Params& p, const State& s, Time now);
};

}  // namespace rtb::cc::dcqcn
