// rocetb replay CAPTURE --closed-loop SCENARIO [--map ADDR=HOST ...] [--set KEY=VALUE ...]
//              [--cc ALGORITHM] [--seed N] [--out DIR [--force]]
//
// The scenario with its [[traffic]] replaced by the capture's data streams (pattern
// "capture", the --map pairs as its hosts), run as `rocetb run` runs it, plus replay.json,
// replay.csv and a table putting each stream's figures at the tap beside its flow's
// (lib/replay/README.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rtb::apps {

struct ClosedLoopArgs {
  std::string capture;
  std::string scenario;
  std::vector<std::string> map;  // ADDRESS=HOST
  std::vector<std::string> set;
  std::string cc;
  std::optional<std::string> seed;
  std::string out;
  bool force = false;
  bool verbose = false;
};

int run_closed_loop(const ClosedLoopArgs& a, const std::string& command_line);

}  // namespace rtb::apps
