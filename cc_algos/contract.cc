#include "cc_algos/contract.h"

#include <fmt/format.h>

namespace rtb::cc {

std::optional<std::string> contract_breach(const Algorithm& algorithm, std::string_view hook,
                                           const Decision& d, Time now, Rate line_rate) {
  if (!breaks_contract(d, now, line_rate)) return std::nullopt;
  std::string what;
  if (d.rate.bps() == 0) {
    what = fmt::format("rate_bps 0; expected 1..{} (the port's line rate)", line_rate.bps());
  } else if (d.rate > line_rate) {
    what = fmt::format("rate_bps {} is above the port's line rate {}; expected 1..{} (a NaN "
                       "or infinity converted to an integer lands here or at 0)",
                       d.rate.bps(), line_rate.bps(), line_rate.bps());
  } else if (!d.next_deadline.is_never() && d.next_deadline <= now) {
    what = fmt::format("next_deadline_ps {} is not after now_ps {}; expected a later time or "
                       "RTB_CC_NEVER_PS",
                       d.next_deadline.ps(), now.ps());
  } else if (d.window && d.window->count() == 0) {
    what = "window_bytes 0; expected at least 1 or RTB_CC_NO_WINDOW";
  } else {
    return std::nullopt;
  }
  return fmt::format("congestion-control algorithm '{}' ({}) broke its contract in {} at "
                     "now_ps {}: {}",
                     algorithm.name(), algorithm.origin(), hook, now.ps(), what);
}

}  // namespace rtb::cc
