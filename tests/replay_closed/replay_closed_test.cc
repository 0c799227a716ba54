// Closed-loop replay: a capture's streams read message by message, a run of pattern
// "capture" captured again and compared message by message with the original, `rocetb
// replay --closed-loop` reproducing sizes, endpoints and message counts, its rates
// following the congestion control, and each refused input in one line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "pcap/capture_reader.h"
#include "pcap/pcap_writer.h"
#include "scenario/addressing.h"
#include "scenario/capture_endpoints.h"
#include "scenario/capture_streams.h"
#include "scenario/load.h"
#include "tests/apps/child.h"

namespace rtb::scenario {
namespace {

using apps::testing::run_rocetb;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

std::string shared_captures() {
  const char* s = std::getenv("ROCETB_SHARED");
  return std::string(s != nullptr ? s : "../shared") + "/captures/";
}
// First statement of a test that reads the reference captures: skipped, naming the folder,
// when the repository was cloned without the shared folder beside it.
#define SKIP_WITHOUT_SHARED()                                                              \
  if (!std::filesystem::is_directory(shared_captures()))                                  \
  GTEST_SKIP() << "the reference captures folder " << shared_captures()                   \
               << " is missing: set ROCETB_SHARED, or clone the repository beside it"

std::string here(const std::string& file) { return apps::testing::source_root() + "/tests/replay_closed/" + file; }
std::string temp(const std::string& name) {
  const std::string p = ::testing::TempDir() + "/replay_closed_" + name;
  std::filesystem::remove_all(p);
  return p;
}
json read_json(const std::string& path) { return json::parse(std::ifstream(path)); }

CaptureStreams streams_of(const std::string& path) {
  Expected<CaptureStreams> c = read_capture_streams(path);
  if (!c) throw std::runtime_error(c.error().message);
  return std::move(c).value();
}

std::vector<uint64_t> message_bytes(const CapturedStream& s) {
  std::vector<uint64_t> out;
  for (const CapturedMessage& m : s.messages) out.push_back(m.bytes);
  return out;
}

// The rocetb host index of a run's capture address (addressing.h).
uint32_t host_of_run_address(const analyze::IpAddr& a) {
  for (uint32_t i = 0; i < 16; ++i) {
    if (parse_ip(format_ipv4(default_host_ip(i))) == a) return i;
  }
  return UINT32_MAX;
}

// A run of `scenario` captured at h1 (once per test binary run and scenario).
std::string captured_at_h1(const std::string& scenario) {
  static std::map<std::string, std::string> done;
  if (auto it = done.find(scenario); it != done.end()) return it->second;
  const std::string out = temp("run_" + scenario);
  const auto r = run_rocetb({"run", here(scenario), "--capture", "h1", "--out", out});
  if (r.exit_code != 0) throw std::runtime_error(r.out);
  return done[scenario] = out + "/capture-h1.pcapng";
}

TEST(ReplayClosedStreams, ReferenceCaptureMessageByMessage) {
  SKIP_WITHOUT_SHARED();
  const CaptureStreams c = streams_of(shared_captures() + "scapy_roce_reference.pcap");
  // SEND Only (32 B), then WRITE First + Middle (256 + 256 B) that the capture ends inside;
  // the ACK and the CNP the other way are not data.
  ASSERT_EQ(c.streams.size(), 1u);
  const CapturedStream& s = c.streams[0];
  EXPECT_EQ(to_string(s.key.src), "192.0.2.1");
  EXPECT_EQ(to_string(s.key.dst), "192.0.2.2");
  EXPECT_EQ(s.key.dest_qpn, 0x123u);
  EXPECT_EQ(s.dscp, 26);
  ASSERT_EQ(s.messages.size(), 2u);
  EXPECT_EQ(s.messages[0].bytes, 32u);
  EXPECT_EQ(s.messages[0].first, Time::zero());
  EXPECT_FALSE(s.messages[0].cut);
  EXPECT_EQ(s.messages[1].bytes, 512u);
  EXPECT_EQ(s.messages[1].first, Time::us(10));
  EXPECT_EQ(s.messages[1].last, Time::us(20));
  EXPECT_TRUE(s.messages[1].cut);
  EXPECT_EQ(c.endpoints, (std::vector{*parse_ip("192.0.2.1"), *parse_ip("192.0.2.2")}));
}

// An RDMA READ response is data its sender (the responder) sends: the reference SEND Only
// rewritten as READ Response Only (opcode 0x10, IBTA Table 38) counts for 192.0.2.1, its
// first 4 payload bytes now the AETH. A retransmitted copy (same PSN) is not counted again.
TEST(ReplayClosedStreams, ReadResponsesAreTheRespondersDataAndRepeatsAreSkipped) {
  SKIP_WITHOUT_SHARED();
  auto frames = capture::read_all(shared_captures() + "scapy_roce_reference.pcap");
  ASSERT_TRUE(frames.ok()) << frames.error().message;
  std::vector<uint8_t> frame = frames.value()[0].bytes;
  frame[14 + 20 + 8] = 0x10;  // BTH opcode, after Ethernet, IPv4 and UDP
  const std::string path = temp("read_response.pcap");
  auto w = capture::PcapWriter::create(path, capture::LinkType::kEthernet);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(w.value().write(Time::us(1), frame).ok());
  ASSERT_TRUE(w.value().write(Time::us(2), frame).ok());
  ASSERT_TRUE(w.value().close().ok());
  const CaptureStreams c = streams_of(path);
  ASSERT_EQ(c.streams.size(), 1u);
  EXPECT_EQ(to_string(c.streams[0].key.src), "192.0.2.1");
  ASSERT_EQ(c.streams[0].messages.size(), 1u);
  EXPECT_EQ(c.streams[0].messages[0].bytes, 28u);
  EXPECT_FALSE(c.streams[0].messages[0].cut);
}

TEST(ReplayClosedStreams, HardwareCaptureSendMessages) {
  SKIP_WITHOUT_SHARED();
  const CaptureStreams c = streams_of(shared_captures() + "oferby_proxy_roce.pcap");
  ASSERT_EQ(c.streams.size(), 2u);
  uint64_t messages = 0;
  for (const CapturedStream& s : c.streams) messages += s.messages.size();
  EXPECT_EQ(messages, 35u);  // 33 First..Last with Immediate and 2 Only with Immediate
}

// The capture replayed as pattern "capture" and captured again at the receiving host: the
// same streams between the same hosts with the same bytes in every message.
TEST(ReplayClosedRoundTrip, CapturePatternReproducesEveryMessage) {
  SKIP_WITHOUT_SHARED();
  const CaptureStreams original = streams_of(shared_captures() + "oferby_proxy_roce.pcap");
  const std::string again_path = captured_at_h1("oferby_fast.toml");
  const CaptureStreams again = streams_of(again_path);
  const std::map<std::string, uint32_t> given = {{"192.168.70.6", 2}, {"192.168.70.4", 1}};
  ASSERT_EQ(again.streams.size(), original.streams.size());
  for (const CapturedStream& o : original.streams) {
    const uint32_t src = given.at(to_string(o.key.src));
    const uint32_t dst = given.at(to_string(o.key.dst));
    const auto same = std::find_if(again.streams.begin(), again.streams.end(), [&](const CapturedStream& a) {
      return host_of_run_address(a.key.src) == src && host_of_run_address(a.key.dst) == dst;
    });
    ASSERT_NE(same, again.streams.end()) << "no stream h" << src << " -> h" << dst;
    EXPECT_EQ(message_bytes(*same), message_bytes(o));
  }
  const json summary = read_json(std::filesystem::path(again_path).parent_path() / "summary.json");
  for (const json& f : summary["flows"]) EXPECT_EQ(f["messages_completed"], f["messages"]) << f.dump();
}

TEST(ReplayClosedCommand, ReproducesSizesEndpointsAndMessageCounts) {
  SKIP_WITHOUT_SHARED();
  const std::string capture = captured_at_h1("oferby_fast.toml");
  const CaptureStreams c = streams_of(capture);
  const std::string out = temp("explicit_map");
  const auto r = run_rocetb({"replay", capture, "--closed-loop", here("oferby_fast.toml"), "--map",
                             "192.168.1.3=h2", "--map", "192.168.1.2=h1", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("replay of " + capture));
  const json replay = read_json(out + "/replay.json");
  const json summary = read_json(out + "/summary.json");
  ASSERT_EQ(replay["flows"].size(), c.streams.size());
  for (const json& row : replay["flows"]) {
    const json& flow = summary["flows"][row["flow"].get<size_t>()];
    EXPECT_EQ(row["src_host"], row["src"] == "192.168.1.3" ? "h2" : "h1");
    EXPECT_EQ(row["dst_host"], row["dst"] == "192.168.1.3" ? "h2" : "h1");
    EXPECT_EQ(row["replay"]["bytes"], row["capture"]["bytes"]);
    EXPECT_EQ(flow["size_bytes"], row["capture"]["bytes"]);
    EXPECT_EQ(flow["messages"], row["capture"]["messages"]);
    EXPECT_EQ(row["replay"]["messages_completed"], row["capture"]["messages"]);
    EXPECT_FALSE(row["replay"]["fct_ns"].is_null()) << "every flow completes";
  }
  EXPECT_TRUE(std::filesystem::exists(out + "/replay.csv"));
}

TEST(ReplayClosedCommand, AutomaticMapInOrderOfFirstAppearance) {
  const std::string capture = captured_at_h1("incast.toml");
  const CaptureStreams c = streams_of(capture);
  const std::string out = temp("auto_map");
  const auto r = run_rocetb({"replay", capture, "--closed-loop", here("incast.toml"), "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json replay = read_json(out + "/replay.json");
  ASSERT_EQ(replay["flows"].size(), 3u);
  for (const json& row : replay["flows"]) {
    const auto at = std::find(c.endpoints.begin(), c.endpoints.end(), *parse_ip(row["src"].get<std::string>()));
    EXPECT_EQ(row["src_host"], "h" + std::to_string(at - c.endpoints.begin()));
  }
}

// --speed X divides the captured start times (time_scale 1/X).
TEST(ReplayClosedCommand, SpeedDividesTheStartTimes) {
  const std::string capture = captured_at_h1("incast.toml");
  std::vector<json> flows;
  for (const char* speed : {"1", "2"}) {
    const std::string out = temp(std::string("speed_") + speed);
    const auto r = run_rocetb({"replay", capture, "--closed-loop", here("incast.toml"), "--speed", speed, "--out", out});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    flows.push_back(read_json(out + "/summary.json")["flows"]);
  }
  ASSERT_EQ(flows[0].size(), flows[1].size());
  bool later = false;
  for (size_t f = 0; f < flows[0].size(); ++f) {
    const uint64_t a = flows[0][f]["start_ns"], b = flows[1][f]["start_ns"];
    EXPECT_NEAR(static_cast<double>(b), static_cast<double>(a) / 2, 1.0) << f;
    later = later || a > 0;
  }
  EXPECT_TRUE(later) << "some flow starts after the first";
}

TEST(ReplayClosedCommand, CongestionControlChangesTheReplayedRates) {
  const std::string capture = captured_at_h1("incast.toml");
  const auto rates = [&](const std::string& name, std::vector<std::string> extra) {
    const std::string out = temp(name);
    std::vector<std::string> args = {"replay", capture, "--closed-loop", here("incast.toml"), "--out", out,
                                     "--set", "run.duration=\"8ms\""};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_rocetb(args);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    std::vector<double> gbps;
    const json replay = read_json(out + "/replay.json");
    for (const json& row : replay["flows"]) gbps.push_back(row["replay"]["rate_gbps"].get<double>());
    return gbps;
  };
  const std::vector<double> dcqcn = rates("dcqcn", {});
  const std::vector<double> fixed = rates("fixed", {"--set", "cc.algorithm=\"fixed_rate\"", "--set", "cc.params.rate_mbps=5000"});
  ASSERT_EQ(dcqcn.size(), 3u);
  ASSERT_EQ(fixed.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_LE(fixed[i], 5.0) << "flow " << i << " paced at 5 Gb/s";
    EXPECT_GT(dcqcn[i], 2 * fixed[i]) << "flow " << i;
  }
}

TEST(ReplayClosedErrors, OneLineEach) {
  const std::string capture = captured_at_h1("incast.toml");
  const std::string scenario = here("incast.toml");
  const auto refused = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"replay", capture, "--closed-loop", scenario, "--out", temp("refused")};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_rocetb(args);
  };
  auto r = refused({"--map", "192.168.1.1=h9"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb: --map: 'h9' (for 192.168.1.1) is not a host of the topology: expected one of h0..h3\n");
  r = refused({"--map", "192.168.1.300=h1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb: --map: '192.168.1.300' is not an IP address: expected IPv4 (192.0.2.1) or IPv6 "
                   "(2001:db8::1) text\n");
  r = refused({"--map", "h1"});
  EXPECT_EQ(r.out, "rocetb: --map 'h1': expected ADDRESS=HOST, e.g. --map 192.0.2.1=h0\n");
  r = refused({"--set", "topology.hosts=3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb: capture '" + capture + "': the capture has 4 endpoint addresses but the topology has 3 "
                   "hosts: expected at most 3 addresses (add hosts to the topology)\n");
  if (std::filesystem::is_directory(shared_captures())) {  // a capture without RoCE data
    r = run_rocetb({"replay", shared_captures() + "pfc_reference.pcap", "--closed-loop", scenario});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.out, HasSubstr("pfc_reference.pcap' holds no RoCE data (2 frames, 0 RoCEv2): expected SEND"));
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
  }
  r = run_rocetb({"replay", capture});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb replay: no mode given: expected exactly one of --to DEVICE, --through SCENARIO, --closed-loop SCENARIO\n");
}

TEST(ReplayClosedErrors, CorruptAndTruncatedCaptures) {
  const std::string garbage = temp("garbage.pcap");
  std::ofstream(garbage) << "this is not a capture file, just text long enough to have a header\n";
  auto r = run_rocetb({"replay", garbage, "--closed-loop", here("incast.toml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr(garbage));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  // A record cut in the middle.
  const std::string cut = temp("cut.pcapng");
  std::filesystem::copy_file(captured_at_h1("incast.toml"), cut);
  std::filesystem::resize_file(cut, std::filesystem::file_size(cut) / 2 + 3);
  r = run_rocetb({"replay", cut, "--closed-loop", here("incast.toml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("expected a whole capture"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(ReplayClosedPattern, ErrorsAtTheEntrysKeys) {
  SKIP_WITHOUT_SHARED();  // the scenario text names ../shared/captures
  const std::string text = R"([topology]
kind = "single_switch"
hosts = 4

[[traffic]]
pattern = "capture"
file = "../../../shared/captures/scapy_roce_reference.pcap"
hosts = { "192.0.2.1" = "h7" }
)";
  Expected<Scenario> s = load_scenario_text(text, here("t.toml"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, here("t.toml") + ":8: traffic[0].hosts: 'h7' (for 192.0.2.1) is not a host of the "
                                                  "topology: expected one of h0..h3");
  std::string missing = text;
  missing.replace(missing.find("scapy_roce_reference"), 20, "no_such_capture_here");
  s = load_scenario_text(missing, here("t.toml"));
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr(":7: traffic[0].file: "));
  EXPECT_THAT(s.error().message, HasSubstr("no_such_capture_here.pcap"));
  EXPECT_EQ(std::count(s.error().message.begin(), s.error().message.end(), '\n'), 0);
}

TEST(ReplayClosedPattern, FlowsAfterTheRunAreDroppedWithAWarning) {
  SKIP_WITHOUT_SHARED();  // the scenario text names ../shared/captures
  const std::string text = R"([topology]
kind = "single_switch"
hosts = 4
[run]
duration = "5ms"

[[traffic]]
pattern = "capture"
file = "../../../shared/captures/scapy_roce_reference.pcap"
time_scale = 1000
priority = 4
)";
  Expected<Scenario> s = load_scenario_text(text, here("t.toml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->flows.size(), 1u);
  ASSERT_EQ(s->flows[0].messages.size(), 1u);  // the second starts at 10 us x 1000 = 10 ms
  EXPECT_EQ(s->flows[0].size, Bytes(32));
  EXPECT_EQ(s->flows[0].priority, 4);
  EXPECT_EQ(s->flows[0].dscp, 26);
  EXPECT_THAT(s->warnings, ::testing::Contains(HasSubstr("traffic[0]: capture '")));
  EXPECT_THAT(s->warnings, ::testing::Contains(HasSubstr(
                               "0 of 1 captured flows and 1 messages start at or after the end of the run")));
  EXPECT_THAT(s->warnings, ::testing::Contains(HasSubstr(
                               "the last starts at 10.000 ms, so run.duration = \"12ms\" replays them all")));
}

// The hardware capture's RoCE traffic begins 16.3 s after its first frame: a run that ends
// before it would replay nothing, and is refused with the duration that replays it all.
TEST(ReplayClosedErrors, ACaptureStartingAfterTheRunIsRefusedWithTheDurationItNeeds) {
  SKIP_WITHOUT_SHARED();
  const auto r = run_rocetb({"replay", shared_captures() + "oferby_proxy_roce.pcap", "--closed-loop",
                             here("incast.toml"), "--out", temp("late")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("oferby_proxy_roce.pcap': every captured message starts at or after the end of the "
                               "run (the first at 16291.871 ms, the last at 21299.662 ms, from the capture's first "
                               "frame; run.duration = "));
  EXPECT_THAT(r.out, HasSubstr("expected run.duration above 16291.871 ms, and \"21301ms\" replays them all\n"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_FALSE(std::filesystem::exists(temp("late") + "/summary.json"));
}

// The duration that error suggests, as a user then runs it: 21.3 s at the scenario's 10 us
// sampling would be millions of CSV rows, so the run warns with a coarser interval; with
// it (and --no-plots, --quiet as `rocetb run` takes them) both streams replay, no plot is
// drawn, and run.json says which capture, by its bytes, the flows came from.
TEST(ReplayClosedCommand, TheHardwareCaptureOverItsWholeSpanWithTheSuggestedSampling) {
  SKIP_WITHOUT_SHARED();
  const std::string capture = shared_captures() + "oferby_proxy_roce.pcap";
  const std::string out = temp("whole_span");
  const std::vector<std::string> args = {"replay", capture, "--closed-loop", here("incast.toml"), "--set",
                                         "run.duration=21301ms", "--no-plots", "--quiet", "--out", out};
  // At 1 us the warning names the interval to use; run.max_memory = 16MB then makes the
  // run's resource plan fail (its pools need more: exit 1), so no gigabytes of CSV here.
  const auto fine = run_rocetb({"replay", capture, "--closed-loop", here("incast.toml"), "--set", "run.duration=21301ms",
                                "--set", "run.sample_interval=1us", "--set", "run.max_memory=16MB", "--out",
                                temp("whole_span_fine")});
  EXPECT_EQ(fine.exit_code, 1) << fine.out;
  EXPECT_THAT(fine.out, HasSubstr("warning: run.sample_interval = 1us over run.duration = 21301ms: 21301001 "
                                  "samples of 2 flows and 4 queues are 127.8 million rows of flows.csv and "
                                  "queues.csv (gigabytes on disk, minutes to plot): run.sample_interval = "
                                  "\"200us\" writes 0.64 million\n"));
  auto with = args;
  with.insert(with.end(), {"--set", "run.sample_interval=200us"});
  const auto r = run_rocetb(with);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("million rows"))) << r.out;
  const json replay = read_json(out + "/replay.json");
  ASSERT_EQ(replay["flows"].size(), 2u);
  EXPECT_EQ(replay["flows"][0]["replay"]["bytes"].get<uint64_t>() + replay["flows"][1]["replay"]["bytes"].get<uint64_t>(),
            141u + 67037u);
  for (const auto& f : std::filesystem::directory_iterator(out)) {
    EXPECT_NE(f.path().extension(), ".png") << f.path();
    EXPECT_NE(f.path().filename(), "report.html");
  }
  const json run = read_json(out + "/run.json");
  ASSERT_EQ(run["inputs"]["files"].size(), 1u) << run["inputs"].dump();
  EXPECT_EQ(run["inputs"]["files"][0]["file"], capture);
  EXPECT_EQ(run["inputs"]["files"][0]["bytes"], std::filesystem::file_size(capture));
}

TEST(ReplayClosedPattern, FlowsKeepTheCapturedMessagesAndDscp) {
  SKIP_WITHOUT_SHARED();  // the scenario text names ../shared/captures
  const std::string text = R"([topology]
kind = "single_switch"
hosts = 4

[[traffic]]
pattern = "capture"
file = "../../../shared/captures/scapy_roce_reference.pcap"
start = "1ms"
time_scale = 3
)";
  Expected<Scenario> s = load_scenario_text(text, here("t.toml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->flows.size(), 1u);
  const Flow& f = s->flows[0];
  EXPECT_EQ(f.src, 0u);
  EXPECT_EQ(f.dst, 1u);
  EXPECT_EQ(f.size, Bytes(544));
  EXPECT_EQ(f.dscp, 26);
  EXPECT_EQ(f.priority, 3);  // DSCP 26 -> TC 3 in the default DSCP_TO_TC_MAP
  ASSERT_EQ(f.messages.size(), 2u);
  EXPECT_EQ(f.messages[0].start, Time::ms(1));
  EXPECT_EQ(f.messages[1].start, Time::ms(1) + Time::us(30));
  EXPECT_EQ(f.messages[1].bytes, Bytes(512));
}

}  // namespace
}  // namespace rtb::scenario
