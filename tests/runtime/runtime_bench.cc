// Cost of the virtual-time core per frame-hop: scheduler + wire link, measured on a ring
// of relay stages forwarding frames (every hop: send, serialization bookkeeping, arrival,
// wake, heap pop, poll, receive).
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "runtime/virtual_scheduler.h"
#include "runtime/wire_link.h"
#include "tests/runtime/eal_bench_main.h"
#include "tests/runtime/test_pool.h"

namespace rtb::runtime {
namespace {

class Relay final : public Stage {
 public:
  Relay(WireLink& in, WireLink& out, uint64_t hops_left)
      : Stage("relay"), in_(in), out_(out), hops_left_(hops_left) {}
  void poll(Time now) override {
    rte_mbuf* burst[32];
    const uint32_t n = in_.receive(now, burst, 32);
    for (uint32_t i = 0; i < n; ++i) pending_[count_++] = burst[i];
    while (count_ > 0 && out_.can_send(now)) {
      rte_mbuf* m = pending_[--count_];
      if (hops_left_ == 0) {
        rte_pktmbuf_free(m);
        continue;
      }
      --hops_left_;
      out_.send(now, m);
    }
  }
  Time next_deadline() const override {
    const Time a = in_.next_arrival();
    return count_ > 0 && out_.free_at() < a ? out_.free_at() : a;
  }
  void inject(rte_mbuf* m) { pending_[count_++] = m; }

 private:
  WireLink& in_;
  WireLink& out_;
  uint64_t hops_left_;
  rte_mbuf* pending_[4096];
  uint32_t count_ = 0;
};

void BM_FrameHop(benchmark::State& state) {
  const int stages = static_cast<int>(state.range(0));
  constexpr uint64_t kHopsPerStage = 200'000;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<std::unique_ptr<WireLink>> links;
    std::vector<std::unique_ptr<Relay>> relays;
    for (int i = 0; i < stages; ++i) {
      links.push_back(std::make_unique<WireLink>(
          WireLinkConfig{"l", Rate::gbps(100), Time::ns(500), Bytes(1'100)}));
    }
    VirtualScheduler s;
    for (int i = 0; i < stages; ++i) {
      relays.push_back(std::make_unique<Relay>(*links[i], *links[(i + 1) % stages], kHopsPerStage));
      for (int f = 0; f < 4; ++f) relays.back()->inject(testing::make_frame(1'078));
    }
    for (auto& r : relays) s.add(*r);
    for (int i = 0; i < stages; ++i) links[i]->connect_receiver(&s, relays[i]->id());
    state.ResumeTiming();
    s.run();
    state.PauseTiming();
    uint64_t hops = 0;
    for (auto& l : links) hops += l->counters().delivered;
    state.counters["frame_hops"] = benchmark::Counter(static_cast<double>(hops), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["ns_per_hop"] = benchmark::Counter(static_cast<double>(hops),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    relays.clear();
    links.clear();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_FrameHop)->Arg(2)->Arg(16)->Arg(128)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rtb::runtime

int main(int argc, char** argv) {
  return rtb::runtime::testing::eal_benchmark_main("runtime_bench", argc, argv);
}
