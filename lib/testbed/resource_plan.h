// What a run will take before it starts (the resource plan): the memory of its mbuf pools,
// its flows' state and its time series, each term with the scenario key that drives it,
// and the disk its CSV files will take. The time series are streamed to the results
// folder as the run goes (series_recorder.h), so their memory term is the bounded buffers
// and reorder window, not samples times duration. A run whose plan exceeds run.max_memory
// (default: three quarters of the memory available at the start), or whose CSV would not
// fit in the results folder's free disk space, is refused in one line that names the key
// of the largest term and the numbers, instead of taking the machine down with it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "runtime/pool/mbuf_pool_sizing.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

struct ResourceTerm {
  std::string what;    // "mbuf pools", "time series", ...
  uint64_t bytes = 0;  // an upper estimate
  std::string driver;  // the key and value that set it: "run.sample_interval = 10 ns over run.duration = 10 ms"
};

struct ResourcePlan {
  std::vector<ResourceTerm> terms;  // memory
  ResourceTerm csv;                 // disk: flows.csv and queues.csv
  uint64_t total() const;
  const ResourceTerm& largest() const;
  nlohmann::ordered_json to_json() const;  // run.json "resources"
};

ResourcePlan plan_resources(const scenario::Scenario& s, const runtime::PoolConfig& pools,
                            const runtime::PoolSizes& sizes);

// The limit: run.max_memory, else three quarters of MemAvailable (/proc/meminfo). With a
// results folder `dir`, the CSV estimate against its free disk space (statvfs(3)).
Status check_resources(const scenario::Scenario& s, const ResourcePlan& plan, const std::string& dir = "");

}  // namespace rtb::testbed
