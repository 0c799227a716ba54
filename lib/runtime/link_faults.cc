#include "runtime/link_faults.h"

#include <rte_mbuf.h>

#include <algorithm>

#include "wire/mbuf_frame.h"

namespace rtb::runtime {
namespace {

constexpr uint32_t kEthernetHeader = 14;

std::span<const uint8_t> bytes_of(rte_mbuf* m) {
  return {rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m)};
}

}  // namespace

void LinkFaults::drop_frames(std::vector<uint64_t> indices) {
  std::sort(indices.begin(), indices.end());
  drop_indices_ = std::move(indices);
}

void LinkFaults::corrupt_frames(std::vector<uint64_t> indices) {
  std::sort(indices.begin(), indices.end());
  corrupt_indices_ = std::move(indices);
}

bool LinkFaults::contains(const std::vector<uint64_t>& sorted, uint64_t index) {
  return std::binary_search(sorted.begin(), sorted.end(), index);
}

bool LinkFaults::down_at(Time t) const {
  return std::any_of(down_.begin(), down_.end(),
                     [t](const Interval& i) { return i.from <= t && t < i.to; });
}

// Both chance draws happen for every frame whatever the outcome, so whether frame k is
// dropped by chance does not depend on what happened to earlier frames.
bool LinkFaults::should_drop(uint64_t index, std::span<const uint8_t> bytes, bool by_chance) {
  return by_chance || contains(drop_indices_, index) || (drop_if_ && drop_if_(bytes));
}

bool LinkFaults::should_corrupt(uint64_t index, std::span<const uint8_t> bytes, bool by_chance) {
  return by_chance || contains(corrupt_indices_, index) || (corrupt_if_ && corrupt_if_(bytes));
}

void LinkFaults::corrupt(rte_mbuf* frame) {
  const uint32_t len = rte_pktmbuf_data_len(frame);
  if (len == 0) return;
  uint32_t offset;
  if (corrupt_offset_) {
    offset = std::min(*corrupt_offset_, len - 1);
  } else if (len > kEthernetHeader) {
    offset = kEthernetHeader + static_cast<uint32_t>(rng_.uniform_int(len - kEthernetHeader));
  } else {
    offset = static_cast<uint32_t>(rng_.uniform_int(len));
  }
  rte_pktmbuf_mtod(frame, uint8_t*)[offset] ^= 0x01;
  // A flipped payload byte would outlive this frame in a data pool: record it so the next
  // builder of this mbuf restores the pattern.
  if (const int64_t p = wire::payload_offset(frame, offset); p >= 0) {
    wire::mark_payload_dirty(frame, static_cast<uint32_t>(p), static_cast<uint32_t>(p) + 1);
  }
}

LinkFaults::Verdict LinkFaults::judge(uint64_t index, Time start, rte_mbuf* frame) {
  const bool drop_chance = drop_probability_ > 0.0 && rng_.bernoulli(drop_probability_);
  const bool corrupt_chance = corrupt_probability_ > 0.0 && rng_.bernoulli(corrupt_probability_);
  if (down_at(start)) return Verdict::kLinkDown;
  const std::span<const uint8_t> bytes = bytes_of(frame);
  if (should_drop(index, bytes, drop_chance)) return Verdict::kDrop;
  if (should_corrupt(index, bytes, corrupt_chance)) {
    corrupt(frame);
    return Verdict::kCorrupted;
  }
  return Verdict::kPass;
}

}  // namespace rtb::runtime
