// rocetb replay CAPTURE MODE [options]: a capture's traffic back into the testbed.
//
//   --through SCENARIO   through the model: the frames into the scenario's switches
//
// Exactly one mode; the options every mode shares are in replay_args.h.
#include <memory>
#include <string>

#include "apps/commands.h"
#include "apps/replay_args.h"
#include "apps/replay_through.h"

namespace rtb::apps {
namespace {

struct ReplayCommand {
  ReplayArgs common;
  ThroughArgs through;
};

}  // namespace

Command add_replay_command(CLI::App& app, int argc, char** argv) {
  auto args = std::make_shared<ReplayCommand>();
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App* cmd = app.add_subcommand("replay", "replay a pcap/pcapng capture's RoCE traffic through a scenario's switches");
  cmd->add_option("capture", args->common.capture, "pcap or pcapng capture file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--speed", args->common.speed, "captured gaps divided by this factor (default 1: as captured)");
  cmd->add_option("--map", args->common.map,
                  "ADDRESS=HOST: the capture's address played by the scenario's host (repeatable; "
                  "the rest in order of first appearance to the hosts not named, in index order)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--set", args->common.set, "override any scenario key: --set switch.ecn.kmin=50KB")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--out", args->common.out, "results folder (default results/replay-<capture>-<scenario>-<time>)");
  cmd->add_flag("--force", args->common.force, "write into a non-empty --out folder, replacing an earlier run's results");
  CLI::Option* through = add_through_options(*cmd, args->through);
  through->required();  // the one mode so far
  return [args, command_line] { return replay_through(args->common, args->through, command_line); };
}

}  // namespace rtb::apps
