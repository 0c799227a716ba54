// Suggested ECN marking thresholds (WRED_PROFILE green min/max/probability) for DCQCN on
// a lossless queue, with where the numbers come from.
#pragma once

#include <cstdint>
#include <string>

#include "core/units.h"

namespace rtb::plan {

struct EcnSuggestion {
  Bytes kmin;
  Bytes kmax;
  uint32_t pmax_percent = 0;
  std::string source;  // the rule and its arithmetic
  std::string cap;     // empty unless the rule's values were lowered below the XOFF point
};

// The HPCC authors' simulator (alibaba-edu/High-Precision-Congestion-Control
// simulation/run.py, DCQCN): Kmin = 100 KB x bw/25, Kmax = 400 KB x bw/25, Pmax = 0.2,
// bw in Gb/s (reference §1.2.b KMIN_MAP/KMAX_MAP/PMAX_MAP). ECN must act before PFC, so
// when that Kmax is not below `xoff_point` both are scaled down, keeping Kmin:Kmax = 1:4,
// until Kmax is half the XOFF point (rocetb's rule, not a published one).
EcnSuggestion suggest_ecn(Rate rate, Bytes xoff_point);

// The published sets beside the suggestion, one line: the DCQCN paper's (5 KB / 200 KB /
// 1 % at 40 Gb/s) and SONiC's AZURE_LOSSLESS WRED profile (1 MiB / 2 MiB / 5 %).
std::string ecn_comparison();

}  // namespace rtb::plan
