#include <fmt/format.h>

#include <algorithm>

#include "scenario/traffic.h"

namespace rtb::scenario {

uint32_t read_host(Table& t, std::string_view key, const Topology& topo) {
  t.require(key, "a host name");
  const std::string name = t.string(key, "");
  for (uint32_t i = 0; i < topo.hosts.size(); ++i) {
    if (topo.hosts[i].name == name) return i;
  }
  for (const SwitchNode& s : topo.switches) {
    if (s.name == name) t.fail_value(key, "is a switch: expected a host");
  }
  t.fail_value(key, fmt::format("is not a host of the topology: expected one of {}..{}", topo.hosts.front().name,
                                topo.hosts.back().name));
}

static uint32_t host_named(Table& t, std::string_view key, const toml::node& n, const Topology& topo) {
  const auto* s = n.as_string();
  for (uint32_t i = 0; s != nullptr && i < topo.hosts.size(); ++i) {
    if (topo.hosts[i].name == s->get()) return i;
  }
  t.fail_value(key, fmt::format("has {}, which is not a host of the topology: expected host names",
                                written(n)));
}

std::vector<uint32_t> read_hosts(Table& t, std::string_view key, const Topology& topo,
                                 std::optional<uint32_t> exclude) {
  const auto others = static_cast<int64_t>(topo.hosts.size() - (exclude ? 1 : 0));
  std::vector<uint32_t> out;
  const toml::node* n = t.get(key);
  if (n == nullptr || n->is_integer()) {
    const int64_t count = n == nullptr ? others : n->as_integer()->get();
    if (count < 1 || count > others) {
      t.fail_value(key, fmt::format("is out of range: expected 1..{} (the topology has {} hosts{})", others,
                                    topo.hosts.size(), exclude ? " besides the receiver" : ""));
    }
    for (uint32_t i = 0; out.size() < static_cast<size_t>(count); ++i) {
      if (i != exclude) out.push_back(i);
    }
    return out;
  }
  const std::vector<const toml::node*> names = t.opt_array(key).value();
  for (const toml::node* e : names) {
    const uint32_t h = host_named(t, key, *e, topo);
    if (h == exclude) t.fail_value(key, fmt::format("lists '{}', the receiver: expected other hosts", topo.hosts[h].name));
    if (std::find(out.begin(), out.end(), h) != out.end()) {
      t.fail_value(key, fmt::format("lists '{}' twice: expected each host once", topo.hosts[h].name));
    }
    out.push_back(h);
  }
  if (out.empty()) t.fail_value(key, "is empty: expected at least one host");
  return out;
}

std::optional<Bytes> read_size(Table& t) {
  const auto b = t.opt_bytes("bytes");
  if (b && b->count() == 0) t.fail_value("bytes", "is zero: expected at least 1B (omit bytes for a long-lived flow)");
  return b;
}

Time jittered(EntryContext& e, Time jitter) {
  return jitter == Time::zero() ? Time::zero() : Time::ps(e.rng.uniform_int(jitter.ps()));
}

}  // namespace rtb::scenario
