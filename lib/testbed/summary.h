// A run's results model (lib/results summary.h) filled from the testbed's counters and the
// samples, deterministic for a scenario and seed in virtual time: no wall time, no paths.
#pragma once

#include "core/units.h"
#include "results/summary.h"
#include "testbed/sampler.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

// `end` is the instant the run stopped at. Realtime runs add their validity (run_realtime.cc).
results::Summary summarize(const Testbed& t, const SampleTotals& sampler, Time end);

}  // namespace rtb::testbed
