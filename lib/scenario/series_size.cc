#include "scenario/series_size.h"

#include <fmt/format.h>

#include <utility>

namespace rtb::scenario {
namespace {

constexpr uint64_t kFewRows = 1'000'000;

// The finest of 1, 2, 5 x 10^k ns coarser than run.sample_interval that gives at most
// kFewRows rows (or reaches run.duration).
Time coarser_interval(const Scenario& s, const SeriesSize& z) {
  const uint64_t per_sample = z.flows + z.queues;
  for (uint64_t decade = 1;; decade *= 10) {
    for (uint64_t m : {1, 2, 5}) {
      const Time t = Time::ns(m * decade);
      if (t <= s.run.sample_interval) continue;
      if ((s.run.duration / t + 1) * per_sample <= kFewRows || t >= s.run.duration) return t;
    }
  }
}

// As a scenario writes it: "10us", "21301ms".
std::string span(Time t) {
  const uint64_t ps = t.ps();
  for (const auto& [unit, size] : {std::pair{"s", 1'000'000'000'000ull}, std::pair{"ms", 1'000'000'000ull},
                                   std::pair{"us", 1'000'000ull}, std::pair{"ns", 1'000ull}}) {
    if (ps % size == 0) return fmt::format("{}{}", ps / size, unit);
  }
  return fmt::format("{}ps", ps);
}

}  // namespace

uint8_t sampled_priorities(const Scenario& s) {
  uint8_t priorities = s.replayed_priorities;
  for (const Flow& f : s.flows) priorities |= static_cast<uint8_t>(1u << f.priority);
  return priorities;
}

SeriesSize series_size(const Scenario& s) {
  const uint8_t priorities = sampled_priorities(s);
  uint64_t ports = 0;
  for (const SwitchNode& sw : s.topology.switches) ports += sw.port_links.size();
  return {static_cast<uint64_t>(s.run.duration / s.run.sample_interval) + 1, s.flows.size(),
          ports * static_cast<uint64_t>(__builtin_popcount(priorities))};
}

void warn_series_size(const Scenario& s, std::vector<std::string>& warnings) {
  const SeriesSize z = series_size(s);
  if (z.rows() <= kManySeriesRows) return;
  const Time coarser = coarser_interval(s, z);
  const uint64_t fewer = (static_cast<uint64_t>(s.run.duration / coarser) + 1) * (z.flows + z.queues);
  warnings.push_back(fmt::format(
      "run.sample_interval = {} over run.duration = {}: {} samples of {} flows and {} queues are {:.1f} million "
      "rows of flows.csv and queues.csv (gigabytes on disk, minutes to plot): run.sample_interval = \"{}\" writes "
      "{:.2f} million",
      span(s.run.sample_interval), span(s.run.duration), z.samples, z.flows, z.queues,
      static_cast<double>(z.rows()) / 1e6, span(coarser), static_cast<double>(fewer) / 1e6));
}

}  // namespace rtb::scenario
