// Cost per frame of the realtime port path on this machine's CPU:
//  - NullTx: tx bursts of 32 frames into net_null (the PMD frees them), frames reallocated
//    in bulk each burst: the floor of a port's tx path.
//  - BridgeRingPair: a burst of 32 frames placed on a WireLink, bridge A takes and sends
//    them into a ring pair, bridge B receives and delivers them onto a second WireLink, the
//    frames are taken off and recycled: one frame crossing a cable between two lcores
//    (here on one core), bridges and links included.
// Items per second = frames per second.
#include <benchmark/benchmark.h>

#include <stdexcept>

#include "ethport/eth_bridge.h"
#include "runtime/pool/mbuf_pool.h"
#include "tests/runtime/eal_bench_main.h"

namespace rtb::ethport {
namespace {

constexpr uint16_t kBurst = 32;

runtime::MbufPool make_pool(const char* name) {
  auto p = runtime::MbufPool::create({.name = name, .count = 4095,
                                      .data_room = RTE_PKTMBUF_HEADROOM + 2048});
  if (!p) throw std::runtime_error(p.error().message);
  return std::move(p).value();
}

void BM_NullTx(benchmark::State& state) {
  auto pool = make_pool("bench_null");
  auto port = EthPort::open({.device = "net_null0,no-rx=1"}, pool.mempool());
  if (!port) {
    state.SkipWithError(port.error().message.c_str());
    return;
  }
  rte_mbuf* burst[kBurst];
  for (auto _ : state) {
    if (rte_pktmbuf_alloc_bulk(pool.mempool(), burst, kBurst) != 0) break;
    for (rte_mbuf* m : burst) rte_pktmbuf_append(m, 64);
    uint16_t sent = 0;
    while (sent < kBurst) {
      sent = static_cast<uint16_t>(sent + port.value()->tx(burst + sent, kBurst - sent));
    }
  }
  state.SetItemsProcessed(state.iterations() * kBurst);
}
BENCHMARK(BM_NullTx);

void BM_BridgeRingPair(benchmark::State& state) {
  auto pool = make_pool("bench_ring");
  auto pair = EthPort::ring_pair("bench");
  if (!pair) {
    state.SkipWithError(pair.error().message.c_str());
    return;
  }
  runtime::WireLink out({.name = "a->port"}), in({.name = "port->b"});
  EthBridge a("a", *pair.value().first, &out, nullptr);
  EthBridge b("b", *pair.value().second, nullptr, &in);
  rte_mbuf* burst[kBurst];
  if (rte_pktmbuf_alloc_bulk(pool.mempool(), burst, kBurst) != 0) return;
  for (rte_mbuf* m : burst) rte_pktmbuf_append(m, 64);
  Time now = Time::zero();
  for (auto _ : state) {
    now += Time::ns(100);
    for (rte_mbuf* m : burst) out.deliver(now, m);
    a.poll(now);
    b.poll(now);
    if (in.receive(now, burst, kBurst) != kBurst) {
      state.SkipWithError("frames went missing");
      break;
    }
  }
  rte_pktmbuf_free_bulk(burst, kBurst);
  state.SetItemsProcessed(state.iterations() * kBurst);
}
BENCHMARK(BM_BridgeRingPair);

}  // namespace
}  // namespace rtb::ethport

int main(int argc, char** argv) {
  return rtb::runtime::testing::eal_benchmark_main("ethport_bench", argc, argv);
}
