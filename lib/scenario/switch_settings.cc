#include "scenario/switch_settings.h"

#include <fmt/format.h>

#include "scenario/aqm_settings.h"
#include "scenario/qos_settings.h"
#include "scenario/routes.h"

namespace rtb::scenario {
namespace {

// static_th or dynamic_th, not both; `def` decides when neither is given.
void read_threshold(Table& t, sw::ThresholdMode& mode, Bytes& static_th, int& dynamic_th) {
  const auto s = t.opt_bytes("static_th");
  const auto d = t.opt_integer("dynamic_th", -8, 8);
  if (s && d) t.fail("dynamic_th", "static_th and dynamic_th are both given: expected one of them");
  if (s) {
    mode = sw::ThresholdMode::kStatic;
    static_th = *s;
  }
  if (d) {
    mode = sw::ThresholdMode::kDynamic;
    dynamic_th = static_cast<int>(*d);
  }
}

void read_pool(std::optional<Table> t, sw::BufferPoolConfig& p) {
  if (!t) return;
  p.size = t->bytes("size", p.size);
  p.xoff = t->bytes("xoff", p.xoff);
  p.lossy_size = t->bytes("lossy_size", p.lossy_size);
  p.cell = t->bytes("cell", p.cell);
  t->finish();
}

void read_pg(std::optional<Table> t, sw::PgProfile& p, bool lossless) {
  if (!t) return;
  p.size = t->bytes("size", p.size);
  read_threshold(*t, p.mode, p.static_th, p.dynamic_th);
  if (lossless) {
    p.xoff = t->bytes("xoff", p.xoff);
    p.xon_offset = t->bytes("xon_offset", p.xon_offset);
  }
  t->finish();
}

void read_egress(std::optional<Table> t, sw::EgressProfile& e) {
  if (!t) return;
  read_threshold(*t, e.mode, e.static_th, e.dynamic_th);
  t->finish();
}

void read_wred(std::optional<Table> t, sw::WredProfile& w) {
  if (!t) return;
  w.green_min_threshold = t->bytes("green_min_threshold", w.green_min_threshold);
  w.green_max_threshold = t->bytes("green_max_threshold", w.green_max_threshold);
  w.green_drop_probability = static_cast<uint32_t>(t->integer("green_drop_probability", 0, 100, w.green_drop_probability));
  w.wred_green_enable = t->boolean("wred_green_enable", w.wred_green_enable);
  const std::string ecn = t->choice("ecn", {"ecn_none", "ecn_green", "ecn_yellow", "ecn_red", "ecn_green_yellow",
                                            "ecn_green_red", "ecn_yellow_red", "ecn_all"},
                                    std::string(sw::ecn_mode_name(w.ecn)));
  w.ecn = sw::parse_ecn_mode(ecn).value();
  t->finish();
}

void read_scheduler(std::optional<Table> t, std::array<sw::SchedulerConfig, sw::kPriorities>& s) {
  if (!t) return;
  const std::string type = t->choice("type", {"dwrr", "strict"}, "dwrr");
  const auto weight = static_cast<uint32_t>(t->integer("weight", 1, 100, 1));
  const auto strict = t->opt_integers("strict_queues", 0, sw::kPriorities - 1).value_or(std::vector<int64_t>{});
  for (int q = 0; q < sw::kPriorities; ++q) {
    s[q].type = type == "strict" ? sw::SchedulerConfig::Type::kStrict : sw::SchedulerConfig::Type::kDwrr;
    s[q].weight = weight;
  }
  for (int64_t q : strict) s[q].type = sw::SchedulerConfig::Type::kStrict;
  t->finish();
}

void read_pfc(std::optional<Table> t, sw::PfcConfig& p) {
  if (!t) return;
  p.pause_quanta = static_cast<uint16_t>(t->integer("pause_quanta", 1, 0xFFFF, p.pause_quanta));
  p.refresh_interval = t->time("refresh_interval", p.refresh_interval);
  t->finish();
}

void read_pfcwd(std::optional<Table> t, sw::PfcWdConfig& w) {
  if (!t) return;
  w.enabled = t->boolean("enabled", w.enabled);
  w.action = sw::parse_pfcwd_action(t->choice("action", {"drop", "forward", "alert"}, "drop")).value();
  w.detection_time = t->time("detection_time", w.detection_time);
  w.restoration_time = t->time("restoration_time", w.restoration_time);
  w.poll_interval = t->time("poll_interval", w.poll_interval);
  t->finish();
}

uint8_t priority_bits(const std::vector<int64_t>& list) {
  uint8_t bits = 0;
  for (int64_t p : list) bits = static_cast<uint8_t>(bits | (1u << p));
  return bits;
}

}  // namespace

SwitchSettings read_switch_settings(std::optional<Table> t) {
  SwitchSettings settings{sw::tuning_guide_config(0, Rate::gbps(100)), {}};
  sw::SwitchConfig& c = settings.config;
  if (!t) return settings;
  if (const auto bits = read_pfc_enable(*t)) c.pfc_enable = *bits;
  read_qos_maps(*t, c.maps);  // before the PGs: lossless_pg() follows tc_to_pg
  const uint8_t wred_queues =
      priority_bits(t->opt_integers("wred_queues", 0, sw::kPriorities - 1).value_or(std::vector<int64_t>{}));
  const bool wred_given = t->has("wred_queues");
  sw::PgProfile lossless = sw::PgProfile{};
  sw::PgProfile lossy = c.pg[0];  // tuning guide: dynamic_th 3, no headroom
  read_pool(t->table("buffer_pool"), c.pool);
  read_pg(t->table("pg_lossless"), lossless, true);
  read_pg(t->table("pg_lossy"), lossy, false);
  read_egress(t->table("egress_lossy"), c.egress[0]);
  sw::WredProfile wred;
  read_wred(t->table("wred_profile"), wred);
  read_scheduler(t->table("scheduler"), c.scheduler);
  read_pfc(t->table("pfc"), c.pfc);
  read_pfcwd(t->table("pfcwd"), c.pfcwd);
  c.mark_point = t->choice("mark_point", {"dequeue", "enqueue"}, "dequeue") == "enqueue" ? sw::MarkPoint::kEnqueue
                                                                                         : sw::MarkPoint::kDequeue;
  c.ecmp_hash_seed = static_cast<uint64_t>(t->integer("ecmp_hash_seed", 0, INT64_MAX, 0));
  for (int i = 0; i < sw::kPriorities; ++i) {
    c.pg[i] = c.lossless_pg(i) ? lossless : lossy;
    c.egress[i] = c.egress[0];
    const bool marked = wred_given ? ((wred_queues >> i) & 1u) != 0 : c.lossless_tc(i);
    c.wred[i] = marked ? std::optional<sw::WredProfile>(wred) : std::nullopt;
  }
  read_aqm_settings(*t, wred, c);
  settings.port_qos = read_port_qos(t->table("port_qos"), c);
  t->finish();
  return settings;
}

void apply_switch_settings(Topology& topo, const SwitchSettings& settings, const Table& topology_table) {
  for (SwitchNode& s : topo.switches) {
    s.config = settings.config;
    s.config.name = s.name;
    s.config.ports.clear();
    for (size_t p = 0; p < s.port_links.size(); ++p) {
      const Link& l = topo.links[s.port_links[p]];
      sw::PortConfig port;
      port.name = fmt::format("Ethernet{}", 4 * p);
      port.rate = l.rate;
      port.mtu = topo.mtu;
      port.propagation = l.propagation;
      s.config.ports.push_back(port);
    }
  }
  apply_port_qos(settings.port_qos, topo);
  const std::string error = compute_routes(topo);
  if (!error.empty()) topology_table.fail("links", error);
}

}  // namespace rtb::scenario
