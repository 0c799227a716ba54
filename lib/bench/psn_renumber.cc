#include "bench/psn_renumber.h"

#include <rte_mbuf.h>

#include "wire/bytes.h"
#include "wire/icrc.h"
#include "wire/icrc_tables.h"

namespace rtb::bench {
namespace {

constexpr uint32_t kEthBytes = 14;
constexpr uint32_t kIpv4Bytes = 20;
constexpr uint32_t kUdpBytes = 8;
constexpr uint32_t kBthBytes = 12;
constexpr uint32_t kPsnAt = 9;  // in the BTH: byte 8 reserved, bytes 9..11 the PSN
constexpr uint16_t kRoceV2Port = 4791;
constexpr uint32_t kHeaderBytes = kEthBytes + kIpv4Bytes + kUdpBytes + kBthBytes;

}  // namespace

bool PsnRenumber::rewrite(rte_mbuf* frame) {
  uint8_t* d = rte_pktmbuf_mtod(frame, uint8_t*);
  const uint32_t len = rte_pktmbuf_data_len(frame);
  const uint8_t* ip = d + kEthBytes;
  const uint8_t* udp = ip + kIpv4Bytes;
  uint8_t* bth = d + kEthBytes + kIpv4Bytes + kUdpBytes;
  if (len < kHeaderBytes + wire::kIcrcBytes || wire::load_be16(d + 12) != 0x0800 || ip[0] != 0x45 ||
      ip[9] != 17 || wire::load_be16(udp + 2) != kRoceV2Port) {
    ++passed_;
    return false;
  }
  const uint32_t qp = wire::load_be24(bth + 5) - first_qpn_;  // wraps below the first
  if (qp >= next_psn_.size()) {
    ++passed_;
    return false;
  }
  const uint32_t psn = next_psn_[qp];
  next_psn_[qp] = (psn + 1) & 0xFF'FFFF;
  // Distance of the PSN's last byte from the end of the bytes the ICRC covers.
  const uint32_t icrc_at = len - wire::kIcrcBytes;
  const uint32_t psn_end = kEthBytes + kIpv4Bytes + kUdpBytes + kPsnAt + 3;
  const wire::IcrcTables& t = wire::IcrcTables::get();
  uint32_t icrc = wire::load_icrc(d + icrc_at);
  for (uint32_t i = 0; i < 3; ++i) {
    const auto byte = static_cast<uint8_t>(psn >> (8 * (2 - i)));
    uint8_t& at = bth[kPsnAt + i];
    icrc = t.patch(icrc, icrc_at - (psn_end - 3 + i), static_cast<uint8_t>(at ^ byte));
    at = byte;
  }
  wire::store_icrc(d + icrc_at, icrc);
  ++rewritten_;
  return true;
}

}  // namespace rtb::bench
