// The `rocetb` command end to end: plan's exit codes and one-line option errors, a written
// scenario that `rocetb run` runs, and a scenario's errors printed one per line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace rtb::plan {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : ".";
}

struct Result {
  int code;
  std::string out;  // stdout and stderr
};

Result rocetb(const std::string& args) {
  const std::string cmd = "cd " + env("ROCETB_SOURCE_ROOT") + " && " + env("ROCETB_BUILD_ROOT") + "/apps/rocetb " +
                          args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), p) != nullptr) out += buf.data();
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("rtb-plan-" + std::to_string(getpid()) + "-" + name)).string();
}

TEST(PlanCommand, DefaultScenarioFailsThePoolCheckWithExitOne) {
  const Result r = rocetb("plan --scenario scenarios/default.toml");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("FAIL  the shared pool cannot run out before a PG reaches XOFF: 18 PGs"));
  EXPECT_THAT(r.out, HasSubstr("(the planned set passes the same checks)"));
}

TEST(PlanCommand, BadOptionsAreOneLineNamingOptionAndValue) {
  Result r = rocetb("plan --rate 100");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, StartsWith("rocetb plan: --rate '100': "));
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
  r = rocetb("plan --buffer 4XB");
  EXPECT_THAT(r.out, StartsWith("rocetb plan: --buffer '4XB': "));
  r = rocetb("plan --lossless 3,9");
  EXPECT_EQ(r.out, "rocetb plan: --lossless '3,9': '9' is not a priority: expected a list such as 3,4 of 0..7\n");
  r = rocetb("plan --scenario scenarios/default.toml --ports 8");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "rocetb plan: --ports: not with --scenario, whose topology and [switch] give it: expected one of "
                   "them\n");
}

TEST(PlanCommand, WrittenScenarioRuns) {
  const std::string file = temp_path("written.toml"), out = temp_path("results");
  const Result plan = rocetb("plan --ports 4 --buffer 4MB --rate 25Gbps --write-scenario " + file);
  ASSERT_EQ(plan.code, 0) << plan.out;
  const Result run = rocetb("run " + file + " --set run.duration=500us --out " + out);
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("drops 0"));
  std::filesystem::remove(file);
  std::filesystem::remove_all(out);
}

// The tuning articles' values: three errors, three lines, each "rocetb: <file>:<line>: <key>".
TEST(PlanCommand, RunPrintsEveryScenarioErrorOnItsOwnLine) {
  const std::string file = temp_path("bad.toml");
  std::ofstream(file) << "[topology]\nkind = \"single_switch\"\nhosts = 4\n[cc.params]\n"
                         "rp_initial_alpha_value = 1024\nrp_gd = 50\nrp_rf_reset_ratio = 3\n";
  const Result r = rocetb("run " + file);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.out, HasSubstr("rocetb: " + file + ":5: cc.params.rp_initial_alpha_value: "));
  EXPECT_THAT(r.out, HasSubstr("\nrocetb: " + file + ":6: cc.params.rp_gd: "));
  EXPECT_THAT(r.out, HasSubstr("\nrocetb: " + file + ":7: cc.params.rp_rf_reset_ratio: "));
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace rtb::plan
