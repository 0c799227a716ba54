// The metric schema (lib/sweep/metric.cc) against real summaries, both ways: a number
// summary.json gains must be added to it, and it lists nothing summary.json lacks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "sweep/metric.h"
#include "tests/apps/child.h"

namespace rtb::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Every leaf that is a number, a boolean or null, as "a[].b".
void leaves(const json& j, const std::string& at, std::set<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k != "drops_by_reason") leaves(v, at.empty() ? k : at + "." + k, out);  // keyed by reason: not tabulated
    }
  } else if (j.is_array()) {
    for (const json& e : j) leaves(e, at + "[]", out);
  } else if (!j.is_string()) {
    out.insert(at);
  }
}

std::set<std::string> summary_paths(const std::vector<std::string>& run_args, const std::string& name) {
  const std::string out = ::testing::TempDir() + "/sweep_schema_test/" + name;
  fs::remove_all(out);
  std::vector<std::string> args = run_args;
  args.insert(args.end(), {"--out", out});
  const auto r = apps::testing::run_rocetb(args);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::ifstream f(out + "/summary.json");
  std::set<std::string> paths;
  leaves(json::parse(f), "", paths);
  return paths;
}

TEST(SummarySchema, MatchesWhatRunsWrite) {
  std::set<std::string> seen = summary_paths(
      {"run", "scenarios/default.toml", "--set", "run.duration=1ms", "--set", "run.warmup=200us"}, "default");
  const std::set<std::string> websearch = summary_paths(
      {"run", "scenarios/websearch.toml", "--set", "run.duration=1ms", "--set", "run.warmup=200us"}, "websearch");
  seen.insert(websearch.begin(), websearch.end());
  const std::vector<std::string>& schema = summary_schema();
  for (const std::string& p : seen) {
    EXPECT_NE(std::find(schema.begin(), schema.end(), p), schema.end()) << p << " is in summary.json, not in the schema";
  }
  // Only in realtime summaries, or in flows of several messages (pattern "capture").
  const std::set<std::string> elsewhere{"valid", "switches[].pfc_nombuf", "hosts[].tx_nombuf_data",
                                        "hosts[].tx_nombuf_control", "flows[].messages", "flows[].messages_completed",
                                        "flows[].message_completion_ns.mean",
                                        "flows[].message_completion_ns.p99", "flows[].message_completion_ns.max",
                                        "flows[].message_completion_ns"};
  for (const std::string& p : schema) {
    if (elsewhere.count(p) == 0) {
      EXPECT_TRUE(seen.count(p)) << p << " is in the schema, not in summary.json";
    }
  }
}

}  // namespace
}  // namespace rtb::sweep
