// The options every mode of `rocetb replay CAPTURE` shares (apps/replay_command.cc), and
// their readers.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace rtb::apps {

struct ReplayArgs {
  std::string capture;
  std::string out;
  bool force = false;
  std::string speed;              // captured gaps divided by this; empty: as captured
  std::vector<std::string> map;   // ADDRESS=HOST (--through, --closed-loop)
  std::vector<std::string> set;   // scenario overrides (--through, --closed-loop)
  bool no_plots = false;          // --through, --closed-loop
};

// --speed: a factor above 0 (2 = twice as fast as captured); empty: 1.
Expected<double> parse_speed(const std::string& text);

// --map ADDRESS=HOST, each split as written (map_endpoints checks address and host).
Expected<std::vector<std::pair<std::string, std::string>>> parse_map(const std::vector<std::string>& map);

}  // namespace rtb::apps
