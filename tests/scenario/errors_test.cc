// Every class of loading error gives one message naming the file, line (or --set), key,
// the value as written and what was expected.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::load_error;
using testing::load_ok;

TEST(ScenarioErrors, BadSizeUnitNamesLineKeyAndValue) {
  const std::string e = load_error(R"([topology]
kind = "single_switch"
hosts = 4

[switch.buffer_pool]
size = "4XB"
)");
  EXPECT_THAT(e, StartsWith("t.toml:6: switch.buffer_pool.size: "));
  EXPECT_THAT(e, HasSubstr("'4XB'"));
  EXPECT_THAT(e, HasSubstr("KB, MB"));
}

TEST(ScenarioErrors, BadLossyPoolSizeNamesItsKey) {
  const std::string e = load_error(R"([topology]
kind = "single_switch"
hosts = 4

[switch.buffer_pool]
lossy_size = "1XB"
)");
  EXPECT_THAT(e, StartsWith("t.toml:6: switch.buffer_pool.lossy_size: "));
  EXPECT_THAT(e, HasSubstr("'1XB'"));
  EXPECT_EQ(load_error(testing::kSmall, {"switch.buffer_pool.lossy_size=4XB"}).rfind(
                "--set switch.buffer_pool.lossy_size: ", 0),
            0u);
}

TEST(ScenarioErrors, MissingUnit) {
  const std::string e = load_error("[topology]\nkind = \"single_switch\"\nhosts = 4\nrate = 100\n");
  EXPECT_EQ(e, "t.toml:4: topology.rate: 100 has no unit: expected a rate as a string, such as \"100Gbps\"");
}

TEST(ScenarioErrors, UnknownKeySuggestsTheNearest) {
  const std::string e = load_error("[topology]\nkind = \"single_switch\"\nhosts = 4\n[switch.bufer_pool]\nsize = \"4MB\"\n");
  EXPECT_EQ(e, "t.toml:4: unknown key 'switch.bufer_pool' (did you mean 'switch.buffer_pool'?)");
}

TEST(ScenarioErrors, UnknownTopLevelKeyAndNoSuggestionWhenFar) {
  const std::string e = load_error("zzzzzzzz = 1\n[topology]\nkind = \"single_switch\"\nhosts = 4\n");
  EXPECT_EQ(e, "t.toml:1: unknown key 'zzzzzzzz'");
}

TEST(ScenarioErrors, KeyOfAnotherTopologyKindIsUnknown) {
  const std::string e = load_error("[topology]\nkind = \"single_switch\"\nhosts = 4\nspines = 2\n");
  EXPECT_THAT(e, StartsWith("t.toml:4: unknown key 'topology.spines'"));
}

TEST(ScenarioErrors, WrongType) {
  const std::string e = load_error("[topology]\nkind = \"single_switch\"\nhosts = \"four\"\n");
  EXPECT_EQ(e, "t.toml:3: topology.hosts: 'four' is a string: expected an integer in 2..1024");
}

TEST(ScenarioErrors, OutOfRange) {
  const std::string e = load_error("[topology]\nkind = \"single_switch\"\nhosts = 4\n[switch.wred_profile]\n"
                                   "green_drop_probability = 150\n");
  EXPECT_EQ(e, "t.toml:5: switch.wred_profile.green_drop_probability: 150 is out of range: expected 0..100");
}

TEST(ScenarioErrors, NotOneOfTheChoices) {
  const std::string e = load_error("[topology]\nkind = \"ring\"\n");
  EXPECT_EQ(e, "t.toml:2: topology.kind: 'ring' is not allowed: expected one of 'single_switch', 'leaf_spine', "
               "'explicit'");
}

TEST(ScenarioErrors, MissingRequiredKey) {
  EXPECT_EQ(load_error("[topology]\nkind = \"single_switch\"\n"),
            "t.toml:1: topology.hosts: missing: expected the number of hosts, an integer");
  EXPECT_EQ(load_error("[run]\nseed = 3\n"), "t.toml: topology: missing: expected a [topology] table with a kind");
}

TEST(ScenarioErrors, TomlSyntax) {
  const std::string e = load_error("[topology\nkind = 1\n");
  EXPECT_THAT(e, StartsWith("t.toml:1: not valid TOML: "));
}

TEST(ScenarioErrors, FlowToAHostThatDoesNotExist) {
  const std::string e = load_error(std::string(testing::kSmall) + R"(
[[traffic]]
pattern = "explicit"
flows = [{ src = "h0", dst = "h9", bytes = "1MB" }]
)");
  EXPECT_EQ(e, "t.toml:8: traffic[0].flows[0].dst: 'h9' is not a host of the topology: expected one of h0..h3");
}

TEST(ScenarioErrors, FlowToASwitch) {
  const std::string e = load_error(std::string(testing::kSmall) + R"(
[[traffic]]
pattern = "explicit"
flows = [{ src = "h0", dst = "sw0" }]
)");
  EXPECT_THAT(e, HasSubstr("traffic[0].flows[0].dst: 'sw0' is a switch: expected a host"));
}

TEST(ScenarioErrors, IncastFanInLargerThanHosts) {
  const std::string e = load_error(std::string(testing::kSmall) + R"(
[[traffic]]
pattern = "incast"
receiver = "h0"
senders = 8
)");
  EXPECT_EQ(e, "t.toml:9: traffic[0].senders: 8 is out of range: expected 1..3 (the topology has 4 hosts besides "
               "the receiver)");
}

TEST(ScenarioErrors, PathMtuLargerThanPortMtu) {
  const std::string e = load_error(R"([topology]
kind = "single_switch"
hosts = 2
mtu = 1500

[host]
path_mtu = 4096
)");
  EXPECT_EQ(e, "t.toml:7: host.path_mtu: 4096 makes frames of up to 4174 B (headers, RETH, ImmDt, ICRC), larger "
               "than the port MTU topology.mtu = 1500 B: expected a smaller path MTU or a larger MTU");
}

TEST(ScenarioErrors, PathMtuNotAnIbtaMtu) {
  EXPECT_THAT(load_error(std::string(testing::kSmall) + "[host]\npath_mtu = 1000\n"),
              HasSubstr("t.toml:6: host.path_mtu: 1000 is not an IBTA path MTU"));
}

TEST(ScenarioErrors, BothCableLengthAndDelay) {
  const std::string e =
      load_error("[topology]\nkind = \"single_switch\"\nhosts = 2\ncable_length_m = 3\ndelay = \"10ns\"\n");
  EXPECT_EQ(e, "t.toml:5: topology.delay: topology.delay and topology.cable_length_m are both given: expected one "
               "of them");
}

TEST(ScenarioErrors, WarmupNotBelowDuration) {
  const std::string e = load_error(std::string(testing::kSmall) + "[run]\nduration = \"1ms\"\nwarmup = \"2ms\"\n");
  EXPECT_EQ(e, "t.toml:7: run.warmup: '2ms' is not below run.duration: expected a shorter warm-up");
}

// Found by the scenario fuzz campaign (tests/fuzz/corpus/scenario/sample_interval_default.toml):
// a duration below the default sample interval failed on the key the file does not set,
// and the message quoted that missing value through a null pointer (SIGSEGV).
TEST(ScenarioErrors, ADurationBelowTheDefaultSampleIntervalNamesTheDefault) {
  const std::string e = load_error(std::string(testing::kSmall) + "[run]\nduration = \"5ps\"\n");
  EXPECT_EQ(e, "t.toml:5: run.sample_interval: (not set: its default) is out of range: expected above 0 and at "
               "most run.duration");
}

TEST(ScenarioErrors, UnknownCcAlgorithmGivesTheRegistryMessage) {
  const std::string e = load_error(std::string(testing::kSmall) + "[cc]\nalgorithm = \"cubic\"\n");
  EXPECT_THAT(e, StartsWith("t.toml:6: cc.algorithm: unknown congestion-control algorithm 'cubic'; available: "));
  EXPECT_THAT(e, HasSubstr("dcqcn"));
}

TEST(ScenarioErrors, BadCcParameterGivesTheAlgorithmsMessageAtItsLine) {
  const std::string e = load_error(std::string(testing::kSmall) + "[cc]\nalgorithm = \"dcqcn\"\n[cc.params]\n"
                                   "rp_no_such_knob = 3\n");
  EXPECT_THAT(e, StartsWith("t.toml:8: cc.params.rp_no_such_knob: dcqcn: unknown parameter 'rp_no_such_knob'"));
  EXPECT_EQ(e.find('\n'), std::string::npos) << "one line";
}

// Unknown [cc.params] keys are reported at their own line even when the algorithm's
// message lists valid keys that the file also sets (here t_high_ns, on an earlier line).
TEST(ScenarioErrors, UnknownCcParameterIsAtItsOwnLineWhenTheValidListNamesAnEarlierKey) {
  const std::string e = load_error(std::string(testing::kSmall) + R"([cc]
algorithm = "timely"
[cc.params]
t_high_ns = 400000
t_low_us = 5
)");
  EXPECT_THAT(e, StartsWith("t.toml:9: cc.params.t_low_us: timely: unknown parameter 't_low_us'"));
}

TEST(ScenarioErrors, SwitchValidationRunsAtLoad) {
  // Inverted WRED thresholds: the switch's own validate() refuses them.
  const std::string e = load_error(std::string(testing::kSmall) + R"(
[switch.wred_profile]
green_min_threshold = "2MB"
green_max_threshold = "1MB"
)");
  EXPECT_THAT(e, StartsWith("t.toml:7: switch.wred_profile.green_min_threshold: sw0: WRED_PROFILE queue3 "
                            "green_min_threshold = 2000000 B is above green_max_threshold = 1000000 B"));
}

// The lines of a message with several problems.
std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::string line;
  for (char c : s) {
    if (c != '\n') {
      line += c;
      continue;
    }
    out.push_back(line);
    line.clear();
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

// The RoCE tuning articles' values (reference §1.3 "verdict"): each refusal on its own
// line at its own key, in file order, even though the algorithm reports rp_gd first and
// the unknown key's message lists rp_initial_alpha_value among the valid parameters.
TEST(ScenarioErrors, EveryCcParameterErrorOnItsOwnLineAtItsKey) {
  const std::string e = load_error(std::string(testing::kSmall) + R"([cc]
algorithm = "dcqcn"
[cc.params]
rp_initial_alpha_value = 1024
rp_gd = 50
rp_rf_reset_ratio = 3
)");
  const std::vector<std::string> l = lines(e);
  ASSERT_EQ(l.size(), 3u) << e;
  EXPECT_THAT(l[0], StartsWith("t.toml:8: cc.params.rp_initial_alpha_value: dcqcn: rp_initial_alpha_value = 1024 "));
  EXPECT_THAT(l[1], StartsWith("t.toml:9: cc.params.rp_gd: dcqcn: rp_gd = 50 is invalid"));
  EXPECT_THAT(l[2], StartsWith("t.toml:10: cc.params.rp_rf_reset_ratio: dcqcn: unknown parameter 'rp_rf_reset_ratio'"));
}

TEST(ScenarioErrors, CcParameterErrorFromSetNamesTheOverride) {
  const std::string e = load_error(std::string(testing::kSmall) + "[cc]\nalgorithm = \"dcqcn\"\n[cc.params]\nrp_gd = 50\n",
                                   {"cc.params.rp_initial_alpha_value=1024"});
  const std::vector<std::string> l = lines(e);
  ASSERT_EQ(l.size(), 2u) << e;
  EXPECT_THAT(l[0], StartsWith("--set cc.params.rp_initial_alpha_value: dcqcn: rp_initial_alpha_value = 1024"));
  EXPECT_THAT(l[1], StartsWith("t.toml:8: cc.params.rp_gd: dcqcn: rp_gd = 50"));
}

// Switch validation errors at the keys they are about, and together with the CC
// parameters' errors: one run of the loader shows every independent problem.
TEST(ScenarioErrors, SwitchAndCcErrorsEachOnTheirOwnLine) {
  const std::string e = load_error(std::string(testing::kSmall) + R"(
[switch.buffer_pool]
cell = "10B"

[switch.pfcwd]
enabled = true
detection_time = "0ms"

[cc.params]
rp_gd = 50
)");
  const std::vector<std::string> l = lines(e);
  ASSERT_EQ(l.size(), 3u) << e;
  EXPECT_EQ(l[0], "t.toml:7: switch.buffer_pool.cell: sw0: BUFFER_POOL cell = 10 B: expected 64..4096 bytes");
  EXPECT_EQ(l[1], "t.toml:11: switch.pfcwd.detection_time: sw0: PFC_WD detection_time = 0: expected a positive time");
  EXPECT_THAT(l[2], StartsWith("t.toml:14: cc.params.rp_gd: dcqcn: rp_gd = 50 is invalid"));
}

// A key left at its default has no line: the error goes to its nearest table.
TEST(ScenarioErrors, SwitchErrorOfADefaultKeyIsAtItsTable) {
  const std::string e = load_error(std::string(testing::kSmall) + "[switch.pg_lossless]\nstatic_th = \"1KB\"\n");
  const std::vector<std::string> l = lines(e);
  ASSERT_EQ(l.size(), 2u) << e;
  EXPECT_THAT(l[0], StartsWith("t.toml:5: switch.pg_lossless.xon_offset: sw0: BUFFER_PROFILE pg3 xon_offset = 9216 B"));
  EXPECT_THAT(l[1], StartsWith("t.toml:5: switch.pg_lossless.xon_offset: sw0: BUFFER_PROFILE pg4 xon_offset = 9216 B"));
}

TEST(ScenarioErrors, DuplicateNodeNamesAndUnknownLinkEnd) {
  const std::string dup = load_error(R"([topology]
kind = "explicit"
hosts = [{ name = "a" }, { name = "a" }]
)");
  EXPECT_EQ(dup, "t.toml:3: topology.hosts[1].name: 'a' is already the name of another node: expected unique names");
  const std::string end = load_error(R"([topology]
kind = "explicit"
hosts = [{ name = "a" }, { name = "b" }]
links = [{ a = "a", b = "c" }]
)");
  EXPECT_EQ(end, "t.toml:4: topology.links[0].b: 'c' is not a node: expected the name of a host or switch listed above");
}

TEST(ScenarioErrors, FaultOnALinkThatDoesNotExist) {
  const std::string e = load_error(std::string(testing::kSmall) + R"(
[[faults]]
kind = "link_down"
link = ["h0", "h1"]
from = "1ms"
)");
  EXPECT_EQ(e, "t.toml:8: faults[0].link: [ 'h0', 'h1' ] is not a link of the topology: expected the names of two "
               "connected nodes");
}

TEST(ScenarioErrors, MaxMemoryIsAutoOrASizeOfAtLeast16MB) {
  EXPECT_EQ(load_ok(std::string(testing::kSmall) + "[run]\nmax_memory = \"2GB\"\n").run.max_memory, Bytes(2'000'000'000));
  EXPECT_FALSE(load_ok(std::string(testing::kSmall) + "[run]\nmax_memory = \"auto\"\n").run.max_memory);
  EXPECT_THAT(load_error(std::string(testing::kSmall) + "[run]\nmax_memory = \"1MB\"\n"),
              HasSubstr("run.max_memory: '1MB' is out of range: expected \"auto\" or a size of at least 16MB"));
}

TEST(ScenarioErrors, ThreadsAreAutoOrAtMostThePartitions) {
  const std::string run = std::string(testing::kSmall) + "[run]\npartitions = 3\n";
  EXPECT_EQ(load_ok(run + "threads = 2\n").run.threads, 2u);
  EXPECT_FALSE(load_ok(run + "threads = \"auto\"\n").run.threads);
  EXPECT_FALSE(load_ok(run).run.threads);
  EXPECT_THAT(load_error(run + "threads = 4\n"),
              HasSubstr("run.threads: 4 is above run.partitions (3): expected \"auto\" or 1 .. 3"));
  EXPECT_THAT(load_error(run + "threads = \"many\"\n"),
              HasSubstr("run.threads: 'many' is not \"auto\": expected \"auto\" or 1 .. 3"));
  EXPECT_THAT(load_error(run + "threads = 0\n"), HasSubstr("run.threads: 0 is out of range"));
}

// The name becomes the results folder's name: it cannot climb out of results/.
TEST(ScenarioErrors, ANameThatIsNotOneFolderNameIsRefused) {
  for (const char* bad : {"../../../../tmp/rt/escaped", "", "..", "a/b"}) {
    EXPECT_THAT(load_error(std::string("name = \"") + bad + "\"\n" + testing::kSmall),
                HasSubstr("t.toml:1: name: '" + std::string(bad) + "' is not a folder name: expected 1 to 100 "
                          "characters without '/'"))
        << bad;
  }
  EXPECT_EQ(load_ok(std::string("name = \"incast-8.1_v2\"\n") + testing::kSmall).name, "incast-8.1_v2");
}

TEST(ScenarioErrors, UnreadableFile) {
  Expected<Scenario> s = load_scenario("/nonexistent/x.toml");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "/nonexistent/x.toml: cannot be read (No such file or directory): expected a scenario file (TOML)");
}

// A FIFO would block the load forever, a device never end: refused before reading.
TEST(ScenarioErrors, AScenarioMustBeARegularFile) {
  const std::string fifo = ::testing::TempDir() + "/scenario_fifo.toml";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Expected<Scenario> s = load_scenario(fifo);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, fifo + ": is a FIFO, not a regular file: expected a scenario file (TOML)");
  s = load_scenario("/dev/zero");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, StartsWith("/dev/zero: is a character device, not a regular file"));
  const std::string big = ::testing::TempDir() + "/scenario_big.toml";
  { std::ofstream(big) << std::string(kMaxScenarioBytes + 1, '#'); }
  s = load_scenario(big);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr("more than the 16777216 bytes allowed for a scenario file (TOML)"));
  std::filesystem::remove(big);
}

TEST(ScenarioErrors, SmallScenarioLoads) { EXPECT_EQ(load_ok(testing::kSmall).topology.hosts.size(), 4u); }

}  // namespace
}  // namespace rtb::scenario
