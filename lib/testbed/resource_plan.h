// What a run will take before it starts (the resource plan): the memory of its mbuf pools,
// its flows' state, its time series and the CSV text written from them, each term with the
// scenario key that drives it. A run whose plan exceeds run.max_memory (default: three
// quarters of the memory available at the start) is refused in one line that names the key
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
  std::vector<ResourceTerm> terms;
  uint64_t total() const;
  const ResourceTerm& largest() const;
  nlohmann::ordered_json to_json() const;  // run.json "resources"
};

ResourcePlan plan_resources(const scenario::Scenario& s, const runtime::PoolConfig& pools,
                            const runtime::PoolSizes& sizes);

// The limit: run.max_memory, else three quarters of MemAvailable (/proc/meminfo).
Status check_resources(const scenario::Scenario& s, const ResourcePlan& plan);

}  // namespace rtb::testbed
