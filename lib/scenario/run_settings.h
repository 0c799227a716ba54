// [run]: clock, duration, seed, warm-up, sample interval, parallel virtual time.
#pragma once

#include <cstdint>
#include <optional>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

// `seed_override` (rocetb run --seed) replaces run.seed.
RunConfig read_run(std::optional<Table> t, std::optional<uint64_t> seed_override);

// run.partition_of names switches of the topology (read after it): the first name that is
// none fails at its key, with the nearest switch name.
void check_partition_of(std::optional<Table> run, const Topology& topo);

}  // namespace rtb::scenario
