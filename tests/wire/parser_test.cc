// Parser: every malformed-input reason, classification of other traffic, the reserved-bit
// quirk, FCS tolerance and counters.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/wire/test_util.h"
#include "wire/icrc.h"
#include "wire/opcode.h"
#include "wire/parser.h"
#include "wire/pfc.h"

namespace rtb::wire {
namespace {

constexpr uint32_t kIp = 14;              // IPv4 offset in untagged frames
constexpr uint32_t kUdp = kIp + 20;       // UDP offset
constexpr uint32_t kBth = kUdp + 8;       // BTH offset

// Outcomes seen by the tests below, to check that every reason is exercised.
std::set<ParseError>& seen() {
  static std::set<ParseError> s;
  return s;
}

ParseError parse(const std::vector<uint8_t>& f, ParseOptions o = {}) {
  ParsedFrame p;
  const ParseError e = parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, p);
  seen().insert(e);
  return e;
}

std::vector<uint8_t> send_only(uint32_t payload) {
  const auto t = FlowTemplate::make(test::scapy_requester_spec());
  test::FrameBuffer b(payload);
  const FrameSpan f = t->build_data(DataFields{op::kSendOnly, 5, payload, false, false,
                                               Ecn::Ect0, {}, 0},
                                    b.payload());
  return {f.data, f.data + f.len};
}

// After editing IPv4 fields: make the checksum right again, so only the edit is wrong.
void fix_ip_checksum(std::vector<uint8_t>& f) {
  store_be16(f.data() + kIp + 10, ipv4_checksum(f.data() + kIp, (f[kIp] & 0x0Fu) * 4));
}
void set_lengths(std::vector<uint8_t>& f, uint16_t udp_payload) {
  store_be16(f.data() + kIp + 2, static_cast<uint16_t>(20 + 8 + udp_payload));
  store_be16(f.data() + kUdp + 4, static_cast<uint16_t>(8 + udp_payload));
  fix_ip_checksum(f);
}

std::vector<uint8_t> pfc_frame() {
  PfcFields p;
  p.vector = 0x08;
  p.quanta[3] = 0xFFFF;
  std::vector<uint8_t> f(60);
  build_pfc(p, f.data());
  return f;
}

TEST(Parser, ValidFrameParses) {
  EXPECT_EQ(parse(send_only(16)), ParseError::Ok);
  ParseOptions o;
  o.check_icrc = true;
  EXPECT_EQ(parse(send_only(16), o), ParseError::Ok);
}

TEST(Parser, TruncatedAtEveryLayer) {
  const auto f = send_only(16);
  ParseOptions o;
  o.check_icrc = true;
  // Every strict prefix is rejected (never Ok: the IPv4 length says more bytes follow).
  for (size_t n = 0; n < f.size(); ++n) {
    std::vector<uint8_t> cut(f.begin(), f.begin() + static_cast<long>(n));
    const ParseError e = parse(cut, o);
    ASSERT_NE(e, ParseError::Ok) << n;
    if (n < 14) EXPECT_EQ(e, ParseError::TruncatedEthernet) << n;
    else if (n < 34) EXPECT_EQ(e, ParseError::TruncatedIpv4) << n;
    else EXPECT_EQ(e, ParseError::TruncatedIpv4Packet) << n;
  }
  const std::vector<uint8_t> vlan_cut = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x81, 0x00, 0x20};
  EXPECT_EQ(parse(vlan_cut), ParseError::TruncatedVlan);
}

TEST(Parser, Ipv4HeaderErrors) {
  auto f = send_only(16);
  f[kIp] = 0x65;
  EXPECT_EQ(parse(f), ParseError::BadIpv4Version);
  f = send_only(16);
  f[kIp] = 0x44;
  EXPECT_EQ(parse(f), ParseError::BadIpv4HeaderLength);
  f = send_only(16);
  f[kIp] = 0x4F;  // 60-byte header, but the frame has fewer bytes after L2
  f.resize(kIp + 40);
  EXPECT_EQ(parse(f), ParseError::TruncatedIpv4);
  f = send_only(16);
  store_be16(f.data() + kIp + 2, 19);
  fix_ip_checksum(f);
  EXPECT_EQ(parse(f), ParseError::BadIpv4TotalLength);
  f = send_only(16);
  f[kIp + 10] ^= 0x01;
  EXPECT_EQ(parse(f), ParseError::BadIpv4Checksum);
  ParseOptions no_ck;
  no_ck.check_ipv4_checksum = false;
  EXPECT_EQ(parse(f, no_ck), ParseError::Ok);
  f = send_only(16);
  f[kIp + 6] |= 0x20;  // MF
  fix_ip_checksum(f);
  EXPECT_EQ(parse(f), ParseError::Ipv4Fragment);
  f = send_only(16);
  store_be16(f.data() + kIp + 6, 0x4001);  // DF + offset 1
  fix_ip_checksum(f);
  EXPECT_EQ(parse(f), ParseError::Ipv4Fragment);
}

TEST(Parser, Ipv4OptionsAreSkipped) {
  // IHL 6: insert 4 option bytes (NOP x4) and check that BTH is still found.
  auto f = send_only(16);
  f.insert(f.begin() + kUdp, {1, 1, 1, 1});
  f[kIp] = 0x46;
  store_be16(f.data() + kIp + 2, static_cast<uint16_t>(load_be16(f.data() + kIp + 2) + 4));
  fix_ip_checksum(f);
  // The ICRC covers the options: recompute it.
  const uint32_t covered = load_be16(f.data() + kIp + 2) - 4;
  store_icrc(f.data() + kIp + covered, icrc_full(f.data() + kIp, covered));
  ParseOptions o;
  o.check_icrc = true;
  ParsedFrame p;
  ASSERT_EQ(parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, p), ParseError::Ok);
  EXPECT_EQ(p.psn, 5u);
  EXPECT_EQ(p.payload_bytes, 16u);
}

TEST(Parser, UdpErrors) {
  auto f = send_only(16);
  store_be16(f.data() + kIp + 2, 24);  // IPv4 says 4 bytes of UDP
  fix_ip_checksum(f);
  EXPECT_EQ(parse(f), ParseError::TruncatedUdp);
  f = send_only(16);
  store_be16(f.data() + kUdp + 4, static_cast<uint16_t>(load_be16(f.data() + kUdp + 4) + 1));
  EXPECT_EQ(parse(f), ParseError::BadUdpLength);
  store_be16(f.data() + kUdp + 4, static_cast<uint16_t>(load_be16(f.data() + kUdp + 4) - 2));
  EXPECT_EQ(parse(f), ParseError::BadUdpLength);
}

TEST(Parser, BthAndExtendedHeaderErrors) {
  auto f = send_only(16);
  set_lengths(f, 15);  // BTH 12 + 3: no room for the ICRC
  EXPECT_EQ(parse(f), ParseError::TruncatedBth);
  f = send_only(16);
  f[kBth + 1] |= 0x01;  // TVer 1
  EXPECT_EQ(parse(f), ParseError::BadTransportVersion);
  for (uint8_t opc : {0x15, 0x18, 0x1F, 0x40, 0x80, 0xFF}) {
    f = send_only(16);
    f[kBth] = opc;
    EXPECT_EQ(parse(f), ParseError::UnknownOpcode) << int{opc};
  }
  f = send_only(8);  // 8 payload bytes cannot hold a 16-byte RETH
  f[kBth] = op::kWriteFirst;
  EXPECT_EQ(parse(f), ParseError::TruncatedExtHeader);
  f = send_only(0);
  f[kBth + 1] |= 0x30;  // pad count 3 with no payload
  EXPECT_EQ(parse(f), ParseError::BadPadCount);
  f = send_only(8);  // an ACK with 4 bytes after its AETH
  f[kBth] = op::kAcknowledge;
  EXPECT_EQ(parse(f), ParseError::UnexpectedPayload);
  f = send_only(16);
  f[kBth] = op::kCnp;  // a CNP needs 16 reserved bytes: exactly 16 here, so it parses
  EXPECT_EQ(parse(f), ParseError::Ok);
}

TEST(Parser, IcrcCheckedOnlyWhenAsked) {
  ParseOptions o;
  o.check_icrc = true;
  for (size_t pos : {size_t{kIp + 2}, size_t{kBth}, size_t{kBth + 11}, size_t{kBth + 12 + 3}}) {
    auto f = send_only(16);
    f[pos] ^= 0x04;
    if (pos == kIp + 2) continue;  // lengths are checked before the ICRC
    EXPECT_EQ(parse(f, o), ParseError::BadIcrc) << pos;
    EXPECT_NE(parse(f), ParseError::BadIcrc) << pos;
  }
  auto f = send_only(16);
  f[f.size() - 1] ^= 0x80;
  EXPECT_EQ(parse(f, o), ParseError::BadIcrc);
  EXPECT_EQ(parse(f), ParseError::Ok);
}

TEST(Parser, MaskedFieldsDoNotBreakTheIcrc) {
  ParseOptions o;
  o.check_icrc = true;
  auto f = send_only(16);
  f[kBth + 4] = 0x10;  // the HiRoCE reserved bit (captures README)
  ParsedFrame p;
  ASSERT_EQ(parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, p), ParseError::Ok);
  EXPECT_FALSE(p.becn);
  EXPECT_FALSE(p.fecn);
  f[kBth + 4] = 0x80;  // FECN
  ASSERT_EQ(parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, p), ParseError::Ok);
  EXPECT_TRUE(p.fecn);
  f[kIp + 8] = 3;  // TTL decremented by switches
  fix_ip_checksum(f);
  EXPECT_EQ(parse(f, o), ParseError::Ok);
}

TEST(Parser, IntTrailerErrors) {
  ParseOptions o;
  o.int_dscp = 26;
  o.int_trailer_bytes = 64;
  EXPECT_EQ(parse(send_only(16), o), ParseError::TruncatedIntTrailer);
  o.int_dscp = 27;  // other DSCPs carry no trailer
  EXPECT_EQ(parse(send_only(16), o), ParseError::Ok);
}

TEST(Parser, PfcErrors) {
  EXPECT_EQ(parse(pfc_frame()), ParseError::Ok);
  auto f = pfc_frame();
  f.resize(14 + 19);
  EXPECT_EQ(parse(f), ParseError::TruncatedMacControl);
  f = pfc_frame();
  store_be16(f.data() + 14, kMacControlPause);
  EXPECT_EQ(parse(f), ParseError::BadPfcOpcode);
  f = pfc_frame();
  f[5] = 0x02;
  EXPECT_EQ(parse(f), ParseError::BadPfcDestination);
  f = pfc_frame();
  f[16] = 0x01;  // reserved upper octet of the class-enable vector: ignored
  ParsedFrame p;
  ASSERT_EQ(parse_frame(f.data(), 60, ParseOptions{}, p), ParseError::Ok);
  EXPECT_EQ(p.pfc_vector, 0x08);
  EXPECT_EQ(p.pfc_quanta[3], 0xFFFF);
}

// The host parses every frame into one record: nothing of the previous frame may remain.
TEST(Parser, AReusedRecordKeepsNothingOfThePreviousFrame) {
  ParsedFrame reused;
  const auto pfc = pfc_frame();
  ASSERT_EQ(parse_frame(pfc.data(), 60, ParseOptions{}, reused), ParseError::Ok);
  ASSERT_EQ(reused.pfc_quanta[3], 0xFFFF);
  const auto data = send_only(16);
  ASSERT_EQ(parse_frame(data.data(), static_cast<uint32_t>(data.size()), ParseOptions{}, reused),
            ParseError::Ok);
  EXPECT_EQ(reused.pfc_vector, 0);
  EXPECT_EQ(reused.pfc_quanta[3], 0);
  EXPECT_EQ(reused.cls, FrameClass::RoceData);
}

TEST(Parser, OtherTrafficIsClassifiedNotRejected) {
  ParsedFrame p;
  auto arp = send_only(16);
  store_be16(arp.data() + 12, 0x0806);
  ASSERT_EQ(parse_frame(arp.data(), static_cast<uint32_t>(arp.size()), {}, p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Other);
  auto tcp = send_only(16);
  tcp[kIp + 9] = 6;
  fix_ip_checksum(tcp);
  ASSERT_EQ(parse_frame(tcp.data(), static_cast<uint32_t>(tcp.size()), {}, p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Other);
  auto udp = send_only(16);
  store_be16(udp.data() + kUdp + 2, 53);
  ASSERT_EQ(parse_frame(udp.data(), static_cast<uint32_t>(udp.size()), {}, p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Other);
  EXPECT_EQ(p.udp_sport, 49152);
}

TEST(Parser, TrailingFcsOrPaddingIsIgnored) {
  auto f = send_only(16);
  ParsedFrame a, b;
  ASSERT_EQ(parse_frame(f.data(), static_cast<uint32_t>(f.size()), {}, a), ParseError::Ok);
  f.insert(f.end(), {0xDE, 0xAD, 0xBE, 0xEF});
  ParseOptions o;
  o.check_icrc = true;
  ASSERT_EQ(parse_frame(f.data(), static_cast<uint32_t>(f.size()), o, b), ParseError::Ok);
  EXPECT_EQ(a.payload_bytes, b.payload_bytes);
  EXPECT_EQ(a.icrc, b.icrc);
}

TEST(Parser, RawIpv4LinkType) {
  auto f = send_only(16);
  std::vector<uint8_t> ip(f.begin() + kIp, f.end());
  ParseOptions o;
  o.link = LinkType::RawIpv4;
  o.check_icrc = true;
  ParsedFrame p;
  ASSERT_EQ(parse_frame(ip.data(), static_cast<uint32_t>(ip.size()), o, p), ParseError::Ok);
  EXPECT_EQ(p.l3_offset, 0u);
  EXPECT_EQ(p.opcode, op::kSendOnly);
}

TEST(Parser, CountersAccumulate) {
  ParseCounters a, b;
  ParsedFrame p;
  const auto ok = send_only(4);
  auto bad = ok;
  bad[kBth] = 0x15;
  parse_frame(ok.data(), static_cast<uint32_t>(ok.size()), {}, p, a);
  parse_frame(bad.data(), static_cast<uint32_t>(bad.size()), {}, p, a);
  parse_frame(bad.data(), static_cast<uint32_t>(bad.size()), {}, p, b);
  a += b;
  EXPECT_EQ(a[ParseError::Ok], 1u);
  EXPECT_EQ(a[ParseError::UnknownOpcode], 2u);
  EXPECT_EQ(a[FrameClass::RoceData], 1u);
  EXPECT_EQ(a.rejected(), 2u);
}

TEST(Parser, ReasonNamesAreDistinct) {
  std::set<std::string> names;
  for (uint32_t i = 0; i < kParseErrorCount; ++i) {
    const std::string n = parse_error_name(static_cast<ParseError>(i));
    EXPECT_NE(n, "invalid");
    names.insert(n);
  }
  EXPECT_EQ(names.size(), kParseErrorCount);
  EXPECT_STREQ(parse_error_name(ParseError::BadIcrc), "bad_icrc");
  EXPECT_STREQ(frame_class_name(FrameClass::Cnp), "cnp");
}

// Runs last in this file (gtest keeps declaration order): every reason was produced.
TEST(Parser, ZzEveryReasonIsExercised) {
  if (seen().size() < 2) GTEST_SKIP() << "needs the other Parser tests to run first";
  for (uint32_t i = 0; i < kParseErrorCount; ++i) {
    EXPECT_TRUE(seen().count(static_cast<ParseError>(i)))
        << parse_error_name(static_cast<ParseError>(i));
  }
}

}  // namespace
}  // namespace rtb::wire
