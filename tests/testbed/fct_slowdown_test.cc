// FCT slowdown: a flow's completion time over its ideal one (the HPCC simulator's
// standalone_fct: base RTT plus the flow's wire bytes at the slowest link), per flow and
// as percentiles over the run and by flow size.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cc_algos/registry.h"
#include "runtime/wire_link.h"
#include "scenario/load.h"
#include "testbed/base_rtt.h"
#include "testbed/ideal_fct.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;
using testing::source_root;

scenario::Scenario load(const std::string& file, std::vector<std::string> overrides) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/" + file, overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return std::move(s).value();
}

RunReport run(const scenario::Scenario& s) {
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s, registry, "fct_slowdown_test");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

// 1 MB at path MTU 1024 is 977 frames: a WRITE First with its RETH (14 + 20 + 8 + 12 + 16
// + 1024 + 4 = 1098 bytes), 975 Middles of 1082, a Last of 1,000,000 - 976 x 1024 = 576
// bytes of payload (634); each with FCS, preamble and gap (24 bytes) on the wire.
TEST(IdealFct, WireBytesOfAMessageCountEveryFrameOnTheWire) {
  EXPECT_EQ(message_wire_bytes(Bytes(1'000'000), 1024, true, false).count(),
            1122u + 975u * 1106u + 658u);
  // A SEND has no RETH; a tag adds 4 bytes to every frame.
  EXPECT_EQ(message_wire_bytes(Bytes(2048), 1024, false, true).count(), 2u * (1082u + 4u + 24u));
  // A 0-byte SEND is one minimum-size frame (58 bytes padded to 60, FCS, preamble and
  // gap); a 0-byte WRITE carries its RETH: 74 bytes.
  EXPECT_EQ(message_wire_bytes(Bytes(0), 1024, false, false).count(), 84u);
  EXPECT_EQ(message_wire_bytes(Bytes(0), 1024, true, false).count(), 98u);
}

TEST(IdealFct, IsTheBaseRttAndTheWireBytesAtTheSlowestLink) {
  const scenario::Scenario s = load("default.toml", {"traffic[0].bytes=\"1MB\""});
  const scenario::Flow& f = s.flows[0];
  const Time ideal = *ideal_fct(s.topology, f);
  EXPECT_EQ(ideal, base_rtt(s.topology, f) + Rate::gbps(100).time_for(Bytes(1122u + 975u * 1106u + 658u)));
  // Long-lived flows have none.
  EXPECT_FALSE(ideal_fct(load("default.toml", {}).topology, load("default.toml", {}).flows[0]).has_value());
}

// One flow alone completes in about its ideal time: only the base RTT's own data frame is
// counted twice, and the sender's start-up.
TEST(FctSlowdown, ALoneFlowIsCloseToOne) {
  const RunReport r = run(load("default.toml", {"traffic[0].senders=1", "traffic[0].bytes=\"1MB\"",
                                                "run.warmup=\"0us\"", "run.duration=\"1ms\""}));
  const ordered_json r_json = results::to_json(r.summary);
  const auto& f = r_json["flows"][0];
  ASSERT_FALSE(f["fct_slowdown"].is_null()) << f.dump();
  EXPECT_NEAR(f["fct_slowdown"].get<double>(), f["fct_ns"].get<double>() / f["ideal_fct_ns"].get<double>(), 1e-3);
  EXPECT_GE(f["fct_slowdown"].get<double>(), 0.99);
  EXPECT_LT(f["fct_slowdown"].get<double>(), 1.1);
}

// Eight equal flows into one port: the last cannot finish before eight flows' bytes crossed
// the bottleneck, so its slowdown is at least about 8; the figures are the flows' own.
TEST(FctSlowdown, AnIncastsLastFlowWaitsForEveryOther) {
  const RunReport r = run(load("default.toml", {"traffic[0].bytes=\"1MB\"", "run.warmup=\"0us\"",
                                                "run.duration=\"3ms\""}));
  const ordered_json r_json = results::to_json(r.summary);
  std::vector<double> x;
  for (const auto& f : r_json["flows"]) x.push_back(f["fct_slowdown"].get<double>());
  const auto& fs = r_json["fct_slowdown"];
  ASSERT_FALSE(fs.is_null());
  EXPECT_EQ(fs["flows"].get<size_t>(), 8u);
  EXPECT_DOUBLE_EQ(fs["max"].get<double>(), *std::max_element(x.begin(), x.end()));
  EXPECT_GT(fs["max"].get<double>(), 7.5);
  EXPECT_LE(fs["p50"].get<double>(), fs["p95"].get<double>());
  EXPECT_LE(fs["p95"].get<double>(), fs["p99"].get<double>());
  // Equal sizes: eight groups of one flow (the size order keeps the flows' order).
  ASSERT_EQ(fs["by_size"].size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(fs["by_size"][i]["size_max_bytes"], 1'000'000u);
    EXPECT_DOUBLE_EQ(fs["by_size"][i]["p50"].get<double>(), x[i]);
  }
}

// Mixed sizes (WebSearch): twenty groups of equal count in size order; every finished flow
// counted once; a long-lived run has no slowdown figures.
TEST(FctSlowdown, GroupsFlowsBySizeAsTheHpccAnalysisDoes) {
  const RunReport r = run(load("websearch.toml", {"run.duration=\"2ms\""}));
  const ordered_json r_json = results::to_json(r.summary);
  const auto& fs = r_json["fct_slowdown"];
  ASSERT_FALSE(fs.is_null());
  size_t finished = 0;
  for (const auto& f : r_json["flows"]) finished += f["fct_slowdown"].is_null() ? 0 : 1;
  ASSERT_GE(finished, 20u);
  EXPECT_EQ(fs["flows"].get<size_t>(), finished);
  ASSERT_EQ(fs["by_size"].size(), 20u);
  size_t in_groups = 0;
  uint64_t last_size = 0;
  for (const auto& g : fs["by_size"]) {
    in_groups += g["flows"].get<size_t>();
    EXPECT_GE(g["size_max_bytes"].get<uint64_t>(), last_size);
    last_size = g["size_max_bytes"].get<uint64_t>();
    EXPECT_GE(g["p99"].get<double>(), g["p50"].get<double>());
  }
  EXPECT_EQ(in_groups, finished);
  EXPECT_FALSE(run(load("default.toml", {"run.duration=\"3ms\""})).summary.fct_slowdown.has_value());
}

}  // namespace
}  // namespace rtb::testbed
