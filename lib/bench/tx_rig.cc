#include "bench/tx_rig.h"

#include <rte_mbuf.h>

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "bench/payload_option.h"
#include "realtime/lcore_loop.h"
#include "wire/payload_pattern.h"

namespace rtb::bench {
namespace {

// IBTA vol 1 §9.7.6.1.3: 4.096 us x 2^31 = 8796 s, the largest timeout the verbs accept,
// so a QP that is never acknowledged does not go back N during the run.
constexpr uint8_t kLocalAckTimeout = 31;
constexpr uint64_t kMessageBytes = 1ull << 30;
constexpr uint64_t kMaxPsnsInFlight = 1ull << 23;  // half the 24-bit PSN space
// A RoCEv2 RDMA WRITE MIDDLE frame without FCS: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 +
// payload + ICRC 4 (IBTA Annex A17).
constexpr uint32_t kRoceOverheadBytes = 58;

wire::MacAddr mac(uint8_t last) { return wire::MacAddr{{0x02, 0, 0, 0, 0, last}}; }
uint32_t ip(uint8_t last) { return 0xC0000200u | last; }  // 192.0.2.x

// Frames one QP sends at most in the run (the wire's line rate shared by its QPs).
uint64_t psns_per_qp(const TxRigSpec& s) {
  const double frames = s.rate.bps() * s.duration.s_f() / 8.0 /
                        static_cast<double>(runtime::wire_occupancy(s.payload + kRoceOverheadBytes).count());
  return static_cast<uint64_t>(std::ceil(frames / s.qps));
}

runtime::WireLinkConfig wire(std::string name, Rate rate) {
  return {std::move(name), rate, Time::zero(), Bytes(9'216)};
}

}  // namespace

class TxRig::MarkStage final : public runtime::Stage {
 public:
  MarkStage(std::string name, Time at, const ethport::EthBridge& bridge)
      : Stage(std::move(name)), due_(at), bridge_(bridge) {}
  void poll(Time now) override {
    if (now < due_) return;
    mark.at = now;
    mark.tx_frames = bridge_.counters().tx_frames;
    mark.tx_bytes = bridge_.counters().tx_bytes;
    mark.cpu_seconds = realtime::thread_cpu_seconds();
    due_ = Time::never();
  }
  Time next_deadline() const override { return due_; }
  bool polled_at_now_only() const override { return true; }
  WarmupMark mark;

 private:
  Time due_;
  const ethport::EthBridge& bridge_;
};

Status check_rig(const TxRigSpec& s) {
  if (Status st = check_path_mtu_payload(s.payload); !st) return st;
  if (psns_per_qp(s) > kMaxPsnsInFlight) {
    return Error{fmt::format(
        "--seconds {} with {} QPs per host at {} Gb/s could give a QP {} unacknowledged PSNs, more "
        "than half the PSN space ({}; nothing acknowledges them): use fewer seconds or more QPs",
        s.duration.s_f(), s.qps, s.rate.bps() / 1e9, psns_per_qp(s), kMaxPsnsInFlight)};
  }
  return {};
}

runtime::PoolSizes rig_pool_sizes(uint32_t payload) {
  runtime::PoolSizes s;
  s.data_count = 8'191;
  s.data_room = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + payload + 256);
  s.control_count = 1'023;
  s.control_room = RTE_PKTMBUF_HEADROOM + 256;
  s.cache_size = 512;  // LIFO per-lcore cache: a freed mbuf comes back hot
  return s;
}

TxRig::TxRig(const TxRigSpec& spec, runtime::PoolSet pools)
    : spec_(spec),
      pools_(std::move(pools)),
      tx_(wire(spec.name + "->" + spec.device, spec.rate)),
      rx_(wire("nothing->" + spec.name, spec.rate)) {}

TxRig::~TxRig() { (void)finish(); }

Expected<std::unique_ptr<TxRig>> TxRig::create(const TxRigSpec& spec) {
  if (Status s = check_rig(spec); !s) return Error{s.message()};
  // Realtime: an empty pool is counted and the run goes on (lib/runtime/pool/README.md).
  auto pools = runtime::PoolSet::create(rig_pool_sizes(spec.payload), &wire::payload_byte, spec.pools,
                                        runtime::OnEmpty::kCount);
  if (!pools) return Error{pools.error().message};
  std::unique_ptr<TxRig> rig(new TxRig(spec, std::move(pools).value()));
  auto port = ethport::EthPort::open({.device = spec.device}, rig->pools_.data().mempool());
  if (!port) return Error{port.error().message};
  rig->port_ = std::move(port).value();
  rig->bridge_ = std::make_unique<ethport::EthBridge>(spec.name + ":eth0", *rig->port_, &rig->tx_, nullptr);
  return rig;
}

Status TxRig::build_host(const cc::Controller& cc) {
  host::HostConfig hc;
  hc.name = spec_.name;
  hc.first_qpn = spec_.first_qpn;
  hc.ports[0].mac = mac(1);
  hc.ports[0].ip = ip(1);
  auto h = host::Host::create(hc, {{&tx_, &rx_}}, cc, {&pools_.data(), &pools_.control()}, spec_.qps);
  if (!h) return Error{h.error().message};
  host_ = std::move(h).value();
  mark_ = std::make_unique<MarkStage>(spec_.name + ":warmup", spec_.warmup, *bridge_);
  return add_qps();
}

Status TxRig::add_qps() {
  const uint64_t messages = (psns_per_qp(spec_) * spec_.payload + kMessageBytes - 1) / kMessageBytes;
  for (uint32_t q = 0; q < spec_.qps; ++q) {
    host::QpSpec qp;
    qp.peer_qpn = spec_.first_qpn + q;  // the peer numbers its QPs as this host does
    qp.peer_mac = mac(2);
    qp.peer_ip = ip(2);
    qp.requester.path_mtu = spec_.payload;
    qp.requester.local_ack_timeout = kLocalAckTimeout;
    auto index = host_->add_qp(qp);
    if (!index) return Error{index.error().message};
    // Starts spread over the first half of the warm-up: 10^6 QPs starting at one instant
    // would make the first poll take seconds.
    const Time start = spec_.warmup / 2 * q / spec_.qps;
    for (uint64_t m = 0; m < messages; ++m) host_->post(index.value(), kMessageBytes, start);
  }
  return {};
}

void TxRig::place(realtime::RealtimeScheduler& s, unsigned lcore) {
  s.add(*host_, lcore);
  s.add(*bridge_, lcore);
  s.add(*mark_, lcore);
}

const WarmupMark& TxRig::warmup_mark() const { return mark_->mark; }

nlohmann::ordered_json TxRig::to_json(double wall_seconds) const {
  uint64_t retransmitted = 0, timeouts = 0, failed = 0, cnps = 0;
  for (uint32_t q = 0; q < host_->qp_count(); ++q) {
    const host::QueuePair& qp = host_->qp(q);
    retransmitted += qp.counters.retransmitted_frames;
    timeouts += qp.requester.counters().timeouts;
    failed += qp.requester.failed() ? 1 : 0;
    cnps += qp.counters.cnp_handled;
  }
  const ethport::BridgeCounters& b = bridge_->counters();
  return {{"host", spec_.name},
          {"device", spec_.device},
          {"qps", spec_.qps},
          {"tx_frames", b.tx_frames},
          {"tx_bytes", b.tx_bytes},
          {"frames_per_s", wall_seconds > 0 ? static_cast<double>(b.tx_frames) / wall_seconds : 0},
          {"tx_held_retries", b.tx_held_retries},
          {"port_opackets", port_->stats_json().value("opackets", uint64_t{0})},
          {"retransmitted_frames", retransmitted},
          {"timeouts", timeouts},
          {"failed_qps", failed},
          {"cnp_handled", cnps},
          {"tx_nombuf_data", host_->counters().tx_nombuf_data},
          {"data_alloc_failures", pools_.data().alloc_failures()},
          {"window_held_qps", window_held_qps()}};
}

uint32_t TxRig::window_held_qps() const {
  uint32_t held = 0;
  for (uint32_t q = 0; q < host_->qp_count(); ++q) {
    const host::QueuePair& qp = host_->qp(q);
    if (qp.window && qp.requester.outstanding_bytes() >= qp.window->count()) ++held;
  }
  return held;
}

Status TxRig::finish() {
  if (!host_ && !bridge_ && !port_) return pools_.check_no_leaks();
  host_.reset();
  mark_.reset();
  if (bridge_) bridge_->drain();
  bridge_.reset();
  port_.reset();
  tx_.drain();
  rx_.drain();
  return pools_.check_no_leaks();
}

}  // namespace rtb::bench
