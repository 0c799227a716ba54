// Small stages for tests of links, schedulers and switches: a sender that drains a queue of
// frames onto a link as fast as the link allows (honouring PFC pauses per priority), and a
// receiver that records what arrives and when. Header-only, used by several test binaries.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "runtime/stage.h"
#include "runtime/wire_link.h"

namespace rtb::runtime::testing {

struct QueuedFrame {
  rte_mbuf* frame;
  uint8_t priority;
  Time not_before;  // the frame may not start before this time
};

// Sends its queued frames in order; a frame whose priority is paused waits at the head.
class SenderStage final : public Stage {
 public:
  SenderStage(std::string name, WireLink& out) : Stage(std::move(name)), out_(out) {}

  void enqueue(rte_mbuf* frame, uint8_t priority = 0, Time not_before = Time::zero()) {
    queue_.push_back({frame, priority, not_before});
  }
  void poll(Time now) override {
    while (!queue_.empty() && out_.can_send(now) && queue_.front().not_before <= now &&
           out_.may_start(queue_.front().priority, now)) {
      starts_.push_back(now);
      out_.send(now, queue_.front().frame);
      queue_.pop_front();
    }
  }
  Time next_deadline() const override {
    if (queue_.empty()) return Time::never();
    const QueuedFrame& head = queue_.front();
    Time t = out_.free_at();
    if (head.not_before > t) t = head.not_before;
    const Time resume = out_.paused_until(head.priority);
    return resume > t ? resume : t;
  }
  const std::vector<Time>& starts() const { return starts_; }
  size_t queued() const { return queue_.size(); }

 private:
  WireLink& out_;
  std::deque<QueuedFrame> queue_;
  std::vector<Time> starts_;
};

struct Arrival {
  Time at;
  uint32_t length;
  uint8_t first_byte;
};

// Records and frees every frame that arrives on its input link.
class ReceiverStage final : public Stage {
 public:
  ReceiverStage(std::string name, WireLink& in) : Stage(std::move(name)), in_(in) {}
  void poll(Time now) override {
    rte_mbuf* burst[32];
    uint32_t n;
    while ((n = in_.receive(now, burst, 32)) > 0) {
      for (uint32_t i = 0; i < n; ++i) {
        arrivals_.push_back({now, rte_pktmbuf_pkt_len(burst[i]),
                             *rte_pktmbuf_mtod(burst[i], const uint8_t*)});
        rte_pktmbuf_free(burst[i]);
      }
    }
  }
  Time next_deadline() const override { return in_.next_arrival(); }
  const std::vector<Arrival>& arrivals() const { return arrivals_; }

 private:
  WireLink& in_;
  std::vector<Arrival> arrivals_;
};

}  // namespace rtb::runtime::testing
