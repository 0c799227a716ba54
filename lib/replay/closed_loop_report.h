// `rocetb replay --closed-loop`: each captured stream's figures at the tap beside its flow's
// in the replayed run (README.md in this folder): replay.json, replay.csv and a table.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/units.h"
#include "results/summary.h"
#include "scenario/capture_flows.h"
#include "scenario/capture_streams.h"
#include "scenario/scenario.h"

namespace rtb::replay {

// One stream as the tap saw it. Completion times are over its whole messages only
// (first to last packet; cut ones are counted in `cut_messages`).
struct StreamFigures {
  uint64_t bytes = 0;
  uint64_t messages = 0;
  uint64_t cut_messages = 0;
  Time duration;  // first to last packet
  std::optional<double> gbps;  // payload bits over `duration` (none for a single instant)
  std::optional<Time> completion_mean;
  std::optional<Time> completion_p99;
};
StreamFigures stream_figures(const scenario::CapturedStream& s);

// {"capture", "scenario", "flows": [{flow, src, dst, dest_qpn, src_host, dst_host,
//   capture: {...}, replay: {...}}]}; `summary` is the run's summary.json.
nlohmann::ordered_json closed_loop_json(const scenario::CaptureStreams& c, const scenario::CaptureFlows& f,
                                        const scenario::Scenario& s, const results::Summary& summary);
std::string closed_loop_csv(const nlohmann::ordered_json& j);
void print_closed_loop_table(std::ostream& out, const nlohmann::ordered_json& j, size_t max_rows = 16);

// replay.json and replay.csv into `dir`, each whole or not at all.
Status write_closed_loop(const std::string& dir, const nlohmann::ordered_json& j);

}  // namespace rtb::replay
