// sweep.json: the grid a sweep folder holds (scenario, its text's hash, the --set and --cc
// shared by every point, the --vary axes, --repeat), what each file the points' scenarios
// name held (a plug-in's shared object, a CDF, a capture), and each point's folder,
// overrides and seed. Written before the first point runs; a later sweep into the same
// folder must have the same grid and the same files, so that a re-run resumes the points
// it left, and never mixes two grids' (or two builds of a plug-in's) results in one table.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "sweep/plan.h"

namespace rtb::sweep {

// `files` as [{"file", "bytes", "fnv1a64"}] (core/fingerprint.h).
Expected<nlohmann::ordered_json> files_json(const std::vector<std::string>& files);

nlohmann::ordered_json record_json(const Plan& plan, const std::string& scenario_hash,
                                   nlohmann::ordered_json files);

// Checks `dir` (--out) for the sweep: created when missing; a folder that holds a sweep.json
// of the same grid is resumed; one of another grid, or a non-empty folder without sweep.json,
// is refused in one line naming --out. Then writes sweep.json. True when resuming.
Expected<bool> prepare_sweep_folder(const std::string& dir, const nlohmann::ordered_json& record);

}  // namespace rtb::sweep
