// The fixed point of the DCQCN fluid model of Zhu, Ghobadi, Misra, Padhye, "ECN or Delay:
// Lessons Learnt from Analysis of DCQCN and TIMELY", CoNEXT 2016, §4 (equations as in the
// authors' dcqcn-model.tex and fluidmodel/dcqcn/dcqcn2.m, public repository
// jitupadhye-zz/rdma). A reference for tests: no rocetb code is used.
//
// As in the authors' MATLAB every quantity is counted in packets of `packet_bytes`: rates in
// packets/s, B and the queue in packets, because the marking probability is per packet.
//
//   p(q)     RED ramp: 0 below Kmin, (q − Kmin)/(Kmax − Kmin)·Pmax up to Kmax, 1 above
//   Σ R_C = C                                   (dq/dt = 0)  so R_C* = C/N   (Theorem 1)
//   α* = 1 − (1 − p)^(τ′R_C)                    (dα/dt = 0)
//   a²α / ((b + d)(c + e)) = τ² R_AI R_C        (dR_T/dt = dR_C/dt = 0; the paper's p* equation)
//     a = 1 − (1 − p)^(τR_C)   b = p / ((1 − p)^(−B) − 1)        c = b (1 − p)^(FB)
//                              d = p / ((1 − p)^(−TR_C) − 1)     e = d (1 − p)^(FTR_C)
//   q* = p*/Pmax (Kmax − Kmin) + Kmin
//   R_T* = R_C* + aα*/((b + d)τ)                (from dR_C/dt = 0)
//
// The left side of the p* equation grows monotonically in p (paper, Theorem 1), so p* is
// found by bisection. The fixed point does not depend on the feedback delay τ*; whether it
// is reached (stability) does, and scripts/dcqcn_fluid.py integrates the delay equations.
// CNPs per flow per second at the fixed point are a/τ: the model's NP sends one CNP in a
// τ window when any of its τR_C packets is marked.
#pragma once

#include <cmath>

namespace rtb::model {

struct DcqcnFluidCase {
  int flows = 2;                       // N
  double link_bps = 40e9;              // C
  double packet_bytes = 1000;          // the unit of every count (frame bytes on the queue)
  double kmin_bytes = 5e3, kmax_bytes = 200e3, pmax = 0.01;  // RED ramp
  double tau_s = 50e-6;                // τ: NP's CNP interval
  double tau_prime_s = 55e-6;          // τ′: α timer
  double timer_s = 55e-6;              // T: rate-increase timer
  double byte_counter_bytes = 10e6;    // B
  int fast_recovery = 5;               // F
  double rai_bps = 40e6;               // R_AI
  double g = 1.0 / 256;                // not in the fixed point; kept for the integrator
};

struct DcqcnFixedPoint {
  double p;                   // marking probability p*
  double queue_bytes;         // q*
  double alpha;               // α*
  double rc_bps, rt_bps;      // R_C* = C/N, R_T*
  double cnps_per_flow_per_s; // a/τ
};

namespace detail {

// (1 − p)^x and (1 − p)^(−x) − 1 without cancellation for tiny p.
inline double pow1m(double p, double x) { return std::exp(x * std::log1p(-p)); }
inline double inv_pow1m_minus1(double p, double x) { return std::expm1(-x * std::log1p(-p)); }

struct Terms {
  double a, alpha, b, c, d, e;
};

inline Terms terms(const DcqcnFluidCase& k, double p, double rc_pps) {
  const double bytes_pk = k.byte_counter_bytes / k.packet_bytes;
  const double tr = k.timer_s * rc_pps;
  Terms t{};
  t.a = -std::expm1(k.tau_s * rc_pps * std::log1p(-p));
  t.alpha = -std::expm1(k.tau_prime_s * rc_pps * std::log1p(-p));
  t.b = p / inv_pow1m_minus1(p, bytes_pk);
  t.c = t.b * pow1m(p, k.fast_recovery * bytes_pk);
  t.d = p / inv_pow1m_minus1(p, tr);
  t.e = t.d * pow1m(p, k.fast_recovery * tr);
  return t;
}

// a²α/((b + d)(c + e)) − τ²R_AI R_C: negative below p*, positive above.
inline double balance(const DcqcnFluidCase& k, double p, double rc_pps, double rai_pps) {
  const Terms t = terms(k, p, rc_pps);
  return t.a * t.a * t.alpha / ((t.b + t.d) * (t.c + t.e)) - k.tau_s * k.tau_s * rai_pps * rc_pps;
}

}  // namespace detail

inline DcqcnFixedPoint dcqcn_fixed_point(const DcqcnFluidCase& k) {
  const double bits = k.packet_bytes * 8;
  const double rc = k.link_bps / bits / k.flows;  // packets/s
  const double rai = k.rai_bps / bits;
  // Bisection on log p over [1e-12, 0.5]: 200 halvings reach double precision.
  double lo = std::log(1e-12), hi = std::log(0.5);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (detail::balance(k, std::exp(mid), rc, rai) < 0 ? lo : hi) = mid;
  }
  const double p = std::exp(0.5 * (lo + hi));
  const detail::Terms t = detail::terms(k, p, rc);
  DcqcnFixedPoint f{};
  f.p = p;
  f.queue_bytes = p / k.pmax * (k.kmax_bytes - k.kmin_bytes) + k.kmin_bytes;
  f.alpha = t.alpha;
  f.rc_bps = rc * bits;
  f.rt_bps = (rc + t.a * t.alpha / ((t.b + t.d) * k.tau_s)) * bits;
  f.cnps_per_flow_per_s = t.a / k.tau_s;
  return f;
}

// The paper's closed-form approximation (Taylor series around p = 0, O(p⁴) dropped):
//   p* ≈ ∛( R_AI N² / (τ′ C²) · (1/B + N/(T C))² )
inline double dcqcn_p_approx(const DcqcnFluidCase& k) {
  const double bits = k.packet_bytes * 8;
  const double c = k.link_bps / bits, rai = k.rai_bps / bits, b = k.byte_counter_bytes / k.packet_bytes;
  const double n = k.flows;
  const double s = 1 / b + n / (k.timer_s * c);
  return std::cbrt(rai * n * n / (k.tau_prime_s * c * c) * s * s);
}

}  // namespace rtb::model
