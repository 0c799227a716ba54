#include <algorithm>
#include <vector>

#include "core/nearest_rank.h"
#include "results/derive.h"
#include "testbed/counter_window.h"
#include "testbed/ideal_fct.h"
#include "testbed/summary_parts.h"

namespace rtb::testbed {
namespace {

using results::FlowResult;

// When the flow's last message was acknowledged (never while any is outstanding).
Time completion(const host::QueuePair& qp) {
  return qp.requester.done() ? qp.requester.messages().back().completed : Time::never();
}

// A flow of several messages: how many, and each completed one's time from its start to
// its last frame's acknowledgement (mean, p99 by nearest rank, max; none before any).
results::MessageFigures message_figures(const scenario::Flow& flow, const host::QueuePair* qp) {
  results::MessageFigures m{.messages = flow.messages.size()};
  if (qp == nullptr) return m;
  std::vector<uint64_t> ns;
  for (const host::MessageRecord& r : qp->requester.messages()) {
    if (!r.completed.is_never()) ns.push_back((r.completed - r.start).ns());
  }
  m.completed = ns.size();
  if (ns.empty()) return m;
  std::sort(ns.begin(), ns.end());
  uint64_t sum = 0;
  for (uint64_t v : ns) sum += v;
  m.completion_ns = results::MessageCompletion{sum / ns.size(), nearest_rank(ns, 99), ns.back()};
  return m;
}

// The sender's figures: its QP, completion and counters over the window.
void add_sender_figures(FlowResult& r, const scenario::Flow& flow, const host::QueuePair& qp,
                        const Baseline& b, uint32_t f) {
  r.qpn = qp.qpn;
  const Time completed = completion(qp);
  if (!completed.is_never()) {
    r.fct = completed - flow.start;
    if (r.ideal_fct) r.fct_slowdown = r.fct->s_f() / r.ideal_fct->s_f();
    // A finished flow: its size over its own duration, warm-up or not.
    if (flow.size) r.goodput_gbps = results::gbps(flow.size->count(), *r.fct);
  }
  const host::QpCounters c = since(qp.counters, b.senders[f]);
  r.cnp_handled = c.cnp_handled;
  r.retransmissions = c.retransmitted_frames;
  r.timeouts = qp.requester.counters().timeouts - b.sender_timeouts[f];
  r.failed = qp.requester.failed();
}

}  // namespace

// Every figure is over the window except those named *_total, the flow's size and its FCT.
FlowResult flow_result(const Testbed& t, const Baseline& b, uint32_t f) {
  const scenario::Scenario& s = t.scenario();
  const scenario::Flow& flow = s.flows[f];
  FlowResult r;
  r.id = flow.id;
  r.src = s.topology.hosts[flow.src].name;
  r.dst = s.topology.hosts[flow.dst].name;
  r.start = flow.start;
  if (flow.size) r.size_bytes = flow.size->count();
  r.ideal_fct = ideal_fct(s.topology, flow, t.base_path(f));
  if (t.has_host(flow.dst)) {
    const uint64_t delivered = t.host(flow.dst).qp(t.flow_qps(f).dst_qp).counters.payload_bytes_received;
    r.bytes_total = delivered;
    r.bytes = delivered - b.received[f];
  }
  const host::QueuePair* qp = t.has_host(flow.src) ? &t.host(flow.src).qp(t.flow_qps(f).src_qp) : nullptr;
  if (!flow.messages.empty()) r.messages = message_figures(flow, qp);
  if (qp != nullptr) add_sender_figures(r, flow, *qp, b, f);
  return r;
}

}  // namespace rtb::testbed
