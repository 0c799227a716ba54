// A FIFO on a circular buffer sized at start-up. It doubles if a burst outgrows it (an
// allocation, once per new peak, never per frame in a steady state), so nothing is ever
// dropped for lack of room.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace rtb::host {

template <typename T>
class Fifo {
 public:
  explicit Fifo(uint32_t capacity = 64) : items_(std::bit_ceil(capacity < 2 ? 2u : capacity)) {}

  bool empty() const { return count_ == 0; }
  uint32_t size() const { return count_; }
  const T& front() const { return items_[head_]; }
  T& front() { return items_[head_]; }
  const T& at(uint32_t k) const { return items_[(head_ + k) & mask()]; }  // k < size()
  void pop() {
    head_ = (head_ + 1) & mask();
    --count_;
  }
  void push(const T& item) {
    if (count_ == items_.size()) grow();
    items_[(head_ + count_) & mask()] = item;
    ++count_;
  }

 private:
  uint32_t mask() const { return static_cast<uint32_t>(items_.size()) - 1; }
  void grow() {
    std::vector<T> bigger(items_.size() * 2);
    for (uint32_t i = 0; i < count_; ++i) bigger[i] = items_[(head_ + i) & mask()];
    items_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> items_;
  uint32_t head_ = 0;
  uint32_t count_ = 0;
};

}  // namespace rtb::host
