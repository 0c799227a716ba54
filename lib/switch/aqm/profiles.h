// The configuration of each active queue management (AQM) scheme other than WRED (whose
// WRED_PROFILE lives in ../config.h with the rest of the SONiC names). A queue's AQM is
// chosen by name in the scenario (`switch.aqm`, `[switch.aqm_by_queue]`); README.md here.
#pragma once

#include <optional>
#include <string_view>
#include <variant>

#include "core/units.h"

namespace rtb::sw {

// DCTCP-style step marking (Alizadeh et al., SIGCOMM 2010 §3.1; RFC 8257 §3.1): an ECT
// frame is marked CE when the instantaneous queue exceeds K. Non-ECT frames pass.
struct StepProfile {
  // The HPCC authors' simulator runs DCTCP with Kmin = Kmax = 30·bw/10 KB: 300 KB at
  // 100 Gb/s (run.py `dctcp`; cc-reference.md §4.4).
  Bytes k_threshold = Bytes::kb(300);
};

// PIE (RFC 8033): a drop/mark probability updated every t_update from the queue delay.
// Defaults are RFC 8033 §4's (Internet scale); a datacenter scenario sets microseconds.
struct PieProfile {
  Time qdelay_ref = Time::ms(15);   // QDELAY_REF, the target queue delay
  Time t_update = Time::ms(15);     // T_UPDATE
  Time max_burst = Time::ms(150);   // MAX_BURST
  double alpha_hz = 0.125;          // alpha
  double beta_hz = 1.25;            // beta
};

// The AQM of a queue when it is not WRED (WRED is SwitchConfig::wred).
using AqmProfile = std::variant<StepProfile, PieProfile>;

// "wred", "step", "pie": the names the scenario uses.
std::string_view aqm_name(const std::optional<AqmProfile>& p);

}  // namespace rtb::sw
