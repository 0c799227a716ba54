#include "cc_algos/algorithm.h"

#include <fmt/format.h>

#include <bit>

namespace rtb::cc {

namespace {

bool valid_name(const char* name) {
  if (!name || *name == '\0') return false;
  for (const char* c = name; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')) return false;
  return true;
}

bool valid_align(uint32_t a) { return a != 0 && std::has_single_bit(a) && a <= RTB_CC_MAX_ALIGN; }

Status missing(std::string_view origin, std::string_view name, std::string_view hook,
               std::string_view why) {
  return Error{fmt::format("congestion-control algorithm '{}' ({}) is refused: hook {} is NULL "
                           "but {}",
                           name, origin, hook, why)};
}

}  // namespace

Status check_ops(const rtb_cc_ops* ops, std::string_view origin) {
  if (!ops) return Error{fmt::format("congestion-control plug-in {} returned no ops table", origin)};
  if (ops->abi_version != RTB_CC_ABI_VERSION)
    return Error{fmt::format(
        "congestion-control plug-in {} is built for rocetb CC ABI version {}, but this rocetb "
        "uses version {}: rebuild it against this rocetb's cc_algos/rocetb_cc.h",
        origin, ops->abi_version, RTB_CC_ABI_VERSION)};
  if (!valid_name(ops->name))
    return Error{fmt::format("congestion-control algorithm from {} is refused: its name must be "
                             "non-empty and use only a-z, 0-9 and _",
                             origin)};
  const std::string_view name = ops->name;
  if (ops->state_bytes == 0 || ops->state_bytes > RTB_CC_MAX_STATE_BYTES)
    return Error{fmt::format("congestion-control algorithm '{}' ({}) is refused: per-flow state "
                             "of {} bytes; expected 1..{} bytes",
                             name, origin, ops->state_bytes, RTB_CC_MAX_STATE_BYTES)};
  if (!valid_align(ops->state_align) || !valid_align(ops->params_align))
    return Error{fmt::format("congestion-control algorithm '{}' ({}) is refused: state_align {} "
                             "and params_align {} must be powers of two up to {}",
                             name, origin, ops->state_align, ops->params_align, RTB_CC_MAX_ALIGN)};
  if (ops->params_bytes == 0 || ops->params_bytes > RTB_CC_MAX_PARAMS_BYTES)
    return Error{fmt::format("congestion-control algorithm '{}' ({}) is refused: parameters of "
                             "{} bytes; expected 1..{} bytes",
                             name, origin, ops->params_bytes, RTB_CC_MAX_PARAMS_BYTES)};
  if ((ops->feedback & ~static_cast<uint32_t>(RTB_CC_FEEDBACK_ALL)) != 0)
    return Error{fmt::format("congestion-control algorithm '{}' ({}) is refused: unknown "
                             "feedback bits 0x{:x}",
                             name, origin, ops->feedback & ~static_cast<uint32_t>(RTB_CC_FEEDBACK_ALL))};
  if ((ops->feedback & ~kDeliverableFeedback) != 0)
    return Error{fmt::format("congestion-control algorithm '{}' ({}) is refused: feedback bits "
                             "0x{:x} are not produced by rocetb's datapath",
                             name, origin, ops->feedback & ~kDeliverableFeedback)};
  if (!ops->parse_params) return missing(origin, name, "parse_params", "it is required");
  if (!ops->on_start) return missing(origin, name, "on_start", "it is required");
  if (!ops->on_timer) return missing(origin, name, "on_timer", "it is required");
  if ((ops->feedback & RTB_CC_FEEDBACK_CNP) && !ops->on_cnp)
    return missing(origin, name, "on_cnp", "the algorithm asks for CNP feedback");
  if ((ops->feedback & (RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT | RTB_CC_FEEDBACK_INT)) &&
      !ops->on_ack)
    return missing(origin, name, "on_ack", "the algorithm asks for ACK, RTT or INT feedback");
  return {};
}

Expected<Algorithm> Algorithm::from_ops(const rtb_cc_ops* ops, std::string origin,
                                        std::shared_ptr<void> library) {
  if (Status s = check_ops(ops, origin); !s) return Error{s.message()};
  return Algorithm(ops, std::move(origin), std::move(library));
}

}  // namespace rtb::cc
