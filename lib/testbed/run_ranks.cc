#include "testbed/run_ranks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "results/merge.h"
#include "results/summary_json.h"
#include "testbed/version.h"

namespace rtb::testbed {
namespace {

runtime::Message bytes_of(const std::string& text) {
  const auto* b = reinterpret_cast<const std::byte*>(text.data());
  return runtime::Message(b, b + text.size());
}

std::string text_of(const runtime::Message& m) {
  return std::string(reinterpret_cast<const char*>(m.data()), m.size());
}

// summary.json gives times in whole nanoseconds; the figures merge() derives again from
// them (a flow's throughput over the time it ran, goodput, FCT slowdown) need them exact,
// as one process has them. So a rank's summary travels as its JSON text followed by each
// flow's start, FCT and ideal FCT in picoseconds (never: none).
constexpr uint64_t kNone = UINT64_MAX;

void put_words(runtime::Message& m, const std::vector<uint64_t>& w) {
  const auto* b = reinterpret_cast<const std::byte*>(w.data());
  m.insert(m.end(), b, b + w.size() * sizeof(uint64_t));
}

uint64_t word_at(const runtime::Message& m, size_t at) {
  uint64_t w = 0;
  std::memcpy(&w, m.data() + at, sizeof w);
  return w;
}

// [text bytes][the text][flows][start, FCT, ideal FCT of each flow], words of 8 bytes.
runtime::Message summary_message(const results::Summary& s) {
  const std::string text = results::to_json(s).dump();
  runtime::Message m;
  put_words(m, {text.size()});
  const runtime::Message t = bytes_of(text);
  m.insert(m.end(), t.begin(), t.end());
  std::vector<uint64_t> w{s.flows.size()};
  for (const results::FlowResult& f : s.flows) {
    w.push_back(f.start.ps());
    w.push_back(f.fct ? f.fct->ps() : kNone);
    w.push_back(f.ideal_fct ? f.ideal_fct->ps() : kNone);
  }
  put_words(m, w);
  return m;
}

Expected<results::Summary> summary_of(const runtime::Message& m, const std::string& where) {
  const uint64_t text = word_at(m, 0);
  const std::string json(reinterpret_cast<const char*>(m.data()) + 8, text);
  auto s = results::from_json(nlohmann::ordered_json::parse(json), where);
  if (!s) return s;
  size_t at = 8 + text;
  const uint64_t flows = word_at(m, at);
  if (flows != s.value().flows.size()) return Error{where + ": the exact times do not match its flows"};
  const auto time = [](uint64_t ps) { return ps == kNone ? std::optional<Time>{} : std::optional<Time>{Time::ps(ps)}; };
  for (results::FlowResult& f : s.value().flows) {
    f.start = Time::ps(word_at(m, at += 8));
    f.fct = time(word_at(m, at += 8));
    f.ideal_fct = time(word_at(m, at += 8));
  }
  return s;
}

// merge() lists nodes part by part; one process lists them in the scenario's order.
template <typename T>
void in_scenario_order(std::vector<T>& nodes, const std::map<std::string, size_t>& index) {
  std::stable_sort(nodes.begin(), nodes.end(),
                   [&](const T& a, const T& b) { return index.at(a.name) < index.at(b.name); });
}

}  // namespace

Status place_on_ranks(Partitioning& plan, const runtime::Ranks& ranks, bool capturing, bool standing_in) {
  if (plan.count < ranks.size()) {
    return Error{fmt::format("run.partitions = {}: expected at least the {} MPI ranks mpirun started "
                             "(each rank runs its own partitions; --set run.partitions={})",
                             plan.count, ranks.size(), ranks.size())};
  }
  if (capturing) return Error{"--capture: not available across MPI ranks (run one process to capture)"};
  if (standing_in) return Error{"replayed hosts: not available across MPI ranks (run one process)"};
  plan.ranks = ranks.size();
  plan.rank = ranks.rank();
  plan.threads = 1;
  return {};
}

Status same_run_everywhere(runtime::Ranks& ranks, const scenario::Scenario& s) {
  const std::string mine =
      fmt::format("rocetb {} (commit {}) on scenario {} (seed {}, {} ps, {} hosts, {} switches, {} cables, {} flows)",
                  kVersion, kCommit, s.name, s.run.seed, s.run.duration.ps(), s.topology.hosts.size(),
                  s.topology.switches.size(), s.topology.links.size(), s.flows.size());
  const std::vector<runtime::Message> all = ranks.gather(bytes_of(mine));
  for (size_t r = 1; r < all.size(); ++r) {
    if (text_of(all[r]) != mine) {
      return Error{fmt::format("MPI rank {} runs {}: expected what rank 0 runs, {} (the same build and scenario "
                               "on every machine)", r, text_of(all[r]), mine)};
    }
  }
  return {};
}

Expected<results::Summary> join_summaries(runtime::Ranks& ranks, const scenario::Scenario& s,
                                          const results::Summary& mine) {
  const std::vector<runtime::Message> all = ranks.gather(summary_message(mine));
  if (ranks.rank() != 0) return mine;
  std::vector<results::Part> parts;
  for (size_t r = 0; r < all.size(); ++r) {
    const std::string where = fmt::format("rank {}'s summary", r);
    auto part = summary_of(all[r], where);
    if (!part) return Error{"internal error: " + part.error().message};
    parts.push_back(results::Part{std::move(part).value(), where, fmt::format("rank{}", r)});
  }
  auto joined = results::merge(parts);
  if (!joined) return Error{"internal error: " + joined.error().message};
  results::Summary out = std::move(joined).value();
  out.roles.clear();
  std::map<std::string, size_t> sw, host;
  for (size_t i = 0; i < s.topology.switches.size(); ++i) sw[s.topology.switches[i].name] = i;
  for (size_t i = 0; i < s.topology.hosts.size(); ++i) host[s.topology.hosts[i].name] = i;
  in_scenario_order(out.switches, sw);
  in_scenario_order(out.hosts, host);
  return out;
}

nlohmann::ordered_json ranks_json(runtime::Ranks& ranks, nlohmann::ordered_json mine) {
  mine["rank"] = ranks.rank();
  mine["host"] = ranks.host_name();
  const std::vector<runtime::Message> all = ranks.gather(bytes_of(mine.dump()));
  if (ranks.rank() != 0) return nullptr;
  nlohmann::ordered_json each = nlohmann::ordered_json::array();
  for (const runtime::Message& m : all) each.push_back(nlohmann::ordered_json::parse(text_of(m)));
  return {{"ranks", ranks.size()}, {"each", std::move(each)}};
}

}  // namespace rtb::testbed
