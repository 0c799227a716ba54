// The figures a sweep tabulates: paths into a point's summary.json (lib/testbed/README.md,
// "summary.json"), checked against that schema before anything runs.
//
//   totals.goodput_gbps                           one number
//   switches[0].ports[Ethernet32].queue_bytes.p99 [N]: position in the array;
//                                                 [NAME]: the element whose "name" is NAME
//   hosts[h8].rx_pfc_frames[3]                    a per-priority array, by priority
//   max(switches[*].ports[*].queue_bytes.p99)     [*]: every element, folded by max, min,
//                                                 sum or mean (nulls left out)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace rtb::sweep {

enum class Fold { kNone, kMax, kMin, kSum, kMean };

struct Step {
  std::string key;
  std::vector<std::string> selectors;  // "3", "*", "Ethernet32"
};

struct Metric {
  std::string name;  // as given: the column's name
  Fold fold = Fold::kNone;
  std::vector<Step> path;
};

// The metrics a sweep shows when --metrics is not given: goodput, the worst port's p99
// queue, PFC frames, the ECN mark rate, CNPs, drops, and the longest FCT (empty for
// long-lived flows).
const std::vector<std::string>& default_metrics();

// Every path summary.json has, arrays written "[]": "switches[].ports[].queue_bytes.p99".
const std::vector<std::string>& summary_schema();

// Parses and checks one metric: a path of the schema, [*] only inside max/min/sum/mean.
// The error is one line naming --metrics, the metric, what is wrong and the valid paths
// (the nearest one first when it looks like a typo).
Expected<Metric> parse_metric(const std::string& text);

// The metric's value in a summary: the number as summary.json writes it ("91.52", "1204"),
// true/false as 1/0, a fold's result; nullopt when the path is absent or null there (for a
// fold: when no element had a number).
std::optional<std::string> metric_value(const Metric& m, const nlohmann::json& summary);

}  // namespace rtb::sweep
