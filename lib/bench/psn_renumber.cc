#include "bench/psn_renumber.h"

#include <rte_mbuf.h>

#include <cstddef>

#include "wire/bth.h"
#include "wire/bytes.h"
#include "wire/ethernet.h"
#include "wire/frame_size.h"
#include "wire/icrc.h"
#include "wire/icrc_tables.h"
#include "wire/udp.h"

namespace rtb::bench {
namespace {

using wire::kBthBytes;
using wire::kIpv4Bytes;
using wire::kL2Bytes;
using wire::kUdpBytes;
constexpr uint32_t kHeaderBytes = kL2Bytes + kIpv4Bytes + kUdpBytes + kBthBytes;

}  // namespace

bool PsnRenumber::rewrite(rte_mbuf* frame) {
  uint8_t* d = rte_pktmbuf_mtod(frame, uint8_t*);
  const uint32_t len = rte_pktmbuf_data_len(frame);
  const uint8_t* ip = d + kL2Bytes;
  const uint8_t* udp = ip + kIpv4Bytes;
  auto* bth = reinterpret_cast<wire::Bth*>(d + kL2Bytes + kIpv4Bytes + kUdpBytes);
  if (len < kHeaderBytes + wire::kIcrcBytes || wire::load_be16(d + 12) != wire::kEtherTypeIpv4 || ip[0] != 0x45 ||
      ip[9] != 17 || wire::load_be16(udp + 2) != wire::kRoceV2Port) {
    ++passed_;
    return false;
  }
  const uint32_t qp = wire::load_be24(bth->dest_qp) - first_qpn_;  // wraps below the first
  if (qp >= next_psn_.size()) {
    ++passed_;
    return false;
  }
  const uint32_t psn = next_psn_[qp];
  next_psn_[qp] = (psn + 1) & 0xFF'FFFF;
  // A byte at offset o lies icrc_at - o bytes from the end of what the ICRC covers.
  const uint32_t icrc_at = len - wire::kIcrcBytes;
  const uint32_t psn_at = kL2Bytes + kIpv4Bytes + kUdpBytes + offsetof(wire::Bth, psn_be);
  const wire::IcrcTables& t = wire::IcrcTables::get();
  uint32_t icrc = wire::load_icrc(d + icrc_at);
  for (uint32_t i = 0; i < 3; ++i) {
    const auto byte = static_cast<uint8_t>(psn >> (8 * (2 - i)));
    uint8_t& at = bth->psn_be[i];
    icrc = t.patch(icrc, icrc_at - (psn_at + i), static_cast<uint8_t>(at ^ byte));
    at = byte;
  }
  wire::store_icrc(d + icrc_at, icrc);
  ++rewritten_;
  return true;
}

}  // namespace rtb::bench
