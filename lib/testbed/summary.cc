#include "testbed/summary.h"

#include <algorithm>

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

// Counts that only realtime can make non-zero (an empty mbuf pool ends a virtual run)
// appear only in realtime summaries, so virtual ones keep their bytes.
bool realtime(const Testbed& t) { return t.scenario().run.clock == scenario::Clock::kRealtime; }

double gbps(uint64_t bytes, Time span) {
  return span == Time::zero() ? 0.0 : static_cast<double>(bytes) * 8.0 / span.s_f() / 1e9;
}

// When the flow's last message was acknowledged (never while any is outstanding).
Time completion(const host::QueuePair& qp) {
  return qp.requester.done() ? qp.requester.messages().back().completed : Time::never();
}

struct FlowFigures {
  uint64_t delivered = 0;
  double throughput_gbps = 0;
};

// A finished flow: size over its completion time. An unfinished one: what it delivered
// after the warm-up over the time it was running after the warm-up.
// In a process that has only one end of the flow (a split realtime run) what the other end
// knows is missing: delivered bytes come from the receiver, the completion from the sender.
FlowFigures flow_figures(const Testbed& t, const SampleTotals& sampler, uint32_t f, Time end) {
  const scenario::Scenario& s = t.scenario();
  const scenario::Flow& flow = s.flows[f];
  FlowFigures out;
  if (!t.has_host(flow.dst)) return out;
  out.delivered = t.host(flow.dst).qp(t.flow_qps(f).dst_qp).counters.payload_bytes_received;
  const Time done = t.has_host(flow.src) ? completion(t.host(flow.src).qp(t.flow_qps(f).src_qp))
                                         : Time::never();
  if (!done.is_never()) {
    out.throughput_gbps = gbps(out.delivered, done - flow.start);
    return out;
  }
  const Time from = std::max(flow.start, s.run.warmup);
  if (end > from) out.throughput_gbps = gbps(out.delivered - sampler.bytes_at_warmup(f), end - from);
  return out;
}

// Fields of the end this process does not have (a split realtime run) stay null.
ordered_json flow_json(const Testbed& t, uint32_t f, const FlowFigures& fig) {
  const scenario::Scenario& s = t.scenario();
  const scenario::Flow& flow = s.flows[f];
  const bool has_dst = t.has_host(flow.dst);
  ordered_json j;
  j["id"] = flow.id;
  j["src"] = s.topology.hosts[flow.src].name;
  j["dst"] = s.topology.hosts[flow.dst].name;
  j["qpn"] = nullptr;
  j["bytes"] = has_dst ? ordered_json(fig.delivered) : ordered_json(nullptr);
  j["size_bytes"] = flow.size ? ordered_json(flow.size->count()) : ordered_json(nullptr);
  j["start_ns"] = flow.start.ns();
  j["throughput_gbps"] = has_dst ? ordered_json(fig.throughput_gbps) : ordered_json(nullptr);
  for (const char* k : {"fct_ns", "cnp_handled", "retransmissions", "timeouts", "failed"}) j[k] = nullptr;
  if (!t.has_host(flow.src)) return j;
  const host::QueuePair& qp = t.host(flow.src).qp(t.flow_qps(f).src_qp);  // keys keep their places
  const Time done = completion(qp);
  j["qpn"] = qp.qpn;
  if (!done.is_never()) j["fct_ns"] = (done - flow.start).ns();
  j["cnp_handled"] = qp.counters.cnp_handled;
  j["retransmissions"] = qp.counters.retransmitted_frames;
  j["timeouts"] = qp.requester.counters().timeouts;
  j["failed"] = qp.requester.failed();
  return j;
}

ordered_json port_json(const Testbed& t, const SampleTotals& sampler, uint32_t sw, uint16_t p,
                       const sw::PortCounters& c) {
  ordered_json j;
  j["name"] = t.scenario().topology.switches[sw].config.ports[p].name;
  std::vector<uint64_t> pause_ns;
  for (Time d : c.pfc_rx_pause_duration) pause_ns.push_back(d.ns());
  j["pfc_tx_frames"] = c.pfc_tx;
  j["pfc_rx_frames"] = c.pfc_rx;
  j["pause_ns"] = pause_ns;
  uint64_t marked = 0;
  for (const sw::QueueCounters& q : c.queues) marked += q.ecn_marked_packets;
  uint64_t drops = 0;
  ordered_json by_reason = ordered_json::object();
  for (int r = 0; r < sw::kDropReasons; ++r) {
    drops += c.drops[r];
    if (c.drops[r] != 0) by_reason[std::string(sw::drop_reason_name(static_cast<sw::DropReason>(r)))] = c.drops[r];
  }
  j["ecn_marked"] = marked;
  j["drops"] = drops;
  j["drops_by_reason"] = std::move(by_reason);
  j["rx_frames"] = c.rx_ok;
  j["tx_frames"] = c.tx_ok;
  uint64_t queued = 0;
  for (const sw::QueueCounters& q : c.queues) queued += q.depth_frames;
  j["queued_frames"] = queued;
  uint64_t storms = 0, restored = 0;
  for (const sw::PfcWdCounters& w : c.pfcwd) {
    storms += w.storms_detected;
    restored += w.storms_restored;
  }
  j["pfcwd_storms_detected"] = storms;
  j["pfcwd_storms_restored"] = restored;
  const DepthStats d = sampler.port_depth(sw, p);
  j["queue_bytes"] = ordered_json{{"mean", d.mean}, {"p50", d.p50}, {"p99", d.p99}, {"max", d.max}};
  return j;
}

ordered_json host_json(const Testbed& t, uint32_t h) {
  const host::HostCounters& c = t.host(h).counters();
  ordered_json j;
  j["name"] = t.scenario().topology.hosts[h].name;
  j["np_cnp_sent"] = c.np_cnp_sent;
  j["np_ecn_marked_roce_packets"] = c.np_ecn_marked_roce_packets;
  j["rp_cnp_handled"] = c.rp_cnp_handled;
  j["rp_cnp_ignored"] = c.rp_cnp_ignored;
  j["out_of_sequence"] = c.out_of_sequence;
  j["packet_seq_err"] = c.packet_seq_err;
  j["local_ack_timeout_err"] = c.local_ack_timeout_err;
  j["duplicate_request"] = c.duplicate_request;
  j["rx_pfc_frames"] = c.rx_pfc_frames;
  j["tx_pfc_frames"] = c.tx_pfc_frames;
  if (realtime(t)) {
    j["tx_nombuf_data"] = c.tx_nombuf_data;
    j["tx_nombuf_control"] = c.tx_nombuf_control;
  }
  return j;
}

}  // namespace

double jain_fairness(const std::vector<double>& x) {
  double sum = 0, squares = 0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  return squares == 0 ? 1.0 : sum * sum / (static_cast<double>(x.size()) * squares);
}

ordered_json summarize(const Testbed& t, const SampleTotals& sampler, Time end) {
  const scenario::Scenario& s = t.scenario();
  ordered_json j;
  j["scenario"] = s.name;
  j["clock"] = "virtual";
  j["seed"] = s.run.seed;
  j["duration_ns"] = end.ns();
  j["warmup_ns"] = s.run.warmup.ns();

  uint64_t delivered_after_warmup = 0, retransmissions = 0;
  std::vector<double> throughputs;
  ordered_json flows = ordered_json::array();
  for (uint32_t f = 0; f < s.flows.size(); ++f) {
    const FlowFigures fig = flow_figures(t, sampler, f, end);
    flows.push_back(flow_json(t, f, fig));
    throughputs.push_back(fig.throughput_gbps);
    if (t.has_host(s.flows[f].dst)) delivered_after_warmup += fig.delivered - sampler.bytes_at_warmup(f);
    if (t.has_host(s.flows[f].src)) {
      retransmissions += t.host(s.flows[f].src).qp(t.flow_qps(f).src_qp).counters.retransmitted_frames;
    }
  }
  j["flows"] = std::move(flows);

  uint64_t pfc_frames = 0, drops = 0, marked = 0, forwarded = 0;
  ordered_json switches = ordered_json::array();
  for (uint32_t sw = 0; sw < s.topology.switches.size(); ++sw) {
    if (!t.has_switch(sw)) continue;
    const sw::SwitchCounters c = t.switch_at(sw).counters(end);
    ordered_json ports = ordered_json::array();
    for (uint16_t p = 0; p < c.ports.size(); ++p) {
      ports.push_back(port_json(t, sampler, sw, p, c.ports[p]));
      for (uint64_t n : c.ports[p].pfc_tx) pfc_frames += n;
      marked += ports.back()["ecn_marked"].get<uint64_t>();
      forwarded += c.ports[p].tx_ok;
    }
    for (uint64_t d : c.drops) drops += d;
    switches.push_back(ordered_json{{"name", s.topology.switches[sw].name},
                                    {"buffer_watermark_bytes", c.pool.watermark_bytes}});
    if (realtime(t)) switches.back()["pfc_nombuf"] = c.pfc_nombuf;
    switches.back()["ports"] = std::move(ports);
  }
  j["switches"] = std::move(switches);

  uint64_t cnp_sent = 0;
  ordered_json hosts = ordered_json::array();
  for (uint32_t h = 0; h < s.topology.hosts.size(); ++h) {
    if (!t.has_host(h)) continue;
    hosts.push_back(host_json(t, h));
    cnp_sent += t.host(h).counters().np_cnp_sent;
    pfc_frames += t.host(h).counters().tx_pfc_frames;
  }
  j["hosts"] = std::move(hosts);
  drops += t.fault_drops();

  const Time window = end > s.run.warmup ? end - s.run.warmup : Time::zero();
  j["totals"] = ordered_json{
      {"goodput_gbps", gbps(delivered_after_warmup, window)},
      {"jain_fairness", jain_fairness(throughputs)},
      {"ecn_mark_rate", forwarded == 0 ? 0.0 : static_cast<double>(marked) / static_cast<double>(forwarded)},
      {"cnp_sent", cnp_sent},
      {"pfc_frames", pfc_frames},
      {"drops", drops},
      {"retransmissions", retransmissions},
  };
  return j;
}

}  // namespace rtb::testbed
