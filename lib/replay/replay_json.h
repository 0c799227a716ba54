// replay.json of `rocetb replay --through` and its table: per stand-in host what it was
// given, sent (and how late, held by a busy wire or PFC), and received from the switches.
#pragma once

#include <memory>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "replay/replay_port.h"
#include "replay/through_frames.h"
#include "scenario/scenario.h"

namespace rtb::replay {

nlohmann::ordered_json replay_json(const scenario::Scenario& s, const ThroughFrames& frames,
                                   const ThroughOptions& options,
                                   const std::vector<std::unique_ptr<ReplayPort>>& ports);

// One line per host that sent or received, then the totals.
void print_replay_table(std::ostream& out, const nlohmann::ordered_json& replay);

}  // namespace rtb::replay
