// rocetb replay CAPTURE --through SCENARIO: the mode's own options and its run
// (lib/replay/through.h).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "apps/capture_options.h"
#include "apps/replay_args.h"

namespace rtb::apps {

struct ThroughArgs {
  std::string scenario;
  std::string tail = "1ms";
  std::string dedup_window = "0s";
  std::string duration;  // empty: the last frame's due time + tail
  CaptureArgs capture;
};

// Adds --through and its options to the replay command.
CLI::Option* add_through_options(CLI::App& cmd, ThroughArgs& args);
int replay_through(const ReplayArgs& common, const ThroughArgs& args, const std::string& command_line);

}  // namespace rtb::apps
