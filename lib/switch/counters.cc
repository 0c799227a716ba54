#include "switch/counters.h"

#include <fmt/format.h>

namespace rtb::sw {
namespace {

void port_rows(const std::string& obj, const PortCounters& p, std::vector<CounterRow>& out) {
  out.push_back({obj, "SAI_PORT_STAT_IF_IN_UCAST_PKTS", p.rx_ok});
  out.push_back({obj, "SAI_PORT_STAT_IF_IN_OCTETS", p.rx_bytes});
  out.push_back({obj, "SAI_PORT_STAT_IF_IN_DISCARDS", p.rx_drp});
  out.push_back({obj, "SAI_PORT_STAT_IF_OUT_UCAST_PKTS", p.tx_ok});
  out.push_back({obj, "SAI_PORT_STAT_IF_OUT_OCTETS", p.tx_bytes});
  out.push_back({obj, "SAI_PORT_STAT_IF_OUT_DISCARDS", p.tx_drp});
  for (int n = 0; n < kPriorities; ++n) {
    out.push_back({obj, fmt::format("SAI_PORT_STAT_PFC_{}_RX_PKTS", n), p.pfc_rx[n]});
    out.push_back({obj, fmt::format("SAI_PORT_STAT_PFC_{}_TX_PKTS", n), p.pfc_tx[n]});
    out.push_back({obj, fmt::format("SAI_PORT_STAT_PFC_{}_RX_PAUSE_DURATION_US", n),
                   p.pfc_rx_pause_duration[n].ps() / 1'000'000});
  }
  for (int r = 0; r < kDropReasons; ++r) {
    out.push_back({obj, fmt::format("DROP_{}", drop_reason_name(static_cast<DropReason>(r))), p.drops[r]});
  }
}

void queue_rows(const std::string& obj, const QueueCounters& q, std::vector<CounterRow>& out) {
  out.push_back({obj, "SAI_QUEUE_STAT_PACKETS", q.packets});
  out.push_back({obj, "SAI_QUEUE_STAT_BYTES", q.bytes});
  out.push_back({obj, "SAI_QUEUE_STAT_DROPPED_PACKETS", q.dropped_packets});
  out.push_back({obj, "SAI_QUEUE_STAT_DROPPED_BYTES", q.dropped_bytes});
  out.push_back({obj, "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS", q.ecn_marked_packets});
  out.push_back({obj, "SAI_QUEUE_STAT_WRED_DROPPED_PACKETS", q.wred_dropped_packets});
  out.push_back({obj, "SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES", q.depth_bytes});
  out.push_back({obj, "SAI_QUEUE_STAT_WATERMARK_BYTES", q.watermark_bytes});
}

void pg_rows(const std::string& obj, const PgCounters& g, std::vector<CounterRow>& out) {
  out.push_back({obj, "SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS", g.dropped_packets});
  out.push_back({obj, "SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_CURR_OCCUPANCY_BYTES", g.shared_bytes});
  out.push_back({obj, "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_CURR_OCCUPANCY_BYTES", g.headroom_bytes});
  out.push_back({obj, "SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES", g.shared_watermark_bytes});
  out.push_back({obj, "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES", g.headroom_watermark_bytes});
}

void pfcwd_rows(const std::string& obj, const PfcWdCounters& w, std::vector<CounterRow>& out) {
  out.push_back({obj, "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED", w.storms_detected});
  out.push_back({obj, "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED", w.storms_restored});
  out.push_back({obj, "PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS", w.tx_dropped});
  out.push_back({obj, "PFC_WD_QUEUE_STATS_RX_DROPPED_PACKETS", w.rx_dropped});
}

}  // namespace

std::vector<CounterRow> counter_rows(const SwitchConfig& config, const SwitchCounters& c) {
  std::vector<CounterRow> out;
  for (size_t i = 0; i < c.ports.size(); ++i) {
    const std::string port = config.name + "|" + config.ports[i].name;
    port_rows(port, c.ports[i], out);
    for (int q = 0; q < kPriorities; ++q) {
      const std::string obj = fmt::format("{}:{}", port, q);
      queue_rows(obj, c.ports[i].queues[q], out);
      pg_rows(obj, c.ports[i].pgs[q], out);
      if (config.pfcwd.enabled && config.lossless_tc(q)) pfcwd_rows(obj, c.ports[i].pfcwd[q], out);
    }
  }
  const std::string pool = config.name + "|ingress_lossless_pool";
  out.push_back({pool, "SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES", c.pool.used_bytes});
  out.push_back({pool, "SAI_BUFFER_POOL_STAT_WATERMARK_BYTES", c.pool.watermark_bytes});
  out.push_back({pool, "SAI_BUFFER_POOL_STAT_XOFF_ROOM_OCCUPANCY_BYTES", c.pool.headroom_used_bytes});
  out.push_back({pool, "SAI_BUFFER_POOL_STAT_XOFF_ROOM_WATERMARK_BYTES", c.pool.headroom_watermark_bytes});
  if (config.pool.lossy_size.count() > 0) {
    const std::string lossy = config.name + "|egress_lossy_pool";
    out.push_back({lossy, "SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES", c.lossy_pool.used_bytes});
    out.push_back({lossy, "SAI_BUFFER_POOL_STAT_WATERMARK_BYTES", c.lossy_pool.watermark_bytes});
  }
  for (int r = 0; r < kDropReasons; ++r) {
    out.push_back({config.name, fmt::format("DROP_{}", drop_reason_name(static_cast<DropReason>(r))), c.drops[r]});
  }
  out.push_back({config.name, "PFC_NOMBUF", c.pfc_nombuf});
  return out;
}

}  // namespace rtb::sw
