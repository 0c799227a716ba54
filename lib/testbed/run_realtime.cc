// One realtime run (design.md "Time", realtime; lib/realtime/README.md): the same stages
// as run_virtual, placed on lcores and polled against the calibrated TSC. Each lcore
// samples its own stages and sends the samples through its own lock-free channels to the
// control thread (lcore_samplers.h); each lcore's hosts adopt new CC parameters on that
// lcore (realtime_commands.h). The run measures its own lateness and marks itself invalid
// when it exceeds the scenario's budget.
#include <rte_version.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "ethport/eth_port.h"
#include "realtime/realtime_scheduler.h"
#include "realtime/tsc_clock.h"
#include "runtime/pool/eal.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "testbed/captures.h"
#include "testbed/lcore_samplers.h"
#include "testbed/live_counters.h"
#include "testbed/pool_plan.h"
#include "testbed/resource_plan.h"
#include "testbed/realtime_commands.h"
#include "testbed/run.h"
#include "testbed/run_json.h"
#include "testbed/progress.h"
#include "testbed/stop_request.h"
#include "testbed/summary.h"
#include "testbed/testbed.h"
#include "wire/frame_size.h"
#include "wire/payload_pattern.h"

namespace rtb::testbed {
namespace {

uint32_t g_runs = 0;              // pool names must be unique in the process

constexpr uint32_t kRingFrames = 1024;  // EthPort::ring_pair's default ring size
constexpr uint32_t kAfPacketRxBytes = 2016;  // DPDK 22.11 net_af_packet, framesz 2048

// The cables cut between lcores or processes (scenario::RealtimeConfig::cuts).
uint32_t cut_cables(const scenario::Scenario& s) {
  uint32_t n = 0;
  for (const scenario::Link& l : s.topology.links) n += s.realtime.cuts(l);
  return n;
}

// The cut cables that are ring pairs here each take one of the process's DPDK port ids.
Status check_ring_ports(const scenario::Scenario& s) {
  const auto cables = static_cast<uint32_t>(std::count_if(
      s.topology.links.begin(), s.topology.links.end(), [&](const scenario::Link& l) { return s.realtime.rings(l); }));
  const uint32_t free = ethport::EthPort::free_port_ids();
  if (cables <= free) return {};
  const std::string remedy =
      s.realtime.ring_links
          ? "use a scenario with fewer cables, or realtime.links = \"wire\" (only cables between "
            "lcores then take ring pairs)"
          : "place more of the nodes on one lcore";
  return Error{fmt::format(
      "{}: {} cables run through rte_ring port pairs ({}), a DPDK port each, but only {} ports are "
      "free (this DPDK build holds {} in all); {}",
      s.source, cables,
      s.realtime.ring_links ? "realtime.links = \"ring\"" : "each joins nodes on different lcores",
      free, ethport::EthPort::max_port_ids(), remedy)};
}

// The mbufs of a realtime run: those of a virtual run, plus what the rte_rings of cut
// cables can hold, plus each lcore's mempool cache.
runtime::PoolConfig realtime_pool_config(const scenario::Scenario& s) {
  runtime::PoolConfig c = pool_config(s);
  const uint64_t ring_frames = uint64_t{2} * kRingFrames * cut_cables(s);
  c.data_in_flight_bytes += Bytes(ring_frames * c.largest_data_frame_bytes);
  c.control_in_flight_bytes += Bytes(ring_frames * c.largest_control_frame_bytes);
  c.lcores = static_cast<uint32_t>(s.realtime.lcores.size());
  // A DPDK port writes a received frame, headers included, after the headroom: data mbufs
  // (the ports' rx pool) need room for the headers too (lib/ethport/README.md).
  if (!s.realtime.ports.empty()) c.largest_data_frame_bytes += wire::kMaxHeaderBytes;
  // net_af_packet receives into whole 2048-byte frame slots: 2016 bytes of data room
  // after the headroom (its rx queue setup refuses smaller mbufs).
  for (const scenario::RealtimePort& p : s.realtime.ports) {
    if (p.device.starts_with("net_af_packet")) {
      c.largest_data_frame_bytes = std::max<uint32_t>(c.largest_data_frame_bytes, kAfPacketRxBytes);
    }
  }
  return c;
}

Status ensure_eal(const scenario::Scenario& s, const runtime::PoolSizes& sizes) {
  if (runtime::eal_running()) return {};  // the scheduler checks the lcores it needs
  const scenario::RealtimeConfig& r = s.realtime;
  if (Status c = runtime::check_lcores_usable(r.lcores); !c) {
    return Error{fmt::format("{}: realtime.lcores: {}", s.source, c.message())};
  }
  runtime::EalOptions eal;
  eal.main_lcore = r.lcores.front();
  eal.worker_lcores.assign(r.lcores.begin() + 1, r.lcores.end());
  eal.pool_bytes = std::max<uint64_t>(sizes.memory_bytes() * 2, 512ull << 20);
  eal.hugepages = r.hugepages == "never"     ? runtime::HugepageMode::kNever
                  : r.hugepages == "require" ? runtime::HugepageMode::kRequire
                                             : runtime::HugepageMode::kAuto;
  eal.pci = !r.pci.empty();
  eal.telemetry = true;  // the live counters (live_counters.h)
  for (const std::string& a : r.pci) eal.extra.insert(eal.extra.end(), {"-a", a});
  eal.extra.insert(eal.extra.end(), r.eal_args.begin(), r.eal_args.end());
  return runtime::start_eal(eal);
}

// The lateness a run may have without distorting what it measures: the time the PFC
// headroom absorbs at line rate (a late switch poll delays XOFF by that much), or, with
// no lossless priority, one sample interval.
std::pair<Time, std::string> lateness_budget(const scenario::Scenario& s) {
  if (s.realtime.max_lateness) return {*s.realtime.max_lateness, "realtime.max_lateness"};
  Time budget = Time::never();
  for (const scenario::SwitchNode& sw : s.topology.switches) {
    for (uint8_t tc = 0; tc < sw::kPriorities; ++tc) {
      if (!sw.config.lossless_tc(tc)) continue;
      for (const sw::PortConfig& p : sw.config.ports) {
        budget = std::min(budget, p.rate.time_for(sw.config.pg[tc].xoff));
      }
    }
  }
  if (!budget.is_never()) {
    return {budget, "the PFC headroom (pg xoff) filled at line rate: a later XOFF could overflow it"};
  }
  return {s.run.sample_interval, "one sample interval (no lossless priority)"};
}

// How far a modelled stage may run behind the clock (lib/realtime/README.md, Catch-up). A
// host that is behind goes on sending until it reaches the instant an XOFF arrived, so its
// lag adds to the PFC response the headroom absorbs: "auto" keeps it to an eighth of the
// smallest lossless PG's XOFF headroom at line rate, and at most 5 us.
Time catch_up_window(const scenario::Scenario& s) {
  if (s.realtime.catch_up) return *s.realtime.catch_up;
  Time w = Time::us(5);
  for (const scenario::SwitchNode& sw : s.topology.switches) {
    for (uint8_t tc = 0; tc < sw::kPriorities; ++tc) {
      if (!sw.config.lossless_tc(tc)) continue;
      for (const sw::PortConfig& p : sw.config.ports) w = std::min(w, p.rate.time_for(sw.config.pg[tc].xoff) / 8);
    }
  }
  return std::max(w, Time::ns(1));
}

// While an lcore's thread does not run, the wire could carry frames nobody sends: such
// time may add up to 1% of the run (RealtimeScheduler::set_stall_rule).
constexpr double kMaxStalledFraction = 0.01;

// Split runs: the processes start their clocks at one agreed wall-clock instant, so each
// finds its peers polling (scripts/run_split.sh gives it a few seconds ahead). The wait is
// bounded and ends early on a stop request (SIGINT, SIGTERM).
constexpr std::chrono::hours kMaxStartWait{24};

Status wait_for_start(uint64_t unix_ms) {
  if (unix_ms == 0) return {};
  const auto at = std::chrono::system_clock::time_point(std::chrono::milliseconds(unix_ms));
  const auto now = std::chrono::system_clock::now();
  if (at < now) {
    return Error{fmt::format("realtime.start_at_unix_ms = {} has passed already: give a later time", unix_ms)};
  }
  if (at - now > kMaxStartWait) {
    return Error{fmt::format("realtime.start_at_unix_ms = {} is {:.0f} s from now: expected at most {} h ahead",
                             unix_ms, std::chrono::duration<double>(at - now).count(), kMaxStartWait.count())};
  }
  while (std::chrono::system_clock::now() < at) {
    if (stop_requested()) {
      return Error{"stopped (SIGINT or SIGTERM) while waiting for realtime.start_at_unix_ms: nothing ran"};
    }
    std::this_thread::sleep_for(std::min<std::chrono::system_clock::duration>(std::chrono::milliseconds(10),
                                                                              at - std::chrono::system_clock::now()));
  }
  return {};
}

uint64_t unix_now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

// Why the DPDK memory may be short when an earlier run of the process started the EAL: a
// virtual run's holds only its pools' rings (runtime/pool/README.md).
std::string earlier_eal_hint() {
  const std::vector<std::string>& args = runtime::eal_arguments_used();
  const auto m = std::find(args.begin(), args.end(), "-m");
  const std::string mb = m != args.end() && m + 1 != args.end() ? *(m + 1) + " MB" : "its memory";
  return fmt::format("; this process's EAL was started by an earlier run with {}, and a virtual run's "
                     "holds only its pools' rings: run realtime scenarios before virtual ones in one "
                     "process, or start the EAL first with room for the realtime pools "
                     "(runtime::start_eal, EalOptions::pool_bytes)", mb);
}

}  // namespace


Expected<RunReport> run_realtime(const scenario::Scenario& s, cc::Registry& registry,
                                 const std::string& command_line, const tap::CaptureRequest& capture,
                                 const SeriesRequest& series) {
  const StopScope stop_scope;  // a stop request from start-up on ends this run
  const nlohmann::ordered_json inputs = inputs_json(s);
  if (Status st = check_ring_ports(s); !st) return Error{st.message()};  // before pools and ports
  auto sizes = pool_sizes(s, realtime_pool_config(s));
  if (!sizes) return Error{sizes.error().message};
  const ResourcePlan resources = plan_resources(s, realtime_pool_config(s), sizes.value());
  if (Status st = check_resources(s, resources, series.dir); !st) return Error{st.message()};
  const bool eal_of_an_earlier_run = runtime::eal_running();
  if (Status st = ensure_eal(s, sizes.value()); !st) return Error{st.message()};
  // Realtime: an empty pool is a counted event in each stage and pool; the run goes on.
  auto pools = runtime::PoolSet::create(sizes.value(), &wire::payload_byte, fmt::format("rt{}", g_runs++),
                                        runtime::OnEmpty::kCount);
  if (!pools) return Error{pools.error().message + (eal_of_an_earlier_run ? earlier_eal_hint() : "")};
  const PoolFree free_at_start = PoolFree::of(pools.value());
  auto algorithm = registry.resolve(s.cc.algorithm);
  if (!algorithm) return Error{"cc.algorithm: " + algorithm.error().message};
  auto cc = cc::configure(algorithm.value(), s.cc.params);
  if (!cc) return Error{"cc: " + cc.error().message};
  realtime::TscClock clock = realtime::TscClock::calibrate();
  if (Status st = realtime::TscClock::check_dilation(s.realtime.dilation); !st) {
    return Error{"realtime.dilation: " + st.message()};
  }
  clock.set_dilation(s.realtime.dilation);
  const auto [budget, budget_reason] = lateness_budget(s);

  RunReport report;
  report.cc_resolved = resolved_params_json(cc.value());
  {
    auto testbed = Testbed::build_realtime(s, pools.value(), cc.value());
    if (!testbed) return Error{testbed.error().message};
    Testbed& t = *testbed.value();
    auto recorder = SeriesRecorder::open(series, t, cc_state_names(t));
    if (!recorder) return Error{recorder.error().message};
    LiveCounters live(t, s.run.duration, *recorder.value());
    LcoreSamplers samplers(t, s.run.sample_interval, s.run.warmup, s.run.duration, *recorder.value(), live);
    auto commands = RealtimeCommands::prepare(s, algorithm.value(), t.lcore_controllers());
    if (!commands) return Error{commands.error().message};
    realtime::RealtimeScheduler scheduler;
    scheduler.set_stall_rule(kMaxStalledFraction);
    scheduler.set_catch_up({.window = catch_up_window(s), .max_polls = s.realtime.burst});
    for (const auto& placed : {t.placements(), samplers.placements(), commands.value()->placements()}) {
      for (const Placed& p : placed) scheduler.add(*p.stage, p.lcore);
    }
    if (Status w = wait_for_start(s.realtime.start_at_unix_ms); !w) return Error{w.message()};
    // Realtime: files stamped from the wall clock as the run starts (scenario time after it).
    auto captures = open_captures(t, capture, tap::CaptureSet::Mode::kQueued, unix_now_ns());
    if (!captures) return Error{captures.error().message};
    if (const std::string how = LiveCounters::how_to_read(); !how.empty() && LiveCounters::announce()) {
      std::fprintf(stderr, "%s\n", how.c_str());
    }
    ProgressLine progress(s.run.duration, nullptr);
    auto control = [&] {
      progress.update(std::min(clock.now(), s.run.duration));
      samplers.drain();
      if (captures.value()) captures.value()->drain();
      commands.value()->issue(clock.now(), [&] { scheduler.request_stop(); });
      if (stop_requested()) scheduler.request_stop();
    };
    auto stats = scheduler.run(clock, s.run.duration, budget, budget_reason, control);
    if (!stats) return Error{stats.error().message};
    const realtime::RealtimeStats& st = stats.value();
    const Time end = st.simulated;
    samplers.finish();
    report.summary = summarize(t, samplers, end);
    report.summary.valid = st.lateness.valid;
    if (!st.lateness.valid) report.summary.invalid_reason = st.lateness.reason;
    report.run = run_json(command_line, inputs, st.wall_seconds, end, t.frame_hops(), st.polls);
    report.run["realtime"] = st.to_json();
    report.run["clock"] = clock.to_json();
    report.run["samples_lost"] = samplers.lost();
    report.run["sampling"] = samplers.to_json();
    report.run["commands"] = commands.value()->to_json();
    report.run["telemetry_socket"] = LiveCounters::socket_path();
    nlohmann::ordered_json bridges = nlohmann::ordered_json::array();
    for (const auto& b : t.bridges()) {
      const ethport::BridgeCounters& c = b->counters();
      bridges.push_back({{"name", b->name()}, {"tx_frames", c.tx_frames}, {"rx_frames", c.rx_frames},
                         {"tx_held_retries", c.tx_held_retries},
                         {"rx_dropped_chained", c.rx_dropped_chained},
                         {"rx_dropped_malformed", c.rx_dropped_malformed}});
    }
    report.run["bridges"] = std::move(bridges);
    report.run["pools"] = pools_json(sizes.value(), pools.value());
    report.run["resources"] = resources.to_json();
    if (auto& c = captures.value()) {
      if (Status cs = c->finish(); !cs) return Error{cs.message()};
      report.run["captures"] = c->to_json();
    }
    mark_stopped_early(report, stop_requested(), end, s.run.duration);
    report.cc_state_names = cc_state_names(t);
    if (Status fs = finish_series(report, std::move(recorder).value()); !fs) return Error{fs.message()};
  }  // the testbed drains every queue, link, bridge and port here
  add_pool_free(report.run["pools"], free_at_start, PoolFree::of(pools.value()));
  if (Status st = pools.value().check_no_leaks(); !st) {
    return Error{"internal error: mbufs leaked by the run: " + st.message()};
  }
  return report;
}

}  // namespace rtb::testbed
