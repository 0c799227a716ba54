// Swift's fabric loop (SIGCOMM'20 Algorithm 1; cc-reference.md §4.5). Formulas beside the code.
#include "cc_algos/swift/swift.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace rtb::cc {

namespace {

using S = Swift::State;
using P = Swift::Params;

enum Key : size_t {
  kBaseTarget, kHopScale, kFsRange, kFsMinCwnd, kFsMaxCwnd, kAi, kBeta, kMaxMdf, kMinCwnd,
  kMaxCwnd, kMtu, kCount
};

// Defaults: ai, beta, max_mdf, fs_min_cwnd and fs_max_cwnd as cc-reference.md §4.5 found
// them in public implementations (the paper's own table was not readable). The delays are
// rocetb's choices for its 100 Gb/s single-switch default (base RTT 731 ns, see README.md).
constexpr std::array<NumSpec, kCount> kSpecs{{
    {"base_target_ns", "ns", 1, 1e9, 2'000, true, ""},
    {"hop_scale_ns", "ns per switch on the path", 0, 1e9, 500, true, ""},
    {"fs_range_ns", "ns", 0, 1e9, 4'000, true, ""},
    {"fs_min_cwnd", "packets", 0.001, 1e6, 0.1, false, "must be below fs_max_cwnd"},
    {"fs_max_cwnd", "packets", 0.001, 1e6, 100, false, ""},
    {"ai", "packets per RTT", 0.0001, 1e6, 1.0, false, ""},
    {"beta", "multiplicative decrease factor", 0.0, 1.0, 0.8, false, ""},
    {"max_mdf", "largest cut, fraction of the window", 0.0, 0.99, 0.5, false, ""},
    {"min_cwnd", "packets", 0.001, 1e6, 0.01, false, ""},
    {"max_cwnd", "packets, 0 = one base-RTT BDP at the line rate", 0, 1e9, 0, false,
     "when not 0, at least min_cwnd"},
    {"mtu_bytes", "bytes per packet (the scenario's path_mtu)", 256, 4096, 1024, true, ""},
}};

double clamp_cwnd(const S& s, const P& p, double w) { return std::clamp(w, p.min_cwnd, s.max_cwnd); }

bool can_decrease(const S& s, Time now) { return !s.decreased || now - s.last_decrease >= s.rtt; }

void cut(S& s, const P& p, double factor, Time now) {
  s.cwnd = clamp_cwnd(s, p, s.cwnd * factor);
  s.last_decrease = now;
  s.decreased = 1;
}

void cross_checks(const std::array<double, kCount>& v, Reporter& r) {
  if (v[kFsMinCwnd] >= v[kFsMaxCwnd])
    r.error(fmt::format("{}: fs_min_cwnd = {} is not below fs_max_cwnd = {}: expected "
                        "fs_min_cwnd < fs_max_cwnd (flow scaling spans that range of windows)",
                        r.algorithm(), v[kFsMinCwnd], v[kFsMaxCwnd]));
  if (v[kMaxCwnd] != 0 && v[kMaxCwnd] < v[kMinCwnd])
    r.error(fmt::format("{}: max_cwnd = {} is below min_cwnd = {}: expected 0 (one BDP) or at "
                        "least min_cwnd",
                        r.algorithm(), v[kMaxCwnd], v[kMinCwnd]));
}

}  // namespace

bool Swift::parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r) {
  std::array<double, kCount> v{};
  read_num_params(in, kSpecs, v, r);
  p.resolved.set(kSpecs, v);
  if (r.failed()) return false;
  cross_checks(v, r);
  p.base_target_ps = v[kBaseTarget] * 1e3;
  p.hop_scale_ps = v[kHopScale] * 1e3;
  p.fs_range_ps = v[kFsRange] * 1e3;
  // A = fs_range / (1/√fs_min_cwnd − 1/√fs_max_cwnd),  B = −A/√fs_max_cwnd
  p.fs_a = p.fs_range_ps / (1.0 / std::sqrt(v[kFsMinCwnd]) - 1.0 / std::sqrt(v[kFsMaxCwnd]));
  p.fs_b = -p.fs_a / std::sqrt(v[kFsMaxCwnd]);
  p.ai = v[kAi];
  p.beta = v[kBeta];
  p.max_mdf = v[kMaxMdf];
  p.min_cwnd = v[kMinCwnd];
  p.max_cwnd = v[kMaxCwnd];
  p.mtu_bytes = v[kMtu];
  return !r.failed();
}

double Swift::target_ps(const P& p, const S& s) {
  // target = base_target + hops·h + clamp(A/√cwnd + B, 0, fs_range)
  const double fs = std::clamp(p.fs_a / std::sqrt(s.cwnd) + p.fs_b, 0.0, p.fs_range_ps);
  return p.base_target_ps + static_cast<double>(s.hops) * p.hop_scale_ps + fs;
}

Decision Swift::start(const P& p, S& s, const rtb_cc_flow_start& st, Time) {
  s.line = Rate::bps(st.line_rate_bps);
  s.rtt = Time::ps(st.base_rtt_ps);
  s.hops = st.hop_count;
  // One base-RTT BDP at the line rate, in packets: the window a line-rate start needs.
  const double bdp = static_cast<double>(s.line.bytes_in(s.rtt).count()) / p.mtu_bytes;
  s.max_cwnd = p.max_cwnd != 0 ? p.max_cwnd : std::max(bdp, p.min_cwnd);
  s.cwnd = s.max_cwnd;  // flows start at the line rate, as with every RDMA algorithm here
  return decide(p, s);
}

Decision Swift::on_ack(const P& p, S& s, const rtb_cc_ack& ack, Time now) {
  if (ack.rtt_ps != 0) s.rtt = Time::ps(ack.rtt_ps);
  if (ack.is_nak) {  // fast recovery: cwnd ← cwnd·(1 − max_mdf), once per RTT
    if (can_decrease(s, now)) cut(s, p, 1.0 - p.max_mdf, now);
    return decide(p, s);
  }
  if (ack.rtt_ps == 0) return decide(p, s);
  const double delay = static_cast<double>(ack.rtt_ps);
  const double target = target_ps(p, s);
  const double acked = static_cast<double>(ack.acked_bytes) / p.mtu_bytes;
  if (delay < target) {  // additive increase, ai packets per RTT
    s.cwnd = clamp_cwnd(s, p, s.cwnd >= 1.0 ? s.cwnd + p.ai * acked / s.cwnd : s.cwnd + p.ai * acked);
  } else if (can_decrease(s, now)) {  // cwnd·max(1 − β·(delay − target)/delay, 1 − max_mdf)
    cut(s, p, std::max(1.0 - p.beta * (delay - target) / delay, 1.0 - p.max_mdf), now);
  }
  return decide(p, s);
}

// cwnd ≥ 1: a window of cwnd packets, paced at the line rate. cwnd < 1: one packet every
// RTT/cwnd (rate = cwnd·mtu·8/RTT), with a one-packet window.
Decision Swift::decide(const P& p, const S& s) {
  if (s.cwnd >= 1.0 || s.rtt == Time::zero()) {
    const double bytes = std::max(1.0, std::floor(s.cwnd * p.mtu_bytes));
    return Decision{s.line, Bytes(static_cast<uint64_t>(bytes)), Time::never()};
  }
  const double bps = s.cwnd * p.mtu_bytes * 8.0 * 1e12 / static_cast<double>(s.rtt.ps());
  const Rate rate = Rate::bps(static_cast<uint64_t>(std::clamp(std::floor(bps), 1.0,
                                                               static_cast<double>(s.line.bps()))));
  return Decision{rate, Bytes(static_cast<uint64_t>(p.mtu_bytes)), Time::never()};
}

size_t Swift::describe(const P& p, const S& s, Time,
                       std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
  out[0] = {"cwnd_packets", s.cwnd};
  out[1] = {"target_delay_ps", target_ps(p, s)};
  out[2] = {"rtt_ps", static_cast<double>(s.rtt.ps())};
  return 3;
}

}  // namespace rtb::cc
