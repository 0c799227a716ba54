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
  while (exact_count_ < entries_.size() && entries_[exact_count_].mask == ~uint32_t{0}) {
    exact_.emplace_back(entries_[exact_count_].prefix, exact_count_);
    ++exact_count_;
  }
  // Stable: of two routes to one address the first (as the scan would find it) is kept.
  std::stable_sort(exact_.begin(), exact_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  exact_.erase(std::unique(exact_.begin(), exact_.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first; }),
               exact_.end());
}

// The first matching entry in longest-prefix order: an exact /32 route if there is one
// (they come first), else the first shorter prefix that matches.
int RouteTable::lookup(const FlowKey& key) const {
  const auto it = std::lower_bound(exact_.begin(), exact_.end(), key.dst_ip,
                                   [](const auto& e, uint32_t ip) { return e.first < ip; });
  if (it != exact_.end() && it->first == key.dst_ip) return forward(entries_[it->second], key);
  for (uint32_t i = exact_count_; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if ((key.dst_ip & e.mask) == e.prefix) return forward(e, key);
  }
  return kNoPort;
}

int RouteTable::forward(const Entry& e, const FlowKey& key) const {
  if (e.hops == 1) return hops_[e.first_hop];
  // Lemire's multiply-shift maps the hash onto [0, hops) without a division.
  const uint64_t h = flow_hash(key, seed_) >> 32;
  return hops_[e.first_hop + static_cast<uint32_t>((h * e.hops) >> 32)];
}

}  // namespace rtb::sw
