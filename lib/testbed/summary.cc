#include "testbed/summary.h"

#include <algorithm>

#include "results/derive.h"
#include "testbed/counter_window.h"
#include "testbed/summary_parts.h"

namespace rtb::testbed {
namespace {

using results::Counts;
using results::Summary;

// mlx5 names (`ethtool -S`, hw_counters), over the window.
results::HostResult host_result(const Testbed& t, uint32_t h, const host::HostCounters& c) {
  results::HostResult r{.name = t.scenario().topology.hosts[h].name,
                        .np_cnp_sent = c.np_cnp_sent,
                        .np_ecn_marked_roce_packets = c.np_ecn_marked_roce_packets,
                        .rp_cnp_handled = c.rp_cnp_handled,
                        .rp_cnp_ignored = c.rp_cnp_ignored,
                        .out_of_sequence = c.out_of_sequence,
                        .packet_seq_err = c.packet_seq_err,
                        .local_ack_timeout_err = c.local_ack_timeout_err,
                        .req_transport_retries_exceeded = c.req_transport_retries_exceeded,
                        .duplicate_request = c.duplicate_request,
                        .rx_frames = c.rx_frames,
                        .tx_frames = c.tx_frames,
                        .tx_pfc_frames = c.tx_pfc_frames};
  std::copy(c.rx_pfc_frames.begin(), c.rx_pfc_frames.end(), r.rx_pfc_frames.begin());
  if (realtime(t)) {
    r.tx_nombuf_data = c.tx_nombuf_data;
    r.tx_nombuf_control = c.tx_nombuf_control;
  }
  return r;
}

// The window begins at the first sample at or after the warm-up (where the sampler took
// the baseline) and ends with the run.
results::Window window_of(const scenario::Scenario& s, Time end) {
  const Time i = s.run.sample_interval;
  Time from = s.run.warmup == Time::zero() ? Time::zero() : i * ((s.run.warmup - Time::ps(1)) / i + 1);
  return results::Window{std::min(from, end), end};
}

void add_flows(const Testbed& t, const Baseline& b, Summary& out) {
  const scenario::Scenario& s = t.scenario();
  for (uint32_t f = 0; f < s.flows.size(); ++f) {
    out.flows.push_back(flow_result(t, b, f));
    if (!t.has_host(s.flows[f].src)) continue;
    out.counts.retransmissions += out.flows.back().retransmissions.value_or(0);
    out.counts.retransmissions_total +=
        t.host(s.flows[f].src).qp(t.flow_qps(f).src_qp).counters.retransmitted_frames;
  }
}

void add_hosts(const Testbed& t, const Baseline& b, Summary& out) {
  for (uint32_t h = 0; h < t.scenario().topology.hosts.size(); ++h) {
    if (!t.has_host(h)) continue;
    const host::HostCounters& run = t.host(h).counters();
    const host::HostCounters c = since(run, b.hosts[h]);
    out.hosts.push_back(host_result(t, h, c));
    Counts& n = out.counts;
    n.cnp_sent += c.np_cnp_sent;
    n.cnp_sent_total += run.np_cnp_sent;
    n.pfc_frames += c.tx_pfc_frames;
    n.pfc_frames_total += run.tx_pfc_frames;
  }
}

}  // namespace

Summary summarize(const Testbed& t, const SampleTotals& samples, Time end) {
  const scenario::Scenario& s = t.scenario();
  const Baseline b = samples.baseline();
  Summary out{.scenario = s.name,
              .clock = realtime(t) ? results::Clock::kRealtime : results::Clock::kVirtual,
              .seed = s.run.seed,
              .duration = end,
              .warmup = s.run.warmup,
              .window = window_of(s, end)};
  add_flows(t, b, out);
  for (uint32_t sw = 0; sw < s.topology.switches.size(); ++sw) {
    if (t.has_switch(sw)) out.switches.push_back(switch_result(t, samples, b, sw, end, out.counts));
  }
  add_hosts(t, b, out);
  // Frames a fault dropped on a link belong to no node's counters.
  out.counts.drops += t.fault_drops() - b.fault_drops;
  out.counts.drops_total += t.fault_drops();
  if (!s.realtime.role.empty()) out.role = s.realtime.role;
  results::derive(out);
  return out;
}

}  // namespace rtb::testbed
