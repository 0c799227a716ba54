// DCQCN parameters with the NVIDIA mlx5 debugfs `cc_params` names and units
// (cc-reference.md §1.3 table). Two parameter sets share the names:
//   dcqcn        the NIC reference model, mlx5 firmware defaults;
//   dcqcn_paper  DCQCN SIGCOMM'15 as restated in §1.1, the paper's values as defaults.
// The full table (unit, default, range, paper symbol, HPCC ns-3 key) is in README.md here.
#pragma once

#include <cstdint>
#include <span>

#include "cc_algos/dcqcn/alpha.h"
#include "cc_algos/np/notification_point.h"
#include "cc_algos/params.h"
#include "core/units.h"

namespace rtb::cc::dcqcn {

struct NicParams {
  bool clamp_tgt_rate;          // rp_clamp_tgt_rate
  bool clamp_tgt_rate_ati;      // rp_clamp_tgt_rate_ati
  Time time_reset;              // rp_time_reset (µs): increase timer period
  Bytes byte_reset;             // rp_byte_reset × 64 bytes: increase byte counter
  uint32_t threshold;           // rp_threshold: stage count F
  Rate ai_rate;                 // rp_ai_rate (Mb/s)
  Rate hai_rate;                // rp_hai_rate (Mb/s)
  Rate max_rate;                // rp_max_rate (Mb/s), zero = the line rate
  Rate min_rate;                // rp_min_rate (Mb/s)
  uint32_t min_dec_fac;         // rp_min_dec_fac (%): new rate ≥ (100 − this)% ... see .cc
  Rate rate_on_first_cnp;       // rp_rate_to_set_on_first_cnp (Mb/s), zero = keep the rate
  uint32_t dce_tcp_g;           // rp_dce_tcp_g (Q10 weight of the old α)
  Time alpha_period;            // rp_dce_tcp_rtt (µs)
  Time monitor_period;          // rp_rate_reduce_monitor_period (µs)
  uint32_t initial_alpha;       // rp_initial_alpha_value (Q10)
  uint32_t gd;                  // rp_gd: cut = (R_C · α) >> rp_gd
  NpParams np;                  // np_min_time_between_cnps, np_cnp_dscp, np_cnp_prio
  AlphaDecayTable decay;        // built from dce_tcp_g
  ResolvedParams resolved;  // every parameter as parsed, for effective.json
};

struct PaperParams {
  bool clamp_tgt_rate;      // R_T = R_C on every CNP (paper: always)
  bool clamp_tgt_rate_ati;
  Time time_reset;          // T
  Bytes byte_reset;         // B
  uint32_t threshold;       // F
  Rate ai_rate;             // R_AI
  Rate hai_rate;            // R_HAI
  Rate max_rate;            // zero = the line rate
  Rate min_rate;
  uint32_t dce_tcp_g;       // g = (1024 − dce_tcp_g)/1024
  double alpha_keep;        // 1 − g = dce_tcp_g/1024, a real number as in the paper
  Time alpha_period;        // τ′ (the "alpha timer", K)
  NpParams np;              // τ = np_min_time_between_cnps
  ResolvedParams resolved;  // every parameter as parsed, for effective.json
};

// Parse, range-check, refuse unknown names, warn about legal-but-disabling values.
// Return false when an error was reported.
bool parse_nic_params(std::span<const rtb_cc_param> in, NicParams& out, Reporter& report);
bool parse_paper_params(std::span<const rtb_cc_param> in, PaperParams& out, Reporter& report);

std::span<const UintSpec> nic_specs();
std::span<const UintSpec> paper_specs();

}  // namespace rtb::cc::dcqcn
