// A run's results folder is complete or says it is not (results_folder.h, results.h): a
// pending run.json from before the run, replaced last; a write that fails half-way leaves
// the pending run.json, never a folder that looks complete.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testbed/results.h"
#include "testbed/results_folder.h"

namespace rtb::testbed {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("rtb-results-folder-" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  return d.string();
}

nlohmann::json run_json(const std::string& dir) { return nlohmann::json::parse(std::ifstream(dir + "/run.json")); }

RunReport finished_report() {
  RunReport r;
  r.summary.complete = true;
  r.run = {{"complete", true}, {"wall_seconds", 1.0}};
  return r;
}

TEST(ResultsFolder, APreparedFolderSaysItsRunHasNotFinished) {
  const std::string d = fresh("pending");
  ASSERT_TRUE(prepare_results_folder({"--out", d, false}, "rocetb run x.toml"));
  const auto run = run_json(d);
  EXPECT_EQ(run["complete"], false);
  EXPECT_THAT(run["results"].get<std::string>(), HasSubstr("the run had not finished"));
  EXPECT_EQ(run["command_line"], "rocetb run x.toml");
}

TEST(ResultsFolder, AFinishedRunReplacesThePendingRunJsonLast) {
  const std::string d = fresh("finished");
  ASSERT_TRUE(prepare_results_folder({"--out", d, false}, "rocetb run x.toml"));
  scenario::Scenario s;
  s.warnings = {"a warning"};
  ASSERT_TRUE(write_results(d, s, finished_report()));
  EXPECT_EQ(run_json(d)["complete"], true);
  for (const auto& e : fs::directory_iterator(d)) {
    EXPECT_NE(e.path().filename().string().front(), '.') << "temporary left: " << e.path();
  }
}

TEST(ResultsFolder, AWriteThatFailsHalfWayLeavesTheFolderMarkedIncomplete) {
  const std::string d = fresh("half");
  ASSERT_TRUE(prepare_results_folder({"--out", d, false}, "rocetb run x.toml"));
  fs::create_directories(d + "/queues.csv/in-the-way");  // the fourth file cannot be renamed into place
  scenario::Scenario s;
  const Status st = write_results(d, s, finished_report());
  ASSERT_FALSE(st);
  EXPECT_THAT(st.message(), HasSubstr("queues.csv"));
  EXPECT_EQ(run_json(d)["complete"], false) << "run.json must be written last";
  EXPECT_FALSE(fs::exists(d + "/.queues.csv.tmp"));
}

TEST(ResultsFolder, ForceRemovesAnEarlierRunsStaleWarnings) {
  const std::string d = fresh("stale");
  fs::create_directories(d);
  std::ofstream(d + "/warnings.txt") << "from an earlier run\n";
  std::ofstream(d + "/capture-h0.pcapng") << "old";
  ASSERT_TRUE(prepare_results_folder({"--out", d, true}, "rocetb run x.toml"));
  ASSERT_TRUE(write_results(d, scenario::Scenario{}, finished_report()));
  EXPECT_FALSE(fs::exists(d + "/warnings.txt")) << "a run without warnings has no warnings.txt";
  EXPECT_FALSE(fs::exists(d + "/capture-h0.pcapng"));
}

TEST(ResultsFolder, ARunRefusedBeforeItHadResultsLeavesNothing) {
  const std::string d = fresh("refused");
  auto created = prepare_results_folder({"--out", d, false}, "rocetb run x.toml");
  ASSERT_TRUE(created && created.value());
  abandon_results_folder(d, created.value());
  EXPECT_FALSE(fs::exists(d));
  fs::create_directories(d);  // given empty: kept, empty
  created = prepare_results_folder({"--out", d, false}, "rocetb run x.toml");
  ASSERT_TRUE(created && !created.value());
  abandon_results_folder(d, created.value());
  EXPECT_TRUE(fs::is_directory(d) && fs::is_empty(d));
}

}  // namespace
}  // namespace rtb::testbed
