#include "scenario/faults.h"

#include <fmt/format.h>

#include <charconv>

#include "scenario/traffic.h"

namespace rtb::scenario {
namespace {

struct End {
  std::string name;
  std::optional<uint16_t> port;
};

End parse_end(Table& t, const toml::node& n) {
  const auto* s = n.as_string();
  if (s == nullptr) t.fail_value("link", "is not a pair of node names: expected [\"leaf0\", \"spine1\"]");
  End e;
  const std::string& text = s->get();
  const size_t colon = text.find(':');
  e.name = text.substr(0, colon);
  if (colon != std::string::npos) {
    uint16_t port = 0;
    const auto [p, ec] = std::from_chars(text.data() + colon + 1, text.data() + text.size(), port);
    if (ec != std::errc() || p != text.data() + text.size()) {
      t.fail_value("link", fmt::format("has '{}': expected a node name or \"node:port\"", text));
    }
    e.port = port;
  }
  return e;
}

bool matches(const Topology& topo, const LinkEnd& le, const End& e) {
  const std::string& name =
      le.node.kind == NodeKind::kHost ? topo.hosts[le.node.index].name : topo.switches[le.node.index].name;
  return name == e.name && (!e.port || *e.port == le.port);
}


void check_window(Table& t, std::string_view from_key, Time from, std::string_view to_key, Time to, const RunConfig& run) {
  if (from >= run.duration) t.fail_value(from_key, "is not before the end of the run: expected an earlier time");
  if (to <= from) t.fail_value(to_key, fmt::format("is not after {}: expected a later time", t.key_path(from_key)));
}

PfcStormFault read_storm(Table& t, const Topology& topo, const RunConfig& run) {
  PfcStormFault f;
  f.host = read_host(t, "host", topo);
  f.start = t.time("start", Time::zero());
  f.end = t.time("end", Time::never());
  check_window(t, "start", f.start, "end", f.end, run);
  f.priority = static_cast<uint8_t>(t.integer("priority", 0, 7, f.priority));
  f.quanta = static_cast<uint16_t>(t.integer("quanta", 1, 0xFFFF, f.quanta));
  // Default: refresh at half the pause time at the host's link rate, as a stuck NIC does.
  const Rate rate = topo.links[topo.hosts[f.host].link].rate;
  f.interval = t.time("interval", rate.time_for(Bytes(64) * f.quanta) / 2);
  if (f.interval == Time::zero()) t.fail_value("interval", "is zero: expected a positive time");
  return f;
}

LinkDownFault read_link_down(Table& t, const Topology& topo, const RunConfig& run) {
  LinkDownFault f;
  f.link = read_link(t, topo);
  t.require("from", "the time the link goes down");
  f.from = t.time("from", Time::zero());
  f.to = t.time("to", Time::never());
  check_window(t, "from", f.from, "to", f.to, run);
  return f;
}

DropFault read_drop(Table& t, const Topology& topo) {
  DropFault f;
  f.link = read_link(t, topo);
  t.require("probability", "a probability in 0..1");
  f.probability = t.number("probability", 0, 1, 0);
  return f;
}

}  // namespace

uint32_t read_link(Table& t, const Topology& topo) {
  t.require("link", "the link's two ends, such as [\"leaf0\", \"spine1\"]");
  const auto ends = t.opt_array("link").value();
  if (ends.size() != 2) t.fail_value("link", "is not a pair of node names: expected [\"leaf0\", \"spine1\"]");
  const End a = parse_end(t, *ends[0]);
  const End b = parse_end(t, *ends[1]);
  std::vector<uint32_t> found;
  for (uint32_t i = 0; i < topo.links.size(); ++i) {
    const Link& l = topo.links[i];
    if ((matches(topo, l.a, a) && matches(topo, l.b, b)) || (matches(topo, l.a, b) && matches(topo, l.b, a))) {
      found.push_back(i);
    }
  }
  if (found.empty()) t.fail_value("link", "is not a link of the topology: expected the names of two connected nodes");
  if (found.size() > 1) {
    t.fail_value("link", fmt::format("matches {} parallel links: expected \"node:port\" ends to pick one", found.size()));
  }
  return found.front();
}

Faults read_faults(std::vector<Table>& entries, const Topology& topo, const RunConfig& run) {
  Faults faults;
  for (Table& t : entries) {
    t.require("kind", "'pfc_storm', 'link_down' or 'drop'");
    const std::string kind = t.choice("kind", {"pfc_storm", "link_down", "drop"}, "");
    if (kind == "pfc_storm") faults.pfc_storms.push_back(read_storm(t, topo, run));
    if (kind == "link_down") faults.link_downs.push_back(read_link_down(t, topo, run));
    if (kind == "drop") faults.drops.push_back(read_drop(t, topo));
    t.finish();
  }
  return faults;
}

}  // namespace rtb::scenario
