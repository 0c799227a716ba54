// Rate arithmetic shared by the two DCQCN models, in bits per second.
#pragma once

#include <algorithm>
#include <cstdint>

#include <span>

#include "cc_algos/rocetb_cc.h"
#include "core/units.h"

namespace rtb::cc::dcqcn {

// R_C = (R_C + R_T)/2, rounded up so that R_C reaches R_T instead of stopping 1 bit/s
// short (the NIC keeps Mb/s; in bit/s a floor would never converge). Assumption, README.
inline Rate midpoint_up(Rate a, Rate b) {
  return Rate::bps(static_cast<uint64_t>((static_cast<u128>(a.bps()) + b.bps() + 1) / 2));
}

// (R · α_Q10) >> shift, the mlx5 cut.
inline Rate alpha_cut(Rate r, uint32_t alpha, uint32_t shift) {
  return Rate::bps(static_cast<uint64_t>((static_cast<u128>(r.bps()) * alpha) >> shift));
}

inline Rate clamp_rate(Rate r, Rate lo, Rate hi) { return std::min(std::max(r, lo), hi); }

inline uint32_t stage_inc(uint32_t s) { return s == UINT32_MAX ? s : s + 1; }

// The flow's ceiling: rp_max_rate (zero = none) but never above the line rate.
inline Rate rate_cap(Rate max_rate, Rate line) {
  return max_rate.bps() == 0 ? line : std::min(max_rate, line);
}

// The state both models show in time series: alpha (a fraction of 1), R_C, R_T and the
// two stage counters. `S` is either model's State.
template <typename S>
size_t describe_rates(double alpha, const S& s,
                      std::span<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> out) {
  out[0] = {"alpha", alpha};
  out[1] = {"rc_bps", static_cast<double>(s.rc.bps())};
  out[2] = {"rt_bps", static_cast<double>(s.rt.bps())};
  out[3] = {"time_stage", static_cast<double>(s.time_stage)};
  out[4] = {"byte_stage", static_cast<double>(s.byte_stage)};
  return 5;
}

}  // namespace rtb::cc::dcqcn
