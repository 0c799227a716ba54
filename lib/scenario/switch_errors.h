// A switch's validation errors (sw::validate, in SONiC's names) reported one per line at
// the scenario key each is about: "BUFFER_PROFILE pg3 xoff = 0 B: ..." at the line of
// switch.pg_lossless.xoff, "WRED_PROFILE queue3 green_min_threshold ..." at
// switch.wred_profile.green_min_threshold. A key left at its default is still named, at
// the line of its nearest enclosing table (or the file's name when no table is there).
#pragma once

#include <string>
#include <vector>

#include "scenario/toml_table.h"
#include "switch/config.h"

namespace rtb::scenario {

// The scenario key a validation message is about ("switch.pg_lossless.xoff"), or
// "switch" when it names none the scenario can set.
std::string switch_error_key(const std::string& message, const sw::SwitchConfig& config);

// Throws every error of `errors` (messages of sw::validate on `config`), each on its line.
[[noreturn]] void fail_switch_errors(const Table& top, const std::vector<std::string>& errors,
                                     const sw::SwitchConfig& config);

}  // namespace rtb::scenario
