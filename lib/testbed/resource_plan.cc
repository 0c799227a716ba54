#include "testbed/resource_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <string>

#include <sys/statvfs.h>

#include "core/streamed_file.h"
#include "host/queue_pair.h"
#include "scenario/series_size.h"
#include "testbed/sample_channel.h"
#include "testbed/sample_merge.h"
#include "testbed/sampler.h"

namespace rtb::testbed {
namespace {

std::string human(uint64_t bytes) {
  if (bytes >= (1ull << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1ull << 30));
  if (bytes >= (1ull << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1ull << 20));
  return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
}

std::string span(Time t) {
  const uint64_t ps = t.ps();
  if (ps % 1'000'000'000'000 == 0) return fmt::format("{} s", ps / 1'000'000'000'000);
  if (ps % 1'000'000'000 == 0) return fmt::format("{} ms", ps / 1'000'000'000);
  if (ps % 1'000'000 == 0) return fmt::format("{} us", ps / 1'000'000);
  return fmt::format("{} ns", static_cast<double>(ps) / 1000);
}


// CSV text per row, upper estimates from the formats in results.cc: a flows.csv row has
// 6 fields and the algorithm's state fields (at most RTB_CC_MAX_STATE_FIELDS), at most 16
// characters each; a queues.csv row 8 short fields.
constexpr uint64_t kFlowRowBytes = 16 * (6 + RTB_CC_MAX_STATE_FIELDS);
constexpr uint64_t kQueueRowBytes = 64;

// Parallel virtual time gives each partition a pool set of the full size: any one of them
// may hold the whole switch buffer.
ResourceTerm pools_term(const scenario::Scenario& s, const runtime::PoolConfig& c, const runtime::PoolSizes& z) {
  ResourceTerm t{"mbuf pools", z.memory_bytes() * s.run.partitions, ""};
  if (s.run.data_mbufs) {
    t.driver = fmt::format("run.data_mbufs = {}", *s.run.data_mbufs);
  } else if (c.data_buffer_bytes >= c.data_in_flight_bytes) {
    t.driver = fmt::format("switch.buffer_pool.size: {} of buffers in queues, one mbuf per {} B frame",
                           human(c.data_buffer_bytes.count()), c.smallest_data_frame_bytes);
  } else {
    t.driver = fmt::format("topology.cable_length_m and topology.rate: {} in flight on cables",
                           human(c.data_in_flight_bytes.count()));
  }
  if (s.run.partitions > 1) t.driver += fmt::format(", a pool set for each of run.partitions = {}", s.run.partitions);
  return t;
}

uint64_t switch_ports(const scenario::Scenario& s) {
  uint64_t ports = 0;
  for (const scenario::SwitchNode& sw : s.topology.switches) ports += sw.port_links.size();
  return ports;
}

// The time series in memory while they stream to disk: the two files' buffers; in realtime
// each lcore's sample channels and the reorder window joining them (sample_merge.h); and
// the ports' occupancy counts (depth_totals.h), one entry of about 48 B per distinct value
// a port takes: estimated as at most one per sample or per frame its buffer can hold
// (frames of one size; a mix of sizes can give more).
ResourceTerm series_term(const scenario::Scenario& s, const runtime::PoolConfig& c, uint64_t ticks) {
  const uint64_t files = 2 * (StreamedFile::kBufferBytes + StreamedFile::kMaxRowBytes);
  const bool realtime = s.run.clock == scenario::Clock::kRealtime;
  const uint64_t lcores = realtime ? s.realtime.lcores.size() : 0;
  const uint64_t channels = lcores * SampleChannel::memory_bytes();
  const uint64_t window = realtime ? SampleMerger::window_samples(s.flows.size(), lcores) * sizeof(FlowSample) +
                                         SampleMerger::window_samples(scenario::series_size(s).queues, lcores) * sizeof(QueueSample)
                                   : 0;
  const uint64_t frames = c.data_buffer_bytes.count() / std::max<uint64_t>(c.smallest_data_frame_bytes, 1) + 1;
  const uint64_t depth = switch_ports(s) * std::min(ticks, frames) * 48;
  return {"time series", files + channels + window + depth,
          fmt::format("streamed to disk through {} buffers{}; occupancy counts of {} switch ports (at most {} "
                      "values each, set by run.sample_interval or switch.buffer_pool.size)",
                      human(files), realtime ? fmt::format(", {} of channels and reorder window", human(channels + window)) : "",
                      switch_ports(s), std::min(ticks, frames))};
}

uint64_t meminfo_kib(const std::string& field) {
  std::ifstream f("/proc/meminfo");
  std::string name;
  uint64_t kib = 0;
  std::string unit;
  while (f >> name >> kib >> unit) {
    if (name == field + ":") return kib;
  }
  return 0;
}

}  // namespace

uint64_t ResourcePlan::total() const {
  uint64_t n = 0;
  for (const ResourceTerm& t : terms) n += t.bytes;
  return n;
}

const ResourceTerm& ResourcePlan::largest() const {
  return *std::max_element(terms.begin(), terms.end(),
                           [](const ResourceTerm& a, const ResourceTerm& b) { return a.bytes < b.bytes; });
}

nlohmann::ordered_json ResourcePlan::to_json() const {
  nlohmann::ordered_json terms_json = nlohmann::ordered_json::array();
  for (const ResourceTerm& t : terms) terms_json.push_back({{"what", t.what}, {"bytes", t.bytes}, {"driver", t.driver}});
  return {{"estimated_bytes", total()},
          {"terms", std::move(terms_json)},
          {"disk", {{"what", csv.what}, {"bytes", csv.bytes}, {"driver", csv.driver}}}};
}

ResourcePlan plan_resources(const scenario::Scenario& s, const runtime::PoolConfig& pools,
                            const runtime::PoolSizes& sizes) {
  const scenario::SeriesSize series = scenario::series_size(s);
  const uint64_t ticks = series.samples, flows = series.flows, queues = series.queues;
  const std::string sampling = fmt::format("run.sample_interval = {} over run.duration = {}: {} samples",
                                           span(s.run.sample_interval), span(s.run.duration), ticks);
  ResourcePlan p;
  p.terms.push_back(pools_term(s, pools, sizes));
  // Each flow: a QP at each end and the algorithm's state (at most 4096 B, plugin_loader).
  p.terms.push_back({"flows", flows * (2 * sizeof(host::QueuePair) + 4096),
                     fmt::format("[[traffic]]: {} flows", flows)});
  p.terms.push_back(series_term(s, pools, ticks));
  p.csv = {"CSV files", ticks * (flows * kFlowRowBytes + queues * kQueueRowBytes),
           fmt::format("{}, of {} flows and {} queues; flows.csv and queues.csv on disk", sampling, flows, queues)};
  return p;
}

namespace {

// The disk the CSV files would take against the results folder's free space (an upper
// estimate, kFlowRowBytes: a run is refused only when that estimate does not fit).
Status check_disk(const ResourcePlan& plan, const std::string& dir) {
  struct statvfs v {};
  if (dir.empty() || ::statvfs(dir.c_str(), &v) != 0) return {};  // nothing to check against
  const uint64_t free = static_cast<uint64_t>(v.f_bavail) * v.f_frsize;
  if (plan.csv.bytes <= free) return {};
  return Error{fmt::format("resource plan: the run would write up to {} of {} (set by {}), more than the {} "
                           "free in {}: change that key, or free some disk space",
                           human(plan.csv.bytes), plan.csv.what, plan.csv.driver, human(free), dir)};
}

}  // namespace

Status check_resources(const scenario::Scenario& s, const ResourcePlan& plan, const std::string& dir) {
  if (Status st = check_disk(plan, dir); !st) return st;
  const uint64_t available = meminfo_kib("MemAvailable") * 1024;
  const uint64_t limit = s.run.max_memory ? s.run.max_memory->count() : available / 4 * 3;
  if (limit == 0 || plan.total() <= limit) return {};  // no /proc/meminfo: nothing to check against
  const ResourceTerm& big = plan.largest();
  return Error{fmt::format(
      "{}: the run would need about {}, {} of it for {} (set by {}), more than the {} allowed ({}): "
      "change that key, or raise run.max_memory",
      s.run.max_memory ? "run.max_memory" : "resource plan", human(plan.total()), human(big.bytes), big.what,
      big.driver, human(limit),
      s.run.max_memory ? "run.max_memory" : fmt::format("3/4 of the {} available", human(available)))};
}

}  // namespace rtb::testbed
