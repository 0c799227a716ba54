// Hosts in virtual time for tests: pools shared by the binary (one EAL per process), two
// hosts joined by a cable directly or through a relay stage that can mark CE, and a
// run helper that checks every mbuf came back.
#pragma once

#include <rte_mbuf.h>

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <vector>

#include "cc_algos/controller.h"
#include "cc_algos/registry.h"
#include "host/host.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/virtual_scheduler.h"
#include "runtime/wire_link.h"
#include "wire/ipv4.h"
#include "wire/parser.h"

namespace rtb::host::testing {

runtime::PoolSet& pools();  // created in main()

inline cc::Controller controller(const std::string& name, cc::ParamMap params = {}) {
  auto algorithm = cc::Registry::with_builtins().find(name);
  EXPECT_TRUE(algorithm.ok());
  auto c = cc::configure(algorithm.value(), params);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  return std::move(c).value();
}

inline wire::MacAddr mac(uint8_t last) { return wire::MacAddr{{0x02, 0, 0, 0, 0, last}}; }
inline uint32_t ip(uint8_t last) { return 0xC0000200u | last; }  // 192.0.2.x

inline HostConfig host_config(const std::string& name, uint8_t id) {
  HostConfig c;
  c.name = name;
  c.ports[0].mac = mac(id);
  c.ports[0].ip = ip(id);
  return c;
}

// Forwards every frame from `in` to `out`; marks CE on RoCE data frames that
// `mark(frame index)` selects (the test's stand-in for a switch's ECN marking).
class MarkingRelay final : public runtime::Stage {
 public:
  MarkingRelay(std::string name, runtime::WireLink& in, runtime::WireLink& out)
      : Stage(std::move(name)), in_(in), out_(out) {}
  std::function<bool(uint64_t)> mark = [](uint64_t) { return false; };
  uint64_t marked = 0;

  void poll(Time now) override {
    rte_mbuf* burst[32];
    const uint32_t n = in_.receive(now, burst, 32);
    for (uint32_t i = 0; i < n; ++i) {
      maybe_mark(burst[i]);
      queue_.push_back(burst[i]);
    }
    while (!queue_.empty() && out_.can_send(now)) {
      out_.send(now, queue_.front());
      queue_.pop_front();
    }
  }
  Time next_deadline() const override {
    const Time arrival = in_.next_arrival();
    return queue_.empty() ? arrival : std::min(arrival, out_.free_at());
  }

 private:
  void maybe_mark(rte_mbuf* m) {
    auto* data = rte_pktmbuf_mtod(m, uint8_t*);
    wire::ParsedFrame f;
    wire::ParseOptions opt;
    if (wire::parse_frame(data, rte_pktmbuf_data_len(m), opt, f) != wire::ParseError::Ok) return;
    if (f.cls != wire::FrameClass::RoceData || !mark(index_++)) return;
    wire::set_ecn_in_place(*reinterpret_cast<wire::Ipv4Hdr*>(data + f.l3_offset), wire::Ecn::Ce);
    ++marked;
  }
  runtime::WireLink& in_;
  runtime::WireLink& out_;
  std::deque<rte_mbuf*> queue_;
  uint64_t index_ = 0;
};

inline runtime::WireLinkConfig link(const std::string& name, Rate rate, Time prop) {
  return runtime::WireLinkConfig{name, rate, prop, Bytes(9'216)};
}

// Host A sends to host B over a cable (A.tx = a_to_b), optionally through a relay in
// the A->B direction (then two cables: A - relay - B). Both hosts take their mbufs from
// `own_pools` when given, else from the binary's shared pools().
struct TwoHosts {
  TwoHosts(const cc::Controller& cc_a, const cc::Controller& cc_b, HostConfig ca,
           HostConfig cb, uint32_t qps, Rate rate = Rate::gbps(100),
           Time prop = Time::us(1), bool relay = false, runtime::PoolSet* own_pools = nullptr)
      : ab(link("a->b", rate, prop)), ba(link("b->a", rate, prop)),
        rb(link("relay->b", rate, Time::zero())) {
    runtime::PoolSet& p = own_pools != nullptr ? *own_pools : pools();
    HostPools hp{&p.data(), &p.control()};
    runtime::WireLink* b_in = relay ? &rb : &ab;
    a = std::move(Host::create(ca, {{&ab, &ba}}, cc_a, hp, qps)).value();
    b = std::move(Host::create(cb, {{&ba, b_in}}, cc_b, hp, qps)).value();
    if (relay) marker = std::make_unique<MarkingRelay>("relay", ab, rb);
  }
  // Adds `count` more QP pairs (A's next QP <-> B's next QP), each as `spec`.
  void connect(uint32_t count, QpSpec spec = {}) {
    for (uint32_t i = 0; i < count; ++i) {
      QpSpec sa = spec, sb = spec;
      sa.peer_qpn = b->qpn(b->qp_count());
      sa.peer_mac = mac(2);
      sa.peer_ip = ip(2);
      sb.peer_qpn = a->qpn(a->qp_count());
      sb.peer_mac = mac(1);
      sb.peer_ip = ip(1);
      ASSERT_TRUE(a->add_qp(sa).ok());
      ASSERT_TRUE(b->add_qp(sb).ok());
    }
  }
  runtime::RunStats run(Time until = Time::never()) {
    if (!started) {
      started = true;
      scheduler.add(*a);
      scheduler.add(*b);
      if (marker) scheduler.add(*marker);
      ab.connect_receiver(&scheduler, marker ? marker->id() : b->id());
      ba.connect_receiver(&scheduler, a->id());
      if (marker) rb.connect_receiver(&scheduler, b->id());
    }
    return scheduler.run(until);
  }
  ~TwoHosts() {
    ab.drain();
    ba.drain();
    rb.drain();
  }

  runtime::WireLink ab, ba, rb;
  std::unique_ptr<Host> a, b;
  std::unique_ptr<MarkingRelay> marker;
  runtime::VirtualScheduler scheduler;
  bool started = false;
};

}  // namespace rtb::host::testing
