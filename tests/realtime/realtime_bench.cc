// Costs on the realtime fast path: one loop iteration over 1 and 16 no-op stages (clock
// read, two virtual calls per stage, lateness record), the clock read alone, the tick
// conversion on its 64-bit and 128-bit paths, and a histogram record.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "realtime/lateness_histogram.h"
#include "realtime/lcore_loop.h"
#include "realtime/tsc_clock.h"
#include "realtime/tsc_ticks.h"
#include "runtime/pool/eal.h"

namespace rtb::realtime {
namespace {

class NoopStage final : public runtime::Stage {
 public:
  NoopStage() : Stage("noop") {}
  void poll(Time now) override { benchmark::DoNotOptimize(now); }
  Time next_deadline() const override { return Time::zero(); }  // always due: measured
};

const TscClock& bench_clock() {
  static const TscClock clock = [] {
    TscClock c = TscClock::calibrate();
    c.start();
    return c;
  }();
  return clock;
}

void BM_LoopIteration(benchmark::State& state) {
  std::vector<std::unique_ptr<NoopStage>> stages;
  LcoreLoop loop(0);
  for (int i = 0; i < state.range(0); ++i) {
    stages.push_back(std::make_unique<NoopStage>());
    loop.add(*stages.back());
  }
  const TscClock& clock = bench_clock();
  for (auto _ : state) loop.iterate(clock.now());
  state.counters["polls"] = benchmark::Counter(
      static_cast<double>(loop.polls()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LoopIteration)->Arg(1)->Arg(16);

void BM_TscClockNow(benchmark::State& state) {
  const TscClock& clock = bench_clock();
  for (auto _ : state) benchmark::DoNotOptimize(clock.now());
}
BENCHMARK(BM_TscClockNow);

void BM_TickConversion(benchmark::State& state) {
  // 2,100,000 kHz takes the 64-bit path; 2,100,000,001 Hz the 128-bit one.
  const TickConverter c(state.range(0) == 0 ? 2'100'000'000 : 2'100'000'001, 1);
  uint64_t ticks = 123'456'789'012ULL;
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.to_time(ticks));
    ticks += 977;
  }
  state.SetLabel(c.fits_64() ? "64-bit" : "128-bit");
}
BENCHMARK(BM_TickConversion)->Arg(0)->Arg(1);

void BM_LatenessRecord(benchmark::State& state) {
  LatenessHistogram h;
  uint64_t ps = 1;
  for (auto _ : state) {
    h.record(Time::ps(ps));
    ps = ps * 3 % 1'000'000'007;
  }
  benchmark::DoNotOptimize(h.count());
}
BENCHMARK(BM_LatenessRecord);

}  // namespace
}  // namespace rtb::realtime

int main(int argc, char** argv) {
  rtb::runtime::EalOptions o;
  o.program = "realtime_bench";
  o.memory_mb = 128;
  if (rtb::Status s = rtb::runtime::start_eal(o); !s) {
    std::fprintf(stderr, "realtime_bench: %s\n", s.message().c_str());
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  (void)rtb::runtime::stop_eal();
  return 0;
}
