// `rocetb run --capture`: the run's CaptureSet (lib/tap) on this testbed's wire links.
// Each direction is tapped on the wire that sends it: end a's `ab`, end b's own wire of a
// cut cable (`b_tx`) or `ba`; a direction sent from another process is not captured here.
#pragma once

#include <memory>

#include "core/error.h"
#include "tap/capture_set.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

// Null when nothing is asked for. The folder is created if needed. kOrdered (a partitioned
// run) orders frames by their sender's place among the stages of a one-thread run.
Expected<std::unique_ptr<tap::CaptureSet>> open_captures(const Testbed& t, const tap::CaptureRequest& request,
                                                         tap::CaptureSet::Mode mode, uint64_t origin_ns);

}  // namespace rtb::testbed
