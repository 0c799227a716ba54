// Every reference capture in $ROCETB_SHARED/captures reads as its README says.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "capture_test_util.h"
#include "pcap/capture_reader.h"

namespace rtb::capture {
namespace {

std::string ref(const std::string& name) { return testing::shared_captures_dir() + "/" + name; }

std::vector<CapturedFrame> read_ref(const std::string& name) {
  auto got = read_all(ref(name));
  EXPECT_TRUE(got) << got.error().message;
  return got ? std::move(got).value() : std::vector<CapturedFrame>{};
}

TEST(ReferenceCaptures, EveryFileInTheFolderReads) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const std::map<std::string, size_t> expected = {
      {"oferby_proxy_roce.pcap", 123},
      {"external_roce_vectors.pcap", 3},
      {"external_mlx_article_cnp_rawip.pcap", 1},
      {"scapy_roce_reference.pcap", 5},
      {"pfc_reference.pcap", 2},
  };
  size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::shared_captures_dir())) {
    const auto ext = entry.path().extension();
    if (ext != ".pcap" && ext != ".pcapng") continue;
    const auto name = entry.path().filename().string();
    SCOPED_TRACE(name);
    auto got = read_all(entry.path().string());
    ASSERT_TRUE(got) << got.error().message;
    auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << "new capture without an expected frame count";
    EXPECT_EQ(got.value().size(), it->second);
    for (const auto& f : got.value()) {
      EXPECT_EQ(f.captured_len, f.bytes.size());
      EXPECT_LE(f.captured_len, f.original_len);
    }
    ++seen;
  }
  EXPECT_EQ(seen, expected.size());
}

TEST(ReferenceCaptures, HardwareRoceIsEthernetIpv4) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto frames = read_ref("oferby_proxy_roce.pcap");
  ASSERT_EQ(frames.size(), 123u);
  size_t roce = 0;
  for (const auto& f : frames) {
    EXPECT_EQ(f.link, LinkType::kEthernet);
    // EtherType IPv4, protocol UDP, destination port 4791.
    if (f.bytes.size() >= 38 && f.bytes[12] == 0x08 && f.bytes[13] == 0x00 &&
        f.bytes[23] == 17 && f.bytes[36] == 0x12 && f.bytes[37] == 0xb7) {
      ++roce;
    }
  }
  EXPECT_EQ(roce, 105u);
}

TEST(ReferenceCaptures, ScapyFramesTenMicrosecondsApart) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto frames = read_ref("scapy_roce_reference.pcap");
  ASSERT_EQ(frames.size(), 5u);
  const uint32_t lengths[] = {90, 330, 314, 62, 74};
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(frames[i].ts_ns, 1'700'000'000'000'000'000ULL + 10'000 * i);
    EXPECT_EQ(frames[i].ts, Time::us(10) * i);  // origin = first frame
    EXPECT_EQ(frames[i].captured_len, lengths[i]);
    EXPECT_EQ(frames[i].link, LinkType::kEthernet);
  }
  EXPECT_EQ(frames[2].bytes[15], 0x6b);  // frame 3 carries CE (tos 0x6b)
}

TEST(ReferenceCaptures, RawIpCnpHasLinkType101) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto frames = read_ref("external_mlx_article_cnp_rawip.pcap");
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].link, LinkType::kRaw);
  EXPECT_EQ(link_type_name(frames[0].link), "raw IP (101)");
  ASSERT_GE(frames[0].bytes.size(), 20u);
  EXPECT_EQ(frames[0].bytes[0], 0x45);  // IPv4, 20-byte header: no Ethernet header
  EXPECT_EQ(frames[0].bytes[1], 0x89);  // tos per the README
}

TEST(ReferenceCaptures, PfcFramesArePaddedMacControl) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const auto frames = read_ref("pfc_reference.pcap");
  ASSERT_EQ(frames.size(), 2u);
  for (const auto& f : frames) {
    ASSERT_EQ(f.bytes.size(), 60u);
    EXPECT_EQ(f.bytes[0], 0x01);
    EXPECT_EQ(f.bytes[12], 0x88);
    EXPECT_EQ(f.bytes[13], 0x08);
  }
  // Opcode at 14, class-enable vector at 16, quanta C0..C7 from 18: C3 at 24.
  EXPECT_EQ(frames[0].bytes[24], 0xff);  // C3 quanta 65535 (XOFF)
  EXPECT_EQ(frames[0].bytes[25], 0xff);
  EXPECT_EQ(frames[1].bytes[24], 0x00);  // XON
  EXPECT_EQ(frames[1].bytes[17], 0x08);  // CEV: C3
}

TEST(ReferenceCaptures, PublishedVectorsAreThree) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  EXPECT_EQ(read_ref("external_roce_vectors.pcap").size(), 3u);
}

}  // namespace
}  // namespace rtb::capture
