// icrc_in_place against icrc_full (the reference) on every CRC path (ISA-L's, and
// rte_net_crc's that this CPU and EAL offer): every sample frame kind, random packets of
// 0..9000 bytes after the BTH, the real captures; every corrupted covered byte is caught. Needs EAL (main below): without
// it DPDK allows no SIMD path.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <rte_cpuflags.h>

#include "core/rng.h"
#include "pcap/capture_reader.h"
#include "tests/runtime/test_eal.h"
#include "tests/wire/test_util.h"
#include "wire/crc_path.h"
#include "wire/frame_samples.h"
#include "wire/frame_size.h"
#include "wire/icrc.h"
#include "wire/icrc_in_place.h"
#include "wire/parser.h"

namespace rtb::wire {
namespace {

// Where a RoCE frame's ICRC coverage lies: [l3, l3 + covered), the stored ICRC after it.
struct Covered {
  uint32_t l3 = 0;
  uint32_t covered = 0;
  uint32_t stored = 0;
};

std::optional<Covered> covered_range(const std::vector<uint8_t>& f, LinkType link) {
  ParseOptions o;
  o.link = link;
  ParsedFrame p;
  if (parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, p) != ParseError::Ok) return {};
  if (p.cls != FrameClass::RoceData && p.cls != FrameClass::Ack && p.cls != FrameClass::Nak &&
      p.cls != FrameClass::Cnp)
    return {};
  const uint32_t icrc_at = p.payload_offset + p.payload_bytes + p.pad;
  return Covered{p.l3_offset, icrc_at - p.l3_offset, p.icrc};
}

// The positions icrc.h masks, from the start of the IPv4 header.
bool masked(uint32_t pos, uint32_t ihl) {
  return pos == 1 || pos == 8 || pos == 10 || pos == 11 || pos == ihl + 6 || pos == ihl + 7 ||
         pos == ihl + 8 + 4;
}

class IcrcInPlace : public ::testing::TestWithParam<CrcPath> {
 protected:
  void SetUp() override {
    if (set_crc_path(GetParam()) != GetParam())
      GTEST_SKIP() << crc_path_name(GetParam()) << " is not available on this CPU and EAL";
  }
  void TearDown() override { set_fastest_crc_path(); }
};

TEST_P(IcrcInPlace, Crc32MatchesTheBitwiseDefinitionAtEveryShortLength) {
  Rng rng(21, 22);
  std::vector<uint8_t> m(600);
  for (auto& b : m) b = static_cast<uint8_t>(rng.next_u64());
  for (uint32_t n = 0; n <= m.size(); ++n) {
    uint32_t crc = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; ++i) {
      crc ^= m[i];
      for (int b = 0; b < 8; ++b) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    ASSERT_EQ(crc32_eth(m.data(), n), ~crc) << n;
  }
}

// Long inputs take the SIMD paths' main loops (ISA-L folds 128 bytes a step, DPDK's avx512
// 256): every length up to 9,200 and every start offset mod 64, against the scalar table.
TEST_P(IcrcInPlace, Crc32EqualsTheScalarTableAtEveryLengthAndAlignment) {
  Rng rng(25, 26);
  std::vector<uint8_t> m(9300);
  for (auto& b : m) b = static_cast<uint8_t>(rng.next_u64());
  std::vector<uint32_t> scalar(9201);
  set_crc_path(CrcPath::Scalar);
  for (uint32_t n = 0; n <= 9200; ++n) scalar[n] = crc32_eth(m.data() + n % 64, n);
  ASSERT_EQ(set_crc_path(GetParam()), GetParam());
  for (uint32_t n = 0; n <= 9200; ++n) ASSERT_EQ(crc32_eth(m.data() + n % 64, n), scalar[n]) << n;
}

TEST_P(IcrcInPlace, EqualsTheReferenceOnEverySampleFrame) {
  int roce = 0;
  for (const SampleFrame& s : sample_frames()) {
    const auto c = covered_range(s.bytes, LinkType::Ethernet);
    if (!c) continue;
    ++roce;
    const uint8_t* ip = s.bytes.data() + c->l3;
    EXPECT_EQ(icrc_in_place(ip, c->covered), icrc_full(ip, c->covered)) << s.kind;
    EXPECT_EQ(icrc_in_place(ip, c->covered), c->stored) << s.kind;
  }
  EXPECT_GE(roce, 15);
}

TEST_P(IcrcInPlace, EqualsTheReferenceOnRandomPacketsOfEveryLengthUpTo9000AfterTheBth) {
  Rng rng(23, 24);
  constexpr uint32_t kMaxHeaders = 60 + kUdpBytes + kBthBytes;
  std::vector<uint8_t> m(kMaxHeaders + 9000);
  for (uint32_t rest = 0; rest <= 9000; ++rest) {
    // New headers for every length, a new body now and then.
    const size_t fill = rest % 97 == 0 ? m.size() : kMaxHeaders;
    for (size_t i = 0; i < fill; ++i) m[i] = static_cast<uint8_t>(rng.next_u64());
    const auto ihl = static_cast<uint8_t>(5 + rng.uniform_int(11));  // 20..60 header bytes
    m[0] = static_cast<uint8_t>(0x40 | ihl);
    const uint32_t covered = ihl * 4u + kUdpBytes + kBthBytes + rest;
    ASSERT_EQ(icrc_in_place(m.data(), covered), icrc_full(m.data(), covered))
        << "IHL " << int{ihl} << ", " << rest << " bytes after the BTH";
  }
}

TEST_P(IcrcInPlace, EqualsTheReferenceOnEveryFrameOfTheCaptures) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  int checked = 0;
  for (const char* name : {"scapy_roce_reference.pcap", "external_roce_vectors.pcap",
                           "external_mlx_article_cnp_rawip.pcap", "oferby_proxy_roce.pcap",
                           "pfc_reference.pcap"}) {
    auto frames = capture::read_all(test::shared_capture(name));
    ASSERT_TRUE(frames.ok()) << frames.error().message;
    for (const auto& f : frames.value()) {
      const LinkType link =
          f.link == capture::LinkType::kEthernet ? LinkType::Ethernet : LinkType::RawIpv4;
      const auto c = covered_range(f.bytes, link);
      if (!c) continue;
      ++checked;
      const uint8_t* ip = f.bytes.data() + c->l3;
      ASSERT_EQ(icrc_in_place(ip, c->covered), icrc_full(ip, c->covered)) << name;
      EXPECT_EQ(icrc_in_place(ip, c->covered), c->stored) << name;  // all are valid
    }
  }
  EXPECT_EQ(checked, 5 + 3 + 1 + 105);  // captures/README.md
}

TEST_P(IcrcInPlace, EveryCorruptedCoveredByteIsCaughtEveryMaskedOneIgnored) {
  Rng rng(25, 26);
  for (const SampleFrame& s : sample_frames()) {
    const auto c = covered_range(s.bytes, LinkType::Ethernet);
    if (!c) continue;
    const uint32_t ihl = (s.bytes[c->l3] & 0x0Fu) * 4u;
    for (uint32_t pos = 0; pos < c->covered; ++pos) {
      std::vector<uint8_t> f = s.bytes;
      const auto flip = static_cast<uint8_t>(1 + rng.uniform_int(255));
      // Byte 0: the version only; the IHL decides what is read.
      f[c->l3 + pos] ^= pos == 0 ? static_cast<uint8_t>(flip << 4 | 0x10) : flip;
      const uint32_t icrc = icrc_in_place(f.data() + c->l3, c->covered);
      if (masked(pos, ihl)) {
        ASSERT_EQ(icrc, c->stored) << s.kind << " byte " << pos;
      } else {
        ASSERT_NE(icrc, c->stored) << s.kind << " byte " << pos;
      }
    }
  }
}

// The parser's ICRC check uses the in-place path: a corrupted payload byte is BadIcrc.
TEST_P(IcrcInPlace, TheParserRejectsACorruptedPayloadByte) {
  for (const SampleFrame& s : sample_frames()) {
    if (s.kind != "write_first") continue;
    ParseOptions o;
    o.check_icrc = true;
    ParsedFrame p;
    std::vector<uint8_t> f = s.bytes;
    ASSERT_EQ(parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, p), ParseError::Ok);
    f[p.payload_offset + p.payload_bytes - 1] ^= 0x01;
    EXPECT_EQ(parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, p), ParseError::BadIcrc);
    return;
  }
  FAIL() << "no write_first sample";
}

INSTANTIATE_TEST_SUITE_P(Paths, IcrcInPlace,
                         ::testing::Values(CrcPath::Scalar, CrcPath::Sse42, CrcPath::Neon,
                                           CrcPath::Avx512, CrcPath::Isal),
                         [](const auto& p) { return std::string(crc_path_name(p.param)); });

TEST(CrcPath, NamesAndScalarOnRequest) {
  EXPECT_STREQ(crc_path_name(CrcPath::Scalar), "scalar");
  EXPECT_STREQ(crc_path_name(CrcPath::Sse42), "sse42");
  EXPECT_STREQ(crc_path_name(CrcPath::Neon), "neon");
  EXPECT_STREQ(crc_path_name(CrcPath::Avx512), "avx512");
  EXPECT_STREQ(crc_path_name(CrcPath::Isal), "isal");
  EXPECT_EQ(set_crc_path(CrcPath::Scalar), CrcPath::Scalar);
  EXPECT_EQ(crc_path(), CrcPath::Scalar);
  set_fastest_crc_path();
}

// The fastest path is ISA-L's on every CPU (it dispatches inside).
TEST(CrcPath, TheFastestIsIsal) {
  EXPECT_EQ(set_fastest_crc_path(), CrcPath::Isal);
  EXPECT_EQ(crc_path(), CrcPath::Isal);
}

// The fastest path rte_net_crc has: AVX-512/VPCLMULQDQ where the CPU has every feature
// its handler needs (the EAL's default SIMD cap of 256 bits is raised for it), else
// SSE4.2/PCLMULQDQ wherever the CPU has PCLMULQDQ.
TEST(CrcPath, TheFastestOfDpdkIsAvx512WhereTheCpuHasItElseSse42) {
#if defined(RTE_ARCH_X86_64)
  auto has = [](rte_cpu_flag_t f) { return rte_cpu_get_flag_enabled(f) > 0; };
  const bool pclmul = has(RTE_CPUFLAG_PCLMULQDQ);
  const bool avx512 = pclmul && has(RTE_CPUFLAG_AVX512F) && has(RTE_CPUFLAG_AVX512BW) &&
                      has(RTE_CPUFLAG_AVX512DQ) && has(RTE_CPUFLAG_AVX512VL) &&
                      has(RTE_CPUFLAG_VPCLMULQDQ);
  const CrcPath want = avx512 ? CrcPath::Avx512 : pclmul ? CrcPath::Sse42 : CrcPath::Scalar;
  EXPECT_EQ(set_fastest_dpdk_crc_path(), want);
  EXPECT_EQ(crc_path(), want);
  set_fastest_crc_path();
#else
  GTEST_SKIP() << "x86-64 only";
#endif
}

}  // namespace
}  // namespace rtb::wire

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!rtb::runtime::testing::start_test_eal("wire_icrc_paths_test")) return 1;
  const int rc = RUN_ALL_TESTS();
  (void)rtb::runtime::stop_eal();
  return rc;
}
