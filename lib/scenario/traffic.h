// [[traffic]]: flow generators (scenarios/README.md, "traffic"). Every entry has a
// `pattern` and the common keys priority, dscp and start; each pattern reads its own
// keys. All randomness comes from rtb::Rng(seed, kStreamTraffic + entry index), so an
// entry's flows depend only on the seed and that entry.
#pragma once

#include <string>
#include <vector>

#include "core/rng.h"
#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

struct TrafficContext {
  const Topology* topology;
  const RunConfig* run;
  std::string base_dir;  // relative CDF and capture paths are taken from here
  std::vector<std::string>* warnings = nullptr;  // the scenario's (pattern "capture")
  uint8_t dscp = 26;  // an entry's default DSCP ([host] dscp or nccl_ib_tc)
  Scenario* scenario = nullptr;  // each CDF and capture read is added to its files
};

// The flows of every entry, sorted by start time (ties: entry order, then generation
// order), with ids set to their index.
std::vector<Flow> read_traffic(std::vector<Table>& entries, const TrafficContext& ctx);
// Sorts flows by start time (stable) and sets their ids to their index.
void number_flows(std::vector<Flow>& flows);

// One entry's flows; `proto` carries the common fields (priority, dscp, traffic index)
// and `start` the entry's start time.
struct EntryContext {
  const TrafficContext* ctx;
  Flow proto;
  Time start;
  Rng rng;
};
std::vector<Flow> incast(Table& t, EntryContext& e);
std::vector<Flow> all_to_all(Table& t, EntryContext& e);
std::vector<Flow> permutation(Table& t, EntryContext& e);
std::vector<Flow> staggered(Table& t, EntryContext& e);
std::vector<Flow> poisson(Table& t, EntryContext& e);
std::vector<Flow> explicit_flows(Table& t, EntryContext& e);
std::vector<Flow> capture(Table& t, EntryContext& e);  // traffic_capture.cc

// Shared readers (traffic_common.cc).
uint32_t read_host(Table& t, std::string_view key, const Topology& topo);
// An integer count (the first N hosts, in index order, other than `exclude`) or a list of
// host names; absent: every host other than `exclude`.
std::vector<uint32_t> read_hosts(Table& t, std::string_view key, const Topology& topo,
                                 std::optional<uint32_t> exclude);
// `bytes` as a size; absent: long-lived (nullopt).
std::optional<Bytes> read_size(Table& t);
// Seeded start offset in [0, jitter).
Time jittered(EntryContext& e, Time jitter);

}  // namespace rtb::scenario
