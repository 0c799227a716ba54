#include "switch/route_table.h"

#include <algorithm>

namespace rtb::sw {

RouteTable::RouteTable(const std::vector<Route>& routes, uint64_t hash_seed) : seed_(hash_seed) {
  std::vector<const Route*> sorted;
  for (const Route& r : routes) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Route* a, const Route* b) {
    return a->prefix_len > b->prefix_len;
  });
  for (const Route* r : sorted) {
    const uint32_t mask = r->prefix_len == 0 ? 0 : ~uint32_t{0} << (32 - r->prefix_len);
    entries_.push_back({r->prefix & mask, mask, static_cast<uint32_t>(hops_.size()),
                        static_cast<uint32_t>(r->ports.size())});
    hops_.insert(hops_.end(), r->ports.begin(), r->ports.end());
  }
}

int RouteTable::lookup(const FlowKey& key) const {
  for (const Entry& e : entries_) {
    if ((key.dst_ip & e.mask) != e.prefix) continue;
    if (e.hops == 1) return hops_[e.first_hop];
    // Lemire's multiply-shift maps the hash onto [0, hops) without a division.
    const uint64_t h = flow_hash(key, seed_) >> 32;
    return hops_[e.first_hop + static_cast<uint32_t>((h * e.hops) >> 32)];
  }
  return kNoPort;
}

}  // namespace rtb::sw
