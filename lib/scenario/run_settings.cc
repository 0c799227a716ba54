#include "scenario/run_settings.h"

#include "scenario/did_you_mean.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace rtb::scenario {
namespace {

std::optional<uint32_t> mbufs(Table& t, std::string_view key) {
  const std::optional<int64_t> n = t.opt_integer(key, 1, UINT32_MAX);
  if (!n) return std::nullopt;
  return static_cast<uint32_t>(*n);
}

// run.threads: "auto" (nullopt) or 1 .. partitions.
std::optional<uint32_t> threads(Table& t, uint32_t partitions) {
  const toml::node* n = t.get("threads");
  const std::string expected = fmt::format("expected \"auto\" or 1 .. {}", partitions);
  if (n->is_string()) {
    if (n->as_string()->get() != "auto") t.fail_value("threads", "is not \"auto\": " + expected);
    return std::nullopt;
  }
  if (!n->is_integer()) t.fail_value("threads", "is not an integer: " + expected);
  const int64_t v = n->as_integer()->get();
  if (v < 1) t.fail_value("threads", "is out of range: " + expected);
  if (v > partitions) t.fail_value("threads", fmt::format("is above run.partitions ({}): {}", partitions, expected));
  return static_cast<uint32_t>(v);
}

// run.partition_of: switch name = partition (0 .. partitions - 1), in the file's order.
std::vector<std::pair<std::string, uint32_t>> partition_of(Table& t, uint32_t partitions) {
  std::vector<std::pair<std::string, uint32_t>> out;
  for (const auto& [key, node] : t.raw()) {
    const std::string name(key.str());
    out.emplace_back(name, static_cast<uint32_t>(t.integer(name, 0, partitions - 1, 0)));
  }
  return out;
}

}  // namespace

void check_partition_of(std::optional<Table> run, const Topology& topo) {
  if (!run) return;
  std::optional<Table> placed = run->table("partition_of");
  if (!placed) return;
  std::vector<std::string> names;
  for (const SwitchNode& sw : topo.switches) names.push_back(sw.name);
  for (const auto& [key, node] : placed->raw()) {
    const std::string name(key.str());
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    const std::string near = nearest(name, names);
    placed->fail(name, fmt::format("'{}' is not a switch of the topology{}: expected a switch name ({} .. {})",
                                   name, near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near),
                                   names.front(), names.back()));
  }
}

RunConfig read_run(std::optional<Table> t, std::optional<uint64_t> seed_override) {
  RunConfig r;
  if (t) {
    r.clock = t->choice("clock", {"virtual", "realtime"}, "virtual") == "realtime" ? Clock::kRealtime : Clock::kVirtual;
    r.duration = t->time("duration", r.duration);
    if (r.duration == Time::zero() || r.duration > Time::s(3'600)) {
      t->fail_value("duration", "is out of range: expected above 0 and at most 3600s");
    }
    r.seed = static_cast<uint64_t>(t->integer("seed", 0, INT64_MAX, static_cast<int64_t>(r.seed)));
    r.warmup = t->time("warmup", r.warmup);
    if (r.warmup >= r.duration) t->fail_value("warmup", "is not below run.duration: expected a shorter warm-up");
    r.sample_interval = t->time("sample_interval", r.sample_interval);
    if (r.sample_interval == Time::zero() || r.sample_interval > r.duration) {
      t->fail_value("sample_interval", "is out of range: expected above 0 and at most run.duration");
    }
    r.partitions = static_cast<uint32_t>(t->integer("partitions", 1, 64, r.partitions));
    if (t->has("threads")) r.threads = threads(*t, r.partitions);
    if (std::optional<Table> placed = t->table("partition_of")) {
      r.partition_of = partition_of(*placed, r.partitions);
      placed->finish();
    }
    r.data_mbufs = mbufs(*t, "data_mbufs");
    r.control_mbufs = mbufs(*t, "control_mbufs");
    if (t->has("max_memory")) {
      const toml::node* n = t->get("max_memory");
      if (!(n->is_string() && n->as_string()->get() == "auto")) {
        r.max_memory = t->bytes("max_memory", Bytes{});
        if (r.max_memory->count() < 16'000'000) {
          t->fail_value("max_memory", "is out of range: expected \"auto\" or a size of at least 16MB");
        }
      }
    }
    t->finish();
  }
  if (seed_override) r.seed = *seed_override;
  return r;
}

}  // namespace rtb::scenario
