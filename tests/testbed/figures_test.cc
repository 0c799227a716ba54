// summary.json's figures: one window (after the warm-up) for all of them, the mark rate
// over data frames, drops where they happened, mlx5's meaning of the timeout counters,
// port counters that agree across a link, and figures for finite flows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;
using testing::source_root;

RunReport run_file(const std::string& file, std::vector<std::string> overrides = {}) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/" + file, overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "figures_test");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

uint64_t sum(const ordered_json& a) {
  uint64_t n = 0;
  for (const auto& v : a) n += v.get<uint64_t>();
  return n;
}

uint64_t port_sum(const RunReport& r, const char* key) {
  const ordered_json r_json = results::to_json(r.summary);
  uint64_t n = 0;
  for (const auto& sw : r_json["switches"]) {
    for (const auto& p : sw["ports"]) n += p[key].is_array() ? sum(p[key]) : p[key].get<uint64_t>();
  }
  return n;
}

uint64_t host_sum(const RunReport& r, const char* key) {
  const ordered_json r_json = results::to_json(r.summary);
  uint64_t n = 0;
  for (const auto& h : r_json["hosts"]) n += h[key].get<uint64_t>();
  return n;
}

// The default scenario: every PFC frame falls in the first 2 ms, the warm-up. The summary
// counts them only in pfc_frames_total; pfc_frames is what the ports and hosts counted
// after the warm-up, which a run that stops where the warm-up ends tells apart.
TEST(Figures, EveryFigureIsCountedAfterTheWarmupAndTheWholeRunIsNamedSo) {
  const RunReport r = run_file("default.toml", {"run.duration=\"4ms\""});
  const ordered_json r_json = results::to_json(r.summary);
  const RunReport warmup = run_file("default.toml", {"run.duration=\"2ms\"", "run.warmup=\"0us\""});
  const ordered_json warmup_json = results::to_json(warmup.summary);
  const auto& t = r_json["totals"];
  EXPECT_EQ(r_json["window"]["from_ns"], 2'000'000u);
  EXPECT_EQ(t["pfc_frames"].get<uint64_t>(), port_sum(r, "pfc_tx_frames") + host_sum(r, "tx_pfc_frames"));
  EXPECT_GT(t["pfc_frames_total"].get<uint64_t>(), 1'000u);
  EXPECT_NEAR(static_cast<double>(t["pfc_frames"].get<uint64_t>()),
              static_cast<double>(t["pfc_frames_total"].get<uint64_t>() -
                                  warmup_json["totals"]["pfc_frames_total"].get<uint64_t>()),
              2.0);
  EXPECT_LT(t["pfc_frames"].get<uint64_t>(), t["pfc_frames_total"].get<uint64_t>() / 10);
  EXPECT_EQ(t["cnp_sent"].get<uint64_t>(), host_sum(r, "np_cnp_sent"));
  EXPECT_NEAR(static_cast<double>(t["cnp_sent"].get<uint64_t>()),
              static_cast<double>(t["cnp_sent_total"].get<uint64_t>() -
                                  warmup_json["totals"]["cnp_sent_total"].get<uint64_t>()),
              2.0);
  // The flows' bytes too: the table's bytes and Gb/s are one window.
  for (const auto& f : r_json["flows"]) {
    EXPECT_NEAR(f["throughput_gbps"].get<double>(), f["bytes"].get<double>() * 8 / 2e-3 / 1e9, 1e-9);
    EXPECT_LT(f["bytes"].get<uint64_t>(), f["bytes_total"].get<uint64_t>());
  }
}

// The sum over a flow's samples of what it received in each interval is its counter, in
// the window and over the whole run.
TEST(Figures, AFlowsSamplesAddUpToItsCounter) {
  const RunReport r = run_file("default.toml", {"run.duration=\"4ms\""});
  const ordered_json r_json = results::to_json(r.summary);
  const Time interval = Time::us(10);  // default.toml run.sample_interval
  for (const auto& f : r_json["flows"]) {
    double window = 0, all = 0;
    for (const FlowSample& x : r.flow_samples) {
      if (x.flow != f["id"].get<uint32_t>()) continue;
      const double bytes = x.throughput_gbps * 1e9 / 8 * interval.s_f();
      all += bytes;
      if (x.at > Time::ms(2)) window += bytes;
    }
    EXPECT_NEAR(window, f["bytes"].get<double>(), 1.0) << f.dump();
    EXPECT_NEAR(all, f["bytes_total"].get<double>(), 1.0) << f.dump();
  }
}

// Marks over the data frames through the queues that mark: at the bottleneck, as many as
// the receiver saw CE-marked (its mlx5 np_ecn_marked_roce_packets), none of the ACKs
// and CNPs going the other way in the rate's denominator.
TEST(Figures, TheMarkRateIsOverDataFramesThroughMarkingQueues) {
  const RunReport r = run_file("default.toml", {"run.duration=\"4ms\""});
  const ordered_json r_json = results::to_json(r.summary);
  const auto& bottleneck = r_json["switches"][0]["ports"][8];
  ASSERT_EQ(bottleneck["queues"].size(), 1u) << bottleneck.dump();
  const auto& q = bottleneck["queues"][0];
  EXPECT_EQ(q["queue"], 3);
  const double rate = q["data_ecn_marked"].get<double>() / q["data_frames"].get<double>();
  EXPECT_DOUBLE_EQ(q["ecn_mark_rate"].get<double>(), rate);
  EXPECT_DOUBLE_EQ(r_json["totals"]["ecn_mark_rate"].get<double>(), rate);  // the only one with data
  EXPECT_GT(rate, 0.0);
  const auto& receiver = r_json["hosts"][8];
  EXPECT_NEAR(receiver["np_ecn_marked_roce_packets"].get<double>(), q["data_ecn_marked"].get<double>(),
              0.01 * q["data_ecn_marked"].get<double>());
  // The old figure: marks over every frame every port sent, ACKs included.
  EXPECT_GT(rate, 1.5 * static_cast<double>(port_sum(r, "ecn_marked")) /
                      static_cast<double>(port_sum(r, "tx_frames")));
}

// Without PFC the 16:1 incast overflows the bottleneck's queue 3 (Ethernet64, port 16):
// every drop is there, where queues.csv shows them, none on the senders' ports.
TEST(Figures, DropsAreOnThePortAndQueueWhereTheyHappened) {
  const RunReport r = run_file("incast16_nopfc.toml");
  const ordered_json r_json = results::to_json(r.summary);
  const auto& ports = r_json["switches"][0]["ports"];
  const uint64_t drops = r_json["totals"]["drops"].get<uint64_t>();
  ASSERT_GT(drops, 0u);
  for (size_t p = 0; p < 16; ++p) EXPECT_EQ(ports[p]["drops"], 0u) << ports[p].dump();
  const auto& bottleneck = ports[16];
  EXPECT_EQ(bottleneck["name"], "Ethernet64");
  EXPECT_EQ(bottleneck["drops"].get<uint64_t>(), drops);
  EXPECT_EQ(bottleneck["drops_by_reason"]["EGRESS_QUEUE_LIMIT"].get<uint64_t>(), drops);
  ASSERT_EQ(bottleneck["queues"].size(), 1u);
  EXPECT_EQ(bottleneck["queues"][0]["dropped_packets"].get<uint64_t>(), drops);
  uint64_t csv = 0;
  for (const QueueSample& q : r.queue_samples) {
    if (q.port == 16 && q.queue == 3) csv = q.drops;
  }
  EXPECT_EQ(csv, drops);
}

// mlx5: local_ack_timeout_err counts ACK timer expiries (retried); a QP that ran out of
// retries counts in req_transport_retries_exceeded.
TEST(Figures, TimeoutCountersMeanWhatMlx5MeansByThem) {
  const RunReport r = run_file("incast16_nopfc.toml");
  const ordered_json r_json = results::to_json(r.summary);
  uint64_t timeouts = 0;
  for (const auto& f : r_json["flows"]) timeouts += f["timeouts"].get<uint64_t>();
  ASSERT_GT(timeouts, 0u);
  EXPECT_EQ(host_sum(r, "local_ack_timeout_err"), timeouts);
  EXPECT_EQ(host_sum(r, "req_transport_retries_exceeded"), 0u);  // every flow completed
}

// What one end of a cable counted: frames sent and received, PFC apart.
struct EndCount {
  uint64_t tx = 0, rx = 0, pfc_tx = 0, pfc_rx = 0;
};

EndCount end_count(const RunReport& r, const scenario::LinkEnd& e) {
  const ordered_json r_json = results::to_json(r.summary);
  if (e.node.kind == scenario::NodeKind::kHost) {  // mlx5 rx/tx frames include PFC
    const auto& h = r_json["hosts"][e.node.index];
    const uint64_t pfc_rx = sum(h["rx_pfc_frames"]), pfc_tx = h["tx_pfc_frames"].get<uint64_t>();
    return {h["tx_frames"].get<uint64_t>() - pfc_tx, h["rx_frames"].get<uint64_t>() - pfc_rx, pfc_tx, pfc_rx};
  }
  const auto& p = r_json["switches"][e.node.index]["ports"][e.port];
  return {p["tx_frames"].get<uint64_t>(), p["rx_frames"].get<uint64_t>(), sum(p["pfc_tx_frames"]),
          sum(p["pfc_rx_frames"])};
}

// The two ends of every cable count the same frames: what one end sent the other
// received, PFC frames apart from the rest. Finite flows that all finished well before the
// end: nothing is in flight.
void expect_links_agree(const std::string& file, std::vector<std::string> overrides) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/" + file, overrides);
  ASSERT_TRUE(s.ok()) << s.error().message;
  const RunReport r = run_file(file, overrides);
  const ordered_json r_json = results::to_json(r.summary);
  for (const auto& f : r_json["flows"]) ASSERT_FALSE(f["fct_ns"].is_null()) << "still sending at the end";
  uint64_t pfc = 0;
  for (const scenario::Link& l : s.value().topology.links) {
    const EndCount a = end_count(r, l.a), b = end_count(r, l.b);
    EXPECT_EQ(a.tx, b.rx);
    EXPECT_EQ(b.tx, a.rx);
    EXPECT_EQ(a.pfc_tx, b.pfc_rx);
    EXPECT_EQ(b.pfc_tx, a.pfc_rx);
    pfc += a.pfc_tx + b.pfc_tx;
  }
  EXPECT_GT(pfc, 0u) << "no PFC frame to tell apart";
}

TEST(Figures, PortCountersAgreeAcrossEveryLinkOfOneSwitch) {
  expect_links_agree("incast16_pfc.toml", {"run.duration=\"30ms\""});
}

TEST(Figures, PortCountersAgreeAcrossEveryLinkOfALeafSpineFabric) {
  expect_links_agree("alltoall_leafspine.toml", {"run.duration=\"50ms\"", "run.warmup=\"0us\""});
}

// A host's PFC storm frames are in its tx_frames as in its tx_pfc_frames (mlx5's
// tx_packets_phy counts every frame), as a host's rx_frames holds the PFC it received: its
// switch port received the rest (long-lived flows: a few frames are on the cable at the end).
TEST(Figures, AHostsStormPfcFramesAreAmongTheFramesItSent) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/storm_watchdog.toml", {"run.duration=\"6ms\""});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const RunReport r = run_file("storm_watchdog.toml", {"run.duration=\"6ms\""});
  const ordered_json r_json = results::to_json(r.summary);
  const scenario::HostNode& h0 = s.value().topology.hosts[0];
  const scenario::Link& l = s.value().topology.links[h0.link];
  const scenario::LinkEnd& sw_end = l.a.node.kind == scenario::NodeKind::kHost ? l.b : l.a;
  const auto& h = r_json["hosts"][0];
  const auto& p = r_json["switches"][sw_end.node.index]["ports"][sw_end.port];
  const uint64_t storm = h["tx_pfc_frames"].get<uint64_t>();
  ASSERT_GT(storm, 20u);
  EXPECT_EQ(sum(p["pfc_rx_frames"]), storm);
  EXPECT_NEAR(static_cast<double>(h["tx_frames"].get<uint64_t>()),
              static_cast<double>(p["rx_frames"].get<uint64_t>() + storm), 4.0);
}

// Finite flows: goodput over the time until the last one finished; a finished flow's own
// goodput over its FCT; Jain's index only for flows that ran at the same time.
TEST(Figures, FiniteFlowsReportGoodputOverTheirOwnDuration) {
  const RunReport r = run_file("incast16_nopfc.toml");
  const ordered_json r_json = results::to_json(r.summary);
  const auto& t = r_json["totals"];
  uint64_t bytes = 0, last = 0;
  for (const auto& f : r_json["flows"]) {
    bytes += f["bytes"].get<uint64_t>();
    last = std::max(last, f["start_ns"].get<uint64_t>() + f["fct_ns"].get<uint64_t>());
    EXPECT_NEAR(f["goodput_gbps"].get<double>(), 1e6 * 8 / f["fct_ns"].get<double>(), 1e-5 * f["goodput_gbps"].get<double>());  // FCT in ns
  }
  EXPECT_NEAR(t["goodput_span_ns"].get<double>(), static_cast<double>(last), 1.0);
  EXPECT_NEAR(t["goodput_gbps"].get<double>(), static_cast<double>(bytes) * 8 / static_cast<double>(last), 1e-4);
  EXPECT_GT(t["goodput_gbps"].get<double>(), 50.0);
}

TEST(Figures, JainsIndexIsLeftOutForFlowsThatNeverRanTogether) {
  const RunReport r = run_file("websearch.toml", {"run.duration=\"2ms\""});
  const ordered_json r_json = results::to_json(r.summary);
  EXPECT_TRUE(r_json["totals"]["jain_fairness"].is_null()) << r_json["totals"].dump();
  const RunReport together = run_file("default.toml", {"run.duration=\"3ms\""});
  const ordered_json together_json = results::to_json(together.summary);
  EXPECT_GT(together_json["totals"]["jain_fairness"].get<double>(), 0.9);
}

}  // namespace
}  // namespace rtb::testbed
