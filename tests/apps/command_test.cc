// The rocetb command as a user runs it: --version, the commit in run.json, and default
// results folders that never collide.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/apps/child.h"

namespace {

using rtb::apps::testing::run_shell;
std::string rocetb() { return rtb::apps::testing::build_root() + "/apps/rocetb"; }

// What the build stamped in: `git describe` of the source tree (as it is now: build after
// committing), or "unknown" outside git.
std::string expected_commit() {
  auto [rc, out] = run_shell("git -C " + rtb::apps::testing::source_root() + " describe --always --dirty");
  if (rc != 0) return "unknown";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// A short incast in its own folder, which is the working directory of the runs.
std::string scratch() {
  const auto dir = std::filesystem::temp_directory_path() / ("rtb-command-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tiny.toml") << R"(
name = "tiny"
[run]
duration = "100us"
warmup = "20us"
[topology]
kind = "single_switch"
hosts = 3
rate = "100Gbps"
[[traffic]]
pattern = "incast"
receiver = "h2"
senders = 2
)";
  return dir.string();
}

TEST(Command, VersionNamesTheReleaseTheCommitAndDpdk) {
  const auto [rc, out] = run_shell(rocetb() + " --version");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("rocetb 0."), std::string::npos) << out;
  EXPECT_NE(out.find("(commit " + expected_commit() + ", DPDK "), std::string::npos) << out;
}

TEST(Command, RunJsonHasTheCommit) {
  const std::string dir = scratch();
  const auto [rc, out] = run_shell("cd " + dir + " && " + rocetb() + " run tiny.toml --out r");
  ASSERT_EQ(rc, 0) << out;
  std::ifstream f(dir + "/r/run.json");
  const nlohmann::json run = nlohmann::json::parse(f);
  EXPECT_EQ(run["commit"], expected_commit());
  std::filesystem::remove_all(dir);
}

TEST(Command, RunsStartedTogetherWriteSeparateFoldersNamedAfterTheirOverrides) {
  const std::string dir = scratch();
  const std::string run = rocetb() + " run tiny.toml --seed 3 --set run.sample_interval=\\\"10us\\\" > /dev/null";
  const auto [rc, out] = run_shell("cd " + dir + " && (" + run + " & " + run + " & " + run + " & wait) && ls results");
  ASSERT_EQ(rc, 0) << out;
  std::set<std::string> folders;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/results")) {
    folders.insert(e.path().filename().string());
    EXPECT_TRUE(std::filesystem::exists(e.path() / "summary.json")) << e.path();
    EXPECT_NE(e.path().filename().string().find("-sample_interval=10us,seed=3"), std::string::npos) << e.path();
  }
  EXPECT_EQ(folders.size(), 3u) << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
