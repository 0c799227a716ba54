// [run]: clock, duration, seed, warm-up, sample interval.
#pragma once

#include <cstdint>
#include <optional>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

// `seed_override` (rocetb run --seed) replaces run.seed.
RunConfig read_run(std::optional<Table> t, std::optional<uint64_t> seed_override);

}  // namespace rtb::scenario
