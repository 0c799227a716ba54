// Forwarding by destination address, longest prefix first, with ECMP over equal-cost
// egress ports: the port is chosen by a deterministic hash of the flow's 5-tuple and a
// per-switch seed (never std::hash), so one flow always takes one path and fabrics where
// every switch uses the same seed show the hash polarization real fabrics do.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "switch/config.h"

namespace rtb::sw {

struct FlowKey {
  uint32_t src_ip = 0;
  uint32_t dst_ip = 0;
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint8_t protocol = 0;
};

// The 5-tuple mixed with the MurmurHash3 64-bit finalizer (Appleby, fmix64), twice.
constexpr uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}
constexpr uint64_t flow_hash(const FlowKey& k, uint64_t seed) {
  const uint64_t a = (uint64_t{k.src_ip} << 32) | k.dst_ip;
  const uint64_t b = (uint64_t{k.src_port} << 24) | (uint64_t{k.dst_port} << 8) | k.protocol;
  return fmix64(fmix64(a ^ seed) ^ b);
}

inline constexpr int kNoPort = -1;

class RouteTable {
 public:
  RouteTable(const std::vector<Route>& routes, uint64_t hash_seed);
  // The egress port for this flow, or kNoPort.
  int lookup(const FlowKey& key) const;

 private:
  struct Entry {
    uint32_t prefix, mask;
    uint32_t first_hop, hops;
  };
  int forward(const Entry& e, const FlowKey& key) const;

  std::vector<Entry> entries_;  // longest prefix first
  // The /32 routes (the first exact_count_ entries) by address, each address's first
  // entry: a fabric's host routes found in log2(n) steps instead of a scan of all of them.
  std::vector<std::pair<uint32_t, uint32_t>> exact_;  // (address, entry index), sorted
  uint32_t exact_count_ = 0;
  std::vector<uint16_t> hops_;
  uint64_t seed_;
};

}  // namespace rtb::sw
