// What a `rocetb bench` mode measured: the figures printed as a table, the same figures and
// the run's details as one JSON object (`--json`), and whether the run can be trusted.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rtb::bench {

struct Figure {
  std::string name;  // e.g. "frames_per_s": the JSON key
  double value = 0;
  std::string unit;  // printed beside the value
};

struct BenchReport {
  std::string mode;                 // "tx", "rx", "switch", "loop", "sim"
  nlohmann::ordered_json config;    // what ran (options after defaults)
  std::vector<Figure> figures;      // the results, in table order
  nlohmann::ordered_json details;   // counters, lateness, catch-up, pools
  bool valid = true;                // false: the figures are distorted (reason says why)
  std::string reason;

  void add(std::string name, double value, std::string unit) {
    figures.push_back({std::move(name), value, std::move(unit)});
  }
  double figure(const std::string& name) const;  // NaN when absent
  // {"mode", "config", "figures": {name: value}, "units": {name: unit}, "valid", "reason",
  //  "details"}
  nlohmann::ordered_json to_json() const;
  // A header line naming the mode and config, one line per figure, and the validity line.
  std::string table() const;
};

}  // namespace rtb::bench
