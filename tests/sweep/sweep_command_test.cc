// `rocetb sweep` as a user types it: a 2x2 grid in parallel children, its table against each
// point's summary.json, the same table whatever --jobs, resuming, refusals, Ctrl-C, plots.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <set>
#include <string>

#include "tests/apps/child.h"

namespace rtb::sweep {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using apps::testing::run_rocetb;
using apps::testing::Signal;

// The default incast, shortened: a point runs in a fraction of a second.
std::string tiny_scenario() {
  const std::string dir = ::testing::TempDir() + "/sweep_command_test";
  fs::create_directories(dir);
  const std::string path = dir + "/tiny.toml";
  std::ifstream in(apps::testing::source_root() + "/scenarios/default.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  s.replace(s.find("duration = \"10ms\""), 17, "duration = \"1ms\"");
  s.replace(s.find("warmup = \"2ms\""), 14, "warmup = \"200us\"");
  s.replace(s.find("senders = 8"), 11, "senders = 4");
  std::ofstream(path) << s;
  return path;
}

std::string out_dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "/sweep_command_test/" + name;
  fs::remove_all(d);
  return d;
}

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// RFC 4180 as sweep.csv writes it: quoted fields hold commas and doubled quotes.
std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read(path));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += c;
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

const std::string kMin = "switch.wred_profile.green_min_threshold=20KB,150KB";
const std::string kMax = "switch.wred_profile.green_max_threshold=400KB,1.2MB";
const std::string kMetrics = "totals.goodput_gbps,totals.pfc_frames,totals.ecn_mark_rate,totals.cnp_sent,"
                             "max(switches[*].ports[*].queue_bytes.p99),switches[sw0].ports[0].rx_frames";

std::vector<std::string> grid_args(const std::string& out, const std::string& jobs) {
  return {"sweep", tiny_scenario(), "--vary", kMin, "--vary", kMax, "--jobs", jobs, "--metrics", kMetrics, "--out", out};
}

TEST(SweepCommand, TwoByTwoGridTabulatesEachPointsSummary) {
  const std::string out = out_dir("grid");
  const auto r = run_rocetb(grid_args(out, "2"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("sweep: 4 points, 0 complete already, 4 to run on 2 jobs"));
  const auto rows = csv_rows(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"point", "switch.wred_profile.green_min_threshold",
                                               "switch.wred_profile.green_max_threshold", "repeat", "seed", "status",
                                               "totals.goodput_gbps", "totals.pfc_frames", "totals.ecn_mark_rate",
                                               "totals.cnp_sent", "max(switches[*].ports[*].queue_bytes.p99)",
                                               "switches[sw0].ports[0].rx_frames"}));
  const std::vector<std::pair<std::string, std::string>> grid{
      {"20KB", "400KB"}, {"20KB", "1.2MB"}, {"150KB", "400KB"}, {"150KB", "1.2MB"}};
  std::set<std::string> mark_rates;
  for (size_t i = 0; i < 4; ++i) {
    const auto& row = rows[i + 1];
    SCOPED_TRACE(row[0]);
    ASSERT_EQ(row.size(), 12u);
    EXPECT_EQ(row[1], grid[i].first);
    EXPECT_EQ(row[2], grid[i].second);
    EXPECT_EQ(row[3], "0");
    EXPECT_EQ(row[4], "1");  // the scenario's seed
    EXPECT_EQ(row[5], "ok");
    const auto s = nlohmann::json::parse(read(out + "/" + row[0] + "/summary.json"));
    const auto e = nlohmann::json::parse(read(out + "/" + row[0] + "/effective.json"));
    EXPECT_THAT(e.dump(), HasSubstr(grid[i].first == "20KB" ? "20000" : "150000"));
    EXPECT_EQ(row[6], s["totals"]["goodput_gbps"].dump());
    EXPECT_EQ(row[7], s["totals"]["pfc_frames"].dump());
    EXPECT_EQ(row[8], s["totals"]["ecn_mark_rate"].dump());
    EXPECT_EQ(row[9], s["totals"]["cnp_sent"].dump());
    double worst = 0;
    for (const auto& p : s["switches"][0]["ports"]) worst = std::max(worst, p["queue_bytes"]["p99"].get<double>());
    EXPECT_EQ(std::stod(row[10]), worst);
    EXPECT_EQ(row[11], s["switches"][0]["ports"][0]["rx_frames"].dump());
    mark_rates.insert(row[8]);
  }
  EXPECT_GT(mark_rates.size(), 1u) << "the thresholds changed nothing: the overrides did not reach the runs";
  // Each point is the `rocetb run` a user could type.
  const auto run = nlohmann::json::parse(read(out + "/" + rows[1][0] + "/run.json"));
  EXPECT_THAT(run["command_line"].get<std::string>(),
              HasSubstr("run " + tiny_scenario() + " --set switch.wred_profile.green_min_threshold=20KB --set "
                        "switch.wred_profile.green_max_threshold=400KB --out " + out + "/" + rows[1][0]));
  EXPECT_THAT(r.out, HasSubstr("table: " + out + "/sweep.csv"));
}

TEST(SweepCommand, SameTableByteForByteWhateverJobs) {
  const std::string one = out_dir("jobs1"), two = out_dir("jobs2");
  ASSERT_EQ(run_rocetb(grid_args(one, "1")).exit_code, 0);
  ASSERT_EQ(run_rocetb(grid_args(two, "2")).exit_code, 0);
  std::string a = read(one + "/sweep.csv"), b = read(two + "/sweep.csv");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(SweepCommand, RepeatsGetDistinctRecordedSeeds) {
  const std::string out = out_dir("repeat");
  const auto r = run_rocetb({"sweep", tiny_scenario(), "--vary", "switch.wred_profile.green_min_threshold=20KB",
                             "--repeat", "3", "--metrics", "seed,totals.goodput_gbps", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto rows = csv_rows(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 4u);
  std::set<std::string> seeds;
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(rows[i][2], std::to_string(i - 1));
    EXPECT_EQ(rows[i][3], rows[i][5]) << "the seed column is the seed the run used";
    seeds.insert(rows[i][3]);
  }
  EXPECT_EQ(seeds.size(), 3u);
  EXPECT_EQ(rows[1][3], "1");
  const auto record = nlohmann::json::parse(read(out + "/sweep.json"));
  EXPECT_EQ(record["points"][2]["seed"].dump(), rows[3][3]);
}

TEST(SweepCommand, ResumeRunsOnlyMissingAndIncompletePoints) {
  const std::string out = out_dir("resume");
  ASSERT_EQ(run_rocetb(grid_args(out, "2")).exit_code, 0);
  const std::string before = read(out + "/sweep.csv");
  const auto rows = csv_rows(out + "/sweep.csv");
  const std::string kept = out + "/" + rows[1][0], removed = out + "/" + rows[2][0], marked = out + "/" + rows[3][0];
  const auto kept_time = fs::last_write_time(kept + "/summary.json");
  fs::remove_all(removed);
  auto run = nlohmann::json::parse(read(marked + "/run.json"));
  run["complete"] = false;
  std::ofstream(marked + "/run.json") << run.dump();
  const auto r = run_rocetb(grid_args(out, "2"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("sweep: 4 points, 2 complete already, 2 to run"));
  EXPECT_EQ(fs::last_write_time(kept + "/summary.json"), kept_time) << "a complete point ran again";
  EXPECT_EQ(nlohmann::json::parse(read(marked + "/run.json"))["complete"], true);
  EXPECT_TRUE(fs::exists(removed + "/summary.json"));
  EXPECT_EQ(read(out + "/sweep.csv"), before);
}

TEST(SweepCommand, ResumingWithAnotherGridIsRefusedInOneLine) {
  const std::string out = out_dir("mismatch");
  ASSERT_EQ(run_rocetb({"sweep", tiny_scenario(), "--vary", kMin, "--metrics", "totals.pfc_frames", "--out", out})
                .exit_code, 0);
  const auto r = run_rocetb({"sweep", tiny_scenario(), "--vary", kMax, "--out", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb sweep: --out " + out + ": holds a sweep of another grid (" + tiny_scenario() +
                       " --vary " + kMin + " --repeat 1): expected the same scenario, --set, --cc, --vary and "
                       "--repeat to resume it, or another --out\n");
  // The overrides every point shares are part of the grid.
  const std::string shared = out_dir("mismatch_shared");
  ASSERT_EQ(run_rocetb({"sweep", tiny_scenario(), "--vary", "run.seed=1", "--set", "run.duration=800us", "--out",
                        shared}).exit_code, 0);
  const auto again = run_rocetb({"sweep", tiny_scenario(), "--vary", "run.seed=1", "--set", "run.duration=900us",
                                 "--out", shared});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_THAT(again.out, HasSubstr("holds a sweep of other --set or --cc (" + tiny_scenario() +
                                   " --set run.duration=800us --vary run.seed=1 --repeat 1)"));
}

// A plug-in rebuilt after a sweep ran would mix two builds' results in one table: the
// sweep records what the shared object held, and each point's run.json does too; a resume
// with other bytes in it is refused, naming the file; with the same bytes it resumes.
TEST(SweepCommand, ResumingAfterAPluginChangedIsRefusedNamingIt) {
  const std::string out = out_dir("plugin_changed");
  const std::string so = ::testing::TempDir() + "/sweep_command_test/aimd.so";
  fs::copy_file(apps::testing::build_root() + "/cc_algos/rtb_cc_aimd.so", so, fs::copy_options::overwrite_existing);
  const std::vector<std::string> args{"sweep", tiny_scenario(), "--cc", so, "--set", "run.duration=300us",
                                      "--vary", "run.seed=1,2", "--out", out};
  ASSERT_EQ(run_rocetb(args).exit_code, 0);
  const auto record = nlohmann::json::parse(read(out + "/sweep.json"));
  ASSERT_EQ(record["files"].size(), 1u) << record.dump();
  EXPECT_EQ(record["files"][0]["file"], so);
  EXPECT_EQ(record["files"][0]["bytes"], fs::file_size(so));
  const auto run = nlohmann::json::parse(read(out + "/" + record["points"][0]["folder"].get<std::string>() + "/run.json"));
  EXPECT_EQ(run["inputs"]["files"][0], record["files"][0]);
  EXPECT_EQ(run["inputs"]["scenario"]["fnv1a64"], record["scenario_fnv1a64"]);

  const auto size = fs::file_size(so);
  std::ofstream(so, std::ios::app | std::ios::binary) << '\0';  // "rebuilt": the same code, one byte more
  const auto r = run_rocetb(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("rocetb sweep: --out " + out + ": holds a sweep whose points read " + so +
                               " as it was then (" + std::to_string(size) + " bytes, fnv1a64 " +
                               record["files"][0]["fnv1a64"].get<std::string>() + "); it has changed since (" +
                               std::to_string(size + 1) + " bytes, fnv1a64 "));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  fs::resize_file(so, size);
  const auto back = run_rocetb(args);
  EXPECT_EQ(back.exit_code, 0) << back.out;
  EXPECT_THAT(back.out, HasSubstr("2 complete already, 0 to run"));
}

// --cc and --set give every point the same algorithm and settings, and --vary then varies
// that algorithm's parameters: checked in each point's own combination, not against the
// scenario's algorithm (DCQCN has no rate_mbps).
TEST(SweepCommand, SharedAlgorithmAndSettingsReachEveryPoint) {
  const std::string out = out_dir("shared");
  const auto r = run_rocetb({"sweep", tiny_scenario(), "--cc", "fixed_rate", "--set", "run.duration=800us", "--vary",
                             "cc.params.rate_mbps=5000,20000", "--metrics", "totals.goodput_gbps", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto rows = csv_rows(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 3u);
  std::vector<double> goodput;
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto run = nlohmann::json::parse(read(out + "/" + rows[i][0] + "/run.json"));
    EXPECT_THAT(run["command_line"].get<std::string>(),
                HasSubstr("--set run.duration=800us --set cc.algorithm=\"fixed_rate\" --set cc.params.rate_mbps="));
    const auto e = nlohmann::json::parse(read(out + "/" + rows[i][0] + "/effective.json"));
    EXPECT_EQ(e["run"]["duration_ns"], 800'000);
    goodput.push_back(std::stod(rows[i][5]));
  }
  // Four senders at 5 and at 20 Gb/s each, one 100 Gb/s receiver: 20 and 80 Gb/s at most.
  EXPECT_LT(goodput[0], 20.5);
  EXPECT_GT(goodput[1], 2 * goodput[0]);
  // The same with the algorithm varied: each combination is checked as a whole.
  const auto both = run_rocetb({"sweep", tiny_scenario(), "--vary", "cc.algorithm=\"fixed_rate\"", "--vary",
                                "cc.params.rate_mbps=5000", "--set", "run.duration=800us", "--out", out_dir("both")});
  EXPECT_EQ(both.exit_code, 0) << both.out;
}

TEST(SweepCommand, BadKeysValuesMetricsAndOverridesAreRefusedBeforeAnythingRuns) {
  const std::string out = out_dir("refused");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--vary", "switch.wred_profile.green_min_threshld=1KB"},
       "rocetb sweep: --vary switch.wred_profile.green_min_threshld=1KB: unknown key"},
      {{"--vary", "switch.wred_profile.green_min_threshold=20KB,4XB"},
       "rocetb sweep: --vary switch.wred_profile.green_min_threshold=4XB: "},
      {{"--vary", "run.seed=1", "--metrics", "totals.goodput"},
       "rocetb sweep: --metrics totals.goodput: not a number in summary.json (did you mean totals.goodput_gbps?): "
       "expected one of schema_version, seed, "},
      {{"--vary", "run.seed"}, "rocetb sweep: --vary run.seed: expected KEY=V1,V2,..."},
      // The overrides every point shares, named as typed.
      {{"--vary", "run.seed=1,2", "--set", "run.durration=1ms"},
       "rocetb sweep: --set run.durration=1ms: unknown key 'run.durration'"},
      {{"--vary", "run.seed=1,2", "--set", "run.duration"},
       "rocetb sweep: --set run.duration: expected KEY=VALUE, such as run.duration=20ms"},
      {{"--vary", "run.seed=1,2", "--set", "run.seed=3"},
       "rocetb sweep: --set run.seed=3: run.seed is also varied: expected it in --set or --vary, not both"},
      {{"--vary", "run.seed=1,2", "--cc", "no_such_algorithm"}, "rocetb sweep: --cc no_such_algorithm: "},
      {{"--cc", "fixed_rate", "--vary", "cc.params.rate_mbps=1,20000000"},
       "rocetb sweep: --vary cc.params.rate_mbps=20000000: "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    std::vector<std::string> args{"sweep", tiny_scenario(), "--out", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_rocetb(args);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out.rfind(c.message, 0), 0u) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_FALSE(fs::exists(out)) << "refused, yet the folder was made";
  }
}

TEST(SweepCommand, CtrlCStopsTheChildrenWritesTheTableAndTheSameCommandFinishes) {
  const std::string out = out_dir("interrupted");
  // Each point simulates long enough (seconds of wall time on a fast core) that the two
  // jobs are still running when the signal comes.
  std::vector<std::string> args{"sweep", tiny_scenario(), "--vary", "run.duration=400ms,410ms,420ms,430ms",
                                "--jobs", "2", "--metrics", "totals.goodput_gbps", "--out", out};
  const auto r = run_rocetb(args, Signal{SIGINT, std::chrono::milliseconds(1500)});
  EXPECT_EQ(r.exit_code, 130) << r.out;
  const auto rows = csv_rows(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 5u);
  size_t stopped = 0;  // the status column: point, run.duration, repeat, seed, status
  for (size_t i = 1; i < rows.size(); ++i) stopped += rows[i][4] == "incomplete" || rows[i][4] == "not run";
  EXPECT_GT(stopped, 0u) << read(out + "/sweep.csv");
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i][4] != "incomplete") continue;
    const auto run = nlohmann::json::parse(read(out + "/" + rows[i][0] + "/run.json"));
    EXPECT_EQ(run["complete"], false);  // the child wrote its results, marked
    EXPECT_TRUE(fs::exists(out + "/" + rows[i][0] + "/summary.json"));
  }
  const auto again = run_rocetb(args);
  EXPECT_EQ(again.exit_code, 0) << again.out;
  const auto finished = csv_rows(out + "/sweep.csv");
  ASSERT_EQ(finished.size(), 5u);
  for (size_t i = 1; i < finished.size(); ++i) {
    EXPECT_EQ(finished[i][4], "ok") << finished[i][0];
    EXPECT_NE(finished[i][5], "") << finished[i][0];
  }
}

TEST(SweepCommand, AFailedPointIsNamedAndTheExitCodeSaysSo) {
  const std::string out = out_dir("failed");
  // The second point's folder holds a user's file: its `rocetb run --out` refuses it.
  const auto first = run_rocetb({"sweep", tiny_scenario(), "--vary", kMin, "--metrics", "totals.pfc_frames", "--out", out});
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const auto rows = csv_rows(out + "/sweep.csv");
  fs::remove(out + "/" + rows[2][0] + "/summary.json");
  std::ofstream(out + "/" + rows[2][0] + "/notes.txt") << "mine";
  const auto r = run_rocetb({"sweep", tiny_scenario(), "--vary", kMin, "--metrics", "totals.pfc_frames", "--out", out});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto after = csv_rows(out + "/sweep.csv");
  EXPECT_EQ(after[1][4], "ok");
  EXPECT_EQ(after[2][4], "failed: exit 2");
  EXPECT_EQ(after[2].back(), "");
  EXPECT_THAT(r.out, HasSubstr("1 of 2 points did not complete"));
  EXPECT_THAT(read(out + "/logs/" + rows[2][0] + ".log"), HasSubstr("notes.txt"));
}

TEST(SweepCommand, PlotsEachMetricAgainstEachKey) {
  if (!fs::exists("/usr/bin/python3") ||
      apps::testing::run_shell("/usr/bin/python3 -c 'import matplotlib'").first != 0) {
    GTEST_SKIP() << "python3-matplotlib is not installed";
  }
  const std::string out = out_dir("plots");
  const auto r = run_rocetb(grid_args(out, "2"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("plots: " + out + "/plots (12 files)"));
  for (const char* metric : {"totals.goodput_gbps", "totals.pfc_frames"}) {
    for (const char* key : {"switch.wred_profile.green_min_threshold", "switch.wred_profile.green_max_threshold"}) {
      const std::string png = out + "/plots/" + metric + "-vs-" + key + ".png";
      ASSERT_TRUE(fs::exists(png)) << png;
      EXPECT_GT(fs::file_size(png), 10000u) << png;
      EXPECT_EQ(read(png).substr(1, 3), "PNG");
    }
  }
  // By hand on the folder, the same files again.
  fs::remove_all(out + "/plots");
  const auto again = apps::testing::run_shell("/usr/bin/python3 " + apps::testing::source_root() +
                                              "/scripts/plot_sweep.py " + out);
  EXPECT_EQ(again.first, 0) << again.second;
  EXPECT_EQ(std::distance(fs::directory_iterator(out + "/plots"), fs::directory_iterator{}), 12);
}

}  // namespace
}  // namespace rtb::sweep
