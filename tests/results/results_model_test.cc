// The results model without a run: summary.json read back with one-line errors, the merge
// of a split run's parts (and its refusals), the series join, the table, the schema list.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "results/derive.h"
#include "results/merge.h"
#include "results/schema.h"
#include "results/series_merge.h"
#include "results/summary_json.h"
#include "results/table.h"
#include "tests/results/split_parts.h"

namespace rtb::results {
namespace {

using nlohmann::ordered_json;
using ::testing::HasSubstr;
using testing::part_of;

// Two flows into one receiver through one switch, finished or not, as a run fills them.
Summary two_flows() {
  Summary s{.scenario = "two", .seed = 7, .duration = Time::ms(3), .warmup = Time::ms(1),
            .window = {Time::ms(1), Time::ms(3)}};
  FlowResult a{.id = 0, .src = "h0", .dst = "h2", .start = Time::zero(), .size_bytes = 1'000'000,
               .ideal_fct = Time::us(100), .bytes = 500'000, .bytes_total = 1'000'000, .qpn = 256,
               .fct = Time::us(1500), .fct_slowdown = 15.0, .goodput_gbps = 5.333, .cnp_handled = 3,
               .retransmissions = 0, .timeouts = 0, .failed = false};
  FlowResult b{.id = 1, .src = "h1", .dst = "h2", .start = Time::zero(), .bytes = 2'000'000,
               .bytes_total = 3'000'000, .qpn = 257, .cnp_handled = 9, .retransmissions = 1, .timeouts = 0,
               .failed = false};
  s.flows = {a, b};
  PortResult p{.name = "Ethernet8", .tx_frames = 10, .drops = 2, .drops_by_reason = {{"EGRESS_QUEUE_LIMIT", 2}}};
  p.queues.push_back(QueueResult{.queue = 3, .packets = 10, .data_frames = 8, .data_ecn_marked = 2, .marks_ecn = true});
  p.queues.push_back(QueueResult{.queue = 6, .packets = 4});  // CNPs: never marked
  s.switches.push_back(SwitchResult{.name = "sw0", .ports = {p}});
  s.hosts = {HostResult{.name = "h0", .rp_cnp_handled = 3}, HostResult{.name = "h1", .rp_cnp_handled = 9},
             HostResult{.name = "h2", .np_cnp_sent = 12}};
  s.counts = Counts{.cnp_sent = 12, .drops = 2, .retransmissions = 1, .cnp_sent_total = 20, .drops_total = 2,
                    .retransmissions_total = 1};
  s.complete = true;
  derive(s);
  return s;
}

TEST(ResultsModel, DerivesThroughputGoodputFairnessAndTheMarkRateOverDataFrames) {
  const Summary s = two_flows();
  // Flow 0 ran from the window's start to its completion at 1.5 ms: 0.5 ms.
  EXPECT_DOUBLE_EQ(*s.flows[0].throughput_gbps, 500'000 * 8 / 0.5e-3 / 1e9);
  EXPECT_DOUBLE_EQ(*s.flows[1].throughput_gbps, 2'000'000 * 8 / 2e-3 / 1e9);
  // Flow 1 never finished: the goodput is over the whole window.
  EXPECT_EQ(s.totals.goodput_span, Time::ms(2));
  EXPECT_DOUBLE_EQ(s.totals.goodput_gbps, 2'500'000 * 8 / 2e-3 / 1e9);
  EXPECT_DOUBLE_EQ(s.totals.ecn_mark_rate, 0.25);  // 2 of 8 data frames; queue 6's frames left out
  ASSERT_TRUE(s.totals.jain_fairness.has_value());
  EXPECT_DOUBLE_EQ(*s.totals.jain_fairness, jain_fairness({8.0, 8.0}));
  ASSERT_TRUE(s.fct_slowdown.has_value());
  EXPECT_EQ(s.fct_slowdown->flows, 1u);
}

TEST(ResultsModel, SummaryJsonReadsBackToTheSameBytes) {
  const ordered_json j = to_json(two_flows());
  EXPECT_EQ(j.begin().key(), "schema_version");
  EXPECT_EQ(j["schema_version"], kSchemaVersion);
  auto back = from_json(j, "summary.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(to_json(back.value()).dump(2), j.dump(2));
}

std::string read_error(const std::function<void(ordered_json&)>& spoil) {
  ordered_json j = to_json(two_flows());
  spoil(j);
  auto s = from_json(j, "DIR/summary.json");
  return s.ok() ? "accepted" : s.error().message;
}

TEST(ResultsModel, ABadFieldIsOneLineNamingTheFileThePathTheValueAndWhatWasExpected) {
  EXPECT_EQ(read_error([](ordered_json& j) { j["flows"][1]["bytes"] = "many"; }),
            "DIR/summary.json: flows[1].bytes = \"many\": expected a whole number >= 0 or null");
  EXPECT_EQ(read_error([](ordered_json& j) { j["switches"][0]["ports"][0]["pfc_tx_frames"] = {1, 2}; }),
            "DIR/summary.json: switches[0].ports[0].pfc_tx_frames = [1,2]: expected an array of 8 whole numbers "
            "(one per priority)");
  EXPECT_EQ(read_error([](ordered_json& j) { j["totals"].erase("drops"); }), "DIR/summary.json: totals.drops: missing");
  EXPECT_EQ(read_error([](ordered_json& j) { j["clock"] = "wall"; }),
            "DIR/summary.json: clock = \"wall\": expected \"virtual\" or \"realtime\"");
  EXPECT_THAT(read_error([](ordered_json& j) { j["schema_version"] = kSchemaVersion + 1; }),
              HasSubstr("schema_version = 2: expected 1 or lower (written by a newer rocetb"));
  EXPECT_EQ(read_error([](ordered_json& j) { j.erase("schema_version"); }),
            "DIR/summary.json: schema_version: missing");
}

TEST(ResultsModel, ASplitRunsPartsMergeIntoTheSingleProcessSummary) {
  const Summary whole = two_flows();
  auto merged = merge({part_of(whole, {"h0", "h1"}, true, "senders"), part_of(whole, {"h2"}, false, "receiver")});
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_THAT(merged.value().roles, ::testing::ElementsAre("senders", "receiver"));
  Summary m = merged.value();
  m.roles.clear();
  EXPECT_EQ(to_json(m).dump(2), to_json(whole).dump(2));
}

TEST(ResultsModel, PartsOfDifferentRunsAreRefusedInOneLine) {
  const Summary whole = two_flows();
  Part other = part_of(whole, {"h2"}, false, "receiver");
  other.summary.seed = 8;
  auto m = merge({part_of(whole, {"h0", "h1"}, true, "senders"), other});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message,
            "receiver/summary.json: seed = 8: expected 7 as in senders/summary.json (the parts of one split run)");
  auto twice = merge({part_of(whole, {"h0", "h2"}, true, "a"), part_of(whole, {"h2"}, false, "b")});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message,
            "b/summary.json: host h2 is in a/summary.json too: expected each node in one part only");
}

TEST(ResultsModel, InvalidPartsMakeAnInvalidMergeWithTheirReasons) {
  const Summary whole = two_flows();
  Part a = part_of(whole, {"h0", "h1"}, true, "senders"), b = part_of(whole, {"h2"}, false, "receiver");
  a.summary.valid = true;
  b.summary.valid = false;
  b.summary.invalid_reason = "lateness p99 12 us over the 5 us budget";
  auto m = merge({a, b});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m.value().valid, false);
  EXPECT_EQ(m.value().invalid_reason, "receiver: lateness p99 12 us over the 5 us budget");
  std::ostringstream table;
  print_summary(table, m.value());
  EXPECT_THAT(table.str(), HasSubstr("INVALID RUN: receiver: lateness p99"));
}

TEST(ResultsModel, TheTableShowsUnknownFiguresAsADash) {
  Summary s = two_flows();
  s.flows[1].throughput_gbps.reset();
  std::ostringstream out;
  print_summary(out, s);
  EXPECT_THAT(out.str(), HasSubstr("after the warm-up: 1.000 ms to 3.000 ms"));
  EXPECT_THAT(out.str(), HasSubstr("    1         h1         h2        2000000          -            -      9      1"));
  EXPECT_THAT(out.str(), HasSubstr("ECN mark rate 0.2500 (data frames) | CNPs 12 | PFC frames 0 | drops 2"));
}

TEST(ResultsModel, TheSchemaListsEveryNumberTheWriterWrites) {
  const std::vector<std::string>& p = numeric_paths();
  for (const char* path : {"schema_version", "totals.goodput_gbps", "flows[].message_completion_ns.p99",
                           "switches[].ports[].pfc_rx_frames[]", "switches[].ports[].queues[].ecn_mark_rate",
                           "hosts[].tx_nombuf_data", "fct_slowdown.by_size[].p99", "valid", "complete"}) {
    EXPECT_NE(std::find(p.begin(), p.end(), path), p.end()) << path;
  }
  EXPECT_EQ(std::find(p.begin(), p.end(), "scenario"), p.end()) << "a string is not a figure";
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/results_model_test_" + name;
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs(text.c_str(), f);
  std::fclose(f);
  return path;
}

TEST(ResultsModel, FlowSeriesJoinTheSendersStateAndTheReceiversBytesPerSample) {
  const std::string sender = temp_file("sender.csv",
                                       "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled,alpha\n"
                                       "10,0,100,0,0,0,1\n20,0,50,0,0,1,0.5\n");
  const std::string receiver = temp_file("receiver.csv",
                                         "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled\n"
                                         "10,0,0,80,1000,0\n20,0,0,40,2000,0\n");
  auto joined = merge_flows_csv({receiver, sender});
  ASSERT_TRUE(joined.ok()) << joined.error().message;
  EXPECT_EQ(joined.value(),
            "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled,alpha\n"
            "10,0,100,80,1000,0,1\n20,0,50,40,2000,1,0.5\n");
  const std::string bad = temp_file("bad.csv", "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled\n"
                                               "10,x,0,80,1000,0\n");
  auto refused = merge_flows_csv({sender, bad});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, bad + ":2: flow = \"x\": expected a flow id");
}

// The Python tools (plots, report.html, rocetb compare) refuse a summary newer than they
// read: their version must follow the writer's.
TEST(ResultsModel, ThePythonToolsReadThisSchemaVersion) {
  const char* root = std::getenv("ROCETB_SOURCE_ROOT");
  std::ifstream f(std::string(root != nullptr ? root : ".") + "/scripts/rocetb_results/folder.py");
  ASSERT_TRUE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("\nSCHEMA_VERSION = " + std::to_string(kSchemaVersion) + "\n"));
}

}  // namespace
}  // namespace rtb::results
