// `--set KEY=VALUE` overrides, applied to the parsed TOML tree before anything is read,
// so an override is checked exactly like the file's own value and may create keys the
// file omits. KEY is a dotted path; an array element is written `name[i]` (i may be the
// array's length to append a table: `--set 'traffic[1].pattern=incast'`). VALUE is read as
// a TOML value (3, 0.5, true, [3, 4], "x") and, if it is not one, as a plain string
// (100Gbps, 4MB, dcqcn).
#pragma once

#include <set>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace rtb::scenario {

// Applies every override in order; returns their normalized key paths ("traffic[0].load")
// so errors about those values say "--set <key>" instead of a file line. Throws LoadError
// on a malformed override.
std::set<std::string> apply_overrides(toml::table& root, const std::vector<std::string>& overrides);

}  // namespace rtb::scenario
