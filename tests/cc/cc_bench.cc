// Google Benchmark figures for the cc area: DCQCN ns per event kind, pacer ns per packet
// at 1 to 10^6 flows, and bytes of per-flow state per algorithm.
//   build-cc/tests/cc/cc_bench
#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "cc_algos/controller.h"
#include "cc_algos/flow_table.h"
#include "cc_algos/pacer/pacer.h"
#include "cc_algos/registry.h"
#include "core/rng.h"

namespace rtb::cc {
namespace {

Controller make(std::string_view name) {
  return std::move(configure(*Registry::with_builtins().find(name), {})).value();
}

// A CNP every 5 us on a congested flow (a cut every monitor period, alpha caught up).
void BM_DcqcnCnp(benchmark::State& st) {
  const Controller c = make(st.range(0) ? "dcqcn_paper" : "dcqcn");
  auto t = std::move(FlowTable::create(c.algorithm(), 1)).value();
  c.start(t.state(0), FlowStart{Rate::gbps(100)}, Time::zero());
  uint64_t now = 0;
  for (auto _ : st) {
    now += 5'000'000;
    benchmark::DoNotOptimize(c.on_cnp(t.state(0), Time::ps(now)));
  }
  st.SetLabel(std::string(c.algorithm().name()));
}
BENCHMARK(BM_DcqcnCnp)->Arg(0)->Arg(1);

// One 4 KiB frame sent every 330 ns (about 100 Gb/s) on a recovering flow.
void BM_DcqcnBytesSent(benchmark::State& st) {
  const Controller c = make(st.range(0) ? "dcqcn_paper" : "dcqcn");
  auto t = std::move(FlowTable::create(c.algorithm(), 1)).value();
  c.start(t.state(0), FlowStart{Rate::gbps(100)}, Time::zero());
  c.on_cnp(t.state(0), Time::zero());
  c.on_cnp(t.state(0), Time::us(1));
  uint64_t now = 1'000'000;
  uint64_t i = 0;
  for (auto _ : st) {
    now += 330'000;
    if ((++i & 0xffff) == 0) c.on_cnp(t.state(0), Time::ps(now));  // keep it below line rate
    benchmark::DoNotOptimize(c.on_bytes_sent(t.state(0), Bytes(4096), Time::ps(now)));
  }
  st.SetLabel(std::string(c.algorithm().name()));
}
BENCHMARK(BM_DcqcnBytesSent)->Arg(0)->Arg(1);

// The host firing each deadline the algorithm asks for (cuts and increase timers).
void BM_DcqcnTimer(benchmark::State& st) {
  const Controller c = make(st.range(0) ? "dcqcn_paper" : "dcqcn");
  auto t = std::move(FlowTable::create(c.algorithm(), 1)).value();
  c.start(t.state(0), FlowStart{Rate::gbps(100)}, Time::zero());
  Decision d = c.on_cnp(t.state(0), Time::zero());
  d = c.on_cnp(t.state(0), Time::us(1));
  Time now = Time::us(1);
  uint64_t i = 0;
  for (auto _ : st) {
    if (d.next_deadline.is_never() || (++i & 0xff) == 0) {  // re-congest now and then
      now = now + Time::us(1);
      d = c.on_cnp(t.state(0), now);
      continue;
    }
    now = d.next_deadline;
    d = c.on_timer(t.state(0), now);
    benchmark::DoNotOptimize(d);
  }
  st.SetLabel(std::string(c.algorithm().name()));
}
BENCHMARK(BM_DcqcnTimer)->Arg(0)->Arg(1);

// Pacer: ns per packet (poll + sent) with N ready flows at mixed rates, in steady state,
// served as the host serves them: in the order poll releases them. Each flow starts at a
// random phase within one mean gap, as flows that have been sending for a while are;
// starting them all within the same microsecond instead would put 10^6 packets into the
// first ten slots, a burst no host makes (about 8 Pb/s). Counters: the pacer's memory per
// flow at this N (records, chunk pool and the wheel's fixed part shared out) and the
// compactions seen (none expected: no flow blocks).
void BM_PacerPerPacket(benchmark::State& st) {
  const uint32_t flows = static_cast<uint32_t>(st.range(0));
  Pacer p = std::move(Pacer::create(PacerConfig{flows})).value();
  Rng rng(1, flows);
  // Aggregate about 400 Gb/s however many flows, so the wheel is equally busy.
  const uint64_t per_flow_bps = 400'000'000'000ULL / flows;
  const uint64_t gap_ps = Rate::bps(per_flow_bps).time_for(Bytes(1000)).ps();
  for (uint32_t f = 0; f < flows; ++f) {
    p.set_rate(f, Rate::bps(per_flow_bps / 2 + rng.uniform_int(per_flow_bps)), Time::zero());
    p.ready(f, Time::ps(rng.uniform_int(gap_ps)));
  }
  std::array<FlowIndex, 32> out;
  size_t n = 0, i = 0;
  Time now;
  for (auto _ : st) {
    if (i == n) {
      now = p.next_deadline();
      n = p.poll(now, out);
      i = 0;
    }
    p.sent(out[i++], Bytes(1000), now, true);
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["compactions"] = static_cast<double>(p.compactions());
  st.counters["bytes_per_flow"] =
      static_cast<double>(Pacer::bytes_per_flow() + p.wheel_bytes() / flows);
}
BENCHMARK(BM_PacerPerPacket)->Arg(1)->Arg(10'000)->Arg(100'000)->Arg(1'000'000);

void BM_StateBytesPerFlow(benchmark::State& st) {
  const Registry r = Registry::with_builtins();
  for (auto _ : st) benchmark::DoNotOptimize(r.names());
  for (const Algorithm& a : r.algorithms())
    st.counters[std::string(a.name())] = static_cast<double>(a.state_bytes());
  st.counters["pacer"] = static_cast<double>(Pacer::bytes_per_flow());
  st.counters["np_qp"] = static_cast<double>(sizeof(NpQpState));
}
BENCHMARK(BM_StateBytesPerFlow)->Iterations(1);

}  // namespace
}  // namespace rtb::cc

BENCHMARK_MAIN();
