// Metric paths into summary.json: checked against the schema, read, folded.
#include <gtest/gtest.h>

#include "sweep/metric.h"

namespace rtb::sweep {
namespace {

using nlohmann::json;

const json kSummary = json::parse(R"({
  "seed": 1,
  "flows": [{"id": 0, "fct_ns": 100, "failed": false}, {"id": 1, "fct_ns": null, "failed": true},
            {"id": 2, "fct_ns": 300, "failed": false}],
  "switches": [{"name": "sw0", "ports": [
      {"name": "Ethernet0", "queue_bytes": {"p99": 1000}, "pfc_tx_frames": [0, 0, 0, 7, 0, 0, 0, 0]},
      {"name": "Ethernet8", "queue_bytes": {"p99": 52000}, "pfc_tx_frames": [0, 0, 0, 2, 0, 0, 0, 0]}]}],
  "totals": {"goodput_gbps": 91.52, "pfc_frames": 9, "ecn_mark_rate": 0.25, "jain_fairness": null}
})");

std::optional<std::string> value(const std::string& text) {
  auto m = parse_metric(text);
  EXPECT_TRUE(m) << m.error().message;
  return m ? metric_value(m.value(), kSummary) : std::nullopt;
}

TEST(Metric, ReadsNumbersAsSummaryJsonWritesThem) {
  EXPECT_EQ(value("totals.goodput_gbps"), "91.52");
  EXPECT_EQ(value("totals.pfc_frames"), "9");
  EXPECT_EQ(value("seed"), "1");
  EXPECT_EQ(value("totals.jain_fairness"), std::nullopt);  // null
  EXPECT_EQ(value("flows[1].failed"), "1");
}

TEST(Metric, SelectsByPositionOrByName) {
  EXPECT_EQ(value("switches[0].ports[1].queue_bytes.p99"), "52000");
  EXPECT_EQ(value("switches[sw0].ports[Ethernet0].queue_bytes.p99"), "1000");
  EXPECT_EQ(value("switches[sw0].ports[Ethernet0].pfc_tx_frames[3]"), "7");
  EXPECT_EQ(value("switches[sw1].ports[0].queue_bytes.p99"), std::nullopt);
  EXPECT_EQ(value("flows[9].fct_ns"), std::nullopt);
}

TEST(Metric, FoldsWildcardsLeavingNullsOut) {
  EXPECT_EQ(value("max(switches[*].ports[*].queue_bytes.p99)"), "52000");
  EXPECT_EQ(value("min(flows[*].fct_ns)"), "100");
  EXPECT_EQ(value("sum(switches[sw0].ports[*].pfc_tx_frames[3])"), "9");
  EXPECT_EQ(value("mean(flows[*].fct_ns)"), "200.0");
  EXPECT_EQ(value("sum(flows[*].failed)"), "1");
  EXPECT_EQ(value("max(flows[*].goodput_gbps)"), std::nullopt);
}

TEST(Metric, RefusesWhatSummaryJsonDoesNotHaveListingValidPaths) {
  auto m = parse_metric("totals.goodput");
  ASSERT_FALSE(m);
  const std::string& e = m.error().message;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  EXPECT_EQ(e.rfind("--metrics totals.goodput: not a number in summary.json (did you mean totals.goodput_gbps?): "
                    "expected one of schema_version, seed, duration_ns, ",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("switches[].ports[].queue_bytes.p99"), std::string::npos);
  EXPECT_EQ(parse_metric("flows[*].fct_ns").error().message,
            "--metrics flows[*].fct_ns: [*] selects several values: expected it inside max(...), min(...), sum(...) "
            "or mean(...)");
  EXPECT_FALSE(parse_metric("totals"));  // a table, not a number
  EXPECT_FALSE(parse_metric("max(totals.pfc_frames"));
  EXPECT_FALSE(parse_metric("totals.pfc_frames[0]"));
  EXPECT_FALSE(parse_metric("flows[].fct_ns"));
}

TEST(Metric, DefaultsAreValid) {
  for (const std::string& m : default_metrics()) EXPECT_TRUE(parse_metric(m)) << m;
}

}  // namespace
}  // namespace rtb::sweep
