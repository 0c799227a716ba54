// A hierarchical bitmap over the timing wheel's slots: bit i of level 0 says slot i holds
// flows; bit j of level k+1 says word j of level k is non-zero. Finding the next
// non-empty slot costs one word per level (4 levels for 2^20 slots), so an idle stretch
// of the wheel is skipped in O(1) instead of slot by slot.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace rtb::cc {

class SlotBitmap {
 public:
  static constexpr uint64_t kNone = UINT64_MAX;

  explicit SlotBitmap(uint64_t bits) {
    uint64_t n = bits;
    do {
      const uint64_t words = (n + 63) / 64;
      levels_.emplace_back(words, 0);
      n = words;
    } while (n > 1);
    top_ = levels_.back().data();
  }
  // The levels' buffers move with the bitmap; a copy would need its own top_.
  SlotBitmap(SlotBitmap&&) = default;
  SlotBitmap& operator=(SlotBitmap&&) = default;
  SlotBitmap(const SlotBitmap&) = delete;
  SlotBitmap& operator=(const SlotBitmap&) = delete;

  void set(uint64_t i) {
    for (auto& level : levels_) {
      uint64_t& w = level[i >> 6];
      const bool was_empty = w == 0;
      w |= uint64_t{1} << (i & 63);
      if (!was_empty) return;
      i >>= 6;
    }
  }

  void clear(uint64_t i) {
    for (auto& level : levels_) {
      uint64_t& w = level[i >> 6];
      w &= ~(uint64_t{1} << (i & 63));
      if (w != 0) return;
      i >>= 6;
    }
  }

  bool test(uint64_t i) const { return (levels_[0][i >> 6] >> (i & 63)) & 1; }
  bool empty() const { return *top_ == 0; }  // the top level is one word

  // The first set bit at index >= i, or kNone. The usual answer lies in i's own word, or
  // nowhere (an empty wheel level): both are told inline, and only the rest climbs the
  // levels.
  uint64_t find_from(uint64_t i) const {
    const std::vector<uint64_t>& words = levels_[0];
    if ((i >> 6) >= words.size()) return kNone;
    const uint64_t bits = words[i >> 6] & (~uint64_t{0} << (i & 63));
    if (bits != 0) return (i & ~uint64_t{63}) | static_cast<uint64_t>(std::countr_zero(bits));
    if (empty()) return kNone;
    return find(0, i);
  }

 private:
  uint64_t find(size_t level, uint64_t i) const {
    const auto& words = levels_[level];
    if ((i >> 6) >= words.size()) return kNone;
    const uint64_t bits = words[i >> 6] & (~uint64_t{0} << (i & 63));
    if (bits != 0) return (i & ~uint64_t{63}) | static_cast<uint64_t>(std::countr_zero(bits));
    if (level + 1 == levels_.size()) return kNone;  // the top level is a single word
    const uint64_t w = find(level + 1, (i >> 6) + 1);
    if (w == kNone) return kNone;
    return (w << 6) | static_cast<uint64_t>(std::countr_zero(words[w]));
  }

  std::vector<std::vector<uint64_t>> levels_;
  const uint64_t* top_;  // levels_.back()[0], read by every empty() without the indirections
};

}  // namespace rtb::cc
