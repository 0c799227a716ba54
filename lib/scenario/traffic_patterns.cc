// incast, all_to_all, permutation and staggered (scenarios/README.md, "traffic").
#include <fmt/format.h>

#include <numeric>

#include "scenario/traffic.h"

namespace rtb::scenario {
namespace {

constexpr Time kDefaultJitter = Time::us(1);

Flow make(const EntryContext& e, uint32_t src, uint32_t dst, std::optional<Bytes> size, Time start) {
  Flow f = e.proto;
  f.src = src;
  f.dst = dst;
  f.size = size;
  f.start = start;
  return f;
}

// Fisher-Yates shuffles until no element stays in place: a uniformly random derangement
// (about e = 2.7 tries on average).
std::vector<uint32_t> derangement(size_t n, Rng& rng) {
  std::vector<uint32_t> p(n);
  while (true) {
    std::iota(p.begin(), p.end(), 0u);
    for (size_t i = n - 1; i > 0; --i) std::swap(p[i], p[rng.uniform_int(i + 1)]);
    bool fixed = false;
    for (size_t i = 0; i < n; ++i) fixed = fixed || p[i] == i;
    if (!fixed) return p;
  }
}

}  // namespace

// N senders -> one receiver, each starting within [start, start + jitter).
std::vector<Flow> incast(Table& t, EntryContext& e) {
  const Topology& topo = *e.ctx->topology;
  const uint32_t receiver = read_host(t, "receiver", topo);
  const std::vector<uint32_t> senders = read_hosts(t, "senders", topo, receiver);
  const std::optional<Bytes> size = read_size(t);
  const Time jitter = t.time("jitter", kDefaultJitter);
  std::vector<Flow> flows;
  for (uint32_t s : senders) flows.push_back(make(e, s, receiver, size, e.start + jittered(e, jitter)));
  return flows;
}

// Every listed host sends `bytes` to every other (the MoE all-to-all), src-major order.
std::vector<Flow> all_to_all(Table& t, EntryContext& e) {
  const std::vector<uint32_t> hosts = read_hosts(t, "hosts", *e.ctx->topology, std::nullopt);
  if (hosts.size() < 2) t.fail_value("hosts", "has fewer than 2 hosts: expected at least 2");
  t.require("bytes", "the message size of each pair, such as \"1MB\"");
  const std::optional<Bytes> size = read_size(t);
  const Time jitter = t.time("jitter", kDefaultJitter);
  std::vector<Flow> flows;
  for (uint32_t s : hosts) {
    for (uint32_t d : hosts) {
      if (s != d) flows.push_back(make(e, s, d, size, e.start + jittered(e, jitter)));
    }
  }
  return flows;
}

// Host i sends to host p(i), p a seeded random derangement of the listed hosts.
std::vector<Flow> permutation(Table& t, EntryContext& e) {
  const std::vector<uint32_t> hosts = read_hosts(t, "hosts", *e.ctx->topology, std::nullopt);
  if (hosts.size() < 2) t.fail_value("hosts", "has fewer than 2 hosts: expected at least 2");
  const std::optional<Bytes> size = read_size(t);
  const Time jitter = t.time("jitter", kDefaultJitter);
  const std::vector<uint32_t> p = derangement(hosts.size(), e.rng);
  std::vector<Flow> flows;
  for (size_t i = 0; i < hosts.size(); ++i) {
    flows.push_back(make(e, hosts[i], hosts[p[i]], size, e.start + jittered(e, jitter)));
  }
  return flows;
}

// Sender k starts at start + k x interval (fairness and convergence), long-lived by default.
std::vector<Flow> staggered(Table& t, EntryContext& e) {
  const Topology& topo = *e.ctx->topology;
  const uint32_t receiver = read_host(t, "receiver", topo);
  const std::vector<uint32_t> senders = read_hosts(t, "senders", topo, receiver);
  const std::optional<Bytes> size = read_size(t);
  t.require("interval", "the time between flow starts, such as \"5ms\"");
  const Time interval = t.time("interval", Time::zero());
  std::vector<Flow> flows;
  for (size_t k = 0; k < senders.size(); ++k) flows.push_back(make(e, senders[k], receiver, size, e.start + interval * k));
  return flows;
}

}  // namespace rtb::scenario
