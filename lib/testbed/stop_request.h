// A request to end the current run early (SIGINT, SIGTERM), for virtual and realtime runs
// alike: set from a signal handler, read by the run at its next boundary (a slice of virtual
// time, a control period in realtime), and cleared when that run returns, so the next run in
// the process starts afresh. A request that comes during start-up (the EAL, the testbed)
// ends the run as soon as it starts.
#pragma once

namespace rtb::testbed {

// Async-signal-safe.
void request_stop();
bool stop_requested();

// Clears the request when it goes out of scope: one per run, made first thing.
class StopScope {
 public:
  StopScope() = default;
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;
  ~StopScope();
};

}  // namespace rtb::testbed
