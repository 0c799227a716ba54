// No congestion control: every flow sends at one constant rate (the baseline). Parameter
// rate_mbps (Mb/s; 0, the default, means the line rate); a rate above the line rate is
// held at the line rate. Needs no feedback and sets no deadline.
#pragma once

#include <span>

#include "cc_algos/algorithm.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc {

struct FixedRate {
  static constexpr const char* kName = "fixed_rate";
  static constexpr const char* kDescription = "no congestion control: a constant rate";
  static constexpr uint32_t kFeedback = 0;

  struct Params {
    Rate rate;  // zero = the line rate
    ResolvedParams resolved;  // every parameter as parsed, for effective.json
  };
  struct State {
    Rate rate;
  };

  static bool parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r);
  static Decision start(const Params& p, State& s, const rtb_cc_flow_start& st, Time now);
  static Decision on_timer(const Params&, State& s, Time) {
    return Decision{s.rate, std::nullopt, Time::never()};
  }
  static size_t describe(const Params&, const State& s, Time,
                         std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
    out[0] = {"rate_bps", static_cast<double>(s.rate.bps())};
    return 1;
  }
};

}  // namespace rtb::cc
