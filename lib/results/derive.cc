#include "results/derive.h"

#include <algorithm>

#include "results/fct_slowdown.h"

namespace rtb::results {
namespace {

// The part of the window a flow ran in: from its start (or the window's) to its
// completion (or the window's end); empty when it ran only before the warm-up ended.
struct Active {
  Time from, to;
};

Active active(const FlowResult& f, const Window& w) {
  const Time from = std::max(f.start, w.from);
  const Time completed = f.fct ? f.start + *f.fct : Time::never();
  return Active{from, std::max(from, std::min(completed, w.to))};
}

// The window's bytes over the part of the window the flow ran in.
void derive_throughput(FlowResult& f, const Window& w) {
  const Active a = active(f, w);
  f.throughput_gbps.reset();
  if (f.bytes && a.to > a.from) f.throughput_gbps = gbps(*f.bytes, a.to - a.from);
}

// Jain's index over the flows that ran in the window, only when they all ran at the same
// time for a while (flows one after another, or of very different sizes that never meet,
// share nothing to be fair about): the common interval is not empty.
std::optional<double> fairness(const std::vector<FlowResult>& flows, const Window& w) {
  std::vector<double> x;
  Time from = Time::zero(), to = Time::never();
  for (const FlowResult& f : flows) {
    if (!f.throughput_gbps) continue;
    const Active a = active(f, w);
    x.push_back(*f.throughput_gbps);
    from = std::max(from, a.from);
    to = std::min(to, a.to);
  }
  if (x.empty() || to <= from) return std::nullopt;
  return jain_fairness(x);
}

// The window's delivered bytes over the window; when every flow whose sender this summary
// knows has finished, over the time until the last completion instead (a finite incast
// that ends early is not diluted by the idle rest of the run).
void derive_goodput(const Summary& s, Totals& t) {
  uint64_t delivered = 0;
  bool any_sender = false, all_finished = true;
  Time last_done = s.window.from;
  for (const FlowResult& f : s.flows) {
    delivered += f.bytes.value_or(0);
    if (!f.sender_known()) continue;
    any_sender = true;
    all_finished = all_finished && f.fct.has_value();
    if (f.fct) last_done = std::max(last_done, f.start + *f.fct);
  }
  const Time to = any_sender && all_finished && last_done < s.window.to ? last_done : s.window.to;
  t.goodput_span = to - s.window.from;
  t.goodput_gbps = gbps(delivered, t.goodput_span);
}

// The mark rate over the data frames through queues that mark ECN (ACKs, CNPs and queues
// that never mark left out).
void derive_mark_rate(const Summary& s, Totals& t) {
  uint64_t data = 0, marked = 0;
  for (const SwitchResult& sw : s.switches) {
    for (const PortResult& p : sw.ports) {
      for (const QueueResult& q : p.queues) {
        if (!q.marks_ecn) continue;
        data += q.data_frames;
        marked += q.data_ecn_marked;
      }
    }
  }
  t.ecn_marked_data_frames = marked;
  t.ecn_mark_rate = data == 0 ? 0.0 : static_cast<double>(marked) / static_cast<double>(data);
}

}  // namespace

double gbps(uint64_t bytes, Time span) {
  return span <= Time::zero() ? 0.0 : static_cast<double>(bytes) * 8.0 / span.s_f() / 1e9;
}

double jain_fairness(const std::vector<double>& x) {
  double sum = 0, squares = 0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  return squares == 0 ? 1.0 : sum * sum / (static_cast<double>(x.size()) * squares);
}

void derive(Summary& s) {
  for (FlowResult& f : s.flows) derive_throughput(f, s.window);
  derive_goodput(s, s.totals);
  s.totals.jain_fairness = fairness(s.flows, s.window);
  derive_mark_rate(s, s.totals);
  s.fct_slowdown = fct_slowdown(s.flows);
}

}  // namespace rtb::results
