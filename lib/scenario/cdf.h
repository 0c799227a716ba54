// Flow-size distributions as data files (scenarios/data/*.cdf), in the format of the HPCC
// simulator's traffic generator (alibaba-edu/High-Precision-Congestion-Control,
// traffic_gen/): one point per line, "<flow size in bytes> <cumulative percent>", the
// first at 0 %, the last at 100 %, both columns strictly increasing. '#' starts a comment.
//
// Sampling is by inverse transform with LINEAR INTERPOLATION between points, as HPCC's
// custom_rand.py does: u uniform in [0, 100); find the first point i with u <= p_i; size =
// x_(i-1) + (x_i - x_(i-1)) * (u - p_(i-1)) / (p_i - p_(i-1)), rounded to the nearest byte
// and at least 1 byte. The mean of that piecewise-linear distribution is
// sum over segments of (x_(i-1) + x_i) / 2 * (p_i - p_(i-1)) / 100 (custom_rand.getAvg).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/rng.h"

namespace rtb::scenario {

class Cdf {
 public:
  struct Point {
    double bytes;
    double percent;
  };
  // A CDF file larger than this is refused before it is read (published CDFs have tens of
  // points).
  static constexpr uint64_t kMaxFileBytes = 1ull << 20;
  // The largest flow size a point may have: 2^53 bytes, the largest range in which every
  // whole byte count is a double and a sample rounds to a uint64_t without overflow.
  static constexpr double kMaxBytes = 9007199254740992.0;

  // Errors name "<name>:<line>".
  static Expected<Cdf> parse(std::string_view text, std::string_view name);
  static Expected<Cdf> load(const std::string& path);

  const std::vector<Point>& points() const { return points_; }
  double mean_bytes() const;
  uint64_t sample(Rng& rng) const;
  // The size at percentile u in [0, 100] (the interpolation above, before rounding).
  double size_at(double percent) const;

 private:
  std::vector<Point> points_;
};

}  // namespace rtb::scenario
