// The realtime run of a single-lcore bench mode (rx, switch): its stages, polled in the
// order given, on one lcore against the calibrated clock, with the mode's catch-up bounds
// and the 1% stall rule; the report says whether the run can be trusted.
#pragma once

#include <initializer_list>

#include "bench/report.h"
#include "core/error.h"
#include "core/units.h"
#include "realtime/catch_up.h"
#include "realtime/realtime_scheduler.h"
#include "runtime/stage.h"

namespace rtb::bench {

// Needs the EAL running on `lcore`, called on its thread. Sets rep.valid and rep.reason.
Expected<realtime::RealtimeStats> run_one_lcore(std::initializer_list<runtime::Stage*> stages,
                                                unsigned lcore, Time duration,
                                                realtime::CatchUp catch_up, BenchReport& rep);

}  // namespace rtb::bench
