// DCQCN paper model (cc-reference.md §1.1) against a sequence computed by hand.
// Paper defaults: g = 1/256 (rp_dce_tcp_g 1020), tau' = 55 us, T = 55 us, B = 10 MB,
// F = 5, R_AI = 40 Mb/s, R_HAI = 200 Mb/s; line rate C = 40 Gb/s as in the paper's model.
// alpha is a real number (as in the paper); R_C = ceil((R_T + R_C)/2).
#include <gtest/gtest.h>

#include "dcqcn_fixture.h"

namespace rtb::cc::testing {
namespace {

constexpr uint64_t G = 1'000'000'000;

TEST(DcqcnPaper, HandComputedSequence) {
  PaperFlow f({}, Rate::gbps(40));
  EXPECT_EQ(f.last().rate.bps(), 40 * G);
  // CNP at 0: R_T = R_C = 40G; alpha = (1 - g)*1 + g = 1 (alpha = 1 stays 1);
  // R_C = 40G * (1 - 1/2) = 20G. Timer restarted: due 55 us.
  Decision d = f.cnp(us(0));
  EXPECT_EQ(d.rate.bps(), 20 * G);
  EXPECT_EQ(d.next_deadline, us(55));
  // CNP at 10 us (every CNP cuts, no monitor period): R_T = 20G, alpha 1, R_C = 10G.
  d = f.cnp(us(10));
  EXPECT_EQ(d.rate.bps(), 10 * G);
  EXPECT_EQ(f.rt(), 20 * G);
  EXPECT_EQ(d.next_deadline, us(65));
  // Timer every 55 us from 10 us. Time stage 1..4 < F: fast recovery, R_T = 20G:
  //   65: (10+20)/2 = 15G   120: 17.5G   175: 18.75G   230: 19.375G
  EXPECT_EQ(f.timer(us(65)).rate.bps(), 15 * G);
  EXPECT_EQ(f.timer(us(120)).rate.bps(), 17'500'000'000u);
  EXPECT_EQ(f.timer(us(175)).rate.bps(), 18'750'000'000u);
  EXPECT_EQ(f.timer(us(230)).rate.bps(), 19'375'000'000u);
  // 285: time stage 5 >= F, byte stage 0: additive, R_T = 20.04G, R_C = 19.7075G
  // 340: stage 6: R_T = 20.08G, R_C = (19.7075 + 20.08)/2 = 19.89375G
  EXPECT_EQ(f.timer(us(285)).rate.bps(), 19'707'500'000u);
  d = f.timer(us(340));
  EXPECT_EQ(d.rate.bps(), 19'893'750'000u);
  EXPECT_EQ(d.next_deadline, us(395));
  // 50 MB sent at 345 us: five byte-counter events (B = 10 MB).
  //   stages (6,1..4): additive: R_T 20.12, 20.16, 20.20, 20.24G;
  //     R_C 20.006875, 20.0834375, 20.14171875, 20.190859375G
  //   (6,5): both >= F: hyper, R_T += 200M * (min(6,5) - 5 + 1) = 20.44G,
  //     R_C = ceil((20,190,859,375 + 20,440,000,000)/2) = 20,315,429,688
  d = f.bytes(50'000'000, us(345));
  EXPECT_EQ(d.rate.bps(), 20'315'429'688u);
  EXPECT_EQ(f.rt(), 20'440'000'000u);
  EXPECT_EQ(f.s().byte_quota, 5'000'000u);  // B/2 in hyper increase
  // 395: stage (7,5): hyper, R_T = 20.64G, R_C = ceil((20,315,429,688 + 20.64G)/2)
  //   = 20,477,714,844; hyper halves T: next at 395 + 27.5 = 422.5 us.
  d = f.timer(us(395));
  EXPECT_EQ(d.rate.bps(), 20'477'714'844u);
  EXPECT_EQ(d.next_deadline, ns(422'500));
  // alpha: 1 since the CNP at 10 us; the alpha timer (55 us, restarted by each CNP)
  // gives (255/256)^k after k periods: 0.99609375, 0.99220276, ..., 0.96917392 after 8
  // periods (at 450 us).
  EXPECT_DOUBLE_EQ(f.alpha_at(us(64)), 1.0);
  EXPECT_DOUBLE_EQ(f.alpha_at(us(65)), 0.99609375);
  EXPECT_DOUBLE_EQ(f.alpha_at(us(120)), 0.9922027587890625);
  EXPECT_NEAR(f.alpha_at(us(450)), 0.9691739244809553, 1e-15);
  // CNP at 450 us. First the timers due by then: 422.5 (stage 8): R_T = 20.84G,
  // R_C = 20,658,857,422; 450 (stage 9): R_T = 21.04G, R_C = 20,849,428,711.
  // Then the CNP: R_T = R_C = 20,849,428,711; alpha = (255/256)*0.96917392 + 1/256
  // = 0.96929434; cut = R_C*alpha/2 = 10,104,616,608 (rounded down); R_C = 10,744,812,103.
  d = f.cnp(us(450));
  EXPECT_EQ(f.rt(), 20'849'428'711u);
  EXPECT_NEAR(static_cast<double>(d.rate.bps()), 10'744'812'103.0, 1.0);
  EXPECT_NEAR(f.alpha_at(us(450)), 0.9692943388384516, 1e-15);
  EXPECT_EQ(d.next_deadline, us(505));
  EXPECT_EQ(f.s().byte_quota, 10'000'000u);
}

TEST(DcqcnPaper, TargetDividedByEightWhenFarAboveCurrent) {
  // Without the clamp R_T stays 40G while CNPs halve R_C: 20, 10, 5, 2.5G. At the first
  // increase event R_T = 40G > 10 * 2.5G, so R_T = 40G/8 = 5G (QCN, [NS3-RDMA]
  // AdjustRates) and R_C = (2.5 + 5)/2 = 3.75G.
  PaperFlow f({{"rp_clamp_tgt_rate", int64_t{0}}}, Rate::gbps(40));
  for (uint64_t t : {0u, 1u, 2u, 3u}) f.cnp(us(t));
  EXPECT_EQ(f.rc(), 2'500'000'000u);
  EXPECT_EQ(f.rt(), 40 * G);
  EXPECT_EQ(f.timer(us(58)).rate.bps(), 3'750'000'000u);
  EXPECT_EQ(f.rt(), 5 * G);
}

TEST(DcqcnPaper, MinRateFloorAndRecoveryToLine) {
  PaperFlow f({}, Rate::gbps(40));
  for (uint64_t k = 0; k < 30; ++k) f.cnp(us(k));
  EXPECT_EQ(f.rc(), 100'000'000u);  // rp_min_rate 100 Mb/s ([NS3-RDMA] MinRate)
  f.run_until(Time::ms(500));
  EXPECT_EQ(f.rc(), 40 * G);
  EXPECT_TRUE(f.last().next_deadline.is_never());
}

}  // namespace
}  // namespace rtb::cc::testing
