#include "scenario/effective.h"

#include "scenario/addressing.h"
#include "scenario/qos_settings.h"

namespace rtb::scenario {
namespace {

using nlohmann::json;

json node_json(const Topology& t, NodeRef n) {
  return n.kind == NodeKind::kHost ? t.hosts[n.index].name : t.switches[n.index].name;
}

json threshold_json(sw::ThresholdMode mode, Bytes static_th, int dynamic_th) {
  if (mode == sw::ThresholdMode::kStatic) return {{"static_th_bytes", static_th.count()}};
  return {{"dynamic_th", dynamic_th}};
}

json pg_json(const sw::PgProfile& p) {
  json j = threshold_json(p.mode, p.static_th, p.dynamic_th);
  j["size_bytes"] = p.size.count();
  j["xoff_bytes"] = p.xoff.count();
  j["xon_offset_bytes"] = p.xon_offset.count();
  return j;
}

json wred_json(const std::optional<sw::WredProfile>& w) {
  if (!w) return nullptr;
  return {{"green_min_threshold_bytes", w->green_min_threshold.count()},
          {"green_max_threshold_bytes", w->green_max_threshold.count()},
          {"green_drop_probability", w->green_drop_probability},
          {"wred_green_enable", w->wred_green_enable},
          {"ecn", std::string(sw::ecn_mode_name(w->ecn))}};
}

// A queue's AQM by name with its parameters (WRED's are under "wred"); null: none.
json aqm_json(const sw::SwitchConfig& c, int q) {
  if (!c.aqm[q]) return c.wred[q] ? json{{"name", "wred"}} : json(nullptr);
  json j{{"name", std::string(sw::aqm_name(c.aqm[q]))}};
  if (const auto* s = std::get_if<sw::StepProfile>(&*c.aqm[q])) j["k_threshold_bytes"] = s->k_threshold.count();
  if (const auto* p = std::get_if<sw::PieProfile>(&*c.aqm[q])) {
    j["qdelay_ref_ns"] = ns_json(p->qdelay_ref);
    j["t_update_ns"] = ns_json(p->t_update);
    j["max_burst_ns"] = ns_json(p->max_burst);
    j["alpha_hz"] = p->alpha_hz;
    j["beta_hz"] = p->beta_hz;
  }
  return j;
}

json maps_json(const sw::QosMaps& m) {
  return {{"trust", trust_name(m)}, {"dscp_to_tc", m.dscp_to_tc},  // index: DSCP
          {"dot1p_to_tc", m.dot1p_to_tc}, {"tc_to_pg", m.tc_to_pg}, {"tc_to_queue", m.tc_to_queue}};
}

json pfc_json(uint8_t pfc_enable) {
  json list = json::array();
  for (int p = 0; p < sw::kPriorities; ++p) {
    if ((pfc_enable >> p) & 1u) list.push_back(p);
  }
  return list;
}

json qos_json(const sw::SwitchConfig& c) {
  json j;
  j["buffer_pool"] = {{"size_bytes", c.pool.size.count()}, {"xoff_bytes", c.pool.xoff.count()},
                      {"lossy_size_bytes", c.pool.lossy_size.count()}, {"cell_bytes", c.pool.cell.count()}};
  j["pfc_enable"] = pfc_json(c.pfc_enable);
  j["qos_maps"] = maps_json(c.maps);
  for (int q = 0; q < sw::kPriorities; ++q) {
    j["pg"].push_back(pg_json(c.pg[q]));
    j["egress"].push_back(threshold_json(c.egress[q].mode, c.egress[q].static_th, c.egress[q].dynamic_th));
    j["wred"].push_back(wred_json(c.wred[q]));
    j["aqm"].push_back(aqm_json(c, q));
    const bool strict = c.scheduler[q].type == sw::SchedulerConfig::Type::kStrict;
    j["scheduler"].push_back({{"type", strict ? "strict" : "dwrr"}, {"weight", c.scheduler[q].weight}});
  }
  j["mark_point"] = c.mark_point == sw::MarkPoint::kEnqueue ? "enqueue" : "dequeue";
  j["pfc"] = {{"pause_quanta", c.pfc.pause_quanta}, {"refresh_interval_ns", ns_json(c.pfc.refresh_interval)}};
  j["pfcwd"] = {{"enabled", c.pfcwd.enabled},
                {"action", std::string(sw::pfcwd_action_name(c.pfcwd.action))},
                {"detection_time_ns", ns_json(c.pfcwd.detection_time)},
                {"restoration_time_ns", ns_json(c.pfcwd.restoration_time)},
                {"poll_interval_ns", ns_json(c.pfcwd.poll_interval)}};
  j["ecmp_hash_seed"] = c.ecmp_hash_seed;
  return j;
}

json switch_json(const SwitchNode& s) {
  json j = qos_json(s.config);
  j["name"] = s.name;
  for (size_t p = 0; p < s.config.ports.size(); ++p) {
    const sw::PortConfig& port = s.config.ports[p];
    json pj = {{"name", port.name}, {"rate_bps", port.rate.bps()}, {"mtu_bytes", port.mtu},
               {"propagation_ns", ns_json(port.propagation)}, {"link", s.port_links[p]}};
    // A port's own PORT_QOS_MAP; without them it uses the switch's (above).
    if (port.maps) pj["qos_maps"] = maps_json(*port.maps);
    if (port.pfc_enable) pj["pfc_enable"] = pfc_json(*port.pfc_enable);
    j["ports"].push_back(pj);
  }
  for (const sw::Route& r : s.config.routes) {
    j["routes"].push_back({{"prefix", format_ipv4(r.prefix) + "/" + std::to_string(r.prefix_len)}, {"ports", r.ports}});
  }
  return j;
}

json host_json(const HostNode& h) {
  const host::HostConfig& c = h.config;
  const host::RequesterConfig& r = h.requester;
  return {{"name", h.name},
          {"ip", format_ipv4(h.ip)},
          {"mac", format_mac(h.mac)},
          {"link", h.link},
          {"path_mtu_bytes", r.path_mtu},
          {"verb", r.verb == host::Verb::kSend ? "send" : "write"},
          {"ack_req_every", r.ack_req_every},
          {"local_ack_timeout", r.local_ack_timeout},
          {"retry_cnt", r.retry_cnt},
          {"ack_turnaround_ns", ns_json(c.timings.ack_turnaround)},
          {"cnp_generation_delay_ns", ns_json(c.timings.cnp_generation_delay)},
          {"reaction_delay_ns", ns_json(c.timings.reaction_delay)},
          {"priority_policy", c.ports[0].policy == host::PriorityPolicy::kDwrr ? "dwrr" : "strict"},
          {"dwrr_quantum_bytes", c.ports[0].dwrr_quantum_bytes[0]},
          {"check_icrc", c.check_icrc},
          {"pacer_slot_ns", ns_json(c.pacer_slot)},
          {"vlan_tagged", h.vlan_tagged},
          {"first_qpn", c.first_qpn},
          {"seed", c.seed}};
}

json topology_json(const Topology& t) {
  json j = {{"kind", t.kind}, {"mtu_bytes", t.mtu}, {"hosts", json::array()}, {"switches", json::array()},
            {"links", json::array()}};
  for (const HostNode& h : t.hosts) j["hosts"].push_back(host_json(h));
  for (const SwitchNode& s : t.switches) j["switches"].push_back(switch_json(s));
  for (const Link& l : t.links) {
    j["links"].push_back({{"a", {{"node", node_json(t, l.a.node)}, {"port", l.a.port}}},
                          {"b", {{"node", node_json(t, l.b.node)}, {"port", l.b.port}}},
                          {"rate_bps", l.rate.bps()},
                          {"propagation_ns", ns_json(l.propagation)}});
  }
  return j;
}

json cc_json(const CcConfig& c) {
  json params = json::object();
  // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
  for (const auto& kv : c.params) std::visit([&](const auto& x) { params[kv.first] = x; }, kv.second);
  return {{"algorithm", c.algorithm}, {"params", params}};
}

json flows_json(const Scenario& s) {
  json flows = json::array();
  for (const Flow& f : s.flows) {
    flows.push_back({{"id", f.id},
                     {"src", s.topology.hosts[f.src].name},
                     {"dst", s.topology.hosts[f.dst].name},
                     {"bytes", f.size ? json(f.size->count()) : json("long-lived")},
                     {"start_ns", ns_json(f.start)},
                     {"priority", f.priority},
                     {"dscp", f.dscp},
                     {"traffic", f.traffic}});
    if (!f.messages.empty()) flows.back()["messages"] = f.messages.size();
  }
  return flows;
}

json faults_json(const Scenario& s) {
  json j = {{"pfc_storms", json::array()}, {"link_downs", json::array()}, {"drops", json::array()}};
  for (const PfcStormFault& f : s.faults.pfc_storms) {
    j["pfc_storms"].push_back({{"host", s.topology.hosts[f.host].name}, {"start_ns", ns_json(f.start)},
                               {"end_ns", ns_json(f.end)}, {"priority", f.priority}, {"quanta", f.quanta},
                               {"interval_ns", ns_json(f.interval)}});
  }
  for (const LinkDownFault& f : s.faults.link_downs) {
    j["link_downs"].push_back({{"link", f.link}, {"from_ns", ns_json(f.from)}, {"to_ns", ns_json(f.to)}});
  }
  for (const DropFault& f : s.faults.drops) {
    j["drops"].push_back({{"link", f.link}, {"probability", f.probability}});
  }
  return j;
}

json realtime_json(const Scenario& s) {
  const RealtimeConfig& r = s.realtime;
  json nodes = json::array(), ports = json::array(), place = json::object();
  for (const NodeRef& n : r.nodes) {
    nodes.push_back(node_json(s.topology, n));
    place[node_json(s.topology, n).get<std::string>()] =
        n.kind == NodeKind::kHost ? r.lcore_of_host[n.index] : r.lcore_of_switch[n.index];
  }
  for (const RealtimePort& p : r.ports) {
    ports.push_back({{"link", p.link}, {"node", node_json(s.topology, p.node)}, {"device", p.device}});
  }
  json commands = json::array();
  for (const RealtimeCommand& c : r.commands) commands.push_back({{"at_ns", ns_json(c.at)}, {"command", c.command}});
  return {{"role", r.role}, {"nodes", nodes}, {"commands", commands}, {"lcores", r.lcores}, {"place", place},
          {"ports", ports}, {"links", r.ring_links ? "ring" : "wire"}, {"dilation", r.dilation},
          {"max_lateness_ns", r.max_lateness ? ns_json(*r.max_lateness) : json("auto")},
          {"catch_up_ns", r.catch_up ? ns_json(*r.catch_up) : json("auto")}, {"burst", r.burst},
          {"hugepages", r.hugepages}, {"pci", r.pci}, {"eal_args", r.eal_args},
          {"start_at_unix_ms", r.start_at_unix_ms}};
}

}  // namespace

json ns_json(Time t) {
  if (t.is_never()) return nullptr;
  if (t.ps() % 1'000 == 0) return t.ns();
  return static_cast<double>(t.ps()) / 1e3;
}

json effective_json(const Scenario& s) {
  const RunConfig& r = s.run;
  json j = {{"name", s.name},
          {"source", s.source},
          {"run",
           {{"clock", r.clock == Clock::kRealtime ? "realtime" : "virtual"},
            {"duration_ns", ns_json(r.duration)},
            {"seed", r.seed},
            {"warmup_ns", ns_json(r.warmup)},
            {"sample_interval_ns", ns_json(r.sample_interval)}}},
          {"topology", topology_json(s.topology)},
          {"cc", cc_json(s.cc)},
          {"flows", flows_json(s)},
          {"faults", faults_json(s)},
          {"warnings", s.warnings}};
  if (r.data_mbufs) j["run"]["data_mbufs"] = *r.data_mbufs;
  if (r.control_mbufs) j["run"]["control_mbufs"] = *r.control_mbufs;
  if (r.max_memory) j["run"]["max_memory"] = r.max_memory->count();
  if (r.clock == Clock::kRealtime) j["realtime"] = realtime_json(s);
  return j;
}

}  // namespace rtb::scenario
