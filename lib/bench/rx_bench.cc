#include "bench/rx_bench.h"

#include <rte_mbuf.h>
#include <unistd.h>

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "bench/payload_option.h"
#include "bench/psn_renumber.h"
#include "bench/one_lcore.h"
#include "bench/source_capture.h"
#include "cc_algos/registry.h"
#include "ethport/eth_bridge.h"
#include "ethport/eth_port.h"
#include "host/host.h"
#include "realtime/realtime_scheduler.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/wire_link.h"
#include "wire/crc_path.h"
#include "wire/frame_samples.h"
#include "wire/frame_size.h"
#include "wire/payload_pattern.h"

namespace rtb::bench {
namespace {

runtime::PoolSizes pool_sizes(const RxOptions& o) {
  runtime::PoolSizes s;
  // The PMD's copy of the capture, a burst in the links, the caches.
  s.data_count = o.frames + 8'192;
  s.data_room = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + o.payload + 256);
  s.control_count = 4'095;  // ACKs
  s.control_room = RTE_PKTMBUF_HEADROOM + 256;
  s.cache_size = 512;
  return s;
}

runtime::WireLinkConfig wire(const std::string& name, Rate rate) {
  return {name, rate, Time::zero(), Bytes(9'216)};
}

// The source, the host, the ACK sink and the links between them; destroyed in reverse.
struct RxRig {
  RxRig(const RxOptions& o, runtime::PoolSet& p)
      : pools(p), renumber(kSourceFirstQpn, o.qps),
        in(wire("source->host", o.rate)), out(wire("host->sink", o.rate)) {}
  ~RxRig() {
    host.reset();
    for (auto* b : {source_bridge.get(), sink_bridge.get()}) {
      if (b) b->drain();
    }
    source_bridge.reset(), sink_bridge.reset();
    source.reset(), sink.reset();
    in.drain();
    out.drain();
  }
  runtime::PoolSet& pools;
  PsnRenumber renumber;
  runtime::WireLink in, out;
  std::unique_ptr<ethport::EthPort> source, sink;
  std::unique_ptr<ethport::EthBridge> source_bridge, sink_bridge;
  std::unique_ptr<host::Host> host;
};

// The receiving host: the sample flow's destination (wire/frame_samples.h), one QP per
// captured QP, QPNs from the capture's first destination QPN.
Status build_host(RxRig& r, const RxOptions& o, const cc::Controller& cc) {
  const wire::FlowSpec sender = wire::sample_requester_spec();
  host::HostConfig hc;
  hc.name = "receiver";
  hc.first_qpn = kSourceFirstQpn;
  hc.check_icrc = o.check_icrc;
  hc.ports[0].mac = sender.dst_mac;
  hc.ports[0].ip = sender.dst_ip;
  auto h = host::Host::create(hc, {{&r.out, &r.in}}, cc, {&r.pools.data(), &r.pools.control()}, o.qps);
  if (!h) return Error{h.error().message};
  r.host = std::move(h).value();
  for (uint32_t q = 0; q < o.qps; ++q) {
    host::QpSpec qp;
    qp.peer_qpn = kSourcePeerQpn + q;
    qp.peer_mac = sender.src_mac;
    qp.peer_ip = sender.src_ip;
    qp.requester.path_mtu = o.payload;
    if (auto added = r.host->add_qp(qp); !added) return Error{added.error().message};
  }
  return {};
}

Status build(RxRig& r, const RxOptions& o, const std::string& capture, uint32_t run,
             const cc::Controller& cc) {
  rte_mempool* rx = r.pools.data().mempool();
  auto src = ethport::EthPort::open(
      {.device = fmt::format("net_pcap_rx{},rx_pcap={},infinite_rx=1", run, capture)}, rx);
  if (!src) return Error{src.error().message};
  auto sink = ethport::EthPort::open({.device = fmt::format("net_null_rxsink{}", run)}, rx);
  if (!sink) return Error{sink.error().message};
  r.source = std::move(src).value();
  r.sink = std::move(sink).value();
  r.source_bridge = std::make_unique<ethport::EthBridge>("source", *r.source, nullptr, &r.in);
  r.source_bridge->set_rx_rewrite(&PsnRenumber::hook, &r.renumber);
  r.sink_bridge = std::make_unique<ethport::EthBridge>("sink", *r.sink, &r.out, nullptr);
  return build_host(r, o, cc);
}

nlohmann::ordered_json responder_json(const host::Host& h) {
  host::ResponderCounters sum;
  for (uint32_t q = 0; q < h.qp_count(); ++q) {
    const host::ResponderCounters& c = h.qp(q).responder.counters();
    sum.frames_accepted += c.frames_accepted;
    sum.payload_bytes_accepted += c.payload_bytes_accepted;
    sum.out_of_sequence += c.out_of_sequence;
    sum.duplicate_request += c.duplicate_request;
    sum.acks_sent += c.acks_sent;
  }
  return {{"frames_accepted", sum.frames_accepted}, {"payload_bytes_accepted", sum.payload_bytes_accepted},
          {"out_of_sequence", sum.out_of_sequence}, {"duplicate_request", sum.duplicate_request},
          {"acks_sent", sum.acks_sent}};
}

void add_figures(BenchReport& rep, const RxRig& r, const realtime::RealtimeStats& st) {
  const nlohmann::ordered_json responder = responder_json(*r.host);
  const double wall = st.wall_seconds;
  const double cpu = st.lcores.front().cpu_seconds;
  const auto frames = responder["frames_accepted"].get<double>();
  const auto bytes = static_cast<double>(r.source_bridge->counters().rx_bytes);
  const auto received = static_cast<double>(r.source_bridge->counters().rx_frames);
  rep.add("frames_per_s", wall > 0 ? frames / wall : 0, "frames/s accepted by the responders");
  rep.add("frames_per_cpu_s", cpu > 0 ? frames / cpu : 0, "frames/s of CPU time the lcore got");
  rep.add("cpu_ns_per_frame", frames > 0 ? cpu * 1e9 / frames : 0, "ns of lcore CPU time per frame");
  rep.add("gbps", wall > 0 ? bytes * 8 / wall / 1e9 : 0, "Gb/s received (frames without FCS)");
  rep.add("frame_bytes", received > 0 ? bytes / received : 0, "B (without FCS)");
  rep.add("frames", frames, "frames");
  const host::HostCounters& hc = r.host->counters();
  rep.details["responder"] = responder;
  rep.details["host"] = {{"rx_frames", hc.rx_frames}, {"rx_parse_errors", hc.rx_parse_errors},
                         {"rx_unknown_qp", hc.rx_unknown_qp}, {"tx_frames", hc.tx_frames}};
  rep.details["source"] = {{"rx_frames", r.source_bridge->counters().rx_frames},
                           {"renumbered", r.renumber.rewritten()}, {"not_renumbered", r.renumber.passed()},
                           {"port", r.source->stats_json()}};
  rep.details["sink"] = {{"tx_frames", r.sink_bridge->counters().tx_frames}};
  rep.details["realtime"] = st.to_json();
  rep.details["pools"] = {{"data_alloc_failures", r.pools.data().alloc_failures()},
                          {"control_alloc_failures", r.pools.control().alloc_failures()}};
}

Status measure(RxRig& rig, const RxOptions& o, BenchReport& rep) {
  auto st = run_one_lcore({rig.source_bridge.get(), rig.host.get(), rig.sink_bridge.get()}, o.lcore, o.duration,
                          {.window = o.catch_up, .max_polls = o.burst}, rep);
  if (!st) return Error{st.error().message};
  add_figures(rep, rig, st.value());
  return {};
}

}  // namespace

Status check_rx(const RxOptions& o) {
  if (Status s = check_path_mtu_payload(o.payload); !s) return s;
  if (o.qps == 0 || o.qps > 65'536) return Error{fmt::format("--qps {}: expected 1 .. 65536", o.qps)};
  if (o.frames < o.qps || o.frames > 65'536) {
    return Error{fmt::format("--frames {}: expected {} (one frame per QP) .. 65536", o.frames, o.qps)};
  }
  return {};
}

uint64_t rx_pool_bytes(const RxOptions& o) { return pool_sizes(o).memory_bytes(); }

Expected<BenchReport> run_rx(const RxOptions& o) {
  static uint32_t runs = 0;
  const uint32_t run = runs++;
  if (Status s = check_rx(o); !s) return Error{s.message()};
  const std::string capture = !o.keep_capture.empty()
      ? o.keep_capture
      : (std::filesystem::temp_directory_path() / fmt::format("rocetb-rx-bench-{}-{}.pcap", getpid(), run)).string();
  auto frame_len = write_source_capture(capture, o.frames, o.payload, o.qps, o.ack_every);
  if (!frame_len) return Error{frame_len.error().message};
  BenchReport rep;
  rep.mode = "rx";
  rep.config = {{"qps", o.qps}, {"payload_bytes", o.payload}, {"frames_in_capture", o.frames},
                {"ack_every", o.ack_every}, {"check_icrc", o.check_icrc}, {"burst", o.burst},
                {"catch_up_ns", o.catch_up.ps() / 1000}, {"lcore", o.lcore},
                {"seconds", o.duration.s_f()}, {"rate_gbps", o.rate.bps() / 1e9},
                {"icrc_crc_path", wire::crc_path_name(wire::crc_path())}};
  // The receiver runs no congestion control of its own (it only sends ACKs).
  cc::Registry registry = cc::Registry::with_builtins();
  auto algorithm = registry.resolve("fixed_rate");
  if (!algorithm) return Error{algorithm.error().message};
  auto cc = cc::configure(algorithm.value(), {});
  if (!cc) return Error{cc.error().message};
  Status result;
  // Realtime: an empty pool is counted and the run goes on (lib/runtime/pool/README.md).
  auto pools = runtime::PoolSet::create(pool_sizes(o), &wire::payload_byte, fmt::format("rx{}", run),
                                        runtime::OnEmpty::kCount);
  if (!pools) result = Error{pools.error().message};
  if (result) {
    {  // the rig (and the source PMD's copy of the capture) goes before the leak check
      RxRig rig(o, pools.value());
      result = build(rig, o, capture, run, cc.value());
      if (result) result = measure(rig, o, rep);
    }
    if (result) result = pools.value().check_no_leaks();
  }
  if (o.keep_capture.empty()) std::filesystem::remove(capture);
  if (!result) return Error{result.message()};
  return rep;
}

}  // namespace rtb::bench
