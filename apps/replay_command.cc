// rocetb replay CAPTURE MODE ...: a capture replayed. Exactly one mode:
//   --closed-loop SCENARIO   its data streams as the flows of a scenario run (replay_closed_loop.h)
#include <cstdio>
#include <memory>
#include <string>

#include "apps/commands.h"
#include "apps/replay_closed_loop.h"

namespace rtb::apps {

Command add_replay_command(CLI::App& app, int argc, char** argv) {
  auto closed = std::make_shared<ClosedLoopArgs>();
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App* cmd = app.add_subcommand("replay", "replay a capture's RoCE traffic (one mode: --closed-loop SCENARIO)");
  cmd->add_option("capture", closed->capture, "capture file (pcap or pcapng)")->required()->check(CLI::ExistingFile);
  CLI::Option* closed_loop = cmd->add_option(
      "--closed-loop", closed->scenario,
      "run SCENARIO with its [[traffic]] replaced by the capture's data streams (one flow per stream, its "
      "captured messages) and compare each flow with the capture")->check(CLI::ExistingFile);
  cmd->add_option("--map", closed->map, "ADDRESS=HOST: the topology host of a capture address (repeatable; "
                  "the other addresses go to the other hosts in index order)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->needs(closed_loop);
  cmd->add_option("--set", closed->set, "override a scenario key: --set cc.algorithm=\"dctcp\"")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->needs(closed_loop);
  cmd->add_option("--cc", closed->cc, "congestion control: a registered name or a plug-in .so path")->needs(closed_loop);
  cmd->add_option("--seed", closed->seed, "override run.seed (0 to 2^63-1)")->needs(closed_loop);
  cmd->add_option("--out", closed->out, "results folder (default results/<scenario>-<time>-replay=<capture>...)")
      ->needs(closed_loop);
  cmd->add_flag("--force", closed->force, "write into a non-empty --out folder holding an earlier run's results");
  cmd->add_flag("--verbose", closed->verbose, "show the DPDK EAL's own output when it fails to start");
  return [closed, command_line, closed_loop] {
    if (closed_loop->count() == 0) {
      std::fprintf(stderr, "rocetb replay: expected a mode: --closed-loop SCENARIO\n");
      return 2;
    }
    return run_closed_loop(*closed, command_line);
  };
}

}  // namespace rtb::apps
