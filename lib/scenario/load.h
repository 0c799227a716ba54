// Loading a scenario: one TOML file (design.md "Scenarios"; keys in scenarios/README.md)
// plus `--set KEY=VALUE` overrides into a validated, deterministic Scenario.
//
// Every error is one message that starts with where the value came from and its key:
//   default.toml:14: switch.buffer_pool.size: unknown unit 'XB' in '4XB': expected ...
//   --set traffic[0].load: 1.5 is out of range: expected 0..1
//   default.toml:3: unknown key 'switch.bufer_pool' (did you mean 'switch.buffer_pool'?)
// The switches' own validation (sw::validate) and the CC algorithm's parameter checks run
// here, before anything starts; their warnings are kept in Scenario::warnings.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/overrides.h"
#include "scenario/scenario.h"

namespace rtb::scenario {

// A scenario file larger than this is refused before it is read (the largest ready
// scenario is a few KB; a generated one listing 10^4 flows is about 1 MB).
constexpr uint64_t kMaxScenarioBytes = 16ull << 20;

Expected<Scenario> load_scenario(const std::string& path, const std::vector<std::string>& overrides = {},
                                 std::optional<uint64_t> seed_override = std::nullopt);
// The same with overrides a command's options gave, each named by its option in errors
// ("--cc ./my.so: ...", overrides.h).
Expected<Scenario> load_scenario_from_options(const std::string& path, const std::vector<Override>& overrides,
                                              std::optional<uint64_t> seed_override = std::nullopt);

// The same from text; `name` is used in messages, as the default scenario name (its stem)
// and, through its folder, to resolve relative CDF and plug-in paths.
Expected<Scenario> load_scenario_text(const std::string& text, const std::string& name,
                                      const std::vector<std::string>& overrides = {},
                                      std::optional<uint64_t> seed_override = std::nullopt);

// `rocetb replay --closed-loop`: the flows made from the loaded topology and run settings
// instead of the file's [[traffic]] (which is then not read); warnings go to the
// scenario's. Its error is the loader's error.
using TrafficSource =
    std::function<Expected<std::vector<Flow>>(const Topology&, const RunConfig&, std::vector<std::string>& warnings)>;
Expected<Scenario> load_scenario_with_traffic(const std::string& path, const std::vector<Override>& overrides,
                                              std::optional<uint64_t> seed_override, const TrafficSource& traffic);

}  // namespace rtb::scenario
