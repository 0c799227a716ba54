// `rocetb replay CAPTURE --to DEVICE` as a user runs it (one process, one EAL per replay):
// into a net_pcap tx port the frames come out byte for byte and in order; the spacing the
// port recorded follows the timing options; --loop repeats; bad inputs exit 2 in one line.
//
// net_pcap (DPDK 22.11, eth_pcap_tx_dumper) stamps each frame with the time of the
// rte_eth_tx_burst call that took it (TSC since the port started, converted with DPDK's
// nominal TSC frequency, plus the wall clock then; nanosecond pcap), so its file shows when
// frames were handed to the port. The spacing checks hold on a noisy shared VM: the
// tolerance is the replay's own reported worst timing error (expect_spacing).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "capture_test_util.h"
#include "pcap/capture_reader.h"
#include "pcap/pcap_writer.h"
#include "tests/apps/child.h"

namespace rtb::replay {
namespace {

using apps::testing::run_rocetb;
using capture::CapturedFrame;
using capture::testing::ScratchDir;

std::vector<CapturedFrame> read(const std::string& path) {
  auto frames = capture::read_all(path);
  EXPECT_TRUE(frames.ok()) << frames.error().message;
  return frames.ok() ? frames.value() : std::vector<CapturedFrame>{};
}

// `n` Ethernet frames of `len` bytes `gap` apart, each different.
std::string spaced_capture(const ScratchDir& dir, int n, uint32_t len, Time gap,
                           capture::LinkType link = capture::LinkType::kEthernet) {
  const std::string path = dir.file("spaced.pcap");
  auto w = capture::PcapWriter::create(path, link);
  EXPECT_TRUE(w.ok());
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(w.value().write(gap * i, capture::testing::test_frame(len, static_cast<uint8_t>(i))).ok());
  }
  EXPECT_TRUE(w.value().close().ok());
  return path;
}

// What a replay into a pcap file gave: the frames the port wrote and the summary.
struct Replayed {
  std::vector<CapturedFrame> frames;
  nlohmann::json summary;
};

Replayed replay_to_pcap(const ScratchDir& dir, const std::string& capture,
                        std::vector<std::string> extra = {}) {
  const std::string out = dir.file("out.pcap");
  std::vector<std::string> args{"replay", capture, "--to", "net_pcap0,tx_pcap=" + out, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_rocetb(args);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const size_t brace = r.out.find('{');
  return {read(out), brace == std::string::npos ? nlohmann::json{} : nlohmann::json::parse(r.out.substr(brace))};
}

Time span(const std::vector<CapturedFrame>& f) {
  return f.size() < 2 ? Time::zero() : Time::ns(f.back().ts_ns - f.front().ts_ns);
}

// Frame i was written `due[i]` after frame 0, within what the replay itself reports as its
// worst timing error (the clock read after the call that took a frame, an upper bound on
// net_pcap's stamp, which it takes inside that call; frames are never early, so a late
// frame 0 or frame i shows there), plus 20 us of slack. net_pcap converts the TSC with
// DPDK's nominal frequency, which on a virtual machine can be a few percent off the real
// one (3.4 % measured here), so its clock's scale is taken from the last gap and must be
// within 10 % of 1 (plus what the two frames' errors move it): a wrong speed factor (2,
// 0.5, 10) still fails. With errors e in [0, max], the scale's own error moves frame i by
// at most max, hence twice the bound. The worst error is checked to be a real one (below
// 1 s), so the bound is never vacuous.
void expect_spacing(const Replayed& r, const std::vector<Time>& due) {
  ASSERT_EQ(r.frames.size(), due.size());
  const double max_err_ns = r.summary["timing_error"]["max_ns"].get<double>();
  EXPECT_LT(max_err_ns, 1e9);
  const auto gap = [&](size_t i) { return static_cast<double>(r.frames[i].ts_ns - r.frames[0].ts_ns); };
  const auto want = [&](size_t i) { return static_cast<double>(due[i].ps()) / 1e3; };
  const size_t last = due.size() - 1;
  const double scale = want(last) > 0 ? gap(last) / want(last) : 1.0;
  const double bound_ns = max_err_ns + 20'000;
  EXPECT_NEAR(scale, 1.0, 0.10 + (want(last) > 0 ? bound_ns / want(last) : 0))
      << "net_pcap's clock against the due times";
  for (size_t i = 1; i < due.size(); ++i) {
    EXPECT_NEAR(gap(i) / scale, want(i), 2 * bound_ns) << "frame " << i + 1;
  }
}

std::vector<Time> every(Time gap, int n) {
  std::vector<Time> due;
  for (int i = 0; i < n; ++i) due.push_back(gap * i);
  return due;
}

TEST(ReplayCommand, ReferenceCaptureComesOutByteForByteInOrder) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ScratchDir dir;
  const std::string in = capture::testing::shared_captures_dir() + "/oferby_proxy_roce.pcap";
  const auto want = read(in);
  const auto got = replay_to_pcap(dir, in, {"--top-speed"}).frames;
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i].bytes, want[i].bytes) << "frame " << i + 1;
}

// A pcapng capture (every frame kind rocetb sends, `rocetb frames`) replayed, and both
// files read by scapy, a reader nobody here wrote.
TEST(ReplayCommand, PcapngInputComesOutIdenticalToScapy) {
  ScratchDir dir;
  const std::string in = dir.file("frames.pcapng");
  ASSERT_EQ(run_rocetb({"frames", "--out", in}).exit_code, 0);
  const auto got = replay_to_pcap(dir, in, {"--top-speed"}).frames;
  EXPECT_EQ(got.size(), 24u);
  const auto [code, out] = apps::testing::run_shell(
      "/usr/bin/python3 -c \"import sys; from scapy.all import rdpcap; a = rdpcap(sys.argv[1]); "
      "b = rdpcap(sys.argv[2]); print(len(a), len(b), all(bytes(x) == bytes(y) for x, y in zip(a, b)))\" " +
      in + " " + dir.file("out.pcap"));
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("24 24 True"), std::string::npos) << out;
}

TEST(ReplayCommand, LoopRepeatsTheCaptureInOrder) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ScratchDir dir;
  const std::string in = capture::testing::shared_captures_dir() + "/scapy_roce_reference.pcap";
  const auto want = read(in);
  const auto got = replay_to_pcap(dir, in, {"--loop", "3", "--rate", "1Gbps", "--burst", "2"}).frames;
  ASSERT_EQ(got.size(), 3 * want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].bytes, want[i % want.size()].bytes) << i;
}

TEST(ReplayCommand, CaptureTimingKeepsTheGaps) {
  ScratchDir dir;
  const auto r = replay_to_pcap(dir, spaced_capture(dir, 6, 200, Time::ms(2)));
  expect_spacing(r, every(Time::ms(2), 6));
  EXPECT_EQ(r.summary["timing_error"]["frames"], 6);
}

TEST(ReplayCommand, SpeedScalesTheGaps) {
  ScratchDir dir;
  const std::string in = spaced_capture(dir, 6, 200, Time::ms(2));
  expect_spacing(replay_to_pcap(dir, in, {"--speed", "0.5"}), every(Time::ms(4), 6));
  expect_spacing(replay_to_pcap(dir, in, {"--speed", "10"}), every(Time::us(200), 6));
}

TEST(ReplayCommand, RateSpacesFramesByTheirWireTime) {
  ScratchDir dir;
  // 1,000 B + 24 B of FCS, preamble and IFG at 10 Mb/s: 819.2 us apart, not 2 ms.
  const std::string in = spaced_capture(dir, 6, 1000, Time::ms(2));
  expect_spacing(replay_to_pcap(dir, in, {"--rate", "10Mbps"}), every(Time::ps(819'200'000), 6));
  const auto top = replay_to_pcap(dir, in, {"--top-speed"});
  EXPECT_EQ(top.frames.size(), 6u);
  EXPECT_TRUE(top.summary["timing_error"].is_null());
  EXPECT_LT(span(top.frames), Time::ms(10)) << "--top-speed kept the capture's own timing";
}

TEST(ReplayCommand, CookedCaptureGetsEthernetHeadersAndSnappedFramesArePadded) {
  ScratchDir dir;
  const std::string in = dir.file("sll.pcap");
  {
    auto w = capture::PcapWriter::create(in, capture::LinkType::kLinuxSll, 64);
    ASSERT_TRUE(w.ok());
    std::vector<uint8_t> f{0, 4, 0, 1, 0, 6, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0, 0, 0x08, 0x00};
    for (int i = 0; i < 100; ++i) f.push_back(0x45);
    ASSERT_TRUE(w.value().write(Time::zero(), f).ok());  // 116 bytes, 64 kept
    ASSERT_TRUE(w.value().close().ok());
  }
  const std::string out = dir.file("out.pcap");
  const auto r = run_rocetb({"replay", in, "--to", "net_pcap0,tx_pcap=" + out, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto got = read(out);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].bytes.size(), 14u + 100u);
  EXPECT_EQ(std::vector<uint8_t>(got[0].bytes.begin(), got[0].bytes.begin() + 14),
            (std::vector<uint8_t>{2, 0, 0, 0, 0, 2, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x08, 0x00}));
  EXPECT_EQ(got[0].bytes[14 + 47], 0x45);  // the last captured byte
  EXPECT_EQ(got[0].bytes[14 + 48], 0);     // padding
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  EXPECT_EQ(j["capture"]["padded"], 1);
  EXPECT_EQ(j["capture"]["padding_bytes"], 116 - 64);
  EXPECT_EQ(j["capture"]["link_header_rebuilt"], 1);
}

TEST(ReplayCommand, NullPortJsonAndResultsFolder) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ScratchDir dir;
  const std::string in = capture::testing::shared_captures_dir() + "/oferby_proxy_roce.pcap";
  const auto r = run_rocetb({"replay", in, "--to", "net_null0", "--rate", "100Gbps", "--loop", "10",
                             "--json", "--out", dir.file("res")});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  EXPECT_EQ(j["complete"], true);
  EXPECT_EQ(j["sent"]["frames"], 1230);
  EXPECT_EQ(j["port"]["stats"]["opackets"], 1230);
  EXPECT_EQ(j["timing_error"]["frames"], 1230);
  EXPECT_GE(j["timing_error"]["max_ns"].get<double>(), j["timing_error"]["p99_ns"].get<double>());
  std::ifstream summary(dir.file("res/summary.json"));
  EXPECT_EQ(nlohmann::json::parse(summary)["sent"]["frames"], 1230);
  std::ifstream csv(dir.file("res/timing_error.csv"));
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, "bucket_start_ns,bucket_end_ns,frames");
  uint64_t frames = 0;
  for (std::string line; std::getline(csv, line);) frames += std::stoull(line.substr(line.rfind(',') + 1));
  EXPECT_EQ(frames, 1230u);
}

// A lone net_ring0 loops back into a 1,024-slot ring nobody reads: it takes 1,023 frames,
// then refuses the rest. The unsent tail is offered again until the port has taken nothing
// for 1 s; then the replay stops with its results, exit code 1 and every mbuf back.
TEST(ReplayCommand, AStalledPortEndsTheReplayWithItsCounts) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const std::string in = capture::testing::shared_captures_dir() + "/oferby_proxy_roce.pcap";
  const auto r = run_rocetb({"replay", in, "--to", "net_ring0", "--top-speed", "--loop", "100", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("rocetb replay: device 'net_ring0' took no frame for 1 s: stopped after 1023 of 12300 frames"),
            std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('{'), r.out.rfind('}') - r.out.find('{') + 1));
  EXPECT_EQ(j["complete"], false);
  EXPECT_EQ(j["port"]["stalled"], true);
  EXPECT_EQ(j["sent"]["frames"], 1023);
  EXPECT_EQ(j["port"]["stats"]["opackets"], 1023);
  EXPECT_GT(j["port"]["short_calls"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["port"]["frames_dropped"], 0);
}

// Ctrl-C during a replay ends it at once with its results: the second frame, due ten
// minutes after the first, is never sent.
TEST(ReplayCommand, SigintEndsTheReplayWithItsResults) {
  ScratchDir dir;
  const std::string in = spaced_capture(dir, 2, 100, Time::s(600));
  const auto r = run_rocetb({"replay", in, "--to", "net_null0", "--json", "--out", dir.file("res")},
                            apps::testing::Signal{SIGINT, std::chrono::milliseconds(3000)});
  EXPECT_EQ(r.term_signal, 0) << "SIGINT killed it: " << r.out;
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("rocetb replay: interrupted (SIGINT or SIGTERM): stopped after 1 of 2 frames"),
            std::string::npos) << r.out;
  std::ifstream summary(dir.file("res/summary.json"));
  const auto j = nlohmann::json::parse(summary);
  EXPECT_EQ(j["complete"], false);
  EXPECT_EQ(j["port"]["interrupted"], true);
  EXPECT_EQ(j["sent"]["frames"], 1);
}

// Every refusal: exit code 2 and one line naming the option or file and the value.
void expect_refused(const std::vector<std::string>& args, const std::string& needle) {
  const auto r = run_rocetb(args);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find(needle), std::string::npos) << "wanted '" << needle << "' in: " << r.out;
}

TEST(ReplayCommand, BadInputsExit2InOneLine) {
  ScratchDir dir;
  const std::string in = spaced_capture(dir, 3, 100, Time::us(10));
  expect_refused({"replay", dir.file("none.pcap"), "--to", "net_null0"}, "none.pcap");
  auto bytes = capture::testing::read_file_bytes(in);
  bytes.resize(bytes.size() - 50);
  capture::testing::write_file_bytes(dir.file("cut.pcap"), bytes);
  expect_refused({"replay", dir.file("cut.pcap"), "--to", "net_null0"}, "cut.pcap");
  capture::testing::write_file_bytes(dir.file("junk.pcap"), std::vector<uint8_t>(100, 0x5a));
  expect_refused({"replay", dir.file("junk.pcap"), "--to", "net_null0"}, "junk.pcap");
  expect_refused({"replay", in, "--to", "net_bogus0"}, "--to: ");
  expect_refused({"replay", in, "--to", "net_pcap0,tx_pcap=/nonexistent/dir/o.pcap"}, "/nonexistent/dir");
  expect_refused({"replay", in, "--to", "net_null0", "--speed", "0"}, "--speed '0'");
  expect_refused({"replay", in, "--to", "net_null0", "--speed", "fast"}, "--speed 'fast'");
  expect_refused({"replay", in, "--to", "net_null0", "--rate", "10"}, "--rate '10'");
  expect_refused({"replay", in, "--to", "net_null0", "--rate", "0Gbps"}, "--rate '0Gbps'");
  expect_refused({"replay", in, "--to", "net_null0", "--rate", "1Gbps", "--top-speed"}, "at most one timing option");
  expect_refused({"replay", in, "--to", "net_null0", "--loop", "0"}, "--loop '0'");
  expect_refused({"replay", in, "--to", "net_null0", "--burst", "9999"}, "--burst '9999'");
  expect_refused({"replay", in, "--to", "net_null0", "--lcore", "999"}, "--lcore '999'");
  expect_refused({"replay", in, "--to", "net_null0", "--to", "net_null1"}, "--to 'net_null0', --to 'net_null1'");
  expect_refused({"replay", in}, "no mode given");
}

TEST(ReplayCommand, TheDeviceMayComeBeforeTheCaptureAndARefusedReplayLeavesNoFolder) {
  ScratchDir dir;
  const std::string in = spaced_capture(dir, 3, 100, Time::us(10));
  const auto r = run_rocetb({"replay", "--to", "net_null0", in, "--top-speed", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out.substr(r.out.find('{')))["sent"]["frames"], 3);
  expect_refused({"replay", dir.file("none.pcap"), "--to", "net_null0", "--out", dir.file("res")}, "none.pcap");
  EXPECT_FALSE(std::filesystem::exists(dir.file("res"))) << "the folder made for the results stays";
}

TEST(ReplayCommand, AFrameLongerThanThePortTakesIsRefusedByNumber) {
  ScratchDir dir;
  const std::string in = dir.file("jumbo.pcap");
  {
    auto w = capture::PcapWriter::create(in);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value().write(Time::zero(), capture::testing::test_frame(1000, 1)).ok());
    ASSERT_TRUE(w.value().write(Time::us(1), capture::testing::test_frame(9300, 2)).ok());
    ASSERT_TRUE(w.value().close().ok());
  }
  expect_refused({"replay", in, "--to", "net_null0"}, "frame 2 is 9300 bytes");
}

}  // namespace
}  // namespace rtb::replay
