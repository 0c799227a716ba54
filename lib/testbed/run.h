// One run of a scenario, start to finish: size the pools, start the EAL (once
// per process), build the testbed, run it for the scenario's duration with the sampler,
// summarize, drain, and check that every mbuf came back.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cc_algos/registry.h"
#include "core/error.h"
#include "results/summary.h"
#include "runtime/ranks.h"
#include "scenario/scenario.h"
#include "tap/capture_request.h"
#include "testbed/sampler.h"
#include "testbed/series_recorder.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

struct RunReport {
  results::Summary summary;        // deterministic (summary.h)
  nlohmann::ordered_json run;      // wall time, speed, versions, pools: not deterministic
  // effective.json "cc" "resolved_params" (resolved_params_json).
  nlohmann::ordered_json cc_resolved;
  // The time series: streamed into the results folder during the run (finished, renamed
  // into place by write_results), and/or kept here (SeriesRequest::keep).
  std::shared_ptr<SeriesRecorder> series;
  std::vector<FlowSample> flow_samples;
  std::vector<QueueSample> queue_samples;
  std::vector<std::string> cc_state_names;
};

// `command_line` is recorded in run.json. The time series go where `series` says: with a
// folder, flows.csv and queues.csv are written there as the run goes, in bounded memory
// (series_recorder.h), and the CSV size the resource plan estimates is checked against the
// folder's free disk space before the start; by default they are kept in memory.
// With a `capture` request the run writes its
// capture files (lib/tap) and lists them in run.json "captures".
// With `stand_in`, stages of the caller's take the place of hosts (testbed.h, HostStandIn).
// With `ranks` of more than one process (MPI, lib/mpi), every rank calls this with the
// same scenario and runs its share of the partitions (run_ranks.h); rank 0's report is the
// whole run's, the others' hold only their own summary and no series.
Expected<RunReport> run_virtual(const scenario::Scenario& s, cc::Registry& registry,
                                const std::string& command_line, const tap::CaptureRequest& capture = {},
                                const HostStandIn& stand_in = {}, const SeriesRequest& series = {},
                                runtime::Ranks* ranks = nullptr);

// The DPDK memory (-m) a virtual run starts the EAL with, process-wide: off (the default),
// a floor of 64 MiB that the process's later and larger runs fit in (the tests run many
// scenarios in one process); on, the first run's own need and a small margin, for a process
// that runs one scenario or the same one again (every rocetb command: `rocetb sweep` runs
// each point in a process of its own). Each MiB costs about 35 us to start.
void size_eal_for_one_run(bool on);

// The same in realtime (run.clock = "realtime", scenario [realtime]): stages on lcores
// against the calibrated TSC. summary.json gets "valid" and "invalid_reason" (the
// lateness check), run.json the lateness report, the clock calibration and the bridges.
// With realtime.role only that process's nodes are built; cables leaving it go through the
// DPDK ports of its ports entries; `rocetb merge` joins the processes' results
// (lib/results merge.h).
// Captured frames leave the lcores through bounded queues that the control thread writes
// out; a full queue is a lost frame, counted per file and interface in run.json.
Expected<RunReport> run_realtime(const scenario::Scenario& s, cc::Registry& registry,
                                 const std::string& command_line, const tap::CaptureRequest& capture = {},
                                 const SeriesRequest& series = {});

// Every parameter of the run's algorithm as it resolved them, defaults included: an object
// of name to value (a whole number where the value is one), or, for a plug-in without
// describe_params, a string saying so. For effective.json.
nlohmann::ordered_json resolved_params_json(const cc::Controller& cc);

// Both: summary.json and run.json say "complete" (false when a stop request, SIGINT or
// SIGTERM, ended the run before its duration: stop_request.h), and run.json then says
// when in "stopped_early".
void mark_stopped_early(RunReport& r, bool stopped, Time end, Time duration);

// Both, at the end of the run: the series files finished (flushed to the disk), the kept
// samples moved into `r`, run.json "series" (rows, CSV bytes, the buffers' bytes).
Status finish_series(RunReport& r, std::unique_ptr<SeriesRecorder> series);

}  // namespace rtb::testbed
