// `rocetb params` as a user runs it: import a config_db.json and a cc_params script (or a
// job's NCCL settings) into a scenario that `rocetb run` runs (frames of the imported DSCP
// in the queue the imported map gives it), the findings on stderr one per line, convert's
// output, and bad input: one line, exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/apps/child.h"
#include "tests/params/data_path.h"

namespace rtb::params {
namespace {

using apps::testing::ChildResult;
using apps::testing::run_rocetb;
using testing::data;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string temp_path(const std::string& name) {
  std::filesystem::create_directories(::testing::TempDir() + "/params_command_test");
  return ::testing::TempDir() + "/params_command_test/" + name;
}

size_t lines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(ParamsImport, ConfigDbAndScriptImportedThenRun) {
  const std::string file = temp_path("imported.toml"), out = temp_path("results");
  std::filesystem::remove_all(out);
  const ChildResult imp =
      run_rocetb({"params", "import", data("config_db.json"), data("guide_cc_params.sh"), "--out", file});
  ASSERT_EQ(imp.exit_code, 0) << imp.out;
  EXPECT_THAT(imp.out, HasSubstr(data("guide_cc_params.sh") + ":8: rp_gd = 50: is invalid"));
  EXPECT_THAT(imp.out, HasSubstr("green_min_threshold = 40000: ambiguous in unit"));
  EXPECT_THAT(imp.out, HasSubstr("; scenario: " + file + " (rocetb run " + file + ")\n"));
  const ChildResult run = run_rocetb({"run", file, "--out", out});
  ASSERT_EQ(run.exit_code, 0) << run.out;
  std::ifstream in(out + "/summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  // The imported map sends DSCP 24 (the traffic's) to TC 3: data frames go through queue 3
  // and through no other queue.
  uint64_t queue3 = 0, elsewhere = 0;
  for (const auto& sw : summary["switches"]) {
    for (const auto& port : sw["ports"]) {
      for (const auto& q : port["queues"]) {
        (q["queue"].get<int>() == 3 ? queue3 : elsewhere) += q["data_frames"].get<uint64_t>();
      }
    }
  }
  EXPECT_GT(queue3, 0u);
  EXPECT_EQ(elsewhere, 0u);
  std::filesystem::remove(file);
  std::filesystem::remove_all(out);
}

// Data frames per switch queue number, summed over every switch and port.
std::map<int, uint64_t> data_frames_by_queue(const std::string& results) {
  std::ifstream in(results + "/summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  std::map<int, uint64_t> by_queue;
  for (const auto& sw : summary["switches"]) {
    for (const auto& port : sw["ports"]) {
      for (const auto& q : port["queues"]) by_queue[q["queue"].get<int>()] += q["data_frames"].get<uint64_t>();
    }
  }
  return by_queue;
}

// The switch's config_db with a job's NCCL settings: NCCL_IB_TC=106 (DSCP 26) lands in the
// lossless queue 3; a job left at NCCL_IB_TC=0 lands in queue 0, without PFC, and drops.
TEST(ParamsImport, NcclTrafficClassDecidesTheQueueTheJobLandsIn) {
  const std::string lossless = temp_path("nccl.toml"), lossy = temp_path("nccl_tc0.toml");
  const std::string job = temp_path("job.sh"), out = temp_path("nccl_results");
  std::ofstream(job) << "export NCCL_IB_TC=0\n";
  for (const auto& [source, file] : {std::pair{data("nccl.conf"), lossless}, std::pair{job, lossy}}) {
    const ChildResult imp = run_rocetb({"params", "import", data("config_db.json"), source, "--out", file});
    ASSERT_EQ(imp.exit_code, 0) << imp.out;
  }
  std::filesystem::remove_all(out);
  ASSERT_EQ(run_rocetb({"run", lossless, "--out", out}).exit_code, 0);
  std::map<int, uint64_t> q = data_frames_by_queue(out);
  EXPECT_GT(q[3], 0u);
  EXPECT_EQ(q[0], 0u);
  std::filesystem::remove_all(out);
  const ChildResult run = run_rocetb({"run", lossy, "--out", out});
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("priority 0 is not in switch.pfc_enable: its flows are lossy"));
  q = data_frames_by_queue(out);
  EXPECT_GT(q[0], 0u);
  EXPECT_EQ(q[3], 0u);
  std::filesystem::remove_all(out);
}

TEST(ParamsImport, FindingsAreOneLineEachWithFileAndLine) {
  const ChildResult r = run_rocetb({"params", "import", data("guide_cc_params.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::istringstream s(r.out);
  int findings = 0;
  for (std::string l; std::getline(s, l);) {
    if (l.starts_with(data("guide_cc_params.sh") + ":")) ++findings;
  }
  EXPECT_EQ(findings, 5);
  EXPECT_THAT(r.out, HasSubstr("rp_hai_rate = 15  # " + data("guide_cc_params.sh") + ":10: rp_hai_rate = 15\n"));
}

TEST(ParamsImport, BadInputIsOneLineWithExitTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"params", "import", data("hpcc/topology.txt")}, "cannot tell what kind of source it is"},
      {{"params", "import", data("no-such-file")}, "cannot read it"},
      {{"params", "import", data("mlnx_qos.txt"), "--format", "cisco"}, "--format 'cisco': expected one of"},
      {{"params", "import", data("mlnx_qos.txt"), "--format", "config_db"}, "not valid JSON"},
      {{"params", "import", data("mlnx_qos.txt"), "--format", "nccl_env"}, "no NCCL_ settings in it"},
      {{"params", "convert", "--from", "linux", "--to", "mlx5"}, "--from 'linux': expected paper, mlx5 or hpcc-ns3"},
      {{"params", "convert", "--from", "paper", "--to", "mlx5", "g"},
       "'g': expected KEY=VALUE, or one file of them (there is no file of that name)"},
      {{"params", "convert", "--from", "paper", "--to", "mlx5", "g=x"}, "argument 1: g = x: expected a non-negative"},
  };
  for (const auto& [args, message] : cases) {
    const ChildResult r = run_rocetb(args);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_THAT(r.out, StartsWith("rocetb params "));
    EXPECT_THAT(r.out, HasSubstr(message));
    EXPECT_EQ(lines(r.out), 1u) << r.out;
  }
}

TEST(ParamsImport, LiveWithoutRdmaDeviceSaysSo) {
  const ChildResult r = run_rocetb({"params", "import", "live"});
  // This machine has no RDMA device; on one that has, the import runs.
  if (r.exit_code == 0) GTEST_SKIP() << "this machine has an RDMA device";
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("live: this machine has no RDMA device: "));
}

TEST(ParamsConvert, PrintsEachKeyWithItsFormulaAndSource) {
  const ChildResult r =
      run_rocetb({"params", "convert", "--from", "paper", "--to", "mlx5", "g=0.00390625", "B_bytes=10MB"});
  EXPECT_EQ(r.exit_code, 2);  // 10MB is not a number of bytes here
  const ChildResult ok =
      run_rocetb({"params", "convert", "--from", "hpcc-ns3", "--to", "mlx5", data("hpcc/config.txt")});
  ASSERT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_THAT(ok.out, HasSubstr("rp_dce_tcp_g = 1020\n    from EWMA_GAIN = 0.00390625: g = EWMA_GAIN = 0.00390625; "
                                "rp_dce_tcp_g = 1024 x (1 - g)"));
  EXPECT_THAT(ok.out,
              HasSubstr("np_min_time_between_cnps = 0\n    from implied by hpcc-ns3: the simulator has no CNP pacing"));
  EXPECT_THAT(ok.out, HasSubstr("not DCQCN parameters of hpcc-ns3, not converted: " + data("hpcc/config.txt") +
                                ":1: ENABLE_QCN"));
}

}  // namespace
}  // namespace rtb::params
