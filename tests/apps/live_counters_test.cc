// Live counters: a realtime `rocetb run` says on stderr how to read its counters, and DPDK's
// own telemetry client (dpdk-telemetry.py, from the dpdk package) reads them from the
// telemetry socket while the run goes on; asked twice, the counters have advanced.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/apps/child.h"

namespace rtb::apps::testing {
namespace {

using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Each answer of dpdk-telemetry.py is one JSON line; its first line is the socket's info.
json ask(const std::string& prefix, const std::string& commands) {
  const auto [rc, out] = run_shell("printf '" + commands + "' | dpdk-telemetry.py -f " + prefix);
  EXPECT_EQ(rc, 0) << out;
  json answers = json::object();
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '{') continue;
    const json j = json::parse(line, nullptr, false);
    if (j.is_object()) answers.update(j);
  }
  return answers;
}

TEST(LiveCounters, ARealtimeRunAnswersDpdkTelemetryWithAdvancingCounters) {
  if (run_shell("command -v dpdk-telemetry.py").first != 0) {
    GTEST_SKIP() << "dpdk-telemetry.py (package dpdk-dev) is not installed";
  }
  const std::string dir = ::testing::TempDir() + "/live_counters";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // 0.8 ms of the default incast at dilation 10000: 8 s of wall time to ask in.
  const std::string run = build_root() + "/apps/rocetb run " + source_root() +
                          "/scenarios/default.toml --no-plots --out " + dir + "/out --set 'run.clock=\"realtime\"' "
                          "--set 'realtime.hugepages=\"never\"' --set realtime.dilation=10000 --set run.duration=0.8ms "
                          "--set run.warmup=0ms --set 'realtime.links=\"ring\"'";
  ASSERT_EQ(run_shell("(" + run + " > " + dir + "/stdout 2> " + dir + "/stderr &)").first, 0);
  std::string prefix;
  for (int i = 0; i < 200 && prefix.empty(); ++i) {
    const std::string err = read_file(dir + "/stderr");
    const size_t at = err.find("live counters: dpdk-telemetry.py -f ");
    if (at != std::string::npos) {
      const size_t from = at + std::string("live counters: dpdk-telemetry.py -f ").size();
      prefix = err.substr(from, err.find(',', from) - from);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ASSERT_FALSE(prefix.empty()) << read_file(dir + "/stderr");

  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const json a = ask(prefix, "/rocetb/run\\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  const json b = ask(prefix, "/rocetb/run\\n/rocetb/flows\\n/rocetb/queues\\n/rocetb/ports\\n");
  const json bad = ask(prefix, "/rocetb/flows,x\\n");  // answered under the command's name
  ASSERT_TRUE(a.contains("/rocetb/run")) << a.dump();
  ASSERT_TRUE(b.contains("/rocetb/run")) << b.dump();
  const json& ra = a["/rocetb/run"];
  const json& rb = b["/rocetb/run"];
  EXPECT_EQ(rb["duration_ns"], 800'000);
  EXPECT_GT(rb["scenario_time_ns"].get<uint64_t>(), ra["scenario_time_ns"].get<uint64_t>());
  EXPECT_GT(rb["bytes_received"].get<uint64_t>(), ra["bytes_received"].get<uint64_t>());
  EXPECT_GT(rb["flow_samples"].get<uint64_t>(), ra["flow_samples"].get<uint64_t>());
  EXPECT_EQ(rb["flows"], 8);
  // Per flow, per queue and per port, as the summary names them.
  EXPECT_EQ(b["/rocetb/flows"]["flows"], 8);
  EXPECT_TRUE(b["/rocetb/flows"].contains("flow7")) << b["/rocetb/flows"].dump();
  EXPECT_TRUE(b["/rocetb/queues"].contains("Ethernet32_q3")) << b["/rocetb/queues"].dump();
  EXPECT_GT(b["/rocetb/queues"]["Ethernet32_q3"]["ecn_marked"].get<uint64_t>(), 0u);
  EXPECT_TRUE(b["/rocetb/ports"].contains("Ethernet32")) << b["/rocetb/ports"].dump();
  EXPECT_EQ(bad["/rocetb/flows"]["error"], "expected /rocetb/flows or /rocetb/flows,FIRST (a flow number)");
  const json no_switch = ask(prefix, "/rocetb/ports,9\\n");  // the run has one switch
  EXPECT_EQ(no_switch["/rocetb/ports"]["error"], "expected /rocetb/ports or /rocetb/ports,SWITCH (a switch number)");

  for (int i = 0; i < 600 && !std::filesystem::exists(dir + "/out/summary.json"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/summary.json")) << read_file(dir + "/stderr");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the run's EAL cleanup
}

}  // namespace
}  // namespace rtb::apps::testing
