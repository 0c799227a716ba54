#!/usr/bin/env python3
"""Integrate the DCQCN fluid model (Zhu, Ghobadi, Misra, Padhye, "ECN or Delay", CoNEXT 2016,
Fig. 4 of the paper; the authors' MATLAB is fluidmodel/dcqcn/dcqcn2.m in jitupadhye-zz/rdma).

Delay-differential equations, per flow i, with every quantity in packets (as in dcqcn2.m):
  p(t)      = RED(q(t))                     0 | (q - Kmin)/(Kmax - Kmin) Pmax | 1
  dq/dt     = sum_i R_C(i) - C              (q >= 0)
  dalpha/dt = g/tau' ((1 - (1 - p*)^(tau' R*)) - alpha)
  dR_T/dt   = -(R_T - R_C)/tau a + R_AI R* (c + e)
  dR_C/dt   = -R_C alpha/(2 tau) a + (R_T - R_C)/2 R* (b + d)
with p* = p(t - tau*), R* = R_C(t - tau*) and a..e as in the paper:
  a = 1-(1-p*)^(tau R*)  b = p*/((1-p*)^-B - 1)  c = b (1-p*)^(F B)
  d = p*/((1-p*)^-(T R*) - 1)  e = d (1-p*)^(F T R*)
Rates never exceed C. Fixed-step Euler (dt, default 0.1 us) with a history ring for the
delay; all flows start at line rate with alpha = 1, as DCQCN specifies.

Prints the time averages after the warm-up: queue, p, alpha, rates, CNPs per flow per
second (a/tau), and the min/max of the queue. Plain Python (no numpy): about 10 s per 100 ms
simulated for 2 flows at dt = 0.1 us.

  scripts/dcqcn_fluid.py --flows 2 --frame 1082 --kmax-kb 200 --pmax 0.01 --delay-us 4
"""
import argparse
import math
import sys


def red(q, kmin, kmax, pmax):
    if q <= kmin:
        return 0.0
    if q <= kmax:
        return (q - kmin) / (kmax - kmin) * pmax
    return 1.0


def terms(p, r, a_args):
    """a, b, c, d, e of the paper (dcqcn2.m IntermediateTerms) for mark probability p and
    delayed rate r (packets/s)."""
    tau, bc, f, timer = a_args
    if p <= 0.0:
        b = 1.0 / bc
        d = 1.0 / (timer * r) if r > 0 else 0.0
        return 0.0, b, b, d, d
    if p >= 1.0:
        return 1.0, 0.0, 0.0, 0.0, 0.0
    l1p = math.log1p(-p)
    a = -math.expm1(tau * r * l1p)
    b = p / math.expm1(-bc * l1p)
    c = b * math.exp(f * bc * l1p)
    den = math.expm1(-timer * r * l1p)
    d = p / den if den > 0 else (1.0 / (timer * r) if r > 0 else 0.0)
    e = d * math.exp(f * timer * r * l1p)
    return a, b, c, d, e


def integrate(o):
    bits = o.frame * 8
    cap = o.link_gbps * 1e9 / bits
    kmin, kmax = o.kmin_kb * 1e3 / o.frame, o.kmax_kb * 1e3 / o.frame
    bc, rai = o.byte_counter_mb * 1e6 / o.frame, o.rai_mbps * 1e6 / bits
    tau, taup, timer = o.tau_us * 1e-6, o.tau_prime_us * 1e-6, o.timer_us * 1e-6
    args = (tau, bc, o.fast_recovery, timer)
    dt = o.dt_us * 1e-6
    lag = max(1, round(o.delay_us / o.dt_us))
    n = o.flows
    rc, rt, al = [cap] * n, [cap] * n, [1.0] * n
    q = 0.0
    hist_q = [0.0] * lag  # q and R_C tau* ago (ring); before t = 0: empty queue, line rate
    hist_r = [[cap] * n for _ in range(lag)]
    steps, warm = round(o.duration_ms * 1e-3 / dt), round(o.warmup_ms * 1e-3 / dt)
    acc = {"q": 0.0, "p": 0.0, "alpha": 0.0, "cnp": 0.0, "rates": [0.0] * n}
    qmin, qmax = math.inf, 0.0
    for k in range(steps):
        slot = k % lag
        qd, rd = hist_q[slot], hist_r[slot]
        hist_q[slot], hist_r[slot] = q, rc[:]
        p = red(qd, kmin, kmax, o.pmax)
        p_now = red(q, kmin, kmax, o.pmax)
        for i in range(n):
            a, b, c, d, e = terms(p, rd[i], args)
            mark_win = 1.0 - (1.0 - p) ** (taup * rd[i]) if 0 < p < 1 else (1.0 if p >= 1 else 0.0)
            drc = -rc[i] * al[i] * a / (2 * tau) + (rt[i] - rc[i]) * rd[i] * (b + d) / 2
            drt = -(rt[i] - rc[i]) * a / tau + rai * rd[i] * (c + e)
            dal = o.g * (mark_win - al[i]) / taup
            if rc[i] >= cap and drc > 0:
                drc = 0.0
            if rt[i] >= cap and drt > 0:
                drt = 0.0
            rc[i] = min(cap, max(0.0, rc[i] + drc * dt))
            rt[i] = min(cap, max(0.0, rt[i] + drt * dt))
            al[i] = min(1.0, max(0.0, al[i] + dal * dt))
            if k >= warm:
                acc["rates"][i] += rc[i]
                acc["cnp"] += a / tau / n
        q = max(0.0, q + (sum(rc) - cap) * dt)
        if k >= warm:
            acc["q"] += q
            acc["p"] += p_now
            acc["alpha"] += sum(al) / n
            qmin, qmax = min(qmin, q), max(qmax, q)
    m = max(1, steps - warm)
    return {"queue_bytes": acc["q"] / m * o.frame, "qmin_bytes": qmin * o.frame, "qmax_bytes": qmax * o.frame,
            "p": acc["p"] / m, "alpha": acc["alpha"] / m, "cnps_per_flow_s": acc["cnp"] / m,
            "rates_bps": [r / m * bits for r in acc["rates"]]}


def report(o, r):
    print(f"flows {o.flows}  link {o.link_gbps} Gb/s  frame {o.frame} B  RED {o.kmin_kb}/{o.kmax_kb} KB "
          f"Pmax {o.pmax}  feedback delay {o.delay_us} us  {o.duration_ms} ms (warm-up {o.warmup_ms} ms)")
    print(f"queue mean {r['queue_bytes'] / 1e3:.2f} KB  min {r['qmin_bytes'] / 1e3:.2f} KB  "
          f"max {r['qmax_bytes'] / 1e3:.2f} KB")
    print(f"mark probability mean {r['p'] * 100:.4f} %  alpha mean {r['alpha']:.4f}  "
          f"CNPs/flow/s {r['cnps_per_flow_s']:.0f}")
    print("rates Gb/s " + " ".join(f"{x / 1e9:.3f}" for x in r["rates_bps"]))


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--flows", type=int, default=2)
    ap.add_argument("--link-gbps", type=float, default=40)
    ap.add_argument("--frame", type=float, default=1000, help="packet bytes (the model's unit)")
    ap.add_argument("--kmin-kb", type=float, default=5)
    ap.add_argument("--kmax-kb", type=float, default=200)
    ap.add_argument("--pmax", type=float, default=0.01)
    ap.add_argument("--delay-us", type=float, default=4, help="feedback delay tau*")
    ap.add_argument("--tau-us", type=float, default=50)
    ap.add_argument("--tau-prime-us", type=float, default=55)
    ap.add_argument("--timer-us", type=float, default=55)
    ap.add_argument("--byte-counter-mb", type=float, default=10)
    ap.add_argument("--fast-recovery", type=int, default=5)
    ap.add_argument("--rai-mbps", type=float, default=40)
    ap.add_argument("--g", type=float, default=1 / 256)
    ap.add_argument("--dt-us", type=float, default=0.1)
    ap.add_argument("--duration-ms", type=float, default=100)
    ap.add_argument("--warmup-ms", type=float, default=50)
    o = ap.parse_args(argv)
    if o.flows < 1 or o.dt_us <= 0 or o.delay_us < 0 or o.kmax_kb <= o.kmin_kb or not 0 < o.pmax <= 1:
        sys.exit("dcqcn_fluid.py: need flows >= 1, dt > 0, delay >= 0, kmax > kmin, 0 < pmax <= 1")
    return o


def main(argv):
    o = parse(argv)
    report(o, integrate(o))


if __name__ == "__main__":
    main(sys.argv[1:])
