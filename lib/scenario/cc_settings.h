// [cc]: the algorithm (a registered name, or a plug-in path: relative paths are taken from
// the scenario file's folder) and [cc.params], passed through to the algorithm, which
// checks every key itself. Both are tried here (Registry::resolve, cc::configure) so a
// bad name or parameter fails at load time with the algorithm's own message.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

// `base_dir` resolves relative plug-in paths; the algorithm's warnings go to `warnings`.
CcConfig read_cc(std::optional<Table> t, const std::string& base_dir, std::vector<std::string>& warnings);

}  // namespace rtb::scenario
