// A stage for the parallel virtual-time tests: an echo that bounces frames back over a
// cable, counting down a hop count in their first byte, and records when each arrived.
#pragma once

#include <rte_mbuf.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "runtime/stage.h"
#include "runtime/wire_link.h"
#include "tests/runtime/test_pool.h"

namespace rtb::runtime::testing {

struct Event {
  Time at;
  uint8_t hops_left;
  bool operator==(const Event&) const = default;
};

// Sends every frame it receives back out, `turnaround` later, with its first byte (hops
// left) one lower; frees it at 0. Starts with frames of its own at given instants.
class Echo final : public Stage {
 public:
  Echo(std::string name, WireLink& in, WireLink& out, Time turnaround)
      : Stage(std::move(name)), in_(in), out_(out), turnaround_(turnaround) {}
  ~Echo() override {
    for (const Pending& p : pending_) rte_pktmbuf_free(p.frame);
  }
  void start_with(Time at, uint8_t hops) { pending_.push_back({at, make_frame(200 + hops, hops)}); }
  void poll(Time now) override {
    rte_mbuf* burst[16];
    while (uint32_t n = in_.receive(now, burst, 16)) {
      for (uint32_t i = 0; i < n; ++i) {
        uint8_t& hops = *rte_pktmbuf_mtod(burst[i], uint8_t*);
        arrivals_.push_back({now, hops});
        if (hops == 0) {
          rte_pktmbuf_free(burst[i]);
          continue;
        }
        --hops;
        pending_.push_back({now + turnaround_, burst[i]});
      }
    }
    while (!pending_.empty() && pending_.front().at <= now && out_.can_send(now)) {
      out_.send(now, pending_.front().frame);
      pending_.pop_front();
    }
  }
  Time next_deadline() const override {
    Time t = in_.next_arrival();
    if (!pending_.empty()) t = std::min(t, std::max(pending_.front().at, out_.free_at()));
    return t;
  }
  const std::vector<Event>& arrivals() const { return arrivals_; }
  uint64_t received() const { return arrivals_.size(); }

 private:
  struct Pending {
    Time at;
    rte_mbuf* frame;
  };
  WireLink& in_;
  WireLink& out_;
  Time turnaround_;
  std::deque<Pending> pending_;
  std::vector<Event> arrivals_;
};

}  // namespace rtb::runtime::testing
