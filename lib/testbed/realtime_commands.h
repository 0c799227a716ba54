// The [[realtime.commands]] of a realtime run (scenarios/README.md): "stop" or "set NAME
// VALUE" at a scenario time. Every "set" is prepared before the run starts (the CC
// controller reconfigured with the parameters so far, so a bad value is an error before
// anything runs); the control thread issues each when the run's clock reaches it, through
// a lock-free channel to a ControlStage on the hosts' lcore, where the hosts' controller
// adopts the prepared parameters (lib/realtime/control.h; nothing allocated or freed on
// the worker).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "cc_algos/controller.h"
#include "cc_algos/registry.h"
#include "core/error.h"
#include "realtime/control.h"
#include "scenario/scenario.h"

namespace rtb::testbed {

class RealtimeCommands {
 public:
  // `live` is the controller the hosts use; it must outlive this object.
  static Expected<std::unique_ptr<RealtimeCommands>> prepare(const scenario::Scenario& s,
                                                            const cc::Algorithm& algorithm,
                                                            cc::Controller& live);
  // The stage that applies "set" commands, on lcore(); null when there are none.
  realtime::ControlStage* stage() { return stage_.get(); }
  unsigned lcore() const { return lcore_; }
  // Control thread: issues every command due at `now`; "stop" calls `stop`.
  void issue(Time now, const std::function<void()>& stop);
  // After the run: [{"at_ns", "command", "issued_at_ns" (null: never), "applied"}].
  nlohmann::ordered_json to_json() const;

 private:
  RealtimeCommands(const scenario::Scenario& s, cc::Controller& live);

  const std::vector<scenario::RealtimeCommand>& commands_;
  cc::Controller& live_;
  cc::Controller original_;  // keeps the first parameters alive until the end
  std::vector<std::unique_ptr<cc::Controller>> prepared_;  // per command; null for "stop"
  realtime::ControlChannel channel_;
  std::unique_ptr<realtime::ControlStage> stage_;
  unsigned lcore_ = 0;
  size_t next_ = 0;
  std::vector<Time> issued_at_;  // control thread only
};

}  // namespace rtb::testbed
