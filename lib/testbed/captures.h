// `rocetb run --capture`: the run's CaptureSet (lib/tap) on this testbed's wire links.
// Each direction is tapped on the wire that sends it: end a's `ab`, end b's own wire of a
// cut cable (`b_tx`) or `ba`; a direction sent from another process is not captured here.
#pragma once

#include <memory>

#include "core/error.h"
#include "tap/capture_set.h"
#include "testbed/partitioning.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

// Null when nothing is asked for. The folder is created if needed.
Expected<std::unique_ptr<tap::CaptureSet>> open_captures(const Testbed& t, const tap::CaptureRequest& request,
                                                         tap::CaptureSet::Mode mode, uint64_t origin_ns);

// Parallel virtual time: a capture file is written by the thread that sends its frames, so
// every direction it holds must be sent from one partition (a host, or a switch and its
// hosts without the cables between switches); then it holds what a one-partition run
// writes, byte for byte. The error names the file and two of its partitions.
Status check_captures_partitioned(const scenario::Topology& topo, const Partitioning& plan,
                                  const tap::CaptureRequest& request);

}  // namespace rtb::testbed
