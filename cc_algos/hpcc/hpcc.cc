// HPCC's sender (SIGCOMM'19 Algorithm 1; the HPCC simulator's rdma-hw.cc UpdateRateHp).
// Formulas beside the code.
#include "cc_algos/hpcc/hpcc.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rtb::cc {

namespace {

using S = Hpcc::State;
using P = Hpcc::Params;

enum Key : size_t { kEta, kMaxStage, kWAi, kMinRate, kBaseRtt, kCount };

// Defaults: η the simulator's U_TARGET 0.95 ("eta in paper"), maxStage its MiThresh attribute
// default 5 ("maxStage in paper"), min_rate its MinRate; W_AI = W_init·(1 − η)/N for
// N = kFlowsForWai is rocetb's choice (README: why not the simulator's RATE_AI).
constexpr std::array<NumSpec, kCount> kSpecs{{
    {"eta", "target utilisation", 0.01, 1.0, 0.95, false, ""},
    {"max_stage", "additive increases before a multiplicative one", 0, 1e6, 5, true, ""},
    {"w_ai_bytes", "bytes, 0 = W_init x (1 - eta) / 8", 0, 1e9, 0, false, ""},
    {"min_rate_mbps", "Mb/s", 0.001, 1e7, 100, false, ""},
    {"base_rtt_ns", "ns, 0 = the path's base RTT", 0, 1e9, 0, false, ""},
}};

// T: the parameter, else the path's base RTT. A path rocetb cannot compute (0) takes 10 µs,
// the order of the HPCC simulator's fabric RTTs, and the README says so.
constexpr Time kUnknownRtt = Time::us(10);
// The concurrent flows W_AI's default is sized for: W_AI = W_init·(1 − η)/N.
constexpr double kFlowsForWai = 8;

double bytes_in(double bps, Time t) { return bps / 8.0 * static_cast<double>(t.ps()) * 1e-12; }

// MeasureInflight: the largest u' over the hops and its τ (ps); false if no hop moved.
bool measure(const S& s, const rtb_cc_ack& ack, double& u, uint64_t& tau) {
  bool any = false;
  for (uint32_t i = 0; i < ack.hop_count; ++i) {
    const rtb_cc_int_hop& h = ack.hops[i];
    const rtb_cc_int_hop& l = s.last[i];
    if (h.timestamp_ps <= l.timestamp_ps || h.link_rate_bps == 0) continue;
    const uint64_t dt = h.timestamp_ps - l.timestamp_ps;
    // txRate = Δtx_bytes / Δts;  u' = min(qlen, L.qlen)/(B·T) + txRate/B
    const double tx_bps = static_cast<double>(h.tx_bytes - l.tx_bytes) * 8.0 * 1e12 / static_cast<double>(dt);
    const double b = static_cast<double>(h.link_rate_bps);
    const double q = static_cast<double>(std::min(h.queue_bytes, l.queue_bytes));
    const double ui = q / bytes_in(b, s.t) + tx_bps / b;
    if (!any || ui > u) {
      u = ui;
      tau = dt;
    }
    any = true;
  }
  return any;
}

void remember(S& s, const rtb_cc_ack& ack) {
  s.hops = std::min<uint32_t>(ack.hop_count, Hpcc::kMaxHops);
  std::copy_n(ack.hops, s.hops, s.last);
}

}  // namespace

bool Hpcc::parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r) {
  std::array<double, kCount> v{};
  read_num_params(in, kSpecs, v, r);
  p.resolved.set(kSpecs, v);
  if (r.failed()) return false;
  p.eta = v[kEta];
  p.max_stage = static_cast<uint32_t>(v[kMaxStage]);
  p.w_ai_bytes = v[kWAi];
  p.min_rate_bps = v[kMinRate] * 1e6;
  p.base_rtt_ps = static_cast<uint64_t>(std::llround(v[kBaseRtt] * 1e3));
  return true;
}

Decision Hpcc::start(const P& p, S& s, const rtb_cc_flow_start& st, Time) {
  s.line = Rate::bps(st.line_rate_bps);
  s.t = p.base_rtt_ps != 0 ? Time::ps(p.base_rtt_ps)
        : st.base_rtt_ps != 0 ? Time::ps(st.base_rtt_ps) : kUnknownRtt;
  // W_init = line rate·T: flows start at the line rate, as in the paper (§3.3).
  s.w_init = bytes_in(static_cast<double>(s.line.bps()), s.t);
  s.w_min = std::min(bytes_in(p.min_rate_bps, s.t), s.w_init);
  s.w_ai = p.w_ai_bytes != 0 ? p.w_ai_bytes : s.w_init * (1.0 - p.eta) / kFlowsForWai;
  s.w = s.wc = s.w_init;
  s.u = 1.0;  // the simulator's initial U
  return decide(s);
}

Decision Hpcc::on_ack(const P& p, S& s, const rtb_cc_ack& ack, Time) {
  s.acked += ack.acked_bytes;
  if (ack.hop_count == 0) return decide(s);
  if (s.hops != std::min<uint32_t>(ack.hop_count, kMaxHops)) {  // first INT ACK (or a new path)
    remember(s, ack);
    s.last_update = s.sent;
    return decide(s);
  }
  double u = 0;
  uint64_t tau = 0;
  if (measure(s, ack, u, tau)) {
    // τ ← min(τ, T);  U ← (1 − τ/T)·U + (τ/T)·u'
    const double f = static_cast<double>(std::min<uint64_t>(tau, s.t.ps())) / static_cast<double>(s.t.ps());
    s.u = (1.0 - f) * s.u + f * u;
    const bool update_wc = s.acked > s.last_update;  // a full RTT of feedback
    const bool mi = s.u >= p.eta || s.inc_stage >= p.max_stage;
    // MI: W = Wc/(U/η) + W_AI;  AI: W = Wc + W_AI
    const double w = mi ? (s.u > 0 ? s.wc / (s.u / p.eta) : s.w_init) + s.w_ai : s.wc + s.w_ai;
    s.w = std::clamp(w, s.w_min, s.w_init);
    if (update_wc) {
      s.wc = s.w;
      s.inc_stage = mi ? 0 : s.inc_stage + 1;
      s.last_update = s.sent;
    }
  }
  remember(s, ack);
  return decide(s);
}

// R = W / T, the window W (at least one byte).
Decision Hpcc::decide(const S& s) {
  const double bps = s.w * 8.0 * 1e12 / static_cast<double>(s.t.ps());
  const auto rate = static_cast<uint64_t>(std::clamp(std::round(bps), 1.0, static_cast<double>(s.line.bps())));
  const auto window = static_cast<uint64_t>(std::max(1.0, std::floor(s.w)));
  return Decision{Rate::bps(rate), Bytes(window), Time::never()};
}

size_t Hpcc::describe(const P&, const S& s, Time,
                      std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
  out[0] = {"window_bytes", s.w};
  out[1] = {"ref_window_bytes", s.wc};
  out[2] = {"u", s.u};
  out[3] = {"inc_stage", static_cast<double>(s.inc_stage)};
  out[4] = {"rate_bps", static_cast<double>(decide(s).rate.bps())};
  return 5;
}

}  // namespace rtb::cc
