// InfiniBand Base Transport Header and the extended transport headers RoCEv2 frames carry
// (IBTA Vol. 1 §9.2; reference §2.1 table).
#pragma once

#include <cstdint>

#include "wire/bytes.h"

namespace rtb::wire {

inline constexpr uint16_t kDefaultPKey = 0xFFFF;

// BTH, 12 bytes:
//   0     OpCode
//   1     SE(1) MigReq(1) PadCnt(2) TVer(4)
//   2-3   P_Key
//   4     FECN(1) BECN(1) reserved(6)   -- the whole byte is masked by the ICRC
//   5-7   DestQP
//   8     AckReq(1) reserved(7)
//   9-11  PSN
struct Bth {
  uint8_t opcode;
  uint8_t flags;
  uint8_t pkey[2];
  uint8_t fecn_becn;
  uint8_t dest_qp[3];
  uint8_t ackreq;
  uint8_t psn_be[3];

  static constexpr uint8_t kSe = 0x80, kMigReq = 0x40;
  static constexpr uint8_t kFecn = 0x80, kBecn = 0x40, kAckReq = 0x80;

  bool se() const { return (flags & kSe) != 0; }
  bool mig_req() const { return (flags & kMigReq) != 0; }
  uint8_t pad_count() const { return (flags >> 4) & 3u; }
  uint8_t tver() const { return flags & 0x0Fu; }
  uint16_t p_key() const { return load_be16(pkey); }
  // Reserved bits of byte 4 are ignored on receipt: real NICs set them (captures README:
  // 0x10 on 68 of 105 HiRoCE frames).
  bool fecn() const { return (fecn_becn & kFecn) != 0; }
  bool becn() const { return (fecn_becn & kBecn) != 0; }
  uint32_t dest_qpn() const { return load_be24(dest_qp); }
  bool ack_req() const { return (ackreq & kAckReq) != 0; }
  uint32_t psn() const { return load_be24(psn_be); }

  static constexpr uint8_t make_flags(bool se, bool mig_req, uint8_t pad) {
    return static_cast<uint8_t>((se ? kSe : 0) | (mig_req ? kMigReq : 0) | ((pad & 3u) << 4));
  }
  void set_dest_qpn(uint32_t qpn) { store_be24(dest_qp, qpn); }
  void set_psn(uint32_t v) { store_be24(psn_be, v); }
};
static_assert(sizeof(Bth) == 12 && alignof(Bth) == 1);

inline constexpr uint32_t kPsnMask = 0xFFFFFF;  // PSNs are 24-bit, arithmetic wraps
inline constexpr uint32_t kQpnMask = 0xFFFFFF;

// RDMA Extended Transport Header (IBTA §9.3.3): VA(64) R_Key(32) DMA length(32).
struct Reth {
  uint8_t va_be[8];
  uint8_t rkey_be[4];
  uint8_t dma_len_be[4];

  uint64_t va() const { return load_be64(va_be); }
  uint32_t rkey() const { return load_be32(rkey_be); }
  uint32_t dma_length() const { return load_be32(dma_len_be); }
};
static_assert(sizeof(Reth) == 16 && alignof(Reth) == 1);

// The RETH values as numbers (what builders take and the parser returns).
struct RethFields {
  uint64_t va = 0;
  uint32_t rkey = 0;
  uint32_t dma_length = 0;
  constexpr bool operator==(const RethFields&) const = default;
};

// ACK Extended Transport Header (IBTA §9.3.5): Syndrome(8) MSN(24).
// Syndrome (IBTA Table 43): bits 7..5 = 000 ACK (bits 4..0 credit count),
// 001 RNR NAK (bits 4..0 timer), 011 NAK (bits 4..0 error code).
struct Aeth {
  uint8_t syndrome;
  uint8_t msn_be[3];

  uint32_t msn() const { return load_be24(msn_be); }
};
static_assert(sizeof(Aeth) == 4 && alignof(Aeth) == 1);

enum class AethKind : uint8_t { Ack = 0, RnrNak = 1, Reserved = 2, Nak = 3 };
enum class NakCode : uint8_t {
  PsnSequenceError = 0,
  InvalidRequest = 1,
  RemoteAccessError = 2,
  RemoteOperationalError = 3,
  InvalidRdRequest = 4,
};
inline constexpr uint8_t kCreditInvalid = 0x1F;  // "no credit information" (IBTA §9.7.7.2)

constexpr AethKind aeth_kind(uint8_t syndrome) { return static_cast<AethKind>((syndrome >> 5) & 3u); }
constexpr uint8_t aeth_value(uint8_t syndrome) { return syndrome & 0x1Fu; }
constexpr uint8_t aeth_ack(uint8_t credit) { return credit & 0x1Fu; }
constexpr uint8_t aeth_nak(NakCode c) { return static_cast<uint8_t>(0x60 | static_cast<uint8_t>(c)); }
constexpr uint8_t aeth_rnr_nak(uint8_t timer) { return static_cast<uint8_t>(0x20 | (timer & 0x1Fu)); }

// Immediate data (IBTA §9.3.6): 4 opaque bytes, kept in wire order as a big-endian value.
struct ImmDt {
  uint8_t imm_be[4];
  uint32_t value() const { return load_be32(imm_be); }
};
static_assert(sizeof(ImmDt) == 4 && alignof(ImmDt) == 1);

// Datagram Extended Transport Header (UD; IBTA §9.3.2): Q_Key(32) reserved(8) SrcQP(24).
struct Deth {
  uint8_t qkey_be[4];
  uint8_t reserved;
  uint8_t src_qp[3];
  uint32_t src_qpn() const { return load_be24(src_qp); }
};
static_assert(sizeof(Deth) == 8 && alignof(Deth) == 1);

// The 16 reserved bytes after a CNP's BTH (reference §2.2), all zero.
struct CnpPad {
  uint8_t reserved[16];
};
static_assert(sizeof(CnpPad) == 16 && alignof(CnpPad) == 1);

}  // namespace rtb::wire
