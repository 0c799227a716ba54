#include "bench/bench_eal.h"

#include <unistd.h>

#include <fmt/format.h>

#include <fstream>

#include "runtime/pool/eal.h"

namespace rtb::bench {

Status start_bench_eal(const std::string& program, const std::vector<unsigned>& lcores,
                       uint64_t pool_bytes, const std::vector<std::string>& extra) {
  if (Status s = runtime::check_lcores_usable(lcores); !s) return Error{"--lcores: " + s.message()};
  runtime::EalOptions eal;
  eal.program = program;
  eal.main_lcore = lcores.front();
  eal.worker_lcores.assign(lcores.begin() + 1, lcores.end());
  eal.pool_bytes = pool_bytes;
  eal.extra = extra;
  return runtime::start_eal(eal);
}

uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace rtb::bench
