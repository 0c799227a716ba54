// Plots, report.html and `rocetb compare`, run as a user runs them (lib/plots, scripts/plot.py,
// scripts/compare.py): the files a run writes and whether they hold pictures, --no-plots, the
// one-line reasons when python3 or matplotlib is missing, the report rendered by headless
// Chromium, and compare's table and configuration diff on two runs that differ in Kmin.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/apps/child.h"

namespace {

namespace fs = std::filesystem;
using rtb::apps::testing::run_shell;
using nlohmann::json;

std::string rocetb() { return rtb::apps::testing::build_root() + "/apps/rocetb"; }
std::string python_tool(const std::string& path) {
  return "/usr/bin/python3 " + rtb::apps::testing::source_root() + "/" + path;
}

// The default incast (PFC and ECN both act in its first milliseconds), 1.5 ms of it.
std::string short_run(const std::string& out, const std::string& extra = "") {
  return rocetb() + " run " + rtb::apps::testing::source_root() +
         "/scenarios/default.toml --set run.duration=\\\"1500us\\\" --set run.warmup=\\\"300us\\\" --out " + out +
         " " + extra;
}

json read_json(const fs::path& p) {
  std::ifstream f(p);
  return json::parse(f);
}

json image_stats(const fs::path& png, double from_row = 0) {
  const auto [rc, out] = run_shell(python_tool("tests/plots/image_stats.py") + " " + png.string() + " --from-row " +
                                   std::to_string(from_row));
  EXPECT_EQ(rc, 0) << out;
  return json::parse(out, nullptr, false);
}

class Plots : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rtb-plots-test-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  fs::path dir_;
};

const std::vector<std::string> kPlots = {"plot-flow-rates.png", "plot-cc-state.png", "plot-queues.png",
                                         "plot-pfc.png", "plot-cnp-marks.png"};

TEST_F(Plots, ARunWritesPlotsThatHoldPicturesAndSaysWhere) {
  const fs::path out = dir_ / "run";
  const auto [rc, text] = run_shell(short_run(out.string()));
  ASSERT_EQ(rc, 0) << text;
  EXPECT_NE(text.find("report: " + (out / "report.html").string()), std::string::npos) << text;
  const json run = read_json(out / "run.json");
  ASSERT_TRUE(run.contains("plots")) << run.dump();
  EXPECT_FALSE(run["plots"].contains("skipped")) << run["plots"].dump();
  EXPECT_LT(run["plots"]["seconds"].get<double>(), 30.0);
  for (const std::string& name : kPlots) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(fs::exists(out / name));
    EXPECT_GT(fs::file_size(out / name), 20'000u);
    const json s = image_stats(out / name);
    ASSERT_TRUE(s["png"].get<bool>());
    EXPECT_GE(s["width"].get<int>(), 800);
    EXPECT_GT(s["colors"].get<int>(), 50);         // lines, text, legends: not one flat colour
    EXPECT_GT(s["nonwhite"].get<double>(), 0.01);  // something drawn on the white
    EXPECT_GT(s["tab10"]["blue"].get<int>() + s["tab10"]["orange"].get<int>() + s["tab10"]["red"].get<int>(), 200);
    EXPECT_NE(std::find(run["plots"]["files"].begin(), run["plots"]["files"].end(), name),
              run["plots"]["files"].end());
  }
  // The PFC timeline's source: queues.csv counts the PFC frames each port sent, and the
  // default incast's switch pauses its senders.
  std::ifstream csv(out / "queues.csv");
  std::string header, line, last_time;
  std::getline(csv, header);
  EXPECT_TRUE(header.ends_with(",paused,pfc_tx_frames")) << header;
  uint64_t last_sum = 0;
  while (std::getline(csv, line)) {
    const std::string time = line.substr(0, line.find(','));
    if (time != last_time) last_sum = 0;
    last_time = time;
    last_sum += std::stoull(line.substr(line.rfind(',') + 1));
  }
  EXPECT_GT(last_sum, 0u);
  EXPECT_LE(last_sum, read_json(out / "summary.json")["totals"]["pfc_frames_total"].get<uint64_t>());
  // Long-lived flows: no completion times, and the run says so instead of drawing nothing.
  EXPECT_FALSE(fs::exists(out / "plot-fct.png"));
  EXPECT_NE(run["plots"]["notes"].dump().find("completion times"), std::string::npos);
  // The report embeds every plot and loads nothing from elsewhere.
  std::stringstream html;
  html << std::ifstream(out / "report.html").rdbuf();
  size_t images = 0;
  for (size_t at = html.str().find("src='data:image/png;base64,"); at != std::string::npos;
       at = html.str().find("src='data:image/png;base64,", at + 1)) {
    ++images;
  }
  EXPECT_EQ(images, kPlots.size());
  EXPECT_EQ(html.str().find("http://"), std::string::npos);
  EXPECT_EQ(html.str().find("https://"), std::string::npos);
  // The scenario in words, from effective.json.
  EXPECT_NE(html.str().find("9 hosts, 1 switch, 9 links at 100 Gb/s"), std::string::npos);
  EXPECT_NE(html.str().find("Congestion control: dcqcn"), std::string::npos);
  EXPECT_NE(html.str().find("ECN Kmin 150 KB, Kmax 1.2 MB, Pmax 5 %"), std::string::npos);
}

TEST_F(Plots, NoPlotsWritesNoneAndPlotPyDrawsThemLater) {
  const fs::path out = dir_ / "run";
  const auto [rc, text] = run_shell(short_run(out.string(), "--no-plots"));
  ASSERT_EQ(rc, 0) << text;
  for (const auto& e : fs::directory_iterator(out)) {
    EXPECT_FALSE(e.path().filename().string().starts_with("plot-")) << e.path();
  }
  EXPECT_FALSE(fs::exists(out / "report.html"));
  EXPECT_EQ(read_json(out / "run.json")["plots"]["skipped"], "--no-plots");
  const auto [rc2, text2] = run_shell(python_tool("scripts/plot.py") + " " + out.string());
  ASSERT_EQ(rc2, 0) << text2;
  for (const std::string& name : kPlots) EXPECT_TRUE(fs::exists(out / name)) << name;
  EXPECT_TRUE(fs::exists(out / "report.html"));
  // The other test suites' switch: the same as --no-plots for every run.
  const fs::path env_out = dir_ / "env";
  const auto [rc3, text3] = run_shell("ROCETB_NO_PLOTS=1 " + short_run(env_out.string()));
  ASSERT_EQ(rc3, 0) << text3;
  EXPECT_FALSE(fs::exists(env_out / "report.html"));
  EXPECT_EQ(read_json(env_out / "run.json")["plots"]["skipped"], "ROCETB_NO_PLOTS is set");
}

TEST_F(Plots, MissingPythonOrMatplotlibSkipsThePlotsInOneLine) {
  const fs::path out = dir_ / "nopython";
  auto [rc, text] = run_shell("ROCETB_PYTHON=/nonexistent/python3 " + short_run(out.string()));
  ASSERT_EQ(rc, 0) << text;
  EXPECT_NE(text.find("plots skipped: /nonexistent/python3 not found\n"), std::string::npos) << text;
  EXPECT_EQ(read_json(out / "run.json")["plots"]["skipped"], "/nonexistent/python3 not found");
  EXPECT_FALSE(fs::exists(out / "report.html"));
  // A python3 without Debian's dist-packages (-S: no site), so without matplotlib.
  const fs::path wrapper = dir_ / "python-no-site";
  std::ofstream(wrapper) << "#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  const fs::path out2 = dir_ / "nomatplotlib";
  std::tie(rc, text) = run_shell("ROCETB_PYTHON=" + wrapper.string() + " " + short_run(out2.string()));
  ASSERT_EQ(rc, 0) << text;
  const std::string skipped = read_json(out2 / "run.json")["plots"]["skipped"];
  EXPECT_NE(skipped.find("is not installed"), std::string::npos) << skipped;
  EXPECT_NE(text.find("plots skipped: " + skipped + "\n"), std::string::npos) << text;
}

// A long run's lines are thinned before drawing (min-max decimation): at most 4000 points
// a line, every run of samples keeping its lowest and highest value, so a spike of one
// sample among 100,000 is still drawn and the times stay in order.
TEST_F(Plots, LongSeriesAreThinnedKeepingPeaksAndDips) {
  const std::string code =
      "import sys; sys.path.insert(0, '" + rtb::apps::testing::source_root() + "/scripts'); "
      "import numpy as np; from rocetb_results.series import thin; "
      "t = np.arange(100000.0); v = np.sin(t / 500); v[54321] = 10; v[7] = -3; "
      "a, b = thin(t, v); s, w = thin(t[:3000], v[:3000]); "
      "print(len(a), b.max(), b.min(), int(np.all(np.diff(a) > 0)), len(s))";
  const auto [rc, out] = run_shell("/usr/bin/python3 -c \"" + code + "\"");
  ASSERT_EQ(rc, 0) << out;
  EXPECT_EQ(out, "4000 10.0 -3.0 1 3000\n");
}

TEST_F(Plots, PlotPyRefusesWhatIsNotAResultsFolderInOneLine) {
  auto [rc, text] = run_shell(python_tool("scripts/plot.py") + " " + dir_.string() + " 2>&1");
  EXPECT_EQ(rc, 2);
  EXPECT_EQ(text, "plot.py: " + (dir_ / "summary.json").string() +
                      ": missing (not a rocetb results folder, or the run did not finish)\n");
}

// Chromium is installed by scripts/install-deps.sh; scripts/test.sh sets ROCETB_DEPS_INSTALLED
// after running it, so the test only skips on a machine where that was not done.
std::string chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return {};
}

TEST_F(Plots, HeadlessChromiumRendersTheReportWithItsPlots) {
  const std::string browser = chromium();
  if (browser.empty()) {
    ASSERT_EQ(std::getenv("ROCETB_DEPS_INSTALLED"), nullptr) << "chromium missing after scripts/install-deps.sh";
    GTEST_SKIP() << "chromium not installed (scripts/install-deps.sh installs it)";
  }
  const fs::path out = dir_ / "run";
  const auto [rc, text] = run_shell(short_run(out.string()));
  ASSERT_EQ(rc, 0) << text;
  // The same page without its images: the plot colours must come from the plots.
  std::stringstream html;
  html << std::ifstream(out / "report.html").rdbuf();
  std::string bare = html.str();
  for (size_t at; (at = bare.find("src='data:image/png;base64,")) != std::string::npos;) {
    bare.erase(at, bare.find('\'', at + 5) - at + 1);
  }
  std::ofstream(dir_ / "bare.html") << bare;
  const auto shot = [&](const fs::path& page, const fs::path& png) {
    const std::string cmd = browser + " --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=" +
                            (dir_ / "profile").string() + " --screenshot=" + png.string() +
                            " --window-size=1200,9000 file://" + page.string() + " 2>&1";
    const auto [src, sout] = run_shell(cmd);
    EXPECT_EQ(src, 0) << cmd << "\n" << sout;
  };
  shot(out / "report.html", dir_ / "report.png");
  shot(dir_ / "bare.html", dir_ / "bare.png");
  ASSERT_TRUE(fs::exists(dir_ / "report.png"));
  // The plots sit below the scenario and the tables: the lower part of the page.
  const json with = image_stats(dir_ / "report.png", 0.1);
  const json without = image_stats(dir_ / "bare.png", 0.1);
  ASSERT_TRUE(with["png"].get<bool>());
  EXPECT_GT(with["colors"].get<int>(), 100) << with.dump();
  EXPECT_GT(with["tab10"]["blue"].get<int>(), 2000) << with.dump();
  EXPECT_GT(with["tab10"]["orange"].get<int>(), 200) << with.dump();
  EXPECT_LT(without["tab10"]["blue"].get<int>(), 50) << without.dump();
}

std::string compare_line(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(label + "  ")) return line;
  }
  return {};
}

std::string fmt_pct(double a, double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (b - a) / std::abs(a) * 100);
  return buf;
}

TEST_F(Plots, CompareTwoKminRunsGivesTheTableAndNamesTheChangedKey) {
  const fs::path a = dir_ / "kmin150", b = dir_ / "kmin50";
  auto [rc, text] = run_shell(short_run(a.string(), "--no-plots"));
  ASSERT_EQ(rc, 0) << text;
  std::tie(rc, text) =
      run_shell(short_run(b.string(), "--no-plots --set switch.wred_profile.green_min_threshold=50KB"));
  ASSERT_EQ(rc, 0) << text;
  const fs::path out = dir_ / "cmp";
  std::tie(rc, text) = run_shell(rocetb() + " compare " + a.string() + " " + b.string() + " --out " + out.string());
  ASSERT_EQ(rc, 0) << text;
  EXPECT_EQ(text.find("\033["), std::string::npos) << "colour when stdout is not a terminal";
  EXPECT_NE(text.find("A = " + a.string() + "\nB = " + b.string() + "\n"), std::string::npos) << text;
  const json sa = read_json(a / "summary.json"), sb = read_json(b / "summary.json");
  const auto count = [](const json& s, const char* key) { return std::to_string(s["totals"][key].get<uint64_t>()); };
  for (const auto& [label, key] : std::vector<std::pair<std::string, const char*>>{
           {"CNPs sent", "cnp_sent"}, {"PFC frames sent", "pfc_frames"}, {"ECN-marked data frames", "ecn_marked_data_frames"}}) {
    SCOPED_TRACE(label);
    const std::string line = compare_line(text, label);
    ASSERT_FALSE(line.empty()) << text;
    const auto grouped = [](std::string n) {
      for (int i = static_cast<int>(n.size()) - 3; i > 0; i -= 3) n.insert(static_cast<size_t>(i), ",");
      return n;
    };
    EXPECT_NE(line.find(" " + grouped(count(sa, key)) + " "), std::string::npos) << line;
    EXPECT_NE(line.find(" " + grouped(count(sb, key)) + " "), std::string::npos) << line;
    const double va = sa["totals"][key].get<double>(), vb = sb["totals"][key].get<double>();
    if (va != 0) {
      EXPECT_NE(line.find(fmt_pct(va, vb)), std::string::npos) << line;
    }
  }
  // The two runs differ (else the table would not show anything).
  EXPECT_NE(sb["totals"]["ecn_marked_data_frames"], sa["totals"]["ecn_marked_data_frames"]);
  const std::string diff = text.substr(text.find("effective configuration:"));
  EXPECT_NE(diff.find("effective configuration: 1 key differs\n"), std::string::npos) << diff;
  EXPECT_NE(diff.find(".green_min_threshold_bytes: A 150000 | B 50000\n"), std::string::npos) << diff;
  for (const char* name : {"compare.txt", "compare-flow-rates.png", "compare-queues.png"}) {
    EXPECT_TRUE(fs::exists(out / name)) << name;
  }
  const json s = image_stats(out / "compare-queues.png");
  EXPECT_GT(s["tab10"]["blue"].get<int>(), 200);
  EXPECT_GT(s["tab10"]["orange"].get<int>(), 200);
  EXPECT_FALSE(fs::exists(out / "compare-fct.png")) << "no flow finished: nothing to draw";
}

// Finite flows under two algorithms: the FCT slowdown by flow size of each, overlaid.
TEST_F(Plots, CompareDrawsFctSlowdownBySizeWhenFlowsFinished) {
  std::vector<fs::path> runs;
  for (const char* algorithm : {"dcqcn", "hpcc"}) {
    runs.push_back(dir_ / algorithm);
    const auto [rc, text] = run_shell(rocetb() + " run " + rtb::apps::testing::source_root() +
                                      "/scenarios/cc_compare_incast.toml --set 'traffic[0].bytes=\"200KB\"'"
                                      " --set 'run.duration=\"1ms\"' --set 'cc.algorithm=\"" + algorithm +
                                      "\"' --no-plots --out " + runs.back().string());
    ASSERT_EQ(rc, 0) << text;
    ASSERT_GT(read_json(runs.back() / "summary.json")["fct_slowdown"]["by_size"].size(), 0u);
  }
  const fs::path out = dir_ / "cmp";
  const auto [rc, text] = run_shell(rocetb() + " compare " + runs[0].string() + " " + runs[1].string() +
                                    " --out " + out.string());
  ASSERT_EQ(rc, 0) << text;
  ASSERT_TRUE(fs::exists(out / "compare-fct.png")) << text;
  const json s = image_stats(out / "compare-fct.png");
  EXPECT_GT(s["tab10"]["blue"].get<int>(), 50);
  EXPECT_GT(s["tab10"]["orange"].get<int>(), 50);
}

TEST_F(Plots, CompareRefusesBadInputInOneLine) {
  const fs::path a = dir_ / "a";
  auto [rc, text] = run_shell(short_run(a.string(), "--no-plots"));
  ASSERT_EQ(rc, 0) << text;
  fs::create_directories(dir_ / "empty");
  struct Case {
    std::string args, line;
  };
  for (const Case& c : std::vector<Case>{
           {a.string(), "rocetb compare: give at least two results folders to compare (got 1)\n"},
           {"", "rocetb compare: give at least two results folders to compare (got 0)\n"},
           {a.string() + " " + (dir_ / "empty").string(),
            "rocetb compare: " + (dir_ / "empty" / "summary.json").string() +
                ": missing (not a rocetb results folder, or the run did not finish)\n"},
           {a.string() + " " + (dir_ / "nothere").string(),
            "rocetb compare: " + (dir_ / "nothere").string() + ": not a folder\n"}}) {
    std::tie(rc, text) = run_shell(rocetb() + " compare " + c.args);
    EXPECT_EQ(rc, 2) << c.args;
    EXPECT_EQ(text, c.line);
  }
}

}  // namespace
