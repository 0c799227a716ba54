// sweep.json: the grid a sweep folder holds (scenario, its text's hash, the --vary axes,
// --repeat) and each point's folder, overrides and seed. Written before the first point
// runs; a later sweep into the same folder must have the same grid, so that a re-run
// resumes the points it left, and never mixes two grids' results in one table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "sweep/plan.h"

namespace rtb::sweep {

// FNV-1a, 64 bits (Fowler, Noll, Vo): the scenario text's hash, the same on every machine.
std::string text_hash(const std::string& text);

nlohmann::ordered_json record_json(const Plan& plan, const std::string& scenario_hash);

// Checks `dir` (--out) for the sweep: created when missing; a folder that holds a sweep.json
// of the same grid is resumed; one of another grid, or a non-empty folder without sweep.json,
// is refused in one line naming --out. Then writes sweep.json. True when resuming.
Expected<bool> prepare_sweep_folder(const std::string& dir, const nlohmann::ordered_json& record);

}  // namespace rtb::sweep
