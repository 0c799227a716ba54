#include "testbed/realtime_commands.h"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace rtb::testbed {
namespace {

// The hosts' lcore: one controller serves them all, so they must share one.
Expected<unsigned> hosts_lcore(const scenario::Scenario& s) {
  std::set<unsigned> lcores;
  for (const scenario::NodeRef& n : s.realtime.nodes) {
    if (n.kind == scenario::NodeKind::kHost) lcores.insert(s.realtime.lcore_of(n));
  }
  if (lcores.size() > 1) {
    return Error{"realtime.commands: \"set\" changes the controller every host of this process "
                 "shares, so its hosts must be on one lcore: place them together"};
  }
  return lcores.empty() ? s.realtime.lcores.front() : *lcores.begin();
}

cc::ParamValue as_param(double v) {
  if (std::nearbyint(v) == v && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
  return v;
}

}  // namespace

RealtimeCommands::RealtimeCommands(const scenario::Scenario& s, cc::Controller& live)
    : commands_(s.realtime.commands), live_(live), original_(live) {}

Expected<std::unique_ptr<RealtimeCommands>> RealtimeCommands::prepare(const scenario::Scenario& s,
                                                                     const cc::Algorithm& algorithm,
                                                                     cc::Controller& live) {
  std::unique_ptr<RealtimeCommands> c(new RealtimeCommands(s, live));
  cc::ParamMap params = s.cc.params;
  bool any_set = false;
  for (size_t i = 0; i < c->commands_.size(); ++i) {
    const scenario::RealtimeCommand& cmd = c->commands_[i];
    if (cmd.param.empty()) {
      c->prepared_.push_back(nullptr);
      continue;
    }
    params[cmd.param] = as_param(cmd.value);
    auto configured = cc::configure(algorithm, params);
    if (!configured) {
      return Error{fmt::format("realtime.commands[{}] ({}): {}", i, cmd.command, configured.error().message)};
    }
    c->prepared_.push_back(std::make_unique<cc::Controller>(std::move(configured).value()));
    any_set = true;
  }
  if (any_set) {
    auto lcore = hosts_lcore(s);
    if (!lcore) return Error{lcore.error().message};
    c->lcore_ = lcore.value();
    cc::Controller& target = c->live_;
    c->stage_ = std::make_unique<realtime::ControlStage>(
        "commands", c->channel_, [&target](const realtime::ControlRequest& r, Time) {
          target.adopt_params(*static_cast<const cc::Controller*>(r.payload));
        });
  }
  c->issued_at_.assign(c->commands_.size(), Time::never());
  return c;
}

void RealtimeCommands::issue(Time now, const std::function<void()>& stop) {
  while (next_ < commands_.size() && commands_[next_].at <= now) {
    const scenario::RealtimeCommand& cmd = commands_[next_];
    if (cmd.param.empty()) {
      stop();
    } else {
      auto request = realtime::set_param_request(cmd.param.substr(0, realtime::ControlRequest::kMaxKeyLength),
                                                 cmd.value);
      request.value().payload = prepared_[next_].get();
      if (!channel_.push(request.value())) return;  // full: try again next period
    }
    issued_at_[next_++] = now;
  }
}

nlohmann::ordered_json RealtimeCommands::to_json() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  uint64_t handled = stage_ ? stage_->handled() : 0;
  for (size_t i = 0; i < commands_.size(); ++i) {
    const bool issued = !issued_at_[i].is_never();
    bool applied = issued && commands_[i].param.empty();
    if (issued && !commands_[i].param.empty() && handled > 0) {
      applied = true;
      --handled;
    }
    out.push_back({{"at_ns", static_cast<double>(commands_[i].at.ps()) / 1e3},
                   {"command", commands_[i].command},
                   {"issued_at_ns", issued ? nlohmann::ordered_json(static_cast<double>(issued_at_[i].ps()) / 1e3)
                                           : nlohmann::ordered_json(nullptr)},
                   {"applied", applied}});
  }
  return out;
}

}  // namespace rtb::testbed
