// A configured algorithm: an Algorithm plus its parsed parameters. This is what the host
// stage calls, once per event, with the flow's state (from a FlowTable) and `now`.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cc_algos/algorithm.h"
#include "cc_algos/np/notification_point.h"
#include "cc_algos/params.h"
#include "core/error.h"
#include "core/units.h"

namespace rtb::cc {

struct FlowStart {
  Rate line_rate;
  Time base_rtt = Time::zero();  // zero: unknown
  uint64_t flow_id = 0;
  uint32_t hop_count = 0;  // switches on the path; zero: unknown or direct
};

struct AckEvent {
  Bytes acked;
  Time rtt = Time::zero();  // zero: no sample
  bool ecn_echo = false;
  bool nak = false;
  std::span<const rtb_cc_int_hop> hops;
};

class Controller {
 public:
  const Algorithm& algorithm() const { return algorithm_; }
  // Legal but suspicious settings, each with the reason and the arithmetic.
  const std::vector<std::string>& warnings() const { return warnings_; }

  Decision start(void* state, const FlowStart& start, Time now) const;
  Decision on_timer(void* state, Time now) const;
  // Feedback the algorithm did not ask for (no hook) is treated as a timer call at now.
  Decision on_cnp(void* state, Time now) const;
  Decision on_ack(void* state, const AckEvent& ack, Time now) const;
  // nullopt when the algorithm has no bytes-sent hook (the host may skip the call).
  std::optional<Decision> on_bytes_sent(void* state, Bytes sent, Time now) const;
  bool wants_bytes_sent() const { return algorithm_.ops().on_bytes_sent != nullptr; }

  // The receiver's CNP settings (the algorithm's np_* parameters, or mlx5 defaults).
  NpParams np_params() const;

  // The algorithm's typed state of a flow as named numbers (empty without the hook).
  struct StateView {
    std::array<rtb_cc_state_field, RTB_CC_MAX_STATE_FIELDS> fields{};
    size_t count = 0;
  };
  StateView describe_state(const void* state, Time now) const;

  // Every parameter as the algorithm resolved it, defaults included (rtb_cc_ops
  // describe_params); nullopt when the algorithm does not say (no hook).
  struct ParamsView {
    std::array<rtb_cc_state_field, RTB_CC_MAX_PARAM_FIELDS> fields{};
    size_t count = 0;
  };
  std::optional<ParamsView> resolved_params() const;

  const void* params_blob() const { return params_.get(); }

  // Takes `other`'s parameters (the same algorithm, reconfigured): a realtime run changes
  // a parameter while it goes. Copies a shared pointer, allocates nothing; the caller
  // keeps `other` and a copy of this controller's old parameters alive, so nothing is
  // freed on the worker lcore either.
  void adopt_params(const Controller& other) { params_ = other.params_; }

 private:
  friend Expected<Controller> configure(const Algorithm&, const ParamMap&);
  Controller(Algorithm a, std::shared_ptr<void> params, std::vector<std::string> warnings)
      : algorithm_(std::move(a)), params_(std::move(params)), warnings_(std::move(warnings)) {}
  Algorithm algorithm_;
  std::shared_ptr<void> params_;  // params_bytes, params_align-aligned
  std::vector<std::string> warnings_;
};

// Parses `params` with the algorithm's own parse_params. Errors (all of them, one per
// line) refuse the configuration; warnings are kept in the Controller.
Expected<Controller> configure(const Algorithm& algorithm, const ParamMap& params);

}  // namespace rtb::cc
