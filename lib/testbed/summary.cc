#include "testbed/summary.h"

#include <algorithm>

#include "testbed/counter_window.h"
#include "testbed/summary_parts.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

bool realtime(const Testbed& t) { return t.scenario().run.clock == scenario::Clock::kRealtime; }

// mlx5 names (`ethtool -S`, hw_counters), over the window.
ordered_json host_json(const Testbed& t, uint32_t h, const host::HostCounters& c) {
  ordered_json j;
  j["name"] = t.scenario().topology.hosts[h].name;
  j["np_cnp_sent"] = c.np_cnp_sent;
  j["np_ecn_marked_roce_packets"] = c.np_ecn_marked_roce_packets;
  j["rp_cnp_handled"] = c.rp_cnp_handled;
  j["rp_cnp_ignored"] = c.rp_cnp_ignored;
  j["out_of_sequence"] = c.out_of_sequence;
  j["packet_seq_err"] = c.packet_seq_err;
  j["local_ack_timeout_err"] = c.local_ack_timeout_err;
  j["req_transport_retries_exceeded"] = c.req_transport_retries_exceeded;
  j["duplicate_request"] = c.duplicate_request;
  j["rx_frames"] = c.rx_frames;
  j["tx_frames"] = c.tx_frames;
  j["rx_pfc_frames"] = c.rx_pfc_frames;
  j["tx_pfc_frames"] = c.tx_pfc_frames;
  if (realtime(t)) {
    j["tx_nombuf_data"] = c.tx_nombuf_data;
    j["tx_nombuf_control"] = c.tx_nombuf_control;
  }
  return j;
}

// The window begins at the first sample at or after the warm-up (where the sampler took
// the baseline) and ends with the run.
Window window_of(const scenario::Scenario& s, Time end) {
  const Time i = s.run.sample_interval;
  Time from = s.run.warmup == Time::zero() ? Time::zero() : i * ((s.run.warmup - Time::ps(1)) / i + 1);
  return Window{std::min(from, end), end};
}

// Jain's index over the flows that ran in the window, computed only when they all ran at
// the same time for a while (flows one after another, or of very different sizes that
// never meet, share nothing to be fair about): the common interval is non-empty.
ordered_json fairness(const std::vector<FlowFigures>& flows) {
  std::vector<double> x;
  Time from = Time::zero(), to = Time::never();
  for (const FlowFigures& f : flows) {
    if (!f.has_dst || f.active_to <= f.active_from) continue;
    x.push_back(f.json["throughput_gbps"].get<double>());
    from = std::max(from, f.active_from);
    to = std::min(to, f.active_to);
  }
  if (x.empty() || to <= from) return nullptr;
  return jain_fairness(x);
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

ordered_json summarize(const Testbed& t, const SampleTotals& samples, Time end) {
  const scenario::Scenario& s = t.scenario();
  const Baseline b = samples.baseline();
  const Window w = window_of(s, end);
  ordered_json j;
  j["scenario"] = s.name;
  j["clock"] = "virtual";
  j["seed"] = s.run.seed;
  j["duration_ns"] = end.ns();
  j["warmup_ns"] = s.run.warmup.ns();
  j["window"] = ordered_json{{"from_ns", w.from.ns()}, {"to_ns", w.to.ns()}};

  uint64_t delivered = 0, retransmissions = 0, retransmissions_total = 0;
  bool all_finished = true;
  Time last_done = w.from;
  std::vector<FlowFigures> figures;
  ordered_json flows = ordered_json::array();
  for (uint32_t f = 0; f < s.flows.size(); ++f) {
    figures.push_back(flow_figures(t, b, f, w));
    const FlowFigures& fig = figures.back();
    flows.push_back(fig.json);
    delivered += fig.window_bytes;
    retransmissions += fig.retransmissions;
    if (t.has_host(s.flows[f].src)) {
      retransmissions_total += t.host(s.flows[f].src).qp(t.flow_qps(f).src_qp).counters.retransmitted_frames;
      all_finished = all_finished && fig.finished;
      if (fig.finished) last_done = std::max(last_done, fig.completed);
    }
  }
  j["flows"] = std::move(flows);

  SwitchTotals sw_totals;
  ordered_json switches = ordered_json::array();
  for (uint32_t sw = 0; sw < s.topology.switches.size(); ++sw) {
    if (t.has_switch(sw)) switches.push_back(switch_json(t, samples, b, sw, end, sw_totals));
  }
  j["switches"] = std::move(switches);

  uint64_t cnp_sent = 0, cnp_sent_total = 0, host_pfc = 0, host_pfc_total = 0;
  ordered_json hosts = ordered_json::array();
  for (uint32_t h = 0; h < s.topology.hosts.size(); ++h) {
    if (!t.has_host(h)) continue;
    const host::HostCounters& run = t.host(h).counters();
    const host::HostCounters c = since(run, b.hosts[h]);
    hosts.push_back(host_json(t, h, c));
    cnp_sent += c.np_cnp_sent;
    cnp_sent_total += run.np_cnp_sent;
    host_pfc += c.tx_pfc_frames;
    host_pfc_total += run.tx_pfc_frames;
  }
  j["hosts"] = std::move(hosts);
  const uint64_t fault_drops_total = t.fault_drops();

  // Finite flows that all finished: the goodput over the time until the last completion.
  const Time goodput_to = all_finished && last_done < w.to ? last_done : w.to;
  j["totals"] = ordered_json{
      {"goodput_gbps", gbps(delivered, goodput_to - w.from)},
      {"goodput_span_ns", (goodput_to - w.from).ns()},
      {"jain_fairness", fairness(figures)},
      {"ecn_mark_rate", sw_totals.data_frames == 0 ? 0.0
                                                   : static_cast<double>(sw_totals.data_marked) /
                                                         static_cast<double>(sw_totals.data_frames)},
      {"ecn_marked_data_frames", sw_totals.data_marked},
      {"cnp_sent", cnp_sent},
      {"pfc_frames", sw_totals.pfc_frames + host_pfc},
      {"drops", sw_totals.drops + fault_drops_total - b.fault_drops},
      {"retransmissions", retransmissions},
      {"ecn_marked_total", sw_totals.marked_total},
      {"cnp_sent_total", cnp_sent_total},
      {"pfc_frames_total", sw_totals.pfc_frames_total + host_pfc_total},
      {"drops_total", sw_totals.drops_total + fault_drops_total},
      {"retransmissions_total", retransmissions_total},
  };
  j["fct_slowdown"] = fct_slowdown_json(figures);
  return j;
}

}  // namespace rtb::testbed
