// The `rocetb run` options that ask for captures (lib/tap):
//   --capture WHAT            repeatable: all, hosts-tx, a node, a link h0-sw0, a port sw0:Ethernet0
//   --capture-snaplen BYTES   bytes kept of each frame (14 to 262144; default: whole frames)
//   --capture-max-frames N    frames per file at most
//   --capture-max-bytes SIZE  size of each file at most, e.g. 64MB, 1GiB
//   --capture-queue SIZE      realtime: queue per captured link direction (default 8MiB)
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "tap/capture_request.h"

namespace rtb::apps {

struct CaptureArgs {
  std::vector<std::string> what;
  std::optional<std::string> snaplen;  // as typed: checked by to_request()
  std::optional<std::string> max_frames;
  std::optional<std::string> max_bytes;
  std::optional<std::string> queue;
};

void add_capture_options(CLI::App& cmd, CaptureArgs& args);

// The request for results folder `dir`; the error names the option, the value and what
// was expected. The WHATs are checked against the scenario later (tap::plan_captures).
Expected<tap::CaptureRequest> to_request(const CaptureArgs& args, const std::string& dir);

}  // namespace rtb::apps
