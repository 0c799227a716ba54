#include "switch/config.h"

#include <fmt/format.h>

namespace rtb::sw {
namespace {

struct EcnName {
  EcnMode mode;
  std::string_view name;
};
constexpr std::array<EcnName, 8> kEcnNames{{
    {EcnMode::kNone, "ecn_none"},
    {EcnMode::kGreen, "ecn_green"},
    {EcnMode::kYellow, "ecn_yellow"},
    {EcnMode::kRed, "ecn_red"},
    {EcnMode::kGreenYellow, "ecn_green_yellow"},
    {EcnMode::kGreenRed, "ecn_green_red"},
    {EcnMode::kYellowRed, "ecn_yellow_red"},
    {EcnMode::kAll, "ecn_all"},
}};

}  // namespace

Expected<EcnMode> parse_ecn_mode(std::string_view v) {
  for (const EcnName& e : kEcnNames) {
    if (e.name == v) return e.mode;
  }
  return Error{fmt::format(
      "WRED_PROFILE ecn = \"{}\": expected one of ecn_none, ecn_green, ecn_yellow, ecn_red, "
      "ecn_green_yellow, ecn_green_red, ecn_yellow_red, ecn_all", v)};
}

std::string_view ecn_mode_name(EcnMode m) { return kEcnNames[static_cast<size_t>(m)].name; }

Expected<PfcWdConfig::Action> parse_pfcwd_action(std::string_view v) {
  if (v == "drop") return PfcWdConfig::Action::kDrop;
  if (v == "forward") return PfcWdConfig::Action::kForward;
  if (v == "alert") return PfcWdConfig::Action::kAlert;
  return Error{fmt::format("PFC_WD action = \"{}\": expected drop, forward or alert", v)};
}

std::string_view pfcwd_action_name(PfcWdConfig::Action a) {
  switch (a) {
    case PfcWdConfig::Action::kDrop: return "drop";
    case PfcWdConfig::Action::kForward: return "forward";
    case PfcWdConfig::Action::kAlert: return "alert";
  }
  return "?";
}

QosMaps default_qos_maps() {
  QosMaps m;
  m.dscp_to_tc[3] = 3;
  m.dscp_to_tc[26] = 3;
  m.dscp_to_tc[4] = 4;
  m.dscp_to_tc[46] = 5;
  m.dscp_to_tc[48] = 6;
  for (int i = 0; i < kPriorities; ++i) {
    m.dot1p_to_tc[i] = static_cast<uint8_t>(i);
    m.tc_to_pg[i] = static_cast<uint8_t>(i);
    m.tc_to_queue[i] = static_cast<uint8_t>(i);
  }
  return m;
}

bool SwitchConfig::lossless_pg(int pg_index) const {
  for (int tc = 0; tc < kPriorities; ++tc) {
    if (lossless_tc(tc) && maps.tc_to_pg[tc] == pg_index) return true;
  }
  return false;
}

SwitchConfig tuning_guide_config(int ports, Rate rate) {
  SwitchConfig c;
  for (int i = 0; i < ports; ++i) {
    PortConfig p;
    p.name = fmt::format("Ethernet{}", 4 * i);
    p.rate = rate;
    c.ports.push_back(p);
  }
  c.pool.size = Bytes::mb(4);
  c.pool.xoff = Bytes::kb(1'600);
  c.pool.lossy_size = Bytes::mb(1);  // rocetb's default (config.h), outside the 4 MB
  for (int pg = 0; pg < kPriorities; ++pg) {
    PgProfile& prof = c.pg[pg];
    if (c.lossless_pg(pg)) {
      prof = PgProfile{};  // size 0, static_th 2.4 MB, xoff 1.6 MB
    } else {
      prof.mode = ThresholdMode::kDynamic;
      prof.dynamic_th = 3;
      prof.xoff = Bytes(0);
    }
    if (c.lossless_tc(pg)) c.wred[pg] = WredProfile{};  // 150 KB / 1.2 MB / 5 %
  }
  return c;
}

}  // namespace rtb::sw
