// FCT slowdown figures, as the HPCC paper plots them (Li et al., SIGCOMM 2019, Figs. 9-11)
// and as its simulator's analysis computes them (analysis/fct_analysis.py): finished flows
// sorted by size, cut into groups of equal count (5 % of the flows each, its default
// step), each group's median, 95th and 99th percentile slowdown beside its largest size.
// Percentiles here are nearest-rank (core/nearest_rank.h), as every percentile of the
// summary; the simulator's script indexes a[int(n p)], one value higher at most.
#include <algorithm>
#include <numeric>

#include "core/nearest_rank.h"
#include "testbed/summary_parts.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

constexpr size_t kSizeGroups = 20;

struct Finished {
  uint64_t size_bytes;
  double slowdown;
};

ordered_json percentiles(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return ordered_json{{"p50", nearest_rank(x, 50)}, {"p95", nearest_rank(x, 95)}, {"p99", nearest_rank(x, 99)}};
}

ordered_json by_size(const std::vector<Finished>& flows) {
  ordered_json groups = ordered_json::array();
  const size_t n = flows.size();
  for (size_t g = 0; g < kSizeGroups; ++g) {
    const size_t lo = g * n / kSizeGroups, hi = (g + 1) * n / kSizeGroups;
    if (hi == lo) continue;
    std::vector<double> x;
    for (size_t i = lo; i < hi; ++i) x.push_back(flows[i].slowdown);
    ordered_json j{{"size_max_bytes", flows[hi - 1].size_bytes}, {"flows", hi - lo}};
    j.update(percentiles(std::move(x)));
    groups.push_back(std::move(j));
  }
  return groups;
}

}  // namespace

ordered_json fct_slowdown_json(const std::vector<FlowFigures>& figures) {
  std::vector<Finished> flows;
  for (const FlowFigures& f : figures) {
    if (f.slowdown) flows.push_back({f.size_bytes, *f.slowdown});
  }
  if (flows.empty()) return nullptr;
  std::stable_sort(flows.begin(), flows.end(),
                   [](const Finished& a, const Finished& b) { return a.size_bytes < b.size_bytes; });
  std::vector<double> x;
  for (const Finished& f : flows) x.push_back(f.slowdown);
  const double sum = std::accumulate(x.begin(), x.end(), 0.0);
  ordered_json j{{"flows", flows.size()}, {"mean", sum / static_cast<double>(x.size())}};
  j.update(percentiles(x));
  j["max"] = *std::max_element(x.begin(), x.end());
  j["by_size"] = by_size(flows);
  return j;
}

}  // namespace rtb::testbed
