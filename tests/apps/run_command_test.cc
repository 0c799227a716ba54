// `rocetb run` as a user types it: bad command-line values refused in one line, and a stop
// request (Ctrl-C, SIGTERM) honoured whenever it comes in a realtime run, the wait for a
// split run's start and the EAL start-up included.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

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

using ::testing::HasSubstr;
using ::testing::Not;
using testing::build_root;
using testing::run_rocetb;
using testing::run_shell;
using testing::source_root;
using testing::Signal;

std::string out_dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "/run_command_test/" + name;
  std::filesystem::remove_all(d);
  return d;
}

// Lines of output that are not EAL log lines.
std::string last_line(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  const size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

TEST(RunCommand, ASeedOutsideRunSeedsRangeIsRefused) {
  for (const char* seed : {"-1", "99999999999999999999", "1x", ""}) {
    SCOPED_TRACE(seed);
    const auto r = run_rocetb({"run", "scenarios/default.toml", "--seed", seed, "--out", out_dir("seed")});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out, std::string("rocetb: --seed ") + seed +
                         ": expected a whole number from 0 to 9223372036854775807 (as run.seed)\n");
  }
}

// What CLI11 refuses (an unknown option or subcommand, a missing file) is one line and exit 2
// like every other bad input, naming the subcommand whose --help lists the options.
TEST(RunCommand, CommandLineErrorsAreOneLineWithExit2) {
  struct Case {
    std::vector<std::string> args;
    std::string out;
  };
  for (const Case& c : std::vector<Case>{
           {{"run", "scenarios/default.toml", "--turbo"},
            "rocetb run: The following argument was not expected: --turbo; `rocetb run --help` lists the options\n"},
           {{"run", "/nonexistent/x.toml"},
            "rocetb run: scenario: File does not exist: /nonexistent/x.toml; `rocetb run --help` lists the options\n"},
           {{"bench"}, "rocetb bench: SUBCOMMAND: expected one of tx rx switch loop sim; `rocetb bench --help` lists the "
                       "options\n"}}) {
    SCOPED_TRACE(c.args.back());
    const auto r = run_rocetb(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out, c.out);
  }
  const auto none = run_rocetb({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.out, HasSubstr("rocetb: SUBCOMMAND: expected one of run frames bench plan"));
  EXPECT_EQ(std::count(none.out.begin(), none.out.end(), '\n'), 1) << none.out;
  const auto help = run_rocetb({"run", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("Usage:"));
}

// The options tx, rx and switch share are checked before the EAL starts: a zero rate was a
// division by zero (SIGFPE), a zero duration a "valid" run of no frames.
TEST(RunCommand, BenchRefusesAZeroRateDurationOrCatchUpInOneLine) {
  struct Case {
    std::vector<std::string> option;
    std::string out;
  };
  for (const char* mode : {"tx", "rx", "switch"}) {
    for (const Case& c : std::vector<Case>{
             {{"--rate", "0Gbps"}, "rocetb bench: --rate 0Gbps: expected a rate above 0, e.g. 100Gbps\n"},
             {{"--seconds", "0s"}, "rocetb bench: --seconds 0s: expected a time above 0\n"},
             {{"--catch-up", "0us"}, "rocetb bench: --catch-up 0us: expected a time above 0 and at most 10ms\n"},
             {{"--catch-up", "11ms"}, "rocetb bench: --catch-up 11ms: expected a time above 0 and at most 10ms\n"}}) {
      std::vector<std::string> args = {"bench", mode};
      args.insert(args.end(), c.option.begin(), c.option.end());
      SCOPED_TRACE(std::string(mode) + " " + c.option[0] + " " + c.option[1]);
      const auto r = run_rocetb(args);
      EXPECT_EQ(r.term_signal, 0) << r.out;
      EXPECT_EQ(r.exit_code, 2) << r.out;  // bad input, as everywhere
      EXPECT_EQ(r.out, c.out);
    }
  }
}

// Sizes a mode cannot take are refused in one line before the EAL starts, exit 2.
TEST(RunCommand, BenchRefusesBadSizesBeforeItStarts) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"tx", "--payload", "100"}, "--payload 100: expected a RoCE path MTU: 256, 512, 1024, 2048 or 4096"},
      {{"rx", "--payload", "300"}, "--payload 300: expected a RoCE path MTU: 256, 512, 1024, 2048 or 4096"},
      {{"switch", "--frames", "0"}, "--frames 0: expected 1 .. 65536"},
      {{"switch", "--payload", "5000"}, "--payload 5000: expected 1 .. 4096"},
      // A scenario the bench would run is loaded and checked first, as `rocetb run` does.
      {{"sim", "scenarios/default.toml", "--set", "foo.bar=1"}, "--set foo.bar: unknown key 'foo'"},
      {{"sim", "scenarios/default.toml", "--set", "run.clock=\"realtime\""},
       "scenarios/default.toml: run.clock is \"realtime\": bench sim measures virtual time (give --set "
       "run.clock=virtual)"},
      {{"loop", "scenarios/default.toml", "--set", "run.warmup=20ms"},
       "--set run.warmup: '20ms' is not below run.duration: expected a shorter warm-up"}};
  for (const auto& [options, message] : cases) {
    std::vector<std::string> args = {"bench"};
    args.insert(args.end(), options.begin(), options.end());
    SCOPED_TRACE(message);
    const auto r = run_rocetb(args);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out, "rocetb bench: " + message + "\n");  // nothing from the EAL: it never started
  }
}

// A realtime run's lcores are checked against the CPUs the process may run on before the
// EAL starts, naming the file and key (the EAL said only "invalid core list").
TEST(RunCommand, ARealtimeLcoreTheProcessCannotRunOnIsNamed) {
  const auto r = run_rocetb({"run", "scenarios/default.toml", "--set", "run.clock=\"realtime\"", "--set",
                             "realtime.lcores=[1023]", "--out", out_dir("lcore")});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(last_line(r.out),
              HasSubstr("rocetb: scenarios/default.toml: realtime.lcores: lcore 1023 is not a CPU this process may "
                        "run on ("))
      << r.out;
}

// bench loop's --catch-up takes "auto" as realtime.catch_up does (it was refused as no time).
TEST(RunCommand, BenchLoopTakesAutoCatchUp) {
  const auto r = run_rocetb({"bench", "loop", "scenarios/default.toml", "--catch-up", "auto", "--seconds", "1ms",
                             "--set", "run.warmup=0us", "--dilation", "50", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr(R"(realtime.catch_up=\"auto\")")) << r.out;
}

// bench loop on a leaf-spine: its switches are placed by name on the second lcore and its
// 24 cables are 24 ring pairs, one DPDK port id each (two each left room for 16 cables).
TEST(RunCommand, BenchLoopRunsALeafSpine) {
  const auto r = run_rocetb({"bench", "loop", "scenarios/alltoall_leafspine.toml", "--lcores", "0,1", "--seconds",
                             "30us", "--set", "run.warmup=0us", "--set", "run.sample_interval=10us", "--dilation",
                             "1000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const size_t json = r.out.rfind("\n{\n");  // after the scenario's warnings, if any
  const auto j = nlohmann::json::parse(r.out.substr(json == std::string::npos ? 0 : json + 1));
  const auto& over = j["config"]["overrides"];
  EXPECT_NE(std::find(over.begin(), over.end(), "realtime.place.spine1=1"), over.end()) << over.dump();
  EXPECT_EQ(j["details"]["bridges"].size(), 2u * 24);  // a bridge at each end of every cable
  EXPECT_GT(j["figures"]["frame_hops_per_s"].get<double>(), 0);
}

TEST(RunCommand, AFifoAsTheScenarioIsRefusedNotWaitedOn) {
  const std::string fifo = ::testing::TempDir() + "/run_command_fifo.toml";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto r = run_rocetb({"run", fifo}, std::nullopt, std::chrono::seconds(30));
  EXPECT_EQ(r.term_signal, 0) << "still blocked after 30 s";
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb: " + fifo + ": is a FIFO, not a regular file: expected a scenario file (TOML)\n");
}

// A scenario path or a results folder in another encoding than UTF-8 (Linux paths
// are bytes): the run's JSON is still written, the bytes that are not UTF-8 as U+FFFD.
TEST(RunCommand, NamesAndPathsThatAreNotUtf8AreWrittenNotFatal) {
  const std::string dir = ::testing::TempDir() + "/run_command_test";
  std::filesystem::create_directories(dir);
  const std::string scenario = dir + "/latin1-\xe9.toml", out = out_dir("out-\xff");
  std::filesystem::copy_file(testing::source_root() + "/scenarios/default.toml", scenario,
                             std::filesystem::copy_options::overwrite_existing);
  const auto r = run_rocetb({"run", scenario, "--set", "run.duration=3ms", "--set", "run.warmup=1ms", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const char* file : {"summary.json", "run.json", "effective.json"}) {
    std::ifstream f(out + "/" + file);
    ASSERT_TRUE(f) << file;
    const auto j = nlohmann::json::parse(f);  // valid JSON, valid UTF-8
    if (std::string(file) == "run.json") {
      EXPECT_THAT(j["command_line"].get<std::string>(), HasSubstr("latin1-\xef\xbf\xbd.toml"));
    }
  }
}

// The resource plan refuses a run that would exhaust the machine before it starts, naming
// the key behind the largest term.
TEST(RunCommand, ARunThatWouldExhaustMemoryIsRefusedBeforeItStarts) {
  // The time series stream to disk: a sample every 1 ns for 1 s would write terabytes.
  auto r = run_rocetb({"run", "scenarios/default.toml", "--set", "run.sample_interval=1ns", "--set", "run.duration=1s",
                       "--out", out_dir("mem")},
                      std::nullopt, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("rocetb: resource plan: the run would write up to "));
  EXPECT_THAT(r.out, HasSubstr(" of CSV files (set by run.sample_interval = 1 ns over run.duration = 1 s: "));
  EXPECT_THAT(r.out, HasSubstr("free in " + out_dir("mem") + ": change that key, or free some disk space"));
  EXPECT_FALSE(std::filesystem::exists(out_dir("mem")));
  r = run_rocetb({"run", "scenarios/default.toml", "--set", "run.max_memory=50MB", "--out", out_dir("mem")});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("rocetb: run.max_memory: the run would need about "));
  EXPECT_THAT(r.out, HasSubstr("for mbuf pools (set by switch.buffer_pool.size: "));
  EXPECT_THAT(r.out, HasSubstr("more than the 47.7 MiB allowed (run.max_memory)"));
}

// The time series stream to disk as the run goes (lib/testbed/series_recorder.h): a
// hundred times as many samples take no more memory, where keeping them took about 190 MB
// more (40,000 samples of 8 flows and 9 queues, and their CSV text, held to the end).
TEST(RunCommand, TheTimeSeriesStreamToDiskInBoundedMemory) {
  const std::string few = out_dir("series-few"), many = out_dir("series-many");
  const auto a = run_rocetb({"run", "scenarios/default.toml", "--set", "run.duration=4ms", "--out", few});
  const auto b = run_rocetb({"run", "scenarios/default.toml", "--set", "run.duration=4ms", "--set",
                             "run.sample_interval=100ns", "--out", many});
  ASSERT_EQ(a.exit_code, 0) << a.out;
  ASSERT_EQ(b.exit_code, 0) << b.out;
  std::cout << "peak resident memory: " << a.max_rss_kib / 1024 << " MiB with 400 samples, " << b.max_rss_kib / 1024
            << " MiB with 40000\n";
  EXPECT_LT(b.max_rss_kib, a.max_rss_kib + 32 * 1024) << "memory grew with the number of samples";
  std::ifstream flows(many + "/flows.csv");
  std::string line;
  uint64_t rows = 0;
  while (std::getline(flows, line)) ++rows;
  EXPECT_EQ(rows, 1 + 8 * 40'000u);
  const auto run = nlohmann::json::parse(std::ifstream(many + "/run.json"));
  EXPECT_EQ(run["series"]["flow_rows"], 8 * 40'000u);
  EXPECT_EQ(run["series"]["csv_bytes"].get<uint64_t>(),
            std::filesystem::file_size(many + "/flows.csv") + std::filesystem::file_size(many + "/queues.csv"));
  for (const auto& e : std::filesystem::directory_iterator(many)) {
    EXPECT_NE(e.path().filename().string().front(), '.') << "temporary left: " << e.path();
  }
}

const std::vector<std::string> kRealtime = {"--set", "run.clock=\"realtime\"", "--set", "realtime.hugepages=\"never\""};


std::vector<std::string> realtime_run(const std::string& out, std::vector<std::string> more) {
  std::vector<std::string> a = {"run", "scenarios/default.toml", "--out", out};
  a.insert(a.end(), kRealtime.begin(), kRealtime.end());
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// rocetb shortens the EAL's TSC calibration from 100 to 10 ms where the EAL measures the
// frequency (runtime/pool/tsc_calibration.h); a realtime run's own 100 ms calibration then
// still agrees with DPDK's figure to its 10 MHz rounding.
bool cpu_states_no_tsc_frequency() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("vendor_id", 0) == 0) return line.find("AuthenticAMD") != std::string::npos;
  }
  return false;
}

TEST(RunCommand, TheEalsShortCalibrationAndAnsweredCpuProbesStillAgree) {
  const std::string out = out_dir("eal-start");
  const auto r = run_rocetb(realtime_run(out, {"--set", "run.duration=20ms"}));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto run = nlohmann::json::parse(std::ifstream(out + "/run.json"));
  const auto& eal = run.at("eal_start");
  EXPECT_GT(eal.at("seconds").get<double>(), 0.0);
  const double dpdk_hz = eal.at("tsc_hz").get<double>();
  EXPECT_EQ(dpdk_hz, run.at("clock").at("tsc_hz_dpdk").get<double>());
  const auto& slept = eal.at("tsc_calibration_sleep_ns");
  if (cpu_states_no_tsc_frequency()) {
    ASSERT_FALSE(slept.is_null()) << "an AMD CPU does not state its TSC frequency: the EAL measured it";
  }
  if (!slept.is_null()) {
    EXPECT_EQ(slept.get<double>(), 10e6);
  }
  const double own_hz = run.at("clock").at("tsc_hz_calibrated").get<double>();
  EXPECT_NEAR(dpdk_hz / own_hz, 1.0, 0.01) << "DPDK " << dpdk_hz << " Hz, rocetb's 100 ms " << own_hz;
  // The EAL's CPU probes were answered from sysfs listed once (runtime/pool/eal_topology_probe.h),
  // and it still found the lcores this realtime run placed its stages on.
  EXPECT_GE(eal.at("topology_probes_answered").get<uint64_t>(), 128u * 33u);
}

// A virtual run never reads the TSC: where DPDK measures it, the measurement sleeps 1 ms
// (runtime/pool/tsc_calibration.h), and the figure still lands within 1% of the realtime
// run's own 100 ms calibration on the same machine.
TEST(RunCommand, AVirtualRunsEalCalibrationSleepsOneMillisecond) {
  const std::string out = out_dir("eal-start-virtual");
  const auto r = run_rocetb(
      {"run", "scenarios/default.toml", "--set", "run.duration=20us", "--set", "run.warmup=0us", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto virtual_run = nlohmann::json::parse(std::ifstream(out + "/run.json"));
  const auto& eal = virtual_run.at("eal_start");
  const auto& slept = eal.at("tsc_calibration_sleep_ns");
  if (cpu_states_no_tsc_frequency()) {
    ASSERT_FALSE(slept.is_null()) << "an AMD CPU does not state its TSC frequency: the EAL measured it";
  }
  if (slept.is_null()) GTEST_SKIP() << "the CPU states its TSC frequency: the EAL did not measure it";
  EXPECT_EQ(slept.get<double>(), 1e6);
  const std::string rt = out_dir("eal-start-virtual-rt");
  const auto t = run_rocetb(realtime_run(rt, {"--set", "run.duration=20ms"}));
  ASSERT_EQ(t.exit_code, 0) << t.out;
  const auto run = nlohmann::json::parse(std::ifstream(rt + "/run.json"));
  const double own_hz = run.at("clock").at("tsc_hz_calibrated").get<double>();
  EXPECT_NEAR(eal.at("tsc_hz").get<double>() / own_hz, 1.0, 0.01);
}

// `rocetb run` runs one scenario, so its EAL gets that run's DPDK memory (pool headers and
// rings, twice their estimate) and a small margin, not the 128 MiB a process that runs many
// scenarios starts with: each MiB of -m costs start-up time. A run with more partitions
// gets more, and both finish.
TEST(RunCommand, AVirtualRunsEalMemoryIsSizedForThatRun) {
  auto eal_mb = [](const std::string& out) {
    const auto run = nlohmann::json::parse(std::ifstream(out + "/run.json"));
    const auto& args = run.at("eal_arguments");
    const auto m = std::find(args.begin(), args.end(), "-m");
    EXPECT_NE(m, args.end());
    return m == args.end() ? 0ul : std::stoul((m + 1)->get<std::string>());
  };
  const std::string one = out_dir("eal-memory-1");
  const auto r = run_rocetb({"run", "scenarios/alltoall_leafspine.toml", "--set", "run.duration=20us", "--set",
                             "run.warmup=0us", "--no-plots", "--out", one});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string three = out_dir("eal-memory-3");
  const auto p = run_rocetb({"run", "scenarios/alltoall_leafspine.toml", "--set", "run.duration=20us", "--set",
                             "run.warmup=0us", "--set", "run.partitions=3", "--no-plots", "--out", three});
  ASSERT_EQ(p.exit_code, 0) << p.out;
  EXPECT_GT(eal_mb(one), 8u);
  EXPECT_LT(eal_mb(one), 64u);
  EXPECT_GT(eal_mb(three), eal_mb(one));
}

// The EAL's own lines (getopt's complaint, its log) are summarized in the one-line error;
// --verbose shows them.
TEST(RunCommand, AnEalFailureIsOneLineUnlessVerbose) {
  const std::vector<std::string> bad = {"--set", "realtime.eal_args=[\"--vdev=net_bogus0\"]", "--set",
                                        "run.duration=3ms", "--set", "run.warmup=1ms"};
  auto r = run_rocetb(realtime_run(out_dir("eal"), bad));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("EAL: "))) << "raw EAL output without --verbose";
  EXPECT_THAT(last_line(r.out), HasSubstr("rocetb: DPDK EAL start failed: "));
  EXPECT_THAT(last_line(r.out), HasSubstr("; the EAL said: Unable to parse device 'net_bogus0' (rocetb run --verbose "
                                          "shows all it said)"));
  std::vector<std::string> verbose = bad;
  verbose.push_back("--verbose");
  r = run_rocetb(realtime_run(out_dir("eal"), verbose));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("EAL: Unable to parse device 'net_bogus0'\n"));
}

TEST(RunCommand, AStartTimeMoreThanADayAheadIsRefused) {
  const auto r = run_rocetb(realtime_run(out_dir("far"), {"--set", "realtime.start_at_unix_ms=99999999999999"}));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(last_line(r.out), HasSubstr("rocetb: realtime.start_at_unix_ms = 99999999999999 is "));
  EXPECT_THAT(last_line(r.out), HasSubstr("s from now: expected at most 24 h ahead"));
  // An error after the EAL started leaves no runtime folder behind.
  for (const auto& e : std::filesystem::directory_iterator("/var/run/dpdk", std::filesystem::directory_options::skip_permission_denied)) {
    EXPECT_NE(e.path().filename().string().rfind("rocetb-" + std::to_string(r.pid) + "-", 0), 0u) << e.path();
  }
}

TEST(RunCommand, CtrlCEndsTheWaitForTheStartTime) {
  const auto in_a_minute = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch() + std::chrono::seconds(60))
                               .count();
  const auto r = run_rocetb(
      realtime_run(out_dir("wait"), {"--set", "realtime.start_at_unix_ms=" + std::to_string(in_a_minute)}),
      Signal{SIGINT, std::chrono::milliseconds(1500)}, std::chrono::seconds(45));
  EXPECT_EQ(r.term_signal, 0) << "the wait ignored SIGINT";
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(last_line(r.out),
            "rocetb: stopped (SIGINT or SIGTERM) while waiting for realtime.start_at_unix_ms: nothing ran");
}

// SIGTERM during start-up (the EAL, the testbed) is not swallowed: the run ends at once
// after it and writes its results, short of the duration.
TEST(RunCommand, ASignalDuringStartUpEndsTheRealtimeRunWithResults) {
  const std::string out = out_dir("startup");
  const auto r = run_rocetb(realtime_run(out, {"--set", "run.duration=10ms", "--set", "realtime.dilation=2000"}),
                            Signal{SIGTERM, std::chrono::milliseconds(200)}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ifstream f(out + "/run.json");
  ASSERT_TRUE(f) << r.out;
  const auto run = nlohmann::json::parse(f);
  // Stopped at once: far short of the 10 ms it would run to (20 s of wall time).
  EXPECT_LT(run["simulated_ns"].get<double>(), 5e6) << "the run went on: the signal was swallowed";
}

// Ctrl-C on a virtual run: it ends at the next slice of virtual time and writes every
// results file for the time simulated, marked incomplete.
TEST(RunCommand, CtrlCEndsAVirtualRunWithItsResultsMarkedIncomplete) {
  const std::string out = out_dir("virtual-stop");
  const auto r = run_rocetb({"run", "scenarios/default.toml", "--set", "run.duration=2s", "--out", out},
                            Signal{SIGINT, std::chrono::milliseconds(1500)}, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("stopped by SIGINT or SIGTERM at "));
  for (const char* file : {"flows.csv", "queues.csv", "effective.json"}) {
    EXPECT_TRUE(std::filesystem::exists(out + "/" + file)) << file;
  }
  std::ifstream rf(out + "/run.json"), sf(out + "/summary.json");
  ASSERT_TRUE(rf && sf);
  const auto run = nlohmann::json::parse(rf), summary = nlohmann::json::parse(sf);
  EXPECT_EQ(summary["complete"], false);
  EXPECT_EQ(run["complete"], false);
  EXPECT_THAT(run["stopped_early"].get<std::string>(), HasSubstr("of the 2000.000 ms duration"));
  EXPECT_GT(run["simulated_ns"].get<double>(), 0);
  EXPECT_LT(run["simulated_ns"].get<double>(), 2e9);
}

// --cc ./x.so names a file from the current directory, as a shell user means it; the same
// relative path in the scenario file is taken from the scenario's folder.
// effective.json lists the algorithm's parameters as the run resolved them: those the
// scenario gave and every default.
TEST(RunCommand, EffectiveJsonListsEveryResolvedCcParameter) {
  const std::string out = out_dir("cc-resolved");
  const auto r = run_rocetb({"run", "scenarios/default.toml", "--set", "run.duration=300us", "--set",
                             "run.warmup=100us", "--set", "cc.params.rp_ai_rate=7", "--no-plots", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ifstream ef(out + "/effective.json");
  const auto cc = nlohmann::json::parse(ef)["cc"];
  EXPECT_EQ(cc["params"], nlohmann::json({{"rp_ai_rate", 7}}));
  EXPECT_EQ(cc["resolved_params"]["rp_ai_rate"], 7);
  EXPECT_EQ(cc["resolved_params"]["rp_hai_rate"], 50);         // mlx5's default, Mb/s
  EXPECT_EQ(cc["resolved_params"]["rp_dce_tcp_g"], 1019);      // Q10
  EXPECT_GE(cc["resolved_params"].size(), 20u);
}

TEST(RunCommand, ACcPluginPathIsTakenFromTheCurrentDirectory) {
  const std::string here = ::testing::TempDir() + "/run_command_cc_path";
  std::filesystem::remove_all(here);
  std::filesystem::create_directories(here);
  std::filesystem::copy_file(build_root() + "/cc_algos/rtb_cc_rtt_aimd.so", here + "/rtt_aimd.so");
  const std::string scenario = std::filesystem::absolute(source_root() + "/scenarios/default.toml").string();
  const std::string rocetb = std::filesystem::absolute(build_root() + "/apps/rocetb").string();
  const std::string out = out_dir("cc-path");
  const auto [code, text] = run_shell("cd '" + here + "' && '" + rocetb + "' run '" + scenario +
                                      "' --cc ./rtt_aimd.so --set run.duration=300us --set run.warmup=100us"
                                      " --out '" + out + "' 2>&1");
  EXPECT_EQ(code, 0) << text;
  std::ifstream ef(out + "/effective.json");
  ASSERT_TRUE(ef) << text;
  const auto effective = nlohmann::json::parse(ef);
  EXPECT_EQ(effective["cc"]["algorithm"], std::filesystem::path(here + "/rtt_aimd.so").lexically_normal().string());
  // This C plug-in has no describe_params: effective.json says its values are not reported.
  EXPECT_THAT(effective["cc"]["resolved_params"].get<std::string>(), HasSubstr("no describe_params hook"));
  // Without the file here, the scenario's folder is not searched instead.
  const auto [missing, why] = run_shell("cd '" + here + "' && '" + rocetb + "' run '" + scenario +
                                        "' --cc ./nothing_here.so --out '" + out_dir("cc-missing") + "' 2>&1");
  EXPECT_EQ(missing, 2) << why;
  EXPECT_THAT(why, HasSubstr(std::filesystem::path(here + "/nothing_here.so").lexically_normal().string()));
  // The error names the option typed, not the override it became.
  EXPECT_EQ(why.rfind("rocetb: --cc ./nothing_here.so: cannot load congestion-control plug-in '", 0), 0u) << why;
}

TEST(RunCommand, AnUnknownCcNamesTheOptionTyped) {
  const auto r = run_rocetb({"run", "scenarios/default.toml", "--cc", "bogus", "--out", out_dir("cc-bogus")});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.out.rfind("rocetb: --cc bogus: unknown congestion-control algorithm 'bogus'; available: dcqcn,", 0), 0u)
      << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

// --process ROLE is the realtime.role override; an error about it names --process.
TEST(RunCommand, AnUnknownProcessRoleNamesTheOptionTyped) {
  const auto r = run_rocetb({"run", "scenarios/split_memif.toml", "--process", "bogus", "--out", out_dir("role-bogus")});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.out, "rocetb: --process bogus: 'bogus' names no [realtime.process.<role>] table: expected one of them\n");
}

}  // namespace
}  // namespace rtb::apps
