// Virtual-time speed of closed loops: simulated frame-hops (frames delivered by any wire
// link) per wall-clock second, for
//  - two hosts at 100 Gb/s through one switch, one QP under DCQCN (mlx5 defaults), and
//  - 1,000 QPs on one host sending to another over a 100 Gb/s cable, under DCQCN.
// Each run covers 10 ms of simulated time. ICRC checking on receive is off (a scenario's
// choice; the frames still carry valid ICRCs).
#include <benchmark/benchmark.h>

#include <optional>

#include "host/host.h"
#include "runtime/pool/eal.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "switch/switch.h"
#include "tests/host/host_fixture.h"
#include "wire/payload_pattern.h"

namespace rtb::host {
namespace {

std::optional<runtime::PoolSet> g_pools;

uint64_t delivered(std::initializer_list<const runtime::WireLink*> links) {
  uint64_t n = 0;
  for (const auto* l : links) n += l->counters().delivered;
  return n;
}

void report(benchmark::State& state, uint64_t hops, double sim_seconds) {
  state.counters["frame_hops_per_s"] =
      benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["sim_s_per_wall_s"] =
      benchmark::Counter(sim_seconds, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_TwoHostsThroughASwitchDcqcn(benchmark::State& state) {
  const Time duration = Time::ms(10);
  cc::Controller dcqcn = testing::controller("dcqcn");
  uint64_t hops = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const Time prop = Time::ns(35);
    runtime::WireLink a_sw({"a->sw", Rate::gbps(100), prop, Bytes(9'216)});
    runtime::WireLink sw_a({"sw->a", Rate::gbps(100), prop, Bytes(9'216)});
    runtime::WireLink b_sw({"b->sw", Rate::gbps(100), prop, Bytes(9'216)});
    runtime::WireLink sw_b({"sw->b", Rate::gbps(100), prop, Bytes(9'216)});
    sw::SwitchConfig cfg = sw::tuning_guide_config(2, Rate::gbps(100));
    cfg.routes = {sw::Route{testing::ip(1), 32, {0}}, sw::Route{testing::ip(2), 32, {1}}};
    auto sw = sw::Switch::make(cfg, {{&a_sw, &sw_a}, {&b_sw, &sw_b}},
                               &g_pools->control(), 1);
    HostConfig ca = testing::host_config("a", 1), cb = testing::host_config("b", 2);
    ca.check_icrc = cb.check_icrc = false;
    HostPools hp{&g_pools->data(), &g_pools->control()};
    auto a = std::move(Host::create(ca, {{&a_sw, &sw_a}}, dcqcn, hp, 1)).value();
    auto b = std::move(Host::create(cb, {{&b_sw, &sw_b}}, dcqcn, hp, 1)).value();
    QpSpec sa, sb;
    sa.peer_qpn = b->qpn(0);
    sa.peer_ip = testing::ip(2);
    sb.peer_qpn = a->qpn(0);
    sb.peer_ip = testing::ip(1);
    (void)a->add_qp(sa);
    (void)b->add_qp(sb);
    a->post(0, 1'000'000'000, Time::zero());
    runtime::VirtualScheduler s;
    s.add(*a);
    s.add(*b);
    s.add(*sw.value());
    a_sw.connect_receiver(&s, sw.value()->id());
    b_sw.connect_receiver(&s, sw.value()->id());
    sw_a.connect_receiver(&s, a->id());
    sw_b.connect_receiver(&s, b->id());
    state.ResumeTiming();
    s.run(duration);
    state.PauseTiming();
    hops = delivered({&a_sw, &sw_a, &b_sw, &sw_b});
    sw.value()->drain();
    for (auto* l : {&a_sw, &sw_a, &b_sw, &sw_b}) l->drain();
    state.ResumeTiming();
  }
  report(state, hops, duration.s_f());
}
BENCHMARK(BM_TwoHostsThroughASwitchDcqcn)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ThousandQpsOnOneHost(benchmark::State& state) {
  const Time duration = Time::ms(10);
  const auto qps = static_cast<uint32_t>(state.range(0));
  cc::Controller dcqcn = testing::controller("dcqcn");
  uint64_t hops = 0;
  for (auto _ : state) {
    state.PauseTiming();
    HostConfig ca = testing::host_config("a", 1), cb = testing::host_config("b", 2);
    ca.check_icrc = cb.check_icrc = false;
    auto t = std::make_unique<testing::TwoHosts>(dcqcn, dcqcn, ca, cb, qps, Rate::gbps(100),
                                                 Time::us(1));
    t->connect(qps);
    for (uint32_t q = 0; q < qps; ++q) t->a->post(q, 100'000'000, Time::ns(q));
    state.ResumeTiming();
    t->run(duration);
    state.PauseTiming();
    hops = delivered({&t->ab, &t->ba});
    t.reset();
    state.ResumeTiming();
  }
  report(state, hops, duration.s_f());
}
BENCHMARK(BM_ThousandQpsOnOneHost)->Arg(1'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace rtb::host

rtb::runtime::PoolSet& rtb::host::testing::pools() { return *rtb::host::g_pools; }

int main(int argc, char** argv) {
  rtb::runtime::PoolSizes sizes;
  sizes.data_count = 32'767;
  sizes.data_room = RTE_PKTMBUF_HEADROOM + 4'096 + 256;
  sizes.control_count = 16'383;
  sizes.control_room = RTE_PKTMBUF_HEADROOM + 256;
  // A per-lcore cache makes allocation LIFO: a freed mbuf comes back hot in the CPU cache.
  sizes.cache_size = 512;
  rtb::runtime::EalOptions eal;
  eal.program = "host_bench";
  eal.pool_bytes = sizes.memory_bytes();
  if (!rtb::runtime::start_eal(eal)) return 1;
  auto pools = rtb::runtime::PoolSet::create(sizes, &rtb::wire::payload_byte, "bench");
  if (!pools) return 1;
  rtb::host::g_pools.emplace(std::move(pools).value());
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  rtb::host::g_pools.reset();
  (void)rtb::runtime::stop_eal();
  return 0;
}
