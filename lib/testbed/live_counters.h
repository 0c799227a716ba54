// Live counters of a realtime run on DPDK's telemetry socket, read while the run goes on
// with the `dpdk-telemetry.py -f PREFIX` that the dpdk package installs (or any client of
// the socket, DPDK Programmer's Guide, "Telemetry Library"):
//
//   /rocetb/run            scenario time, duration, samples so far, totals over flows and queues
//   /rocetb/flows[,FIRST]  per flow (from FIRST, up to 128): CC rate and throughput in Mb/s,
//                          bytes received, CNPs handled
//   /rocetb/ports          per switch port: bytes queued, ECN marks, drops, PFC frames sent,
//                          the priorities paused by the neighbour's PFC (a bit mask)
//   /rocetb/queues[,SW]    per queue of switch SW (default 0) that carries a flow's priority:
//                          depth, ECN marks, drops, PFC frames sent for it, paused
//
// One owner per piece of state: the lcores never see this object. It is a SampleSink on the
// control thread, between the sample merger and the results files, keeping the latest
// sample of every flow and queue (so the figures advance once per sample interval of
// scenario time) before passing each sample on unchanged. DPDK's telemetry thread reads
// the copies under a mutex that only the control thread and that thread take.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/units.h"
#include "testbed/sampler.h"

namespace rtb::testbed {

class LiveCounters final : public SampleSink {
 public:
  // Publishes itself to the telemetry commands (registered once per process); `next` gets
  // every sample. Sized here: a sample allocates nothing.
  LiveCounters(const Testbed& t, Time duration, SampleSink& next);
  ~LiveCounters() override;  // unpublished: the commands answer that no run is going on
  LiveCounters(const LiveCounters&) = delete;
  LiveCounters& operator=(const LiveCounters&) = delete;

  void flow(const FlowSample& x) override;
  void queue(const QueueSample& x) override;
  void port_depth(const PortDepthSample& x) override { next_.port_depth(x); }

  // The telemetry socket's path ("" when the EAL runs without telemetry), and a line for
  // stderr that says where and how to read the counters ("" without a socket).
  static std::string socket_path();
  static std::string how_to_read();
  // Process-wide, as the progress line is: `rocetb run` prints how_to_read() on stderr as a
  // realtime run starts unless --quiet; tests and other callers leave it off.
  static void set_announce(bool on);
  static bool announce();

  // What the commands answer, for the telemetry callbacks (live_counters.cc).
  struct Flow {
    double cc_rate_mbps = 0, throughput_mbps = 0;
    uint64_t bytes_received = 0, cnp_handled = 0;
  };
  struct Queue {
    uint64_t depth = 0, ecn_marked = 0, drops = 0, pfc_tx = 0;
    bool paused = false;
    bool seen = false;
  };
  struct Snapshot {
    Time at, duration;
    uint64_t flow_samples = 0, queue_samples = 0;
    std::vector<Flow> flows;
    std::vector<std::string> switch_names;
    std::vector<std::vector<std::string>> port_names;           // [switch][port]
    std::vector<std::vector<std::vector<Queue>>> queues;          // [switch][port][priority]
  };

 private:
  SampleSink& next_;
  Snapshot s_;
};

}  // namespace rtb::testbed
