// TIMELY (SIGCOMM'15 Algorithm 1 as restated in CoNEXT'16; the HPCC simulator's
// UpdateRateTimely for the update cadence and hyperactive increase). cc-reference.md §4.2.
#include "cc_algos/timely/timely.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "cc_algos/rate_scale.h"

namespace rtb::cc {

namespace {

using S = Timely::State;
using P = Timely::Params;

enum Key : size_t {
  kTLow, kTHigh, kMinRtt, kAlpha, kBeta, kAiRate, kHaiRate, kHaiThresh, kMinRate, kCount
};

// Defaults: [HPCC-NS3] RdmaHw attributes TimelyTLow 50 us, TimelyTHigh 500 us,
// TimelyMinRtt 20 us, TimelyAlpha 0.875, TimelyBeta 0.8, MinRate 100 Mb/s; the
// hyperactive threshold 5 is hard-coded there (and is HAI_Thresh in [TIMELY-REF]);
// run.py `timely` sets RATE_AI = bw Mb/s and RATE_HAI = 5·bw Mb/s: 100 and 500 at 100 Gb/s.
constexpr std::array<NumSpec, kCount> kSpecs{{
    {"t_low_ns", "ns", 0, 1e9, 50'000, true, ""},
    {"t_high_ns", "ns", 1, 1e9, 500'000, true, "must be above t_low_ns"},
    {"min_rtt_ns", "ns", 1, 1e9, 20'000, true, "the gradient's denominator"},
    {"alpha", "EWMA weight of the newest RTT difference", 0.0, 1.0, 0.875, false, ""},
    {"beta", "multiplicative decrease factor", 0.0, 1.0, 0.8, false, ""},
    {"ai_rate_mbps", "Mb/s", 1, 10'000'000, 100, true, ""},
    {"hai_rate_mbps", "Mb/s", 1, 10'000'000, 500, true, ""},
    {"hai_thresh", "increases in a row", 0, 1'000'000, 5, true, ""},
    {"min_rate_mbps", "Mb/s", 1, 10'000'000, 100, true, ""},
}};

Time ns(double v) { return Time::ns(static_cast<uint64_t>(v)); }
Rate mbps(double v) { return Rate::mbps(static_cast<uint64_t>(v)); }

void increase(const P& p, S& s) {
  const Rate delta = s.inc_stage < p.hai_thresh ? p.ai_rate : p.hai_rate;
  s.rate = std::min(s.cap, s.rate + delta);
  ++s.inc_stage;
}

void decrease(S& s, double factor) {
  s.rate = std::max(s.floor, scale_rate(s.rate, factor));
  s.inc_stage = 0;
}

// One update with sample `rtt` (Algorithm 1).
void update(const P& p, S& s, Time rtt) {
  const double new_diff = static_cast<double>(rtt.ps()) - static_cast<double>(s.prev_rtt.ps());
  s.rtt_diff_ps = (1.0 - p.alpha) * s.rtt_diff_ps + p.alpha * new_diff;
  const double gradient = s.rtt_diff_ps / static_cast<double>(p.min_rtt.ps());
  const double r = static_cast<double>(rtt.ps());
  if (rtt < p.t_low)
    increase(p, s);
  else if (rtt > p.t_high)  // R ← R·(1 − β·(1 − T_high/rtt))
    decrease(s, 1.0 - p.beta * (1.0 - static_cast<double>(p.t_high.ps()) / r));
  else if (gradient <= 0.0)
    increase(p, s);
  else  // R ← R·(1 − β·gradient), not below 0
    decrease(s, 1.0 - p.beta * gradient);
}

}  // namespace

bool Timely::parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r) {
  std::array<double, kCount> v{};
  read_num_params(in, kSpecs, v, r);
  if (!r.failed() && v[kTLow] >= v[kTHigh])
    r.error(fmt::format("{}: t_low_ns = {} is not below t_high_ns = {}: expected t_low_ns < "
                        "t_high_ns (between them TIMELY follows the RTT gradient)",
                        r.algorithm(), v[kTLow], v[kTHigh]));
  p = Params{ns(v[kTLow]),       ns(v[kTHigh]),      ns(v[kMinRtt]),
             v[kAlpha],          v[kBeta],           mbps(v[kAiRate]),
             mbps(v[kHaiRate]),  static_cast<uint32_t>(v[kHaiThresh]),
             mbps(v[kMinRate])};
  p.resolved.set(kSpecs, v);
  return !r.failed();
}

Decision Timely::start(const P& p, S& s, const rtb_cc_flow_start& st, Time now) {
  s.cap = Rate::bps(st.line_rate_bps);
  s.floor = std::min(p.min_rate, s.cap);
  s.rate = s.cap;
  s.next_update = now;
  return decide(s);
}

Decision Timely::on_ack(const P& p, S& s, const rtb_cc_ack& ack, Time now) {
  if (ack.rtt_ps == 0 || now < s.next_update) return decide(s);
  const Time rtt = Time::ps(ack.rtt_ps);
  if (s.prev_rtt != Time::zero()) update(p, s, rtt);
  s.prev_rtt = rtt;
  s.next_update = now + rtt;
  return decide(s);
}

size_t Timely::describe(const P&, const S& s, Time,
                        std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
  out[0] = {"rate_bps", static_cast<double>(s.rate.bps())};
  out[1] = {"rtt_diff_ps", s.rtt_diff_ps};
  out[2] = {"prev_rtt_ps", static_cast<double>(s.prev_rtt.ps())};
  out[3] = {"inc_stage", static_cast<double>(s.inc_stage)};
  return 4;
}

}  // namespace rtb::cc
