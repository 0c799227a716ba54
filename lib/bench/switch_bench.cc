#include "bench/switch_bench.h"

#include <rte_mbuf.h>
#include <unistd.h>

#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "bench/one_lcore.h"
#include "bench/source_capture.h"
#include "ethport/eth_bridge.h"
#include "ethport/eth_port.h"
#include "realtime/realtime_scheduler.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/wire_link.h"
#include "switch/config.h"
#include "switch/switch.h"
#include "wire/payload_pattern.h"

namespace rtb::bench {
namespace {


runtime::PoolSizes pool_sizes(const SwitchOptions& o) {
  runtime::PoolSizes s;
  // The PMD's copy of the capture, the switch's buffer (4 MB of frames), links, caches.
  s.data_count = o.frames + 8'192;
  s.data_room = static_cast<uint16_t>(RTE_PKTMBUF_HEADROOM + o.payload + 256);
  s.control_count = 4'095;
  s.control_room = RTE_PKTMBUF_HEADROOM + 256;
  s.cache_size = 512;
  return s;
}

runtime::WireLinkConfig wire(const std::string& name, Rate rate) {
  return {name, rate, Time::zero(), Bytes(9'216)};
}

// The source, the switch, the sinks and the links between them; destroyed in reverse.
struct SwitchRig {
  SwitchRig(const SwitchOptions& o, runtime::PoolSet& p)
      : pools(p),
        in0(wire("source->sw0", o.rate)), out0(wire("sw0->upstream", o.rate)),
        in1(wire("nothing->sw0", o.rate)), out1(wire("sw0->sink", o.rate)) {}
  ~SwitchRig() {
    if (sw) sw->drain();
    sw.reset();
    for (auto* b : {source_bridge.get(), upstream_bridge.get(), sink_bridge.get()}) {
      if (b) b->drain();
    }
    source_bridge.reset(), upstream_bridge.reset(), sink_bridge.reset();
    source.reset(), upstream.reset(), sink.reset();
    for (runtime::WireLink* l : {&in0, &out0, &in1, &out1}) l->drain();
  }
  runtime::PoolSet& pools;
  runtime::WireLink in0, out0, in1, out1;
  std::unique_ptr<ethport::EthPort> source, upstream, sink;
  std::unique_ptr<ethport::EthBridge> source_bridge, upstream_bridge, sink_bridge;
  std::unique_ptr<sw::Switch> sw;
};

Status build(SwitchRig& r, const SwitchOptions& o, const std::string& capture, uint32_t run) {
  rte_mempool* rx = r.pools.data().mempool();
  auto src = ethport::EthPort::open(
      {.device = fmt::format("net_pcap_sw{},rx_pcap={},infinite_rx=1", run, capture)}, rx);
  if (!src) return Error{src.error().message};
  auto up = ethport::EthPort::open({.device = fmt::format("net_null_swup{}", run)}, rx);
  if (!up) return Error{up.error().message};
  auto sink = ethport::EthPort::open({.device = fmt::format("net_null_swsink{}", run)}, rx);
  if (!sink) return Error{sink.error().message};
  r.source = std::move(src).value();
  r.upstream = std::move(up).value();
  r.sink = std::move(sink).value();
  r.source_bridge = std::make_unique<ethport::EthBridge>("source", *r.source, nullptr, &r.in0);
  r.upstream_bridge = std::make_unique<ethport::EthBridge>("upstream", *r.upstream, &r.out0, nullptr);
  r.sink_bridge = std::make_unique<ethport::EthBridge>("sink", *r.sink, &r.out1, nullptr);
  sw::SwitchConfig c = sw::tuning_guide_config(2, o.rate);
  for (sw::PortConfig& p : c.ports) p.propagation = Time::zero();
  c.routes.push_back({0, 0, {1}});  // everything leaves by port 1
  auto s = sw::Switch::make(c, {{&r.in0, &r.out0}, {&r.in1, &r.out1}}, &r.pools.control(), 1);
  if (!s) return Error{"the bench's switch: " + s.error().message};
  r.sw = std::move(s).value();
  return {};
}

void add_figures(BenchReport& rep, const SwitchRig& r, const realtime::RealtimeStats& st) {
  const ethport::BridgeCounters& out = r.sink_bridge->counters();
  const double wall = st.wall_seconds;
  const double cpu = st.lcores.front().cpu_seconds;
  const auto frames = static_cast<double>(out.tx_frames);
  rep.add("frames_per_s", wall > 0 ? frames / wall : 0, "frames/s");
  rep.add("frames_per_cpu_s", cpu > 0 ? frames / cpu : 0, "frames/s of CPU time the lcore got");
  rep.add("cpu_ns_per_frame", frames > 0 ? cpu * 1e9 / frames : 0, "ns of lcore CPU time per frame");
  rep.add("gbps", wall > 0 ? static_cast<double>(out.tx_bytes) * 8 / wall / 1e9 : 0, "Gb/s (frames without FCS)");
  rep.add("frame_bytes", frames > 0 ? static_cast<double>(out.tx_bytes) / frames : 0, "B (without FCS)");
  rep.add("frames", frames, "frames");
  const sw::SwitchCounters c = r.sw->counters(st.simulated);
  uint64_t marked = 0, drops = 0, pfc = 0;
  for (const sw::PortCounters& p : c.ports) {
    for (const sw::QueueCounters& q : p.queues) marked += q.ecn_marked_packets;
    for (uint64_t n : p.pfc_tx) pfc += n;
  }
  for (uint64_t d : c.drops) drops += d;
  rep.details["switch"] = {{"rx_ok", c.ports[0].rx_ok}, {"tx_ok", c.ports[1].tx_ok}, {"ecn_marked", marked},
                           {"drops", drops}, {"pfc_tx_frames", pfc}};
  rep.details["source"] = {{"rx_frames", r.source_bridge->counters().rx_frames},
                           {"port", r.source->stats_json()}};
  rep.details["realtime"] = st.to_json();
  rep.details["pools"] = {{"data_alloc_failures", r.pools.data().alloc_failures()},
                          {"control_alloc_failures", r.pools.control().alloc_failures()}};
}

Status measure(SwitchRig& rig, const SwitchOptions& o, BenchReport& rep) {
  auto st = run_one_lcore(
      {rig.source_bridge.get(), rig.sw.get(), rig.sink_bridge.get(), rig.upstream_bridge.get()},
      o.lcore, o.duration, {.window = o.catch_up, .max_polls = o.burst}, rep);
  if (!st) return Error{st.error().message};
  add_figures(rep, rig, st.value());
  return {};
}

}  // namespace

Status check_switch(const SwitchOptions& o) {
  if (o.frames == 0 || o.frames > 65'536) return Error{fmt::format("--frames {}: expected 1 .. 65536", o.frames)};
  if (o.payload == 0 || o.payload > 4'096) return Error{fmt::format("--payload {}: expected 1 .. 4096", o.payload)};
  return {};
}

uint64_t switch_pool_bytes(const SwitchOptions& o) { return pool_sizes(o).memory_bytes(); }

Expected<BenchReport> run_switch(const SwitchOptions& o) {
  static uint32_t runs = 0;
  const uint32_t run = runs++;
  if (Status s = check_switch(o); !s) return Error{s.message()};
  const std::string capture = !o.keep_capture.empty()
      ? o.keep_capture
      : (std::filesystem::temp_directory_path() / fmt::format("rocetb-switch-bench-{}-{}.pcap", getpid(), run)).string();
  auto frame_len = write_source_capture(capture, o.frames, o.payload);
  if (!frame_len) return Error{frame_len.error().message};
  BenchReport rep;
  rep.mode = "switch";
  rep.config = {{"payload_bytes", o.payload}, {"frames_in_capture", o.frames}, {"burst", o.burst},
                {"catch_up_ns", o.catch_up.ps() / 1000}, {"lcore", o.lcore},
                {"seconds", o.duration.s_f()}, {"rate_gbps", o.rate.bps() / 1e9}};
  Status result;
  // Realtime: an empty pool is counted and the run goes on (lib/runtime/pool/README.md).
  auto pools = runtime::PoolSet::create(pool_sizes(o), &wire::payload_byte, fmt::format("sw{}", run),
                                        runtime::OnEmpty::kCount);
  if (!pools) result = Error{pools.error().message};
  if (result) {
    {  // the rig (and the source PMD's copy of the capture) goes before the leak check
      SwitchRig rig(o, pools.value());
      result = build(rig, o, capture, run);
      if (result) result = measure(rig, o, rep);
    }
    if (result) result = pools.value().check_no_leaks();
  }
  if (o.keep_capture.empty()) std::filesystem::remove(capture);
  if (!result) return Error{result.message()};
  return rep;
}

}  // namespace rtb::bench
