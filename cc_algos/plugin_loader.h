// Loading an out-of-tree algorithm from a shared object by path (dlopen). The object
// exports `const rtb_cc_ops* rtb_cc_plugin_ops(void)` (RTB_CC_PLUGIN_SYMBOL); its table
// goes through exactly the checks a built-in does (check_ops).
#pragma once

#include <string>

#include "cc_algos/algorithm.h"
#include "core/error.h"

namespace rtb::cc {

// Refused with a message: a path that cannot be opened, a missing symbol, a wrong ABI
// version, an unreasonable state or parameter size, missing required hooks.
Expected<Algorithm> load_plugin(const std::string& path);

}  // namespace rtb::cc
