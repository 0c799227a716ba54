// rocetb replay CAPTURE --closed-loop SCENARIO [--map ADDR=HOST ...] [--set KEY=VALUE ...]
//              [--speed X] [--cc ALGORITHM] [--seed N] [--out DIR [--force]] [--no-plots] [--quiet]
//
// The scenario with its [[traffic]] replaced by the capture's data streams (pattern
// "capture", the --map pairs as its hosts), run as `rocetb run` runs it, plus replay.json,
// replay.csv and a table putting each stream's figures at the tap beside its flow's
// (lib/replay/README.md).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "apps/replay_args.h"

namespace rtb::apps {

struct ClosedLoopArgs {
  std::string scenario;
  std::string cc;
  std::optional<std::string> seed;
  bool verbose = false;
  bool quiet = false;
};

// Adds --closed-loop and its options to the replay command; returns --closed-loop.
CLI::Option* add_closed_loop_options(CLI::App& cmd, ClosedLoopArgs& args);
// --speed X divides the captured start times (the pattern's time_scale 1/X).
int run_closed_loop(const ReplayArgs& common, const ClosedLoopArgs& a, const std::string& command_line);

}  // namespace rtb::apps
