// Switch counters, named as SONiC shows them (COUNTERS_DB stat names: `show pfc counters`,
// `show queue counters`, `show queue watermark`, `show priority-group watermark`,
// `show buffer_pool watermark`, `show pfcwd stats`), readable by the results code either
// as structs (SwitchCounters) or as rows of (object, stat, value).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "switch/config.h"
#include "switch/drop_reason.h"

namespace rtb::sw {

struct QueueCounters {
  uint64_t packets = 0;             // SAI_QUEUE_STAT_PACKETS (sent)
  uint64_t bytes = 0;               // SAI_QUEUE_STAT_BYTES
  uint64_t dropped_packets = 0;     // SAI_QUEUE_STAT_DROPPED_PACKETS
  uint64_t dropped_bytes = 0;       // SAI_QUEUE_STAT_DROPPED_BYTES
  uint64_t ecn_marked_packets = 0;  // SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS
  // The data frames (RoCEv2 SEND/WRITE/READ response) admitted to the queue and those of
  // them CE-marked here: the ECN mark rate of data, without the ACKs and CNPs the queue
  // also carries (not SAI counters: SAI counts all frames).
  uint64_t data_packets = 0;
  uint64_t data_ecn_marked_packets = 0;
  uint64_t wred_dropped_packets = 0;  // SAI_QUEUE_STAT_WRED_DROPPED_PACKETS
  uint64_t depth_bytes = 0;         // SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES (now)
  uint64_t depth_frames = 0;        // frames queued now
  uint64_t watermark_bytes = 0;     // SAI_QUEUE_STAT_WATERMARK_BYTES
};

// What a time series reads of one queue at every sample (Switch::queue_gauge()), in place:
// Switch::counters() copies every counter of every port.
struct QueueGauge {
  uint64_t depth_bytes = 0;
  uint64_t ecn_marked_packets = 0;
  uint64_t dropped_packets = 0;
  uint64_t pfc_tx = 0;  // PFC frames the port sent for this priority
};

struct PgCounters {
  uint64_t dropped_packets = 0;           // SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS
  uint64_t shared_bytes = 0;              // ..._SHARED_CURR_OCCUPANCY_BYTES
  uint64_t headroom_bytes = 0;            // ..._XOFF_ROOM_CURR_OCCUPANCY_BYTES
  uint64_t shared_watermark_bytes = 0;    // ..._SHARED_WATERMARK_BYTES
  uint64_t headroom_watermark_bytes = 0;  // ..._XOFF_ROOM_WATERMARK_BYTES
};

struct PfcWdCounters {
  uint64_t storms_detected = 0;  // PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED
  uint64_t storms_restored = 0;  // PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED
  uint64_t tx_dropped = 0;       // PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS
  uint64_t rx_dropped = 0;       // PFC_WD_QUEUE_STATS_RX_DROPPED_PACKETS
  uint64_t pfc_ignored = 0;      // PFC frames ignored while the action was drop/forward
  bool in_storm = false;         // PFC_WD_STATUS "stormed"
};

struct PortCounters {
  // Frames and bytes as `show interfaces counters` gives them: PFC frames (to the MAC
  // control multicast address, not unicast) are not in rx_ok/tx_ok but in pfc_rx/pfc_tx,
  // so a link's two ends agree: one end's tx_ok is the other's rx_ok.
  uint64_t rx_ok = 0;     // SAI_PORT_STAT_IF_IN_UCAST_PKTS (RX_OK): non-PFC frames received
  uint64_t rx_bytes = 0;  // SAI_PORT_STAT_IF_IN_OCTETS of those frames (no FCS)
  uint64_t rx_drp = 0;    // RX_DRP: dropped before an egress queue
  uint64_t tx_ok = 0;     // SAI_PORT_STAT_IF_OUT_UCAST_PKTS (TX_OK): frames forwarded
  uint64_t tx_bytes = 0;  // SAI_PORT_STAT_IF_OUT_OCTETS of those frames (no FCS)
  uint64_t tx_drp = 0;    // TX_DRP: dropped at or in an egress queue of this port
  std::array<uint64_t, kPriorities> pfc_rx{};          // SAI_PORT_STAT_PFC_n_RX_PKTS
  std::array<uint64_t, kPriorities> pfc_tx{};          // SAI_PORT_STAT_PFC_n_TX_PKTS
  std::array<Time, kPriorities> pfc_rx_pause_duration{};  // SAI_PORT_STAT_PFC_n_RX_PAUSE_DURATION
  // By reason, on the port where the frame was dropped: the ingress port for ingress
  // reasons (INGRESS_PG_LIMIT, LOSSLESS_HEADROOM_FULL, NO_ROUTE, ...), the egress port for
  // drops at its queues (EGRESS_QUEUE_LIMIT, WRED, the watchdog's queue drops), as SONiC's
  // PORT_INGRESS_DROPS / PORT_EGRESS_DROPS debug counters count them.
  std::array<uint64_t, kDropReasons> drops{};
  std::array<QueueCounters, kPriorities> queues{};
  std::array<PgCounters, kPriorities> pgs{};
  std::array<PfcWdCounters, kPriorities> pfcwd{};
};

// ingress_lossless_pool (the only pool without a lossy one); the lossy pool reuses the
// struct with its headroom fields 0.
struct PoolCounters {
  uint64_t used_bytes = 0;                // SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES
  uint64_t watermark_bytes = 0;           // SAI_BUFFER_POOL_STAT_WATERMARK_BYTES
  uint64_t headroom_used_bytes = 0;       // shared headroom pool occupancy
  uint64_t headroom_watermark_bytes = 0;  // SAI_BUFFER_POOL_STAT_XOFF_ROOM_WATERMARK_BYTES
};

struct SwitchCounters {
  std::vector<PortCounters> ports;
  PoolCounters pool;
  PoolCounters lossy_pool;  // egress_lossy_pool: all 0 without one (lossy_size 0)
  std::array<uint64_t, kDropReasons> drops{};  // the whole switch, by reason
  uint64_t pfc_nombuf = 0;  // PFC frames not sent, control pool empty (realtime only)
};

struct CounterRow {
  std::string object;  // "sw0", "sw0|Ethernet0", "sw0|Ethernet0:3", "sw0|ingress_lossless_pool",
                       // "sw0|egress_lossy_pool"
  std::string stat;    // "SAI_PORT_STAT_PFC_3_TX_PKTS", ...
  uint64_t value = 0;
};

// Every counter as a row, in a fixed order (ports, then queues, PGs, watchdog, pools; the
// lossy pool's rows only when the switch has one).
std::vector<CounterRow> counter_rows(const SwitchConfig& config, const SwitchCounters& c);

}  // namespace rtb::sw
