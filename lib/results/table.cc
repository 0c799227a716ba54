#include "results/table.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <ostream>

namespace rtb::results {
namespace {

// "-": unknown (unfinished, not running in the window, or in a split run's part known to
// the other process).
template <typename T>
std::string cell(const std::optional<T>& v, double scale, const char* spec) {
  return v ? fmt::format(fmt::runtime(spec), static_cast<double>(*v) / scale) : std::string("-");
}

std::optional<uint64_t> ns_of(const std::optional<Time>& t) {
  return t ? std::optional<uint64_t>(t->ns()) : std::nullopt;
}

void print_flows(std::ostream& out, const std::vector<FlowResult>& flows, size_t max_flows) {
  constexpr const char* kRow = "{:>5} {:>10} {:>10} {:>14} {:>10} {:>12} {:>6} {:>6}\n";
  fmt::print(out, fmt::runtime(kRow), "flow", "src", "dst", "bytes", "Gb/s", "FCT us", "CNPs", "retx");
  for (size_t i = 0; i < flows.size(); ++i) {
    if (i == max_flows) {
      fmt::print(out, "  ... {} more flows in summary.json\n", flows.size() - max_flows);
      break;
    }
    const FlowResult& f = flows[i];
    fmt::print(out, fmt::runtime(kRow), f.id, f.src, f.dst, cell(f.bytes, 1, "{:.0f}"),
               cell(f.throughput_gbps, 1, "{:.2f}"), cell(ns_of(f.fct), 1e3, "{:.1f}"),
               cell(f.cnp_handled, 1, "{:.0f}"), cell(f.retransmissions, 1, "{:.0f}"));
  }
}

uint64_t sum(const PerPriority& x) {
  uint64_t n = 0;
  for (uint64_t v : x) n += v;
  return n;
}

uint64_t deepest_queue(const PortResult& p) {
  uint64_t deepest = 0;
  for (const QueueResult& q : p.queues) deepest = std::max(deepest, q.watermark_bytes_total);
  return deepest;
}

}  // namespace

void print_switch_ports(std::ostream& out, const Summary& s, size_t max_ports) {
  constexpr const char* kRow = "{:<10} {:<12} {:>10} {:>10} {:>12} {:>10} {:>8} {:>8} {:>8}\n";
  fmt::print(out, fmt::runtime(kRow), "switch", "port", "rx frames", "tx frames", "peak queue B", "ECN marked",
             "PFC sent", "PFC rcvd", "drops");
  size_t shown = 0, left = 0;
  for (const SwitchResult& sw : s.switches) {
    for (const PortResult& p : sw.ports) {
      if (p.rx_frames == 0 && p.tx_frames == 0 && sum(p.pfc_rx_frames) == 0) continue;
      if (shown == max_ports) {
        ++left;
        continue;
      }
      ++shown;
      fmt::print(out, fmt::runtime(kRow), sw.name, p.name, p.rx_frames, p.tx_frames, deepest_queue(p), p.ecn_marked,
                 sum(p.pfc_tx_frames), sum(p.pfc_rx_frames), p.drops);
    }
  }
  if (left > 0) fmt::print(out, "  ... {} more ports in summary.json\n", left);
  const Counts& c = s.counts;
  fmt::print(out, "whole run: ECN marked {} | PFC frames {} | drops {}\n", c.ecn_marked_total, c.pfc_frames_total,
             c.drops_total);
}

void print_summary(std::ostream& out, const Summary& s, size_t max_flows) {
  // Every column and total is over one window: after the warm-up.
  fmt::print(out, "after the warm-up: {:.3f} ms to {:.3f} ms\n", static_cast<double>(s.window.from.ns()) / 1e6,
             static_cast<double>(s.window.to.ns()) / 1e6);
  print_flows(out, s.flows, max_flows);
  const Totals& t = s.totals;
  const Counts& c = s.counts;
  fmt::print(out,
             "goodput {:.2f} Gb/s | Jain {} | ECN mark rate {:.4f} (data frames) | CNPs {} | PFC frames {} | "
             "drops {} | retransmissions {}\n",
             t.goodput_gbps, cell(t.jain_fairness, 1, "{:.4f}"), t.ecn_mark_rate, c.cnp_sent, c.pfc_frames, c.drops,
             c.retransmissions);
  if (s.fct_slowdown) {
    const FctSlowdown& f = *s.fct_slowdown;
    fmt::print(out, "FCT slowdown ({} finished flows, FCT over the ideal): p50 {:.2f} | p95 {:.2f} | p99 {:.2f} | max {:.2f}\n",
               f.flows, f.all.p50, f.all.p95, f.all.p99, f.max);
  }
  fmt::print(out, "whole run, warm-up included: PFC frames {} | drops {} | CNPs {}\n", c.pfc_frames_total,
             c.drops_total, c.cnp_sent_total);
  if (s.valid && !*s.valid) fmt::print(out, "INVALID RUN: {}\n", s.invalid_reason.value_or("(no reason given)"));
}

}  // namespace rtb::results
