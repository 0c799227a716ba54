// `--set KEY=VALUE` overrides, applied to the parsed TOML tree before anything is read,
// so an override is checked exactly like the file's own value and may create keys the
// file omits. KEY is a dotted path; an array element is written `name[i]` (i may be the
// array's length to append a table: `--set 'traffic[1].pattern=incast'`). VALUE is read as
// a TOML value (3, 0.5, true, [3, 4], "x") and, if it is not one, as a plain string
// (100Gbps, 4MB, dcqcn).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace rtb::scenario {

// An override and the option it came from, as errors about its value name it: `--set KEY`
// (option empty), or the option a command turned into it: "--cc ./my.so" for
// cc.algorithm=..., "--vary KEY=VALUE" for a sweep's point.
struct Override {
  std::string assignment;  // KEY=VALUE
  std::string option;
};

// `--set KEY=VALUE` as typed: the default option.
std::vector<Override> set_overrides(const std::vector<std::string>& assignments);

// Applies every override in order; returns each one's normalized key path
// ("traffic[0].load") with what errors about that value start with instead of a file line
// ("--set traffic[0].load", or its option). Throws LoadError on a malformed override.
std::map<std::string, std::string> apply_overrides(toml::table& root, const std::vector<Override>& overrides);

}  // namespace rtb::scenario
