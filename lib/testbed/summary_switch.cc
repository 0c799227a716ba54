#include "testbed/counter_window.h"
#include "testbed/summary_parts.h"

namespace rtb::testbed {
namespace {

using results::Counts;
using results::PortResult;

// A queue whose AQM marks ECT frames: a WRED profile with ECN (SONiC QUEUE|...|n
// wred_profile), or step or PIE marking (lib/switch/aqm).
bool marks_ecn(const sw::SwitchConfig& c, uint8_t q) {
  if (c.aqm[q].has_value()) return true;
  return c.wred[q].has_value() && c.wred[q]->ecn != sw::EcnMode::kNone;
}

// `show queue counters` (packets, bytes, drops) and WRED/ECN counters of one egress queue.
results::QueueResult queue_result(const sw::SwitchConfig& config, uint8_t q, const sw::QueueCounters& c) {
  return results::QueueResult{.queue = q,
                              .packets = c.packets,
                              .bytes = c.bytes,
                              .dropped_packets = c.dropped_packets,
                              .dropped_bytes = c.dropped_bytes,
                              .ecn_marked = c.ecn_marked_packets,
                              .data_frames = c.data_packets,
                              .data_ecn_marked = c.data_ecn_marked_packets,
                              .marks_ecn = marks_ecn(config, q),
                              .watermark_bytes_total = c.watermark_bytes};
}

bool queue_used(const sw::QueueCounters& c) { return c.packets != 0 || c.dropped_packets != 0 || c.depth_frames != 0; }
bool pg_used(const sw::PgCounters& c) { return c.dropped_packets != 0 || c.shared_watermark_bytes != 0 || c.headroom_watermark_bytes != 0; }

// The port's queues and priority groups in use, and what they add up to.
void add_queues(PortResult& p, const sw::SwitchConfig& config, const sw::PortCounters& c) {
  for (uint8_t q = 0; q < sw::kPriorities; ++q) {
    p.ecn_marked += c.queues[q].ecn_marked_packets;
    p.queued_frames += c.queues[q].depth_frames;  // at the end
    if (queue_used(c.queues[q])) p.queues.push_back(queue_result(config, q, c.queues[q]));
    const sw::PgCounters& g = c.pgs[q];
    if (pg_used(g)) p.pgs.push_back({q, g.dropped_packets, g.shared_watermark_bytes, g.headroom_watermark_bytes});
  }
}

PortResult port_result(const Testbed& t, const SampleTotals& samples, uint32_t sw, uint16_t port,
                       const sw::PortCounters& c) {
  const sw::SwitchConfig& config = t.scenario().topology.switches[sw].config;
  PortResult p;
  p.name = config.ports[port].name;
  p.rx_frames = c.rx_ok;  // PFC frames apart, in pfc_rx_frames
  p.rx_bytes = c.rx_bytes;
  p.tx_frames = c.tx_ok;  // PFC frames apart, in pfc_tx_frames
  p.tx_bytes = c.tx_bytes;
  for (int i = 0; i < sw::kPriorities; ++i) {
    p.pfc_rx_frames[i] = c.pfc_rx[i];
    p.pfc_tx_frames[i] = c.pfc_tx[i];
    p.pause_ns[i] = c.pfc_rx_pause_duration[i].ns();  // time its queues were held by received pauses
  }
  add_queues(p, config, c);
  for (int r = 0; r < sw::kDropReasons; ++r) {
    p.drops += c.drops[r];  // dropped at this port: its ingress PGs or its egress queues
    if (c.drops[r] != 0) p.drops_by_reason.emplace_back(sw::drop_reason_name(static_cast<sw::DropReason>(r)), c.drops[r]);
  }
  for (const sw::PfcWdCounters& w : c.pfcwd) {
    p.pfcwd_storms_detected += w.storms_detected;
    p.pfcwd_storms_restored += w.storms_restored;
  }
  const DepthStats d = samples.port_depth(sw, port);
  p.queue_bytes = results::DepthFigures{d.mean, d.p50, d.p99, d.max};
  return p;
}

void add_counts(const sw::PortCounters& window, const sw::PortCounters& run, Counts& c) {
  for (uint8_t q = 0; q < sw::kPriorities; ++q) {
    c.pfc_frames += window.pfc_tx[q];
    c.pfc_frames_total += run.pfc_tx[q];
    c.ecn_marked_total += run.queues[q].ecn_marked_packets;
  }
  for (int r = 0; r < sw::kDropReasons; ++r) {
    c.drops += window.drops[r];
    c.drops_total += run.drops[r];
  }
}

}  // namespace

results::SwitchResult switch_result(const Testbed& t, const SampleTotals& samples, const Baseline& b, uint32_t sw,
                                    Time end, Counts& counts) {
  const sw::SwitchCounters c = t.switch_at(sw).counters(end);
  results::SwitchResult r{.name = t.scenario().topology.switches[sw].name,
                          .buffer_peak_bytes = samples.buffer_peak(sw),
                          .buffer_watermark_bytes_total = c.pool.watermark_bytes};
  if (realtime(t)) r.pfc_nombuf = c.pfc_nombuf;
  for (uint16_t p = 0; p < c.ports.size(); ++p) {
    const sw::PortCounters window = since(c.ports[p], b.switches[sw].ports[p]);
    r.ports.push_back(port_result(t, samples, sw, p, window));
    add_counts(window, c.ports[p], counts);
  }
  return r;
}

}  // namespace rtb::testbed
