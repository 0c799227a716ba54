#include "results/fct_slowdown.h"

#include <algorithm>
#include <numeric>

#include "core/nearest_rank.h"

namespace rtb::results {
namespace {

constexpr size_t kSizeGroups = 20;

struct Finished {
  uint64_t size_bytes;
  double slowdown;
};

SlowdownPercentiles percentiles(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return SlowdownPercentiles{nearest_rank(x, 50), nearest_rank(x, 95), nearest_rank(x, 99)};
}

std::vector<SizeGroup> by_size(const std::vector<Finished>& flows) {
  std::vector<SizeGroup> groups;
  const size_t n = flows.size();
  for (size_t g = 0; g < kSizeGroups; ++g) {
    const size_t lo = g * n / kSizeGroups, hi = (g + 1) * n / kSizeGroups;
    if (hi == lo) continue;
    std::vector<double> x;
    for (size_t i = lo; i < hi; ++i) x.push_back(flows[i].slowdown);
    groups.push_back(SizeGroup{flows[hi - 1].size_bytes, hi - lo, percentiles(std::move(x))});
  }
  return groups;
}

}  // namespace

std::optional<FctSlowdown> fct_slowdown(const std::vector<FlowResult>& all) {
  std::vector<Finished> flows;
  for (const FlowResult& f : all) {
    if (f.fct_slowdown) flows.push_back({f.size_bytes.value_or(0), *f.fct_slowdown});
  }
  if (flows.empty()) return std::nullopt;
  std::stable_sort(flows.begin(), flows.end(),
                   [](const Finished& a, const Finished& b) { return a.size_bytes < b.size_bytes; });
  std::vector<double> x;
  for (const Finished& f : flows) x.push_back(f.slowdown);
  FctSlowdown out;
  out.flows = x.size();
  out.mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  out.all = percentiles(x);
  out.max = *std::max_element(x.begin(), x.end());
  out.by_size = by_size(flows);
  return out;
}

}  // namespace rtb::results
