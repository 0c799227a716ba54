// [realtime]: placement, ports, process roles and their errors (scenarios/README.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::load_error;
using testing::load_ok;

const std::string kTwoHosts = R"([run]
clock = "realtime"
[topology]
kind = "single_switch"
hosts = 2
)";

TEST(RealtimeSettings, DefaultsBuildEveryNodeOnLcoreZero) {
  const Scenario s = load_ok(kTwoHosts);
  EXPECT_EQ(s.realtime.nodes.size(), 3u);
  EXPECT_EQ(s.realtime.lcores, (std::vector<unsigned>{0}));
  EXPECT_EQ(s.realtime.lcore_of_host, (std::vector<unsigned>{0, 0}));
  EXPECT_EQ(s.realtime.lcore_of_switch, (std::vector<unsigned>{0}));
  EXPECT_EQ(s.realtime.dilation, 1u);
  EXPECT_FALSE(s.realtime.max_lateness.has_value());
  EXPECT_FALSE(s.realtime.ring_links);
  EXPECT_TRUE(s.realtime.ports.empty());
  EXPECT_EQ(s.effective["realtime"]["place"]["sw0"], 0);
}

TEST(RealtimeSettings, PlacementDilationLatenessAndEal) {
  const Scenario s = load_ok(kTwoHosts + R"([realtime]
lcores = [2, 5]
place = { sw0 = 5 }
dilation = 10
max_lateness = "20us"
links = "ring"
hugepages = "never"
eal_args = ["--log-level=lib.eal:debug"]
)");
  EXPECT_EQ(s.realtime.lcore_of_host, (std::vector<unsigned>{2, 2}));
  EXPECT_EQ(s.realtime.lcore_of_switch, (std::vector<unsigned>{5}));
  EXPECT_EQ(s.realtime.dilation, 10u);
  EXPECT_EQ(s.realtime.max_lateness, Time::us(20));
  EXPECT_TRUE(s.realtime.ring_links);
  EXPECT_EQ(s.realtime.hugepages, "never");
  EXPECT_EQ(s.realtime.eal_args, (std::vector<std::string>{"--log-level=lib.eal:debug"}));
}

const std::string kRoles = R"([realtime.process.hosts]
nodes = ["h0", "h1"]
lcores = [1]
ports = [ { link = ["h0", "sw0"], device = "net_memif0,role=client,socket=/tmp/a.sock" },
          { link = ["h1", "sw0"], device = "net_memif1,role=client,socket=/tmp/b.sock" } ]
[realtime.process.switch]
nodes = ["sw0"]
lcores = [0]
ports = [ { link = ["h0", "sw0"], device = "net_memif0,role=server,socket=/tmp/a.sock" },
          { link = ["h1", "sw0"], device = "net_memif1,role=server,socket=/tmp/b.sock" } ]
)";

TEST(RealtimeSettings, ARoleBuildsItsNodesWithAPortPerCableLeavingIt) {
  const Scenario s = load_ok(kTwoHosts + "[realtime]\nrole = \"switch\"\n" + kRoles);
  ASSERT_EQ(s.realtime.nodes.size(), 1u);
  EXPECT_TRUE(s.realtime.builds(NodeRef{NodeKind::kSwitch, 0}));
  EXPECT_FALSE(s.realtime.builds(NodeRef{NodeKind::kHost, 0}));
  ASSERT_EQ(s.realtime.ports.size(), 2u);
  EXPECT_EQ(s.realtime.ports[1].device, "net_memif1,role=server,socket=/tmp/b.sock");
  EXPECT_EQ(s.realtime.ports[1].node, (NodeRef{NodeKind::kSwitch, 0}));
  // The role may come from the command line (rocetb run --process sets it).
  const Scenario h = load_ok(kTwoHosts + "[realtime]\n" + kRoles, {"realtime.role=\"hosts\""});
  EXPECT_EQ(h.realtime.nodes.size(), 2u);
  EXPECT_EQ(h.realtime.lcores, (std::vector<unsigned>{1}));
  EXPECT_EQ(h.realtime.ports[0].node, (NodeRef{NodeKind::kHost, 0}));
}

TEST(RealtimeSettings, ErrorsNameTheKeyAndWhatWasExpected) {
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nplace = { sw9 = 0 }\n"),
              AllOf(StartsWith("t.toml:"), HasSubstr("realtime.place.sw9"), HasSubstr("not a host or switch")));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nlcores = [1]\nplace = { sw0 = 3 }\n"),
              HasSubstr("not in this process's lcores"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nlcores = [1, 1]\n"), HasSubstr("lists an lcore twice"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\ndilation = 0\n"), HasSubstr("realtime.dilation"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nmax_lateness = \"0s\"\n"),
              HasSubstr("realtime.max_lateness: '0s' is out of range: expected \"auto\" or a time above 0"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nlinks = \"pipe\"\n"), HasSubstr("'wire', 'ring'"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nrole = \"nope\"\n" + kRoles),
              AllOf(HasSubstr("realtime.role"), HasSubstr("names no [realtime.process.<role>]")));
  // A cable leaving the process without a port.
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nrole = \"a\"\n[realtime.process.a]\nnodes = [\"h0\"]\n"),
              HasSubstr("cable h0-sw0 leaves the process: expected a ports entry"));
  // A port on a cable with both ends here.
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nports = [ { link = [\"h0\", \"sw0\"], device = \"net_null0\" } ]\n"),
              HasSubstr("has both ends in this process"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nrole = \"a\"\n[realtime.process.a]\nnodes = [\"h0\"]\n"
                         "ports = [ { link = [\"h0\", \"sw0\"] } ]\n"),
              HasSubstr("device"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nlcores = [0]\nrole = \"hosts\"\n" + kRoles),
              HasSubstr("beside a role"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\nlcore = [0]\n"), HasSubstr("did you mean"));
}

TEST(RealtimeSettings, CommandsAreParsedInTimeOrderWithClearErrors) {
  const Scenario s = load_ok(kTwoHosts + R"([realtime]
commands = [ { at = "1ms", command = "set rp_ai_rate 20" }, { at = "2ms", command = "stop" } ]
)");
  ASSERT_EQ(s.realtime.commands.size(), 2u);
  EXPECT_EQ(s.realtime.commands[0].at, Time::ms(1));
  EXPECT_EQ(s.realtime.commands[0].param, "rp_ai_rate");
  EXPECT_EQ(s.realtime.commands[0].value, 20.0);
  EXPECT_TRUE(s.realtime.commands[1].param.empty());
  EXPECT_EQ(s.effective["realtime"]["commands"][1]["command"], "stop");
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\ncommands = [ { at = \"1ms\", command = \"set rp_ai_rate\" } ]\n"),
              AllOf(HasSubstr("realtime.commands[0].command"), HasSubstr("set NAME VALUE")));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\ncommands = [ { at = \"1ms\", command = \"pause\" } ]\n"),
              HasSubstr("expected \"stop\" or \"set NAME VALUE\""));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\ncommands = [ { at = \"2ms\", command = \"stop\" }, "
                                     "{ at = \"1ms\", command = \"stop\" } ]\n"),
              HasSubstr("time order"));
  EXPECT_THAT(load_error(kTwoHosts + "[realtime]\ncommands = [ { command = \"stop\" } ]\n"),
              HasSubstr("realtime.commands[0].at"));
}

}  // namespace
}  // namespace rtb::scenario
