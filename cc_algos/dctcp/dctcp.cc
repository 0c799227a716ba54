// DCTCP, rate form (cc-reference.md §4.4; [HPCC-NS3] HandleAckDctcp). Formulas beside the code.
#include "cc_algos/dctcp/dctcp.h"

#include <algorithm>
#include <array>

#include "cc_algos/rate_scale.h"

namespace rtb::cc {

namespace {

using S = Dctcp::State;
using P = Dctcp::Params;

enum Key : size_t { kG, kInitialAlpha, kAiRate, kMinRate, kCount };

// Defaults: [HPCC-NS3] run.py `dctcp` (g = 0.0625, DCTCP_RATE_AI = 615 Mb/s: "1 MTU per RTT"
// at RTT 13 us and MTU 1 KB), its RdmaHw MinRate attribute (100 Mb/s) and its initial α
// (1, rdma-queue-pair.cc; Linux dctcp_alpha_on_init is 1024/1024 too). g's range is Linux's
// dctcp_shift_g 0..10 (g = 1 .. 1/1024).
constexpr std::array<NumSpec, kCount> kSpecs{{
    {"g", "EWMA gain of alpha", 1.0 / 1024, 1.0, 0.0625, false, ""},
    {"initial_alpha", "fraction", 0.0, 1.0, 1.0, false, ""},
    {"ai_rate_mbps", "Mb/s", 1, 10'000'000, 615, true, ""},
    {"min_rate_mbps", "Mb/s", 1, 10'000'000, 100, true, ""},
}};

// The round trip as the algorithm can know it: the latest RTT sample, else the base RTT.
void note_rtt(S& s, const rtb_cc_ack& ack) {
  if (ack.rtt_ps != 0) s.rtt = Time::ps(ack.rtt_ps);
}

// Once per round trip (RFC 8257 §3.3): α ← (1 − g)·α + g·F, F = marked / acknowledged bytes.
bool end_round_trip(const P& p, S& s, Time now) {
  if (now < s.batch_end) return false;
  const double f = s.batch_acked == 0
                       ? 0.0
                       : static_cast<double>(s.batch_marked) / static_cast<double>(s.batch_acked);
  s.alpha = (1.0 - p.g) * s.alpha + p.g * f;
  s.batch_acked = s.batch_marked = 0;
  s.batch_end = now + s.rtt;
  return true;
}

}  // namespace

bool Dctcp::parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r) {
  std::array<double, kCount> v{};
  read_num_params(in, kSpecs, v, r);
  p.resolved.set(kSpecs, v);
  p.g = v[kG];
  p.initial_alpha = v[kInitialAlpha];
  p.ai_rate = Rate::mbps(static_cast<uint64_t>(v[kAiRate]));
  p.min_rate = Rate::mbps(static_cast<uint64_t>(v[kMinRate]));
  return !r.failed();
}

Decision Dctcp::start(const P& p, S& s, const rtb_cc_flow_start& st, Time now) {
  s.cap = Rate::bps(st.line_rate_bps);
  s.floor = std::min(p.min_rate, s.cap);
  s.rate = s.cap;  // line rate from the start, as RDMA NICs do
  s.alpha = p.initial_alpha;
  s.rtt = Time::ps(st.base_rtt_ps);
  s.batch_end = now + s.rtt;
  s.cwr_end = now;
  return decide(s);
}

Decision Dctcp::on_ack(const P& p, S& s, const rtb_cc_ack& ack, Time now) {
  note_rtt(s, ack);
  s.batch_acked += ack.acked_bytes;
  if (ack.ecn_echo) s.batch_marked += ack.acked_bytes;
  const bool new_round_trip = end_round_trip(p, s, now);
  if (s.in_cwr && now >= s.cwr_end) s.in_cwr = 0;
  if (ack.ecn_echo && !s.in_cwr) {
    // R ← max(R_min, R·(1 − α/2)); one cut per round trip (CWR).
    s.rate = std::max(s.floor, scale_rate(s.rate, 1.0 - s.alpha / 2.0));
    s.in_cwr = 1;
    s.cwr_end = now + s.rtt;
  }
  if (!s.in_cwr && new_round_trip) s.rate = std::min(s.cap, s.rate + p.ai_rate);  // R += R_AI
  return decide(s);
}

size_t Dctcp::describe(const P&, const S& s, Time,
                       std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
  out[0] = {"alpha", s.alpha};
  out[1] = {"rate_bps", static_cast<double>(s.rate.bps())};
  out[2] = {"in_cwr", static_cast<double>(s.in_cwr)};
  return 3;
}

}  // namespace rtb::cc
