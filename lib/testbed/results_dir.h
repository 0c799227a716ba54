// The folder a run writes its results to when no --out is given:
//   <root>/<scenario>-<YYYYmmdd-HHMMSS>[-<tag>][-<n>]
// the tag a short form of the command line's overrides (--set, --seed, --cc), n = 2, 3, ...
// when that name is taken (runs started in the same second). The folder is created here
// with one mkdir per candidate, which fails when the name exists, so two runs, even in
// two processes, never share a folder.
#pragma once

#include <ctime>
#include <string>
#include <vector>

#include "core/error.h"

namespace rtb::testbed {

// "KEY=VALUE" overrides as "last_key_part=value" joined by ",": quotes dropped, a path
// value reduced to its file name, characters outside [A-Za-z0-9._+=-] as "_". Longer
// than kMaxTagChars: cut, and a hash of the whole tag appended so that different
// overrides keep different tags.
inline constexpr size_t kMaxTagChars = 64;
std::string overrides_tag(const std::vector<std::string>& overrides);

Expected<std::string> make_results_dir(const std::string& root, const std::string& scenario,
                                       const std::vector<std::string>& overrides,
                                       const std::tm& local_time);

}  // namespace rtb::testbed
