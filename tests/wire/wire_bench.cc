// ns per frame: build with ICRC (incremental tables, and full CRC for comparison) and
// parse, for a 1024-byte-payload RDMA WRITE frame. Run:
//   ninja -C build-wire tests/wire/wire_bench && build-wire/tests/wire/wire_bench
#include <benchmark/benchmark.h>

#include <vector>

#include "wire/flow_template.h"
#include "wire/icrc.h"
#include "wire/opcode.h"
#include "wire/parser.h"
#include "wire/frame_samples.h"
#include "wire/payload_pattern.h"

namespace rtb::wire {
namespace {

FlowTemplate bench_template() { return *FlowTemplate::make(sample_requester_spec()); }

struct Bench {
  FlowTemplate t = bench_template();
  std::vector<uint8_t> buf = std::vector<uint8_t>(kMaxHeaderBytes + 1024 + kTailBytes);
  uint8_t* payload() { return buf.data() + kMaxHeaderBytes; }
  Bench() { write_payload_pattern(payload(), 1024); }
};

void BM_BuildWriteIncrementalIcrc(benchmark::State& st) {
  Bench b;
  uint32_t psn = 0;
  for (auto _ : st) {
    const FrameSpan f = b.t.build_data(
        DataFields{op::kWriteMiddle, psn++, 1024, false, false, Ecn::Ect0, {}, 0}, b.payload());
    benchmark::DoNotOptimize(f.data);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BuildWriteIncrementalIcrc);

void BM_BuildWriteFirstIncrementalIcrc(benchmark::State& st) {
  Bench b;
  uint32_t psn = 0;
  for (auto _ : st) {
    const FrameSpan f = b.t.build_data(DataFields{op::kWriteFirst, psn++, 1024, false, false,
                                                  Ecn::Ect0, RethFields{psn, 7, 1 << 20}, 0},
                                       b.payload());
    benchmark::DoNotOptimize(f.data);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BuildWriteFirstIncrementalIcrc);

// The same frame, then its ICRC recomputed in full (masked copy + rte_net_crc).
void BM_BuildWriteFullIcrc(benchmark::State& st) {
  Bench b;
  uint32_t psn = 0;
  for (auto _ : st) {
    const FrameSpan f = b.t.build_data(
        DataFields{op::kWriteMiddle, psn++, 1024, false, false, Ecn::Ect0, {}, 0}, b.payload());
    const uint32_t covered = f.len - 14 - kIcrcBytes;
    store_icrc(f.data + 14 + covered, icrc_full(f.data + 14, covered));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BuildWriteFullIcrc);

void BM_ParseWrite(benchmark::State& st, bool check_icrc) {
  Bench b;
  const FrameSpan f = b.t.build_data(
      DataFields{op::kWriteMiddle, 1, 1024, false, false, Ecn::Ect0, {}, 0}, b.payload());
  ParseOptions o;
  o.check_icrc = check_icrc;
  ParsedFrame p;
  for (auto _ : st) {
    benchmark::DoNotOptimize(parse_frame(f.data, f.len, o, p));
    benchmark::DoNotOptimize(p.psn);
  }
}
BENCHMARK_CAPTURE(BM_ParseWrite, no_icrc_check, false);
BENCHMARK_CAPTURE(BM_ParseWrite, icrc_check, true);

}  // namespace
}  // namespace rtb::wire

BENCHMARK_MAIN();
