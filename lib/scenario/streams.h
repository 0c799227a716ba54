// Rng stream numbers used by the loader (rtb::Rng(seed, stream)): one stream per user, so
// that adding a traffic entry or a host never changes another's numbers.
#pragma once

#include <cstdint>

namespace rtb::scenario {

inline constexpr uint64_t kStreamHost = 0x686f'7374'0000'0000;     // "host" + host index
inline constexpr uint64_t kStreamTraffic = 0x7472'6166'0000'0000;  // "traf" + [[traffic]] index

}  // namespace rtb::scenario
