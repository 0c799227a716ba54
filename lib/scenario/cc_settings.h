// [cc]: the algorithm (a registered name, or a plug-in path: relative paths are taken from
// the scenario file's folder) and [cc.params], passed through to the algorithm, which
// checks every key itself. Both are tried here (Registry::resolve, cc::configure) so a
// bad name or parameter fails at load time with the algorithm's own message.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/overrides.h"
#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

// True when `algorithm` names a plug-in file rather than a registered algorithm: it has a
// '/' or ends in ".so".
bool is_plugin_path(std::string_view algorithm);

// An algorithm given on the command line (`rocetb run --cc`): a relative plug-in path is
// taken from the current directory, as a shell user means it, and made absolute so that
// the scenario's folder does not apply; names are returned unchanged.
std::string command_line_algorithm(const std::string& algorithm);

// `--cc ALGORITHM` as the override it is (cc.algorithm, command_line_algorithm), which
// errors name "--cc ALGORITHM" as typed.
Override cc_override(const std::string& algorithm);

// `base_dir` resolves relative plug-in paths; the algorithm's warnings go to `warnings`.
CcConfig read_cc(std::optional<Table> t, const std::string& base_dir, std::vector<std::string>& warnings);

}  // namespace rtb::scenario
