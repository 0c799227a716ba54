// Fault hooks on a wire link: drop or corrupt chosen frames, and take
// the link down and up at given times. Decisions are made when a frame starts on the wire,
// from the frame's index on the link (0 = first frame ever started), the link's own seeded
// generator, or a predicate on the frame's bytes, so a run is deterministic under its seed.
//
// A corrupted frame is delivered with one byte flipped (XOR 0x01): what a bit error the
// Ethernet FCS missed would look like, so receivers' ICRC and checksum checks are tested.
// A frame is lost to a link-down if the link is down when it starts or when it arrives.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "core/rng.h"
#include "core/units.h"

struct rte_mbuf;

namespace rtb::runtime {

// Decides from a frame's bytes; runs at set-up speed (a std::function call per frame).
using FramePredicate = std::function<bool(std::span<const uint8_t> frame)>;

class LinkFaults {
 public:
  enum class Verdict { kPass, kDrop, kCorrupted, kLinkDown };

  explicit LinkFaults(Rng rng) : rng_(rng) {}

  void drop_frames(std::vector<uint64_t> indices);
  void drop_with_probability(double p) { drop_probability_ = p; }
  void drop_if(FramePredicate predicate) { drop_if_ = std::move(predicate); }

  // Byte flipped in a corrupted frame: a fixed offset (clamped to the frame), or, if
  // unset, a seeded random offset past the Ethernet header.
  void corrupt_frames(std::vector<uint64_t> indices);
  void corrupt_with_probability(double p) { corrupt_probability_ = p; }
  void corrupt_if(FramePredicate predicate) { corrupt_if_ = std::move(predicate); }
  void corrupt_at_offset(uint32_t offset) { corrupt_offset_ = offset; }

  // The link is down during [from, to).
  void down_between(Time from, Time to) { down_.push_back({from, to}); }
  bool down_at(Time t) const;

  // Applies the hooks to the frame that starts at `start` as the link's frame `index`.
  Verdict judge(uint64_t index, Time start, rte_mbuf* frame);

 private:
  struct Interval {
    Time from;
    Time to;
  };
  static bool contains(const std::vector<uint64_t>& sorted, uint64_t index);
  bool should_drop(uint64_t index, std::span<const uint8_t> bytes, bool by_chance);
  bool should_corrupt(uint64_t index, std::span<const uint8_t> bytes, bool by_chance);
  void corrupt(rte_mbuf* frame);

  Rng rng_;
  std::vector<uint64_t> drop_indices_;
  double drop_probability_ = 0.0;
  FramePredicate drop_if_;
  std::vector<uint64_t> corrupt_indices_;
  double corrupt_probability_ = 0.0;
  FramePredicate corrupt_if_;
  std::optional<uint32_t> corrupt_offset_;
  std::vector<Interval> down_;
};

}  // namespace rtb::runtime
