"""scripts/dcqcn_fluid.py (the DCQCN fluid model's delay equations, CoNEXT'16) integrated for
2 flows, paper defaults, 1082-byte frames, 4 us feedback delay, 100 ms (mean of the last 20): it must settle at the
fixed point tests/model/dcqcn_fluid.h computes (q* = 21.4 KB, p* = 0.084 %, R_C* = 20 Gb/s).
alpha converges from 1 with time constant tau'/g = 14 ms: after 80 ms it is within 1 % of
alpha* = 0.101. Checked: queue within 5 % of q*, alpha within 0.005, rates within 1 %,
the queue never above Kmax. (Integrated: 21.37 KB, 0.0840 %, alpha 0.1017, 1850 CNPs/flow/s.)"""
import importlib.util
import sys

spec = importlib.util.spec_from_file_location("dcqcn_fluid", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
o = m.parse(["--flows", "2", "--frame", "1082", "--delay-us", "4", "--dt-us", "0.5",
             "--duration-ms", "100", "--warmup-ms", "80"])
r = m.integrate(o)
failures = []
if abs(r["queue_bytes"] - 21.4e3) > 1.07e3:
    failures.append(f"queue mean {r['queue_bytes']:.0f} B, expected 21400 +- 5 %")
if abs(r["alpha"] - 0.101) > 0.005:
    failures.append(f"alpha {r['alpha']:.4f}, expected 0.101 +- 0.005")
for x in r["rates_bps"]:
    if abs(x - 20e9) > 0.2e9:
        failures.append(f"rate {x / 1e9:.3f} Gb/s, expected 20 +- 1 %")
if r["qmax_bytes"] > 200e3:
    failures.append("queue above Kmax")
print(r)
if failures:
    print("\n".join(failures))
    sys.exit(1)
