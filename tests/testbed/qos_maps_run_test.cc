// [switch] QoS maps end to end: the queue a DSCP lands in, and PFC on the TC a map gives it.
#include <gtest/gtest.h>

#include <string>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "results/summary_json.h"
#include "testbed/run.h"
#include "tests/testbed/test_util.h"

namespace rtb::testbed {
namespace {

using testing::source_root;

// Four fixed-rate senders into h4 at 4:1, DSCP 24 (not in SONiC's default map).
const char* kIncastDscp24 = R"(
[run]
duration = "1ms"
[topology]
kind = "single_switch"
hosts = 5
rate = "100Gbps"
[cc]
algorithm = "fixed_rate"
[[traffic]]
pattern = "incast"
receiver = "h4"
senders = 4
bytes = "500KB"
dscp = 24
)";

RunReport run_text(const std::string& text) {
  auto s = scenario::load_scenario_text(text, source_root() + "/scenarios/test.toml", {});
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = run_virtual(s.value(), registry, "qos_maps_run_test");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

// Packets of egress queue `q` at the port towards the receiver (0 if the queue is unused).
uint64_t queue_packets(const RunReport& r, int q) {
  const nlohmann::ordered_json r_json = results::to_json(r.summary);
  for (const auto& e : r_json["switches"][0]["ports"][4]["queues"]) {
    if (e["queue"] == q) return e["packets"].get<uint64_t>();
  }
  return 0;
}

// PFC frames the switch sent for `priority`, over its ports.
uint64_t switch_pfc_tx(const RunReport& r, int priority) {
  const nlohmann::ordered_json r_json = results::to_json(r.summary);
  uint64_t n = 0;
  for (const auto& p : r_json["switches"][0]["ports"]) n += p["pfc_tx_frames"][priority].get<uint64_t>();
  return n;
}

TEST(QosMapsRun, ADscpMappedToALosslessTcQueuesThereAndIsPaused) {
  const RunReport r = run_text(std::string(kIncastDscp24) + R"(
[switch]
pfc_enable = [3]
[switch.dscp_to_tc_map]
"24" = 3
[switch.pg_lossless]
static_th = "100KB"
)");
  const nlohmann::ordered_json r_json = results::to_json(r.summary);
  EXPECT_GT(queue_packets(r, 3), 0u);
  EXPECT_EQ(queue_packets(r, 0), 0u);
  EXPECT_GT(switch_pfc_tx(r, 3), 0u);
  EXPECT_EQ(r_json["switches"][0]["ports"][4]["drops"], 0);
}

TEST(QosMapsRun, WithTheDefaultMapTheSameDscpLandsInLossyQueue0) {
  const RunReport r = run_text(std::string(kIncastDscp24) + R"(
[switch.pg_lossless]
static_th = "100KB"
)");
  EXPECT_GT(queue_packets(r, 0), 0u);
  EXPECT_EQ(queue_packets(r, 3), 0u);
  EXPECT_EQ(switch_pfc_tx(r, 3), 0u);
}

}  // namespace
}  // namespace rtb::testbed
