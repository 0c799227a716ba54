// Realtime TX rate of one host stage into net_null (issue 8: "frames per second of one
// host TX stage into net_null with DCQCN on 1,000 QPs, beside dpdk-testpmd
// --forward-mode=txonly on the same device and core with the same frame size").
// scripts/bench_txonly.sh runs this and testpmd one after the other and prints the table.
//
//   host (1,000 QPs, DCQCN, RDMA WRITE) --tx WireLink (400 Gb/s, propagation 0)--> EthBridge
//     --> EthPort net_null0 (tx frees every frame)
//   host rx WireLink: fed by nothing (the bridge has no inbound link), so no ACK, NAK or
//   CNP ever comes back.
//
// Both stages run in one RealtimeScheduler loop on --lcore (the EAL main lcore) against the
// calibrated TSC. What this measures and why the settings:
//  - frames are real RoCEv2 frames built by the host (wire templates patched per frame, the
//    ICRC computed), one mbuf each from an rtb MbufPool; DCQCN runs its per-frame byte
//    counter hook, but with no CNPs it never cuts: every QP stays at line rate;
//  - without ACKs the requester's retransmission timer would go back N after 4.2 ms
//    (rocetb's local_ack_timeout 10) and fail the QP after retry_cnt; the bench sets
//    local_ack_timeout 31 (4.096 us x 2^31 = 2.4 hours), so each QP sends first
//    transmissions only, for the whole run (checked: timeouts and retransmissions printed);
//  - DCQCN sets no window, so outstanding bytes do not stop a QP;
//  - the wire model serializes each frame at the link rate (design.md "The pipeline"): a
//    frame started at `now` keeps the wire busy past `now`, so a loop that cannot keep up
//    with 400 Gb/s sends one frame per host poll and the bridge tx-bursts it on the next
//    loop. The figure is the loop rate of host + bridge, as a realtime run would see it.
#include <rte_lcore.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "cc_algos/controller.h"
#include "cc_algos/registry.h"
#include "ethport/eth_bridge.h"
#include "ethport/eth_port.h"
#include "host/host.h"
#include "realtime/realtime_scheduler.h"
#include "realtime/tsc_clock.h"
#include "runtime/pool/eal.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/wire_link.h"
#include "wire/payload_pattern.h"

namespace rtb {
namespace {

struct Options {
  unsigned lcore = 1;
  uint32_t qps = 1'000;
  double seconds = 5;
  uint32_t mtu = 1'024;  // RoCE path MTU: payload bytes per frame
  uint64_t rate_gbps = 400;
  std::string device = "net_null0";
};

// IBTA vol 1 §9.7.6.1.3: 4.096 us x 2^31 = 8796 s; the largest value the verbs accept.
constexpr uint8_t kLocalAckTimeout = 31;
// Messages of 1 GiB, as testbed.cc posts long flows; a QP's unacknowledged PSNs must stay
// within half the 24-bit PSN space (IBTA §9.7.1).
constexpr uint64_t kMessageBytes = 1ull << 30;
constexpr uint64_t kMaxPsnsInFlight = 1ull << 23;
// A RoCEv2 RDMA WRITE MIDDLE frame without FCS: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 +
// payload + ICRC 4 (IBTA Annex A17); FIRST frames add a 16 B RETH, once per message.
constexpr uint32_t kRoceOverheadBytes = 58;
// A loop gap longer than this is time the lcore was taken away (another process, the
// kernel), not a slow iteration; the run is marked invalid when they add up to over 1%.
constexpr Time kStallThreshold = Time::us(10);

wire::MacAddr mac(uint8_t last) { return wire::MacAddr{{0x02, 0, 0, 0, 0, last}}; }
uint32_t ip(uint8_t last) { return 0xC0000200u | last; }  // 192.0.2.x

int parse_options(int argc, char** argv, Options& o) {
  CLI::App app{"Realtime TX rate of one rocetb host stage (DCQCN, N QPs) into net_null"};
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("--lcore", o.lcore, "lcore the host and bridge loop runs on (EAL main lcore)")
      ->check(CLI::Range(0u, cpus - 1));
  app.add_option("--qps", o.qps, "queue pairs, each with long-lived RDMA WRITE traffic")
      ->check(CLI::Range(1u, 1'000'000u));
  app.add_option("--seconds", o.seconds, "wall seconds to run")->check(CLI::Range(0.01, 3600.0));
  app.add_option("--mtu", o.mtu, "RoCE path MTU (payload bytes per frame)")
      ->check(CLI::IsMember({256u, 512u, 1'024u, 2'048u, 4'096u}));
  app.add_option("--rate-gbps", o.rate_gbps, "the host's wire rate (Gb/s)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'600}));
  app.add_option("--device", o.device,
                 "the port (lib/ethport device string); one that drains by itself: net_null, a NIC");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return -1;  // go on
}

// Frames each QP sends at most in the run (line rate shared by all QPs), in PSNs.
uint64_t psns_per_qp(const Options& o) {
  const double frames = static_cast<double>(o.rate_gbps) * 1e9 * o.seconds / 8.0 /
                        static_cast<double>(runtime::wire_occupancy(o.mtu + kRoceOverheadBytes).count());
  return static_cast<uint64_t>(std::ceil(frames / o.qps));
}

Status check_options(const Options& o) {
  if (psns_per_qp(o) > kMaxPsnsInFlight) {
    return Error{fmt::format("--seconds {} with {} QPs at {} Gb/s gives a QP up to {} unacknowledged "
                             "PSNs, more than half the PSN space ({}): use fewer seconds or more QPs",
                             o.seconds, o.qps, o.rate_gbps, psns_per_qp(o), kMaxPsnsInFlight)};
  }
  return {};
}

// Data frames in flight: the link's ring, the bridge's held burst, the lcore's mempool
// cache; 8,191 covers them many times over. Control frames are never sent (no data comes in).
runtime::PoolSizes pool_sizes(const Options& o) {
  runtime::PoolSizes s;
  s.data_count = 8'191;
  s.data_room = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + o.mtu + 256);
  s.control_count = 1'023;
  s.control_room = RTE_PKTMBUF_HEADROOM + 256;
  s.cache_size = 512;  // LIFO per-lcore cache: a freed mbuf comes back hot
  return s;
}

Status start(const Options& o, const runtime::PoolSizes& sizes) {
  runtime::EalOptions eal;
  eal.program = "host_tx_bench";
  eal.main_lcore = o.lcore;
  eal.pool_bytes = sizes.memory_bytes();
  return runtime::start_eal(eal);
}

Expected<cc::Controller> dcqcn() {
  auto algorithm = cc::Registry::with_builtins().find("dcqcn");
  if (!algorithm) return Error{algorithm.error().message};
  return cc::configure(algorithm.value(), {});
}

// The host, its two wires, the bridge and the port. Members are destroyed in reverse
// order: the host, the bridge (held frames freed first), the port, then the links.
struct TxRig {
  explicit TxRig(const Options& o)
      : tx({"host0->" + o.device, Rate::gbps(o.rate_gbps), Time::zero(), Bytes(9'216)}),
        rx({"nothing->host0", Rate::gbps(o.rate_gbps), Time::zero(), Bytes(9'216)}) {}
  ~TxRig() {
    if (bridge) bridge->drain();
  }
  runtime::WireLink tx, rx;
  std::unique_ptr<ethport::EthPort> port;
  std::unique_ptr<ethport::EthBridge> bridge;
  std::unique_ptr<host::Host> host;
};

Status add_qps(host::Host& h, const Options& o) {
  const uint64_t messages = (psns_per_qp(o) * o.mtu + kMessageBytes - 1) / kMessageBytes;
  for (uint32_t q = 0; q < o.qps; ++q) {
    host::QpSpec spec;
    spec.peer_qpn = 0x100 + q;  // the peer numbers its QPs as this host does
    spec.peer_mac = mac(2);
    spec.peer_ip = ip(2);
    spec.requester.path_mtu = o.mtu;
    spec.requester.local_ack_timeout = kLocalAckTimeout;
    auto index = h.add_qp(spec);
    if (!index) return Error{index.error().message};
    for (uint64_t m = 0; m < messages; ++m) h.post(index.value(), kMessageBytes, Time::zero());
  }
  return {};
}

Status build(TxRig& rig, const Options& o, runtime::PoolSet& pools, const cc::Controller& cc) {
  auto port = ethport::EthPort::open({.device = o.device}, pools.data().mempool());
  if (!port) return Error{port.error().message};
  rig.port = std::move(port).value();
  rig.bridge = std::make_unique<ethport::EthBridge>("host0:eth0", *rig.port, &rig.tx, nullptr);
  host::HostConfig hc;
  hc.name = "host0";
  hc.ports[0].mac = mac(1);
  hc.ports[0].ip = ip(1);
  auto h = host::Host::create(hc, {{&rig.tx, &rig.rx}}, cc,
                              {&pools.data(), &pools.control()}, o.qps);
  if (!h) return Error{h.error().message};
  rig.host = std::move(h).value();
  return add_qps(*rig.host, o);
}

// Transmission counters summed over the QPs.
struct QpTotals {
  uint64_t retransmitted = 0, timeouts = 0, failed = 0, cnp_handled = 0;
};

QpTotals totals(const host::Host& h) {
  QpTotals t;
  for (uint32_t q = 0; q < h.qp_count(); ++q) {
    const host::QueuePair& qp = h.qp(q);
    t.retransmitted += qp.counters.retransmitted_frames;
    t.timeouts += qp.requester.counters().timeouts;
    t.failed += qp.requester.failed() ? 1 : 0;
    t.cnp_handled += qp.counters.cnp_handled;
  }
  return t;
}

// DCQCN's current rate of QP 0 (its "rc" state field), in Gb/s; NaN when not described.
double qp0_rate_gbps(const host::Host& h, Time now) {
  const auto view = h.controller().describe_state(h.cc_state(0), now);
  for (size_t i = 0; i < view.count; ++i) {
    if (std::string(view.fields[i].name) == "rc_bps") return view.fields[i].value / 1e9;
  }
  return std::nan("");
}

void print_lateness(const realtime::RealtimeStats& st) {
  const realtime::LatenessReport& l = st.lateness;
  fmt::print("lateness: {} due polls, p50 {}, p99 {}, p99.9 {}, max {}; stalled {}; {}\n",
             l.polls, realtime::format_span(l.p50), realtime::format_span(l.p99),
             realtime::format_span(l.p999), realtime::format_span(l.max),
             realtime::format_span(st.lcores.front().stalled),
             l.valid ? std::string("valid") : "invalid: " + l.reason);
}

void report(const Options& o, const TxRig& rig, const realtime::RealtimeStats& st) {
  const ethport::BridgeCounters& b = rig.bridge->counters();
  const double fps = static_cast<double>(b.tx_frames) / st.wall_seconds;
  const uint64_t frame_bytes = b.tx_frames ? (b.tx_bytes + b.tx_frames / 2) / b.tx_frames : 0;
  const QpTotals t = totals(*rig.host);
  fmt::print("host_tx_bench: 1 host, {} QPs under dcqcn, {} Gb/s wire into {} on lcore {}\n",
             o.qps, o.rate_gbps, o.device, o.lcore);
  fmt::print("frames: {} in {:.3f} s = {:.3f} Mframes/s (bridge tx_frames / wall seconds); "
             "port opackets {}\n", b.tx_frames, st.wall_seconds, fps / 1e6,
             rig.port->stats_json().value("opackets", uint64_t{0}));
  const double ran = st.wall_seconds - st.lcores.front().stalled.s_f();
  fmt::print("while the lcore ran ({:.3f} s: wall less gaps over {}): {:.3f} Mframes/s\n", ran,
             realtime::format_span(kStallThreshold), ran > 0 ? b.tx_frames / ran / 1e6 : 0.0);
  fmt::print("frame size: {} B (bridge tx_bytes / tx_frames; RDMA WRITE frames of {} B payload)\n",
             frame_bytes, o.mtu);
  fmt::print("dcqcn: {} CNPs handled, QP 0 rate {:.1f} Gb/s (line rate: no CNP comes back)\n",
             t.cnp_handled, qp0_rate_gbps(*rig.host, st.simulated));
  fmt::print("requester: {} retransmitted frames, {} timeouts, {} failed QPs "
             "(local_ack_timeout {})\n", t.retransmitted, t.timeouts, t.failed, kLocalAckTimeout);
  print_lateness(st);
  fmt::print("result tool=rocetb_host frame_bytes={} lcore={} frames={} seconds={:.6f} "
             "frames_per_s={:.0f}\n", frame_bytes, o.lcore, b.tx_frames, st.wall_seconds, fps);
}

Status run(const Options& o, runtime::PoolSet& pools, const cc::Controller& cc) {
  TxRig rig(o);
  if (Status s = build(rig, o, pools, cc); !s) return s;
  realtime::TscClock clock = realtime::TscClock::calibrate();
  realtime::RealtimeScheduler scheduler;
  scheduler.add(*rig.host, o.lcore);
  scheduler.add(*rig.bridge, o.lcore);
  scheduler.set_stall_rule(kStallThreshold, 0.01);
  const auto until = Time::ns(static_cast<uint64_t>(std::llround(o.seconds * 1e9)));
  auto st = scheduler.run(clock, until, Time::never(), "");
  if (!st) return Error{st.error().message};
  report(o, rig, st.value());
  return {};
}

int bench(const Options& o) {
  const runtime::PoolSizes sizes = pool_sizes(o);
  if (Status s = start(o, sizes); !s) {
    std::fprintf(stderr, "host_tx_bench: %s\n", s.message().c_str());
    return 1;
  }
  Status result;
  {
    auto pools = runtime::PoolSet::create(sizes, &wire::payload_byte, "txb");
    auto cc = dcqcn();
    if (!pools) result = Error{pools.error().message};
    else if (!cc) result = Error{cc.error().message};
    else result = run(o, pools.value(), cc.value());
    if (result && pools) result = pools.value().check_no_leaks();
  }
  (void)runtime::stop_eal();
  if (!result) std::fprintf(stderr, "host_tx_bench: %s\n", result.message().c_str());
  return result ? 0 : 1;
}

}  // namespace
}  // namespace rtb

int main(int argc, char** argv) {
  rtb::Options o;
  if (const int rc = rtb::parse_options(argc, argv, o); rc >= 0) return rc;
  if (rtb::Status s = rtb::check_options(o); !s) {
    std::fprintf(stderr, "host_tx_bench: %s\n", s.message().c_str());
    return 2;
  }
  return rtb::bench(o);
}
