// rocetb replay CAPTURE --to DEVICE: the open-loop mode's own options and its run
// (lib/replay/open_loop.h).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "apps/replay_args.h"

namespace rtb::apps {

struct OpenLoopArgs {
  std::vector<std::string> to;  // --to DEVICE (a list, to catch repeats)
  std::string rate;
  bool top_speed = false;
  std::string loop = "1", lcore = "0", burst = "32";
  bool json = false;
};

// Adds --to and its options to the replay command; returns --to.
CLI::Option* add_open_loop_options(CLI::App& cmd, OpenLoopArgs& args);
int replay_to(const ReplayArgs& common, const OpenLoopArgs& args, const std::string& device);

}  // namespace rtb::apps
