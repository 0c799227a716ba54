// The DCQCN fluid-model fixed point (dcqcn_fluid.h) against the published figures of
// Zhu et al., CoNEXT 2016: Fig. 5 (stable_q_4: 40 Gb/s, 4 us feedback delay, 1000-byte
// packets, Kmin 5 KB, Kmax 2000 KB, Pmax 10 %, as in the authors' dcqcn2.m) shows the queue
// settling near 20 KB with 2 flows and near 125 KB with 10 flows (read off the plot, so
// ±10 %), and against the paper's own closed-form approximation of p*.
#include <gtest/gtest.h>

#include "tests/model/dcqcn_fluid.h"

namespace rtb::model {
namespace {

DcqcnFluidCase fig5(int flows) {
  DcqcnFluidCase k;
  k.flows = flows;
  k.packet_bytes = 1000;
  k.kmax_bytes = 2000e3;
  k.pmax = 0.10;
  return k;
}

TEST(DcqcnFluid, Fig5TwoFlowsQueueNear20KB) {
  EXPECT_NEAR(dcqcn_fixed_point(fig5(2)).queue_bytes, 20e3, 2e3);
}

TEST(DcqcnFluid, Fig5TenFlowsQueueNear125KB) {
  EXPECT_NEAR(dcqcn_fixed_point(fig5(10)).queue_bytes, 125e3, 12.5e3);
}

// The fixed point solves the model: every derivative of dcqcn-model.tex is zero there.
TEST(DcqcnFluid, DerivativesVanishAtTheFixedPoint) {
  for (int n : {2, 4, 8, 10}) {
    DcqcnFluidCase k = fig5(n);
    const DcqcnFixedPoint f = dcqcn_fixed_point(k);
    const double bits = k.packet_bytes * 8, rc = f.rc_bps / bits, rt = f.rt_bps / bits;
    const detail::Terms t = detail::terms(k, f.p, rc);
    const double drc = -rc * f.alpha * t.a / (2 * k.tau_s) + (rt - rc) * rc * (t.b + t.d) / 2;
    const double drt = -(rt - rc) * t.a / k.tau_s + k.rai_bps / bits * rc * (t.c + t.e);
    EXPECT_NEAR(drc / rc, 0, 1e-6) << n;  // relative rate of change, per second
    EXPECT_NEAR(drt / rc, 0, 1e-6) << n;
    EXPECT_DOUBLE_EQ(f.rc_bps * n, k.link_bps);
  }
}

// The paper's Taylor approximation drops O(p⁴): it overestimates p* a little, less for
// smaller p*. Numbers from the paper preset's defaults (Kmax 200 KB, Pmax 1 %).
TEST(DcqcnFluid, CloseToThePapersApproximation) {
  for (int n : {2, 4, 8}) {
    DcqcnFluidCase k;
    k.flows = n;
    const double exact = dcqcn_fixed_point(k).p, approx = dcqcn_p_approx(k);
    EXPECT_GT(approx, exact) << n;
    EXPECT_LT(approx, exact * 1.35) << n;
  }
}

// The case measured against rocetb: 2 flows, 40 Gb/s, 1082-byte frames, Kmin 5 KB,
// Kmax 200 KB, Pmax 1 %: p* = 0.084 %, q* = 21.4 KB, α* = 0.10, 1852 CNPs/flow/s.
TEST(DcqcnFluid, PaperPresetTwoFlows) {
  DcqcnFluidCase k;
  k.packet_bytes = 1082;
  const DcqcnFixedPoint f = dcqcn_fixed_point(k);
  EXPECT_NEAR(f.p, 0.00084, 0.00001);
  EXPECT_NEAR(f.queue_bytes, 21.4e3, 0.1e3);
  EXPECT_NEAR(f.alpha, 0.101, 0.001);
  EXPECT_NEAR(f.cnps_per_flow_per_s, 1852, 5);
  EXPECT_GT(f.rt_bps, f.rc_bps);
}

}  // namespace
}  // namespace rtb::model
