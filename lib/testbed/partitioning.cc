#include "testbed/partitioning.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <string>

namespace rtb::testbed {
namespace {

using scenario::NodeKind;
using scenario::NodeRef;

constexpr uint32_t kUnplaced = UINT32_MAX;

// Union-find over nodes: hosts first, then switches.
class Groups {
 public:
  explicit Groups(uint32_t nodes) : parent_(nodes) { std::iota(parent_.begin(), parent_.end(), 0u); }
  uint32_t find(uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a), b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);  // the lowest node names the group
  }

 private:
  std::vector<uint32_t> parent_;
};

std::string node_name(const scenario::Topology& t, NodeRef n) {
  return n.kind == NodeKind::kHost ? t.hosts[n.index].name : t.switches[n.index].name;
}

}  // namespace

Expected<Partitioning> plan_partitions(const scenario::Scenario& s, uint32_t cpus) {
  const scenario::Topology& topo = s.topology;
  const auto hosts = static_cast<uint32_t>(topo.hosts.size());
  const auto nodes = hosts + static_cast<uint32_t>(topo.switches.size());
  auto node = [&](NodeRef n) { return n.kind == NodeKind::kHost ? n.index : hosts + n.index; };
  Partitioning plan;
  plan.count = s.run.partitions;
  plan.threads = s.run.threads.value_or(std::clamp(cpus, 1u, plan.count));
  if (plan.count > 1 && s.run.clock == scenario::Clock::kRealtime) {
    return Error{fmt::format("run.partitions = {}: partitions split virtual time; a realtime run places "
                             "its stages on lcores with [realtime]", plan.count)};
  }

  Groups groups(nodes);
  std::vector<uint32_t> weight(nodes, 0);
  for (const scenario::Link& l : topo.links) {
    ++weight[node(l.a.node)];
    ++weight[node(l.b.node)];
    if (l.a.node.kind == NodeKind::kHost || l.b.node.kind == NodeKind::kHost) {
      groups.join(node(l.a.node), node(l.b.node));
    }
  }
  std::vector<uint32_t> group_weight(nodes, 0);
  for (uint32_t n = 0; n < nodes; ++n) group_weight[groups.find(n)] += std::max(weight[n], 1u);
  std::vector<uint32_t> roots;
  for (uint32_t n = 0; n < nodes; ++n) {
    if (groups.find(n) == n) roots.push_back(n);
  }
  plan.groups = static_cast<uint32_t>(roots.size());
  if (plan.count > plan.groups) {
    return Error{fmt::format("run.partitions = {}: the topology has only {} group(s) of a switch and the "
                             "hosts cabled to it; expected at most {}", plan.count, plan.groups, plan.groups)};
  }

  // The groups run.partition_of places first (a host has one port, so a group holds one
  // switch at most); the rest largest first, to the lightest.
  std::vector<uint64_t> load(plan.count, 0);
  std::vector<uint32_t> partition_of_root(nodes, kUnplaced);
  for (const auto& [name, p] : s.run.partition_of) {
    const auto sw = std::find_if(topo.switches.begin(), topo.switches.end(), [&](const auto& x) { return x.name == name; });
    if (sw == topo.switches.end()) continue;  // the scenario's load checked the names
    const uint32_t r = groups.find(hosts + static_cast<uint32_t>(sw - topo.switches.begin()));
    partition_of_root[r] = p;
    load[p] += group_weight[r];
  }
  std::stable_sort(roots.begin(), roots.end(),
                   [&](uint32_t a, uint32_t b) { return group_weight[a] > group_weight[b]; });
  for (uint32_t r : roots) {
    if (partition_of_root[r] != kUnplaced) continue;
    const auto p = static_cast<uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
    partition_of_root[r] = p;
    load[p] += group_weight[r];
  }
  if (const auto empty = std::find(load.begin(), load.end(), 0u); empty != load.end()) {
    return Error{fmt::format("run.partition_of leaves partition {} of {} without a switch: expected every "
                             "partition to hold one (place fewer switches by name, or give fewer partitions)",
                             empty - load.begin(), plan.count)};
  }
  plan.of_host.resize(hosts);
  plan.of_switch.resize(topo.switches.size());
  for (uint32_t n = 0; n < nodes; ++n) {
    const uint32_t p = partition_of_root[groups.find(n)];
    if (n < hosts) plan.of_host[n] = p;
    else plan.of_switch[n - hosts] = p;
  }

  for (size_t i = 0; i < topo.links.size(); ++i) {
    const scenario::Link& l = topo.links[i];
    if (!plan.crosses(l)) continue;
    ++plan.crossing_cables;
    if (l.propagation == Time::zero()) {
      return Error{fmt::format("run.partitions = {}: link {} ({} - {}) joins two partitions but has no "
                               "propagation delay, so neither could run ahead of the other; expected "
                               "a cable length or delay above 0 on switch-to-switch links",
                               plan.count, i, node_name(topo, l.a.node), node_name(topo, l.b.node))};
    }
    plan.lookahead = std::min(plan.lookahead, l.propagation);
  }
  return plan;
}

}  // namespace rtb::testbed
