#include "wire/opcode.h"

#include <array>

namespace rtb::wire {
namespace {

constexpr uint8_t ext_size(uint8_t ext) {
  uint8_t n = 0;
  if (ext & kExtDeth) n += 8;
  if (ext & kExtReth) n += 16;
  if (ext & kExtAtomicEth) n += 28;
  if (ext & kExtAeth) n += 4;
  if (ext & kExtAtomicAck) n += 8;
  if (ext & kExtImm) n += 4;
  if (ext & kExtIeth) n += 4;
  if (ext & kExtCnpPad) n += 16;
  return n;
}

constexpr OpcodeInfo info(uint8_t ext, bool payload, const char* name) {
  return OpcodeInfo{true, ext, ext_size(ext), payload, name};
}

// IBTA Vol. 1 Table 38 (RC and UC rows) and §9.3 (which headers each packet carries).
constexpr std::array<OpcodeInfo, 256> make_table() {
  std::array<OpcodeInfo, 256> t{};
  t[op::kSendFirst] = info(kExtNone, true, "RC SEND First");
  t[op::kSendMiddle] = info(kExtNone, true, "RC SEND Middle");
  t[op::kSendLast] = info(kExtNone, true, "RC SEND Last");
  t[op::kSendLastImm] = info(kExtImm, true, "RC SEND Last with Immediate");
  t[op::kSendOnly] = info(kExtNone, true, "RC SEND Only");
  t[op::kSendOnlyImm] = info(kExtImm, true, "RC SEND Only with Immediate");
  t[op::kWriteFirst] = info(kExtReth, true, "RC RDMA WRITE First");
  t[op::kWriteMiddle] = info(kExtNone, true, "RC RDMA WRITE Middle");
  t[op::kWriteLast] = info(kExtNone, true, "RC RDMA WRITE Last");
  t[op::kWriteLastImm] = info(kExtImm, true, "RC RDMA WRITE Last with Immediate");
  t[op::kWriteOnly] = info(kExtReth, true, "RC RDMA WRITE Only");
  t[op::kWriteOnlyImm] = info(kExtReth | kExtImm, true, "RC RDMA WRITE Only with Immediate");
  t[op::kReadRequest] = info(kExtReth, false, "RC RDMA READ Request");
  t[op::kReadResponseFirst] = info(kExtAeth, true, "RC RDMA READ Response First");
  t[op::kReadResponseMiddle] = info(kExtNone, true, "RC RDMA READ Response Middle");
  t[op::kReadResponseLast] = info(kExtAeth, true, "RC RDMA READ Response Last");
  t[op::kReadResponseOnly] = info(kExtAeth, true, "RC RDMA READ Response Only");
  t[op::kAcknowledge] = info(kExtAeth, false, "RC Acknowledge");
  t[op::kAtomicAcknowledge] = info(kExtAeth | kExtAtomicAck, false, "RC ATOMIC Acknowledge");
  t[op::kCompareSwap] = info(kExtAtomicEth, false, "RC CmpSwap");
  t[op::kFetchAdd] = info(kExtAtomicEth, false, "RC FetchAdd");
  t[op::kSendLastInv] = info(kExtIeth, true, "RC SEND Last with Invalidate");
  t[op::kSendOnlyInv] = info(kExtIeth, true, "RC SEND Only with Invalidate");
  // UC carries SEND and RDMA WRITE only (0x20..0x2B), with the same headers as RC.
  const char* uc_names[12] = {"UC SEND First", "UC SEND Middle", "UC SEND Last",
                              "UC SEND Last with Immediate", "UC SEND Only",
                              "UC SEND Only with Immediate", "UC RDMA WRITE First",
                              "UC RDMA WRITE Middle", "UC RDMA WRITE Last",
                              "UC RDMA WRITE Last with Immediate", "UC RDMA WRITE Only",
                              "UC RDMA WRITE Only with Immediate"};
  for (uint8_t i = 0; i < 12; ++i) {
    t[op::kUc + i] = t[i];
    t[op::kUc + i].name = uc_names[i];
  }
  t[op::kUdSendOnly] = info(kExtDeth, true, "UD SEND Only");
  t[op::kUdSendOnlyImm] = info(kExtDeth | kExtImm, true, "UD SEND Only with Immediate");
  t[op::kCnp] = info(kExtCnpPad, false, "CNP");
  return t;
}

constexpr std::array<OpcodeInfo, 256> kTable = make_table();

}  // namespace

const OpcodeInfo& opcode_info(uint8_t opcode) { return kTable[opcode]; }

uint32_t ext_offset(uint8_t ext_flags, ExtFlags which) {
  // Headers appear in the order of the ExtFlags bits (IBTA §9.2: DETH, RETH, AtomicETH,
  // AETH, AtomicAckETH, ImmDt, IETH), so the offset is the size of the lower bits.
  const uint8_t lower = static_cast<uint8_t>(ext_flags & (which - 1));
  return ext_size(lower);
}

}  // namespace rtb::wire
