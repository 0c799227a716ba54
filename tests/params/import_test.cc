// rocetb params import on a sample of each kind of source: the keys each value becomes,
// with its file and line; the findings (the tuning guides' invalid values with their
// arithmetic); the written scenario loading with the scenario loader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "params/dcqcn_check.h"
#include "params/scenario_text.h"
#include "params/sources.h"
#include "scenario/load.h"
#include "tests/params/data_path.h"

namespace rtb::params {
namespace {

using testing::data;
using ::testing::HasSubstr;
using ::testing::Not;

Imported import_one(const std::string& source) {
  Imported in;
  auto kind = detect(source);
  EXPECT_TRUE(kind) << kind.error().message;
  if (!kind) return in;
  Status st = import_source(*kind, source, in);
  EXPECT_TRUE(st) << st.message();
  check_cc_params(in);
  return in;
}

std::string value(const Imported& in, const std::string& table, const std::string& name) {
  const Key* k = in.get(table, name);
  return k ? k->value : "<absent>";
}

// The finding about `key`, formatted; "" when there is none.
std::string finding(const Imported& in, const std::string& key) {
  for (const Finding& f : in.findings()) {
    if (f.key == key) return format(f);
  }
  return "";
}

scenario::Scenario loads(const Imported& in, const std::string& source) {
  const std::string text = scenario_text(in, {source});
  auto s = scenario::load_scenario_text(text, "imported.toml");
  EXPECT_TRUE(s) << s.error().message << "\n" << text;
  return s ? *s : scenario::Scenario{};
}

TEST(Detect, EachSampleIsRecognisedByItsContent) {
  EXPECT_EQ(*detect(data("guide_cc_params.sh")), Kind::kEchoScript);
  EXPECT_EQ(*detect(data("cc_params_tree")), Kind::kCcParamsDir);
  EXPECT_EQ(*detect(data("mlxconfig_q.txt")), Kind::kMlxconfig);
  EXPECT_EQ(*detect(data("mlnx_qos.txt")), Kind::kMlnxQos);
  EXPECT_EQ(*detect(data("hpcc/config.txt")), Kind::kHpccConfig);
  EXPECT_EQ(*detect(data("config_db.json")), Kind::kConfigDb);
  EXPECT_EQ(*detect(data("sonic_cli.txt")), Kind::kSonicCommands);
  EXPECT_EQ(*detect(data("nccl.conf")), Kind::kNcclEnv);
  EXPECT_EQ(*detect(data("nccl_job.sh")), Kind::kNcclEnv);
  EXPECT_EQ(*detect("live:mlx5_0"), Kind::kLive);
  auto unknown = detect(data("hpcc/topology.txt"));
  ASSERT_FALSE(unknown);
  EXPECT_THAT(unknown.error().message, HasSubstr("cannot tell what kind of source it is"));
}

// The tuning guide's script: every seed value found at its own line with its arithmetic;
// the invalid ones not written, the legal-but-disabling one written, the scenario loads.
TEST(ImportEchoScript, GuideValuesAreFoundEachAtItsLine) {
  const std::string f = data("guide_cc_params.sh");
  const Imported in = import_one(f);
  EXPECT_THAT(finding(in, "rp_initial_alpha_value"),
              HasSubstr(f + ":7: rp_initial_alpha_value = 1024: is invalid: expected a whole number in 1..1023"));
  EXPECT_THAT(finding(in, "rp_gd"), HasSubstr(f + ":8: rp_gd = 50: is invalid"));
  EXPECT_THAT(finding(in, "rp_gd"), HasSubstr("1023/2^50 = 9.09e-13 of R_C, so every cut is zero"));
  EXPECT_THAT(finding(in, "rp_dce_tcp_g"),
              HasSubstr(f + ":9: rp_dce_tcp_g = 4: legal, written, but it is the Q10 weight of the OLD alpha"));
  EXPECT_THAT(finding(in, "rp_dce_tcp_g"), HasSubstr("g = (1024 - 4)/1024 = 0.9961: alpha jumps to ~1"));
  EXPECT_THAT(finding(in, "rp_rf_reset_ratio"),
              HasSubstr(f + ":11: rp_rf_reset_ratio = 1: unknown parameter 'rp_rf_reset_ratio': not an mlx5 DCQCN "
                            "parameter"));
  EXPECT_THAT(finding(in, "/sys/class/net/eth2/ecn/roce_np/enable/3"), HasSubstr(":13: "));
  EXPECT_EQ(value(in, "cc.params", "rp_gd"), "<absent>");
  EXPECT_EQ(value(in, "cc.params", "rp_initial_alpha_value"), "<absent>");
  EXPECT_EQ(value(in, "cc.params", "rp_dce_tcp_g"), "4");
  EXPECT_EQ(value(in, "cc.params", "rp_hai_rate"), "15");
  EXPECT_EQ(in.get("cc.params", "rp_hai_rate")->at.line, 10u);
  EXPECT_EQ(in.findings().size(), 5u);
  const scenario::Scenario s = loads(in, f);
  EXPECT_EQ(std::get<int64_t>(s.cc.params.at("rp_dce_tcp_g")), 4);
}

TEST(ImportCcParamsTree, FirmwareDefaultsImportAndLoad) {
  const Imported in = import_one(data("cc_params_tree"));
  EXPECT_EQ(value(in, "cc.params", "rp_dce_tcp_g"), "1019");
  EXPECT_EQ(value(in, "cc.params", "np_cnp_dscp"), "48");
  EXPECT_THAT(in.get("cc.params", "rp_time_reset")->at.file, HasSubstr("0000:03:00.0/cc_params/rp_time_reset"));
  // The RTT-probe entries every NIC has are named, not written.
  EXPECT_THAT(finding(in, "rtt_resp_dscp"), HasSubstr("RTT-probe responses, not part of DCQCN"));
  EXPECT_EQ(in.findings().size(), 2u);  // rtt_resp_dscp, rtt_resp_dscp_valid
  loads(in, data("cc_params_tree"));
}

class LiveTree : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("ROCETB_SYSFS_ROOT", data("live/sys").c_str(), 1);
    setenv("ROCETB_DEBUGFS_ROOT", data("live/debug").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("ROCETB_SYSFS_ROOT");
    unsetenv("ROCETB_DEBUGFS_ROOT");
  }
};

TEST_F(LiveTree, ReadsCcParamsRateAndCountersOfTheFakeNic) {
  const Imported in = import_one("live");
  EXPECT_EQ(value(in, "cc.params", "rp_ai_rate"), "20");  // 0x14, as kstrtou32 reads it
  EXPECT_EQ(value(in, "topology", "rate"), "\"100Gbps\"");
  EXPECT_THAT(
      finding(in, "rp_min_dec_fac"),
      HasSubstr("rp_min_dec_fac:1: rp_min_dec_fac = 100: legal, written, but it bounds every cut to (100 - 100)% = 0"));
  ASSERT_FALSE(in.notes().empty());
  EXPECT_THAT(in.notes().back(), HasSubstr("mlx5_0 port 1 hw_counters"));
  EXPECT_THAT(in.notes().back(), HasSubstr("np_cnp_sent = 1520"));
  loads(in, "live");
}

TEST_F(LiveTree, NoDeviceIsOneClearSentence) {
  setenv("ROCETB_SYSFS_ROOT", data("no-such-sysfs").c_str(), 1);
  Imported in;
  Status st = import_live("live", in);
  ASSERT_FALSE(st);
  EXPECT_THAT(st.message(), HasSubstr("live: this machine has no RDMA device: "));
  setenv("ROCETB_SYSFS_ROOT", data("live/sys").c_str(), 1);
  st = import_live("live:mlx5_9", in);
  EXPECT_THAT(st.message(), HasSubstr("no RDMA device 'mlx5_9'"));
}

TEST(ImportMlxconfig, Port1ValuesWithPort2AndPrioMaskFindings) {
  const std::string f = data("mlxconfig_q.txt");
  const Imported in = import_one(f);
  EXPECT_EQ(value(in, "cc.params", "np_min_time_between_cnps"), "2");
  EXPECT_EQ(value(in, "cc.params", "rp_clamp_tgt_rate_ati"), "1");
  EXPECT_EQ(in.get("cc.params", "rp_time_reset")->at.line, 17u);
  EXPECT_THAT(finding(in, "RPG_TIME_RESET_P2"), HasSubstr(f + ":34: RPG_TIME_RESET_P2 = 600: differs from port 1"));
  EXPECT_THAT(finding(in, "ROCE_CC_PRIO_MASK_P1"), HasSubstr(":13: ROCE_CC_PRIO_MASK_P1 = 8: DCQCN runs only"));
  EXPECT_EQ(finding(in, "ROCE_CC_PRIO_MASK_P2"), "");
  loads(in, f);
}

TEST(ImportMlnxQos, TrustPfcAndDscpMap) {
  const Imported in = import_one(data("mlnx_qos.txt"));
  EXPECT_EQ(value(in, "switch", "trust"), "\"dscp\"");
  EXPECT_EQ(value(in, "switch", "pfc_enable"), "[3]");
  EXPECT_EQ(in.get("switch", "pfc_enable")->at.line, 16u);
  EXPECT_THAT(value(in, "switch", "dscp_to_tc_map"), HasSubstr("\"24\" = 3, \"25\" = 3"));
  EXPECT_EQ(value(in, "topology", "cable_length_m"), "7");
  const scenario::Scenario s = loads(in, data("mlnx_qos.txt"));
  EXPECT_EQ(s.topology.switches.front().config.maps.dscp_to_tc[26], 3);
  EXPECT_EQ(s.topology.switches.front().config.maps.dscp_to_tc[8], 1);
}

TEST(ImportHpccConfig, DcqcnKnobsEcnAndBufferAtTheTopologysRate) {
  const std::string f = data("hpcc/config.txt");
  const Imported in = import_one(f);
  EXPECT_EQ(value(in, "cc.params", "rp_dce_tcp_g"), "1020");  // 1024 x (1 - 1/256)
  EXPECT_EQ(value(in, "cc.params", "rp_ai_rate"), "20");
  EXPECT_EQ(value(in, "cc.params", "rp_min_rate"), "1000");
  EXPECT_EQ(value(in, "cc.params", "np_min_time_between_cnps"), "0");                 // per-ACK CNP flag
  EXPECT_EQ(value(in, "switch.wred_profile", "green_min_threshold"), "\"400000B\"");  // 400 KB of 1000 B at 100G
  EXPECT_EQ(value(in, "switch.wred_profile", "green_drop_probability"), "20");
  EXPECT_EQ(value(in, "switch.buffer_pool", "size"), "\"32MiB\"");
  EXPECT_EQ(value(in, "switch.pg_lossless", "dynamic_th"), "-3");
  EXPECT_EQ(value(in, "topology", "hosts"), "4");
  EXPECT_EQ(value(in, "run", "duration"), "\"2000us\"");
  EXPECT_THAT(finding(in, "CC_MODE"), HasSubstr("approximate: "));
  const scenario::Scenario s = loads(in, f);
  EXPECT_EQ(s.topology.hosts.size(), 4u);
}

// The simulator's own run.py output (../shared/peers/hpcc-ns3), when the shared folder is here.
TEST(ImportHpccConfig, ThePeersIncastConfigImportsAndLoads) {
  const char* shared = std::getenv("ROCETB_SHARED");
  const std::string f =
      std::string(shared ? shared : "../shared") + "/peers/hpcc-ns3/scenarios/b_incast8_100g/config.txt";
  if (!std::filesystem::exists(f))
    GTEST_SKIP() << "no " << f << " (the shared folder ../shared/peers/hpcc-ns3 is missing)";
  const Imported in = import_one(f);
  EXPECT_EQ(value(in, "cc.params", "rp_ai_rate"), "20");                               // RATE_AI 20Mb/s
  EXPECT_EQ(value(in, "cc.params", "rp_hai_rate"), "200");                             // RATE_HAI 200Mb/s
  EXPECT_EQ(value(in, "switch.wred_profile", "green_max_threshold"), "\"1600000B\"");  // KMAX 1600 KB at 100G
  EXPECT_EQ(value(in, "topology", "hosts"), "9");
  const scenario::Scenario s = loads(in, f);
  EXPECT_EQ(s.flows.size(), 8u);
}

TEST(ImportConfigDb, BuffersWredWatchdogMapsAndTheAmbiguousThresholds) {
  const std::string f = data("config_db.json");
  const Imported in = import_one(f);
  EXPECT_EQ(value(in, "switch.buffer_pool", "size"), "\"32000000B\"");
  EXPECT_EQ(value(in, "switch.pg_lossless", "xoff"), "\"58368B\"");
  EXPECT_EQ(value(in, "switch.pg_lossless", "dynamic_th"), "-3");
  EXPECT_EQ(value(in, "switch.egress_lossy", "dynamic_th"), "7");
  EXPECT_EQ(value(in, "switch", "pfc_enable"), "[3, 4]");
  EXPECT_EQ(value(in, "switch", "wred_queues"), "[3, 4]");
  EXPECT_EQ(value(in, "switch.pfcwd", "detection_time"), "\"200ms\"");
  EXPECT_EQ(value(in, "topology", "rate"), "\"100000Mbps\"");
  EXPECT_EQ(value(in, "switch", "tc_to_queue_map"), "<absent>");  // identity: the default
  EXPECT_THAT(value(in, "switch", "dscp_to_tc_map"), HasSubstr("\"24\" = 3"));
  EXPECT_THAT(finding(in, "WRED_PROFILE|AZURE_LOSSLESS.green_min_threshold"),
              HasSubstr("= 40000: ambiguous in unit: read as KB it is 40 MB (more than the buffer), as cells of 256 B "
                        "10.24 MB, as bytes 40 KB, on a 32 MB buffer"));
  const Finding* yellow = nullptr;
  for (const Finding& x : in.findings()) {
    if (x.key == "WRED_PROFILE|AZURE_LOSSLESS.yellow_min_threshold") yellow = &x;
  }
  ASSERT_NE(yellow, nullptr);
  EXPECT_EQ(yellow->at.line, in.get("switch.wred_profile", "green_min_threshold")->at.line + 3);
  const scenario::Scenario s = loads(in, f);
  const auto& sw = s.topology.switches.front().config;
  EXPECT_EQ(sw.maps.dscp_to_tc[24], 3);
  EXPECT_EQ(sw.maps.dscp_to_tc[26], 3);
  EXPECT_EQ(sw.maps.dscp_to_tc[3], 0);  // a map given replaces SONiC's default as a whole
  EXPECT_EQ(s.flows.front().dscp, 24);
}

// PFC_PRIORITY_TO_QUEUE_MAP: the switch model pauses queue n on priority n, so the identity
// (SONiC's default) imports silently, and an entry that sends a priority's pause to
// another queue, or a map a port names that the file lacks, is a finding at its line.
TEST(ImportConfigDb, APfcPriorityToQueueMapOtherThanTheIdentityIsAFinding) {
  std::ifstream in_file(data("config_db.json"));
  nlohmann::json db = nlohmann::json::parse(in_file);
  db["PFC_PRIORITY_TO_QUEUE_MAP"] = {{"AZURE", {{"3", "3"}, {"4", "4"}}}};
  db["PORT_QOS_MAP"]["Ethernet0"]["pfc_to_queue_map"] = "AZURE";
  const std::string identity = ::testing::TempDir() + "/config_db_pfc_identity.json";
  std::ofstream(identity) << db.dump(4);
  const Imported same = import_one(identity);
  for (const Finding& f : same.findings()) {
    EXPECT_THAT(f.key, Not(HasSubstr("PFC_PRIORITY_TO_QUEUE_MAP"))) << format(f);
    EXPECT_THAT(f.key, Not(HasSubstr("pfc_to_queue_map"))) << format(f);
  }

  db["PFC_PRIORITY_TO_QUEUE_MAP"]["AZURE"]["4"] = "1";
  db["PORT_QOS_MAP"]["Ethernet4"]["pfc_to_queue_map"] = "[PFC_PRIORITY_TO_QUEUE_MAP|OTHER]";
  const std::string other = ::testing::TempDir() + "/config_db_pfc_other.json";
  std::ofstream(other) << db.dump(4);
  const Imported in = import_one(other);
  EXPECT_EQ(finding(in, "PFC_PRIORITY_TO_QUEUE_MAP|AZURE.3"), "");
  const std::string moved = finding(in, "PFC_PRIORITY_TO_QUEUE_MAP|AZURE.4");
  EXPECT_THAT(moved, HasSubstr("PFC_PRIORITY_TO_QUEUE_MAP|AZURE.4 = 1: a PFC frame for priority 4 pauses queue 1 "
                               "there, but rocetb's switch pauses queue 4 (the map is the identity in the model): "
                               "not imported"));
  const std::string dump = db.dump(4);
  const auto line_of = [&dump](const std::string& needle, size_t from) {
    const size_t at = dump.find(needle, from);
    return std::count(dump.begin(), dump.begin() + static_cast<long>(at), '\n') + 1;
  };
  const size_t table = dump.find("\"PFC_PRIORITY_TO_QUEUE_MAP\"");
  EXPECT_THAT(moved, HasSubstr(other + ":" + std::to_string(line_of("\"4\"", table)) + ": "));
  EXPECT_THAT(finding(in, "PORT_QOS_MAP|Ethernet4.pfc_to_queue_map"),
              HasSubstr("= OTHER: no PFC_PRIORITY_TO_QUEUE_MAP named OTHER in the file: rocetb pauses queue n on "
                        "priority n"));
  loads(in, other);

  // A map that is not an object of entries is a finding at the map, not at a port.
  db["PFC_PRIORITY_TO_QUEUE_MAP"]["OTHER"] = "3,4";
  const std::string flat = ::testing::TempDir() + "/config_db_pfc_flat.json";
  std::ofstream(flat) << db.dump(4);
  const Imported bad = import_one(flat);
  EXPECT_THAT(finding(bad, "PFC_PRIORITY_TO_QUEUE_MAP|OTHER"),
              HasSubstr("PFC_PRIORITY_TO_QUEUE_MAP|OTHER = 3,4: expected an object of priority: queue entries: "
                        "not imported"));
  EXPECT_EQ(finding(bad, "PORT_QOS_MAP|Ethernet4.pfc_to_queue_map"), "");
}

TEST(ImportSonicCommands, EcnBufferPfcAndWatchdog) {
  const std::string f = data("sonic_cli.txt");
  const Imported in = import_one(f);
  EXPECT_EQ(value(in, "switch.wred_profile", "green_min_threshold"), "\"40000B\"");
  EXPECT_EQ(value(in, "switch.pg_lossless", "xoff"), "\"50000B\"");
  EXPECT_EQ(value(in, "switch.pg_lossless", "dynamic_th"), "-2");
  EXPECT_EQ(value(in, "switch", "pfc_enable"), "[3, 4]");
  EXPECT_EQ(value(in, "switch", "wred_queues"), "[3]");
  EXPECT_EQ(value(in, "switch.pfcwd", "restoration_time"), "\"400ms\"");
  EXPECT_THAT(finding(in, "config qos reload"), HasSubstr(f + ":2: "));
  EXPECT_THAT(finding(in, "ecnconfig -q 4"), HasSubstr(":6: ecnconfig -q 4 = off: legal but it turns ECN marking off"));
  EXPECT_THAT(finding(in, "ecnconfig -ymin"), HasSubstr(":4: "));
  EXPECT_THAT(finding(in, "config interface"), HasSubstr(":12: "));
  loads(in, f);
}

// nccl.conf: the traffic class, ACK timeout and retry count become [host] keys, each at
// its line; a ToS byte with ECN bits is imported as its DSCP and said; every other NCCL_
// setting is a finding; the incast takes NCCL's class, on the TC the default map gives it.
TEST(ImportNcclEnv, TrafficClassTimeoutAndRetriesBecomeHostKeys) {
  const std::string f = data("nccl.conf");
  const Imported in = import_one(f);
  EXPECT_EQ(value(in, "host", "nccl_ib_tc"), "104");
  EXPECT_EQ(in.get("host", "nccl_ib_tc")->at.line, 6u);
  EXPECT_EQ(finding(in, "NCCL_IB_TC"),
            f + ":6: NCCL_IB_TC = 106: sets the ECN bits of the ToS byte (106 & 3 = 2), which the NIC sets "
                "itself: written as nccl_ib_tc = 104 (DSCP 26)");
  EXPECT_EQ(value(in, "host", "local_ack_timeout"), "22");
  EXPECT_EQ(value(in, "host", "retry_cnt"), "7");  // "7", unquoted
  EXPECT_EQ(in.get("host", "retry_cnt")->at.line, 10u);
  EXPECT_THAT(finding(in, "NCCL_IB_SL"), HasSubstr(f + ":8: NCCL_IB_SL = 3: the InfiniBand service level"));
  EXPECT_THAT(finding(in, "NCCL_IB_FIFO_TC"), HasSubstr(":7: NCCL_IB_FIFO_TC = 0xb8: the traffic class of NCCL's"));
  EXPECT_THAT(finding(in, "NCCL_SOCKET_IFNAME"), HasSubstr(":3: NCCL_SOCKET_IFNAME = =eth0: not a setting"));
  EXPECT_THAT(finding(in, "NCCL_IB_HCA"), HasSubstr(":4: NCCL_IB_HCA = mlx5_0,mlx5_1: not a setting"));
  for (const char* other : {"NCCL_DEBUG", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_IB_QPS_PER_CONNECTION"}) {
    EXPECT_THAT(finding(in, other), HasSubstr("not imported")) << other;
  }
  EXPECT_EQ(in.findings().size(), 8u);
  const scenario::Scenario s = loads(in, f);
  ASSERT_FALSE(s.flows.empty());
  EXPECT_EQ(s.flows[0].dscp, 26);
  EXPECT_EQ(s.flows[0].priority, 3);
  EXPECT_EQ(s.topology.hosts.front().requester.local_ack_timeout, 22);
}

// A job script: export lines and mpirun -x settings; the later TC replaces the earlier,
// and values NCCL would take but rocetb cannot are findings, never written.
TEST(ImportNcclEnv, JobScriptExportsAndMpirunSettings) {
  const std::string f = data("nccl_job.sh");
  const Imported in = import_one(f);
  EXPECT_EQ(value(in, "host", "nccl_ib_tc"), "104");  // 0x68, as strtoll(..., 0) reads it
  EXPECT_EQ(in.get("host", "nccl_ib_tc")->at.line, 5u);
  EXPECT_THAT(finding(in, "NCCL_IB_TC"), HasSubstr(f + ":5: NCCL_IB_TC = 0x68: host.nccl_ib_tc was also set to 96 by "));
  EXPECT_THAT(finding(in, "NCCL_IB_TIMEOUT"), HasSubstr(f + ":4: NCCL_IB_TIMEOUT = 0: 0 is an infinite ACK timeout"));
  EXPECT_EQ(value(in, "host", "local_ack_timeout"), "<absent>");
  EXPECT_EQ(finding(in, "NCCL_IB_RETRY_CNT"),
            f + ":5: NCCL_IB_RETRY_CNT = 9: is invalid: expected a whole number in 0..7 (retries after the first "
                "timeout): not imported");
  EXPECT_EQ(value(in, "host", "retry_cnt"), "<absent>");
  // srun's --export list: NCCL_IB_HCA's value is itself a comma list
  EXPECT_THAT(finding(in, "NCCL_IB_HCA"), HasSubstr(":6: NCCL_IB_HCA = =mlx5_0:1,mlx5_1:1: not a setting"));
  EXPECT_THAT(finding(in, "NCCL_IB_SL"), HasSubstr(":6: NCCL_IB_SL = 3: "));
  loads(in, f);
}

// With a NIC's DSCP map imported too, the incast's priority is the TC that map gives
// NCCL's DSCP (here not a lossless one: the loader says so).
TEST(ImportNcclEnv, TheIncastTakesThePriorityTheImportedMapGivesItsDscp) {
  const std::string nccl = ::testing::TempDir() + "/nccl_dscp8.conf";
  std::ofstream(nccl) << "NCCL_IB_TC=32\n";
  Imported in;
  ASSERT_TRUE(import_source(Kind::kMlnxQos, data("mlnx_qos.txt"), in));
  ASSERT_TRUE(import_source(*detect(nccl), nccl, in));
  const std::string text = scenario_text(in, {data("mlnx_qos.txt"), nccl});
  EXPECT_THAT(text, HasSubstr("with NCCL's traffic class (host.nccl_ib_tc: DSCP 8) on priority 1"));
  EXPECT_THAT(text, Not(HasSubstr("\ndscp = ")));
  const scenario::Scenario s = loads(in, nccl);
  ASSERT_FALSE(s.flows.empty());
  EXPECT_EQ(s.flows[0].dscp, 8);
  EXPECT_EQ(s.flows[0].priority, 1);
}

// NCCL reads a leading 0 as octal (strtoll base 0): the value it takes is written and said.
TEST(ImportNcclEnv, ALeadingZeroIsOctalAsNcclReadsIt) {
  const std::string f = ::testing::TempDir() + "/nccl_octal.conf";
  std::ofstream(f) << "NCCL_IB_TC=0150\nNCCL_IB_TIMEOUT=0777\n";
  Imported in;
  ASSERT_TRUE(import_source(*detect(f), f, in));
  EXPECT_EQ(value(in, "host", "nccl_ib_tc"), "104");
  EXPECT_EQ(finding(in, "NCCL_IB_TC"),
            f + ":1: NCCL_IB_TC = 0150: read (0150 is octal, as NCCL reads it: 104), as NCCL does; written as 104");
  EXPECT_EQ(finding(in, "NCCL_IB_TIMEOUT"),
            f + ":2: NCCL_IB_TIMEOUT = 0777: is invalid (0777 is octal, as NCCL reads it: 511): expected a whole "
                "number in 1..31 (4.096 us x 2^value): not imported");
}

TEST(ImportNcclEnv, AFileWithoutNcclSettingsIsOneSentence) {
  Imported in;
  const Status st = import_source(Kind::kNcclEnv, data("mlnx_qos.txt"), in);
  ASSERT_FALSE(st);
  EXPECT_THAT(st.message(), HasSubstr("mlnx_qos.txt: no NCCL_ settings in it: expected lines such as 'NCCL_IB_TC=106'"));
}

// Two sources: a later line setting a key again is said, with both places.
TEST(ImportSeveral, LaterSourceReplacesAndSaysSo) {
  Imported in;
  ASSERT_TRUE(import_source(Kind::kCcParamsDir, data("cc_params_tree"), in));
  ASSERT_TRUE(import_source(Kind::kEchoScript, data("guide_cc_params.sh"), in));
  EXPECT_THAT(finding(in, "rp_hai_rate"), HasSubstr("cc.params.rp_hai_rate was also set to 50 by "));
  EXPECT_EQ(value(in, "cc.params", "rp_hai_rate"), "15");
}

}  // namespace
}  // namespace rtb::params
