// rocetb replay CAPTURE MODE [options]: a capture's traffic back into the testbed.
// Exactly one mode, each its own file:
//   --to DEVICE          open loop into a DPDK port (replay_to.cc)
//   --through SCENARIO   through the model: into the scenario's switches (replay_through.cc)
//   --closed-loop SCENARIO  closed loop: the capture's streams as the scenario's flows,
//                        under its CC (replay_closed_loop.cc)
// The options every mode shares are in replay_args.h; an option of another mode is refused.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.h"
#include "apps/replay_args.h"
#include "apps/replay_closed_loop.h"
#include "apps/replay_through.h"
#include "apps/replay_to.h"

namespace rtb::apps {
namespace {

constexpr const char* kWho = "rocetb replay";

struct ReplayCommand {
  ReplayArgs common;
  OpenLoopArgs to;
  ThroughArgs through;
  ClosedLoopArgs closed;
};

struct ModeOption {
  const char* name;
  const char* value;  // what it takes, for the messages
  CLI::Option* option;
};

// The one mode given: its option, or an error listing what was given.
Expected<std::string> pick_mode(const std::vector<ModeOption>& modes) {
  std::vector<std::string> given;
  std::string mode;
  for (const ModeOption& m : modes) {
    for (const std::string& v : m.option->results()) {
      given.push_back(fmt::format("{} '{}'", m.name, v));
      mode = m.name;
    }
  }
  if (given.size() == 1) return mode;
  std::string all;
  for (const ModeOption& m : modes) all += fmt::format("{}{} {}", all.empty() ? "" : ", ", m.name, m.value);
  if (given.empty()) return Error{fmt::format("no mode given: expected exactly one of {}", all)};
  return Error{fmt::format("{}: expected exactly one mode ({}), given once", fmt::join(given, ", "), all)};
}

// Options that belong to one mode, refused with another.
Status check_options(const CLI::App& cmd, const std::string& mode) {
  struct Owned {
    const char* option;
    std::vector<std::string> modes;
  };
  const std::vector<Owned> owned = {
      {"--rate", {"--to"}}, {"--top-speed", {"--to"}}, {"--loop", {"--to"}}, {"--lcore", {"--to"}},
      {"--burst", {"--to"}}, {"--json", {"--to"}}, {"--map", {"--through", "--closed-loop"}},
      {"--set", {"--through", "--closed-loop"}}, {"--tail", {"--through"}}, {"--duration", {"--through"}},
      {"--dedup-window", {"--through"}}, {"--capture", {"--through"}}, {"--cc", {"--closed-loop"}},
      {"--seed", {"--closed-loop"}}, {"--verbose", {"--closed-loop"}}, {"--no-plots", {"--through", "--closed-loop"}},
      {"--quiet", {"--closed-loop"}},
  };
  for (const Owned& o : owned) {
    if (cmd.count(o.option) == 0 || std::find(o.modes.begin(), o.modes.end(), mode) != o.modes.end()) continue;
    return Error{fmt::format("{} applies to {}, not to {}", o.option, fmt::join(o.modes, " or "), mode)};
  }
  return {};
}

}  // namespace

Command add_replay_command(CLI::App& app, int argc, char** argv) {
  auto args = std::make_shared<ReplayCommand>();
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App* cmd = app.add_subcommand("replay", "replay a pcap/pcapng capture: open loop into a DPDK port, "
                                               "through a scenario's switches, or closed loop under any CC");
  cmd->add_option("capture", args->common.capture, "pcap or pcapng capture file")->required();
  cmd->add_option("--speed", args->common.speed, "captured gaps divided by this factor (2 = twice as fast)");
  cmd->add_option("--map", args->common.map,
                  "ADDRESS=HOST: the capture's address played by the scenario's host (repeatable; "
                  "else a host's own address plays it, the rest go to the hosts left in order)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--set", args->common.set, "override any scenario key: --set switch.wred_profile.green_min_threshold=50KB")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--out", args->common.out, "results folder");
  cmd->add_flag("--force", args->common.force, "write into a non-empty --out folder, replacing an earlier result there");
  cmd->add_flag("--no-plots", args->common.no_plots,
                "--through, --closed-loop: write no plot-*.png and no report.html (scripts/plot.py DIR draws them later)");
  const std::vector<ModeOption> modes = {
      {"--to", "DEVICE", add_open_loop_options(*cmd, args->to)},
      {"--through", "SCENARIO", add_through_options(*cmd, args->through)},
      {"--closed-loop", "SCENARIO", add_closed_loop_options(*cmd, args->closed)},
  };
  return [args, command_line, cmd, modes] {
    auto mode = pick_mode(modes);
    Status ok = mode ? check_options(*cmd, mode.value()) : Status(mode.error());
    if (!ok) {
      print_error(kWho, ok.message());
      return 2;
    }
    if (mode.value() == "--to") return replay_to(args->common, args->to, args->to.to.front());
    if (mode.value() == "--through") return replay_through(args->common, args->through, command_line);
    return run_closed_loop(args->common, args->closed, command_line);
  };
}

}  // namespace rtb::apps
