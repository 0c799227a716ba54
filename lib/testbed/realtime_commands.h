// The [[realtime.commands]] of a realtime run (scenarios/README.md): "stop" or "set NAME
// VALUE" at a scenario time. Every "set" is prepared before the run starts (the CC
// controller reconfigured with the parameters so far, so a bad value is an error before
// anything runs). The control thread issues each when the run's clock reaches it, through
// one lock-free channel per lcore that holds hosts to a ControlStage on that lcore, where
// the lcore's own controller adopts the prepared parameters (lib/realtime/control.h; one
// owner per piece of state: no lcore writes a controller another lcore's hosts read, and
// nothing is allocated or freed on a worker).
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
#include "testbed/testbed.h"

namespace rtb::testbed {

class RealtimeCommands {
 public:
  // `targets`: the controllers the hosts use, one per lcore (Testbed::lcore_controllers());
  // they must outlive this object.
  static Expected<std::unique_ptr<RealtimeCommands>> prepare(const scenario::Scenario& s,
                                                            const cc::Algorithm& algorithm,
                                                            std::vector<LcoreController>& targets);
  // The stages that apply "set" commands, each with its lcore; none without "set".
  std::vector<Placed> placements() const;
  // Control thread: issues every command due at `now`; "stop" calls `stop`. A "set" goes
  // to every lcore at once, or, while a channel is full, waits for the next call.
  void issue(Time now, const std::function<void()>& stop);
  // After the run: [{"at_ns", "command", "issued_at_ns" (null: never), "applied",
  // "applied_on_lcores"}]; a "set" is applied when every lcore holding hosts adopted it.
  nlohmann::ordered_json to_json() const;

 private:
  // One lcore's way in: its channel and the stage that adopts into its controller.
  struct Target {
    unsigned lcore;
    std::unique_ptr<realtime::ControlChannel> channel;
    std::unique_ptr<realtime::ControlStage> stage;
  };

  explicit RealtimeCommands(const scenario::Scenario& s) : commands_(s.realtime.commands) {}
  bool push_everywhere(const realtime::ControlRequest& r);

  const std::vector<scenario::RealtimeCommand>& commands_;
  std::vector<cc::Controller> originals_;  // keep the first parameters alive until the end
  std::vector<std::unique_ptr<cc::Controller>> prepared_;  // per command; null for "stop"
  std::vector<Target> targets_;
  size_t next_ = 0;
  std::vector<Time> issued_at_;  // control thread only
};

}  // namespace rtb::testbed
