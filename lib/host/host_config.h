// Configuration of a host stage: a RoCE NIC with one or more ports and its queue pairs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "host/requester.h"
#include "wire/ethernet.h"

namespace rtb::host {

// NIC pipeline latencies. Real NICs have them and they change PFC and ECN outcomes; the
// ns-3 models have none. Defaults are order-of-magnitude assumptions for a ConnectX-class
// NIC (about a microsecond through firmware, half that through the ASIC's ACK path), not
// measurements: set them to zero to reproduce the ns-3 models' instant reactions.
struct NicTimings {
  Time ack_turnaround = Time::ns(500);       // data frame in -> its ACK/NAK ready to send
  Time cnp_generation_delay = Time::us(1);   // CE-marked frame in -> CNP ready to send
  Time reaction_delay = Time::us(1);         // CNP in -> the rate limiter applies the cut
};

// How a port shares its wire between priorities (within a priority: round robin among
// ready queue pairs, always).
enum class PriorityPolicy : uint8_t {
  kStrict,  // higher priority number first (CNPs on priority 6 before data on 3)
  kDwrr,    // deficit weighted round robin with per-priority quanta in bytes
};

struct PortConfig {
  wire::MacAddr mac{};
  uint32_t ip = 0;  // host byte order
  PriorityPolicy policy = PriorityPolicy::kStrict;
  std::array<uint32_t, 8> dwrr_quantum_bytes{1500, 1500, 1500, 1500, 1500, 1500, 1500, 1500};
};

struct QpSpec {
  uint32_t port = 0;
  uint32_t peer_qpn = 0;
  wire::MacAddr peer_mac{};  // next hop's MAC (the switch port, or the peer when direct)
  uint32_t peer_ip = 0;
  uint8_t priority = 3;  // PFC priority / traffic class of data and ACKs
  uint8_t dscp = 26;
  bool vlan_tagged = false;  // carry the priority in an 802.1Q PCP (else DSCP only)
  RequesterConfig requester{};
  // Agreed when the connection is made (the testbed sets them from the scenario):
  uint64_t flow_id = 0;          // unique in the run; the algorithm's flow_id at start
  Time base_rtt = Time::zero();  // the path's RTT with empty queues; zero: unknown
  uint32_t hop_count = 0;        // switches on that path
  // The peer's algorithm asked for CNPs (RTB_CC_FEEDBACK_CNP): this QP's notification
  // point sends them for the peer's CE-marked data. Otherwise CE marks reach the peer
  // only as BECN on ACKs, and no CNP is put on the wire for an algorithm that ignores it.
  bool send_cnps = true;
  // The algorithm asked for INT (RTB_CC_FEEDBACK_INT): data, ACK and NAK frames of this
  // connection carry an INT trailer of this many bytes (wire/int_trailer.h), found by
  // their DSCP; 0: none. Every INT connection of a host uses one DSCP.
  uint16_t int_trailer_bytes = 0;
};

// A NIC whose receive side is stuck and keeps pausing its link partner: from `start` to
// `end` it sends an XOFF for `priority` with `quanta` every `interval` on every port (the
// "PFC storm" a PFC watchdog exists for, reference §3.3). Disabled when interval is zero.
struct PfcStorm {
  Time start = Time::zero();
  Time end = Time::never();
  uint8_t priority = 3;
  uint16_t quanta = 0xFFFF;
  Time interval = Time::zero();
  bool enabled() const { return interval > Time::zero(); }
};

struct HostConfig {
  std::string name = "host";
  std::vector<PortConfig> ports{PortConfig{}};
  NicTimings timings{};
  uint32_t first_qpn = 0x100;  // QPNs are first_qpn + index, in the order QPs are added
  bool check_icrc = true;      // verify the ICRC of every received RoCE frame
  // The pacer's release granularity: a frame may leave up to one slot before its exact
  // send time (send times themselves never drift); 2^16 slots make the wheel's horizon.
  Time pacer_slot = Time::ns(1);
  PfcStorm pfc_storm{};
  uint64_t seed = 1;
};

}  // namespace rtb::host
