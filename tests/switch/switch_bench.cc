// ns per forwarded frame through the switch stage: receive from a wire link, classify,
// route, MMU admission, WRED/ECN at dequeue (Kmin = 0, so every frame draws), DWRR pick,
// MMU release, send on a wire link. Virtual time advances one frame time per frame; the
// frame comes back out of the egress link and is sent again (no allocation per frame).
#include <benchmark/benchmark.h>
#include <cstdio>

#include "tests/switch/test_hosts.h"
#include "tests/runtime/eal_bench_main.h"

namespace rtb::sw {
namespace {

void BM_ForwardFrame(benchmark::State& state) {
  const int ports = static_cast<int>(state.range(0));
  SwitchConfig c = tuning_guide_config(ports, Rate::gbps(400));
  c.wred[3] = WredProfile{Bytes(0), Bytes::mb(1), 100, false, EcnMode::kAll};
  std::vector<std::unique_ptr<runtime::Cable>> cables;
  std::vector<PortLinks> links;
  for (int i = 0; i < ports; ++i) {
    const runtime::WireLinkConfig lc{"l" + std::to_string(i), Rate::gbps(400), Time::zero(), Bytes(9'216)};
    cables.push_back(std::make_unique<runtime::Cable>(lc, lc));
    links.push_back({&cables.back()->ab, &cables.back()->ba});
    c.routes.push_back({testing::host_ip(i), 32, {static_cast<uint16_t>(i)}});
  }
  auto sw = Switch::make(c, links, &runtime::testing::test_control_pool(), 1);
  if (!sw.ok()) {
    state.SkipWithError(sw.error().message.c_str());
    return;
  }
  rte_mbuf* frame = testing::roce_frame(0, ports - 1, 0);
  runtime::WireLink& in = cables[0]->ab;
  runtime::WireLink& out = cables[static_cast<size_t>(ports - 1)]->ba;
  const Time step = Rate::gbps(400).time_for(runtime::wire_occupancy(rte_pktmbuf_pkt_len(frame)));
  Time now;
  for (auto _ : state) {
    in.send(now, frame);
    now += step;
    (*sw)->poll(now);
    now += step;
    out.receive(now, &frame, 1);
  }
  state.counters["ecn_marked"] = static_cast<double>((*sw)->counters(now).ports[ports - 1].queues[3].ecn_marked_packets);
  rte_pktmbuf_free(frame);
}
BENCHMARK(BM_ForwardFrame)->Arg(2)->Arg(32);

}  // namespace
}  // namespace rtb::sw

int main(int argc, char** argv) {
  return rtb::runtime::testing::eal_benchmark_main("switch_bench", argc, argv);
}
