// `rocetb plan` end to end: its exit codes and one-line option errors, a written
// scenario that `rocetb run` runs, and a scenario's errors printed one per line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/apps/child.h"

namespace rtb::apps {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::ChildResult;
using testing::run_rocetb;

std::string temp_path(const std::string& name) {
  std::filesystem::create_directories(::testing::TempDir() + "/plan_command_test");
  return ::testing::TempDir() + "/plan_command_test/" + name;
}

TEST(PlanCommand, DefaultScenarioFailsThePoolCheckWithExitOne) {
  const ChildResult r = run_rocetb({"plan", "--scenario", "scenarios/default.toml"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("FAIL  the shared pool cannot run out before a PG reaches XOFF: 18 PGs"));
  EXPECT_THAT(r.out, HasSubstr("(the planned set passes the same checks)"));
}

TEST(PlanCommand, BadOptionsAreOneLineNamingOptionAndValue) {
  ChildResult r = run_rocetb({"plan", "--rate", "100"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, StartsWith("rocetb plan: --rate '100': "));
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
  r = run_rocetb({"plan", "--buffer", "4XB"});
  EXPECT_THAT(r.out, StartsWith("rocetb plan: --buffer '4XB': "));
  r = run_rocetb({"plan", "--lossless", "3,9"});
  EXPECT_EQ(r.out, "rocetb plan: --lossless '3,9': '9' is not a priority: expected a list such as 3,4 of 0..7\n");
  r = run_rocetb({"plan", "--scenario", "scenarios/default.toml", "--ports", "8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb plan: --ports: not with --scenario, whose topology and [switch] give it: expected one of "
                   "them\n");
}

TEST(PlanCommand, WrittenScenarioRuns) {
  const std::string file = temp_path("written.toml"), out = temp_path("results");
  const ChildResult plan =
      run_rocetb({"plan", "--ports", "4", "--buffer", "4MB", "--rate", "25Gbps", "--write-scenario", file});
  ASSERT_EQ(plan.exit_code, 0) << plan.out;
  const ChildResult run = run_rocetb({"run", file, "--set", "run.duration=500us", "--out", out});
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("drops 0"));
  std::filesystem::remove(file);
  std::filesystem::remove_all(out);
}

// The tuning articles' values: three errors, three lines, each "rocetb: <file>:<line>: <key>".
TEST(PlanCommand, RunPrintsEveryScenarioErrorOnItsOwnLine) {
  const std::string file = temp_path("bad.toml");
  std::ofstream(file) << "[topology]\nkind = \"single_switch\"\nhosts = 4\n[cc.params]\n"
                         "rp_initial_alpha_value = 1024\nrp_gd = 50\nrp_rf_reset_ratio = 3\n";
  const ChildResult r = run_rocetb({"run", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("rocetb: " + file + ":5: cc.params.rp_initial_alpha_value: "));
  EXPECT_THAT(r.out, HasSubstr("\nrocetb: " + file + ":6: cc.params.rp_gd: "));
  EXPECT_THAT(r.out, HasSubstr("\nrocetb: " + file + ":7: cc.params.rp_rf_reset_ratio: "));
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace rtb::apps
