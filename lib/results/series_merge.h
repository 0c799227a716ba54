// The time series of a split run's parts joined into the files one process would have
// written (lib/testbed series_csv.h has their columns):
//   flows.csv   one row per flow and sample index: the rate and the algorithm's state
//               from the sender's part, the throughput and bytes received from the
//               receiver's; rows in sample order, flows in id order within a sample;
//   queues.csv  every part's rows under one header (each switch is in one part).
#pragma once

#include <string>
#include <vector>

#include "core/error.h"

namespace rtb::results {

// `paths`: each part's file. Errors name the file and line.
Expected<std::string> merge_flows_csv(const std::vector<std::string>& paths);
Expected<std::string> merge_queues_csv(const std::vector<std::string>& paths);

}  // namespace rtb::results
