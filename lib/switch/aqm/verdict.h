// What an AQM decides for one frame.
#pragma once

#include <cstdint>

namespace rtb::sw {

enum class AqmVerdict : uint8_t { kPass, kMark, kDrop };

}  // namespace rtb::sw
