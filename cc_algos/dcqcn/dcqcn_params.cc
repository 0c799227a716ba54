#include "cc_algos/dcqcn/dcqcn_params.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace rtb::cc::dcqcn {

namespace {

constexpr uint64_t kU32 = 0xffff'ffff;

// Indexes into both spec tables (the paper table omits the NIC-only rows; see kPaper*).
enum Nic : size_t {
  kClamp, kClampAti, kTimeReset, kByteReset, kThreshold, kAiRate, kMaxRate, kHaiRate,
  kMinDecFac, kMinRate, kFirstCnpRate, kDceTcpG, kDceTcpRtt, kMonitorPeriod, kInitialAlpha,
  kGd, kNpMinTime, kNpDscp, kNpPrio, kNpPrioMode, kNicCount
};

// mlx5 defaults: [MLXCFG] ConnectX-5 Ex fw 16.27.2008, cross-checked in cc-reference §1.3.
constexpr std::array<UintSpec, kNicCount> kNicSpecs{{
    {"rp_clamp_tgt_rate", "bool", 0, 1, 0, ""},
    {"rp_clamp_tgt_rate_ati", "bool", 0, 1, 1, ""},
    {"rp_time_reset", "us", 1, kU32, 300, ""},
    {"rp_byte_reset", "64-byte units", 1, kU32, 32767, ""},
    {"rp_threshold", "increase events", 0, kU32, 1, ""},
    {"rp_ai_rate", "Mb/s", 0, kU32, 5, ""},
    {"rp_max_rate", "Mb/s, 0 = the line rate", 0, kU32, 0, ""},
    {"rp_hai_rate", "Mb/s", 0, kU32, 50, ""},
    {"rp_min_dec_fac", "%", 0, 100, 50, "a single cut is at most (100 - rp_min_dec_fac)% of the rate"},
    {"rp_min_rate", "Mb/s", 1, kU32, 1, ""},
    {"rp_rate_to_set_on_first_cnp", "Mb/s, 0 = keep the current rate", 0, kU32, 0, ""},
    {"rp_dce_tcp_g", "Q10 weight of the old alpha", 0, 1023, 1019, ""},
    {"rp_dce_tcp_rtt", "us", 1, 131071, 1, ""},
    {"rp_rate_reduce_monitor_period", "us", 1, kU32, 4, ""},
    {"rp_initial_alpha_value", "Q10", 1, 1023, 1023,
     "alpha is a 10-bit fraction: 1023 means alpha = 1.0 (1024 does not fit the field)"},
    {"rp_gd", "log2 shift", 0, 31, 11,
     "the cut is (R_C * alpha) >> rp_gd; a shift of 32 or more cannot apply to the 32-bit "
     "rate field (the documented values are 10..11)"},
    {"np_min_time_between_cnps", "us", 0, kU32, 4, ""},
    {"np_cnp_dscp", "6-bit DSCP", 0, 63, 48, ""},
    {"np_cnp_prio", "3-bit 802.1p PCP", 0, 7, 6, ""},
    {"np_cnp_prio_mode", "mode", 0, 0, 0,
     "only mode 0 (the CNP's PCP is np_cnp_prio) is documented; mode 1 is not modelled"},
}};

enum Paper : size_t {
  kPClamp, kPClampAti, kPTimeReset, kPByteReset, kPThreshold, kPAiRate, kPMaxRate, kPHaiRate,
  kPMinRate, kPDceTcpG, kPDceTcpRtt, kPNpMinTime, kPNpDscp, kPNpPrio, kPNpPrioMode, kPaperCount
};

// DCQCN SIGCOMM'15 values as restated in cc-reference §1.1: T = 55 µs, B = 10 MB
// (156,250 × 64 B), F = 5, R_AI = 40 Mb/s, g = 1/256 (= (1024 − 1020)/1024), τ′ = 55 µs,
// τ = 50 µs. R_HAI is not in the paper: 200 Mb/s is the authors' ns-3 sample config
// ([NS3-RDMA] mix/config.txt RATE_HAI). The minimum rate is not in the paper either:
// 100 Mb/s is [NS3-RDMA]'s MinRate default.
constexpr std::array<UintSpec, kPaperCount> kPaperSpecs{{
    {"rp_clamp_tgt_rate", "bool", 0, 1, 1, ""},
    {"rp_clamp_tgt_rate_ati", "bool", 0, 1, 0, ""},
    {"rp_time_reset", "us", 1, kU32, 55, ""},
    {"rp_byte_reset", "64-byte units", 1, kU32, 156250, ""},
    {"rp_threshold", "increase events", 0, kU32, 5, ""},
    {"rp_ai_rate", "Mb/s", 0, kU32, 40, ""},
    {"rp_max_rate", "Mb/s, 0 = the line rate", 0, kU32, 0, ""},
    {"rp_hai_rate", "Mb/s", 0, kU32, 200, ""},
    {"rp_min_rate", "Mb/s", 1, kU32, 100, ""},
    {"rp_dce_tcp_g", "Q10 weight of the old alpha", 0, 1023, 1020, ""},
    {"rp_dce_tcp_rtt", "us", 1, kU32, 55, ""},
    {"np_min_time_between_cnps", "us", 0, kU32, 50, ""},
    {"np_cnp_dscp", "6-bit DSCP", 0, 63, 48, ""},
    {"np_cnp_prio", "3-bit 802.1p PCP", 0, 7, 6, ""},
    {"np_cnp_prio_mode", "mode", 0, 0, 0,
     "only mode 0 (the CNP's PCP is np_cnp_prio) is documented; mode 1 is not modelled"},
}};

std::string_view nic_refusal(std::string_view key) {
  if (key == "rp_rf_reset_ratio")
    return "not an mlx5 DCQCN parameter (it is not in the kernel's cc_params list nor a field "
           "of the RP register); the nearest real knobs are rp_threshold, rp_time_reset and "
           "rp_byte_reset";
  if (key == "rtt_resp_dscp" || key == "rtt_resp_dscp_valid")
    return "an mlx5 cc_params entry for RTT-probe responses, not part of DCQCN and not modelled";
  return "";
}

std::string_view paper_refusal(std::string_view key) {
  for (const auto& s : kNicSpecs)
    if (s.name == key)
      return "an mlx5 NIC parameter with no counterpart in the paper's model (use algorithm "
             "'dcqcn' for the NIC model)";
  return nic_refusal(key);
}

Rate mbps(uint64_t v) { return Rate::mbps(v); }

// g = (1024 − dce_tcp_g)/1024 is the paper's gain; a small dce_tcp_g makes α forget its
// history every period.
void warn_alpha_gain(uint64_t g, Reporter& r) {
  if (g >= 512) return;
  r.warning(fmt::format(
      "{}: rp_dce_tcp_g = {} is the Q10 weight of the OLD alpha, so the paper's gain is "
      "g = (1024 - {})/1024 = {:.4f}: alpha jumps to ~1 after any period with a CNP and to ~0 "
      "after one without, disabling the averaging (for the paper's g = 1/256 use 1020; "
      "for g = 1/16 use 960)",
      r.algorithm(), g, g, static_cast<double>(1024 - g) / 1024.0));
}

void warn_gd(uint64_t gd, uint64_t min_dec_fac, Reporter& r) {
  if (gd >= 10 && gd <= 11) return;
  const double max_cut = 1023.0 / std::ldexp(1.0, static_cast<int>(gd));
  std::string msg = fmt::format(
      "{}: rp_gd = {} is outside the documented 10..11: a cut is (R_C * alpha) >> {}, at most "
      "1023/2^{} = {:.6g} of R_C",
      r.algorithm(), gd, gd, gd, max_cut);
  if (max_cut > 1.0 - static_cast<double>(min_dec_fac) / 100.0)
    msg += fmt::format(", so most cuts are bounded by rp_min_dec_fac = {} (at most {}%)",
                       min_dec_fac, 100 - min_dec_fac);
  if (max_cut < 1e-3)
    msg += fmt::format(
        "; every cut is below 0.1% of the rate, so the multiplicative decrease is effectively "
        "disabled (and with the NIC's Mb/s rate field every cut below {:.6g} Gb/s is exactly 0)",
        std::ldexp(1.0, static_cast<int>(gd)) / 1023.0 / 1000.0);
  r.warning(msg);
}

void check_first_cnp_rate(uint64_t first, uint64_t min, uint64_t max, Reporter& r) {
  if (first == 0) return;
  if (first < min)
    r.warning(fmt::format("{}: rp_rate_to_set_on_first_cnp = {} Mb/s is below rp_min_rate = {} "
                          "Mb/s: the first CNP sets the rate to {} Mb/s",
                          r.algorithm(), first, min, min));
  if (max != 0 && first > max)
    r.warning(fmt::format("{}: rp_rate_to_set_on_first_cnp = {} Mb/s is above rp_max_rate = {} "
                          "Mb/s: the first CNP sets the rate to {} Mb/s",
                          r.algorithm(), first, max, max));
}

void check_min_max(uint64_t min, uint64_t max, Reporter& r) {
  if (max != 0 && min > max)
    r.error(fmt::format("{}: rp_min_rate = {} Mb/s is above rp_max_rate = {} Mb/s; expected "
                        "rp_min_rate <= rp_max_rate (or rp_max_rate = 0 for the line rate)",
                        r.algorithm(), min, max));
}

void warn_no_increase(uint64_t ai, uint64_t hai, Reporter& r) {
  if (ai == 0 && hai == 0)
    r.warning(fmt::format("{}: rp_ai_rate = 0 and rp_hai_rate = 0: the target rate never rises, "
                          "so after a cut the rate only recovers to the target it had",
                          r.algorithm()));
}

NpParams np_from(uint64_t min_time_us, uint64_t dscp, uint64_t prio) {
  return NpParams{Time::us(min_time_us), static_cast<uint8_t>(dscp), static_cast<uint8_t>(prio)};
}

}  // namespace

std::span<const UintSpec> nic_specs() { return kNicSpecs; }
std::span<const UintSpec> paper_specs() { return kPaperSpecs; }

bool parse_nic_params(std::span<const rtb_cc_param> in, NicParams& out, Reporter& r) {
  std::array<uint64_t, kNicCount> v{};
  read_uint_params(in, kNicSpecs, v, r, nic_refusal);
  out.resolved.set(kNicSpecs, v);
  if (r.failed()) return false;
  check_min_max(v[kMinRate], v[kMaxRate], r);
  if (r.failed()) return false;
  warn_alpha_gain(v[kDceTcpG], r);
  warn_gd(v[kGd], v[kMinDecFac], r);
  if (v[kMinDecFac] == 100)
    r.warning(fmt::format("{}: rp_min_dec_fac = 100 bounds every cut to (100 - 100)% = 0: the "
                          "rate never decreases",
                          r.algorithm()));
  check_first_cnp_rate(v[kFirstCnpRate], v[kMinRate], v[kMaxRate], r);
  warn_no_increase(v[kAiRate], v[kHaiRate], r);
  out.clamp_tgt_rate = v[kClamp] != 0;
  out.clamp_tgt_rate_ati = v[kClampAti] != 0;
  out.time_reset = Time::us(v[kTimeReset]);
  out.byte_reset = Bytes(v[kByteReset] * 64);
  out.threshold = static_cast<uint32_t>(v[kThreshold]);
  out.ai_rate = mbps(v[kAiRate]);
  out.hai_rate = mbps(v[kHaiRate]);
  out.max_rate = mbps(v[kMaxRate]);
  out.min_rate = mbps(v[kMinRate]);
  out.min_dec_fac = static_cast<uint32_t>(v[kMinDecFac]);
  out.rate_on_first_cnp = mbps(v[kFirstCnpRate]);
  out.dce_tcp_g = static_cast<uint32_t>(v[kDceTcpG]);
  out.alpha_period = Time::us(v[kDceTcpRtt]);
  out.monitor_period = Time::us(v[kMonitorPeriod]);
  out.initial_alpha = static_cast<uint32_t>(v[kInitialAlpha]);
  out.gd = static_cast<uint32_t>(v[kGd]);
  out.np = np_from(v[kNpMinTime], v[kNpDscp], v[kNpPrio]);
  out.decay.build(out.dce_tcp_g);
  return true;
}

bool parse_paper_params(std::span<const rtb_cc_param> in, PaperParams& out, Reporter& r) {
  std::array<uint64_t, kPaperCount> v{};
  read_uint_params(in, kPaperSpecs, v, r, paper_refusal);
  out.resolved.set(kPaperSpecs, v);
  if (r.failed()) return false;
  check_min_max(v[kPMinRate], v[kPMaxRate], r);
  if (r.failed()) return false;
  warn_alpha_gain(v[kPDceTcpG], r);
  warn_no_increase(v[kPAiRate], v[kPHaiRate], r);
  if (v[kPDceTcpRtt] <= v[kPNpMinTime])
    r.warning(fmt::format("{}: rp_dce_tcp_rtt = {} us (the alpha timer) is not larger than "
                          "np_min_time_between_cnps = {} us; the paper requires it to be larger, "
                          "or alpha decays between the CNPs of a congested flow",
                          r.algorithm(), v[kPDceTcpRtt], v[kPNpMinTime]));
  out.clamp_tgt_rate = v[kPClamp] != 0;
  out.clamp_tgt_rate_ati = v[kPClampAti] != 0;
  out.time_reset = Time::us(v[kPTimeReset]);
  out.byte_reset = Bytes(v[kPByteReset] * 64);
  out.threshold = static_cast<uint32_t>(v[kPThreshold]);
  out.ai_rate = mbps(v[kPAiRate]);
  out.hai_rate = mbps(v[kPHaiRate]);
  out.max_rate = mbps(v[kPMaxRate]);
  out.min_rate = mbps(v[kPMinRate]);
  out.dce_tcp_g = static_cast<uint32_t>(v[kPDceTcpG]);
  out.alpha_keep = static_cast<double>(out.dce_tcp_g) / 1024.0;
  out.alpha_period = Time::us(v[kPDceTcpRtt]);
  out.np = np_from(v[kPNpMinTime], v[kPNpDscp], v[kPNpPrio]);
  return true;
}

}  // namespace rtb::cc::dcqcn
