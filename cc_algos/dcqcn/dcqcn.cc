// DCQCN, NVIDIA NIC reference model (cc-reference.md §1.3). Formulas cited beside the code.
#include "cc_algos/dcqcn/dcqcn.h"

#include <algorithm>

#include "cc_algos/dcqcn/rate_math.h"

namespace rtb::cc::dcqcn {

namespace {

using S = Dcqcn::State;
using P = Dcqcn::Params;

Decision decide(const S& s) { return Decision{s.rc, std::nullopt, std::min(s.dec_due, s.inc_due)}; }

bool saturated(const S& s) { return s.rc == s.cap && s.rt == s.cap; }

// Apply every α period that ended at or before t. The first one carries the CNP flag:
//   α = (g·α)/1024 + (1024 − g), capped at 1023;  the rest: α = (g·α)/1024.
void catch_up_alpha(const P& p, S& s, Time t) {
  const uint64_t n = (t - s.epoch) / p.alpha_period;
  if (n <= s.alpha_ticks) return;
  uint64_t k = n - s.alpha_ticks;
  s.alpha_ticks = n;
  uint32_t a = s.alpha;
  if (s.alpha_cnp) {
    a = alpha_rise_step(a, p.dce_tcp_g, kNicAlphaMax);
    s.alpha_cnp = 0;
    --k;
  }
  s.alpha = static_cast<uint16_t>(p.decay.decay(a, k));
}

// Increase event (timer or byte counter), §1.3:
//   min(T, BC) > rp_threshold   → hyper:    R_T += rp_hai_rate
//   max(T, BC) >= rp_threshold  → additive: R_T += rp_ai_rate
//   otherwise                   → fast recovery (R_T unchanged)
//   R_T = min(R_T, cap);  R_C = (R_C + R_T)/2
void increase(const P& p, S& s) {
  const uint32_t lo = std::min(s.time_stage, s.byte_stage);
  const uint32_t hi = std::max(s.time_stage, s.byte_stage);
  if (lo > p.threshold)
    s.rt = s.rt + p.hai_rate;
  else if (hi >= p.threshold)
    s.rt = s.rt + p.ai_rate;
  s.rt = std::min(s.rt, s.cap);
  s.rc = midpoint_up(s.rc, s.rt);
}

// Decrease check at t with a CNP pending, §1.3:
//   clamp = rp_clamp_tgt_rate or BC > 0 or (rp_clamp_tgt_rate_ati and T > 0);  R_T = R_C
//   cut = min((R_C·α) >> rp_gd, R_C·(100 − rp_min_dec_fac)/100);  R_C = max(min, R_C − cut)
void decrease(const P& p, S& s, Time t) {
  catch_up_alpha(p, s, t);  // the α tick at t runs before the decrease tick at t
  if (p.clamp_tgt_rate || s.byte_stage > 0 || (p.clamp_tgt_rate_ati && s.time_stage > 0))
    s.rt = s.rc;
  const Rate by_alpha = alpha_cut(s.rc, s.alpha, p.gd);
  const Rate bound = Rate::bps(static_cast<uint64_t>(static_cast<u128>(s.rc.bps()) *
                                                     (100 - p.min_dec_fac) / 100));
  const Rate cut = std::min(by_alpha, bound);
  s.rc = std::max(s.floor, s.rc - cut);
  s.time_stage = s.byte_stage = 0;
  s.byte_count = 0;
  s.dec_due = Time::never();
  s.inc_due = t + p.time_reset;
}

void timer_increase(const P& p, S& s) {
  const Time t = s.inc_due;
  increase(p, s);
  s.time_stage = stage_inc(s.time_stage);
  // Once R_C = R_T = cap further timer events change nothing until the next cut (which
  // restarts this timer), so the timer stops instead of firing forever.
  s.inc_due = saturated(s) ? Time::never() : t + p.time_reset;
}

// Run every decrease check and increase expiry due at or before now, in time order
// (at equal times: α tick, then decrease check, then increase timer).
void run_timers(const P& p, S& s, Time now) {
  for (;;) {
    if (s.dec_due <= now && s.dec_due <= s.inc_due)
      decrease(p, s, s.dec_due);
    else if (s.inc_due <= now)
      timer_increase(p, s);
    else
      return;
  }
}

// The first decrease check strictly after t (the grid is anchored at the first CNP).
Time next_check(const P& p, const S& s, Time t) {
  return s.epoch + p.monitor_period * ((t - s.epoch) / p.monitor_period + 1);
}

// First CNP, §1.3: α = rp_initial_alpha_value; R_T = R_C = rp_rate_to_set_on_first_cnp
// (0: keep the current rate, assumption); no cut on this CNP; the three grids start.
void first_cnp(const P& p, S& s, Time now) {
  s.seen_cnp = 1;
  s.epoch = now;
  s.alpha = static_cast<uint16_t>(p.initial_alpha);
  s.alpha_ticks = 0;
  s.alpha_cnp = 0;
  if (p.rate_on_first_cnp.bps() != 0) s.rc = s.rt = clamp_rate(p.rate_on_first_cnp, s.floor, s.cap);
  s.inc_due = saturated(s) ? Time::never() : now + p.time_reset;
}

}  // namespace

Decision Dcqcn::start(const P& p, S& s, const rtb_cc_flow_start& st, Time) {
  s.cap = rate_cap(p.max_rate, Rate::bps(st.line_rate_bps));
  s.floor = std::min(p.min_rate, s.cap);
  s.rc = s.rt = s.cap;  // flows start at line rate, no slow start
  s.dec_due = s.inc_due = Time::never();
  s.alpha = static_cast<uint16_t>(p.initial_alpha);
  return decide(s);
}

Decision Dcqcn::on_timer(const P& p, S& s, Time now) {
  run_timers(p, s, now);
  return decide(s);
}

Decision Dcqcn::on_cnp(const P& p, S& s, Time now) {
  run_timers(p, s, now);
  if (!s.seen_cnp) {
    first_cnp(p, s, now);
    return decide(s);
  }
  catch_up_alpha(p, s, now);
  s.alpha_cnp = 1;
  if (s.dec_due.is_never()) s.dec_due = next_check(p, s, now);
  return decide(s);
}

// Byte counter, §1.3: every rp_byte_reset × 64 bytes sent is an increase event, then
// the byte stage counts up. It counts from the flow's start, as [ISEKAI] does.
Decision Dcqcn::on_bytes_sent(const P& p, S& s, Bytes sent, Time now) {
  run_timers(p, s, now);
  s.byte_count += sent.count();
  const uint64_t quantum = p.byte_reset.count();
  while (s.byte_count >= quantum) {
    if (saturated(s)) {  // the remaining events only count: skip them in one step
      const uint64_t k = s.byte_count / quantum;
      s.byte_count %= quantum;
      s.byte_stage = static_cast<uint32_t>(std::min<uint64_t>(UINT32_MAX, s.byte_stage + k));
      break;
    }
    s.byte_count -= quantum;
    increase(p, s);
    s.byte_stage = stage_inc(s.byte_stage);
  }
  return decide(s);
}

size_t Dcqcn::describe(const P& p, const S& s, Time now,
                       std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
  return describe_rates(static_cast<double>(alpha_at(p, s, now)) / kAlphaOne, s, out);
}

uint32_t Dcqcn::alpha_at(const P& p, const S& s, Time now) {
  if (!s.seen_cnp) return s.alpha;
  S copy = s;
  catch_up_alpha(p, copy, now);
  return copy.alpha;
}

}  // namespace rtb::cc::dcqcn
