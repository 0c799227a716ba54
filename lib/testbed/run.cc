#include "testbed/run.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <optional>

#include "runtime/pool/eal.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "testbed/captures.h"
#include "testbed/partitioning.h"
#include "testbed/pool_plan.h"
#include "testbed/rank_series.h"
#include "testbed/run_ranks.h"
#include "testbed/resource_plan.h"
#include "testbed/run_json.h"
#include "testbed/progress.h"
#include "testbed/stop_request.h"
#include "testbed/summary.h"
#include "testbed/testbed.h"
#include "wire/payload_pattern.h"

namespace rtb::testbed {
namespace {

// The EAL starts once per process. A virtual run's pools populate on demand from memory of
// their own (runtime/pool/mbuf_pool.h), so DPDK memory holds only each partition's rings
// (not even those with one partition: runtime/pool/mapped_ring_ops.h) and pool headers:
// metadata_bytes(), an upper estimate, taken twice. Starting the EAL costs about 35 us and
// 3 page faults per MiB of -m without hugepages (its table of 4 KiB segments), so:
//  - a process that runs one scenario (size_eal_for_one_run) gets that, plus 8 MiB for the
//    EAL's own allocations (the 8:1 incast, whose estimate is 20 MiB, runs in -m 4);
//  - any other process (the tests run many scenarios in one) gets at least 64 MiB, which
//    holds rings for about eight million mbufs, so that later, larger runs fit, plus the
//    EAL's general margin (runtime/pool/eal_args.h).
constexpr uint64_t kVirtualEalFloorBytes = 64ull << 20;
constexpr uint64_t kOneRunMarginBytes = 8ull << 20;
constexpr uint64_t kMiB = 1ull << 20;
bool g_one_run = false;

// Across MPI ranks on one machine each rank's thread gets a CPU of its own (rank r the
// r-th it may run on, round robin), not all of them the first.
Status ensure_eal(const runtime::PoolSizes& sizes, uint32_t partitions, const runtime::Ranks* ranks) {
  if (runtime::eal_running()) return {};
  runtime::EalOptions eal;
  const std::vector<unsigned> cpus = runtime::usable_cpu_list();
  if (ranks != nullptr && !cpus.empty()) eal.main_lcore = cpus[ranks->rank() % cpus.size()];
  const uint64_t headers = sizes.metadata_bytes() * partitions * 2;
  if (g_one_run) {
    eal.memory_mb = static_cast<unsigned>((headers + kOneRunMarginBytes + kMiB - 1) / kMiB);
  } else {
    eal.pool_bytes = std::max(headers, kVirtualEalFloorBytes);
  }
  eal.tsc_calibration_sleep = Time::ms(1);  // virtual time never reads the TSC: 9 ms less to start
  return runtime::start_eal(eal);
}

uint32_t g_runs = 0;  // pool names must be unique in the process

// Virtual time runs in slices of kStopCheck so that a stop request (SIGINT) ends it at the
// next slice boundary. Slicing changes nothing else: every event at or before a boundary is
// polled in the same (time, stage id) order as in one call.
constexpr Time kStopCheck = Time::us(10);

// Across MPI ranks every rank stops at the same boundary: a stop request on any stops all.
bool stop_now(runtime::Ranks* ranks) {
  return ranks != nullptr ? ranks->any(stop_requested()) : stop_requested();
}

template <class Scheduler>  // runtime::VirtualScheduler or runtime::PartitionedScheduler
runtime::RunStats run_in_slices(Scheduler& scheduler, Time duration, ProgressLine& progress,
                                runtime::Ranks* ranks = nullptr) {
  runtime::RunStats total;
  for (Time until = std::min(kStopCheck, duration);; until = std::min(until + kStopCheck, duration)) {
    const runtime::RunStats slice = scheduler.run(until);
    total.polls += slice.polls;
    total.simulated = slice.simulated;
    total.idle = slice.idle;
    if (slice.idle || until == duration || stop_now(ranks) || slice.simulated < until) return total;
    progress.update(until);
  }
}

// summary.json's figures from the time series in virtual time: the sampler's baseline and
// buffer peaks, the ports' occupancy statistics accumulated as the samples went by.
class VirtualTotals final : public SampleTotals {
 public:
  VirtualTotals(const Sampler& s, const DepthTotals& d) : s_(s), d_(d) {}
  Baseline baseline() const override { return s_.own_baseline(); }
  DepthStats port_depth(uint32_t sw, uint16_t port) const override { return d_.stats(sw, port); }
  uint64_t buffer_peak(uint32_t sw) const override { return s_.buffer_peak(sw); }

 private:
  const Sampler& s_;
  const DepthTotals& d_;
};

}  // namespace

Status finish_series(RunReport& r, std::unique_ptr<SeriesRecorder> series) {
  if (Status st = series->finish(); !st) return st;
  r.run["series"] = {{"streamed", series->streamed()},
                     {"flow_rows", series->flow_rows()},
                     {"queue_rows", series->queue_rows()},
                     {"csv_bytes", series->csv_bytes()},
                     {"buffer_bytes", series->buffer_bytes()},
                     {"depth_values", series->depth().distinct()}};
  r.flow_samples = std::move(series->kept_flows);
  r.queue_samples = std::move(series->kept_queues);
  r.series = std::move(series);
  return {};
}

nlohmann::ordered_json resolved_params_json(const cc::Controller& cc) {
  const auto v = cc.resolved_params();
  if (!v) return "not reported: the algorithm has no describe_params hook (cc_algos/rocetb_cc.h)";
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (size_t i = 0; i < v->count; ++i) {
    const double x = v->fields[i].value;
    const bool whole = x == std::floor(x) && std::fabs(x) < 9.0e15;
    j[v->fields[i].name] = whole ? nlohmann::ordered_json(static_cast<int64_t>(x)) : nlohmann::ordered_json(x);
  }
  return j;
}

void mark_stopped_early(RunReport& r, bool stopped, Time end, Time duration) {
  r.summary.complete = !stopped;
  r.run["complete"] = !stopped;
  if (!stopped) return;
  r.run["stopped_early"] = fmt::format("stopped by SIGINT or SIGTERM at {:.3f} ms of the {:.3f} ms duration: "
                                       "every figure covers only the time simulated",
                                       static_cast<double>(end.ps()) / 1e9, static_cast<double>(duration.ps()) / 1e9);
}

namespace {

// The serial stage of a partitioned run: the sampler, then the frames the partitions' taps
// kept since the last sample, written in the one-thread order (tap::OrderedTap). Kept
// frames wait in memory for at most one run.sample_interval. Across MPI ranks, the
// samples then go to rank 0 (rank_series.h).
class SampleThenWrite final : public runtime::Stage {
 public:
  SampleThenWrite(Sampler& sampler, tap::CaptureSet* captures, RankSeries* ranks)
      : Stage("sampler"), sampler_(sampler), captures_(captures), ranks_(ranks) {}
  void poll(Time now) override {
    sampler_.poll(now);
    if (captures_ != nullptr) captures_->write_ordered();
    if (ranks_ != nullptr) ranks_->gather();
  }
  Time next_deadline() const override { return sampler_.next_deadline(); }

 private:
  Sampler& sampler_;
  tap::CaptureSet* captures_;
  RankSeries* ranks_;
};

// The partitions this process runs: all, or its rank's.
std::vector<uint32_t> partitions_here(const Partitioning& plan) {
  std::vector<uint32_t> v;
  for (uint32_t p = 0; p < plan.count; ++p) {
    if (plan.here(p)) v.push_back(p);
  }
  return v;
}

// One pool set per partition here (pools[i] for partitions_here()[i]); the first keeps the
// single-threaded run's name.
Expected<std::vector<runtime::PoolSet>> make_pools(const runtime::PoolSizes& sizes, const Partitioning& plan) {
  const uint32_t run = g_runs++;
  const uint32_t partitions = plan.count;
  std::vector<runtime::PoolSet> pools;
  for (uint32_t p : partitions_here(plan)) {
    // Virtual time: an empty pool is a sizing error, never packet loss (design.md); one
    // thread allocates from each, so they are written as the run needs mbufs, not up front.
    auto set = runtime::PoolSet::create(sizes, &wire::payload_byte,
                                        partitions == 1 ? fmt::format("run{}", run) : fmt::format("run{}p{}", run, p),
                                        runtime::OnEmpty::kFatal, runtime::Populate::kOnDemand,
                                        /*one_thread=*/partitions == 1);
    if (!set) return Error{set.error().message};
    pools.push_back(std::move(set).value());
  }
  return pools;
}

Expected<std::unique_ptr<Testbed>> build_testbed(const scenario::Scenario& s, const Partitioning& plan,
                                                 std::vector<runtime::PoolSet>& pools, const cc::Controller& cc,
                                                 const HostStandIn& stand_in, runtime::Ranks* ranks) {
  if (plan.count == 1) return Testbed::build(s, pools[0], cc, stand_in);
  std::vector<runtime::PoolSet*> each(plan.count, nullptr);
  const std::vector<uint32_t> here = partitions_here(plan);
  for (size_t i = 0; i < here.size(); ++i) each[here[i]] = &pools[i];
  return Testbed::build_partitioned(s, plan, each, cc, stand_in, plan.ranks > 1 ? ranks : nullptr);
}

// run.json "partitions": how the run was split and what each part here did.
nlohmann::ordered_json partitions_json(Testbed& t, const Partitioning& plan, const runtime::PoolSizes& sizes,
                                       const std::vector<runtime::PoolSet>& pools) {
  runtime::PartitionedScheduler& ps = t.partitioned_scheduler();
  nlohmann::ordered_json parts = nlohmann::ordered_json::array();
  const std::vector<uint32_t> here = partitions_here(plan);
  for (size_t i = 0; i < here.size(); ++i) {
    const uint32_t p = here[i];
    parts.push_back({{"partition", p}, {"stages", ps.stages(p)}, {"polls", ps.polls(p)},
                     {"stolen_windows", ps.stolen_windows(p)}, {"pools", pools_json(sizes, pools[i])}});
  }
  return {{"count", plan.count}, {"threads", plan.threads}, {"groups", plan.groups}, {"crossing_cables", plan.crossing_cables},
          {"lookahead_ns", static_cast<double>(plan.lookahead.ps()) / 1e3}, {"windows", ps.windows()},
          {"thread_cpus", runtime::cpus_before_eal()},
          {"each", std::move(parts)}};
}

}  // namespace

namespace {

// Across MPI ranks: what rank 0's run.json says of every rank.
nlohmann::ordered_json rank_json(Testbed& t, const runtime::RunStats& stats, double wall) {
  const runtime::RankCrossings* x = t.partitioned_scheduler().rank_crossings();
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  return {{"wall_seconds", wall},
          {"max_rss_bytes", static_cast<uint64_t>(self.ru_maxrss) * 1024},  // Linux: KiB
          {"polls", stats.polls},
          {"frame_hops", t.frame_hops()},
          {"frames_sent", x->frames_sent()},
          {"frames_received", x->frames_received()},
          {"bytes_sent", x->bytes_sent()},
          {"exchange_seconds", x->exchange_seconds()}};
}

}  // namespace

void size_eal_for_one_run(bool on) { g_one_run = on; }

Expected<RunReport> run_virtual(const scenario::Scenario& s, cc::Registry& registry,
                                const std::string& command_line, const tap::CaptureRequest& capture,
                                const HostStandIn& stand_in, const SeriesRequest& series, runtime::Ranks* mpi) {
  const StopScope stop_scope;  // a stop request from start-up on ends this run
  const nlohmann::ordered_json inputs = inputs_json(s);
  auto sizes = pool_sizes(s, pool_config(s));
  if (!sizes) return Error{sizes.error().message};
  const ResourcePlan resources = plan_resources(s, pool_config(s), sizes.value());
  if (Status st = check_resources(s, resources, series.dir); !st) return Error{st.message()};
  auto plan = plan_partitions(s, runtime::usable_cpus());
  if (!plan) return Error{plan.error().message};
  runtime::Ranks* ranks = mpi != nullptr && mpi->size() > 1 ? mpi : nullptr;
  if (ranks != nullptr) {
    if (Status st = place_on_ranks(plan.value(), *ranks, !capture.empty(), bool(stand_in)); !st) {
      return Error{st.message()};
    }
    if (Status st = same_run_everywhere(*ranks, s); !st) return Error{st.message()};
  }
  const bool rank0 = ranks == nullptr || ranks->rank() == 0;
  if (Status st = ensure_eal(sizes.value(), plan->count, ranks); !st) return Error{st.message()};
  auto pools = make_pools(sizes.value(), plan.value());
  if (!pools) return Error{pools.error().message};
  std::vector<PoolFree> free_at_start;
  for (const runtime::PoolSet& p : pools.value()) free_at_start.push_back(PoolFree::of(p));
  auto algorithm = registry.resolve(s.cc.algorithm);
  if (!algorithm) return Error{"cc.algorithm: " + algorithm.error().message};
  auto cc = cc::configure(algorithm.value(), s.cc.params);
  if (!cc) return Error{"cc: " + cc.error().message};

  RunReport report;
  report.cc_resolved = resolved_params_json(cc.value());
  {
    auto testbed = build_testbed(s, plan.value(), pools.value(), cc.value(), stand_in, ranks);
    if (!testbed) return Error{testbed.error().message};
    Testbed& t = *testbed.value();
    // Virtual time: files stamped from the epoch, so the same run gives the same bytes.
    auto captures = open_captures(
        t, capture, t.partitioned() ? tap::CaptureSet::Mode::kOrdered : tap::CaptureSet::Mode::kDirect, 0);
    if (!captures) return Error{captures.error().message};
    const std::vector<std::string> names = ranks != nullptr ? cc_state_names_everywhere(*ranks, t) : cc_state_names(t);
    // Across ranks the series are written by rank 0 only; each rank keeps its occupancies.
    auto recorder = SeriesRecorder::open(rank0 ? series : SeriesRequest::discard(), t, names);
    if (!recorder) return Error{recorder.error().message};
    std::unique_ptr<RankSeries> rank_series;
    if (ranks != nullptr) rank_series = std::make_unique<RankSeries>(*ranks, t, *recorder.value());
    SampleSink& sink = rank_series ? static_cast<SampleSink&>(*rank_series) : *recorder.value();
    Sampler sampler(t, s.run.sample_interval, s.run.warmup, s.run.duration, sink);
    SampleThenWrite serial(sampler, captures.value().get(), rank_series.get());
    if (t.partitioned()) {
      t.partitioned_scheduler().set_serial(serial);
      t.partitioned_scheduler().set_thread_cpus(runtime::cpus_before_eal());
    } else {
      t.scheduler().add(sampler);
    }
    const auto wall_start = std::chrono::steady_clock::now();
    runtime::RunStats stats;
    {
      ProgressLine progress(s.run.duration, [&t] { return t.frame_hops(); });
      stats = t.partitioned() ? run_in_slices(t.partitioned_scheduler(), s.run.duration, progress, ranks)
                              : run_in_slices(t.scheduler(), s.run.duration, progress);
    }
    if (t.partitioned() && !t.partitioned_scheduler().violation().empty()) {
      return Error{"internal error: parallel virtual time: " + t.partitioned_scheduler().violation()};
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    const bool stopped = !stats.idle && stats.simulated < s.run.duration;
    const Time end = stats.idle || stopped ? stats.simulated : s.run.duration;
    if (rank_series) rank_series->finish();
    const results::Summary mine = summarize(t, VirtualTotals(sampler, recorder.value()->depth()), end);
    uint64_t hops = t.frame_hops(), polls = stats.polls;
    nlohmann::ordered_json each_rank;
    if (ranks != nullptr) {
      auto joined = join_summaries(*ranks, s, mine);
      if (!joined) return Error{joined.error().message};
      report.summary = std::move(joined).value();
      each_rank = ranks_json(*ranks, rank_json(t, stats, wall));
      hops = ranks->sum(hops);
      polls = ranks->sum(polls);
    } else {
      report.summary = mine;
    }
    report.run = run_json(command_line, inputs, wall, end, hops, polls);
    report.run["pools"] = pools_json(sizes.value(), pools.value()[0]);
    if (t.partitioned()) report.run["partitions"] = partitions_json(t, plan.value(), sizes.value(), pools.value());
    if (ranks != nullptr) report.run["mpi"] = std::move(each_rank);
    report.run["resources"] = resources.to_json();
    if (auto& c = captures.value()) {
      if (Status st = c->finish(); !st) return Error{st.message()};
      report.run["captures"] = c->to_json();
    }
    mark_stopped_early(report, stopped, end, s.run.duration);
    report.cc_state_names = names;
    if (Status st = finish_series(report, std::move(recorder).value()); !st) return Error{st.message()};
  }  // the testbed drains every queue and link here
  add_pool_free(report.run["pools"], free_at_start[0], PoolFree::of(pools.value()[0]));
  for (uint32_t i = 0; i < pools.value().size(); ++i) {
    if (plan->count > 1) {
      add_pool_free(report.run["partitions"]["each"][i]["pools"], free_at_start[i], PoolFree::of(pools.value()[i]));
    }
    if (Status st = pools.value()[i].check_no_leaks(); !st) {
      return Error{"internal error: mbufs leaked by the run: " + st.message()};
    }
  }
  return report;
}

}  // namespace rtb::testbed
