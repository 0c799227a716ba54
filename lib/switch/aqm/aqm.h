// The AQM of one egress queue: none, WRED (SONiC WRED_PROFILE, wred.h), DCTCP-style step
// marking (step.h) or PIE (pie.h), chosen per queue by name (README.md here). One value
// per (port, queue), sized at start-up; a call is a switch on the kind, no allocation.
//
// A new marker: a class with never_acts(queue_bytes) and decide(queue_bytes, ect, now,
// rng) in this folder, its profile in profiles.h, one alternative below, and its keys in
// the scenario reader (lib/scenario/aqm_settings.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <variant>

#include "core/rng.h"
#include "core/units.h"
#include "switch/aqm/pie.h"
#include "switch/aqm/profiles.h"
#include "switch/aqm/step.h"
#include "switch/aqm/verdict.h"
#include "switch/aqm/wred.h"
#include "switch/config.h"

namespace rtb::sw {

class Aqm {
 public:
  Aqm() = default;  // none: every frame passes
  // The queue's AQM: `profile` when given, else WRED by `wred` when given, else none.
  // `drain_rate` and `mtu_bytes` are the port's (PIE's delay estimate and small-queue rule).
  static Aqm make(const std::optional<AqmProfile>& profile, const std::optional<WredProfile>& wred,
                  Rate drain_rate, uint32_t mtu_bytes);

  bool enabled() const { return !std::holds_alternative<std::monostate>(m_); }
  // True when decide() would pass this frame without a draw whatever its ECN field, so
  // the caller need not read the header (WRED at or below Kmin, step at or below K).
  bool never_acts(uint64_t queue_bytes) const;
  // `ect`: the frame's ECN field is ECT(0), ECT(1) or CE.
  AqmVerdict decide(uint64_t queue_bytes, bool ect, Time now, Rng& rng);

 private:
  std::variant<std::monostate, Wred, StepMarker, Pie> m_;
};

}  // namespace rtb::sw
