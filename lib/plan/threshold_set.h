// The thresholds an operator gives `rocetb plan` to check (--kmin, --kmax, --pmax,
// --xoff-threshold, --headroom, --headroom-pool, --xon-offset), each optional, applied to
// every lossless PG and traffic class of a switch (a scenario's lossless classes share one
// set: scenarios/README.md [switch]).
#pragma once

#include <cstdint>
#include <optional>

#include "core/units.h"
#include "switch/config.h"

namespace rtb::plan {

struct ThresholdSet {
  std::optional<Bytes> kmin;            // WRED_PROFILE green_min_threshold
  std::optional<Bytes> kmax;            // green_max_threshold
  std::optional<uint32_t> pmax_percent; // green_drop_probability
  std::optional<Bytes> xoff_threshold;  // BUFFER_PROFILE static_th (the shared part of XOFF)
  std::optional<Bytes> headroom;        // BUFFER_PROFILE xoff
  std::optional<Bytes> headroom_pool;   // BUFFER_POOL xoff
  std::optional<Bytes> xon_offset;      // BUFFER_PROFILE xon_offset

  bool empty() const;
};

void apply(const ThresholdSet& t, sw::SwitchConfig& c);

}  // namespace rtb::plan
