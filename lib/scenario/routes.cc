#include "scenario/routes.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>


namespace rtb::scenario {
namespace {

constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();

struct Neighbour {
  uint16_t port;
  uint32_t node;  // flat id: hosts first, then switches
};

class Graph {
 public:
  explicit Graph(const Topology& t) : hosts_(static_cast<uint32_t>(t.hosts.size())), adj_(t.hosts.size() + t.switches.size()) {
    for (const Link& l : t.links) {
      adj_[id(l.a.node)].push_back({l.a.port, id(l.b.node)});
      adj_[id(l.b.node)].push_back({l.b.port, id(l.a.node)});
    }
    for (auto& list : adj_) {
      std::sort(list.begin(), list.end(), [](const Neighbour& x, const Neighbour& y) { return x.port < y.port; });
    }
  }
  uint32_t id(NodeRef n) const { return n.kind == NodeKind::kHost ? n.index : hosts_ + n.index; }
  bool is_host(uint32_t node) const { return node < hosts_; }

  // Hop counts to `host`, expanding only through switches.
  std::vector<uint32_t> distances_to(uint32_t host) const {
    std::vector<uint32_t> dist(adj_.size(), kFar);
    std::deque<uint32_t> queue{host};
    dist[host] = 0;
    while (!queue.empty()) {
      const uint32_t u = queue.front();
      queue.pop_front();
      if (is_host(u) && u != host) continue;
      for (const Neighbour& n : adj_[u]) {
        if (dist[n.node] != kFar) continue;
        dist[n.node] = dist[u] + 1;
        queue.push_back(n.node);
      }
    }
    return dist;
  }

  std::vector<uint16_t> next_hops(uint32_t sw, uint32_t host, const std::vector<uint32_t>& dist) const {
    std::vector<uint16_t> ports;
    for (const Neighbour& n : adj_[sw]) {
      const bool toward = n.node == host || (!is_host(n.node) && dist[n.node] + 1 == dist[sw]);
      if (toward) ports.push_back(n.port);
    }
    return ports;
  }

 private:
  uint32_t hosts_;
  std::vector<std::vector<Neighbour>> adj_;
};

}  // namespace

std::string compute_routes(Topology& topo) {
  const Graph g(topo);
  for (SwitchNode& s : topo.switches) s.config.routes.clear();
  for (uint32_t h = 0; h < topo.hosts.size(); ++h) {
    const std::vector<uint32_t> dist = g.distances_to(h);
    for (uint32_t s = 0; s < topo.switches.size(); ++s) {
      const uint32_t node = g.id({NodeKind::kSwitch, s});
      if (dist[node] == kFar) {
        return fmt::format("switch '{}' has no path to host '{}': expected a connected topology",
                           topo.switches[s].name, topo.hosts[h].name);
      }
      topo.switches[s].config.routes.push_back(sw::Route{topo.hosts[h].ip, 32, g.next_hops(node, h, dist)});
    }
  }
  return "";
}

}  // namespace rtb::scenario
