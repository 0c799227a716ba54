#include <fmt/format.h>

#include "analyze/names.h"
#include "analyze/report.h"

namespace rtb::analyze {
namespace {

void totals_lines(std::ostream& os, const CaptureAnalysis& a) {
  const Totals& t = a.analyzer.totals();
  os << fmt::format("capture {} ({}): {} frames, {} bytes over {:.3f} ms\n", a.path,
                    capture::link_type_name(a.analyzer.link()), t.frames, t.wire_bytes,
                    t.last_ts.s_f() * 1e3);
  os << fmt::format("  RoCEv2 {}  PFC {}  PAUSE {}  other {}  malformed {}  snapped {}\n", t.roce,
                    t.pfc, t.pause, t.other, t.malformed, t.snapped);
  os << fmt::format("  ICRC valid {}  invalid {}  not checked {}   CE {}  CNPs {}\n",
                    t.icrc_valid, t.icrc_invalid, t.icrc_unchecked, t.ce, t.cnps);
  for (uint32_t i = 0; i < kMalformedCount; ++i) {
    if (t.malformed_by[i] != 0)
      os << fmt::format("  malformed: {} {}\n", malformed_name(static_cast<Malformed>(i)), t.malformed_by[i]);
  }
  os << "  opcodes:";
  for (size_t i = 0; i < t.opcodes.size(); ++i) {
    if (t.opcodes[i] != 0) os << fmt::format("  {} x{}", opcode_text(static_cast<uint8_t>(i)), t.opcodes[i]);
  }
  os << "\n";
}

void qp_table(std::ostream& os, const CaptureAnalysis& a) {
  os << fmt::format("\n{:>8} {:>15} {:>15} {:>7} {:>10} {:>6} {:>7} {:>5} {:>5} {:>5} {:>5} {:>8} {:>9}\n",
                    "dest_qp", "src", "dst", "frames", "bytes", "CE", "CE%", "CNPs", "NAKs", "gaps",
                    "retx", "icrc_bad", "msgs");
  for (const auto& [k, q] : a.analyzer.qps()) {
    uint64_t naks = 0;
    for (const auto& [syn, n] : q->naks) naks += n;
    os << fmt::format("{:>8} {:>15} {:>15} {:>7} {:>10} {:>6} {:>6.2f}% {:>5} {:>5} {:>5} {:>5} {:>8} {:>9}\n",
                      qpn_text(k.dest_qpn), ip_text(k.src), ip_text(k.dst), q->frames,
                      q->wire_bytes, q->ce, 100.0 * q->ce_fraction(), q->cnps, naks,
                      q->psn.gaps(), q->psn.repeated(), q->icrc_invalid,
                      q->messages.completion().count);
  }
}

void priority_table(std::ostream& os, const CaptureAnalysis& a) {
  const PfcStats& pfc = a.analyzer.pfc();
  os << fmt::format("\nPFC (pause quanta at {} Gb/s; --link-rate sets it, default 100Gbps)\n",
                    pfc.link_rate().gbps_f());
  os << fmt::format("{:>4} {:>8} {:>6} {:>6} {:>14} {:>12}\n", "prio", "frames", "xoff", "xon",
                    "requested_us", "paused_us");
  for (size_t p = 0; p < 8; ++p) {
    const PriorityStats& s = pfc.priorities()[p];
    if (s.frames == 0) continue;
    os << fmt::format("{:>4} {:>8} {:>6} {:>6} {:>14.3f} {:>12.3f}\n", p, s.frames, s.xoff, s.xon,
                      s.requested.us_f(), s.paused.us_f());
  }
}

}  // namespace

void print_table(std::ostream& os, const CaptureAnalysis& a) {
  totals_lines(os, a);
  qp_table(os, a);
  priority_table(os, a);
}

}  // namespace rtb::analyze
