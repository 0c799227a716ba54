// A bare ECN threshold whose unit is in doubt. SONiC's WRED_PROFILE and ecnconfig take
// bytes (sonic-wred-profile.yang), but tuning guides copy numbers between switches that
// count kilobytes (NVIDIA Onyx ECN "minimum-absolute" is in KB) or MMU cells. When more
// than one reading is a plausible threshold (at least one 1,500-byte frame and at most
// the buffer), the finding gives every reading with its arithmetic.
#pragma once

#include <cstdint>
#include <string>

#include "params/imported.h"

namespace rtb::params {

// `buffer` is the buffer the thresholds share (0 when no source gave it: rocetb's default
// 4 MB is used and said).
void check_threshold_unit(Imported& out, const Origin& at, const std::string& key, uint64_t value, uint64_t buffer);

// "32 MB", "40 KB", "1.049 MB" (powers of 1000, as the scenario's units).
std::string human_bytes(double bytes);

}  // namespace rtb::params
