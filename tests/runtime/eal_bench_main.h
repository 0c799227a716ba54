// main() of a Google Benchmark program that needs the EAL (one EAL per process):
//   int main(int argc, char** argv) { return eal_benchmark_main("x_bench", argc, argv); }
#pragma once

#include <benchmark/benchmark.h>

#include "runtime/pool/eal.h"
#include "tests/runtime/test_eal.h"

namespace rtb::runtime::testing {

inline int eal_benchmark_main(const char* program, int argc, char** argv) {
  if (!start_test_eal(program)) return 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  (void)stop_eal();
  return 0;
}

}  // namespace rtb::runtime::testing
