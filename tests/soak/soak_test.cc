// The soak test (suite `soak`): the default scenario in realtime at a time dilation for
// about a minute of wall time, as `rocetb run` runs it on this machine (--no-huge, every
// cable through an rte_ring pair, one lcore). At the end every mbuf pool is back at the
// free count it started with (no leak), the run is valid or says why, and the process'
// resident memory does not grow in the second half of the run: the time series stream to
// disk (lib/testbed/series_recorder.h), nothing else accumulates.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/apps/child.h"

namespace rtb::apps {
namespace {

using testing::run_rocetb;

// 10 ms of scenario time at 1/5500 of the clock: 55 s of wall time, and a sample every
// 500 ns of scenario time (20,000 samples of 8 flows and 9 queues).
constexpr int kDilation = 5500;
// Resident memory may grow this much from the middle of the run to its end: buffers
// settling, the ports' occupancy counts meeting new values. Keeping every sample would
// grow it by about 18 MB over that half.
constexpr uint64_t kGrowthKib = 6 * 1024;

TEST(Soak, TheDefaultScenarioInRealtimeForAMinuteLeaksNoMbufAndNoMemory) {
  const std::string out = ::testing::TempDir() + "/soak_test/default";
  std::filesystem::remove_all(out);
  const auto r = run_rocetb({"run", "scenarios/default.toml", "--out", out, "--set", "run.clock=\"realtime\"", "--set",
                             "realtime.hugepages=\"never\"", "--set", "realtime.links=\"ring\"", "--set",
                             "realtime.dilation=" + std::to_string(kDilation), "--set",
                             "run.sample_interval=\"500ns\""},
                            std::nullopt, std::chrono::seconds(70), std::chrono::milliseconds(250));
  ASSERT_EQ(r.term_signal, 0) << "did not end within 70 s:\n" << r.out;
  ASSERT_EQ(r.exit_code, 0) << r.out;  // an mbuf missing at the end fails the run itself
  std::ifstream rf(out + "/run.json"), sf(out + "/summary.json");
  ASSERT_TRUE(rf && sf) << r.out;
  const auto run = nlohmann::json::parse(rf), summary = nlohmann::json::parse(sf);

  // Every pool back at its baseline.
  const auto& pools = run["pools"];
  EXPECT_EQ(pools["data_free_at_start"], pools["data_mbufs"]) << pools.dump();
  EXPECT_EQ(pools["data_free_at_end"], pools["data_free_at_start"]) << pools.dump();
  EXPECT_EQ(pools["control_free_at_start"], pools["control_mbufs"]) << pools.dump();
  EXPECT_EQ(pools["control_free_at_end"], pools["control_free_at_start"]) << pools.dump();
  EXPECT_GT(pools["data_peak_in_use"].get<uint64_t>(), 0u) << "the run moved no frames";

  // Valid, or saying why not.
  EXPECT_EQ(run["complete"], true);
  if (!summary["valid"].get<bool>()) {
    ASSERT_TRUE(summary["invalid_reason"].is_string());
    EXPECT_FALSE(summary["invalid_reason"].get<std::string>().empty());
    std::cout << "the soak run is invalid on this machine: " << summary["invalid_reason"].get<std::string>() << "\n";
  }
  EXPECT_GT(run["series"]["flow_rows"].get<uint64_t>(), 8u * 10'000) << run["series"].dump();

  // Resident memory: from the middle of the run to its end.
  ASSERT_GT(r.rss_kib.size(), 100u);
  const double wall = r.wall.count();
  uint64_t middle = 0, highest = 0;
  for (const auto& [at, kib] : r.rss_kib) {
    if (at < wall / 2) continue;
    if (middle == 0) middle = kib;
    highest = std::max(highest, kib);
  }
  ASSERT_GT(middle, 0u);
  std::cout << "resident memory: " << middle / 1024 << " MiB at " << wall / 2 << " s, at most " << highest / 1024
            << " MiB after; peak " << r.max_rss_kib / 1024 << " MiB\n";
  EXPECT_LE(highest, middle + kGrowthKib) << "resident memory grew in the second half of the run";
}

}  // namespace
}  // namespace rtb::apps
