// Which link directions each capture file holds. A WHAT names
//
//   all             every direction of every link
//   hosts-tx        every direction a host sends on: each frame once, as the hosts' NICs
//                   sent it (the capture to replay through a model: rocetb replay --through)
//   a node          h0, sw0: both directions of every link of that node
//   a link          h0-sw0 (either order; ends may name a port: sw0:Ethernet0-h0): both
//                   directions of every cable between the two
//   a switch port   sw0:Ethernet32 (the port names of the switch, SONiC style): both
//                   directions of the cable on that port
//
// Each WHAT is one file, capture-<WHAT>.pcapng (':' written '_'), with one interface per
// direction in link order, a to b first, named after the direction: "h0->sw0:Ethernet0".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "scenario/scenario.h"

namespace rtb::tap {

inline constexpr std::string_view kHostsTx = "hosts-tx";

// One direction of scenario link `link`: from its end a to its end b, or back.
struct Direction {
  uint32_t link = 0;
  bool a_to_b = true;
  bool operator==(const Direction&) const = default;
};

struct FilePlan {
  std::string what;       // as given
  std::string file_name;  // capture-<what>.pcapng
  std::vector<Direction> directions;
};

// One plan per WHAT, in the order given. The error names the option (`option`, e.g.
// "--capture"), the value, the nearest known name when one is close, and what is expected.
Expected<std::vector<FilePlan>> plan_captures(const scenario::Topology& topo,
                                              const std::vector<std::string>& what,
                                              const std::string& option);

// "h0" for a host end, "sw0:Ethernet0" for a switch port.
std::string end_name(const scenario::Topology& topo, const scenario::LinkEnd& end);
// "h0->sw0:Ethernet0": the interface name of a direction.
std::string direction_name(const scenario::Topology& topo, Direction d);

}  // namespace rtb::tap
