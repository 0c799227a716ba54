// The options every mode of `rocetb replay CAPTURE` shares (apps/replay_command.cc).
#pragma once

#include <string>
#include <vector>

namespace rtb::apps {

struct ReplayArgs {
  std::string capture;
  std::string out;
  bool force = false;
  std::string speed;              // captured gaps divided by this; empty: as captured
  std::vector<std::string> map;   // ADDRESS=HOST (--through, --closed-loop)
  std::vector<std::string> set;   // scenario overrides (--through, --closed-loop)
};

}  // namespace rtb::apps
