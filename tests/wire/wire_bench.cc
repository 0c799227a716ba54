// ns per frame: build with ICRC (incremental tables, and full CRC for comparison),
// parse, and verify the ICRC of a received frame (masked copy vs in place, on each
// rte_net_crc path), for a 1024-byte-payload RDMA WRITE frame. Runs under the EAL, as the
// datapath does (start_eal selects the fastest CRC path). Run:
//   ninja -C build-dev tests/wire/wire_bench && build-dev/tests/wire/wire_bench
#include <benchmark/benchmark.h>

#include <vector>

#include "tests/runtime/eal_bench_main.h"
#include "wire/crc_path.h"
#include "wire/flow_template.h"
#include "wire/icrc.h"
#include "wire/icrc_in_place.h"
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

// The receive check of a WRITE Middle frame (1024 payload bytes, 1048 covered): the
// masked copy (icrc_full, the former path) or in place (icrc_in_place), on one path.
using IcrcFn = uint32_t (*)(const uint8_t*, uint32_t);

void BM_VerifyWrite(benchmark::State& st, IcrcFn icrc, CrcPath path) {
  if (set_crc_path(path) != path) {
    st.SkipWithError("this CRC path is not available on this CPU and EAL");
    set_fastest_crc_path();
    return;
  }
  Bench b;
  const FrameSpan f = b.t.build_data(
      DataFields{op::kWriteMiddle, 1, 1024, false, false, Ecn::Ect0, {}, 0}, b.payload());
  const uint32_t covered = f.len - 14 - kIcrcBytes;
  const uint32_t stored = load_icrc(f.data + 14 + covered);
  for (auto _ : st) {
    benchmark::DoNotOptimize(icrc(f.data + 14, covered) == stored);
  }
  set_fastest_crc_path();
}
BENCHMARK_CAPTURE(BM_VerifyWrite, copy_scalar, icrc_full, CrcPath::Scalar);
BENCHMARK_CAPTURE(BM_VerifyWrite, in_place_scalar, icrc_in_place, CrcPath::Scalar);
BENCHMARK_CAPTURE(BM_VerifyWrite, copy_sse42, icrc_full, CrcPath::Sse42);
BENCHMARK_CAPTURE(BM_VerifyWrite, in_place_sse42, icrc_in_place, CrcPath::Sse42);
BENCHMARK_CAPTURE(BM_VerifyWrite, copy_avx512, icrc_full, CrcPath::Avx512);
BENCHMARK_CAPTURE(BM_VerifyWrite, in_place_avx512, icrc_in_place, CrcPath::Avx512);
BENCHMARK_CAPTURE(BM_VerifyWrite, copy_isal, icrc_full, CrcPath::Isal);
BENCHMARK_CAPTURE(BM_VerifyWrite, in_place_isal, icrc_in_place, CrcPath::Isal);

}  // namespace
}  // namespace rtb::wire

int main(int argc, char** argv) {
  return rtb::runtime::testing::eal_benchmark_main("wire_bench", argc, argv);
}
