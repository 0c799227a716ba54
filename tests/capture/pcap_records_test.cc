// CaptureReader walks classic pcap files itself (pcap/pcap_records.h): every frame must be
// what libpcap reads from the same file, and its errors libpcap's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pcap.h>

#include <cstring>
#include <filesystem>

#include "capture_test_util.h"
#include "pcap/capture_reader.h"

namespace rtb::capture {
namespace {

using ::testing::HasSubstr;

struct Frame {
  uint64_t ts_ns;
  uint32_t caplen, len;
  std::vector<uint8_t> bytes;
  bool operator==(const Frame&) const = default;
};

std::vector<Frame> with_libpcap(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err);
  EXPECT_NE(p, nullptr) << err;
  std::vector<Frame> out;
  pcap_pkthdr* h;
  const u_char* d;
  while (p != nullptr && pcap_next_ex(p, &h, &d) == 1) {
    out.push_back({uint64_t(h->ts.tv_sec) * 1'000'000'000 + uint64_t(h->ts.tv_usec), h->caplen,
                   h->len, std::vector<uint8_t>(d, d + h->caplen)});
  }
  if (p != nullptr) pcap_close(p);
  return out;
}

std::vector<Frame> with_reader(const std::string& path) {
  auto r = CaptureReader::open(path);
  EXPECT_TRUE(r) << r.error().message;
  std::vector<Frame> out;
  FrameView v;
  while (r) {
    auto more = r.value().next_view(v);
    if (!more || !more.value()) break;
    out.push_back({v.ts_ns, v.captured_len, v.original_len,
                   std::vector<uint8_t>(v.data, v.data + v.captured_len)});
  }
  return out;
}

TEST(PcapRecords, EveryReferenceCaptureAsLibpcapReadsIt) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(testing::shared_captures_dir())) {
    if (e.path().extension() != ".pcap") continue;
    SCOPED_TRACE(e.path().string());
    const auto want = with_libpcap(e.path().string());
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(with_reader(e.path().string()), want);
    ++files;
  }
  EXPECT_GE(files, 5u);
}

// Microsecond and nanosecond files, both byte orders, a record longer than the snap length.
TEST(PcapRecords, ByteOrdersUnitsAndSnapLength) {
  testing::ScratchDir dir;
  const std::vector<uint8_t> frame = testing::test_frame(90, 3);
  for (uint32_t magic : {0xA1B2C3D4u, 0xA1B23C4Du}) {
    for (bool swap : {false, true}) {
      auto le = [&](uint32_t v) {
        v = swap ? __builtin_bswap32(v) : v;
        std::vector<uint8_t> b(4);
        std::memcpy(b.data(), &v, 4);
        return b;
      };
      std::vector<uint8_t> f;
      auto put = [&](const std::vector<uint8_t>& b) { f.insert(f.end(), b.begin(), b.end()); };
      put(le(magic));
      const uint16_t ver[2] = {2, 4};
      for (uint16_t x : ver) {
        const uint16_t y = swap ? __builtin_bswap16(x) : x;
        f.push_back(static_cast<uint8_t>(y));
        f.push_back(static_cast<uint8_t>(y >> 8));
      }
      put(le(0));
      put(le(0));
      put(le(64));  // snap length 64: the 90-byte record is cut
      put(le(1));
      for (uint32_t i = 0; i < 2; ++i) {
        put(le(1'700'000'000 + i));
        put(le(123 + i));
        put(le(90));
        put(le(90));
        put(frame);
      }
      const std::string path = dir.file("f.pcap");
      testing::write_file_bytes(path, f);
      SCOPED_TRACE(::testing::Message() << std::hex << magic << (swap ? " swapped" : ""));
      const auto want = with_libpcap(path);
      ASSERT_EQ(want.size(), 2u);
      EXPECT_EQ(want[0].caplen, 64u);
      EXPECT_EQ(with_reader(path), want);
    }
  }
}

TEST(PcapRecords, TruncatedAndOversizedRecordsAsLibpcapSaysThem) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  testing::ScratchDir dir;
  const std::string ref = testing::shared_captures_dir() + "/scapy_roce_reference.pcap";
  std::vector<uint8_t> f = testing::read_file_bytes(ref);
  const std::string cut = dir.file("cut.pcap");
  testing::write_file_bytes(cut, std::vector<uint8_t>(f.begin(), f.begin() + 24 + 16 + 90 + 5));
  auto r = CaptureReader::open(cut);
  ASSERT_TRUE(r);
  FrameView v;
  ASSERT_TRUE(r.value().next_view(v).value());
  auto e = r.value().next_view(v);
  ASSERT_FALSE(e);
  EXPECT_THAT(e.error().message, HasSubstr("frame 2: truncated dump file; tried to read 16 header bytes, only got 5"));
  const uint32_t huge = 300000;
  std::memcpy(f.data() + 24 + 8, &huge, 4);
  const std::string big = dir.file("big.pcap");
  testing::write_file_bytes(big, f);
  auto b = CaptureReader::open(big);
  ASSERT_TRUE(b);
  auto eb = b.value().next_view(v);
  ASSERT_FALSE(eb);
  EXPECT_THAT(eb.error().message, HasSubstr("frame 1: invalid packet capture length 300000, bigger than maximum of 262144"));
}

}  // namespace
}  // namespace rtb::capture
