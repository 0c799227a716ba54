#include "plan/ecn_suggestion.h"

#include <fmt/format.h>

namespace rtb::plan {

EcnSuggestion suggest_ecn(Rate rate, Bytes xoff_point) {
  EcnSuggestion s;
  const uint64_t mbps = rate.bps() / 1'000'000;
  // 100 KB x bw/25 = 4 B per Mb/s; 400 KB x bw/25 = 16 B per Mb/s.
  s.kmin = Bytes(4 * mbps);
  s.kmax = Bytes(16 * mbps);
  s.pmax_percent = 20;
  s.source = fmt::format(
      "HPCC ns-3 run.py (DCQCN): Kmin = 100 KB x {:g}/25 = {} B, Kmax = 400 KB x {:g}/25 = {} B, "
      "Pmax = 0.2 = 20 %", rate.gbps_f(), s.kmin.count(), rate.gbps_f(), s.kmax.count());
  if (s.kmax < xoff_point) return s;
  const Bytes kmax = Bytes(xoff_point.count() / 2);
  s.cap = fmt::format(
      "Kmax {} B is not below the XOFF point {} B: lowered to half of it, {} B, and Kmin to a "
      "quarter of that, {} B (rocetb's rule: ECN before PFC, the 1:4 ratio kept)",
      s.kmax.count(), xoff_point.count(), kmax.count(), kmax.count() / 4);
  s.kmax = kmax;
  s.kmin = Bytes(kmax.count() / 4);
  return s;
}

std::string ecn_comparison() {
  return "published sets: DCQCN paper 5 KB / 200 KB / 1 % at 40 Gb/s (Zhu et al. 2015, via the "
         "authors' fluid model); SONiC AZURE_LOSSLESS 1048576 B / 2097152 B / 5 % (qos_config.j2); "
         "RoCE tuning guides 150 KB / 1.2 MB / 5 %";
}

}  // namespace rtb::plan
