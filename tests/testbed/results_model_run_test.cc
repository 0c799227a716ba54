// The results model (lib/results) on real runs: every summary.json reads back to the same
// bytes, and a run's summary cut into a split run's parts merges back into it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cc_algos/registry.h"
#include "results/summary_json.h"
#include "scenario/load.h"
#include "testbed/run.h"
#include "tests/results/split_parts.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

using results::Summary;

Summary run_file(const std::string& file, std::vector<std::string> overrides) {
  auto s = scenario::load_scenario(testing::source_root() + "/scenarios/" + file, overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "results_model_run_test", {}, {}, SeriesRequest::discard());
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value().summary : Summary{};
}

// Long-lived flows with PFC; finite WebSearch flows with FCT slowdown; drops without PFC;
// flows of several messages.
TEST(ResultsModelRun, EverySummaryJsonReadsBackToTheSameBytes) {
  for (const auto& [file, sets] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"default.toml", {"run.duration=\"3ms\""}},
           {"websearch.toml", {"run.duration=\"2ms\""}},
           {"incast16_nopfc.toml", {"run.duration=\"2ms\""}},
           {"storm_watchdog.toml", {"run.duration=\"3ms\""}}}) {
    const nlohmann::ordered_json j = results::to_json(run_file(file, sets));
    auto back = results::from_json(j, file);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(results::to_json(back.value()).dump(2), j.dump(2)) << file;
  }
}

// A finite 8:1 incast cut as a split run would leave it (senders with the switch, the
// receiver alone) merges into the summary the single process wrote, field for field.
TEST(ResultsModelRun, ASplitRunMergesIntoTheSingleProcessSummary) {
  const Summary whole =
      run_file("default.toml", {"traffic[0].bytes=\"1MB\"", "run.duration=\"3ms\"", "run.warmup=\"100us\""});
  ASSERT_TRUE(whole.fct_slowdown.has_value()) << "the flows finished";
  std::vector<std::string> senders;
  for (const results::HostResult& h : whole.hosts) {
    if (h.name != "h8") senders.push_back(h.name);
  }
  auto merged = results::merge({results::testing::part_of(whole, senders, true, "senders"),
                                results::testing::part_of(whole, {"h8"}, false, "receiver")});
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  Summary m = merged.value();
  EXPECT_EQ(m.roles, (std::vector<std::string>{"senders", "receiver"}));
  m.roles.clear();
  EXPECT_EQ(results::to_json(m).dump(2), results::to_json(whole).dump(2));
}

}  // namespace
}  // namespace rtb::testbed
