// DCQCN, SIGCOMM'15 paper model (cc-reference.md §1.1, timer semantics of [NS3-RDMA]).
#include "cc_algos/dcqcn/dcqcn_paper.h"

#include <algorithm>
#include <cmath>

#include "cc_algos/dcqcn/rate_math.h"

namespace rtb::cc::dcqcn {

namespace {

using S = DcqcnPaper::State;
using P = DcqcnPaper::Params;

Decision decide(const S& s) { return Decision{s.rc, std::nullopt, s.inc_due}; }

bool saturated(const S& s) { return s.rc == s.cap && s.rt == s.cap; }

bool hyper(const P& p, const S& s) { return std::min(s.time_stage, s.byte_stage) >= p.threshold; }

// α timer: α = (1 − g)·α every τ′ after the last CNP; k periods at once: α·(1 − g)^k
// (real numbers, as the paper; never fired as a timer).
void catch_up_alpha(const P& p, S& s, Time t) {
  if (!s.seen_cnp) return;
  const uint64_t n = (t - s.alpha_anchor) / p.alpha_period;
  if (n <= s.alpha_ticks) return;
  s.alpha *= std::pow(p.alpha_keep, static_cast<double>(n - s.alpha_ticks));
  s.alpha_ticks = n;
}

// R_C·α/2, the paper's cut, in bit/s (rounded down).
Rate paper_cut(Rate rc, double alpha) {
  return Rate::bps(static_cast<uint64_t>(static_cast<double>(rc.bps()) * alpha / 2));
}

// increase(f), §1.1 pseudo-code with [NS3-RDMA] AdjustRates: on the first event after a
// cut (a stage equals 1), if R_T > 10·R_C then R_T = R_T/8 (QCN); else
//   both stages < F: fast recovery;  both ≥ F: R_T += R_HAI·(min − F + 1);  else R_T += R_AI
//   R_C = min(line, (R_T + R_C)/2)
void increase(const P& p, S& s) {
  const uint32_t lo = std::min(s.time_stage, s.byte_stage);
  const uint32_t hi = std::max(s.time_stage, s.byte_stage);
  if ((s.time_stage == 1 || s.byte_stage == 1) && static_cast<u128>(s.rt.bps()) > static_cast<u128>(s.rc.bps()) * 10) {
    s.rt = Rate::bps(s.rt.bps() / 8);
  } else if (lo >= p.threshold) {
    const u128 step = static_cast<u128>(p.hai_rate.bps()) * (lo - p.threshold + 1);
    s.rt = Rate::bps(static_cast<uint64_t>(std::min<u128>(s.rt.bps() + step, s.cap.bps())));
  } else if (hi >= p.threshold) {
    s.rt = s.rt + p.ai_rate;
  }
  s.rt = std::min(s.rt, s.cap);
  s.rc = std::min(s.cap, midpoint_up(s.rc, s.rt));
}

void timer_increase(const P& p, S& s) {
  const Time t = s.inc_due;
  s.time_stage = stage_inc(s.time_stage);
  increase(p, s);
  // Re-arm with T, or T/2 in hyper increase; stop once R_C = R_T = cap (nothing can
  // change until the next CNP, which restarts the timer).
  s.inc_due = saturated(s) ? Time::never() : t + (hyper(p, s) ? p.time_reset / 2 : p.time_reset);
}

void run_timers(const P& p, S& s, Time now) {
  while (s.inc_due <= now) timer_increase(p, s);
}

}  // namespace

Decision DcqcnPaper::start(const P& p, S& s, const rtb_cc_flow_start& st, Time) {
  s.cap = rate_cap(p.max_rate, Rate::bps(st.line_rate_bps));
  s.floor = std::min(p.min_rate, s.cap);
  s.rc = s.rt = s.cap;       // line rate, no slow start
  s.alpha = 1.0;             // α₀ = 1 ("as defined by DCQCN", CoNEXT appendix)
  s.inc_due = Time::never();
  s.byte_quota = p.byte_reset.count();
  return decide(s);
}

Decision DcqcnPaper::on_timer(const P& p, S& s, Time now) {
  run_timers(p, s, now);
  return decide(s);
}

// CNP, [CONEXT] eq. rp_dec in [NS3-RDMA]'s order (α first, then the cut with the new α):
//   R_T = R_C;  α = (1 − g)α + g;  R_C = max(min, R_C·(1 − α/2))
Decision DcqcnPaper::on_cnp(const P& p, S& s, Time now) {
  run_timers(p, s, now);
  catch_up_alpha(p, s, now);
  if (p.clamp_tgt_rate || s.byte_stage > 0 || (p.clamp_tgt_rate_ati && s.time_stage > 0))
    s.rt = s.rc;
  s.alpha = p.alpha_keep * s.alpha + (1.0 - p.alpha_keep);  // (1 − g)α + g
  s.rc = std::max(s.floor, s.rc - paper_cut(s.rc, s.alpha));
  s.time_stage = s.byte_stage = 0;
  s.byte_count = 0;
  s.byte_quota = p.byte_reset.count();
  s.inc_due = now + p.time_reset;
  s.alpha_anchor = now;
  s.alpha_ticks = 0;
  s.seen_cnp = 1;
  return decide(s);
}

// Byte counter: every B bytes (B/2 in hyper increase) the byte stage counts up and the
// rate increases.
Decision DcqcnPaper::on_bytes_sent(const P& p, S& s, Bytes sent, Time now) {
  run_timers(p, s, now);
  if (!s.seen_cnp || saturated(s)) return decide(s);  // nothing to recover yet
  s.byte_count += sent.count();
  while (s.byte_count >= s.byte_quota && !saturated(s)) {
    s.byte_count -= s.byte_quota;
    s.byte_stage = stage_inc(s.byte_stage);
    increase(p, s);
    s.byte_quota = hyper(p, s) ? p.byte_reset.count() / 2 : p.byte_reset.count();
  }
  if (saturated(s)) s.inc_due = Time::never();
  return decide(s);
}

size_t DcqcnPaper::describe(const P& p, const S& s, Time now,
                            std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
  return describe_rates(alpha_at(p, s, now), s, out);
}

double DcqcnPaper::alpha_at(const P& p, const S& s, Time now) {
  S copy = s;
  catch_up_alpha(p, copy, now);
  return copy.alpha;
}

}  // namespace rtb::cc::dcqcn
