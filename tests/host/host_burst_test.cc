// Catch-up (lib/realtime/catch_up.h) runs a host at its own modelled instants: driven by a
// realtime loop whose `now` jumps by up to microseconds, it starts every frame exactly when
// virtual time does (pacer, arbiter and PFC pauses exact per frame inside a burst).
//
//   A (3 QPs, fixed_rate 40 Gb/s each: paced, and 120% of the 100 Gb/s wire: the arbiter
//   shares it) --ab--> Recorder --rb--> Pauser, which frees every frame and sends XOFF
//   frames --ba--> A that pause A's priority 3 in the middle of bursts. (The run is far
//   shorter than A's retransmission timeout, so nothing needs acknowledging.)
#include <rte_mbuf.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <deque>
#include <string>
#include <memory>
#include <tuple>
#include <vector>

#include "core/rng.h"
#include "host/host.h"
#include "realtime/lcore_loop.h"
#include "runtime/pool/mbuf_pool_meta.h"
#include "runtime/virtual_scheduler.h"
#include "tests/host/host_fixture.h"
#include "wire/mbuf_frame.h"
#include "wire/pfc.h"

namespace rtb::host {
namespace {

using testing::controller;
using testing::host_config;
using testing::link;
using testing::mac;
using testing::ip;

// (QP, PSN, modelled start) of every data frame A sent, in arrival order.
using Start = std::tuple<uint32_t, uint64_t, uint64_t>;

// Records each data frame's start time (FrameMeta: set when the host started it) and
// forwards it at once.
class Recorder final : public runtime::Stage {
 public:
  Recorder(runtime::WireLink& in, runtime::WireLink& out) : Stage("recorder"), in_(in), out_(out) {}
  void poll(Time now) override {
    rte_mbuf* burst[32];
    const uint32_t n = in_.receive(now, burst, 32);
    for (uint32_t i = 0; i < n; ++i) {
      const runtime::FrameMeta& m = runtime::frame_meta(burst[i]);
      if ((m.flags & runtime::kFrameControl) == 0) starts.emplace_back(m.flow_id, m.seq, m.sent_ps);
      queue_.push_back(burst[i]);
    }
    while (!queue_.empty() && out_.can_send(now)) {
      out_.send(now, queue_.front());
      queue_.pop_front();
    }
  }
  Time next_deadline() const override {
    return queue_.empty() ? in_.next_arrival() : std::min(in_.next_arrival(), out_.free_at());
  }
  ~Recorder() override {
    for (rte_mbuf* m : queue_) rte_pktmbuf_free(m);
  }
  std::vector<Start> starts;

 private:
  runtime::WireLink& in_;
  runtime::WireLink& out_;
  std::deque<rte_mbuf*> queue_;
};

constexpr Time kRun = Time::us(300);

// A NIC whose receive side is stuck: XOFF for priority 3, 200 quanta (1.024 us at
// 100 Gb/s), every 15 us from 40 to 200 us; everything that reaches it is freed.
class Pauser final : public runtime::Stage {
 public:
  Pauser(runtime::WireLink& in, runtime::WireLink& out) : Stage("pauser"), in_(in), out_(out) {}
  void poll(Time now) override {
    rte_mbuf* burst[32];
    while (const uint32_t n = in_.receive(now, burst, 32)) rte_pktmbuf_free_bulk(burst, n);
    for (; next_ <= now && next_ < Time::us(200); next_ += Time::us(15)) {
      wire::PfcFields f;
      f.src = mac(2);
      f.vector = 1u << 3;
      f.quanta[3] = 200;
      rte_mbuf* m = testing::pools().control().alloc();  // fatal when empty: a virtual-time pool
      EXPECT_TRUE(wire::build_pfc_mbuf(f, m));
      runtime::frame_meta(m).flags = runtime::kFrameControl;
      out_.send_control(now, m);
    }
  }
  Time next_deadline() const override {
    return std::min(in_.next_arrival(), next_ < Time::us(200) ? next_ : Time::never());
  }

 private:
  runtime::WireLink& in_;
  runtime::WireLink& out_;
  Time next_ = Time::us(40);
};

struct Rig {
  Rig(const cc::Controller& cc, const HostConfig& ca)
      : ab(link("a->rec", Rate::gbps(100), Time::ns(500))),
        rb(link("rec->b", Rate::gbps(400), Time::zero())),
        ba(link("b->a", Rate::gbps(100), Time::ns(500))) {
    runtime::PoolSet& p = testing::pools();
    HostPools hp{&p.data(), &p.control()};
    a = std::move(Host::create(ca, {{&ab, &ba}}, cc, hp, 3)).value();
    recorder = std::make_unique<Recorder>(ab, rb);
    pauser = std::make_unique<Pauser>(rb, ba);
    for (uint32_t q = 0; q < 3; ++q) {
      QpSpec sa;
      sa.requester.path_mtu = 1024;
      sa.peer_qpn = 0x100 + q;
      sa.peer_mac = mac(2);
      sa.peer_ip = ip(2);
      EXPECT_TRUE(a->add_qp(sa).ok());
      a->post(q, 4'000'000, Time::ns(37) * q);
    }
  }
  ~Rig() {
    a.reset();
    recorder.reset();
    pauser.reset();
    ab.drain();
    rb.drain();
    ba.drain();
  }
  runtime::WireLink ab, rb, ba;
  std::unique_ptr<Host> a;
  std::unique_ptr<Recorder> recorder;
  std::unique_ptr<Pauser> pauser;
};

std::vector<Start> virtual_starts(const cc::Controller& cc) {
  const HostConfig ca = host_config("a", 1);
  Rig r(cc, ca);
  runtime::VirtualScheduler s;
  s.add(*r.pauser);
  s.add(*r.a);
  s.add(*r.recorder);
  r.ab.connect_receiver(&s, r.recorder->id());
  r.rb.connect_receiver(&s, r.pauser->id());
  r.ba.connect_receiver(&s, r.a->id());
  s.run(kRun);
  return r.recorder->starts;
}

// The same stages in a realtime loop (the pauser first: its PFC frames reach A before A
// runs past them), `now` advancing by seeded random steps of `min_step` .. `max_step`.
std::vector<Start> catch_up_starts(const cc::Controller& cc, realtime::CatchUp bounds, Time min_step,
                                   Time max_step, realtime::CatchUpCounters& counters) {
  const HostConfig ca = host_config("a", 1);
  Rig r(cc, ca);
  realtime::LcoreLoop loop(0);
  loop.set_catch_up(bounds);
  loop.add(*r.pauser);
  loop.add(*r.a);
  loop.add(*r.recorder);
  Rng rng(7, 1);
  const uint64_t span = (max_step - min_step).ps();
  for (Time now = Time::zero(); now <= kRun; now += min_step + Time::ps(rng.uniform_int(span))) {
    loop.iterate(now);
  }
  loop.iterate(kRun);
  counters = loop.catch_up_counters();
  return r.recorder->starts;
}

// Frames that started before `end` (the realtime run may stop a few frames short).
std::vector<Start> before(std::vector<Start> v, Time end) {
  std::erase_if(v, [end](const Start& s) { return std::get<2>(s) >= end.ps(); });
  return v;
}

// "" when equal, else the first frame that differs.
std::string first_difference(const std::vector<Start>& got, const std::vector<Start>& want) {
  for (size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
    if (i >= got.size() || i >= want.size() || got[i] != want[i]) {
      auto str = [](const std::vector<Start>& v, size_t k) {
        return k < v.size() ? fmt::format("qp {} psn {} at {} ps", std::get<0>(v[k]), std::get<1>(v[k]), std::get<2>(v[k]))
                            : std::string("none");
      };
      return fmt::format("frame {} of {}/{}: got {}, want {}", i, got.size(), want.size(), str(got, i), str(want, i));
    }
  }
  return "";
}

// Counts the polls of the stage it wraps.
class PollCounter final : public runtime::Stage {
 public:
  explicit PollCounter(runtime::Stage& s) : Stage("counter"), s_(s) {}
  void poll(Time now) override {
    ++polls;
    s_.poll(now);
  }
  Time next_deadline() const override { return s_.next_deadline(); }
  uint64_t polls = 0;

 private:
  runtime::Stage& s_;
};

TEST(HostCatchUp, AHostAtTheWiresRateIsPolledOncePerFrame) {
  // 120% of the wire: each QP's pacer release falls before the wire is free for it, and
  // only the wire decides when a frame starts. The pacer makes the host due no earlier
  // than the wire is free, so a poll per frame, not one for the release and one to send.
  const cc::Controller cc = controller("fixed_rate", {{"rate_mbps", int64_t{40'000}}});
  Rig r(cc, host_config("a", 1));
  PollCounter a(*r.a);
  runtime::VirtualScheduler s;
  s.add(*r.pauser);
  s.add(a);
  s.add(*r.recorder);
  r.ab.connect_receiver(&s, r.recorder->id());
  r.rb.connect_receiver(&s, r.pauser->id());
  r.ba.connect_receiver(&s, a.id());
  s.run(Time::us(39));  // before the first XOFF
  const uint64_t frames = r.ab.counters().frames;
  ASSERT_GT(frames, 400u);  // 39 us at 100 Gb/s of 1,106-byte frames on the wire: 440
  EXPECT_LE(a.polls, frames + frames / 10) << a.polls << " polls for " << frames << " frames";
}

TEST(HostCatchUp, StartsEveryFrameWhenVirtualTimeDoesAcrossBurstsAndPauses) {
  const cc::Controller cc = controller("fixed_rate", {{"rate_mbps", int64_t{40'000}}});
  const std::vector<Start> want = before(virtual_starts(cc), kRun - Time::us(5));
  ASSERT_GT(want.size(), 3'000u);  // 300 us at 100 Gb/s of 1 KiB frames: about 3,500
  realtime::CatchUpCounters c;
  const std::vector<Start> got = before(
      catch_up_starts(cc, {.window = Time::us(5), .max_polls = 64}, Time::ns(50), Time::us(2), c),
      kRun - Time::us(5));
  EXPECT_EQ(first_difference(got, want), "");
  EXPECT_GT(c.polls, want.size());  // most frames started in a catch-up poll
  EXPECT_EQ(c.window_overruns, 0u);
  EXPECT_EQ(c.burst_limited, 0u);
}

TEST(HostCatchUp, ABurstCutAtItsBoundGoesOnExactlyInTheNextIteration) {
  const cc::Controller cc = controller("fixed_rate", {{"rate_mbps", int64_t{40'000}}});
  const std::vector<Start> want = before(virtual_starts(cc), kRun - Time::us(5));
  realtime::CatchUpCounters c;
  const std::vector<Start> got = before(
      catch_up_starts(cc, {.window = Time::us(5), .max_polls = 5}, Time::ns(20), Time::ns(700), c),
      kRun - Time::us(5));
  EXPECT_EQ(first_difference(got, want), "");
  EXPECT_GT(c.burst_limited, 0u);
  EXPECT_EQ(c.window_overruns, 0u);
}

TEST(HostCatchUp, PacedQpsKeepTheirSpacingOverBurstBoundaries) {
  // Three QPs at 10 Gb/s (30% of the wire): the pacer, not the wire, spaces every frame,
  // 1,106 B at 10 Gb/s = 884.8 ns apart, whichever poll and burst it fell in.
  const cc::Controller cc = controller("fixed_rate", {{"rate_mbps", int64_t{10'000}}});
  const std::vector<Start> want = before(virtual_starts(cc), kRun - Time::us(5));
  realtime::CatchUpCounters c;
  const std::vector<Start> got = before(
      catch_up_starts(cc, {.window = Time::us(5), .max_polls = 64}, Time::ns(50), Time::us(3), c),
      kRun - Time::us(5));
  EXPECT_EQ(first_difference(got, want), "");
  std::vector<uint64_t> qp0;
  for (const Start& s : got) {
    if (std::get<0>(s) == 0) qp0.push_back(std::get<2>(s));
  }
  ASSERT_GT(qp0.size(), 100u);
  size_t spaced = 0;  // gaps of exactly one frame at 10 Gb/s, within the pacer's 1 ns slot
  for (size_t i = 1; i < qp0.size(); ++i) {
    const uint64_t gap = qp0[i] - qp0[i - 1];
    spaced += gap + 1'000 >= 884'800 && gap <= 884'800 + 1'000 ? 1 : 0;
  }
  EXPECT_GT(spaced, qp0.size() * 9 / 10);  // the rest straddle a PFC pause
}

}  // namespace
}  // namespace rtb::host
