// `--out` of `rocetb run` and `rocetb analyze` as a user meets it: checked before any work
// (an unwritable or occupied folder refused in one line naming --out, the folder and why),
// replaced only with --force and then without an earlier run's stale files, and a run
// killed before its end leaves a run.json that says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/apps/child.h"

namespace rtb::apps {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_rocetb;
using testing::Signal;

std::string fresh(const std::string& name) {
  const std::string d = ::testing::TempDir() + "/out_option_test/" + name;
  fs::remove_all(d);
  fs::create_directories(fs::path(d).parent_path());
  return d;
}

std::string read(const std::string& path) {
  std::ostringstream s;
  s << std::ifstream(path).rdbuf();
  return s.str();
}

const std::vector<std::string> kShort = {"--set", "run.duration=3ms", "--set", "run.warmup=1ms"};

std::vector<std::string> run_args(const std::string& out, std::vector<std::string> more = {}) {
  std::vector<std::string> a = {"run", "scenarios/default.toml", "--out", out};
  a.insert(a.end(), kShort.begin(), kShort.end());
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(OutOption, AFolderThatCannotBeWrittenIsRefusedBeforeTheRun) {
  const std::string file = fresh("a-file");
  std::ofstream(file) << "x";
  const auto r = run_rocetb(run_args(file + "/results"));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("rocetb: --out " + file + "/results: cannot create the folder: Not a directory\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("simulated"))) << "refused only after the run";
}

TEST(OutOption, ANonEmptyFolderIsRefusedWithoutForce) {
  const std::string d = fresh("occupied");
  fs::create_directories(d);
  std::ofstream(d + "/warnings.txt") << "stale\n";
  const auto r = run_rocetb(run_args(d));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.out, "rocetb: --out " + d + ": is not empty (1 entry, such as 'warnings.txt'): expected a new or "
                   "empty folder, or --force to replace the results there\n");
  EXPECT_EQ(read(d + "/warnings.txt"), "stale\n");
}

TEST(OutOption, ForceReplacesAnEarlierRunWithoutItsStaleFiles) {
  const std::string d = fresh("forced");
  fs::create_directories(d);
  std::ofstream(d + "/warnings.txt") << "stale\n";
  std::ofstream(d + "/summary.json") << "{}";
  std::ofstream(d + "/capture-h9.pcapng") << "old";
  const auto r = run_rocetb(run_args(d, {"--force"}));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(read(d + "/warnings.txt"), Not(HasSubstr("stale")));
  EXPECT_FALSE(fs::exists(d + "/capture-h9.pcapng"));
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(d + "/run.json"))["complete"], true);
  for (const auto& e : fs::directory_iterator(d)) {
    EXPECT_NE(e.path().filename().string().front(), '.') << "temporary left: " << e.path();
  }
}

TEST(OutOption, ForceNeverDeletesAUsersFiles) {
  const std::string d = fresh("users");
  fs::create_directories(d);
  std::ofstream(d + "/notes.txt") << "mine";
  const auto r = run_rocetb(run_args(d, {"--force"}));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("rocetb: --out " + d + " --force: holds 'notes.txt', which is not a results file"));
  EXPECT_EQ(read(d + "/notes.txt"), "mine");
}

// Killed with no chance to write (SIGKILL): the folder says its run did not finish.
TEST(OutOption, AKilledRunLeavesARunJsonMarkedIncomplete) {
  const std::string d = fresh("killed");
  const auto r = run_rocetb({"run", "scenarios/default.toml", "--set", "run.duration=2s", "--out", d},
                            Signal{SIGKILL, std::chrono::milliseconds(1500)}, std::chrono::seconds(60));
  ASSERT_EQ(r.term_signal, SIGKILL) << r.out;
  std::ifstream f(d + "/run.json");
  ASSERT_TRUE(f) << "no run.json: the folder cannot say it is incomplete";
  const auto run = nlohmann::json::parse(f);
  EXPECT_EQ(run["complete"], false);
  EXPECT_THAT(run["results"].get<std::string>(), HasSubstr("the run had not finished"));
}

// analyze: the same rules for --out (a capture written by `rocetb frames`).
TEST(OutOption, AnalyzeRefusesAnOccupiedOutAndReplacesItWithForce) {
  const std::string cap = fresh("frames.pcapng"), d = fresh("analyze");
  ASSERT_EQ(run_rocetb({"frames", "--out", cap}).exit_code, 0);
  fs::create_directories(d);
  std::ofstream(d + "/qps.csv") << "stale";
  auto r = run_rocetb({"analyze", cap, "--out", d});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("rocetb analyze: --out " + d + ": is not empty (1 entry, such as 'qps.csv')"));
  EXPECT_EQ(read(d + "/qps.csv"), "stale");
  r = run_rocetb({"analyze", cap, "--out", d, "--force"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(read(d + "/qps.csv"), Not(HasSubstr("stale")));
  EXPECT_TRUE(fs::exists(d + "/summary.json"));
}

TEST(OutOption, AnalyzeRefusesAnUnwritableOutBeforeReading) {
  const std::string file = fresh("b-file");
  std::ofstream(file) << "x";
  const auto r = run_rocetb({"analyze", file, "--out", file + "/a"});  // not a capture: never read
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.out, "rocetb analyze: --out " + file + "/a: cannot create the folder: Not a directory\n");
}

}  // namespace
}  // namespace rtb::apps
