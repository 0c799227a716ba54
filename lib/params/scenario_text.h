// The imported keys as a scenario file `rocetb run` accepts: every imported key with a
// comment naming its source file and line, in a small runnable scenario (one switch, an
// (N-1):1 incast on the first lossless priority with a DSCP the imported map sends there)
// for what the sources do not say. Checked by loading it before it is written.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "params/imported.h"

namespace rtb::params {

// The scenario's text; `sources` are named in its header.
std::string scenario_text(const Imported& in, const std::vector<std::string>& sources);

// Loads `text` as `path` would be loaded; the loader's errors when it does not.
Status check_loads(const std::string& text, const std::string& path);

}  // namespace rtb::params
