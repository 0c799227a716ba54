#include "scenario/traffic.h"

#include <fmt/format.h>

#include <algorithm>

#include "scenario/host_settings.h"
#include "scenario/streams.h"

namespace rtb::scenario {
namespace {

using Generator = std::vector<Flow> (*)(Table&, EntryContext&);

struct Pattern {
  std::string_view name;
  Generator generate;
};
constexpr Pattern kPatterns[] = {
    {"incast", &incast},         {"all_to_all", &all_to_all}, {"permutation", &permutation},
    {"staggered", &staggered},   {"poisson", &poisson},       {"explicit", &explicit_flows},
    {"capture", &capture},
};

std::vector<Flow> read_entry(Table& t, uint32_t index, const TrafficContext& ctx) {
  t.require("pattern", "one of 'incast', 'all_to_all', 'permutation', 'staggered', 'poisson', 'explicit', 'capture'");
  const std::string pattern =
      t.choice("pattern", {"incast", "all_to_all", "permutation", "staggered", "poisson", "explicit", "capture"}, "");
  EntryContext e{&ctx, Flow{}, Time::zero(), Rng(ctx.run->seed, kStreamTraffic + index)};
  e.proto.traffic = index;
  e.proto.priority = static_cast<uint8_t>(t.integer("priority", 0, 7, e.proto.priority));
  e.proto.dscp = read_traffic_class(t, ctx.dscp);
  e.start = t.time("start", Time::zero());
  if (e.start >= ctx.run->duration) {
    t.fail_value("start", fmt::format("is not before the end of the run (run.duration = {} ns): expected an earlier start",
                                      ctx.run->duration.ns()));
  }
  std::vector<Flow> flows;
  for (const Pattern& p : kPatterns) {
    if (p.name == pattern) flows = p.generate(t, e);
  }
  t.finish();
  return flows;
}

}  // namespace

// pattern = "explicit": flows = [{src, dst, bytes, start, priority, dscp or nccl_ib_tc}, ...]; every
// key but src and dst defaults to the entry's.
std::vector<Flow> explicit_flows(Table& t, EntryContext& e) {
  const Topology& topo = *e.ctx->topology;
  std::vector<Table> list = t.tables("flows");
  if (list.empty()) t.fail("flows", "missing or empty: expected flows = [{ src = \"h0\", dst = \"h1\", bytes = \"1MB\" }]");
  std::vector<Flow> flows;
  for (Table& f : list) {
    Flow flow = e.proto;
    flow.src = read_host(f, "src", topo);
    flow.dst = read_host(f, "dst", topo);
    if (flow.src == flow.dst) f.fail_value("dst", "is also the source: expected another host");
    flow.size = read_size(f);
    flow.start = e.start + f.time("start", Time::zero());
    flow.priority = static_cast<uint8_t>(f.integer("priority", 0, 7, flow.priority));
    flow.dscp = read_traffic_class(f, flow.dscp);
    if (flow.start >= e.ctx->run->duration) f.fail_value("start", "is not before the end of the run: expected an earlier start");
    f.finish();
    flows.push_back(flow);
  }
  return flows;
}

std::vector<Flow> read_traffic(std::vector<Table>& entries, const TrafficContext& ctx) {
  std::vector<Flow> flows;
  for (uint32_t i = 0; i < entries.size(); ++i) {
    std::vector<Flow> more = read_entry(entries[i], i, ctx);
    flows.insert(flows.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  number_flows(flows);
  return flows;
}

void number_flows(std::vector<Flow>& flows) {
  std::stable_sort(flows.begin(), flows.end(), [](const Flow& a, const Flow& b) { return a.start < b.start; });
  for (uint32_t i = 0; i < flows.size(); ++i) flows[i].id = i;
}

}  // namespace rtb::scenario
