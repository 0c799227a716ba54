// The HPCC INT trailer: record encoding (HPCC simulator's IntHop widths and units), hop
// pushes into a built frame with its ICRC and lengths untouched, wrap-around unwrapping.
#include <gtest/gtest.h>

#include "tests/wire/test_util.h"
#include "wire/icrc.h"
#include "wire/int_trailer.h"
#include "wire/opcode.h"
#include "wire/parser.h"

namespace rtb::wire {
namespace {

TEST(IntTrailer, RecordFieldsAndUnits) {
  // 1,234,567.891 ns, 1,000,000 bytes sent, 8,000 bytes queued, 100 Gb/s.
  const uint64_t w = encode_int_hop(Time::ps(1'234'567'891), 1'000'000, 8'000, 2);
  const IntHopRecord r = decode_int_hop(w);
  EXPECT_EQ(r.rate_code, 2);
  EXPECT_EQ(r.time_ns, 1'234'567u);          // < 2^24: unchanged
  EXPECT_EQ(r.tx_units, 1'000'000u / 128);   // 7812 (floor)
  EXPECT_EQ(r.qlen_units, 100u);             // 8000 / 80
  // Bit positions: rate 63..61, time 60..37, bytes 36..17, qlen 16..0.
  EXPECT_EQ(w, (uint64_t{2} << 61) | (uint64_t{1'234'567} << 37) | (uint64_t{7812} << 17) | 100u);
  // Wrapping counters and the saturating queue.
  const IntHopRecord big = decode_int_hop(
      encode_int_hop(Time::ns((1ull << 24) + 5), (1ull << 20) * 128 + 256, 20'000'000, 7));
  EXPECT_EQ(big.time_ns, 5u);
  EXPECT_EQ(big.tx_units, 2u);
  EXPECT_EQ(big.qlen_units, (1u << 17) - 1);
  EXPECT_EQ(big.rate_code, 7);
}

TEST(IntTrailer, RateCodes) {
  EXPECT_EQ(int_rate_code(25'000'000'000), 0);
  EXPECT_EQ(int_rate_code(100'000'000'000), 2);
  EXPECT_EQ(int_rate_code(400'000'000'000), 4);
  EXPECT_EQ(int_rate_code(10'000'000'000), 6);
  EXPECT_FALSE(int_rate_code(123'000'000'000).has_value());
}

TEST(IntTrailer, Unwrap) {
  EXPECT_EQ(int_unwrap(100, 150, 24), 150u);
  EXPECT_EQ(int_unwrap((1ull << 24) - 10, 5, 24), (1ull << 24) + 5);  // wrapped once
  EXPECT_EQ(int_unwrap(3ull << 24 | 7, 7, 24), 3ull << 24 | 7);       // unchanged
}

TEST(IntTrailer, PushesFillSlotsAndKeepTheIcrc) {
  FlowSpec s = test::scapy_requester_spec();
  s.int_trailer_bytes = kIntTrailerBytes;
  auto t = FlowTemplate::make(s);
  ASSERT_TRUE(t.ok()) << t.error().message;
  test::FrameBuffer b(256);
  const FrameSpan f = t->build_data(
      DataFields{op::kWriteMiddle, 9, 256, false, false, Ecn::Ect0, {}, 0}, b.payload());
  ASSERT_TRUE(f.ok());
  const std::vector<uint8_t> before(f.data, f.data + f.len);
  uint8_t* end = f.data + f.len;
  std::optional<IntDescriptor> d = read_int_descriptor(end, f.len);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->slots, kIntMaxHops);
  EXPECT_EQ(d->hops, 0);
  EXPECT_EQ(end[-4], 'I');
  EXPECT_EQ(end[-3], 'N');
  for (uint32_t h = 0; h < kIntMaxHops; ++h)
    ASSERT_TRUE(push_int_hop(end, f.len, encode_int_hop(Time::ns(1000 + h), 128 * h, 80 * h, 2)));
  EXPECT_FALSE(push_int_hop(end, f.len, 1));  // all five slots taken
  d = read_int_descriptor(end, f.len);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->hops, kIntMaxHops);
  for (uint32_t h = 0; h < kIntMaxHops; ++h) {
    const IntHopRecord r = decode_int_hop(int_hop_word(end, *d, h));
    EXPECT_EQ(r.time_ns, 1000 + h);
    EXPECT_EQ(r.tx_units, h);
    EXPECT_EQ(r.qlen_units, h);
  }
  // Only trailer bytes changed; the ICRC (before the trailer) still matches a full recompute.
  for (uint32_t i = 0; i + kIntTrailerBytes < f.len; ++i) ASSERT_EQ(f.data[i], before[i]) << i;
  ParseOptions o;
  o.check_icrc = true;
  o.int_dscp = s.dscp;
  o.int_trailer_bytes = kIntTrailerBytes;
  ParsedFrame p;
  ASSERT_EQ(parse_frame(f.data, f.len, o, p), ParseError::Ok);
  EXPECT_EQ(p.int_trailer_offset, f.len - kIntTrailerBytes);
  EXPECT_EQ(icrc_full(f.data + 14, p.int_trailer_offset - 4 - 14), p.icrc);
}

TEST(IntTrailer, NotATrailer) {
  uint8_t bytes[44] = {};
  EXPECT_FALSE(read_int_descriptor(bytes + 44, 44).has_value());  // no magic
  init_int_trailer(bytes, 44);
  EXPECT_TRUE(read_int_descriptor(bytes + 44, 44).has_value());
  EXPECT_FALSE(read_int_descriptor(bytes + 44, 40).has_value());  // slots outside the packet
  EXPECT_FALSE(push_int_hop(bytes + 44, 3, 1));
}

}  // namespace
}  // namespace rtb::wire
