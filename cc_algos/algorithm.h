// An algorithm = a checked ops table (rocetb_cc.h). Built-ins and plug-ins are the same
// type and go through the same checks; a plug-in's Algorithm keeps its shared object
// loaded for as long as any copy lives.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cc_algos/rocetb_cc.h"
#include "core/error.h"
#include "core/units.h"

namespace rtb::cc {

enum class Feedback : uint32_t {
  kCnp = RTB_CC_FEEDBACK_CNP,
  kAck = RTB_CC_FEEDBACK_ACK,
  kRtt = RTB_CC_FEEDBACK_RTT,
  kInt = RTB_CC_FEEDBACK_INT,
};

// Feedback rocetb's datapath produces: CNPs, ACKs (acked bytes, BECN echo, NAK), RTT
// samples and INT hops (switches push HPCC records, receivers echo them in ACKs).
inline constexpr uint32_t kDeliverableFeedback =
    RTB_CC_FEEDBACK_CNP | RTB_CC_FEEDBACK_ACK | RTB_CC_FEEDBACK_RTT | RTB_CC_FEEDBACK_INT;

// A decision in rocetb's unit types.
struct Decision {
  Rate rate;
  std::optional<Bytes> window;  // none for rate-only algorithms
  Time next_deadline = Time::never();

  static Decision from_abi(const rtb_cc_decision& d) {
    return Decision{Rate::bps(d.rate_bps),
                    d.window_bytes == RTB_CC_NO_WINDOW ? std::nullopt
                                                       : std::optional<Bytes>(Bytes(d.window_bytes)),
                    Time::ps(d.next_deadline_ps)};
  }
  rtb_cc_decision to_abi() const {
    return rtb_cc_decision{rate.bps(), window ? window->count() : RTB_CC_NO_WINDOW,
                           next_deadline.ps()};
  }
  bool operator==(const Decision&) const = default;
};

// Checks everything rocetb relies on: ABI version, name, required hooks for the declared
// feedback, feedback the datapath can deliver (kDeliverableFeedback), state and parameter
// sizes and alignments. `origin` names where the table
// came from ("built-in", a .so path) for the message.
Status check_ops(const rtb_cc_ops* ops, std::string_view origin);

class Algorithm {
 public:
  // Checks `ops`; `library` keeps a plug-in loaded (empty for built-ins).
  static Expected<Algorithm> from_ops(const rtb_cc_ops* ops, std::string origin,
                                      std::shared_ptr<void> library = {});

  const rtb_cc_ops& ops() const { return *ops_; }
  std::string_view name() const { return ops_->name; }
  std::string_view origin() const { return origin_; }
  uint32_t state_bytes() const { return ops_->state_bytes; }
  uint32_t state_align() const { return ops_->state_align; }
  bool needs(Feedback f) const { return (ops_->feedback & static_cast<uint32_t>(f)) != 0; }

 private:
  Algorithm(const rtb_cc_ops* ops, std::string origin, std::shared_ptr<void> library)
      : ops_(ops), origin_(std::move(origin)), library_(std::move(library)) {}
  const rtb_cc_ops* ops_;
  std::string origin_;
  std::shared_ptr<void> library_;
};

}  // namespace rtb::cc
