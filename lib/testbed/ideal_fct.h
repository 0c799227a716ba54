// A flow's ideal completion time: how long it takes alone on an idle network, the
// denominator of its FCT slowdown (HPCC, Li et al., SIGCOMM 2019, §5: "FCT slowdown is a
// flow's actual FCT normalized by its ideal FCT when the network only has this flow").
//
// As the HPCC simulator computes it (simulation/scratch/third.cc, qp_finish:
// standalone_fct = base_rtt + total_bytes * 8 / pair bandwidth): the flow's base RTT
// (base_rtt.h) plus every byte its frames put on the wire (headers, ICRC, FCS, preamble
// and gap, as WireLink counts them) at the path's slowest link. A flow of one frame is a
// little under its ideal (its frame is counted in the base RTT and again here), as in the
// simulator; every larger flow is above it by what queues and the algorithm cost.
#pragma once

#include <optional>

#include "core/units.h"
#include "scenario/scenario.h"
#include "testbed/base_rtt.h"

namespace rtb::testbed {

// Bytes on the wire of one message of `size` bytes: frames of at most `path_mtu` bytes of
// payload, the first with the RETH of a WRITE (a SEND has none), each at least one frame.
Bytes message_wire_bytes(Bytes size, uint32_t path_mtu, bool write, bool tagged);

// nullopt: the flow has no fixed size, is several messages (pattern "capture": each starts
// on its own), or has no path.
// `path`: the flow's base path, when it is known already.
std::optional<Time> ideal_fct(const scenario::Topology& topo, const scenario::Flow& flow,
                              const BasePath& path);
inline std::optional<Time> ideal_fct(const scenario::Topology& topo, const scenario::Flow& flow) {
  return ideal_fct(topo, flow, base_path(topo, flow));
}

}  // namespace rtb::testbed
