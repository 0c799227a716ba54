#include "switch/egress_scheduler.h"

#include <algorithm>

namespace rtb::sw {

EgressScheduler::EgressScheduler(const std::array<SchedulerConfig, kPriorities>& config,
                                 uint32_t quantum_bytes) {
  for (int q = 0; q < kPriorities; ++q) {
    if (config[q].type == SchedulerConfig::Type::kStrict) {
      strict_mask_ |= static_cast<uint8_t>(1u << q);
    } else {
      dwrr_mask_ |= static_cast<uint8_t>(1u << q);
      quantum_[q] = uint64_t{config[q].weight} * quantum_bytes;
    }
  }
}

void EgressScheduler::advance() {
  cur_ = (cur_ + 1) % kPriorities;
  fresh_ = true;
}

int EgressScheduler::select(uint8_t eligible, const std::array<uint32_t, kPriorities>& head_bytes) {
  if (const uint8_t strict = eligible & strict_mask_; strict != 0) return 31 - __builtin_clz(strict);
  const uint8_t dwrr = eligible & dwrr_mask_;
  if (dwrr == 0) return -1;
  // At most one lap to reach a backlogged queue and one more step past a queue whose
  // credit ran out: its next visit gives at least one frame's credit. Passing queues
  // with nothing eligible is done in one jump that counts one step per queue passed.
  constexpr int kSteps = 2 * kPriorities + 1;
  for (int step = 0; step < kSteps;) {
    if (((dwrr >> cur_) & 1u) == 0) {
      const unsigned rotated = (dwrr >> cur_ | dwrr << (kPriorities - cur_)) & 0xFFu;
      const int passed = std::min(__builtin_ctz(rotated), kSteps - step);
      cur_ = (cur_ + passed) % kPriorities;
      fresh_ = true;
      step += passed;
      continue;
    }
    ++step;
    if (fresh_) {
      deficit_[cur_] += quantum_[cur_];
      fresh_ = false;
    }
    if (head_bytes[cur_] <= deficit_[cur_]) return cur_;
    advance();
  }
  return -1;
}

void EgressScheduler::on_sent(int queue, uint32_t bytes, bool now_empty) {
  if (((dwrr_mask_ >> queue) & 1u) == 0) return;
  deficit_[queue] = deficit_[queue] > bytes ? deficit_[queue] - bytes : 0;
  if (now_empty) {
    deficit_[queue] = 0;
    if (queue == cur_) advance();
  }
}

}  // namespace rtb::sw
