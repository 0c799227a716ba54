// The contract every registered algorithm keeps, the example plug-in included: the rate
// stays within [min, line], is never zero; the same events give the same decisions;
// deadlines are never in the past.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <span>
#include <map>
#include <vector>

#include "cc_algos/plugin_loader.h"
#include "core/rng.h"
#include "test_util.h"

namespace rtb::cc::testing {
namespace {

std::vector<Algorithm> all_algorithms() {
  Registry r = Registry::with_builtins();
  auto plugin = r.resolve(RTB_TEST_EXAMPLE_PLUGIN);
  EXPECT_TRUE(plugin.ok()) << (plugin.ok() ? "" : plugin.error().message);
  return r.algorithms();
}

// The documented floor of each algorithm with default parameters.
Rate min_rate(std::string_view name, Rate line) {
  static const std::map<std::string_view, Rate> kMin{{"dcqcn", Rate::mbps(1)},
                                                     {"dcqcn_paper", Rate::mbps(100)},
                                                     {"aimd", Rate::mbps(100)},
                                                     {"timely", Rate::mbps(100)},
                                                     {"dctcp", Rate::mbps(100)},
                                                     {"hpcc", Rate::mbps(100)}};
  if (name == "fixed_rate") return line;
  auto it = kMin.find(name);
  return it == kMin.end() ? Rate::bps(1) : it->second;
}

// Drives one flow with a seeded random mix of events; returns every decision.
std::vector<Decision> drive(const Controller& c, Rate line, uint64_t seed) {
  const Algorithm& a = c.algorithm();
  auto table = std::move(FlowTable::create(a, 1)).value();
  void* s = table.state(0);
  Rng rng(seed, 7);
  std::vector<Decision> out;
  Time now = Time::us(3);
  Decision d = c.start(s, FlowStart{line, Time::us(10), 1}, now);
  out.push_back(d);
  const Rate floor = min_rate(a.name(), line);
  // INT: two hops whose counters move by random amounts between ACKs.
  std::array<rtb_cc_int_hop, 2> hops{};
  for (auto& h : hops) h.link_rate_bps = line.bps();
  for (int i = 0; i < 20000; ++i) {
    const uint64_t pick = rng.uniform_int(10);
    if (pick < 3 && !d.next_deadline.is_never()) {
      // The timer: on time, or late by up to 50 us.
      now = std::max(now, d.next_deadline) + Time::ps(rng.bernoulli(0.5) ? 0 : rng.uniform_int(50'000'000));
      d = c.on_timer(s, now);
    } else {
      now = now + Time::ps(rng.uniform_int(rng.bernoulli(0.1) ? 5'000'000'000 : 3'000'000));
      if (pick < 6 && a.needs(Feedback::kCnp)) {
        d = c.on_cnp(s, now);
      } else if (pick < 7 && (a.needs(Feedback::kAck) || a.needs(Feedback::kRtt) ||
                              a.needs(Feedback::kInt))) {
        // RTT samples from 5 us to 1 ms: below TIMELY's T_low, between, and above T_high.
        const Time rtt = Time::us(5 + rng.uniform_int(1000));
        for (auto& h : hops) {
          h.timestamp_ps = now.ps();
          h.tx_bytes += rng.uniform_int(200'000);
          h.queue_bytes = rng.bernoulli(0.5) ? 0 : rng.uniform_int(2'000'000);
        }
        const std::span<const rtb_cc_int_hop> int_hops =
            a.needs(Feedback::kInt) ? std::span<const rtb_cc_int_hop>(hops) : std::span<const rtb_cc_int_hop>{};
        d = c.on_ack(s, AckEvent{Bytes(4096), rtt, rng.bernoulli(0.2), rng.bernoulli(0.02), int_hops}, now);
      } else if (auto b = c.on_bytes_sent(s, Bytes(64 + rng.uniform_int(9000)), now)) {
        d = *b;
      } else {
        d = c.on_timer(s, now);
      }
    }
    EXPECT_GE(d.rate, floor) << a.name() << " event " << i;
    EXPECT_LE(d.rate, line) << a.name() << " event " << i;
    EXPECT_GT(d.rate.bps(), 0u);
    EXPECT_TRUE(d.next_deadline.is_never() || d.next_deadline > now) << a.name() << " event " << i;
    out.push_back(d);
    if (::testing::Test::HasFailure()) break;
  }
  return out;
}

TEST(Contract, EveryAlgorithmKeepsItsPromises) {
  const auto algorithms = all_algorithms();
  ASSERT_EQ(algorithms.size(), 8u);  // the seven built-ins and the example plug-in
  for (const Algorithm& a : algorithms) {
    auto c = configure(a, {});
    ASSERT_TRUE(c.ok()) << a.name() << ": " << c.error().message;
    for (Rate line : {Rate::gbps(100), Rate::gbps(25)}) {
      const auto first = drive(*c, line, 11);
      const auto again = drive(*c, line, 11);
      EXPECT_EQ(first, again) << a.name() << ": same events, different decisions";
      // Something happens: the rate (or the window) moves for every algorithm that reacts.
      if (a.name() != "fixed_rate") {
        bool moved = false;
        for (const auto& d : first) moved |= d.rate != line || d.window != first.front().window;
        EXPECT_TRUE(moved) << a.name();
      }
    }
  }
}

TEST(Contract, FlowsInOneTableAreIndependent) {
  for (const Algorithm& a : all_algorithms()) {
    auto c = configure(a, {});
    ASSERT_TRUE(c.ok());
    auto table = std::move(FlowTable::create(a, 2)).value();
    auto alone = std::move(FlowTable::create(a, 1)).value();
    const FlowStart st{Rate::gbps(100)};
    c->start(table.state(0), st, Time::zero());
    c->start(table.state(1), st, Time::zero());
    c->start(alone.state(0), st, Time::zero());
    for (int k = 1; k < 200; ++k) {
      const Time t = Time::us(static_cast<uint64_t>(k) * 3);
      if (a.needs(Feedback::kCnp)) c->on_cnp(table.state(1), t);  // only flow 1 is congested
      const Decision d0 = c->on_timer(table.state(0), t);
      const Decision ref = c->on_timer(alone.state(0), t);
      ASSERT_EQ(d0, ref) << a.name() << " step " << k;
    }
  }
}

// A realtime run changes a parameter while it goes (lib/testbed/realtime_commands.h): the
// running controller adopts a reconfigured one's parameters, and from then on decides as
// the reconfigured controller would on the same state.
TEST(Controller, AdoptedParametersDriveTheDecisionsThatFollow) {
  Registry registry = Registry::with_builtins();
  const Algorithm a = registry.resolve("dcqcn").value();
  auto live = configure(a, {});
  auto raised = configure(a, {{"rp_time_reset", int64_t{10}}});  // increases every 10 us, not 300
  ASSERT_TRUE(live.ok() && raised.ok());
  auto table = std::move(FlowTable::create(a, 2)).value();
  const FlowStart st{Rate::gbps(100)};
  live->start(table.state(0), st, Time::zero());
  raised->start(table.state(1), st, Time::zero());
  // Congestion before the change: a cut, an increase, another cut.
  const auto congest = [&](const Controller& c, void* state) {
    c.on_cnp(state, Time::us(1));
    c.on_timer(state, Time::us(305));
    c.on_cnp(state, Time::us(310));
  };
  congest(live.value(), table.state(0));
  congest(raised.value(), table.state(1));
  live.value().adopt_params(raised.value());
  EXPECT_EQ(live->params_blob(), raised->params_blob());
  bool differs_from_default = false;
  auto fresh = configure(a, {});
  auto untouched = std::move(FlowTable::create(a, 1)).value();
  fresh->start(untouched.state(0), st, Time::zero());
  congest(fresh.value(), untouched.state(0));
  for (int k = 1; k < 40; ++k) {
    const Time t = Time::us(320) + Time::us(5) * static_cast<uint64_t>(k);
    const Decision mine = live->on_timer(table.state(0), t);
    ASSERT_EQ(mine, raised->on_timer(table.state(1), t)) << "step " << k;
    differs_from_default = differs_from_default || !(mine == fresh->on_timer(untouched.state(0), t));
  }
  EXPECT_TRUE(differs_from_default) << "rp_time_reset = 10 us must change the increases";
}

}  // namespace
}  // namespace rtb::cc::testing

namespace rtb::cc {
namespace {

TEST(DescribeState, BuiltinsNameTheirStateAndReadWithoutChangingIt) {
  Registry reg = Registry::with_builtins();
  for (const char* name : {"dcqcn", "dcqcn_paper", "fixed_rate", "timely", "dctcp", "swift"}) {
    auto algo = reg.find(name);
    ASSERT_TRUE(algo.ok());
    auto c = configure(algo.value(), {});
    ASSERT_TRUE(c.ok());
    auto flows = FlowTable::create(algo.value(), 1);
    ASSERT_TRUE(flows.ok());
    void* st = flows.value().state(0);
    c.value().start(st, FlowStart{Rate::gbps(100)}, Time::zero());
    if (algo.value().needs(Feedback::kCnp)) c.value().on_cnp(st, Time::us(3));
    std::vector<std::byte> before(static_cast<const std::byte*>(st),
                                  static_cast<const std::byte*>(st) + algo.value().state_bytes());
    const Controller::StateView v = c.value().describe_state(st, Time::us(50));
    EXPECT_GT(v.count, 0u) << name;
    EXPECT_EQ(std::memcmp(before.data(), st, before.size()), 0) << name;
    const Controller::StateView again = c.value().describe_state(st, Time::us(50));
    ASSERT_EQ(again.count, v.count);
    for (size_t i = 0; i < v.count; ++i) {
      EXPECT_STREQ(v.fields[i].name, again.fields[i].name);
      EXPECT_EQ(v.fields[i].value, again.fields[i].value);
    }
  }
}

TEST(DescribeState, DcqcnAlphaDecaysInTheViewAsInTheModel) {
  Registry reg = Registry::with_builtins();
  auto algo = reg.find("dcqcn");
  auto c = configure(algo.value(), {});
  auto flows = FlowTable::create(algo.value(), 1);
  void* st = flows.value().state(0);
  c.value().start(st, FlowStart{Rate::gbps(100)}, Time::zero());
  c.value().on_cnp(st, Time::us(1));  // first CNP: alpha = rp_initial_alpha_value = 1023
  const auto at = [&](Time t) { return c.value().describe_state(st, t).fields[0].value; };
  EXPECT_STREQ(c.value().describe_state(st, Time::us(1)).fields[0].name, "alpha");
  EXPECT_DOUBLE_EQ(at(Time::us(1)), 1023.0 / 1024.0);
  EXPECT_LT(at(Time::us(200)), at(Time::us(20)));  // no more CNPs: alpha decays
}

}  // namespace
}  // namespace rtb::cc
