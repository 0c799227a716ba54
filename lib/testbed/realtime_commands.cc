#include "testbed/realtime_commands.h"

#include <fmt/format.h>

#include <cmath>

namespace rtb::testbed {
namespace {

cc::ParamValue as_param(double v) {
  if (std::nearbyint(v) == v && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
  return v;
}

}  // namespace

Expected<std::unique_ptr<RealtimeCommands>> RealtimeCommands::prepare(
    const scenario::Scenario& s, const cc::Algorithm& algorithm, std::vector<LcoreController>& targets) {
  std::unique_ptr<RealtimeCommands> c(new RealtimeCommands(s));
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
  c->issued_at_.assign(c->commands_.size(), Time::never());
  if (!any_set) return c;
  for (LcoreController& t : targets) {
    c->originals_.push_back(*t.controller);
    cc::Controller& mine = *t.controller;
    auto channel = std::make_unique<realtime::ControlChannel>();
    auto stage = std::make_unique<realtime::ControlStage>(
        fmt::format("commands{}", t.lcore), *channel, [&mine](const realtime::ControlRequest& r, Time) {
          mine.adopt_params(*static_cast<const cc::Controller*>(r.payload));
        });
    c->targets_.push_back(Target{t.lcore, std::move(channel), std::move(stage)});
  }
  return c;
}

std::vector<Placed> RealtimeCommands::placements() const {
  std::vector<Placed> v;
  for (const Target& t : targets_) v.push_back({t.stage.get(), t.lcore});
  return v;
}

// All or nothing, so that every lcore sees the same commands in the same order: the
// control thread is each channel's only producer, so room() cannot shrink meanwhile.
bool RealtimeCommands::push_everywhere(const realtime::ControlRequest& r) {
  for (const Target& t : targets_) {
    if (t.channel->room() == 0) return false;
  }
  for (Target& t : targets_) t.channel->push(r);
  return true;
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
      if (!push_everywhere(request.value())) return;  // full: try again next period
    }
    issued_at_[next_++] = now;
  }
}

nlohmann::ordered_json RealtimeCommands::to_json() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  uint64_t sets_before = 0;  // "set" commands before this one: each stage handles them in order
  for (size_t i = 0; i < commands_.size(); ++i) {
    const bool issued = !issued_at_[i].is_never();
    const bool is_set = !commands_[i].param.empty();
    nlohmann::ordered_json lcores = nlohmann::ordered_json::array();
    bool applied = issued;
    if (is_set) {
      for (const Target& t : targets_) {
        const bool here = issued && t.stage->handled() > sets_before;
        if (here) lcores.push_back(t.lcore);
        applied = applied && here;
      }
      ++sets_before;
    }
    out.push_back({{"at_ns", static_cast<double>(commands_[i].at.ps()) / 1e3},
                   {"command", commands_[i].command},
                   {"issued_at_ns", issued ? nlohmann::ordered_json(static_cast<double>(issued_at_[i].ps()) / 1e3)
                                           : nlohmann::ordered_json(nullptr)},
                   {"applied", applied},
                   {"applied_on_lcores", std::move(lcores)}});
  }
  return out;
}

}  // namespace rtb::testbed
