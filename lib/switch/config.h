// Switch configuration as plain structs, named after SONiC's CONFIG_DB tables so that an
// operator recognises every knob (style habit 9):
//
//   BUFFER_POOL        -> BufferPoolConfig   (ingress_lossless_pool, egress_lossy_pool)
//   BUFFER_PROFILE     -> PgProfile (ingress priority groups), EgressProfile (queues)
//   DSCP_TO_TC_MAP, DOT1P_TO_TC_MAP, TC_TO_PRIORITY_GROUP_MAP, TC_TO_QUEUE_MAP -> QosMaps
//   PORT_QOS_MAP pfc_enable -> SwitchConfig::pfc_enable
//   PORT_QOS_MAP|<port>  -> PortConfig::maps, PortConfig::pfc_enable (one port's own)
//   WRED_PROFILE       -> WredProfile (green colour: RoCE traffic is not policed); other
//                         AQMs (step, PIE) per queue: aqm/profiles.h
//   SCHEDULER          -> SchedulerConfig (STRICT or DWRR with a weight)
//   PFC_WD             -> PfcWdConfig
//
// The QoS settings apply to every port unless a port has its own maps or pfc_enable
// (PORT_QOS_MAP binds maps per port); buffer profiles are the switch's. Ports differ in
// rate, MTU and cable. The TOML scenario loader fills these structs and calls validate()
// (validate.h) before anything starts. A traffic class is the PFC priority of the same
// number (pfc_enable lists both); TC_TO_QUEUE_MAP puts it in an egress queue, and a
// received PFC frame for priority n pauses egress queue n (PFC_PRIORITY_TO_QUEUE_MAP is the
// identity), so a lossless TC must stay in its own queue to be paused.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "switch/aqm/profiles.h"

namespace rtb::sw {

inline constexpr int kPriorities = 8;

enum class ThresholdMode : uint8_t { kStatic, kDynamic };

// BUFFER_POOL: the switch's buffer, as SONiC splits it on NVIDIA Spectrum (buffers_defaults
// templates: ingress_lossy_profile points at ingress_lossy_pool, egress_lossy_profile at
// egress_lossy_pool, the lossless PGs at ingress_lossless_pool). rocetb keeps one lossy
// pool for both directions: lossy PGs take their cells from it and lossy queues measure
// their dynamic limit against its free space, so a lossless incast filling its pool does
// not starve lossy traffic (CNPs on TC 6), nor lossy traffic the lossless PGs.
struct BufferPoolConfig {
  Bytes size = Bytes::mb(4);  // ingress_lossless_pool "size": with lossy_size 0, every cell
  // egress_lossy_pool "size": buffer on top of `size`. Lossy PGs' reserved cells come out
  // of it. 1 MB is rocetb's default, not a vendor value. 0 = no lossy pool: lossy traffic
  // shares `size` with lossless traffic (one pool, as before the split).
  Bytes lossy_size = Bytes::mb(1);
  // "xoff": the shared headroom pool. 0 = no shared headroom pool: every lossless
  // (port, PG) keeps its profile's `xoff` bytes of headroom out of the buffer.
  Bytes xoff = Bytes::kb(1'600);
  Bytes cell = Bytes(256);  // MMU cell size (Broadcom 208/254, Spectrum 144: configurable)
};

// BUFFER_PROFILE of an ingress priority group. Occupancy fills the reserved part first,
// then the shared part up to the shared limit (static_th bytes, or dynamic: alpha x the
// shared buffer still free, alpha = 2^dynamic_th, Broadcom/SONiC), then, for lossless
// PGs only, headroom up to `xoff` bytes. The XOFF point is size + shared limit.
struct PgProfile {
  Bytes size;                                     // "size": reserved bytes
  ThresholdMode mode = ThresholdMode::kStatic;
  Bytes static_th = Bytes::kb(2'400);             // "static_th": shared bytes
  int dynamic_th = 0;                             // "dynamic_th": log2(alpha)
  Bytes xoff = Bytes::kb(1'600);                  // "xoff": headroom size (not a threshold)
  Bytes xon_offset = Bytes(9'216);                // "xon_offset": XON at XOFF point - this
};

// BUFFER_PROFILE of an egress queue: the admission limit of lossy queues.
struct EgressProfile {
  ThresholdMode mode = ThresholdMode::kDynamic;
  Bytes static_th = Bytes::mb(1);
  int dynamic_th = 3;  // SONiC egress_lossy_profile
};

// WRED_PROFILE "ecn" field.
enum class EcnMode : uint8_t {
  kNone, kGreen, kYellow, kRed, kGreenYellow, kGreenRed, kYellowRed, kAll
};
Expected<EcnMode> parse_ecn_mode(std::string_view sonic_value);  // "ecn_green", ...
std::string_view ecn_mode_name(EcnMode m);
constexpr bool ecn_marks_green(EcnMode m) {
  return m == EcnMode::kGreen || m == EcnMode::kGreenYellow || m == EcnMode::kGreenRed ||
         m == EcnMode::kAll;
}

// WRED_PROFILE, green colour. Queue bytes q: no action at or below min; probability
// rising linearly to green_drop_probability % at max; every frame above max.
struct WredProfile {
  Bytes green_min_threshold = Bytes::kb(150);
  Bytes green_max_threshold = Bytes::kb(1'200);
  uint32_t green_drop_probability = 5;  // percent, 0..100
  bool wred_green_enable = false;       // drop non-ECT frames by the same curve
  EcnMode ecn = EcnMode::kAll;          // mark ECT frames CE by the curve
};

// Where WRED/ECN acts on a queue: at dequeue (default, as in the DCQCN ns-3 models,
// reference §1.1) or at enqueue. WRED drops of non-ECT frames are always at enqueue.
enum class MarkPoint : uint8_t { kDequeue, kEnqueue };

// SCHEDULER: strict queues are served first (higher queue number first); the DWRR queues
// share what is left in proportion to their weights.
struct SchedulerConfig {
  enum class Type : uint8_t { kStrict, kDwrr } type = Type::kDwrr;
  uint32_t weight = 1;  // 1..100
};

// PFC_WD (reference §3.3).
struct PfcWdConfig {
  enum class Action : uint8_t { kDrop, kForward, kAlert };
  bool enabled = false;
  Action action = Action::kDrop;
  Time detection_time = Time::ms(200);
  Time restoration_time = Time::ms(200);
  Time poll_interval = Time::ms(200);  // GLOBAL POLL_INTERVAL
};
Expected<PfcWdConfig::Action> parse_pfcwd_action(std::string_view sonic_value);
std::string_view pfcwd_action_name(PfcWdConfig::Action a);

// Emission of PFC frames by the switch (802.1Qbb; reference §3.1).
struct PfcConfig {
  uint16_t pause_quanta = 0xFFFF;  // in each XOFF frame
  // Refresh an XOFF this long after the last one while still above XON.
  // Zero: half the pause time (quanta x 512 bit times at the port rate).
  Time refresh_interval = Time::zero();
};

struct QosMaps {
  std::array<uint8_t, 64> dscp_to_tc{};             // DSCP_TO_TC_MAP
  std::array<uint8_t, kPriorities> dot1p_to_tc{};   // DOT1P_TO_TC_MAP
  std::array<uint8_t, kPriorities> tc_to_pg{};      // TC_TO_PRIORITY_GROUP_MAP
  std::array<uint8_t, kPriorities> tc_to_queue{};   // TC_TO_QUEUE_MAP
  bool trust_dot1p_when_tagged = true;  // tagged frames: PCP decides, else DSCP
};
// SONiC AZURE-like defaults, with RoCE's DSCP 26 on TC 3: DSCP 3, 26 -> 3; 4 -> 4;
// 46 -> 5; 48 -> 6; the rest 0. PCP n -> TC n; TC n -> PG n; TC n -> queue n.
QosMaps default_qos_maps();

struct PortConfig {
  std::string name;                 // "Ethernet0", ...
  Rate rate = Rate::gbps(100);      // line rate (the port's wire link rate)
  uint32_t mtu = 9'216;             // largest frame this port sends, bytes without FCS
  uint32_t peer_mtu = 0;            // largest frame the neighbour sends; 0 = same as mtu
  Time propagation = Time::ns(35);  // one-way cable delay (7 m at 5 ns/m)
  std::optional<Rate> shaper;       // port shaper (SCHEDULER pir); default the line rate
  // PORT_QOS_MAP|<port>: this port's own maps (classification of the frames it receives:
  // TC, ingress PG, egress queue) and pfc_enable (the priorities whose PGs send PFC from
  // this port and whose pauses its PFC watchdog watches). Absent: the switch's. Buffer
  // profiles (which PGs have headroom, which queues are lossy) stay the switch's.
  std::optional<QosMaps> maps;
  std::optional<uint8_t> pfc_enable;
};

// A route: destination prefix -> equal-cost egress ports (ECMP).
struct Route {
  uint32_t prefix = 0;  // host order
  uint8_t prefix_len = 32;
  std::vector<uint16_t> ports;
};

constexpr uint8_t kNoIntDscp = 0xFF;

struct SwitchConfig {
  std::string name = "sw0";
  std::vector<PortConfig> ports;
  BufferPoolConfig pool;
  QosMaps maps = default_qos_maps();
  uint8_t pfc_enable = (1u << 3) | (1u << 4);  // PORT_QOS_MAP pfc_enable "3,4"
  std::array<PgProfile, kPriorities> pg;       // per priority group
  std::array<EgressProfile, kPriorities> egress;
  std::array<std::optional<WredProfile>, kPriorities> wred;  // QUEUE|...|n wred_profile
  // A queue's AQM when it is not WRED (step, PIE); such a queue has no `wred` profile.
  std::array<std::optional<AqmProfile>, kPriorities> aqm;
  MarkPoint mark_point = MarkPoint::kDequeue;
  std::array<SchedulerConfig, kPriorities> scheduler;
  PfcConfig pfc;
  PfcWdConfig pfcwd;
  std::vector<Route> routes;
  uint64_t ecmp_hash_seed = 0;  // same seed on every switch reproduces hash polarization
  // HPCC INT (int_push.h): RoCE data frames with this DSCP carry an INT trailer and get one
  // hop record per egress at dequeue. 0xFF: none. Set by the testbed when the run's
  // algorithm asks for INT feedback, not a scenario key.
  uint8_t int_dscp = kNoIntDscp;

  bool lossless_tc(int tc) const { return (pfc_enable >> tc) & 1u; }
  // One port's maps and pfc_enable: its own, else the switch's.
  const QosMaps& port_maps(size_t port) const { return ports[port].maps ? *ports[port].maps : maps; }
  uint8_t port_pfc_enable(size_t port) const { return ports[port].pfc_enable.value_or(pfc_enable); }
  bool lossless_pg(int pg) const;  // some lossless TC maps to it
  uint32_t peer_mtu(const PortConfig& p) const { return p.peer_mtu ? p.peer_mtu : p.mtu; }
};

// The settings of the RoCE tuning guides (4 MB buffer; ECN min 150 KB, max 1.2 MB;
// XOFF 2.4 MB; headroom 1.6 MB) on lossless TCs 3 and 4, with lossy PGs on a dynamic
// threshold (SONiC ingress_lossy_profile, dynamic_th 3) in rocetb's 1 MB lossy pool (not
// from the guides), for `ports` ports of `rate`.
SwitchConfig tuning_guide_config(int ports, Rate rate);

}  // namespace rtb::sw
