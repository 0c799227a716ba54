/* A probe plug-in in C: it sends at a fixed rate and records every kind of feedback the
 * datapath delivers, as named numbers through describe_state, so the end-to-end tests can
 * compare them with the path, the switches and the receivers. Built twice: with CNP
 * feedback (rtb_cc_probe.so), without (rtb_cc_probe_nocnp.so, -DRTB_PROBE_NO_CNP), and
 * with INT instead of CNP (rtb_cc_probe_int.so, -DRTB_PROBE_INT).
 *
 * Parameters:
 *   rate_mbps      the fixed rate (0 = the line rate)
 *   breach         "" (default), "zero_rate", "above_line", "deadline_now", "nan": the
 *                  contract breach to commit in on_ack once `breach_after` ACKs were seen
 *   breach_after   ACKs before the breach (default 10)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rocetb_cc.h"

enum breach { NONE, ZERO_RATE, ABOVE_LINE, DEADLINE_NOW, NAN_RATE };

typedef struct probe_params {
  uint64_t rate_bps; /* 0: the line rate */
  uint32_t breach;
  uint32_t breach_after;
} probe_params;

typedef struct probe_state {
  uint64_t rate_bps;
  uint64_t line_rate_bps;
  uint64_t base_rtt_ps;
  uint64_t flow_id;
  uint64_t acks;
  uint64_t naks;
  uint64_t acked_bytes;
  uint64_t ecn_echoes;
  uint64_t rtt_samples;
  uint64_t rtt_min_ps;
  uint64_t rtt_max_ps;
  uint64_t cnps;
  uint64_t hop_count;
  /* INT: ACKs with hops, the fewest and most hops, records going back in time or in tx
   * bytes against the previous ACK's same hop, the largest queue reported. */
  uint64_t int_acks;
  uint64_t int_hops_min;
  uint64_t int_hops_max;
  uint64_t int_backwards;
  uint64_t int_queue_max;
  rtb_cc_int_hop int_last[8];
} probe_state;

static void report_error(const rtb_cc_report* r, const char* message) {
  r->error(r->context, message);
}

static int parse(const rtb_cc_param* in, size_t n, void* out, const rtb_cc_report* r) {
  probe_params* p = (probe_params*)out;
  char message[160];
  int failed = 0;
  p->breach_after = 10;
  for (size_t i = 0; i < n; ++i) {
    const rtb_cc_param* k = &in[i];
    if (strcmp(k->key, "rate_mbps") == 0 && k->kind == RTB_CC_PARAM_INT && k->int_value >= 0) {
      p->rate_bps = (uint64_t)k->int_value * 1000000u;
    } else if (strcmp(k->key, "breach_after") == 0 && k->kind == RTB_CC_PARAM_INT &&
               k->int_value >= 0) {
      p->breach_after = (uint32_t)k->int_value;
    } else if (strcmp(k->key, "breach") == 0 && k->kind == RTB_CC_PARAM_STRING) {
      static const char* const names[] = {"", "zero_rate", "above_line", "deadline_now", "nan"};
      uint32_t b = 0;
      while (b < 5 && strcmp(k->string_value, names[b]) != 0) ++b;
      if (b == 5) {
        snprintf(message, sizeof message,
                 "probe: breach '%s' is invalid: expected zero_rate, above_line, "
                 "deadline_now or nan",
                 k->string_value);
        report_error(r, message);
        failed = 1;
      }
      p->breach = b;
    } else {
      snprintf(message, sizeof message, "probe: unknown or invalid parameter '%s'", k->key);
      report_error(r, message);
      failed = 1;
    }
  }
  return failed;
}

static void hold(const probe_state* s, rtb_cc_decision* out) {
  out->rate_bps = s->rate_bps;
  out->window_bytes = RTB_CC_NO_WINDOW;
  out->next_deadline_ps = RTB_CC_NEVER_PS;
}

static void on_start(const void* params, void* state, const rtb_cc_flow_start* start,
                     uint64_t now_ps, rtb_cc_decision* out) {
  const probe_params* p = (const probe_params*)params;
  probe_state* s = (probe_state*)state;
  (void)now_ps;
  s->line_rate_bps = start->line_rate_bps;
  s->rate_bps = p->rate_bps == 0 || p->rate_bps > start->line_rate_bps ? start->line_rate_bps
                                                                        : p->rate_bps;
  s->base_rtt_ps = start->base_rtt_ps;
  s->flow_id = start->flow_id;
  s->hop_count = start->hop_count;
  hold(s, out);
}

static void on_timer(const void* params, void* state, uint64_t now_ps, rtb_cc_decision* out) {
  (void)params;
  (void)now_ps;
  hold((const probe_state*)state, out);
}

static void on_cnp(const void* params, void* state, uint64_t now_ps, rtb_cc_decision* out) {
  probe_state* s = (probe_state*)state;
  (void)params;
  (void)now_ps;
  ++s->cnps;
  hold(s, out);
}

static void commit_breach(const probe_params* p, const probe_state* s, uint64_t now_ps,
                          rtb_cc_decision* out) {
  switch (p->breach) {
    case ZERO_RATE: out->rate_bps = 0; break;
    case ABOVE_LINE: out->rate_bps = s->line_rate_bps + 1; break;
    case DEADLINE_NOW: out->next_deadline_ps = now_ps; break;
    case NAN_RATE: {
      volatile double zero = 0.0;
      const double rate = zero / zero; /* what a broken formula computes */
      out->rate_bps = isnan(rate) ? (uint64_t)1 << 63 : (uint64_t)rate; /* as x86-64 converts */
      break;
    }
    default: break;
  }
}

static void on_ack(const void* params, void* state, const rtb_cc_ack* ack, uint64_t now_ps,
                   rtb_cc_decision* out) {
  const probe_params* p = (const probe_params*)params;
  probe_state* s = (probe_state*)state;
  ++s->acks;
  s->naks += ack->is_nak;
  s->acked_bytes += ack->acked_bytes;
  s->ecn_echoes += ack->ecn_echo;
  if (ack->rtt_ps != 0) {
    if (s->rtt_samples == 0 || ack->rtt_ps < s->rtt_min_ps) s->rtt_min_ps = ack->rtt_ps;
    if (ack->rtt_ps > s->rtt_max_ps) s->rtt_max_ps = ack->rtt_ps;
    ++s->rtt_samples;
  }
  if (ack->hop_count != 0) {
    if (s->int_acks == 0 || ack->hop_count < s->int_hops_min) s->int_hops_min = ack->hop_count;
    if (ack->hop_count > s->int_hops_max) s->int_hops_max = ack->hop_count;
    for (uint32_t i = 0; i < ack->hop_count && i < 8; ++i) {
      const rtb_cc_int_hop* h = &ack->hops[i];
      if (s->int_acks != 0 && (h->timestamp_ps < s->int_last[i].timestamp_ps ||
                               h->tx_bytes < s->int_last[i].tx_bytes))
        ++s->int_backwards;
      if (h->queue_bytes > s->int_queue_max) s->int_queue_max = h->queue_bytes;
      s->int_last[i] = *h;
    }
    ++s->int_acks;
  }
  hold(s, out);
  if (p->breach != NONE && s->acks > p->breach_after) commit_breach(p, s, now_ps, out);
}

static size_t describe(const void* params, const void* state, uint64_t now_ps,
                       rtb_cc_state_field* out) {
  const probe_state* s = (const probe_state*)state;
  const rtb_cc_state_field fields[] = {
      {"base_rtt_ps", (double)s->base_rtt_ps}, {"flow_id", (double)s->flow_id},
      {"acks", (double)s->acks},               {"naks", (double)s->naks},
      {"acked_bytes", (double)s->acked_bytes}, {"ecn_echoes", (double)s->ecn_echoes},
      {"rtt_samples", (double)s->rtt_samples}, {"rtt_min_ps", (double)s->rtt_min_ps},
      {"rtt_max_ps", (double)s->rtt_max_ps},   {"cnps", (double)s->cnps},
      {"hop_count", (double)s->hop_count},     {"int_acks", (double)s->int_acks},
      {"int_hops_min", (double)s->int_hops_min}, {"int_hops_max", (double)s->int_hops_max},
      {"int_backwards", (double)s->int_backwards}, {"int_queue_max", (double)s->int_queue_max},
  };
  const size_t n = sizeof fields / sizeof fields[0];
  (void)params;
  (void)now_ps;
  memcpy(out, fields, sizeof fields);
  return n;
}

#if defined(RTB_PROBE_NO_CNP)
#define PROBE_NAME "probe_nocnp"
#define PROBE_FEEDBACK (RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT)
#elif defined(RTB_PROBE_INT)
#define PROBE_NAME "probe_int"
#define PROBE_FEEDBACK (RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT | RTB_CC_FEEDBACK_INT)
#else
#define PROBE_NAME "probe"
#define PROBE_FEEDBACK (RTB_CC_FEEDBACK_CNP | RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT)
#endif

static const rtb_cc_ops ops = {
    .abi_version = RTB_CC_ABI_VERSION,
    .feedback = PROBE_FEEDBACK,
    .name = PROBE_NAME,
    .description = "test probe: fixed rate, records every feedback kind",
    .state_bytes = sizeof(probe_state),
    .state_align = _Alignof(probe_state),
    .params_bytes = sizeof(probe_params),
    .params_align = _Alignof(probe_params),
    .parse_params = parse,
    .on_start = on_start,
    .on_timer = on_timer,
    .on_cnp = on_cnp,
    .on_ack = on_ack,
    .describe_state = describe,
};

__attribute__((visibility("default"))) const rtb_cc_ops* rtb_cc_plugin_ops(void) {
  return &ops;
}
