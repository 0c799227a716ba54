// Builders: byte-exact against the scapy reference frames, every frame kind parses back,
// ICRC (incremental) equals the full computation over many random frames.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/rng.h"
#include "pcap/capture_reader.h"
#include "tests/wire/test_util.h"
#include "wire/icrc.h"
#include "wire/opcode.h"
#include "wire/parser.h"
#include "wire/pfc.h"
#include "wire/udp.h"

namespace rtb::wire {
namespace {

using test::FrameBuffer;

std::vector<uint8_t> bytes_of(const FrameSpan& s) { return {s.data, s.data + s.len}; }

const std::vector<capture::CapturedFrame>& scapy_frames() {
  static const auto frames = capture::read_all(test::shared_capture("scapy_roce_reference.pcap"));
  EXPECT_TRUE(frames.ok());
  return frames.value();
}

uint32_t full_icrc_of(const FrameSpan& s, uint32_t l2) {
  const uint32_t ip_len = load_be16(s.data + l2 + 2);
  return icrc_full(s.data + l2, ip_len - kIcrcBytes);
}

FlowTemplate make(const FlowSpec& s) {
  auto t = FlowTemplate::make(s);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return std::move(t).value();
}

TEST(Builder, AckMatchesScapyReferenceByteForByte) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  // captures/README.md §3 frame 4: ACK rsp -> req, DestQP 0x456, PSN 100, syndrome 0x1f, MSN 1.
  const FlowTemplate rsp = make(test::scapy_responder_spec());
  uint8_t out[128];
  const FrameSpan f = rsp.build_ack(AckFields{100, aeth_ack(31), 1, Ecn::Ect0}, out);
  ASSERT_EQ(f.len, 62u);
  EXPECT_EQ(bytes_of(f), scapy_frames()[3].bytes);
}

TEST(Builder, CnpMatchesScapyReferenceByteForByte) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  // Frame 5: CNP rsp -> req: DSCP 48, ECT(0), UDP sport 0, DestQP 0x456 (the requester).
  FlowSpec s = test::scapy_responder_spec();
  s.dscp = 48;
  s.udp_sport = 0;
  s.dst_qpn = 0x456;
  const FlowTemplate cnp = make(s);
  uint8_t out[128];
  const FrameSpan f = cnp.build_cnp(CnpFields{Ecn::Ect0}, out);
  ASSERT_EQ(f.len, 74u);
  EXPECT_EQ(bytes_of(f), scapy_frames()[4].bytes);
}

// Frames 1-3 carry scapy's payloads, not ours: headers must match byte for byte, lengths
// exactly, and our ICRC must be the full ICRC of what we built.
void expect_headers_match(const FrameSpan& f, const std::vector<uint8_t>& ref, uint32_t hdr) {
  ASSERT_EQ(f.len, ref.size());
  EXPECT_EQ(std::vector<uint8_t>(f.data, f.data + hdr),
            std::vector<uint8_t>(ref.begin(), ref.begin() + hdr));
  EXPECT_EQ(load_icrc(f.data + f.len - 4), full_icrc_of(f, 14));
}

TEST(Builder, DataFramesMatchScapyReferenceHeaders) {
  SKIP_WITHOUT_SHARED_CAPTURES();
  const FlowTemplate req = make(test::scapy_requester_spec());
  FrameBuffer b1(32);
  DataFields send{op::kSendOnly, 100, 32, true, false, Ecn::Ect0, {}, 0};
  expect_headers_match(req.build_data(send, b1.payload()), scapy_frames()[0].bytes, 14 + 40);
  FrameBuffer b2(256);
  DataFields first{op::kWriteFirst, 101, 256, false, false, Ecn::Ect0,
                   RethFields{0x00007f0000001000ULL, 0x00abcdef, 768}, 0};
  expect_headers_match(req.build_data(first, b2.payload()), scapy_frames()[1].bytes, 14 + 56);
  FrameBuffer b3(256);
  DataFields middle{op::kWriteMiddle, 102, 256, false, false, Ecn::Ce, {}, 0};
  expect_headers_match(req.build_data(middle, b3.payload()), scapy_frames()[2].bytes, 14 + 40);
}

struct Kind {
  uint8_t opcode;
  FrameClass cls;
};

TEST(Builder, EveryDataKindParsesBack) {
  FlowSpec s = test::scapy_requester_spec();
  s.path_mtu = 1024;
  s.vlan = Vlan{3, 100};
  const FlowTemplate t = make(s);
  const uint8_t kinds[] = {op::kSendFirst,  op::kSendMiddle,  op::kSendLast,  op::kSendOnly,
                           op::kWriteFirst, op::kWriteMiddle, op::kWriteLast, op::kWriteOnly,
                           op::kSendLastImm, op::kSendOnlyImm, op::kWriteLastImm,
                           op::kWriteOnlyImm, op::kUc + op::kSendOnly};
  uint32_t psn = 0xFFFFFE;  // wraps through 0xFFFFFF to 0
  for (uint8_t opc : kinds) {
    for (uint32_t len : {0u, 1u, 2u, 3u, 4u, 333u, 1024u}) {
      FrameBuffer b(len);
      DataFields d{opc, psn, len, len % 2 == 0, opc == op::kSendOnly, Ecn::Ect1,
                   RethFields{0x1122334455667788ULL, 0xCAFE, 4096}, 0xA5A5F00D};
      const FrameSpan f = t.build_data(d, b.payload());
      ASSERT_TRUE(f.ok());
      ParsedFrame p;
      ParseOptions o;
      o.check_icrc = true;
      ASSERT_EQ(parse_frame(f.data, f.len, o, p), ParseError::Ok) << int{opc} << " " << len;
      EXPECT_EQ(p.cls, FrameClass::RoceData);
      EXPECT_EQ(p.opcode, opc);
      EXPECT_EQ(p.psn, psn & kPsnMask);
      EXPECT_EQ(p.dest_qpn, 0x123u);
      EXPECT_EQ(p.payload_bytes, len);
      EXPECT_EQ(p.pad, pad_bytes(len));
      EXPECT_EQ(p.payload_offset, static_cast<uint32_t>(b.payload() - f.data));
      EXPECT_EQ(p.ack_req, len % 2 == 0);
      EXPECT_EQ(p.solicited, opc == op::kSendOnly);
      EXPECT_EQ(p.ecn, Ecn::Ect1);
      EXPECT_EQ(p.dscp, 26);
      EXPECT_TRUE(p.vlan_tagged);
      EXPECT_EQ(p.pcp, 3);
      EXPECT_EQ(p.vid, 100);
      EXPECT_EQ(p.udp_sport, 49152);
      EXPECT_FALSE(p.becn);
      const uint8_t ext = opcode_info(opc).ext;
      EXPECT_EQ(p.reth, (ext & kExtReth) ? d.reth : RethFields{});
      EXPECT_EQ(p.imm, (ext & kExtImm) ? d.imm : 0u);
      EXPECT_GE(f.len, kMinFrameNoFcs);
      psn = (psn + 1) & kPsnMask;
    }
  }
}

TEST(Builder, AckNakAndCnpParseBack) {
  const FlowTemplate t = make(test::scapy_responder_spec());
  uint8_t out[128];
  ParseOptions o;
  o.check_icrc = true;
  ParsedFrame p;
  const uint8_t syndromes[] = {aeth_ack(0), aeth_ack(31), aeth_nak(NakCode::PsnSequenceError),
                               aeth_nak(NakCode::InvalidRequest),
                               aeth_nak(NakCode::RemoteAccessError),
                               aeth_nak(NakCode::RemoteOperationalError), aeth_rnr_nak(14)};
  for (uint8_t syn : syndromes) {
    const FrameSpan f = t.build_ack(AckFields{0xABCDEF, syn, 0x123456, Ecn::Ce}, out);
    ASSERT_EQ(parse_frame(f.data, f.len, o, p), ParseError::Ok);
    EXPECT_EQ(p.cls, aeth_kind(syn) == AethKind::Ack ? FrameClass::Ack : FrameClass::Nak);
    EXPECT_EQ(p.opcode, op::kAcknowledge);
    EXPECT_EQ(p.aeth_syndrome, syn);
    EXPECT_EQ(p.msn, 0x123456u);
    EXPECT_EQ(p.psn, 0xABCDEFu);
    EXPECT_EQ(p.dest_qpn, 0x456u);
    EXPECT_EQ(p.ecn, Ecn::Ce);
    EXPECT_EQ(p.payload_bytes, 0u);
  }
  const FrameSpan c = t.build_cnp(CnpFields{Ecn::NotEct}, out);
  ASSERT_EQ(parse_frame(c.data, c.len, o, p), ParseError::Ok);
  EXPECT_EQ(p.cls, FrameClass::Cnp);
  EXPECT_TRUE(p.becn);
  EXPECT_FALSE(p.fecn);
  EXPECT_EQ(p.psn, 0u);
  EXPECT_EQ(p.dest_qpn, 0x456u);
  EXPECT_EQ(p.ecn, Ecn::NotEct);
}

TEST(Builder, PfcParsesBack) {
  PfcFields f;
  f.src = MacAddr{{2, 0, 0, 0, 0, 9}};
  f.vector = 0xA5;
  for (int i = 0; i < 8; ++i) f.quanta[static_cast<size_t>(i)] = static_cast<uint16_t>(1000 * i + 1);
  for (bool tagged : {false, true}) {
    f.tagged = tagged;
    f.vlan = Vlan{6, 0};
    uint8_t out[64];
    const uint32_t n = build_pfc(f, out);
    ParsedFrame p;
    ASSERT_EQ(parse_frame(out, n, ParseOptions{}, p), ParseError::Ok);
    EXPECT_EQ(p.cls, FrameClass::Pfc);
    EXPECT_EQ(p.pfc_vector, 0xA5);
    EXPECT_EQ(p.pfc_quanta, f.quanta);
    EXPECT_EQ(p.src_mac, f.src);
    EXPECT_EQ(p.vlan_tagged, tagged);
  }
}

// The property the incremental ICRC rests on, over random flows, kinds and lengths.
TEST(Builder, IncrementalIcrcEqualsFullOverRandomFrames) {
  Rng rng(11, 12);
  const uint8_t kinds[] = {op::kSendFirst,  op::kSendMiddle,  op::kSendLast,   op::kSendOnly,
                           op::kWriteFirst, op::kWriteMiddle, op::kWriteLast,  op::kWriteOnly,
                           op::kSendLastImm, op::kWriteOnlyImm, op::kUc + op::kWriteFirst};
  const uint32_t mtus[] = {256, 512, 1024, 2048, 4096};
  std::vector<uint8_t> buf(kMaxHeaderBytes + 4096 + 512);
  std::vector<uint8_t> small(256);
  uint8_t* payload = buf.data() + kMaxHeaderBytes;
  write_payload_pattern(payload, 4096 + 512 - kMaxHeaderBytes);
  for (int i = 0; i < 4000; ++i) {
    FlowSpec s;
    for (auto& b : s.src_mac.b) b = static_cast<uint8_t>(rng.next_u64());
    s.src_ip = static_cast<uint32_t>(rng.next_u64());
    s.dst_ip = static_cast<uint32_t>(rng.next_u64());
    s.src_qpn = static_cast<uint32_t>(rng.next_u64() & kQpnMask);
    s.dst_qpn = static_cast<uint32_t>(rng.next_u64() & kQpnMask);
    s.dscp = static_cast<uint8_t>(rng.uniform_int(64));
    if (rng.bernoulli(0.5)) s.vlan = Vlan{static_cast<uint8_t>(rng.uniform_int(8)), 7};
    s.pkey = static_cast<uint16_t>(rng.next_u64());
    s.path_mtu = mtus[rng.uniform_int(5)];
    s.ttl = static_cast<uint8_t>(rng.next_u64());
    s.mig_req = rng.bernoulli(0.5);
    s.int_trailer_bytes = rng.bernoulli(0.2) ? 44 : 0;
    const FlowTemplate t = make(s);
    ParseOptions o;
    o.check_icrc = true;
    o.int_dscp = s.int_trailer_bytes ? s.dscp : 0xFF;
    o.int_trailer_bytes = s.int_trailer_bytes;
    ParsedFrame p;
    FrameSpan f;
    const uint32_t kind = static_cast<uint32_t>(rng.uniform_int(13));
    if (kind < 11) {
      DataFields d;
      d.opcode = kinds[kind];
      d.psn = static_cast<uint32_t>(rng.next_u64());
      d.payload_bytes = static_cast<uint32_t>(rng.uniform_int(s.path_mtu + 1));
      d.ack_req = rng.bernoulli(0.5);
      d.solicited = rng.bernoulli(0.5);
      d.ecn = static_cast<Ecn>(rng.uniform_int(4));
      d.reth = RethFields{rng.next_u64(), static_cast<uint32_t>(rng.next_u64()),
                          static_cast<uint32_t>(rng.next_u64())};
      d.imm = static_cast<uint32_t>(rng.next_u64());
      f = t.build_data(d, payload);
    } else if (kind == 11) {
      // The ICRC masks ECN and BECN: the ACK's precomputed ICRC holds for any of them.
      f = t.build_ack(AckFields{static_cast<uint32_t>(rng.next_u64()),
                                static_cast<uint8_t>(rng.next_u64()),
                                static_cast<uint32_t>(rng.next_u64()),
                                static_cast<Ecn>(rng.uniform_int(4)), rng.bernoulli(0.5)},
                      small.data());
    } else {
      f = t.build_cnp(CnpFields{static_cast<Ecn>(rng.uniform_int(4))}, small.data());
    }
    ASSERT_TRUE(f.ok());
    const uint32_t l2 = t.l2_bytes();
    const uint32_t ip_len = load_be16(f.data + l2 + 2);
    const uint32_t covered = ip_len - kIcrcBytes - s.int_trailer_bytes;
    ASSERT_EQ(load_icrc(f.data + l2 + covered), icrc_full(f.data + l2, covered))
        << "frame " << i << " kind " << kind << " trailer " << s.int_trailer_bytes << " len " << f.len;
    ASSERT_TRUE(ipv4_checksum_ok(f.data + l2, 20));
    ASSERT_EQ(parse_frame(f.data, f.len, o, p), ParseError::Ok) << "frame " << i;
    if (kind < 11) {  // the tail went over pattern bytes: restore them for the next frame
      restore_payload_pattern(payload, p.payload_bytes,
                              static_cast<uint32_t>(f.data + f.len - payload));
    }
  }
}

// Full frames of a long message (payload = path MTU, no extended header, ECT(0)) take the
// prebuilt path; the same frame built with ECT(1) takes the general one. ECN is masked
// from the ICRC, so after the general frame is re-marked ECT(0) (checksum patched as a
// switch does) the two must be equal byte for byte, for every opcode the prebuilt path
// serves and any PSN, AckReq, MigReq, VLAN and INT trailer.
TEST(Builder, PrebuiltFullFrameEqualsTheGeneralBuild) {
  Rng rng(21, 22);
  const uint8_t kinds[] = {op::kSendFirst, op::kSendMiddle, op::kSendLast, op::kSendOnly,
                           op::kWriteMiddle, op::kWriteLast, op::kUc + op::kWriteMiddle};
  const uint32_t mtus[] = {256, 512, 1024, 2048, 4096};
  for (int i = 0; i < 2000; ++i) {
    FlowSpec s;
    s.src_ip = static_cast<uint32_t>(rng.next_u64());
    s.dst_qpn = static_cast<uint32_t>(rng.next_u64() & kQpnMask);
    s.dscp = static_cast<uint8_t>(rng.uniform_int(64));
    if (rng.bernoulli(0.5)) s.vlan = Vlan{static_cast<uint8_t>(rng.uniform_int(8)), 7};
    s.path_mtu = mtus[rng.uniform_int(5)];
    s.mig_req = rng.bernoulli(0.5);
    s.int_trailer_bytes = rng.bernoulli(0.2) ? 44 : 0;
    const FlowTemplate t = make(s);
    DataFields d{kinds[rng.uniform_int(7)], static_cast<uint32_t>(rng.next_u64()), s.path_mtu,
                 rng.bernoulli(0.5), false, Ecn::Ect0, {}, 0};
    FrameBuffer fast(s.path_mtu), general(s.path_mtu);
    const FrameSpan f = t.build_data(d, fast.payload());
    d.ecn = Ecn::Ect1;
    const FrameSpan g = t.build_data(d, general.payload());
    ASSERT_TRUE(f.ok() && g.ok());
    set_ecn_in_place(*reinterpret_cast<Ipv4Hdr*>(g.data + t.l2_bytes()), Ecn::Ect0);
    ASSERT_EQ(bytes_of(f), bytes_of(g)) << "frame " << i << " opcode " << int{d.opcode};
    const uint32_t covered = load_be16(f.data + t.l2_bytes() + 2) - kIcrcBytes - s.int_trailer_bytes;
    ASSERT_EQ(load_icrc(f.data + t.l2_bytes() + covered), icrc_full(f.data + t.l2_bytes(), covered));
  }
}

TEST(Builder, VlanTagDoesNotChangeTheIcrc) {
  FlowSpec s = test::scapy_requester_spec();
  const FlowTemplate plain = make(s);
  s.vlan = Vlan{5, 42};
  const FlowTemplate tagged = make(s);
  FrameBuffer a(100), b(100);
  const DataFields d{op::kSendOnly, 7, 100, true, false, Ecn::Ect0, {}, 0};
  const FrameSpan fa = plain.build_data(d, a.payload());
  const FrameSpan fb = tagged.build_data(d, b.payload());
  EXPECT_EQ(fb.len, fa.len + 4);
  EXPECT_EQ(load_icrc(fa.data + fa.len - 4), load_icrc(fb.data + fb.len - 4));
}

TEST(Builder, WritesOnlyInsideTheFrame) {
  const FlowTemplate t = make(test::scapy_requester_spec());
  for (uint32_t len : {0u, 5u, 256u}) {
    FrameBuffer b(len);
    const std::vector<uint8_t> before = b.bytes;
    const FrameSpan f = t.build_data(DataFields{op::kSendOnly, 1, len, false, false,
                                                Ecn::Ect0, {}, 0},
                                     b.payload());
    const auto start = static_cast<size_t>(f.data - b.bytes.data());
    for (size_t i = 0; i < b.bytes.size(); ++i) {
      if (i < start || i >= start + f.len) {
        ASSERT_EQ(b.bytes[i], before[i]) << i;
      }
    }
    // Payload bytes are never written.
    for (uint32_t i = 0; i < len; ++i) ASSERT_EQ(b.payload()[i], payload_byte(i));
  }
}

TEST(Builder, ShortFramesArePaddedTo60Bytes) {
  const FlowTemplate t = make(test::scapy_requester_spec());
  FrameBuffer b(0);
  const FrameSpan f = t.build_data(DataFields{op::kSendOnly, 1, 0, false, false, Ecn::Ect0, {}, 0},
                                   b.payload());
  EXPECT_EQ(f.len, 60u);  // 14 + 20 + 8 + 12 + 4 = 58, padded
  EXPECT_EQ(load_be16(f.data + 14 + 2), 44);
  EXPECT_EQ(f.data[58], 0);
  EXPECT_EQ(f.data[59], 0);
}

TEST(Builder, RejectsInvalidRequests) {
  const FlowTemplate t = make(test::scapy_requester_spec());  // PMTU 256
  FrameBuffer b(300);
  EXPECT_FALSE(t.build_data(DataFields{op::kWriteMiddle, 1, 257, false, false, Ecn::Ect0, {}, 0},
                            b.payload()).ok());
  for (uint8_t bad : {op::kAcknowledge, op::kReadRequest, op::kReadResponseOnly, op::kCnp,
                      op::kUdSendOnly, op::kCompareSwap, uint8_t{0x15}}) {
    EXPECT_FALSE(t.build_data(DataFields{bad, 1, 8, false, false, Ecn::Ect0, {}, 0},
                              b.payload()).ok()) << int{bad};
  }
}

TEST(Builder, TemplateValidation) {
  FlowSpec s = test::scapy_requester_spec();
  EXPECT_TRUE(FlowTemplate::make(s).ok());
  auto bad = [](FlowSpec x) { return !FlowTemplate::make(x).ok(); };
  FlowSpec m = s; m.path_mtu = 1000; EXPECT_TRUE(bad(m));
  m = s; m.path_mtu = 8192; EXPECT_TRUE(bad(m));
  m = s; m.dscp = 64; EXPECT_TRUE(bad(m));
  m = s; m.dst_qpn = 1u << 24; EXPECT_TRUE(bad(m));
  m = s; m.vlan = Vlan{8, 0}; EXPECT_TRUE(bad(m));
  m = s; m.int_trailer_bytes = 6; EXPECT_TRUE(bad(m));
  m = s; m.path_mtu = 1000;
  EXPECT_NE(FlowTemplate::make(m).error().message.find("1000"), std::string::npos);
}

TEST(Builder, DefaultUdpSourcePortFollowsTheKernel) {
  FlowSpec s = test::scapy_requester_spec();
  s.udp_sport.reset();
  const FlowTemplate t = make(s);
  EXPECT_EQ(t.udp_sport(), roce_udp_sport(0x456, 0x123));
  EXPECT_EQ(t.udp_sport(), 0xEDD1);
}

TEST(Builder, IntTrailerIsReservedAfterTheIcrc) {
  FlowSpec s = test::scapy_requester_spec();
  s.int_trailer_bytes = 44;
  s.dscp = 30;
  const FlowTemplate t = make(s);
  FrameBuffer b(100);
  const FrameSpan f =
      t.build_data(DataFields{op::kWriteMiddle, 9, 100, false, false, Ecn::Ect0, {}, 0}, b.payload());
  EXPECT_EQ(f.len, 14u + 20 + 8 + 12 + 100 + 4 + 44);
  EXPECT_EQ(load_be16(f.data + 16), 20 + 8 + 12 + 100 + 4 + 44);
  ParseOptions o;
  o.check_icrc = true;
  o.int_dscp = 30;
  o.int_trailer_bytes = 44;
  ParsedFrame p;
  ASSERT_EQ(parse_frame(f.data, f.len, o, p), ParseError::Ok);
  EXPECT_EQ(p.payload_bytes, 100u);
  EXPECT_EQ(p.int_trailer_offset, f.len - 44);
  // A switch fills a hop record: the ICRC stays valid, no length or checksum changes.
  for (uint32_t i = 0; i < 8; ++i) f.data[p.int_trailer_offset + i] = static_cast<uint8_t>(0x10 + i);
  EXPECT_EQ(parse_frame(f.data, f.len, o, p), ParseError::Ok);
}

}  // namespace
}  // namespace rtb::wire
