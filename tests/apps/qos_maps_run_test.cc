// Configurable QoS maps end to end: `rocetb run` in virtual time with a non-default DSCP map
// (DSCP 24..31 -> TC 3), TC_TO_QUEUE_MAP, one port's own maps, NCCL_IB_TC as the hosts'
// traffic class and np_cnp_dscp on the CNPs, read back from summary.json's per-queue
// counters: each frame lands in the queue its DSCP maps to. Also: several errors of one
// scenario, each on its own line at its own key, from the command.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/apps/child.h"

namespace rtb::apps {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::run_rocetb;

std::string dir() {
  const std::string d = ::testing::TempDir() + "/qos_maps_run_test";
  std::filesystem::create_directories(d);
  return d;
}

std::string write_scenario(const std::string& name, const std::string& text) {
  const std::string path = dir() + "/" + name + ".toml";
  std::ofstream(path) << text;
  return path;
}

// Runs the scenario; summary.json's packets per (port name, queue) of switch sw0.
std::map<std::pair<std::string, int>, uint64_t> queue_packets(const std::string& name, const std::string& text) {
  const std::string out = dir() + "/out-" + name;
  std::filesystem::remove_all(out);
  const auto r = run_rocetb({"run", write_scenario(name, text), "--no-plots", "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::ifstream f(out + "/summary.json");
  const auto j = nlohmann::json::parse(f);
  std::map<std::pair<std::string, int>, uint64_t> packets;
  for (const auto& port : j["switches"][0]["ports"]) {
    for (const auto& q : port["queues"]) {
      packets[{port["name"].get<std::string>(), q["queue"].get<int>()}] = q["packets"].get<uint64_t>();
    }
  }
  return packets;
}

// Two senders (h0 on Ethernet0, h1 on Ethernet4) to h3 (Ethernet12): a 2:1 incast that
// fills the queue past WRED's minimum, so the receiver sends CNPs back to both senders.
constexpr const char* kIncast = R"(
[run]
duration = "300us"
warmup = "0us"
[topology]
kind = "single_switch"
hosts = 4
[[traffic]]
pattern = "incast"
receiver = "h3"
senders = 2
bytes = "2MB"
)";

uint64_t at(const std::map<std::pair<std::string, int>, uint64_t>& m, const std::string& port, int q) {
  const auto it = m.find({port, q});
  return it == m.end() ? 0 : it->second;
}

TEST(QosMapsRun, DscpMapAndTcToQueueMapPutDataAndCnpsInTheirQueues) {
  const std::string text = std::string(kIncast) + R"(dscp = 28
[switch.dscp_to_tc_map]
"24" = 3
"25" = 3
"26" = 3
"27" = 3
"28" = 3
"29" = 3
"30" = 3
"31" = 3
"40" = 6
[switch.tc_to_queue_map]
"0" = 0
"3" = 3
"6" = 1
[cc.params]
np_cnp_dscp = 40
)";
  const auto m = queue_packets("dscp-map", text);
  EXPECT_GT(at(m, "Ethernet12", 3), 1000u) << "data, DSCP 28 -> TC 3 -> queue 3";
  EXPECT_GT(at(m, "Ethernet0", 1), 0u) << "CNPs, DSCP 40 -> TC 6 -> queue 1";
  EXPECT_GT(at(m, "Ethernet4", 1), 0u);
  EXPECT_EQ(at(m, "Ethernet0", 6), 0u) << "nothing left in queue 6";
  EXPECT_EQ(at(m, "Ethernet12", 0), 0u) << "DSCP 28 is not unmapped (TC 0)";
}

TEST(QosMapsRun, WithoutTheMapsTheSameTrafficLandsInQueueZeroAndSix) {
  // The control: SONiC's default map sends DSCP 28 to TC 0 and the CNPs' DSCP 48 to TC 6.
  const auto m = queue_packets("default-map", std::string(kIncast) + "dscp = 28\n");
  EXPECT_GT(at(m, "Ethernet12", 0), 1000u);
  EXPECT_EQ(at(m, "Ethernet12", 3), 0u);
  EXPECT_EQ(at(m, "Ethernet0", 1), 0u);
}

TEST(QosMapsRun, APortsOwnMapsTakeEffectOnThatPortOnly) {
  // h1's frames enter on Ethernet4, whose own map sends DSCP 26 to TC 4; h0's (Ethernet0)
  // follow the switch's map to TC 3. Both are lossless (pfc_enable 3,4).
  const std::string text = std::string(kIncast) + R"(
[switch.port_qos."Ethernet4"]
dscp_to_tc_map = { "26" = 4, "48" = 6 }
)";
  const auto m = queue_packets("port-qos", text);
  EXPECT_GT(at(m, "Ethernet12", 3), 500u) << "h0's data";
  EXPECT_GT(at(m, "Ethernet12", 4), 500u) << "h1's data";
  EXPECT_GT(at(m, "Ethernet12", 3) + at(m, "Ethernet12", 4), 2000u);
}

TEST(QosMapsRun, NcclIbTc104IsDscp26OnTheWire) {
  // Only DSCP 26 reaches TC 4 (queue 4): the senders' frames land there only if the ToS
  // byte 104 became DSCP 26 in their IP headers.
  const std::string text = std::string(kIncast) + R"(
[host]
nccl_ib_tc = 104
[switch.dscp_to_tc_map]
"26" = 4
"48" = 6
)";
  const auto m = queue_packets("nccl-ib-tc", text);
  EXPECT_GT(at(m, "Ethernet12", 4), 1000u);
  EXPECT_EQ(at(m, "Ethernet12", 0), 0u);
  EXPECT_EQ(at(m, "Ethernet12", 3), 0u);
}

// Several [cc.params] errors: one line each, each at its own key's line; exit code 2.
TEST(QosMapsRun, EveryErrorOfAScenarioOnItsOwnLineFromTheCommand) {
  const std::string path = write_scenario("bad-params", R"([topology]
kind = "single_switch"
hosts = 2
[cc]
algorithm = "dcqcn"
[cc.params]
rp_initial_alpha_value = 1024
rp_gd = 50
rp_dce_tcp_g = 4000
rp_rf_reset_ratio = 3
)");
  const auto r = run_rocetb({"run", path, "--out", dir() + "/out-bad"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  std::vector<std::string> lines;
  for (size_t from = 0, nl; (nl = r.out.find('\n', from)) != std::string::npos; from = nl + 1) {
    if (r.out.find(path, from) == from || r.out.find("rocetb: " + path, from) == from)
      lines.push_back(r.out.substr(from, nl - from));
  }
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_THAT(lines[0], HasSubstr(path + ":7: cc.params.rp_initial_alpha_value: "));
  EXPECT_THAT(lines[1], HasSubstr(path + ":8: cc.params.rp_gd: "));
  EXPECT_THAT(lines[2], HasSubstr(path + ":9: cc.params.rp_dce_tcp_g: "));
  EXPECT_THAT(lines[3], HasSubstr(path + ":10: cc.params.rp_rf_reset_ratio: "));
}

}  // namespace
}  // namespace rtb::apps
