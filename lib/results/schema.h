// The paths of every number and boolean summary.json can hold, as "flows[].bytes" (an
// array's elements written "[]"), for tools that pick figures out of it by name
// (`rocetb sweep --metrics`). Taken from the writer itself (summary_json.h), with every
// optional figure present, so the list cannot drift from the file.
#pragma once

#include <string>
#include <vector>

namespace rtb::results {

const std::vector<std::string>& numeric_paths();

}  // namespace rtb::results
