// An out-of-tree congestion-control plug-in for rocetb: rate AIMD driven by CNPs.
//
//   on a CNP:  rate = max(min_rate, rate · (100 − decrease_percent)/100),
//              at most once per hold_time_us (later CNPs in the hold time are ignored)
//   every increase_period_us after the last cut, while below the line rate:
//              rate = min(line, rate + increase_mbps)
//
// It uses nothing but cc_algos/rocetb_cc.h, exactly like a user's algorithm would.
// Build (outside rocetb):
//   g++ -std=c++20 -O2 -fPIC -shared -I<rocetb>/cc_algos aimd_plugin.cc -o aimd.so
// Run: rocetb run SCENARIO --cc ./aimd.so  (or cc.algorithm = "aimd.so" in the scenario, from its folder).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "rocetb_cc.h"

namespace {

constexpr uint64_t kMbps = 1'000'000;
constexpr uint64_t kPsPerUs = 1'000'000;

struct Params {
  uint64_t decrease_percent;
  uint64_t hold_ps;
  uint64_t increase_bps;
  uint64_t period_ps;
  uint64_t min_rate_bps;
};

struct State {
  uint64_t rate_bps;
  uint64_t line_bps;
  uint64_t floor_bps;
  uint64_t last_cut_ps;
  uint64_t inc_due_ps;
  uint32_t has_cut;
};

struct Key {
  const char* name;
  uint64_t min, max, def;
};
constexpr Key kKeys[] = {
    {"decrease_percent", 1, 99, 50},
    {"hold_time_us", 0, 1'000'000, 50},
    {"increase_mbps", 0, 1'000'000, 100},
    {"increase_period_us", 1, 1'000'000, 50},
    {"min_rate_mbps", 1, 1'000'000, 100},
};
constexpr size_t kKeyCount = sizeof(kKeys) / sizeof(kKeys[0]);

void report_error(const rtb_cc_report* r, const char* msg) {
  if (r && r->error) r->error(r->context, msg);
}

// A whole non-negative number from an int, a float or a decimal string.
bool to_uint(const rtb_cc_param& p, uint64_t* out) {
  if (p.kind == RTB_CC_PARAM_INT) {
    if (p.int_value < 0) return false;
    *out = static_cast<uint64_t>(p.int_value);
    return true;
  }
  if (p.kind == RTB_CC_PARAM_FLOAT) {
    if (!(p.float_value >= 0 && p.float_value < 1e18) || std::floor(p.float_value) != p.float_value)
      return false;
    *out = static_cast<uint64_t>(p.float_value);
    return true;
  }
  if (p.kind == RTB_CC_PARAM_STRING && p.string_value && *p.string_value >= '0' &&
      *p.string_value <= '9') {
    char* end = nullptr;
    *out = std::strtoull(p.string_value, &end, 10);
    return *end == '\0';
  }
  return false;
}

int parse(const rtb_cc_param* params, size_t count, void* out, const rtb_cc_report* report) {
  uint64_t v[kKeyCount];
  for (size_t k = 0; k < kKeyCount; ++k) v[k] = kKeys[k].def;
  int errors = 0;
  char msg[512];
  for (size_t i = 0; i < count; ++i) {
    size_t k = 0;
    while (k < kKeyCount && std::strcmp(params[i].key, kKeys[k].name) != 0) ++k;
    if (k == kKeyCount) {
      std::snprintf(msg, sizeof msg,
                    "aimd: unknown parameter '%s'; valid parameters: decrease_percent, "
                    "hold_time_us, increase_mbps, increase_period_us, min_rate_mbps",
                    params[i].key);
      report_error(report, msg), ++errors;
      continue;
    }
    uint64_t x = 0;
    if (!to_uint(params[i], &x) || x < kKeys[k].min || x > kKeys[k].max) {
      std::snprintf(msg, sizeof msg, "aimd: %s is invalid: expected a whole number in %llu..%llu",
                    kKeys[k].name, static_cast<unsigned long long>(kKeys[k].min),
                    static_cast<unsigned long long>(kKeys[k].max));
      report_error(report, msg), ++errors;
      continue;
    }
    v[k] = x;
  }
  auto* p = static_cast<Params*>(out);
  p->decrease_percent = v[0];
  p->hold_ps = v[1] * kPsPerUs;
  p->increase_bps = v[2] * kMbps;
  p->period_ps = v[3] * kPsPerUs;
  p->min_rate_bps = v[4] * kMbps;
  return errors;
}

void decide(const State* s, rtb_cc_decision* out) {
  out->rate_bps = s->rate_bps;
  out->window_bytes = RTB_CC_NO_WINDOW;
  out->next_deadline_ps = s->inc_due_ps;
}

// Apply every increase due at or before now.
void catch_up(const Params* p, State* s, uint64_t now) {
  while (s->inc_due_ps <= now) {
    s->rate_bps = s->line_bps - s->rate_bps > p->increase_bps ? s->rate_bps + p->increase_bps
                                                              : s->line_bps;
    s->inc_due_ps = (s->rate_bps == s->line_bps || p->increase_bps == 0)
                        ? RTB_CC_NEVER_PS
                        : s->inc_due_ps + p->period_ps;
  }
}

void on_start(const void* params, void* state, const rtb_cc_flow_start* start, uint64_t,
              rtb_cc_decision* out) {
  const auto* p = static_cast<const Params*>(params);
  auto* s = static_cast<State*>(state);
  s->line_bps = start->line_rate_bps;
  s->floor_bps = p->min_rate_bps < s->line_bps ? p->min_rate_bps : s->line_bps;
  s->rate_bps = s->line_bps;
  s->inc_due_ps = RTB_CC_NEVER_PS;
  s->has_cut = 0;
  decide(s, out);
}

void on_timer(const void* params, void* state, uint64_t now, rtb_cc_decision* out) {
  auto* s = static_cast<State*>(state);
  catch_up(static_cast<const Params*>(params), s, now);
  decide(s, out);
}

void on_cnp(const void* params, void* state, uint64_t now, rtb_cc_decision* out) {
  const auto* p = static_cast<const Params*>(params);
  auto* s = static_cast<State*>(state);
  catch_up(p, s, now);
  if (!s->has_cut || now - s->last_cut_ps >= p->hold_ps) {
    const uint64_t cut = s->rate_bps / 100 * p->decrease_percent +
                         s->rate_bps % 100 * p->decrease_percent / 100;
    s->rate_bps = s->rate_bps - cut > s->floor_bps ? s->rate_bps - cut : s->floor_bps;
    s->has_cut = 1;
    s->last_cut_ps = now;
    s->inc_due_ps = s->rate_bps < s->line_bps ? now + p->period_ps : RTB_CC_NEVER_PS;
  }
  decide(s, out);
}

// Optional: the state as named numbers for rocetb's time series.
size_t describe_state(const void*, const void* state, uint64_t, rtb_cc_state_field* out) {
  out[0] = {"rate_bps", static_cast<double>(static_cast<const State*>(state)->rate_bps)};
  return 1;
}

const rtb_cc_ops kOps = {
    RTB_CC_ABI_VERSION,
    RTB_CC_FEEDBACK_CNP,
    "aimd",
    "example plug-in: CNP-driven rate AIMD",
    sizeof(State),
    alignof(State),
    sizeof(Params),
    alignof(Params),
    parse,
    on_start,
    on_timer,
    on_cnp,
    nullptr,  // on_ack: no ACK feedback needed
    nullptr,  // on_bytes_sent
    nullptr,  // np_config: rocetb's defaults
    describe_state,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const rtb_cc_ops* rtb_cc_plugin_ops(void) {
  return &kOps;
}
