// Forwarding behaviour of the switch stage in virtual time: ECMP placement by the 5-tuple
// hash, the ECN marking rate of a steady queue against the WRED curve (reference §1.1),
// and DWRR shares between two backlogged classes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "switch/aqm/wred.h"
#include "tests/switch/test_hosts.h"

namespace rtb::sw {
namespace {

using testing::roce_frame;
using testing::Star;

// Samples one egress queue's depth at a fixed interval over a window.
class QueueProbe final : public runtime::Stage {
 public:
  QueueProbe(const Switch& sw, uint16_t port, uint8_t queue, Time from, Time until, Time every)
      : Stage("probe"), sw_(sw), port_(port), queue_(queue), next_(from), until_(until), every_(every) {}
  void poll(Time now) override {
    if (now < next_) return;
    samples_.push_back(sw_.queue_bytes(port_, queue_));
    // The gauge a time series reads in place agrees with the full copy of the counters.
    const QueueGauge g = sw_.queue_gauge(port_, queue_);
    const SwitchCounters c = sw_.counters(now);
    const QueueCounters& q = c.ports[port_].queues[queue_];
    gauge_mismatches_ += g.depth_bytes != q.depth_bytes || g.ecn_marked_packets != q.ecn_marked_packets ||
                         g.dropped_packets != q.dropped_packets || g.pfc_tx != c.ports[port_].pfc_tx[queue_];
    marked_ = g.ecn_marked_packets;
    next_ = now + every_ < until_ ? now + every_ : Time::never();
  }
  Time next_deadline() const override { return next_; }
  const std::vector<uint64_t>& samples() const { return samples_; }
  uint64_t gauge_mismatches() const { return gauge_mismatches_; }
  uint64_t marked_when_last_sampled() const { return marked_; }

 private:
  const Switch& sw_;
  uint16_t port_;
  uint8_t queue_;
  Time next_, until_, every_;
  std::vector<uint64_t> samples_;
  uint64_t gauge_mismatches_ = 0;
  uint64_t marked_ = 0;
};

// 10.1.0.7 is host_ip(0xFFFF + 7): outside every host's /32, inside 10.1.0.0/16.
constexpr int kEcmpDst = 0xFFFF + 7;

TEST(SwitchForwarding, EcmpKeepsEachFlowOnOnePathChosenByTheHash) {
  SwitchConfig c = tuning_guide_config(5, Rate::gbps(100));
  c.ecmp_hash_seed = 0xABCD;
  c.routes.push_back({0x0A010000, 16, {1, 2, 3, 4}});
  const RouteTable reference(c.routes, c.ecmp_hash_seed);
  Star net(5, c);
  constexpr uint32_t kFlows = 200;
  for (uint32_t f = 0; f < kFlows; ++f) {
    for (uint32_t i = 0; i < 3; ++i) {
      net.host(0).enqueue(roce_frame(0, kEcmpDst, i, 256, wire::Ecn::Ect0, 26, static_cast<uint16_t>(0xC000 + f)), 3);
    }
  }
  net.scheduler.run();
  std::map<uint16_t, int> port_of_flow;
  std::array<int, 5> flows_per_port{};
  for (int h = 1; h <= 4; ++h) {
    for (const auto& a : net.host(h).arrivals()) {
      auto [it, fresh] = port_of_flow.emplace(a.sport, h);
      EXPECT_EQ(it->second, h) << "flow " << a.sport << " took two paths";
      if (!fresh) continue;
      ++flows_per_port[h];
      EXPECT_EQ(reference.lookup({a.src_ip, a.dst_ip, a.sport, 4791, 17}), h);
    }
  }
  EXPECT_EQ(port_of_flow.size(), kFlows);
  for (int h = 1; h <= 4; ++h) EXPECT_GT(flows_per_port[h], 25) << "port " << h;  // mean 50
}

// Host 1's 200-frame burst builds a queue of about 200 frames that host 0's line-rate
// stream then holds steady (one frame in per frame out). The fraction of host 0's frames
// marked CE in the steady window must lie within the WRED curve over the depths seen,
// widened by 5 binomial standard deviations.
void expect_marking_follows_curve(MarkPoint point) {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  c.mark_point = point;
  c.wred[3] = WredProfile{Bytes::kb(100), Bytes::kb(400), 50, false, EcnMode::kAll};
  Star net(3, c);
  for (uint32_t i = 0; i < 200; ++i) net.host(1).enqueue(roce_frame(1, 2, i), 3);
  for (uint32_t i = 0; i < 6'000; ++i) net.host(0).enqueue(roce_frame(0, 2, i), 3);
  QueueProbe probe(*net.sw, 2, 3, Time::us(30), Time::us(500), Time::ns(500));
  net.scheduler.add(probe);
  net.scheduler.run();

  uint64_t n = 0, marked = 0;
  for (const auto& a : net.host(2).arrivals()) {
    if (a.src_ip != testing::host_ip(0) || a.at < Time::us(40) || a.at > Time::us(500)) continue;
    ++n;
    marked += a.ecn == wire::Ecn::Ce;
  }
  EXPECT_EQ(net.host(2).parse_failures(), 0u);  // every CE mark kept the IPv4 checksum right
  const auto [lo, hi] = std::minmax_element(probe.samples().begin(), probe.samples().end());
  const Wred curve(*c.wred[3]);
  const double p_lo = curve.probability(*lo), p_hi = curve.probability(*hi + 1'082);
  const double sd = std::sqrt(0.25 / static_cast<double>(n));
  const double rate = static_cast<double>(marked) / static_cast<double>(n);
  ASSERT_GT(n, 4'000u);
  EXPECT_GT(*lo, 200'000u);  // the queue really was steady, well inside the curve
  EXPECT_LT(*hi - *lo, 3'000u);
  EXPECT_GE(rate, p_lo - 5 * sd) << "depth " << *lo << ".." << *hi;
  EXPECT_LE(rate, p_hi + 5 * sd) << "depth " << *lo << ".." << *hi;
  EXPECT_EQ(probe.gauge_mismatches(), 0u);
  EXPECT_GT(probe.marked_when_last_sampled(), 0u);
  const SwitchCounters sc = net.sw->counters(net.scheduler.now());
  EXPECT_EQ(sc.ports[2].queues[3].ecn_marked_packets,
            static_cast<uint64_t>(std::count_if(net.host(2).arrivals().begin(), net.host(2).arrivals().end(),
                                                [](const auto& a) { return a.ecn == wire::Ecn::Ce; })));
}

TEST(SwitchForwarding, MarkingAtDequeueFollowsTheWredCurve) { expect_marking_follows_curve(MarkPoint::kDequeue); }
TEST(SwitchForwarding, MarkingAtEnqueueFollowsTheWredCurve) { expect_marking_follows_curve(MarkPoint::kEnqueue); }

TEST(SwitchForwarding, DwrrSharesTheEgressWithinOnePercentOfTheWeights) {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  c.maps.dscp_to_tc[10] = 1;
  c.maps.dscp_to_tc[18] = 2;
  c.scheduler[1].weight = 1;
  c.scheduler[2].weight = 3;
  Star net(3, c);
  for (uint32_t i = 0; i < 3'000; ++i) {
    net.host(0).enqueue(roce_frame(0, 2, i, 1024, wire::Ecn::Ect0, 10), 1);
    net.host(1).enqueue(roce_frame(1, 2, i, 1024, wire::Ecn::Ect0, 18), 2);
  }
  net.scheduler.run();
  const auto& a = net.host(2).arrivals();
  ASSERT_GT(a.size(), 2'400u);
  int tc1 = 0;
  for (size_t i = 0; i < 2'400; ++i) tc1 += a[i].dscp == 10;
  EXPECT_NEAR(tc1 / 2'400.0 / 0.25, 1.0, 0.01) << tc1 << " of 2400";
}

}  // namespace
}  // namespace rtb::sw
