// The time series a run writes, sized before it runs: flows.csv has a row per flow and
// queues.csv a row per sampled switch queue (each switch port's queues of the priorities
// the flows use) every run.sample_interval from 0 to run.duration.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace rtb::scenario {

struct SeriesSize {
  uint64_t samples = 0;  // run.duration / run.sample_interval + 1
  uint64_t flows = 0;
  uint64_t queues = 0;

  uint64_t rows() const { return samples * (flows + queues); }
};

// Bit n: the switches' queues of priority n are sampled, those of the priorities the flows
// use and a replay's frames use.
uint8_t sampled_priorities(const Scenario& s);

SeriesSize series_size(const Scenario& s);

// Past this many rows the CSV files take gigabytes and their plots minutes.
inline constexpr uint64_t kManySeriesRows = 10'000'000;

// A warning naming run.sample_interval when the series pass kManySeriesRows, with the
// coarsest interval of the 1-2-5 series that keeps them under a million rows.
void warn_series_size(const Scenario& s, std::vector<std::string>& warnings);

}  // namespace rtb::scenario
