// pattern = "poisson": flow sizes from a CDF file, Poisson arrivals at each source host
// at `load` x its link rate, destinations uniform among the other listed hosts; the
// method of the HPCC traffic generator (traffic_gen.py): mean inter-arrival time =
// mean flow size x 8 / (load x host link rate), independently per source.
#include <fmt/format.h>

#include <cmath>

#include "scenario/cdf.h"
#include "scenario/traffic.h"

namespace rtb::scenario {
namespace {

constexpr double kMaxFlows = 5'000'000;

Cdf read_cdf(Table& t, const TrafficContext& ctx) {
  t.require("cdf", "a flow-size distribution file, such as \"data/websearch.cdf\"");
  std::string path = t.string("cdf", "");
  if (!path.empty() && path.front() != '/' && !ctx.base_dir.empty()) path = ctx.base_dir + "/" + path;
  Expected<Cdf> cdf = Cdf::load(path);
  if (!cdf) t.fail("cdf", cdf.error().message);
  if (ctx.scenario != nullptr) ctx.scenario->add_file(path);
  return std::move(cdf).value();
}

}  // namespace

std::vector<Flow> poisson(Table& t, EntryContext& e) {
  const Topology& topo = *e.ctx->topology;
  const Cdf cdf = read_cdf(t, *e.ctx);
  t.require("load", "a fraction of the host link rate in (0, 1]");
  const double load = t.number("load", 0, 1, 0);
  if (load <= 0) t.fail_value("load", "is out of range: expected a fraction above 0 and at most 1");
  const Time end_of_run = e.ctx->run->duration;
  const Time duration = t.time("duration", end_of_run > e.start ? end_of_run - e.start : Time::zero());
  if (duration == Time::zero()) t.fail("duration", "is zero: expected a positive time (start is at or after the end of the run)");
  const std::vector<uint32_t> hosts = read_hosts(t, "hosts", topo, std::nullopt);
  if (hosts.size() < 2) t.fail_value("hosts", "has fewer than 2 hosts: expected at least 2");

  std::vector<double> mean_gap_ps;
  double expected = 0;
  for (uint32_t h : hosts) {
    const double rate = static_cast<double>(topo.links[topo.hosts[h].link].rate.bps());
    mean_gap_ps.push_back(cdf.mean_bytes() * 8 / (load * rate) * 1e12);
    expected += static_cast<double>(duration.ps()) / mean_gap_ps.back();
  }
  if (expected > kMaxFlows) {
    t.fail("load", fmt::format("with this CDF, duration and {} hosts makes about {:.0f} flows: expected at most "
                               "{:.0f}; shorten the duration or lower the load", hosts.size(), expected, kMaxFlows));
  }
  const double end_ps = static_cast<double>((e.start + duration).ps());
  std::vector<Flow> flows;
  for (size_t i = 0; i < hosts.size(); ++i) {
    double at = static_cast<double>(e.start.ps()) + e.rng.exponential(mean_gap_ps[i]);
    while (at < end_ps) {
      Flow f = e.proto;
      f.src = hosts[i];
      const uint64_t pick = e.rng.uniform_int(hosts.size() - 1);
      f.dst = hosts[pick >= i ? pick + 1 : pick];
      f.size = Bytes(cdf.sample(e.rng));
      f.start = Time::ps(static_cast<uint64_t>(std::llround(at)));
      flows.push_back(f);
      at += e.rng.exponential(mean_gap_ps[i]);
    }
  }
  return flows;
}

}  // namespace rtb::scenario
