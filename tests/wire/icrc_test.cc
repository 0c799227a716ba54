// ICRC: known answers (reference §2.4, captures README) and the look-up tables against
// the full computation.
#include <gtest/gtest.h>

#include <vector>

#include "core/rng.h"
#include "pcap/capture_reader.h"
#include "tests/wire/test_util.h"
#include "wire/icrc.h"
#include "wire/icrc_tables.h"
#include "wire/payload_pattern.h"

namespace rtb::wire {
namespace {

using test::hex;

// ICRC of a frame whose IPv4 header starts at `l3` and whose last 4 bytes are the ICRC.
uint32_t icrc_of(const std::vector<uint8_t>& f, uint32_t l3) {
  return icrc_full(f.data() + l3, static_cast<uint32_t>(f.size()) - l3 - kIcrcBytes);
}
uint32_t wire_icrc(const std::vector<uint8_t>& f) { return load_icrc(f.data() + f.size() - 4); }

TEST(Icrc, Crc32CheckValue) {
  const uint8_t s[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(crc32_eth(s, 9), 0xCBF43926u);  // CRC-32/IEEE check value
  const uint8_t ff[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(crc32_eth(ff, 8), 0x2144DF1Cu);  // reference §2.3
}

TEST(Icrc, ConnectXCnpVector) {
  // Reference §2.4 (a): CRC 0x2A00FD82, wire bytes 82 fd 00 2a.
  const auto f = hex(
      "e41d2dab2bc2 7cfe90643b32 0800"
      "45c2 003c 718c 4000 4011 9161 0a001101 0a001201"
      "0000 12b7 0028 0000"
      "81 00 ffff 40 000118 00 000000"
      "00000000000000000000000000000000"
      "82 fd 00 2a");
  EXPECT_EQ(icrc_of(f, 14), 0x2A00FD82u);
  EXPECT_EQ(wire_icrc(f), 0x2A00FD82u);
  uint8_t w[4];
  store_icrc(w, 0x2A00FD82u);
  EXPECT_EQ(std::vector<uint8_t>(w, w + 4), hex("82 fd 00 2a"));
}

TEST(Icrc, UcSendOnlyVector) {
  // Reference §2.4 (b): IPv4 TOS 0x01, id 1144, DF, TTL 64, 192.168.0.7 -> 192.168.0.7,
  // UDP 49152 -> 4791, UC SEND Only, MigReq 1, PadCnt 2, DestQP 211, PSN 13571856.
  // TOS, TTL, IP and UDP checksums are masked: their values here do not matter.
  const auto ip = hex(
      "4501 0040 0478 4000 4011 0000 c0a80007 c0a80007"
      "c000 12b7 002c 0000"
      "24 60 ffff 00 0000d3 00 cf1710"
      "4630818be28935d90e9a95505401be885e500000"
      "78 f3 53 f3");
  EXPECT_EQ(icrc_of(ip, 0), 0xF353F378u);
  EXPECT_EQ(wire_icrc(ip), 0xF353F378u);
}

TEST(Icrc, MaskedFieldsDoNotMatterOthersDo) {
  auto ip = hex(
      "4501 0040 0478 4000 4011 0000 c0a80007 c0a80007"
      "c000 12b7 002c 0000"
      "24 60 ffff 00 0000d3 00 cf1710"
      "4630818be28935d90e9a95505401be885e500000");
  const uint32_t base = icrc_full(ip.data(), static_cast<uint32_t>(ip.size()));
  for (uint32_t masked : {1u, 8u, 10u, 11u, 26u, 27u, 32u}) {  // TOS TTL cksum UDP-cksum BTH[4]
    auto m = ip;
    m[masked] ^= 0x5A;
    EXPECT_EQ(icrc_full(m.data(), static_cast<uint32_t>(m.size())), base) << masked;
  }
  for (uint32_t covered : {2u, 4u, 9u, 12u, 20u, 24u, 28u, 29u, 33u, 40u, 50u}) {
    auto m = ip;
    m[covered] ^= 0x01;
    EXPECT_NE(icrc_full(m.data(), static_cast<uint32_t>(m.size())), base) << covered;
  }
}

struct CapFrame {
  std::string file;
  uint32_t index;
  uint32_t l3;
  uint32_t expected;  // CRC value (wire bytes little-endian)
};

TEST(Icrc, ReferenceCaptureIcrcs) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  // captures/README.md: the five ICRCs of scapy_roce_reference.pcap, the external vectors
  // and the raw-IPv4 CNP (wire bytes listed there, here as little-endian values).
  const std::vector<CapFrame> cases = {
      {"scapy_roce_reference.pcap", 0, 14, 0x2EE9B066},
      {"scapy_roce_reference.pcap", 1, 14, 0xB53E5F2A},
      {"scapy_roce_reference.pcap", 2, 14, 0x5765F9FE},
      {"scapy_roce_reference.pcap", 3, 14, 0xEFA06D51},
      {"scapy_roce_reference.pcap", 4, 14, 0x99FA1584},
      {"external_roce_vectors.pcap", 0, 14, 0x2A00FD82},
      {"external_roce_vectors.pcap", 1, 14, 0x4A15C608},
      {"external_roce_vectors.pcap", 2, 14, 0xF353F378},
      {"external_mlx_article_cnp_rawip.pcap", 0, 0, 0xEF1BFCDA},
  };
  for (const auto& c : cases) {
    auto frames = capture::read_all(test::shared_capture(c.file));
    ASSERT_TRUE(frames.ok()) << frames.error().message;
    ASSERT_GT(frames->size(), c.index);
    const auto& bytes = frames.value()[c.index].bytes;
    EXPECT_EQ(wire_icrc(bytes), c.expected) << c.file << " #" << c.index;
    EXPECT_EQ(icrc_of(bytes, c.l3), c.expected) << c.file << " #" << c.index;
  }
}

TEST(IcrcTables, ZeroCrcsAndSingleBytesAgreeWithRteNetCrc) {
  const IcrcTables& t = IcrcTables::get();
  std::vector<uint8_t> buf(IcrcTables::kMaxBytes, 0);
  for (uint32_t n : {0u, 1u, 2u, 3u, 4u, 5u, 63u, 64u, 1000u, 4095u, IcrcTables::kMaxBytes}) {
    EXPECT_EQ(t.zeros_crc(n), crc32_eth(buf.data(), n)) << n;
  }
  Rng rng(3, 4);
  for (int i = 0; i < 3000; ++i) {
    const auto d = static_cast<uint32_t>(1 + rng.uniform_int(IcrcTables::kMaxBytes));
    const auto v = static_cast<uint8_t>(rng.next_u64());
    buf[0] = v;
    // Z[d][v] = L(v || 0^(d-1)) = f(v || 0^(d-1)) xor c(d).
    ASSERT_EQ(t.z(d, v), crc32_eth(buf.data(), d) ^ t.zeros_crc(d)) << d << " " << int{v};
  }
  for (uint32_t d : {1u, 2u, IcrcTables::kMaxBytes}) {
    for (uint32_t v = 0; v < 256; ++v) {
      buf[0] = static_cast<uint8_t>(v);
      ASSERT_EQ(t.z(d, static_cast<uint8_t>(v)), crc32_eth(buf.data(), d) ^ t.zeros_crc(d));
    }
  }
}

TEST(IcrcTables, PaddedPatternForEveryLength) {
  const IcrcTables& t = IcrcTables::get();
  std::vector<uint8_t> p(IcrcTables::kMaxPayload + 3, 0);
  for (uint32_t n = 0; n <= IcrcTables::kMaxPayload; ++n) {
    write_payload_pattern(p.data(), n);
    const uint32_t padded = n + (4 - n % 4) % 4;
    for (uint32_t i = n; i < padded; ++i) p[i] = 0;
    ASSERT_EQ(t.padded_pattern_linear(n), crc32_eth(p.data(), padded) ^ t.zeros_crc(padded)) << n;
  }
}

TEST(IcrcTables, PatchEqualsFullRecompute) {
  const IcrcTables& t = IcrcTables::get();
  Rng rng(5, 6);
  for (int i = 0; i < 2000; ++i) {
    const auto n = static_cast<uint32_t>(1 + rng.uniform_int(IcrcTables::kMaxBytes));
    std::vector<uint8_t> m(n);
    for (auto& b : m) b = static_cast<uint8_t>(rng.next_u64());
    uint32_t crc = crc32_eth(m.data(), n);
    const int changes = 1 + static_cast<int>(rng.uniform_int(6));
    for (int c = 0; c < changes; ++c) {
      const auto pos = static_cast<uint32_t>(rng.uniform_int(n));
      const auto nv = static_cast<uint8_t>(rng.next_u64());
      crc = t.patch(crc, n - pos, static_cast<uint8_t>(m[pos] ^ nv));
      m[pos] = nv;
    }
    ASSERT_EQ(crc, crc32_eth(m.data(), n)) << "length " << n;
  }
}

TEST(IcrcTables, ExtendZerosEqualsFullRecompute) {
  const IcrcTables& t = IcrcTables::get();
  Rng rng(8, 9);
  for (int i = 0; i < 2000; ++i) {
    const auto m = static_cast<uint32_t>(4 + rng.uniform_int(200));
    const auto k = static_cast<uint32_t>(rng.uniform_int(IcrcTables::kMaxBytes - m));
    std::vector<uint8_t> msg(m + k, 0);
    for (uint32_t j = 0; j < m; ++j) msg[j] = static_cast<uint8_t>(rng.next_u64());
    const uint32_t r = t.linear(msg.data(), m - 4);
    const uint32_t w = load_le32(msg.data() + m - 4);
    // L(M || 0^k) = f(M || 0^k) xor c(m + k).
    ASSERT_EQ(t.extend_zeros(r, w, k), crc32_eth(msg.data(), m + k) ^ t.zeros_crc(m + k));
  }
}

}  // namespace
}  // namespace rtb::wire
