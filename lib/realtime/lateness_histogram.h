// A fixed-size histogram of poll lateness (how late a poll came after its stage's work was
// due; realtime_scheduler.h defines it). Log-linear buckets like HdrHistogram with 4
// sub-bucket bits: values are whole nanoseconds; 0..31 ns get one bucket each, and every
// power-of-two range [2^k, 2^(k+1)) above is split into 16 equal sub-buckets, so a bucket is
// at most 1/16 (6.25%) of its value wide. 976 buckets cover every 64-bit nanosecond count
// (far beyond 1 s). No allocation after construction: record() is an index and two adds,
// cheap enough for every poll of a worker lcore.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "core/units.h"

namespace rtb::realtime {

class LatenessHistogram {
 public:
  static constexpr unsigned kSubBits = 4;
  static constexpr uint64_t kSubBuckets = 1u << kSubBits;  // 16
  static constexpr size_t kBuckets = kSubBuckets * (64 - kSubBits + 1);  // 976

  void record(Time lateness) {
    ++counts_[bucket_of(lateness.ns())];
    ++count_;
    max_ = std::max(max_, lateness);
  }
  void merge(const LatenessHistogram& other);

  // The smallest bucket upper bound (exclusive end, see bucket_end_ns) below which at
  // least a fraction q of the records lie, capped at max(): within 6.25% above the true
  // quantile, never below it. 0 when nothing was recorded. q is clamped to [0, 1].
  Time quantile(double q) const;
  Time max() const { return max_; }  // exact, in ps
  uint64_t count() const { return count_; }
  uint64_t count_in_bucket(size_t bucket) const { return counts_[bucket]; }

  // Bucket of a lateness of `ns` nanoseconds: shift * 16 + (ns >> shift), with
  // shift = max(0, bit_width(ns) - 5) (the top 5 significant bits select it).
  static constexpr size_t bucket_of(uint64_t ns) {
    const int width = std::bit_width(ns);
    const unsigned shift = width > static_cast<int>(kSubBits) + 1 ? width - kSubBits - 1 : 0;
    return shift * kSubBuckets + (ns >> shift);
  }
  // The first nanosecond count in `bucket`.
  static constexpr uint64_t bucket_start_ns(size_t bucket) {
    if (bucket < kSubBuckets) return bucket;
    const unsigned shift = static_cast<unsigned>(bucket / kSubBuckets) - 1;
    return (bucket % kSubBuckets + kSubBuckets) << shift;
  }
  // One past the last nanosecond count in `bucket` (saturating at UINT64_MAX for the last).
  static constexpr uint64_t bucket_end_ns(size_t bucket) {
    const unsigned shift = bucket < 2 * kSubBuckets
                               ? 0 : static_cast<unsigned>(bucket / kSubBuckets) - 1;
    const uint64_t start = bucket_start_ns(bucket);
    const uint64_t width = uint64_t{1} << shift;
    return start > UINT64_MAX - width ? UINT64_MAX : start + width;
  }

 private:
  std::array<uint64_t, kBuckets> counts_{};
  uint64_t count_ = 0;
  Time max_ = Time::zero();
};

}  // namespace rtb::realtime
