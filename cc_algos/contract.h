// The run-time half of the plug-in contract (rocetb_cc.h, rtb_cc_decision): what every
// decision a hook returns must satisfy. check_ops() checks the table once at load; this
// checks each decision as it is applied, so a broken algorithm stops the run with a
// message naming it and the hook instead of spinning forever (a deadline not after now)
// or silently stopping a flow (rate 0, window 0).
//
//   0 < rate_bps <= the port's line rate
//   next_deadline_ps > now_ps, or RTB_CC_NEVER_PS
//   window_bytes >= 1, or RTB_CC_NO_WINDOW
//
// The fields are integers, so a NaN cannot cross the ABI as such: a plug-in that converts
// a NaN (or an infinity) to uint64_t gets 0 or 2^63 on x86-64 (the conversion is
// undefined in C), and both are refused as rates.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cc_algos/algorithm.h"
#include "core/units.h"

namespace rtb::cc {

// Whether `d` breaks the contract: the check the datapath makes on every decision,
// inline and without building anything.
inline bool breaks_contract(const Decision& d, Time now, Rate line_rate) {
  return d.rate.bps() == 0 || d.rate > line_rate ||
         (!d.next_deadline.is_never() && d.next_deadline <= now) ||
         (d.window && d.window->count() == 0);
}

// nullopt when `d` keeps the contract; else the message (allocates only then).
std::optional<std::string> contract_breach(const Algorithm& algorithm, std::string_view hook,
                                           const Decision& d, Time now, Rate line_rate);

}  // namespace rtb::cc
