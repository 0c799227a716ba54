/* An RTT-driven AIMD plug-in written in C: the delay-based shape of TIMELY (Mittal et al.,
 * SIGCOMM'15 §4) reduced to its core, as an example of ACK/RTT feedback through the C ABI.
 *
 * On every ACK with an RTT sample (rtb_cc_ack.rtt_ps), with target = base_rtt + target_us:
 *   rtt <= target:  rate += increase_mbps                          (additive increase)
 *   rtt >  target:  rate *= 1 - beta * (1 - target / rtt)          (TIMELY's high-RTT cut,
 *                   at most once per target, so one queue is not answered per ACK)
 * clamped to [min_rate_mbps, line rate]. Rate only (no window), no timer.
 *
 * Parameters (all optional): target_us (default 10), increase_mbps (default 100),
 * beta_percent (default 80), min_rate_mbps (default 100).
 * Build: gcc -std=c11 -O2 -fPIC -shared -I<rocetb>/cc_algos rtt_aimd_plugin.c -o rtt_aimd.so
 */
#include <stdio.h>
#include <string.h>

#include "rocetb_cc.h"

typedef struct rtt_aimd_params {
  uint64_t target_ps;
  uint64_t increase_bps;
  uint64_t min_rate_bps;
  uint32_t beta_percent;
} rtt_aimd_params;

typedef struct rtt_aimd_state {
  uint64_t rate_bps;
  uint64_t line_rate_bps;
  uint64_t target_ps;      /* base RTT + target queueing delay */
  uint64_t last_cut_ps;    /* when the rate was last cut */
  uint32_t cut_once;       /* a cut happened (last_cut_ps is valid) */
} rtt_aimd_state;

static int read_uint(const rtb_cc_param* k, int64_t lo, int64_t hi, uint64_t* out,
                     const rtb_cc_report* r) {
  char message[160];
  if (k->kind == RTB_CC_PARAM_INT && k->int_value >= lo && k->int_value <= hi) {
    *out = (uint64_t)k->int_value;
    return 0;
  }
  snprintf(message, sizeof message, "rtt_aimd: %s is invalid: expected a whole number in "
           "%lld..%lld", k->key, (long long)lo, (long long)hi);
  r->error(r->context, message);
  return 1;
}

static int parse(const rtb_cc_param* in, size_t n, void* out, const rtb_cc_report* r) {
  rtt_aimd_params* p = (rtt_aimd_params*)out;
  uint64_t target_us = 10, increase_mbps = 100, beta = 80, min_mbps = 100;
  int failed = 0;
  char message[160];
  for (size_t i = 0; i < n; ++i) {
    const rtb_cc_param* k = &in[i];
    if (strcmp(k->key, "target_us") == 0) failed |= read_uint(k, 1, 10000, &target_us, r);
    else if (strcmp(k->key, "increase_mbps") == 0) failed |= read_uint(k, 1, 100000, &increase_mbps, r);
    else if (strcmp(k->key, "beta_percent") == 0) failed |= read_uint(k, 1, 100, &beta, r);
    else if (strcmp(k->key, "min_rate_mbps") == 0) failed |= read_uint(k, 1, 100000, &min_mbps, r);
    else {
      snprintf(message, sizeof message, "rtt_aimd: unknown parameter '%s' (expected target_us, "
               "increase_mbps, beta_percent, min_rate_mbps)", k->key);
      r->error(r->context, message);
      failed = 1;
    }
  }
  p->target_ps = target_us * 1000000u;
  p->increase_bps = increase_mbps * 1000000u;
  p->min_rate_bps = min_mbps * 1000000u;
  p->beta_percent = (uint32_t)beta;
  return failed;
}

static void decide(const rtt_aimd_state* s, rtb_cc_decision* out) {
  out->rate_bps = s->rate_bps;
  out->window_bytes = RTB_CC_NO_WINDOW;
  out->next_deadline_ps = RTB_CC_NEVER_PS;
}

static void on_start(const void* params, void* state, const rtb_cc_flow_start* start,
                     uint64_t now_ps, rtb_cc_decision* out) {
  const rtt_aimd_params* p = (const rtt_aimd_params*)params;
  rtt_aimd_state* s = (rtt_aimd_state*)state;
  (void)now_ps;
  s->line_rate_bps = start->line_rate_bps;
  s->rate_bps = start->line_rate_bps;
  s->target_ps = start->base_rtt_ps + p->target_ps;
  decide(s, out);
}

static void on_timer(const void* params, void* state, uint64_t now_ps, rtb_cc_decision* out) {
  (void)params;
  (void)now_ps;
  decide((const rtt_aimd_state*)state, out);
}

static void on_ack(const void* params, void* state, const rtb_cc_ack* ack, uint64_t now_ps,
                   rtb_cc_decision* out) {
  const rtt_aimd_params* p = (const rtt_aimd_params*)params;
  rtt_aimd_state* s = (rtt_aimd_state*)state;
  if (ack->rtt_ps != 0 && ack->rtt_ps <= s->target_ps) {
    s->rate_bps += p->increase_bps;
  } else if (ack->rtt_ps != 0 && (!s->cut_once || now_ps - s->last_cut_ps >= s->target_ps)) {
    /* rate *= 1 - beta * (1 - target / rtt), in doubles: both factors are in (0, 1]. */
    const double excess = 1.0 - (double)s->target_ps / (double)ack->rtt_ps;
    s->rate_bps = (uint64_t)((double)s->rate_bps * (1.0 - p->beta_percent / 100.0 * excess));
    s->last_cut_ps = now_ps;
    s->cut_once = 1;
  }
  if (s->rate_bps > s->line_rate_bps) s->rate_bps = s->line_rate_bps;
  if (s->rate_bps < p->min_rate_bps) s->rate_bps = p->min_rate_bps;
  decide(s, out);
}

static size_t describe(const void* params, const void* state, uint64_t now_ps,
                       rtb_cc_state_field* out) {
  const rtt_aimd_state* s = (const rtt_aimd_state*)state;
  (void)params;
  (void)now_ps;
  out[0].name = "rate_bps";
  out[0].value = (double)s->rate_bps;
  out[1].name = "target_ps";
  out[1].value = (double)s->target_ps;
  return 2;
}

static const rtb_cc_ops ops = {
    .abi_version = RTB_CC_ABI_VERSION,
    .feedback = RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT,
    .name = "rtt_aimd",
    .description = "RTT-driven AIMD in C (TIMELY's high-RTT cut, additive increase)",
    .state_bytes = sizeof(rtt_aimd_state),
    .state_align = _Alignof(rtt_aimd_state),
    .params_bytes = sizeof(rtt_aimd_params),
    .params_align = _Alignof(rtt_aimd_params),
    .parse_params = parse,
    .on_start = on_start,
    .on_timer = on_timer,
    .on_ack = on_ack,
    .describe_state = describe,
};

__attribute__((visibility("default"))) const rtb_cc_ops* rtb_cc_plugin_ops(void) {
  return &ops;
}
