// Write with our writers, read back with our reader: bytes, lengths, link types and
// timestamps to the nanosecond.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "capture_test_util.h"
#include "pcap/capture_reader.h"
#include "pcap/pcap_writer.h"
#include "pcap/pcapng_writer.h"

namespace rtb::capture {
namespace {

using testing::ScratchDir;
using testing::test_frame;

struct Sent {
  Time ts;
  std::vector<uint8_t> bytes;
};

// Odd sizes exercise the 32-bit block padding; odd picosecond times exercise truncation.
std::vector<Sent> assorted_frames() {
  std::vector<Sent> v;
  const size_t sizes[] = {1, 2, 3, 60, 61, 62, 63, 64, 1106, 1500, 4178, 9000};
  uint64_t t_ps = 0;
  uint8_t seed = 1;
  for (size_t n : sizes) {
    t_ps += 88'480 + 1'234'567 * seed;  // irregular steps with sub-ns parts
    v.push_back({Time::ps(t_ps), test_frame(n, seed++)});
  }
  return v;
}

void expect_same(const std::vector<Sent>& sent, const std::vector<CapturedFrame>& got,
                 LinkType link) {
  ASSERT_EQ(got.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(got[i].ts_ns, sent[i].ts.ns());
    EXPECT_EQ(got[i].ts, Time::ns(sent[i].ts.ns()));
    EXPECT_EQ(got[i].link, link);
    EXPECT_EQ(got[i].captured_len, sent[i].bytes.size());
    EXPECT_EQ(got[i].original_len, sent[i].bytes.size());
    EXPECT_EQ(got[i].bytes, sent[i].bytes);
  }
}

TEST(PcapngRoundTrip, TwoInterfacesTimestampsToTheNanosecond) {
  ScratchDir dir;
  const auto path = dir.file("two.pcapng");
  auto w = PcapngWriter::create(path);
  ASSERT_TRUE(w) << w.error().message;
  const uint32_t a = w.value().add_interface("host0->sw0");
  const uint32_t b = w.value().add_interface("sw0->host1");
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  const auto sent = assorted_frames();
  for (size_t i = 0; i < sent.size(); ++i) {
    const auto comment = i % 3 == 0 ? std::string("frame ") + std::to_string(i) : "";
    ASSERT_TRUE(w.value().write(i % 2 == 0 ? a : b, sent[i].ts, sent[i].bytes, comment));
  }
  EXPECT_EQ(w.value().frames_written(), sent.size());
  ASSERT_TRUE(w.value().close());

  auto got = read_all(path, {.origin_ns = 0});
  ASSERT_TRUE(got) << got.error().message;
  expect_same(sent, got.value(), LinkType::kEthernet);
}

class PcapngLinkTypes : public ::testing::TestWithParam<LinkType> {};

TEST_P(PcapngLinkTypes, LinkTypeKept) {
  ScratchDir dir;
  const auto path = dir.file("link.pcapng");
  auto w = PcapngWriter::create(path);
  ASSERT_TRUE(w);
  const uint32_t i = w.value().add_interface("tap", GetParam());
  const auto sent = assorted_frames();
  for (const auto& s : sent) ASSERT_TRUE(w.value().write(i, s.ts, s.bytes));
  ASSERT_TRUE(w.value().close());
  auto got = read_all(path, {.origin_ns = 0});
  ASSERT_TRUE(got) << got.error().message;
  expect_same(sent, got.value(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(All, PcapngLinkTypes,
                         ::testing::Values(LinkType::kEthernet, LinkType::kRaw,
                                           LinkType::kIpv4));

class PcapLinkTypes : public ::testing::TestWithParam<LinkType> {};

TEST_P(PcapLinkTypes, NanosecondPcapRoundTrip) {
  ScratchDir dir;
  const auto path = dir.file("link.pcap");
  auto w = PcapWriter::create(path, GetParam());
  ASSERT_TRUE(w) << w.error().message;
  const auto sent = assorted_frames();
  for (const auto& s : sent) ASSERT_TRUE(w.value().write(s.ts, s.bytes));
  ASSERT_TRUE(w.value().close());
  const auto raw = testing::read_file_bytes(path);
  ASSERT_GE(raw.size(), 4u);
  uint32_t magic = 0;
  std::memcpy(&magic, raw.data(), 4);
  EXPECT_EQ(magic, kPcapNanosecondMagic);
  auto got = read_all(path, {.origin_ns = 0});
  ASSERT_TRUE(got) << got.error().message;
  expect_same(sent, got.value(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(All, PcapLinkTypes,
                         ::testing::Values(LinkType::kEthernet, LinkType::kRaw,
                                           LinkType::kIpv4));

TEST(PcapngRoundTrip, SnaplenCutsButKeepsOriginalLength) {
  ScratchDir dir;
  const auto path = dir.file("snap.pcapng");
  auto w = PcapngWriter::create(path);
  ASSERT_TRUE(w);
  const uint32_t i = w.value().add_interface("cut", LinkType::kEthernet, 64);
  const auto frame = test_frame(1500, 9);
  ASSERT_TRUE(w.value().write(i, Time::us(1), frame));
  ASSERT_TRUE(w.value().write(i, Time::us(2), test_frame(33, 3)));
  ASSERT_TRUE(w.value().close());
  auto got = read_all(path);
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_EQ(got.value().size(), 2u);
  EXPECT_EQ(got.value()[0].captured_len, 64u);
  EXPECT_EQ(got.value()[0].original_len, 1500u);
  EXPECT_EQ(got.value()[0].bytes, std::vector<uint8_t>(frame.begin(), frame.begin() + 64));
  EXPECT_EQ(got.value()[1].captured_len, 33u);
}

TEST(PcapRoundTrip, SnaplenCutsButKeepsOriginalLength) {
  ScratchDir dir;
  const auto path = dir.file("snap.pcap");
  auto w = PcapWriter::create(path, LinkType::kEthernet, 100);
  ASSERT_TRUE(w);
  ASSERT_TRUE(w.value().write(Time::us(1), test_frame(1000, 1)));
  ASSERT_TRUE(w.value().close());
  auto got = read_all(path);
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_EQ(got.value().size(), 1u);
  EXPECT_EQ(got.value()[0].captured_len, 100u);
  EXPECT_EQ(got.value()[0].original_len, 1000u);
}

TEST(CaptureTime, WriterOriginAndReaderDefaultOrigin) {
  ScratchDir dir;
  const auto path = dir.file("origin.pcapng");
  constexpr uint64_t kOrigin = 1'700'000'000ULL * 1'000'000'000ULL;
  auto w = PcapngWriter::create(path, {.origin_ns = kOrigin});
  ASSERT_TRUE(w);
  const uint32_t i = w.value().add_interface("x");
  for (uint64_t k = 0; k < 4; ++k) {
    ASSERT_TRUE(w.value().write(i, Time::us(5) + Time::us(10) * k, test_frame(60, 0)));
  }
  ASSERT_TRUE(w.value().close());

  auto first_is_zero = read_all(path);  // origin = first frame
  ASSERT_TRUE(first_is_zero) << first_is_zero.error().message;
  auto from_writer_origin = read_all(path, {.origin_ns = kOrigin});
  ASSERT_TRUE(from_writer_origin);
  for (uint64_t k = 0; k < 4; ++k) {
    EXPECT_EQ(first_is_zero.value()[k].ts_ns, kOrigin + 5'000 + 10'000 * k);
    EXPECT_EQ(first_is_zero.value()[k].ts, Time::us(10) * k);
    EXPECT_EQ(from_writer_origin.value()[k].ts, Time::us(5) + Time::us(10) * k);
  }
}

TEST(CaptureReader, StreamingNextReportsEndOfFile) {
  ScratchDir dir;
  const auto path = dir.file("stream.pcap");
  auto w = PcapWriter::create(path);
  ASSERT_TRUE(w);
  ASSERT_TRUE(w.value().write(Time::ns(7), test_frame(70, 2)));
  ASSERT_TRUE(w.value().close());
  auto r = CaptureReader::open(path, {.origin_ns = 0});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r.value().link(), LinkType::kEthernet);
  CapturedFrame f;
  auto more = r.value().next(f);
  ASSERT_TRUE(more);
  EXPECT_TRUE(more.value());
  EXPECT_EQ(f.ts, Time::ns(7));
  more = r.value().next(f);
  ASSERT_TRUE(more);
  EXPECT_FALSE(more.value());
  EXPECT_EQ(r.value().frames_read(), 1u);
}

TEST(PcapngRoundTrip, ManyFramesBeyondTheWriteBuffer) {
  ScratchDir dir;
  const auto path = dir.file("many.pcapng");
  auto w = PcapngWriter::create(path);
  ASSERT_TRUE(w);
  const uint32_t i = w.value().add_interface("bulk");
  constexpr int kFrames = 2000;  // about 2.2 MB: several buffer flushes
  for (int k = 0; k < kFrames; ++k) {
    ASSERT_TRUE(w.value().write(i, Time::ns(100) * static_cast<uint64_t>(k),
                                test_frame(1106, static_cast<uint8_t>(k))));
  }
  ASSERT_TRUE(w.value().close());
  auto got = read_all(path, {.origin_ns = 0});
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_EQ(got.value().size(), static_cast<size_t>(kFrames));
  for (int k = 0; k < kFrames; k += 97) {
    EXPECT_EQ(got.value()[k].bytes, test_frame(1106, static_cast<uint8_t>(k)));
    EXPECT_EQ(got.value()[k].ts, Time::ns(100) * static_cast<uint64_t>(k));
  }
}

TEST(FileSink, LargeAppendBypassesTheBuffer) {
  ScratchDir dir;
  const auto path = dir.file("big.bin");
  auto s = FileSink::create(path);
  ASSERT_TRUE(s);
  const auto small = test_frame(10, 1);
  const auto big = test_frame(600'000, 2);
  ASSERT_TRUE(s.value().append(small));
  ASSERT_TRUE(s.value().append(big));
  ASSERT_TRUE(s.value().append_zeros(3));
  ASSERT_TRUE(s.value().close());
  auto expected = small;
  expected.insert(expected.end(), big.begin(), big.end());
  expected.insert(expected.end(), 3, 0);
  EXPECT_EQ(testing::read_file_bytes(path), expected);
}

}  // namespace
}  // namespace rtb::capture
