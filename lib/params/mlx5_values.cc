#include "params/mlx5_values.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <utility>

namespace rtb::params {

std::optional<uint32_t> parse_kstrtou32(const std::string& text) {
  if (text.empty() || text[0] == '-' || text[0] == '+') return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 0);  // base 0, as kstrtou32
  if (errno != 0 || end == text.c_str() || *end != '\0' || v > 0xffff'ffffULL) return std::nullopt;
  return static_cast<uint32_t>(v);
}

void add_cc_param(Imported& out, const std::string& name, const std::string& text, const Origin& at,
                  const std::string& source_key) {
  const std::optional<uint32_t> v = parse_kstrtou32(text);
  if (!v) {
    out.find(at, source_key, text,
             "not a value the cc_params file accepts: expected a whole number 0..4294967295 (decimal, 0x hex or 0 "
             "octal, as kstrtou32 reads it); not written");
    return;
  }
  if (out.get("cc", "algorithm") == nullptr)
    out.set("cc", "algorithm", quoted("dcqcn"), at, "an mlx5 cc_params value", "the NIC model");
  out.set("cc.params", name, std::to_string(*v), at, source_key, text);
}

std::string debugfs_name_of_nvconfig(const std::string& nvconfig) {
  // NVConfig (mlxconfig) and debugfs names of the same firmware field, cc-reference §1.3.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 19> kNames{{
      {"CLAMP_TGT_RATE", "rp_clamp_tgt_rate"},
      {"CLAMP_TGT_RATE_AFTER_TIME_INC", "rp_clamp_tgt_rate_ati"},
      {"RPG_TIME_RESET", "rp_time_reset"},
      {"RPG_BYTE_RESET", "rp_byte_reset"},
      {"RPG_THRESHOLD", "rp_threshold"},
      {"RPG_AI_RATE", "rp_ai_rate"},
      {"RPG_HAI_RATE", "rp_hai_rate"},
      {"RPG_MAX_RATE", "rp_max_rate"},
      {"RPG_MIN_DEC_FAC", "rp_min_dec_fac"},
      {"RPG_MIN_RATE", "rp_min_rate"},
      {"RATE_TO_SET_ON_FIRST_CNP", "rp_rate_to_set_on_first_cnp"},
      {"DCE_TCP_G", "rp_dce_tcp_g"},
      {"DCE_TCP_RTT", "rp_dce_tcp_rtt"},
      {"RATE_REDUCE_MONITOR_PERIOD", "rp_rate_reduce_monitor_period"},
      {"INITIAL_ALPHA_VALUE", "rp_initial_alpha_value"},
      {"RPG_GD", "rp_gd"},
      {"MIN_TIME_BETWEEN_CNPS", "np_min_time_between_cnps"},
      {"CNP_DSCP", "np_cnp_dscp"},
      {"CNP_802P_PRIO", "np_cnp_prio"},
  }};
  for (const auto& [nv, debugfs] : kNames) {
    if (nv == nvconfig) return std::string(debugfs);
  }
  return "";
}

}  // namespace rtb::params
