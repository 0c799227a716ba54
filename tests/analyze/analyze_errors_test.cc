// Truncated, corrupt and unreadable captures: a clear error naming the file (and the
// frame), the results of every frame before the fault, no crash.
#include <gtest/gtest.h>

#include <cstring>

#include "analyze/analyze_capture.h"
#include "analyze/report.h"
#include "capture_test_util.h"

namespace rtb::analyze {
namespace {

namespace ct = capture::testing;

std::vector<uint8_t> hiroce() {
  return ct::read_file_bytes(ct::shared_captures_dir() + "/oferby_proxy_roce.pcap");
}

// Offset of record `n` (0-based) in a classic pcap file.
size_t record_offset(const std::vector<uint8_t>& f, size_t n) {
  size_t off = 24;
  for (size_t i = 0; i < n; ++i) {
    uint32_t incl = 0;
    std::memcpy(&incl, f.data() + off + 8, 4);
    off += 16 + incl;
  }
  return off;
}

TEST(AnalyzeErrors, TruncatedFileGivesPartialResults) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ct::ScratchDir dir;
  std::vector<uint8_t> f = hiroce();
  f.resize(record_offset(f, 50) + 16 + 10);  // frame 51 cut inside its bytes
  ct::write_file_bytes(dir.file("cut.pcap"), f);
  auto a = analyze_capture(dir.file("cut.pcap"), {});
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_TRUE(a.value().error);
  EXPECT_NE(a.value().error->find("cut.pcap"), std::string::npos) << *a.value().error;
  EXPECT_NE(a.value().error->find("frame 51"), std::string::npos) << *a.value().error;
  EXPECT_NE(a.value().error->find("50 frames"), std::string::npos) << *a.value().error;
  EXPECT_EQ(a.value().analyzer.totals().frames, 50u);
  ASSERT_TRUE(write_results(dir.file("out"), a.value()));
  const auto summary = ct::read_file_bytes(dir.file("out/summary.json"));
  const std::string text(summary.begin(), summary.end());
  EXPECT_NE(text.find("\"complete\": false"), std::string::npos);
  EXPECT_NE(text.find("\"frames\": 50"), std::string::npos);
}

TEST(AnalyzeErrors, TruncatedRecordHeader) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ct::ScratchDir dir;
  std::vector<uint8_t> f = hiroce();
  f.resize(record_offset(f, 3) + 7);
  ct::write_file_bytes(dir.file("cut.pcap"), f);
  auto a = analyze_capture(dir.file("cut.pcap"), {});
  ASSERT_TRUE(a);
  ASSERT_TRUE(a.value().error);
  EXPECT_EQ(a.value().analyzer.totals().frames, 3u);
}

TEST(AnalyzeErrors, CorruptRecordLength) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ct::ScratchDir dir;
  std::vector<uint8_t> f = hiroce();
  const size_t at = record_offset(f, 10);
  const uint32_t huge = 0x7fffffff;
  std::memcpy(f.data() + at + 8, &huge, 4);
  ct::write_file_bytes(dir.file("bad.pcap"), f);
  auto a = analyze_capture(dir.file("bad.pcap"), {});
  ASSERT_TRUE(a);
  ASSERT_TRUE(a.value().error);
  EXPECT_NE(a.value().error->find("frame 11"), std::string::npos) << *a.value().error;
  EXPECT_EQ(a.value().analyzer.totals().frames, 10u);
}

TEST(AnalyzeErrors, NotACaptureOrMissing) {
  ct::ScratchDir dir;
  ct::write_file_bytes(dir.file("junk.pcap"), std::vector<uint8_t>(100, 0x42));
  auto a = analyze_capture(dir.file("junk.pcap"), {});
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("junk.pcap"), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("expected a readable pcap or pcapng"), std::string::npos);
  auto m = analyze_capture(dir.file("missing.pcap"), {});
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("missing.pcap"), std::string::npos);
}

TEST(AnalyzeErrors, UnsupportedLinkType) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ct::ScratchDir dir;
  std::vector<uint8_t> f = hiroce();
  f.resize(24);
  const uint32_t usb = 189;  // LINKTYPE_USB_LINUX
  std::memcpy(f.data() + 20, &usb, 4);
  ct::write_file_bytes(dir.file("usb.pcap"), f);
  auto a = analyze_capture(dir.file("usb.pcap"), {});
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("link type 189 is not supported"), std::string::npos)
      << a.error().message;
}

TEST(AnalyzeErrors, CorruptFramesAreCountedNotFatal) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  ct::ScratchDir dir;
  std::vector<uint8_t> f = hiroce();
  // Every RoCE frame's BTH TVer set to 15: all 105 are malformed, none stops the read.
  size_t off = 24;
  while (off + 16 <= f.size()) {
    uint32_t incl = 0;
    std::memcpy(&incl, f.data() + off + 8, 4);
    uint8_t* d = f.data() + off + 16;
    if (incl > 43 && d[36] == 0x12 && d[37] == 0xb7) d[43] |= 0x0f;
    off += 16 + incl;
  }
  ct::write_file_bytes(dir.file("tver.pcap"), f);
  auto a = analyze_capture(dir.file("tver.pcap"), {});
  ASSERT_TRUE(a);
  EXPECT_FALSE(a.value().error);
  const Totals& t = a.value().analyzer.totals();
  EXPECT_EQ(t.malformed, 105u);
  EXPECT_EQ(t.malformed_by[static_cast<size_t>(Malformed::kBadTransportVersion)], 105u);
  EXPECT_EQ(t.roce, 0u);
}

TEST(AnalyzeErrors, FromMemoryAsFromFile) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const std::vector<uint8_t> f = hiroce();
  auto a = analyze_capture_memory(f.data(), f.size(), "hiroce", {});
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a.value().analyzer.totals().roce, 105u);
  EXPECT_EQ(a.value().analyzer.totals().icrc_valid, 105u);
}

}  // namespace
}  // namespace rtb::analyze
