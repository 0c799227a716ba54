#include "testbed/counter_window.h"
#include "testbed/summary_parts.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

// Counts that only realtime can make non-zero (an empty mbuf pool ends a virtual run)
// appear only in realtime summaries, so virtual ones keep their bytes.
bool realtime(const Testbed& t) { return t.scenario().run.clock == scenario::Clock::kRealtime; }

// A queue whose AQM marks ECT frames: a WRED profile with ECN (SONiC QUEUE|...|n
// wred_profile), or step or PIE marking (lib/switch/aqm).
bool marks_ecn(const sw::SwitchConfig& c, uint8_t q) {
  if (c.aqm[q].has_value()) return true;
  return c.wred[q].has_value() && c.wred[q]->ecn != sw::EcnMode::kNone;
}

template <typename T, size_t N>
ordered_json array_of(const std::array<T, N>& a) {
  ordered_json j = ordered_json::array();
  for (const T& v : a) j.push_back(v);
  return j;
}

ordered_json rate(uint64_t part, uint64_t whole) {
  return whole == 0 ? ordered_json(nullptr) : ordered_json(static_cast<double>(part) / static_cast<double>(whole));
}

// `show queue counters` (packets, bytes, drops) and WRED/ECN counters of one egress queue.
ordered_json queue_json(const sw::SwitchConfig& config, uint8_t q, const sw::QueueCounters& c) {
  return ordered_json{{"queue", q},
                      {"packets", c.packets},
                      {"bytes", c.bytes},
                      {"dropped_packets", c.dropped_packets},
                      {"dropped_bytes", c.dropped_bytes},
                      {"ecn_marked", c.ecn_marked_packets},
                      {"data_frames", c.data_packets},
                      {"data_ecn_marked", c.data_ecn_marked_packets},
                      {"ecn_mark_rate", marks_ecn(config, q) ? rate(c.data_ecn_marked_packets, c.data_packets)
                                                             : ordered_json(nullptr)},
                      {"watermark_bytes_total", c.watermark_bytes}};
}

// `show priority-group watermark` / `drop counters` of one ingress priority group.
ordered_json pg_json(uint8_t pg, const sw::PgCounters& c) {
  return ordered_json{{"pg", pg},
                      {"dropped_packets", c.dropped_packets},
                      {"shared_watermark_bytes_total", c.shared_watermark_bytes},
                      {"headroom_watermark_bytes_total", c.headroom_watermark_bytes}};
}

bool queue_used(const sw::QueueCounters& c) { return c.packets != 0 || c.dropped_packets != 0 || c.depth_frames != 0; }
bool pg_used(const sw::PgCounters& c) { return c.dropped_packets != 0 || c.shared_watermark_bytes != 0 || c.headroom_watermark_bytes != 0; }

ordered_json port_json(const Testbed& t, const SampleTotals& samples, uint32_t sw, uint16_t p,
                       const sw::PortCounters& c) {
  const sw::SwitchConfig& config = t.scenario().topology.switches[sw].config;
  ordered_json j;
  j["name"] = config.ports[p].name;
  j["rx_frames"] = c.rx_ok;  // PFC frames apart, in pfc_rx_frames
  j["rx_bytes"] = c.rx_bytes;
  j["tx_frames"] = c.tx_ok;  // PFC frames apart, in pfc_tx_frames
  j["tx_bytes"] = c.tx_bytes;
  j["pfc_rx_frames"] = array_of(c.pfc_rx);  // per priority
  j["pfc_tx_frames"] = array_of(c.pfc_tx);
  std::array<uint64_t, sw::kPriorities> pause_ns{};
  for (int i = 0; i < sw::kPriorities; ++i) pause_ns[i] = c.pfc_rx_pause_duration[i].ns();
  j["pause_ns"] = array_of(pause_ns);  // time its queues were held by received pauses
  uint64_t marked = 0, queued = 0;
  ordered_json queues = ordered_json::array(), pgs = ordered_json::array();
  for (uint8_t q = 0; q < sw::kPriorities; ++q) {
    marked += c.queues[q].ecn_marked_packets;
    queued += c.queues[q].depth_frames;
    if (queue_used(c.queues[q])) queues.push_back(queue_json(config, q, c.queues[q]));
    if (pg_used(c.pgs[q])) pgs.push_back(pg_json(q, c.pgs[q]));
  }
  j["ecn_marked"] = marked;
  uint64_t drops = 0;
  ordered_json by_reason = ordered_json::object();
  for (int r = 0; r < sw::kDropReasons; ++r) {
    drops += c.drops[r];
    if (c.drops[r] != 0) by_reason[std::string(sw::drop_reason_name(static_cast<sw::DropReason>(r)))] = c.drops[r];
  }
  j["drops"] = drops;  // dropped at this port: its ingress PGs or its egress queues
  j["drops_by_reason"] = std::move(by_reason);
  j["queued_frames"] = queued;  // at the end
  uint64_t storms = 0, restored = 0;
  for (const sw::PfcWdCounters& w : c.pfcwd) {
    storms += w.storms_detected;
    restored += w.storms_restored;
  }
  j["pfcwd_storms_detected"] = storms;
  j["pfcwd_storms_restored"] = restored;
  const DepthStats d = samples.port_depth(sw, p);
  j["queue_bytes"] = ordered_json{{"mean", d.mean}, {"p50", d.p50}, {"p99", d.p99}, {"max", d.max}};
  j["queues"] = std::move(queues);
  j["pgs"] = std::move(pgs);
  return j;
}

void add_totals(const sw::SwitchConfig& config, const sw::PortCounters& window,
                const sw::PortCounters& run, SwitchTotals& t) {
  for (uint8_t q = 0; q < sw::kPriorities; ++q) {
    t.pfc_frames += window.pfc_tx[q];
    t.pfc_frames_total += run.pfc_tx[q];
    t.marked_total += run.queues[q].ecn_marked_packets;
    if (!marks_ecn(config, q)) continue;
    t.data_frames += window.queues[q].data_packets;
    t.data_marked += window.queues[q].data_ecn_marked_packets;
  }
  for (int r = 0; r < sw::kDropReasons; ++r) {
    t.drops += window.drops[r];
    t.drops_total += run.drops[r];
  }
}

}  // namespace

ordered_json switch_json(const Testbed& t, const SampleTotals& samples, const Baseline& b,
                         uint32_t sw, Time end, SwitchTotals& totals) {
  const sw::SwitchConfig& config = t.scenario().topology.switches[sw].config;
  const sw::SwitchCounters c = t.switch_at(sw).counters(end);
  ordered_json ports = ordered_json::array();
  for (uint16_t p = 0; p < c.ports.size(); ++p) {
    const sw::PortCounters window = since(c.ports[p], b.switches[sw].ports[p]);
    ports.push_back(port_json(t, samples, sw, p, window));
    add_totals(config, window, c.ports[p], totals);
  }
  ordered_json j{{"name", t.scenario().topology.switches[sw].name},
                 {"buffer_peak_bytes", samples.buffer_peak(sw)},
                 {"buffer_watermark_bytes_total", c.pool.watermark_bytes}};
  if (realtime(t)) j["pfc_nombuf"] = c.pfc_nombuf;
  j["ports"] = std::move(ports);
  return j;
}

}  // namespace rtb::testbed
