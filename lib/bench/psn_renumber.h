// Renumbers the PSNs of a replayed capture's RDMA WRITE frames so that every QP's frames
// arrive in sequence, pass after pass. A capture replayed endlessly (net_pcap with
// infinite_rx) repeats its PSNs: from the second pass a responder would take every frame
// for a duplicate and answer it with an ACK (IBTA vol 1 §9.7.5.1.2), which is not the
// in-order receive path a receive benchmark measures.
//
// Each frame of a known QP (destination QPN first_qpn .. first_qpn + qps - 1) gets its QP's
// next PSN in the BTH's last three bytes, and its ICRC is patched for the changed bytes
// with the incremental tables (wire/icrc_tables.h: f(M') = f(M) xor Z[d][delta] per byte
// at distance d from the end of the covered bytes), so the receiver's full ICRC check
// still finds a valid frame, and a frame that arrived with a wrong ICRC still has one.
// Untagged Ethernet, IPv4 without options, UDP port 4791: the frames
// bench/source_capture.h writes; anything else is left as it is and counted.
#pragma once

#include <cstdint>
#include <vector>

struct rte_mbuf;

namespace rtb::bench {

class PsnRenumber {
 public:
  PsnRenumber(uint32_t first_qpn, uint32_t qps) : first_qpn_(first_qpn), next_psn_(qps, 0) {}

  // Gives `frame` its QP's next PSN; false (frame unchanged) when it is not an IPv4
  // RoCEv2 frame of one of the QPs.
  bool rewrite(rte_mbuf* frame);
  // The EthBridge receive hook (ethport/eth_bridge.h): `context` is a PsnRenumber.
  static void hook(void* context, rte_mbuf* frame) { static_cast<PsnRenumber*>(context)->rewrite(frame); }

  uint64_t rewritten() const { return rewritten_; }
  uint64_t passed() const { return passed_; }  // frames left as they were

 private:
  uint32_t first_qpn_;
  std::vector<uint32_t> next_psn_;  // per QP, 24 bits
  uint64_t rewritten_ = 0;
  uint64_t passed_ = 0;
};

}  // namespace rtb::bench
