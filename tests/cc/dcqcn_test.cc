// DCQCN, NIC reference model (cc-reference.md §1.3): every behaviour with a manual clock.
// Defaults unless a test says otherwise: rp_dce_tcp_g 1019, alpha period 1 us, monitor
// period 4 us, rp_time_reset 300 us, rp_byte_reset 32767 x 64 = 2,097,088 B,
// rp_threshold 1, AI 5 Mb/s, HAI 50 Mb/s, min_dec_fac 50, min 1 Mb/s, gd 11,
// initial alpha 1023, clamp 0, clamp_ati 1. Line rate 100 Gb/s.
#include <gtest/gtest.h>

#include "core/rng.h"
#include "dcqcn_fixture.h"

namespace rtb::cc::testing {
namespace {

constexpr uint64_t G = 1'000'000'000;
constexpr uint64_t M = 1'000'000;
constexpr uint64_t kByteQuantum = 32767 * 64;

TEST(Dcqcn, StartsAtLineRateWithNoDeadline) {
  NicFlow f;
  EXPECT_EQ(f.last().rate.bps(), 100 * G);
  EXPECT_FALSE(f.last().window.has_value());
  EXPECT_TRUE(f.last().next_deadline.is_never());
}

TEST(Dcqcn, FirstCnpKeepsRateWhenRateToSetIsZero) {
  NicFlow f;
  const Decision d = f.cnp(us(10));
  // rp_rate_to_set_on_first_cnp = 0: no rate change, no cut on the first CNP; R_C = R_T =
  // cap, so there is nothing to recover and no timer runs.
  EXPECT_EQ(d.rate.bps(), 100 * G);
  EXPECT_TRUE(d.next_deadline.is_never());
  EXPECT_EQ(f.alpha_at(us(10)), 1023u);  // rp_initial_alpha_value
}

TEST(Dcqcn, FirstCnpSetsRateAndStartsIncreaseTimer) {
  NicFlow f({{"rp_rate_to_set_on_first_cnp", int64_t{40000}}});
  const Decision d = f.cnp(us(10));
  EXPECT_EQ(d.rate.bps(), 40 * G);
  EXPECT_EQ(f.rt(), 40 * G);
  EXPECT_EQ(d.next_deadline, us(310));  // first CNP + rp_time_reset
}

TEST(Dcqcn, FirstCnpRateIsHeldAtTheLineRate) {
  NicFlow f({{"rp_rate_to_set_on_first_cnp", int64_t{400000}}}, Rate::gbps(25));
  EXPECT_EQ(f.cnp(us(1)).rate.bps(), 25 * G);
}

TEST(Dcqcn, SecondCnpCutsAtTheNextMonitorBoundaryWithFixedPointAlpha) {
  NicFlow f;
  f.cnp(us(0));
  const Decision pending = f.cnp(ns(500));
  EXPECT_EQ(pending.rate.bps(), 100 * G);   // no cut yet
  EXPECT_EQ(pending.next_deadline, us(4));  // monitor period boundary
  const Decision d = f.timer(us(4));
  // alpha ticks at 1,2,3,4 us (Q10, g = 1019):
  //   1 us (CNP in period): 1019*1023/1024 + 5 = 1018 + 5 = 1023
  //   2 us: 1019*1023/1024 = 1018;  3 us: 1019*1018/1024 = 1013;  4 us: 1019*1013/1024 = 1008
  EXPECT_EQ(f.alpha_at(us(4)), 1008u);
  // cut = min((100e9 * 1008) >> 11, 100e9 * 50/100) = 49,218,750,000
  EXPECT_EQ(d.rate.bps(), 100 * G - 49'218'750'000);
  EXPECT_EQ(d.next_deadline, us(304));  // increase timer restarted at the cut
}

TEST(Dcqcn, AlphaRisesWithCnpsAndDecaysWithoutInQ10) {
  NicFlow f({{"rp_initial_alpha_value", int64_t{100}}});
  f.cnp(us(0));
  uint32_t expect = 100;
  // A CNP in each of the next 5 periods: alpha = 1019*alpha/1024 + 5 each period.
  for (int k = 1; k <= 5; ++k) {
    f.cnp(us(k - 1) + ns(500));
    expect = 1019 * expect / 1024 + 5;
    EXPECT_EQ(f.alpha_at(us(k)), expect) << "period " << k;
  }
  EXPECT_GT(expect, 100u);
  // No CNP for 3 periods: alpha = 1019*alpha/1024 each.
  for (int k = 6; k <= 8; ++k) {
    expect = 1019 * expect / 1024;
    EXPECT_EQ(f.alpha_at(us(k)), expect) << "period " << k;
  }
}

TEST(Dcqcn, AlphaIsCappedAt1023) {
  NicFlow f({{"rp_dce_tcp_g", int64_t{0}}});  // all weight on the new sample: 0 + 1024
  f.cnp(us(0));
  f.cnp(ns(100));
  EXPECT_EQ(f.alpha_at(us(1)), 1023u);
}

// The lazy catch-up must equal stepping every alpha period, for any CNP pattern.
TEST(Dcqcn, LazyAlphaEqualsPerPeriodStepping) {
  for (uint64_t g : {1019u, 1020u, 960u, 512u, 4u}) {
    NicFlow f({{"rp_dce_tcp_g", static_cast<int64_t>(g)},
               {"rp_rate_reduce_monitor_period", int64_t{1000000}}});
    Rng rng(42, g);
    f.cnp(us(0));
    uint32_t alpha = 1023;  // reference: one step per period
    bool cnp_in_period = false;
    uint64_t period = 0;
    Time t = us(0);
    for (int i = 0; i < 400; ++i) {
      // Next CNP after a gap of 0..3000 periods (often long: alpha reaches 0), at a
      // random point inside a period.
      const uint64_t gap_ps = rng.uniform_int(rng.bernoulli(0.3) ? 3'000'000'000 : 5'000'000);
      t = t + Time::ps(gap_ps + 1);
      const uint64_t n = t.ps() / 1'000'000;
      for (; period < n; ++period) {
        alpha = cnp_in_period ? std::min<uint32_t>(1023, g * alpha / 1024 + 1024 - g)
                              : g * alpha / 1024;
        cnp_in_period = false;
      }
      ASSERT_EQ(f.alpha_at(t), alpha) << "g " << g << " event " << i;
      f.cnp(t);
      cnp_in_period = true;
    }
  }
}

TEST(Dcqcn, OneCutPerMonitorPeriod) {
  NicFlow f;
  f.cnp(us(0));
  for (uint64_t t_ns : {1100u, 1500u, 2000u, 3900u}) f.cnp(ns(t_ns));
  EXPECT_EQ(f.last().rate.bps(), 100 * G);
  const uint64_t after_first = f.timer(us(4)).rate.bps();
  EXPECT_LT(after_first, 100 * G);
  // A CNP exactly on the boundary belongs to the next period: one more cut, at 8 us.
  f.cnp(us(4));
  f.cnp(ns(6000));
  EXPECT_EQ(f.last().next_deadline, us(8));
  EXPECT_EQ(f.timer(ns(7999)).rate.bps(), after_first);
  const uint64_t after_second = f.timer(us(8)).rate.bps();
  EXPECT_LT(after_second, after_first);
  // No CNP since: no further cut.
  EXPECT_EQ(f.timer(us(12)).rate.bps(), after_second);
}

TEST(Dcqcn, MinDecFacBoundsTheCut) {
  // rp_gd = 10: the alpha cut is (R*1008)>>10, about 98% of R: bounded to 50%.
  NicFlow half({{"rp_gd", int64_t{10}}});
  half.cnp(us(0));
  half.cnp(ns(500));
  EXPECT_EQ(half.timer(us(4)).rate.bps(), 50 * G);
  NicFlow eighty({{"rp_gd", int64_t{10}}, {"rp_min_dec_fac", int64_t{80}}});
  eighty.cnp(us(0));
  eighty.cnp(ns(500));
  EXPECT_EQ(eighty.timer(us(4)).rate.bps(), 80 * G);  // cut <= (100 - 80)% of R
  NicFlow never({{"rp_min_dec_fac", int64_t{100}}});
  never.cnp(us(0));
  never.cnp(ns(500));
  EXPECT_EQ(never.timer(us(4)).rate.bps(), 100 * G);
}

// Stages: fast recovery -> additive -> hyper, on the timer and on the byte counter.
TEST(Dcqcn, IncreaseStagesOnTimerAndByteCounter) {
  NicFlow f({{"rp_rate_to_set_on_first_cnp", int64_t{10000}}});
  f.cnp(us(0));  // R_C = R_T = 10 Gb/s, increase timer from 0
  // 300 us, stages (T=0, BC=0): fast recovery, R_T unchanged, R_C = (10G + 10G)/2.
  EXPECT_EQ(f.timer(us(300)).rate.bps(), 10 * G);
  // 600 us, (1,0): max >= 1 -> additive: R_T = 10.005G, R_C = (10G + 10.005G)/2.
  EXPECT_EQ(f.timer(us(600)).rate.bps(), 10'002'500'000u);
  EXPECT_EQ(f.rt(), 10'005'000'000u);
  // Byte counter at (2,0): additive: R_T = 10.010G, R_C = (10.0025G + 10.010G)/2.
  EXPECT_EQ(f.bytes(kByteQuantum, us(700)).rate.bps(), 10'006'250'000u);
  // (2,1): min 1 is not > 1 -> additive: R_T = 10.015G, R_C = 10,010,625,000.
  EXPECT_EQ(f.bytes(kByteQuantum - 1, us(800)).rate.bps(), 10'006'250'000u);  // 1 byte short
  EXPECT_EQ(f.bytes(1, us(800)).rate.bps(), 10'010'625'000u);
  // (2,2): min 2 > 1 -> hyper: R_T = 10.065G, R_C = (10.010625G + 10.065G)/2.
  EXPECT_EQ(f.bytes(kByteQuantum, us(850)).rate.bps(), 10'037'812'500u);
  EXPECT_EQ(f.rt(), 10'065'000'000u);
  // Timer at 900 us, (2,3): hyper: R_T = 10.115G, R_C = (10.0378125G + 10.115G)/2.
  EXPECT_EQ(f.timer(us(900)).rate.bps(), 10'076'406'250u);
  EXPECT_EQ(f.s().time_stage, 3u);
  EXPECT_EQ(f.s().byte_stage, 3u);
}

TEST(Dcqcn, ByteCounterAloneGoesFastRecoveryThenAdditive) {
  NicFlow f({{"rp_rate_to_set_on_first_cnp", int64_t{10000}}, {"rp_time_reset", int64_t{1000000}}});
  f.cnp(us(0));
  f.cnp(us(1));
  f.timer(us(4));  // cut: R_C = 10G - (10G*1008 >> 11) = 5,078,125,000; R_T stays 10G
  const uint64_t rc0 = f.rc();
  const uint64_t rt0 = f.rt();
  ASSERT_LT(rc0, rt0);
  // (0,0): fast recovery: R_T unchanged, R_C = ceil((R_C + R_T)/2).
  f.bytes(kByteQuantum, us(5));
  EXPECT_EQ(f.rt(), rt0);
  EXPECT_EQ(f.rc(), (rc0 + rt0 + 1) / 2);
  // (0,1): additive.
  f.bytes(kByteQuantum, us(6));
  EXPECT_EQ(f.rt(), rt0 + 5 * M);
}

TEST(Dcqcn, ClampFlags) {
  // Cut, one timer increase (time stage 1), then a second cut: does R_T follow R_C?
  auto run = [](const ParamMap& m) {
    NicFlow f(m);
    f.cnp(us(0));
    f.cnp(us(1));
    f.timer(us(4));    // cut 1 (stages 0): R_T = 100G unless clamp_tgt_rate
    f.timer(us(304));  // timer increase: time stage 1
    const uint64_t rc_before = f.rc();
    f.cnp(us(305));
    f.timer(us(308));  // cut 2
    return std::pair<uint64_t, uint64_t>{f.rt(), rc_before};
  };
  auto [rt_none, rc_none] = run({{"rp_clamp_tgt_rate_ati", int64_t{0}}});
  EXPECT_EQ(rt_none, 100 * G);  // neither flag, byte stage 0: R_T kept
  auto [rt_ati, rc_ati] = run({});  // default clamp_ati = 1 and time stage > 0
  EXPECT_EQ(rt_ati, rc_ati);
  auto [rt_always, rc_always] = run({{"rp_clamp_tgt_rate", int64_t{1}}, {"rp_clamp_tgt_rate_ati", int64_t{0}}});
  EXPECT_EQ(rt_always, rc_always);
  // Byte stage > 0 clamps whatever the flags.
  NicFlow b({{"rp_clamp_tgt_rate_ati", int64_t{0}}});
  b.cnp(us(0));
  b.cnp(us(1));
  b.timer(us(4));
  b.bytes(kByteQuantum, us(10));
  const uint64_t rc_b = b.rc();
  b.cnp(us(11));
  b.timer(us(12));
  EXPECT_EQ(b.rt(), rc_b);
  // clamp_tgt_rate = 1 clamps even on the first cut with all stages 0.
  NicFlow first({{"rp_clamp_tgt_rate", int64_t{1}}, {"rp_rate_to_set_on_first_cnp", int64_t{10000}}});
  first.cnp(us(0));
  first.timer(us(300));
  first.timer(us(600));  // R_T = 10.005G > R_C
  ASSERT_GT(first.rt(), first.rc());
  const uint64_t rc_first = first.rc();
  first.cnp(us(601));
  first.timer(us(604));
  EXPECT_EQ(first.rt(), rc_first);
}

TEST(Dcqcn, MinRateIsAFloor) {
  NicFlow f({{"rp_min_rate", int64_t{40000}}, {"rp_clamp_tgt_rate", int64_t{1}}});
  for (uint64_t k = 0; k < 20; ++k) {
    f.cnp(us(4 * k) + ns(100));
    f.timer(us(4 * k + 4));
  }
  EXPECT_EQ(f.last().rate.bps(), 40 * G);
}

TEST(Dcqcn, MaxRateIsACeiling) {
  NicFlow capped({{"rp_max_rate", int64_t{25000}}, {"rp_hai_rate", int64_t{100000}}});
  EXPECT_EQ(capped.last().rate.bps(), 25 * G);
  capped.cnp(us(0));
  capped.cnp(us(1));
  capped.timer(us(4));
  EXPECT_LT(capped.rc(), 25 * G);
  capped.run_until(Time::ms(100));
  EXPECT_EQ(capped.rc(), 25 * G);  // recovered to, never above, rp_max_rate
  EXPECT_EQ(capped.rt(), 25 * G);
  EXPECT_TRUE(capped.last().next_deadline.is_never());  // saturated: the timer stops
  // 0 means the line rate; a value above the line rate is held at the line rate.
  EXPECT_EQ(NicFlow({{"rp_max_rate", int64_t{0}}}, Rate::gbps(40)).last().rate.bps(), 40 * G);
  EXPECT_EQ(NicFlow({{"rp_max_rate", int64_t{400000}}}, Rate::gbps(40)).last().rate.bps(), 40 * G);
}

TEST(Dcqcn, LateTimerCallRunsEveryExpiryInOrder) {
  // A host that calls late gets the same state as one that calls on time.
  NicFlow on_time({{"rp_rate_to_set_on_first_cnp", int64_t{1000}}});
  NicFlow late({{"rp_rate_to_set_on_first_cnp", int64_t{1000}}});
  for (NicFlow* f : {&on_time, &late}) {
    f->cnp(us(0));
    f->cnp(us(2));
  }
  on_time.run_until(Time::ms(5));
  late.timer(Time::ms(5));
  EXPECT_EQ(on_time.rc(), late.rc());
  EXPECT_EQ(on_time.rt(), late.rt());
  EXPECT_EQ(on_time.s().time_stage, late.s().time_stage);
  EXPECT_EQ(on_time.last(), late.last());
}

TEST(Dcqcn, NpParamsComeFromTheNpKeys) {
  const Controller c = configure_or_die("dcqcn", {{"np_min_time_between_cnps", int64_t{8}},
                                                  {"np_cnp_dscp", int64_t{26}},
                                                  {"np_cnp_prio", int64_t{3}}});
  EXPECT_EQ(c.np_params().min_time_between_cnps, us(8));
  EXPECT_EQ(c.np_params().cnp_dscp, 26);
  EXPECT_EQ(c.np_params().cnp_pcp, 3);
  const Controller d = configure_or_die("dcqcn");
  EXPECT_EQ(d.np_params().min_time_between_cnps, us(4));
  EXPECT_EQ(d.np_params().cnp_dscp, 48);
  EXPECT_EQ(d.np_params().cnp_pcp, 6);
}

}  // namespace
}  // namespace rtb::cc::testing
