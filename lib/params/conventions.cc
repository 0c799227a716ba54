#include "params/conventions.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <span>

#include "cc_algos/dcqcn/dcqcn_params.h"

namespace rtb::params {
namespace {

// The physical quantities; each convention's keys read and write them.
enum class Q {
  kGain,
  kAlphaPeriod,
  kIncreaseTimer,
  kByteCounter,
  kStages,
  kAi,
  kHai,
  kMinRate,
  kCnpInterval,
  kAlphaInit,
  kClamp,
  kDecreasePeriod,
  kCutShift
};

struct Knob {
  Q q;
  std::string_view key;
  double (*read)(double);   // the key's value -> the quantity
  double (*write)(double);  // the quantity -> the key's value (before rounding)
  bool whole;
  std::string_view read_formula;   // the quantity from the key
  std::string_view write_formula;  // the key from the quantity
  std::string_view source;
  std::string_view approx;  // where this convention's mechanism differs from the paper's; "" when it does not
};

double same(double v) { return v; }
double q10_weight_to_g(double v) { return (1024 - v) / 1024; }
double g_to_q10_weight(double g) { return 1024 * (1 - g); }
double units64_to_bytes(double v) { return v * 64; }
double bytes_to_units64(double b) { return b / 64; }
double q10_to_real(double v) { return v / 1024; }
double real_to_q10(double a) { return std::min(1023.0, 1024 * a); }

// Symbols: g, tau' (alpha timer), T, B, F, R_AI, R_HAI, R_min, tau (CNP interval), alpha0.
constexpr std::array<Knob, 10> kPaper{{
    {Q::kGain, "g", same, same, false, "g", "g", "[CONEXT] Table 1, [FLUID] g = 1/256", ""},
    {Q::kAlphaPeriod, "alpha_timer_us", same, same, false, "tau'", "alpha_timer_us = tau'",
     "[CONEXT] dcqcn-convergence.tex: tau' = 55 us", ""},
    {Q::kIncreaseTimer, "T_us", same, same, false, "T", "T_us = T", "[CONEXT] Table 1: T = 55 us", ""},
    {Q::kByteCounter, "B_bytes", same, same, true, "B", "B_bytes = B", "[FLUID] B = 10 MB", ""},
    {Q::kStages, "F", same, same, true, "F", "F", "[CONEXT] Table 1: F = 5", ""},
    {Q::kAi, "R_AI_Mbps", same, same, false, "R_AI", "R_AI_Mbps = R_AI", "[CONEXT] Table 1: 40 Mb/s", ""},
    {Q::kHai, "R_HAI_Mbps", same, same, false, "R_HAI", "R_HAI_Mbps = R_HAI",
     "[NS3-RDMA] mix/config.txt RATE_HAI (not stated in the paper)", ""},
    {Q::kMinRate, "min_rate_Mbps", same, same, false, "R_min", "min_rate_Mbps = R_min",
     "[NS3-RDMA] MinRate (not in the paper)", ""},
    {Q::kCnpInterval, "cnp_interval_us", same, same, false, "tau", "cnp_interval_us = tau",
     "[CONEXT] Table 1 CNP generation timer, [FLUID] tau = 50 us", ""},
    {Q::kAlphaInit, "alpha_init", same, same, false, "alpha0", "alpha_init = alpha0",
     "[CONEXT] appendix: initial alpha = 1", ""},
}};

constexpr std::string_view kQ10Gain =
    "the NIC keeps alpha in Q10 (g in steps of 1/1024) and updates it once per rp_dce_tcp_rtt whether or not a CNP "
    "came, adding (1024 - rp_dce_tcp_g) only if one did; the paper adds g at each CNP";

constexpr std::array<Knob, 13> kMlx5{{
    {Q::kGain, "rp_dce_tcp_g", q10_weight_to_g, g_to_q10_weight, true, "g = (1024 - rp_dce_tcp_g)/1024",
     "rp_dce_tcp_g = 1024 x (1 - g)", "cc-reference 1.3: [NV-2790] v19, Q10 weight of the old alpha", kQ10Gain},
    {Q::kAlphaPeriod, "rp_dce_tcp_rtt", same, same, true, "tau' = rp_dce_tcp_rtt", "rp_dce_tcp_rtt = tau'",
     "[NV-DOCA] DCE_TCP_RTT, us",
     "the NIC's alpha period runs free from the first CNP; the paper's alpha timer restarts at each CNP"},
    {Q::kIncreaseTimer, "rp_time_reset", same, same, true, "T = rp_time_reset", "rp_time_reset = T",
     "[CONWEAVE] rpg_time_reset(300us)", ""},
    {Q::kByteCounter, "rp_byte_reset", units64_to_bytes, bytes_to_units64, true, "B = 64 x rp_byte_reset",
     "rp_byte_reset = B / 64", "[ISEKAI] byte_reset*64 (unit not confirmed by NVIDIA text)",
     "64-byte units are the reference model's reading; the NIC counts from the flow's start"},
    {Q::kStages, "rp_threshold", same, same, true, "F = rp_threshold", "rp_threshold = F", "[ISEKAI] rpg_threshold",
     "the NIC's stage rule is off by one from the paper's: additive when max(stages) >= rp_threshold, hyper when "
     "min(stages) > rp_threshold (the paper: hyper when both >= F)"},
    {Q::kAi, "rp_ai_rate", same, same, true, "R_AI = rp_ai_rate", "rp_ai_rate = R_AI", "[NV-DOCA] Mb/s", ""},
    {Q::kHai, "rp_hai_rate", same, same, true, "R_HAI = rp_hai_rate", "rp_hai_rate = R_HAI", "[NV-DOCA] Mb/s",
     "the NIC adds a fixed R_HAI per hyper step; the paper adds i x R_HAI and halves T and B"},
    {Q::kMinRate, "rp_min_rate", same, same, true, "R_min = rp_min_rate", "rp_min_rate = R_min", "[NV-DOCA] Mb/s", ""},
    {Q::kCnpInterval, "np_min_time_between_cnps", same, same, true, "tau = np_min_time_between_cnps",
     "np_min_time_between_cnps = tau", "[MLXCFG] MIN_TIME_BETWEEN_CNPS, us",
     "the NIC sends a CNP at the first CE mark after tau of silence; the authors' ns-3 samples every tau"},
    {Q::kAlphaInit, "rp_initial_alpha_value", q10_to_real, real_to_q10, true, "alpha0 = rp_initial_alpha_value/1024",
     "rp_initial_alpha_value = min(1023, 1024 x alpha0)", "[NV-DOCA] INITIAL_ALPHA_VALUE, Q10 1..1023",
     "a 10-bit fraction: alpha0 = 1 is 1023/1024"},
    {Q::kClamp, "rp_clamp_tgt_rate", same, same, true, "clamp = rp_clamp_tgt_rate", "rp_clamp_tgt_rate = clamp",
     "[NV-2790] CLAMP_TGT_RATE", ""},
    {Q::kDecreasePeriod, "rp_rate_reduce_monitor_period", same, same, true,
     "decrease period = rp_rate_reduce_monitor_period", "rp_rate_reduce_monitor_period = decrease period",
     "[CONWEAVE] rate_reduce_monitor_period, us", ""},
    {Q::kCutShift, "rp_gd", same, same, true, "cut = R_C x alpha / 2^(rp_gd - 10)", "rp_gd = shift",
     "[CONWEAVE], [ISEKAI]: cut = (R_C x alpha_Q10) >> rp_gd", ""},
}};

constexpr std::string_view kHpccGrid =
    "the simulator updates alpha on a free-running ALPHA_RESUME_INTERVAL grid (like the NIC), not at each CNP";

constexpr std::array<Knob, 9> kHpcc{{
    {Q::kGain, "EWMA_GAIN", same, same, false, "g = EWMA_GAIN", "EWMA_GAIN = g", "[HPCC-NS3] rdma-hw.cc m_g",
     kHpccGrid},
    {Q::kAlphaPeriod, "ALPHA_RESUME_INTERVAL", same, same, false, "tau' = ALPHA_RESUME_INTERVAL",
     "ALPHA_RESUME_INTERVAL = tau'", "[HPCC-NS3] config_doc.txt, us", kHpccGrid},
    {Q::kIncreaseTimer, "RP_TIMER", same, same, false, "T = RP_TIMER", "RP_TIMER = T", "[HPCC-NS3] config_doc.txt, us",
     ""},
    {Q::kStages, "FAST_RECOVERY_TIMES", same, same, true, "F = FAST_RECOVERY_TIMES", "FAST_RECOVERY_TIMES = F",
     "[HPCC-NS3] rdma-hw.cc rpTimeStage",
     "timer stages only: fast recovery while rpTimeStage < F, additive at F, hyper after"},
    {Q::kAi, "RATE_AI", same, same, false, "R_AI = RATE_AI", "RATE_AI = R_AI", "[HPCC-NS3] config.txt, Mb/s", ""},
    {Q::kHai, "RATE_HAI", same, same, false, "R_HAI = RATE_HAI", "RATE_HAI = R_HAI", "[HPCC-NS3] config.txt, Mb/s",
     "a fixed R_HAI per hyper step; the paper adds i x R_HAI"},
    {Q::kMinRate, "MIN_RATE", same, same, false, "R_min = MIN_RATE", "MIN_RATE = R_min", "[HPCC-NS3] config.txt, Mb/s",
     ""},
    {Q::kClamp, "CLAMP_TARGET_RATE", same, same, true, "clamp = CLAMP_TARGET_RATE", "CLAMP_TARGET_RATE = clamp",
     "[HPCC-NS3] rdma-hw.cc", ""},
    {Q::kDecreasePeriod, "RATE_DECREASE_INTERVAL", same, same, false, "decrease period = RATE_DECREASE_INTERVAL",
     "RATE_DECREASE_INTERVAL = decrease period", "[HPCC-NS3] config_doc.txt, us", ""},
}};

std::span<const Knob> knobs(Convention c) {
  switch (c) {
    case Convention::kPaper:
      return kPaper;
    case Convention::kMlx5:
      return kMlx5;
    default:
      return kHpcc;
  }
}

// What a convention fixes without a key: (quantity, value, why).
struct Implied {
  Q q;
  double value;
  std::string_view why;
  bool approximate;  // the mechanism differs, not only the notation
};

constexpr std::array<Implied, 2> kPaperImplied{{
    {Q::kClamp, 1, "the paper sets R_T = R_C at every CNP ([CONEXT] eq. rp_dec)", false},
    {Q::kCutShift, 11, "the paper cuts R_C x alpha/2 ([CONEXT] eq. rp_dec), rp_gd = 11's cut", false},
}};

constexpr std::array<Implied, 4> kHpccImplied{{
    {Q::kCnpInterval, 0,
     "the simulator has no CNP pacing: every ACK of a CE-marked packet carries the CNP flag (L2_ACK_INTERVAL 1, "
     "rdma-hw.cc ReceiveUdp); a NIC's nearest setting is a CNP per CE-marked frame, against paced CNPs",
     true},
    {Q::kByteCounter, 64.0 * 4294967295.0,
     "the simulator's DCQCN is timer-only (no byte counter); the largest byte counter (2^32 - 1 units, 275 GB) "
     "never fires in practice",
     true},
    {Q::kAlphaInit, 1, "the simulator sets alpha = 1 at a flow's first CNP (rdma-hw.cc cnp_received_mlx)", false},
    {Q::kCutShift, 11, "the simulator cuts R_C x alpha/2 (rdma-hw.cc), rp_gd = 11's cut", false},
}};

std::span<const Implied> implied(Convention c) {
  if (c == Convention::kPaper) return kPaperImplied;
  if (c == Convention::kHpccNs3) return kHpccImplied;
  return {};
}

// Why a convention has no key for a quantity.
std::string_view absent(Convention c, Q q) {
  for (const Implied& i : implied(c)) {
    if (i.q == q) return i.why;
  }
  if (c == Convention::kPaper && q == Q::kDecreasePeriod) return "the paper cuts at every CNP, at once";
  return "no counterpart";
}

const Knob* knob_of(Convention c, Q q) {
  for (const Knob& k : knobs(c)) {
    if (k.q == q) return &k;
  }
  return nullptr;
}

const Knob* knob_named(Convention c, std::string_view key) {
  for (const Knob& k : knobs(c)) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

// A number, or for the simulator's rates "40Mb/s" (Kb/s, Gb/s too), in Mb/s.
std::optional<double> number(Convention c, const Knob& k, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(v) || v < 0) return std::nullopt;
  const std::string unit(end);
  if (unit.empty()) return v;
  const bool rate = c == Convention::kHpccNs3 && (k.q == Q::kAi || k.q == Q::kHai || k.q == Q::kMinRate);
  if (rate && unit == "Mb/s") return v;
  if (rate && unit == "Gb/s") return v * 1000;
  if (rate && unit == "Kb/s") return v / 1000;
  return std::nullopt;
}

std::string write_value(Convention c, const Knob& k, double v) {
  const std::string n = k.whole ? fmt::format("{}", static_cast<uint64_t>(std::llround(v))) : fmt::format("{}", v);
  const bool rate = c == Convention::kHpccNs3 && (k.q == Q::kAi || k.q == Q::kHai || k.q == Q::kMinRate);
  return rate ? n + "Mb/s" : n;
}

struct Quantity {
  double value;
  std::string from;    // "g = 0.0039" or "implied by the paper"
  std::string read;    // how the quantity came from it
  std::string approx;  // the source side's mechanism note
};

Converted convert_one(Convention from, Convention to, const Knob& k, const Quantity& q) {
  const double raw = k.write(q.value);
  Converted out{std::string(k.key),
                write_value(to, k, raw),
                q.from,
                q.read + "; " + std::string(k.write_formula),
                std::string(k.source),
                ""};
  std::vector<std::string> notes;
  // Each note says how its convention departs from the paper; between two conventions
  // that both depart, both are named, so that a reader sees whether they depart alike.
  const bool both = !q.approx.empty() && !k.approx.empty() && k.approx != q.approx;
  const auto named = [&](Convention c, std::string_view note) {
    return both ? fmt::format("{}: {}", name_of(c), note) : std::string(note);
  };
  if (from != to && !q.approx.empty()) notes.push_back(named(from, q.approx));
  if (from != to && !k.approx.empty() && k.approx != q.approx) notes.push_back(named(to, k.approx));
  if (k.whole && std::fabs(raw - std::round(raw)) > 1e-9) {
    const double back = k.read(std::round(raw));
    notes.push_back(fmt::format("rounded from {:.6g}, which reads back as {:.6g} (given {:.6g})", raw, back, q.value));
  }
  for (const std::string& n : notes) out.approximate += (out.approximate.empty() ? "" : "; ") + n;
  return out;
}

}  // namespace

std::optional<Convention> convention_named(std::string_view name) {
  if (name == "paper") return Convention::kPaper;
  if (name == "mlx5") return Convention::kMlx5;
  if (name == "hpcc-ns3") return Convention::kHpccNs3;
  return std::nullopt;
}

std::string_view name_of(Convention c) {
  switch (c) {
    case Convention::kPaper:
      return "paper";
    case Convention::kMlx5:
      return "mlx5";
    default:
      return "hpcc-ns3";
  }
}

std::vector<GivenValue> defaults_of(Convention c) {
  std::vector<GivenValue> out;
  if (c == Convention::kPaper) {
    for (const auto& [k, v] : {std::pair{"g", "0.00390625"},
                               {"alpha_timer_us", "55"},
                               {"T_us", "55"},
                               {"B_bytes", "10000000"},
                               {"F", "5"},
                               {"R_AI_Mbps", "40"},
                               {"R_HAI_Mbps", "200"},
                               {"min_rate_Mbps", "100"},
                               {"cnp_interval_us", "50"},
                               {"alpha_init", "1"}}) {
      out.push_back({k, v, "the paper's default"});
    }
  } else if (c == Convention::kMlx5) {
    for (const cc::UintSpec& s : cc::dcqcn::nic_specs()) {
      if (knob_named(c, s.name) != nullptr)
        out.push_back({std::string(s.name), std::to_string(s.default_value), "the mlx5 default"});
    }
  } else {
    // run.py's dcqcn preset at --bw 100 (cc-reference 1.2.b).
    for (const auto& [k, v] : {std::pair{"EWMA_GAIN", "0.00390625"},
                               {"ALPHA_RESUME_INTERVAL", "1"},
                               {"RP_TIMER", "300"},
                               {"FAST_RECOVERY_TIMES", "1"},
                               {"RATE_AI", "20Mb/s"},
                               {"RATE_HAI", "200Mb/s"},
                               {"MIN_RATE", "1000Mb/s"},
                               {"CLAMP_TARGET_RATE", "0"},
                               {"RATE_DECREASE_INTERVAL", "4"}}) {
      out.push_back({k, v, "run.py's dcqcn preset at --bw 100"});
    }
  }
  return out;
}

Expected<Conversion> convert(Convention from, Convention to, const std::vector<GivenValue>& given_in) {
  const std::vector<GivenValue> given = given_in.empty() ? defaults_of(from) : given_in;
  Conversion out;
  std::vector<std::pair<Q, Quantity>> quantities;
  for (const Implied& i : implied(from)) {
    quantities.push_back({i.q, Quantity{i.value, fmt::format("implied by {}", name_of(from)), std::string(i.why),
                                        i.approximate ? "the mechanisms differ (as said beside the formula)" : ""}});
  }
  for (const GivenValue& g : given) {
    const Knob* k = knob_named(from, g.key);
    if (k == nullptr) {
      out.skipped.push_back(g.where + ": " + g.key);
      continue;
    }
    const auto v = number(from, *k, g.value);
    if (!v) {
      return Error{fmt::format("{}: {} = {}: expected a non-negative number{}", g.where, g.key, g.value,
                               from == Convention::kHpccNs3 ? " (rates as 40Mb/s)" : "")};
    }
    const double q = k->read(*v);
    std::erase_if(quantities, [&](const auto& e) { return e.first == k->q; });
    quantities.push_back({k->q, Quantity{q, fmt::format("{} = {}", g.key, g.value),
                                         fmt::format("{} = {:.6g}", k->read_formula, q), std::string(k->approx)}});
  }
  for (const auto& [q, value] : quantities) {
    const Knob* k = knob_of(to, q);
    if (k == nullptr) {
      if (!value.from.starts_with("implied")) out.dropped.push_back(value.from + ": " + std::string(absent(to, q)));
      continue;
    }
    out.keys.push_back(convert_one(from, to, *k, value));
  }
  return out;
}

std::string key_line(Convention c, const Converted& k) {
  return c == Convention::kHpccNs3 ? k.key + " " + k.value : k.key + " = " + k.value;
}

}  // namespace rtb::params
