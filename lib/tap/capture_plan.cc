#include "tap/capture_plan.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

#include "scenario/did_you_mean.h"

namespace rtb::tap {
namespace {

using scenario::LinkEnd;
using scenario::NodeKind;
using scenario::NodeRef;
using scenario::Topology;

std::string node_name(const Topology& t, NodeRef n) {
  return n.kind == NodeKind::kHost ? t.hosts[n.index].name : t.switches[n.index].name;
}

std::string port_name(const Topology& t, uint32_t sw, uint16_t port) {
  return t.switches[sw].name + ":" + t.switches[sw].config.ports[port].name;
}

// What a WHAT (or one side of a link WHAT) names: a node, or one port of a switch.
struct Endpoint {
  NodeRef node;
  std::optional<uint16_t> port;
};

std::optional<Endpoint> find_endpoint(const Topology& t, std::string_view name) {
  for (uint32_t h = 0; h < t.hosts.size(); ++h) {
    if (t.hosts[h].name == name) return Endpoint{{NodeKind::kHost, h}, std::nullopt};
  }
  for (uint32_t s = 0; s < t.switches.size(); ++s) {
    if (t.switches[s].name == name) return Endpoint{{NodeKind::kSwitch, s}, std::nullopt};
    for (uint16_t p = 0; p < t.switches[s].config.ports.size(); ++p) {
      if (port_name(t, s, p) == name) return Endpoint{{NodeKind::kSwitch, s}, p};
    }
  }
  return std::nullopt;
}

bool touches(const LinkEnd& end, const Endpoint& e) {
  return end.node == e.node && (!e.port || *e.port == end.port);
}

std::vector<uint32_t> links_where(const Topology& t, auto&& keep) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < t.links.size(); ++i) {
    if (keep(t.links[i])) out.push_back(i);
  }
  return out;
}

// Every name a WHAT may take, for suggestions: all, nodes, switch ports, links.
std::vector<std::string> known_names(const Topology& t) {
  std::vector<std::string> out{"all", std::string(kHostsTx)};
  for (const auto& h : t.hosts) out.push_back(h.name);
  for (uint32_t s = 0; s < t.switches.size(); ++s) {
    out.push_back(t.switches[s].name);
    for (uint16_t p = 0; p < t.switches[s].config.ports.size(); ++p) out.push_back(port_name(t, s, p));
  }
  for (const auto& l : t.links) out.push_back(node_name(t, l.a.node) + "-" + node_name(t, l.b.node));
  return out;
}

Error unknown(const Topology& t, const std::string& what, const std::string& option) {
  const std::string near = scenario::nearest(what, known_names(t));
  const std::string hint = near.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", near);
  std::string examples = "\"all\", \"hosts-tx\"";
  if (!t.links.empty()) {
    const scenario::Link& l = t.links.front();
    examples += fmt::format(", a node (\"{}\"), a link (\"{}-{}\")", node_name(t, l.a.node),
                            node_name(t, l.a.node), node_name(t, l.b.node));
  }
  if (!t.switches.empty() && !t.switches.front().config.ports.empty()) {
    examples += fmt::format(" or a switch port (\"{}\")", port_name(t, 0, 0));
  }
  return Error{fmt::format("{} {}: no node, link or switch port of that name{}; expected {}", option,
                           what, hint, examples)};
}

// The links a WHAT names, in link order.
Expected<std::vector<uint32_t>> resolve(const Topology& t, const std::string& what,
                                        const std::string& option) {
  if (what == "all") return links_where(t, [](const scenario::Link&) { return true; });
  if (auto e = find_endpoint(t, what)) {
    return links_where(t, [&](const scenario::Link& l) { return touches(l.a, *e) || touches(l.b, *e); });
  }
  for (size_t dash = what.find('-'); dash != std::string::npos; dash = what.find('-', dash + 1)) {
    const auto x = find_endpoint(t, std::string_view(what).substr(0, dash));
    const auto y = find_endpoint(t, std::string_view(what).substr(dash + 1));
    if (!x || !y) continue;
    auto between = links_where(t, [&](const scenario::Link& l) {
      return (touches(l.a, *x) && touches(l.b, *y)) || (touches(l.a, *y) && touches(l.b, *x));
    });
    if (between.empty()) {
      return Error{fmt::format("{} {}: no cable joins {} and {}; expected a link between neighbours",
                               option, what, what.substr(0, dash), what.substr(dash + 1))};
    }
    return between;
  }
  return unknown(t, what, option);
}

std::string file_name_for(std::string what) {
  for (char& c : what) {
    if (c == ':' || c == '/') c = '_';
  }
  return "capture-" + what + ".pcapng";
}

// Every direction whose sending end is a host, in link order.
std::vector<Direction> hosts_sending(const Topology& t) {
  std::vector<Direction> out;
  for (uint32_t i = 0; i < t.links.size(); ++i) {
    if (t.links[i].a.node.kind == NodeKind::kHost) out.push_back({i, true});
    if (t.links[i].b.node.kind == NodeKind::kHost) out.push_back({i, false});
  }
  return out;
}

}  // namespace

std::string end_name(const Topology& t, const LinkEnd& end) {
  return end.node.kind == NodeKind::kHost ? t.hosts[end.node.index].name
                                          : port_name(t, end.node.index, end.port);
}

std::string direction_name(const Topology& t, Direction d) {
  const scenario::Link& l = t.links[d.link];
  return d.a_to_b ? end_name(t, l.a) + "->" + end_name(t, l.b) : end_name(t, l.b) + "->" + end_name(t, l.a);
}

Expected<std::vector<FilePlan>> plan_captures(const Topology& topo, const std::vector<std::string>& what,
                                              const std::string& option) {
  std::vector<FilePlan> plans;
  for (const std::string& w : what) {
    for (const FilePlan& p : plans) {
      if (p.what == w) return Error{fmt::format("{} {}: given twice; expected each capture once", option, w)};
    }
    FilePlan plan{w, file_name_for(w), {}};
    if (w == kHostsTx) {
      plan.directions = hosts_sending(topo);
      plans.push_back(std::move(plan));
      continue;
    }
    auto links = resolve(topo, w, option);
    if (!links) return links.error();
    for (uint32_t l : links.value()) {
      plan.directions.push_back({l, true});
      plan.directions.push_back({l, false});
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace rtb::tap
