// Whole scenarios in virtual time, asserted from their summaries and time series:
// determinism, conservation, losslessness, the DCQCN loop, fixed rate.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "results/derive.h"
#include "testbed/summary.h"
#include "tests/testbed/test_util.h"
#include "wire/crc_path.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

using testing::source_root;

RunReport run_text(const std::string& text, std::vector<std::string> overrides = {}) {
  auto s = scenario::load_scenario_text(text, source_root() + "/scenarios/test.toml", overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "testbed_test");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

RunReport run_file(const std::string& file, std::vector<std::string> overrides = {}) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/" + file, overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "testbed_test");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

const char* kIncast = R"(
[run]
duration = "2ms"
warmup = "500us"
[topology]
kind = "single_switch"
hosts = 5
rate = "100Gbps"
[cc]
algorithm = "dcqcn"
[[traffic]]
pattern = "incast"
receiver = "h4"
senders = 4
bytes = "2MB"
)";

// Virtual time: a pool too small for the scenario ends the run with the sizing message,
// naming the key that set it, instead of faking packet loss.
TEST(TestbedDeathTest, APoolTooSmallEndsAVirtualRunNamingTheKeyToRaise) {
  auto s = scenario::load_scenario_text(kIncast, source_root() + "/scenarios/test.toml",
                                        {"run.data_mbufs=32"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  cc::Registry registry = cc::Registry::with_builtins();
  EXPECT_EXIT((void)run_virtual(s.value(), registry, "testbed_test"),
              ::testing::ExitedWithCode(EXIT_FAILURE),
              "mbuf pool 'run[0-9]+_data' is exhausted: all 32 configured mbufs are in use.*"
              "needs at least 33.*not packet loss: run.data_mbufs = 32 set its size \\(the "
              "scenario's sizing gives [0-9]+\\); raise run.data_mbufs");
}

TEST(Testbed, SameScenarioAndSeedGiveAByteIdenticalSummary) {
  const RunReport a = run_text(kIncast);
  const RunReport b = run_text(kIncast);
  EXPECT_EQ(results::to_json(a.summary).dump(2), results::to_json(b.summary).dump(2));
  EXPECT_NE(results::to_json(a.summary).dump(2), results::to_json(run_text(kIncast, {"run.seed=9"}).summary).dump(2));
  EXPECT_NE(a.run["wall_seconds"], nullptr);
  EXPECT_EQ(a.run["icrc_crc_path"], wire::crc_path_name(wire::crc_path()));
}

uint64_t total(const ordered_json& ports, const char* key) {
  uint64_t n = 0;
  for (const auto& p : ports) {
    if (p[key].is_array()) {
      for (const auto& v : p[key]) n += v.get<uint64_t>();
    } else {
      n += p[key].get<uint64_t>();
    }
  }
  return n;
}

TEST(Testbed, EveryFlowDeliversWhatItSentOnceWithRetransmissionsCountedApart) {
  // A lossy link (1 % of frames dropped both ways) and PFC: all bytes arrive, once.
  const RunReport r = run_text(std::string(kIncast) + R"(
[[faults]]
kind = "drop"
link = ["h0", "sw0"]
probability = 0.01
)", {"run.duration=\"6ms\"", "host.local_ack_timeout=4"});
  const ordered_json r_json = results::to_json(r.summary);
  for (const auto& f : r_json["flows"]) {
    EXPECT_EQ(f["bytes_total"].get<uint64_t>(), 2'000'000u) << f.dump();
    EXPECT_FALSE(f["fct_ns"].is_null()) << f.dump();
  }
  EXPECT_GT(r_json["flows"][0]["retransmissions"].get<uint64_t>() +
                r_json["flows"][1]["retransmissions"].get<uint64_t>() +
                r_json["flows"][2]["retransmissions"].get<uint64_t>() +
                r_json["flows"][3]["retransmissions"].get<uint64_t>(),
            0u);
  EXPECT_GT(r_json["totals"]["drops"].get<uint64_t>(), 0u);
}

TEST(Testbed, FramesAreConservedInEverySwitch) {
  // Every frame a switch received is forwarded, dropped (counted by reason), or still
  // queued; PFC frames are counted apart and end at the port. Over the whole run (no
  // warm-up), so that nothing was queued when the counting began.
  const RunReport r = run_file("alltoall_leafspine.toml", {"run.duration=\"1ms\"", "run.warmup=\"0us\""});
  const ordered_json r_json = results::to_json(r.summary);
  for (const auto& sw : r_json["switches"]) {
    EXPECT_GT(total(sw["ports"], "tx_frames"), 0u);
    EXPECT_EQ(total(sw["ports"], "rx_frames"),
              total(sw["ports"], "tx_frames") + total(sw["ports"], "drops") +
                  total(sw["ports"], "queued_frames"))
        << sw["name"];
  }
}

TEST(Testbed, SixteenToOneWithPfcLosesNothing) {
  const RunReport r = run_file("incast16_pfc.toml");
  const ordered_json r_json = results::to_json(r.summary);
  const auto& t = r_json["totals"];
  EXPECT_GT(t["pfc_frames"].get<uint64_t>(), 0u);
  for (const auto& f : r_json["flows"]) {
    EXPECT_FALSE(f["fct_ns"].is_null()) << f.dump();
    EXPECT_EQ(f["retransmissions"].get<uint64_t>(), 0u);
  }
  for (const auto& p : r_json["switches"][0]["ports"]) {
    EXPECT_FALSE(p["drops_by_reason"].contains("LOSSLESS_HEADROOM_FULL")) << p.dump();
  }
  EXPECT_EQ(t["drops"].get<uint64_t>(), 0u);
}

TEST(Testbed, SixteenToOneWithoutPfcDropsRetransmitsAndStillCompletes) {
  const RunReport r = run_file("incast16_nopfc.toml");
  const ordered_json r_json = results::to_json(r.summary);
  const auto& t = r_json["totals"];
  EXPECT_EQ(t["pfc_frames"].get<uint64_t>(), 0u);
  EXPECT_GT(t["drops"].get<uint64_t>(), 0u);
  EXPECT_GT(t["retransmissions"].get<uint64_t>(), 0u);
  for (const auto& f : r_json["flows"]) {
    EXPECT_FALSE(f["fct_ns"].is_null()) << f.dump();
    EXPECT_EQ(f["bytes_total"].get<uint64_t>(), 1'000'000u);
    EXPECT_FALSE(f["failed"].get<bool>());
  }
}

// Mean achieved throughput of each flow over samples in [from, to), from flows.csv's data.
std::map<uint32_t, double> mean_throughput(const RunReport& r, Time from, Time to) {
  std::map<uint32_t, double> sum;
  std::map<uint32_t, int> n;
  for (const FlowSample& s : r.flow_samples) {
    if (s.at < from || s.at >= to) continue;
    sum[s.flow] += s.throughput_gbps;
    ++n[s.flow];
  }
  for (auto& [f, v] : sum) v /= n[f];
  return sum;
}

TEST(Testbed, DcqcnGivesTwoFlowsFairSharesAfterTheSecondJoins) {
  const RunReport r = run_file("fairness.toml");
  // The second half of the run (the second flow joined at 10 ms of 40).
  const auto mean = mean_throughput(r, Time::ms(20), Time::ms(40));
  ASSERT_EQ(mean.size(), 2u);
  const double fair = (mean.at(0) + mean.at(1)) / 2;
  EXPECT_GT(fair, 40.0);  // the link is used (1,024 of 1,106 wire bytes are payload)
  for (const auto& [f, v] : mean) EXPECT_NEAR(v, fair, 0.1 * fair) << "flow " << f;
  EXPECT_GE(results::jain_fairness({mean.at(0), mean.at(1)}), 0.99);
}

TEST(Testbed, DcqcnKeepsTheIncastQueueBelowTheXoffPointWithMarksAndCnps) {
  const RunReport r = run_file("default.toml");
  const ordered_json r_json = results::to_json(r.summary);
  const auto& t = r_json["totals"];
  EXPECT_GT(t["cnp_sent"].get<uint64_t>(), 0u);
  EXPECT_GT(t["ecn_mark_rate"].get<double>(), 0.0);
  const auto& to_receiver = r_json["switches"][0]["ports"][8];
  EXPECT_LT(to_receiver["queue_bytes"]["p99"].get<uint64_t>(), 2'400'000u);  // static_th
  for (const auto& h : r_json["hosts"]) {
    if (h["name"] == "h8") continue;
    EXPECT_GT(h["rp_cnp_handled"].get<uint64_t>(), 0u) << h.dump();
  }
}

TEST(Testbed, FixedRateAtLineRateFillsTheBufferAndTriggersPfc) {
  const RunReport r = run_file("fixed_rate.toml", {"run.duration=\"4ms\""});
  const ordered_json r_json = results::to_json(r.summary);
  EXPECT_GT(r_json["totals"]["pfc_frames"].get<uint64_t>(), 0u);
  const auto& to_receiver = r_json["switches"][0]["ports"][8];
  EXPECT_GT(to_receiver["queue_bytes"]["max"].get<uint64_t>(), 1'200'000u);  // past Kmax
  for (const auto& h : r_json["hosts"]) EXPECT_EQ(h["rp_cnp_handled"].get<uint64_t>(), 0u);
}

// Sum of a per-port counter over every port of every switch.
uint64_t fabric_total(const RunReport& r, const char* key) {
  const ordered_json r_json = results::to_json(r.summary);
  uint64_t n = 0;
  for (const auto& sw : r_json["switches"]) n += total(sw["ports"], key);
  return n;
}

TEST(Testbed, ACyclicBufferDependencyDeadlocksTheRing) {
  const RunReport r = run_file("deadlock.toml");
  const ordered_json r_json = results::to_json(r.summary);
  // After 10 ms nothing moves on the ring, yet the XOFF refreshes go on.
  const auto late = mean_throughput(r, Time::ms(10), Time::ms(20));
  ASSERT_EQ(late.size(), 5u);
  for (const auto& [f, v] : late) EXPECT_EQ(v, 0.0) << "flow " << f;
  EXPECT_GT(r_json["totals"]["pfc_frames"].get<uint64_t>(), 0u);
  for (const auto& f : r_json["flows"]) EXPECT_GT(f["bytes_total"].get<uint64_t>(), 0u);  // it ran first
}

TEST(Testbed, TheWatchdogBreaksTheDeadlock) {
  const RunReport r = run_file("deadlock_watchdog.toml");
  const auto late = mean_throughput(r, Time::ms(10), Time::ms(20));
  ASSERT_EQ(late.size(), 5u);
  for (const auto& [f, v] : late) EXPECT_GT(v, 0.5) << "flow " << f;
  EXPECT_GT(fabric_total(r, "pfcwd_storms_detected"), 0u);
}

TEST(Testbed, AStormingHostsPausesReachVictimFlows) {
  const RunReport r = run_file("storm_leafspine.toml");
  const ordered_json r_json = results::to_json(r.summary);
  // Flows 1 and 2 never touch the storming h0, yet stall once its pauses spread.
  const auto before = mean_throughput(r, Time::us(500), Time::ms(2));
  const auto after = mean_throughput(r, Time::ms(5), Time::ms(20));
  for (uint32_t victim : {1u, 2u}) {
    EXPECT_GT(before.at(victim), 10.0) << victim;
    EXPECT_LT(after.at(victim), 0.1 * before.at(victim)) << victim;
  }
  EXPECT_GT(r_json["hosts"][0]["tx_pfc_frames"].get<uint64_t>(), 0u);
  // The pause crossed the spine: leaf1 received PFC on its uplink (port 3).
  EXPECT_GT(total(ordered_json::array({r_json["switches"][1]["ports"][3]}), "pfc_rx_frames"), 0u);
  EXPECT_EQ(fabric_total(r, "pfcwd_storms_detected"), 0u);
}

TEST(Testbed, TheWatchdogContainsTheStorm) {
  const RunReport r = run_file("storm_watchdog.toml");
  const auto before = mean_throughput(r, Time::us(500), Time::ms(2));
  const auto after = mean_throughput(r, Time::ms(10), Time::ms(20));
  for (uint32_t victim : {1u, 2u}) EXPECT_GT(after.at(victim), 0.5 * before.at(victim)) << victim;
  EXPECT_GT(fabric_total(r, "pfcwd_storms_detected"), 0u);
}

}  // namespace
}  // namespace rtb::testbed
