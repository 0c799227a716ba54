// Bad input gives an error naming the file, what was wrong and what was expected.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "capture_test_util.h"
#include "pcap/capture_reader.h"
#include "pcap/pcap_writer.h"
#include "pcap/pcapng_writer.h"

namespace rtb::capture {
namespace {

using ::testing::HasSubstr;
using testing::ScratchDir;
using testing::test_frame;

// Writes a capture of three 100-byte frames and returns its bytes.
std::vector<uint8_t> three_frame_capture(const std::string& path, bool ng) {
  if (ng) {
    auto w = PcapngWriter::create(path).value();
    const uint32_t i = w.add_interface("x");
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(w.write(i, Time::us(1), test_frame(100, 1)));
    EXPECT_TRUE(w.close());
  } else {
    auto w = PcapWriter::create(path).value();
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(w.write(Time::us(1), test_frame(100, 1)));
    EXPECT_TRUE(w.close());
  }
  return testing::read_file_bytes(path);
}

TEST(CaptureReaderErrors, MissingFile) {
  auto r = CaptureReader::open("/nonexistent/folder/x.pcap");
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("/nonexistent/folder/x.pcap"));
  EXPECT_THAT(r.error().message, HasSubstr("No such file"));
  EXPECT_THAT(r.error().message, HasSubstr("expected a readable pcap or pcapng file"));
}

TEST(CaptureReaderErrors, NotACapture) {
  ScratchDir dir;
  const auto path = dir.file("notes.txt");
  const std::string text = "this is a text file, not a capture, long enough for a header\n";
  testing::write_file_bytes(path, {text.begin(), text.end()});
  auto r = read_all(path);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr(path));
  EXPECT_THAT(r.error().message, HasSubstr("unknown file format"));
  EXPECT_THAT(r.error().message, HasSubstr("pcap or pcapng"));
}

TEST(CaptureReaderErrors, EmptyFile) {
  ScratchDir dir;
  const auto path = dir.file("empty.pcap");
  testing::write_file_bytes(path, {});
  auto r = read_all(path);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr(path));
  EXPECT_THAT(r.error().message, HasSubstr("(0 bytes)"));
}

class TruncatedCapture : public ::testing::TestWithParam<bool> {};

TEST_P(TruncatedCapture, CutInsideTheLastFrame) {
  ScratchDir dir;
  const auto path = dir.file("cut");
  auto bytes = three_frame_capture(path, GetParam());
  bytes.resize(bytes.size() - 40);
  testing::write_file_bytes(path, bytes);
  auto r = CaptureReader::open(path);
  ASSERT_TRUE(r) << r.error().message;
  CapturedFrame f;
  for (int k = 0; k < 2; ++k) {
    auto more = r.value().next(f);
    ASSERT_TRUE(more) << more.error().message;
    EXPECT_TRUE(more.value());
  }
  auto third = r.value().next(f);
  ASSERT_FALSE(third);
  EXPECT_THAT(third.error().message, HasSubstr(path));
  EXPECT_THAT(third.error().message, HasSubstr("frame 3"));
  EXPECT_THAT(third.error().message, HasSubstr("truncated"));
  EXPECT_FALSE(read_all(path));
}

TEST_P(TruncatedCapture, CutInsideTheFileHeader) {
  ScratchDir dir;
  const auto path = dir.file("cut");
  auto bytes = three_frame_capture(path, GetParam());
  bytes.resize(10);
  testing::write_file_bytes(path, bytes);
  auto r = read_all(path);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr(path));
  EXPECT_THAT(r.error().message, HasSubstr("(10 bytes)"));
  EXPECT_THAT(r.error().message, HasSubstr("expected a readable pcap or pcapng file"));
}

INSTANTIATE_TEST_SUITE_P(PcapAndPcapng, TruncatedCapture, ::testing::Values(false, true));

TEST(CaptureReaderErrors, FrameBeforeTheOriginIsNamed) {
  ScratchDir dir;
  const auto path = dir.file("order.pcap");
  auto w = PcapWriter::create(path).value();
  ASSERT_TRUE(w.write(Time::us(5), test_frame(60, 0)));
  ASSERT_TRUE(w.write(Time::us(3), test_frame(60, 0)));  // out of order
  ASSERT_TRUE(w.close());
  auto r = read_all(path);  // origin = first frame, 5 us
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("frame 2"));
  EXPECT_THAT(r.error().message, HasSubstr("origin_ns"));
  EXPECT_TRUE(read_all(path, {.origin_ns = 0}));
}

TEST(CaptureReaderErrors, EpochTimesNeedAnOrigin) {
  ScratchDir dir;
  const auto path = dir.file("epoch.pcap");
  auto w = PcapWriter::create(path, LinkType::kEthernet, kDefaultSnaplen,
                              1'700'000'000ULL * 1'000'000'000ULL).value();
  ASSERT_TRUE(w.write(Time::zero(), test_frame(60, 0)));
  ASSERT_TRUE(w.close());
  auto r = read_all(path, {.origin_ns = 0});  // 54 years do not fit in picoseconds
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("frame 1"));
  EXPECT_TRUE(read_all(path));
}

TEST(CaptureReaderErrors, MixedLinkTypesInOnePcapngAreRejectedByLibpcap) {
  ScratchDir dir;
  const auto path = dir.file("mixed.pcapng");
  auto w = PcapngWriter::create(path).value();
  const uint32_t eth = w.add_interface("eth");
  const uint32_t raw = w.add_interface("raw", LinkType::kRaw);
  ASSERT_TRUE(w.write(eth, Time::us(1), test_frame(60, 0)));
  ASSERT_TRUE(w.write(raw, Time::us(2), test_frame(40, 0)));
  ASSERT_TRUE(w.close());
  auto r = read_all(path);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr(path));
  EXPECT_THAT(r.error().message, HasSubstr("different from the type of the first interface"));
}

TEST(CaptureWriterErrors, CannotCreate) {
  auto ng = PcapngWriter::create("/nonexistent/folder/a.pcapng");
  ASSERT_FALSE(ng);
  EXPECT_THAT(ng.error().message, HasSubstr("/nonexistent/folder/a.pcapng"));
  EXPECT_THAT(ng.error().message, HasSubstr("No such file or directory"));
  auto p = PcapWriter::create("/nonexistent/folder/a.pcap");
  ASSERT_FALSE(p);
  EXPECT_THAT(p.error().message, HasSubstr("/nonexistent/folder/a.pcap"));
}

TEST(CaptureWriterErrors, DiskFullIsReportedAndSticks) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "/dev/full is missing";
  auto w = PcapngWriter::create("/dev/full");
  ASSERT_TRUE(w) << w.error().message;  // buffered: nothing written yet
  const uint32_t i = w.value().add_interface("x");
  Status s;
  for (int k = 0; k < 1000 && s; ++k) s = w.value().write(i, Time::us(1), test_frame(1500, 0));
  if (s) s = w.value().close();
  ASSERT_FALSE(s);
  EXPECT_THAT(s.message(), HasSubstr("/dev/full"));
  EXPECT_THAT(s.message(), HasSubstr("No space left on device"));
  EXPECT_FALSE(w.value().write(i, Time::us(2), test_frame(60, 0)));
  EXPECT_FALSE(w.value().close());

  auto p = PcapWriter::create("/dev/full");
  ASSERT_TRUE(p);
  ASSERT_TRUE(p.value().write(Time::us(1), test_frame(60, 0)));
  Status c = p.value().close();
  EXPECT_THAT(c.message(), HasSubstr("No space left on device"));
}

TEST(CaptureWriterErrors, UnknownInterface) {
  ScratchDir dir;
  auto w = PcapngWriter::create(dir.file("x.pcapng")).value();
  const uint32_t i = w.add_interface("only");
  Status s = w.write(i + 1, Time::zero(), test_frame(60, 0));
  ASSERT_FALSE(s);
  EXPECT_THAT(s.message(), HasSubstr("interface 1 does not exist"));
}

TEST(CaptureWriterErrors, PcapSnaplenZeroIsRejected) {
  ScratchDir dir;
  auto w = PcapWriter::create(dir.file("x.pcap"), LinkType::kEthernet, 0);
  ASSERT_FALSE(w);
  EXPECT_THAT(w.error().message, HasSubstr("snaplen 0"));
}

}  // namespace
}  // namespace rtb::capture
