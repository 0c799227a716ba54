// Unit strings as scenario files and the command line write them: "55us", "100Gbps",
// "150KB" (= 150,000 bytes), "1.2MiB". Units are explicit: KB/MB/GB are powers of 1000,
// KiB/MiB/GiB powers of 1024. A number without a unit is an error.
#pragma once

#include <string_view>

#include "core/error.h"
#include "core/units.h"

namespace rtb {

// ps, ns, us, ms, s. Must be a whole number of picoseconds ("0.5ps" is refused).
Expected<Time> parse_time(std::string_view text);
// bps, Kbps, Mbps, Gbps, Tbps (also written Kb/s, Mb/s, ...). Whole bits per second.
Expected<Rate> parse_rate(std::string_view text);
// B, KB, MB, GB, KiB, MiB, GiB. Rounded to the nearest whole byte ("1.2MiB" = 1,258,291).
Expected<Bytes> parse_bytes(std::string_view text);

}  // namespace rtb
