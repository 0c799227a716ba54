// The ops tables of the algorithms compiled into rocetb.
#pragma once

#include <span>

#include "cc_algos/rocetb_cc.h"

namespace rtb::cc {

std::span<const rtb_cc_ops* const> builtin_ops();

}  // namespace rtb::cc
