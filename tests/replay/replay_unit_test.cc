// The pure parts of `rocetb replay --to` (no EAL): timing options, the schedule of due
// times, captured frames made Ethernet, a capture loaded whole.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capture_test_util.h"
#include "pcap/pcap_writer.h"
#include "replay/ethernet_frame.h"
#include "replay/loaded_capture.h"
#include "replay/schedule.h"
#include "replay/timing.h"

namespace rtb::replay {
namespace {

using capture::FrameView;
using capture::LinkType;
using capture::testing::ScratchDir;

TEST(Timing, ParsesEachKindAndRefusesBadValuesNamingTheOption) {
  EXPECT_EQ(parse_timing("", "", false).value().kind, TimingKind::kCapture);
  EXPECT_DOUBLE_EQ(parse_timing("2.5", "", false).value().speed, 2.5);
  EXPECT_EQ(parse_timing("", "10Gbps", false).value().rate, Rate::gbps(10));
  EXPECT_EQ(parse_timing("", "", true).value().kind, TimingKind::kTopSpeed);
  for (const char* bad : {"0", "-1", "abc", "2x", "inf", "nan", "2000000"}) {
    auto t = parse_timing(bad, "", false);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.error().message.rfind(std::string("--speed '") + bad + "'", 0), 0u) << t.error().message;
  }
  for (const char* bad : {"10", "0Gbps", "fast", "10GB"}) {
    auto t = parse_timing("", bad, false);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.error().message.rfind(std::string("--rate '") + bad + "'", 0), 0u) << t.error().message;
  }
  auto two = parse_timing("2", "10Gbps", false);
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.error().message.find("at most one timing option"), std::string::npos);
}

TEST(Schedule, CaptureTimingScaledAndKeptInFileOrder) {
  const std::vector<uint64_t> ts{1'000'000, 3'000'000, 2'500'000, 7'000'000};  // ns
  const std::vector<uint32_t> len{100, 100, 100, 100};
  Schedule s = make_schedule(ts, len, Timing{});
  EXPECT_EQ(s.due, (std::vector<Time>{Time::ms(0), Time::ms(2), Time::ms(2), Time::ms(6)}));
  EXPECT_EQ(s.backwards, 1u);  // the third frame is due with the second
  EXPECT_EQ(s.period, Time::ms(6));
  Timing twice;
  twice.speed = 2;
  s = make_schedule(ts, len, twice);
  EXPECT_EQ(s.due, (std::vector<Time>{Time::ms(0), Time::ms(1), Time::ms(1), Time::ms(3)}));
  EXPECT_EQ(s.period, Time::ms(3));
}

TEST(Schedule, LineRateIsBackToBackWireTime) {
  // 1,082 B + FCS + preamble + IFG = 1,106 B: 884.8 ns at 10 Gb/s, 88.48 ns at 100 Gb/s.
  const std::vector<uint64_t> ts{0, 5, 1'000'000'000};
  const std::vector<uint32_t> len{1082, 1082, 40};  // a short frame is padded to 64 B + 20
  Timing t;
  t.kind = TimingKind::kRate;
  t.rate = Rate::gbps(10);
  Schedule s = make_schedule(ts, len, t);
  EXPECT_EQ(s.due, (std::vector<Time>{Time::zero(), Time::ps(884'800), Time::ps(1'769'600)}));
  EXPECT_EQ(s.period, Time::ps(1'769'600 + 84 * 800));
  t.rate = Rate::gbps(100);
  EXPECT_EQ(make_schedule(ts, len, t).due[1], Time::ps(88'480));
}

TEST(Schedule, TopSpeedHasNoDueTimes) {
  Timing t;
  t.kind = TimingKind::kTopSpeed;
  const std::vector<uint64_t> ts{0, 1};
  const std::vector<uint32_t> len{60, 60};
  EXPECT_FALSE(make_schedule(ts, len, t).timed());
}

FrameView view(const std::vector<uint8_t>& b, uint32_t original = 0) {
  return FrameView{0, static_cast<uint32_t>(b.size()),
                   original == 0 ? static_cast<uint32_t>(b.size()) : original, b.data()};
}

TEST(EthernetFrame, EthernetIsSentAsCapturedAndSnappedFramesArePadded) {
  const std::vector<uint8_t> f = capture::testing::test_frame(100, 3);
  std::vector<uint8_t> out;
  ConversionCounts c;
  ASSERT_TRUE(to_ethernet(LinkType::kEthernet, view(f), 1, "x.pcap", out, c).ok());
  EXPECT_EQ(out, f);
  ASSERT_TRUE(to_ethernet(LinkType::kEthernet, view(f, 160), 2, "x.pcap", out, c).ok());
  ASSERT_EQ(out.size(), 160u);
  EXPECT_TRUE(std::equal(f.begin(), f.end(), out.begin()));
  EXPECT_EQ(out[100], 0);
  EXPECT_EQ(out[159], 0);
  EXPECT_EQ(c.padded, 1u);
  EXPECT_EQ(c.padding_bytes, 60u);
  EXPECT_EQ(c.link_header_rebuilt, 0u);
}

TEST(EthernetFrame, CookedAndRawIpGetAnEthernetHeader) {
  // SLL: packet type, ARPHRD, address length 6, address (8), protocol 0x0800, then IPv4.
  std::vector<uint8_t> sll{0, 4, 0, 1, 0, 6, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0, 0, 0x08, 0x00};
  const std::vector<uint8_t> ip{0x45, 1, 2, 3};
  sll.insert(sll.end(), ip.begin(), ip.end());
  std::vector<uint8_t> out;
  ConversionCounts c;
  ASSERT_TRUE(to_ethernet(LinkType::kLinuxSll, view(sll), 1, "x", out, c).ok());
  const std::vector<uint8_t> want{2, 0, 0, 0, 0, 2, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x08, 0x00,
                                  0x45, 1, 2, 3};
  EXPECT_EQ(out, want);
  // SLL2: protocol, reserved, ifindex, ARPHRD, packet type, address length, address (8).
  std::vector<uint8_t> sll2{0x08, 0x00, 0, 0, 0, 0, 0, 1, 0, 1, 4, 6, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0, 0};
  sll2.insert(sll2.end(), ip.begin(), ip.end());
  ASSERT_TRUE(to_ethernet(LinkType::kLinuxSll2, view(sll2), 1, "x", out, c).ok());
  EXPECT_EQ(out, want);
  // Raw IPv6, snapped: the Ethernet header's source is the default one, padding after.
  const std::vector<uint8_t> ip6{0x60, 0, 0, 0};
  ASSERT_TRUE(to_ethernet(LinkType::kRaw, view(ip6, 10), 1, "x", out, c).ok());
  const std::vector<uint8_t> want6{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x86, 0xdd,
                                   0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(out, want6);
  EXPECT_EQ(c.link_header_rebuilt, 3u);
  EXPECT_EQ(c.padded, 1u);
}

TEST(EthernetFrame, RefusesWhatCannotBeEthernetNamingTheFrame) {
  std::vector<uint8_t> out;
  ConversionCounts c;
  const std::vector<uint8_t> f(40, 0x45);
  auto s = to_ethernet(static_cast<LinkType>(105), view(f), 3, "wifi.pcap", out, c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("wifi.pcap: link type"), std::string::npos) << s.message();
  s = to_ethernet(LinkType::kLinuxSll, view(std::vector<uint8_t>(10, 0)), 7, "a.pcap", out, c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("a.pcap: frame 7 has 10 bytes"), std::string::npos) << s.message();
  s = to_ethernet(LinkType::kRaw, view(std::vector<uint8_t>(20, 0x50)), 2, "r.pcap", out, c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("r.pcap: frame 2 is not IPv4 or IPv6"), std::string::npos) << s.message();
  std::vector<uint8_t> llc(20, 0);
  llc[15] = 0x04;  // SLL protocol 0x0004: 802.2 LLC
  s = to_ethernet(LinkType::kLinuxSll, view(llc), 4, "l.pcap", out, c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("frame 4 carries Linux cooked protocol 0x0004"), std::string::npos);
  s = to_ethernet(LinkType::kEthernet, view(std::vector<uint8_t>(13, 0)), 9, "e.pcap", out, c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("e.pcap: frame 9 has 13 bytes"), std::string::npos) << s.message();
}

TEST(LoadedCapture, ReadsTheReferenceCaptureWhole) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  auto c = load_capture(capture::testing::shared_captures_dir() + "/oferby_proxy_roce.pcap");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->frames(), 123u);
  EXPECT_EQ(c->total_bytes, 76'750u - 24 - 123 * 16);  // the file less its headers
  EXPECT_EQ(c->conversion.link_header_rebuilt, 0u);
  EXPECT_EQ(c->ts_ns.size(), 123u);
}

TEST(LoadedCapture, RefusesMissingTruncatedAndEmptyFiles) {
  ScratchDir dir;
  auto c = load_capture(dir.file("missing.pcap"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("missing.pcap"), std::string::npos) << c.error().message;
  {
    auto w = capture::PcapWriter::create(dir.file("empty.pcap"));
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value().close().ok());
  }
  c = load_capture(dir.file("empty.pcap"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("has no frames"), std::string::npos) << c.error().message;
  {
    auto w = capture::PcapWriter::create(dir.file("cut.pcap"));
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w.value().write(Time::zero(), capture::testing::test_frame(100, 1)).ok());
    ASSERT_TRUE(w.value().write(Time::us(1), capture::testing::test_frame(100, 2)).ok());
    ASSERT_TRUE(w.value().close().ok());
  }
  auto bytes = capture::testing::read_file_bytes(dir.file("cut.pcap"));
  bytes.resize(bytes.size() - 30);
  capture::testing::write_file_bytes(dir.file("cut.pcap"), bytes);
  c = load_capture(dir.file("cut.pcap"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("cut.pcap"), std::string::npos) << c.error().message;
}

}  // namespace
}  // namespace rtb::replay
