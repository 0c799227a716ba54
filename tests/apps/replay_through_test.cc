// `rocetb replay CAPTURE --through SCENARIO` as a user types it: a run's own capture
// replayed through its scenario gives the same switch counters, a what-if changes them,
// a small hand-made capture lands on the mapped hosts as computed by hand, and bad input
// is refused in one line (a cut file: its frames before the cut, exit 1).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <cstdlib>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/apps/child.h"

namespace rtb::apps {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_rocetb;
using testing::source_root;

std::string dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "/replay_through_test/" + name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(std::filesystem::path(d).parent_path());
  return d;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string scenario() { return source_root() + "/scenarios/default.toml"; }

// The default incast (8 senders, DCQCN, PFC + ECN), 2 ms, captured where the hosts send.
const std::string& captured_run() {
  static const std::string out = [] {
    const std::string d = dir("orig");
    const auto r = run_rocetb({"run", scenario(), "--set", "run.duration=2ms", "--set", "run.warmup=0ms", "--out", d,
                               "--capture", "hosts-tx"});
    EXPECT_EQ(r.exit_code, 0) << r.out;
    return d;
  }();
  return out;
}

// Every switch port's counters that the replayed frames decide.
void expect_same_ports(const nlohmann::json& a, const nlohmann::json& b) {
  const auto& pa = a["switches"][0]["ports"];
  const auto& pb = b["switches"][0]["ports"];
  ASSERT_EQ(pa.size(), pb.size());
  for (size_t i = 0; i < pa.size(); ++i) {
    for (const char* k : {"rx_frames", "rx_bytes", "tx_frames", "tx_bytes", "ecn_marked", "pfc_tx_frames", "drops"}) {
      if (!pa[i].contains(k)) continue;
      EXPECT_EQ(pa[i][k], pb[i][k]) << pa[i]["name"] << " " << k;
    }
  }
}

// queues.csv as {"time_ns,switch,port,queue": the other columns}.
std::map<std::string, std::vector<int64_t>> queue_rows(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "time_ns,switch,port,queue,depth_bytes,ecn_marked,drops,paused,pfc_tx_frames");
  std::map<std::string, std::vector<int64_t>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string c; std::getline(fields, c, ',');) cells.push_back(c);
    std::vector<int64_t> values;
    for (size_t i = 4; i < cells.size(); ++i) values.push_back(std::stoll(cells[i]));
    rows[cells[0] + "," + cells[1] + "," + cells[2] + "," + cells[3]] = values;
  }
  return rows;
}

// The replay samples the queues its frames use, as the run sampled its flows': the same
// series at every sample, but for the frames that cross the switch within a nanosecond of
// a sample time (the capture stamps them in ns, the run in ps): at most two frames of
// depth (2 x 1082 B) and two events of a count apart.
void expect_same_queue_series(const std::string& original, const std::string& replayed) {
  const auto a = queue_rows(original);
  const auto b = queue_rows(replayed);
  ASSERT_GT(a.size(), 1000u);
  int64_t deepest = 0;
  for (const auto& [key, row] : a) {
    const auto it = b.find(key);
    ASSERT_NE(it, b.end()) << key << " is not in the replay's queues.csv";
    EXPECT_LE(std::abs(row[0] - it->second[0]), 2 * 1082) << key << " depth";
    for (size_t c = 1; c < row.size(); ++c) EXPECT_LE(std::abs(row[c] - it->second[c]), 2) << key << " column " << c;
    deepest = std::max(deepest, it->second[0]);
  }
  EXPECT_GT(deepest, 1'000'000) << "the incast's queue, in the replay";
}

TEST(ReplayThrough, ARunsOwnCaptureThroughItsScenarioGivesTheSameSwitchCounters) {
  const std::string out = dir("same");
  const auto r = run_rocetb({"replay", captured_run() + "/capture-hosts-tx.pcapng", "--through", scenario(),
                             "--duration", "2ms", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json orig = read_json(captured_run() + "/summary.json");
  const nlohmann::json replayed = read_json(out + "/summary.json");
  expect_same_ports(orig, replayed);
  EXPECT_GT(orig["switches"][0]["ports"][8]["ecn_marked"].get<uint64_t>(), 1000u) << "the incast marks";
  const nlohmann::json rep = read_json(out + "/replay.json");
  const nlohmann::json run = read_json(captured_run() + "/run.json");
  EXPECT_EQ(rep["frames_injected"], run["captures"]["files"][0]["frames"]);
  EXPECT_EQ(rep["frames_read"], rep["frames_injected"]);
  // Each address played its own host: the nine hosts' addresses in the effective scenario.
  const nlohmann::json eff = read_json(captured_run() + "/effective.json");
  ASSERT_EQ(rep["endpoints"].size(), 9u);
  for (const auto& e : rep["endpoints"]) {
    bool own = false;
    for (const auto& h : eff["topology"]["hosts"]) own = own || (h["name"] == e["host"] && h["ip"] == e["address"]);
    EXPECT_TRUE(own) << e;
  }
  EXPECT_THAT(r.out, HasSubstr("replayed "));
  expect_same_queue_series(captured_run() + "/queues.csv", out + "/queues.csv");
}

TEST(ReplayThrough, RaisingTheEcnThresholdsAboveTheBufferRemovesEveryMark) {
  const std::string out = dir("whatif");
  const auto r = run_rocetb({"replay", captured_run() + "/capture-hosts-tx.pcapng", "--through", scenario(),
                             "--duration", "2ms", "--out", out, "--set",
                             "switch.wred_profile.green_min_threshold=30MB", "--set",
                             "switch.wred_profile.green_max_threshold=40MB"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json orig = read_json(captured_run() + "/summary.json");
  const nlohmann::json s = read_json(out + "/summary.json");
  uint64_t marks = 0;
  for (const auto& p : s["switches"][0]["ports"]) marks += p["ecn_marked"].get<uint64_t>();
  EXPECT_EQ(marks, 0u);
  // The same frames arrive: the replay is open loop, the senders do not react.
  for (size_t i = 0; i < s["switches"][0]["ports"].size(); ++i) {
    EXPECT_EQ(s["switches"][0]["ports"][i]["rx_frames"], orig["switches"][0]["ports"][i]["rx_frames"]);
  }
}

// The words of the first line of `text` whose first two words are `a` and `b`.
std::vector<std::string> words_of_row(const std::string& text, const std::string& a, const std::string& b) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    if (words.size() >= 2 && words[0] == a && words[1] == b) return words;
  }
  return {};
}

// --- a capture made by hand ---------------------------------------------------------

void put16(std::vector<uint8_t>& v, uint16_t x) {
  v.push_back(static_cast<uint8_t>(x >> 8));
  v.push_back(static_cast<uint8_t>(x));
}

// Ethernet, IPv4 (DSCP 26, ECT(0) unless given), UDP 4791, BTH (SEND ONLY, opcode 4),
// `payload` bytes, a 4-byte ICRC left zero (the replay computes it again).
std::vector<uint8_t> roce_frame(uint8_t src_last, uint8_t dst_last, uint32_t psn, uint32_t payload, uint8_t ecn = 2) {
  std::vector<uint8_t> f = {0x02, 0, 0, 0, 0, dst_last, 0x02, 0, 0, 0, 0, src_last, 0x08, 0x00};
  const uint16_t ip_len = static_cast<uint16_t>(20 + 8 + 12 + payload + 4);
  std::vector<uint8_t> ip = {0x45, static_cast<uint8_t>(26 << 2 | ecn)};
  put16(ip, ip_len);
  put16(ip, 0);
  put16(ip, 0x4000);
  ip.insert(ip.end(), {64, 17, 0, 0, 10, 9, 0, src_last, 10, 9, 0, dst_last});
  uint32_t sum = 0;
  for (size_t i = 0; i < 20; i += 2) sum += static_cast<uint32_t>(ip[i] << 8 | ip[i + 1]);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  ip[10] = static_cast<uint8_t>(~sum >> 8);
  ip[11] = static_cast<uint8_t>(~sum);
  f.insert(f.end(), ip.begin(), ip.end());
  put16(f, 0xC000);
  put16(f, 4791);
  put16(f, static_cast<uint16_t>(ip_len - 20));
  put16(f, 0);
  f.insert(f.end(), {4, 0x40, 0xFF, 0xFF, 0, 0, 0x01, 0x11, 0x80, static_cast<uint8_t>(psn >> 16),
                     static_cast<uint8_t>(psn >> 8), static_cast<uint8_t>(psn)});
  f.insert(f.end(), payload + 4, 0xAB);
  return f;
}

void put32le(std::ofstream& o, uint32_t x) {
  for (int i = 0; i < 4; ++i) o.put(static_cast<char>(x >> (8 * i)));
}

// A classic pcap (microseconds) of `frames` at the given times; `snap` cuts each frame.
void write_pcap(const std::string& path, const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>& frames,
                uint32_t snap = 65535) {
  std::ofstream o(path, std::ios::binary);
  put32le(o, 0xa1b2c3d4);
  put32le(o, 0x00040002);
  put32le(o, 0);
  put32le(o, 0);
  put32le(o, 65535);
  put32le(o, 1);
  for (const auto& [us, f] : frames) {
    const auto cap = static_cast<uint32_t>(std::min<size_t>(f.size(), snap));
    put32le(o, 1000 + us / 1'000'000);
    put32le(o, us % 1'000'000);
    put32le(o, cap);
    put32le(o, static_cast<uint32_t>(f.size()));
    o.write(reinterpret_cast<const char*>(f.data()), cap);
  }
}

// Five 1,000-byte SENDs 100 us apart from 10.9.0.1 to 10.9.0.2, mapped to h3 and h5: by
// hand, each crosses an idle 100 Gb/s switch alone (86.56 ns on the wire, 100 us apart), so
// nothing is marked, paused, delayed or dropped, and h5 receives the five frames with the
// scenario's headers: 14 + 20 + 8 + 12 + 1000 + 4 = 1058 bytes each.
TEST(ReplayThrough, AHandMadeCaptureLandsOnTheMappedHostsAsComputed) {
  const std::string cap = dir("hand.pcap");
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> frames;
  for (uint32_t i = 0; i < 5; ++i) frames.emplace_back(100 * i, roce_frame(1, 2, i, 1000));
  write_pcap(cap, frames);
  const std::string out = dir("hand");
  const auto r = run_rocetb({"replay", cap, "--through", scenario(), "--map", "10.9.0.1=h3", "--map",
                             "10.9.0.2=h5", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json rep = read_json(out + "/replay.json");
  EXPECT_EQ(rep["frames_injected"], 5);
  EXPECT_EQ(rep["endpoints"][0]["host"], "h3");
  EXPECT_EQ(rep["endpoints"][1]["host"], "h5");
  const auto& h3 = rep["hosts"][3];
  const auto& h5 = rep["hosts"][5];
  EXPECT_EQ(h3["frames_sent"], 5);
  EXPECT_EQ(h3["frames_delayed"], 0);
  EXPECT_EQ(h3["bytes_sent"], 5 * 1058);
  EXPECT_EQ(h5["frames_received"], 5);
  EXPECT_EQ(h5["bytes_received"], 5 * 1058);
  EXPECT_EQ(h5["ce_received"], 0);
  EXPECT_EQ(rep["totals"]["pfc_received"], 0);
  const nlohmann::json s = read_json(out + "/summary.json");
  for (const auto& p : s["switches"][0]["ports"]) EXPECT_EQ(p["ecn_marked"], 0) << p["name"];
  // The run lasted until the last frame (400 us) plus the 1 ms tail.
  EXPECT_EQ(s["duration_ns"], 1'400'000) << s.dump().substr(0, 300);
  // The folder is finished as a run's: the plots drawn (or skipped for ROCETB_NO_PLOTS, as
  // the test suite's environment sets it), and --no-plots skips them.
  const nlohmann::json plots = read_json(out + "/run.json")["plots"];
  EXPECT_TRUE(plots.contains("files") || plots["skipped"] == "ROCETB_NO_PLOTS is set") << plots;
  const std::string bare = dir("hand_no_plots");
  ASSERT_EQ(run_rocetb({"replay", cap, "--through", scenario(), "--map", "10.9.0.1=h3", "--map", "10.9.0.2=h5",
                        "--no-plots", "--out", bare}).exit_code, 0);
  EXPECT_EQ(read_json(bare + "/run.json")["plots"]["skipped"], "--no-plots");
}

// 40 frames from each of two addresses, all due at once, to a third: each sender's wire
// spaces its frames one frame time apart (86.56 ns at 100 Gb/s for 1,058 bytes), so a pair
// reaches the switch every frame time while the receiver's port sends one. When the last
// pair arrives the port has sent 39 frames: 80 - 39 = 41 frames are held (the one on the
// wire counts until sent), 41 x 1058 = 43,378 bytes, below the default WRED minimum
// (150 KB): nothing is marked. With the curve at 1 byte every frame is.
// (The wire time of a frame: (1058 + 4 FCS + 20 preamble and gap) x 8 / 100 Gb/s = 86.56 ns.)
TEST(ReplayThrough, ABurstFromTwoSendersQueuesAsComputedByHand) {
  const std::string cap = dir("burst.pcap");
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> frames;
  for (uint32_t i = 0; i < 40; ++i) {
    frames.emplace_back(0, roce_frame(1, 3, i, 1000));
    frames.emplace_back(0, roce_frame(2, 3, i, 1000));
  }
  write_pcap(cap, frames);
  for (const bool low : {false, true}) {
    const std::string out = dir(low ? "burst_low" : "burst");
    std::vector<std::string> args = {"replay", cap, "--through", scenario(), "--out", out};
    if (low) {
      args.insert(args.end(), {"--set", "switch.wred_profile.green_min_threshold=1B", "--set",
                               "switch.wred_profile.green_max_threshold=2B"});
    }
    const auto r = run_rocetb(args);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const nlohmann::json rep = read_json(out + "/replay.json");
    // 10.9.0.1, then .3 (the first frame's destination), then .2: h0, h1, h2 (no address
    // is a host's own).
    EXPECT_EQ(rep["endpoints"][1]["address"], "10.9.0.3");
    EXPECT_EQ(rep["endpoints"][1]["host"], "h1");
    EXPECT_EQ(rep["hosts"][1]["frames_received"], 80);
    EXPECT_EQ(rep["hosts"][0]["frames_delayed"], 39) << "frames due at once wait for their own wire";
    // The last waits 39 frame times: 39 x (1058 + 4 + 20) x 8 bits / 100 Gb/s = 3375.8 ns.
    EXPECT_EQ(rep["hosts"][0]["delay_max_ns"], 3375);
    EXPECT_GE(rep["hosts"][0]["delay_p99_ns_at_most"].get<uint64_t>(), 3375u);
    EXPECT_EQ(rep["hosts"][1]["ce_received"], low ? 80 : 0);
    const nlohmann::json s = read_json(out + "/summary.json");
    EXPECT_EQ(s["switches"][0]["ports"][1]["queues"][0]["watermark_bytes_total"], 41 * 1058);
    // The terminal shows the switch ports, not the scenario's (unrun) flows: h1's port took
    // 80 frames in from the two senders' ports and queued 41 of them at its peak.
    const std::string port = s["switches"][0]["ports"][1]["name"];
    EXPECT_EQ(words_of_row(r.out, "sw0", port),
              (std::vector<std::string>{"sw0", port, "0", "80", "43378", low ? "80" : "0", "0", "0", "0"}))
        << r.out;
    EXPECT_THAT(r.out, HasSubstr(low ? "whole run: ECN marked 80 | PFC frames 0 | drops 0"
                                     : "whole run: ECN marked 0 | PFC frames 0 | drops 0"));
    EXPECT_THAT(r.out, Not(HasSubstr("goodput")));
  }
}

// A capture taken at two points holds each frame twice, the second copy 2 us later (a
// switch's egress, with ECN set by it): a window of 10 us injects each frame once.
TEST(ReplayThrough, ADedupWindowInjectsAFrameSeenAtTwoPointsOnce) {
  const std::string cap = dir("twice.pcap");
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> frames;
  for (uint32_t i = 0; i < 6; ++i) {
    frames.emplace_back(100 * i, roce_frame(1, 2, i, 500));
    frames.emplace_back(100 * i + 2, roce_frame(1, 2, i, 500, 3));  // CE at the second point
  }
  write_pcap(cap, frames);
  for (const char* window : {"0s", "10us"}) {
    const std::string out = dir(std::string("twice_") + window);
    const auto r = run_rocetb({"replay", cap, "--through", scenario(), "--out", out, "--dedup-window", window});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const nlohmann::json rep = read_json(out + "/replay.json");
    const bool on = std::string(window) != "0s";
    EXPECT_EQ(rep["frames_injected"], on ? 6 : 12) << window;
    EXPECT_EQ(rep["skipped"]["duplicate"], on ? 6 : 0) << window;
  }
}

TEST(ReplayThrough, ACutCaptureReplaysTheFramesBeforeTheCutAndSaysWhere) {
  const std::string cap = dir("cut.pcap");
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> frames;
  for (uint32_t i = 0; i < 4; ++i) frames.emplace_back(10 * i, roce_frame(1, 2, i, 200));
  write_pcap(cap, frames);
  std::filesystem::resize_file(cap, std::filesystem::file_size(cap) - 100);
  const std::string out = dir("cut");
  const auto r = run_rocetb({"replay", cap, "--through", scenario(), "--out", out});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("the frames before it were replayed"));
  EXPECT_EQ(read_json(out + "/replay.json")["frames_injected"], 3);
}

TEST(ReplayThrough, ASnappedFrameIsPaddedToItsIpLength) {
  const std::string cap = dir("snap.pcap");
  write_pcap(cap, {{0, roce_frame(1, 2, 0, 1000)}}, 128);
  const std::string out = dir("snap");
  const auto r = run_rocetb({"replay", cap, "--through", scenario(), "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json rep = read_json(out + "/replay.json");
  EXPECT_EQ(rep["frames_padded"], 1);
  EXPECT_EQ(rep["hosts"][1]["bytes_received"], 1058);
}

TEST(ReplayThrough, BadInputIsRefusedInOneLine) {
  const std::string cap = dir("ok.pcap");
  write_pcap(cap, {{0, roce_frame(1, 2, 0, 100)}});
  const std::string not_cap = dir("not.pcap");
  std::ofstream(not_cap) << "hello";
  const std::string no_roce = dir("noroce.pcap");
  std::vector<uint8_t> arp(60, 0);
  arp[12] = 0x08;
  arp[13] = 0x06;
  write_pcap(no_roce, {{0, arp}});
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"replay", not_cap, "--through", scenario()}, "cannot read capture '" + not_cap + "'"},
      {{"replay", no_roce, "--through", scenario()}, "no RoCEv2 frame over IPv4"},
      {{"replay", cap, "--through", scenario(), "--map", "10.9.0.1=h99"}, "'h99' (for 10.9.0.1) is not a host"},
      {{"replay", cap, "--through", scenario(), "--map", "10.9.0.7=h1"}, "10.9.0.7 is not an address in the capture"},
      {{"replay", cap, "--through", scenario(), "--map", "h1"}, "--map 'h1': expected ADDRESS=HOST"},
      {{"replay", cap, "--through", scenario(), "--speed", "0"}, "--speed '0': expected a factor above 0"},
      {{"replay", cap, "--through", scenario(), "--dedup-window", "5"}, "--dedup-window '5':"},
      {{"replay", cap, "--through", scenario(), "--duration", "0s"}, "--duration '0s': expected a time above 0"},
      {{"replay", cap, "--through", scenario(), "--set", "switch.nope=1"}, "switch.nope"},
      {{"replay", cap, "--through", scenario(), "--rate", "10Gbps"}, "--rate applies to --to, not to --through"},
      {{"replay", cap, "--to", "net_null0", "--map", "10.9.0.1=h1"}, "--map applies to --through or --closed-loop, not to --to"},
      {{"replay", cap, "--to", "net_null0", "--through", scenario()}, "expected exactly one mode"},
  };
  for (const Case& c : cases) {
    const auto r = run_rocetb(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.says << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.says));
    std::string s = r.out;
    while (!s.empty() && s.back() == '\n') s.pop_back();
    EXPECT_EQ(s.find('\n'), std::string::npos) << "one line: " << r.out;
  }
}

}  // namespace
}  // namespace rtb::apps
