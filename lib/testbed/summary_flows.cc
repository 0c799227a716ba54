#include <algorithm>
#include <vector>

#include "core/nearest_rank.h"
#include "testbed/counter_window.h"
#include "testbed/ideal_fct.h"
#include "testbed/summary_parts.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

// When the flow's last message was acknowledged (never while any is outstanding).
Time completion(const host::QueuePair& qp) {
  return qp.requester.done() ? qp.requester.messages().back().completed : Time::never();
}

ordered_json or_null(bool known, ordered_json v) { return known ? std::move(v) : ordered_json(nullptr); }

// A flow of several messages: how many, and each completed one's time from its start to
// its last frame's acknowledgement (mean, p99 by nearest rank, max; null before any).
void add_message_figures(ordered_json& j, const scenario::Flow& flow, const host::QueuePair* qp) {
  j["messages"] = flow.messages.size();
  j["messages_completed"] = nullptr;
  j["message_completion_ns"] = nullptr;
  if (qp == nullptr) return;
  std::vector<int64_t> ns;
  for (const host::MessageRecord& m : qp->requester.messages()) {
    if (!m.completed.is_never()) ns.push_back((m.completed - m.start).ns());
  }
  j["messages_completed"] = ns.size();
  if (ns.empty()) return;
  std::sort(ns.begin(), ns.end());
  int64_t sum = 0;
  for (int64_t v : ns) sum += v;
  j["message_completion_ns"] = {{"mean", sum / static_cast<int64_t>(ns.size())}, {"p99", nearest_rank(ns, 99)},
                                {"max", ns.back()}};
}

}  // namespace

double gbps(uint64_t bytes, Time span) {
  return span <= Time::zero() ? 0.0 : static_cast<double>(bytes) * 8.0 / span.s_f() / 1e9;
}

// Every field is over the window except those named *_total, the flow's size and its FCT.
// Fields of the end this process does not have (a split realtime run) stay null:
// delivered bytes come from the receiver, the completion and counters from the sender.
FlowFigures flow_figures(const Testbed& t, const Baseline& b, uint32_t f, const Window& w) {
  const scenario::Scenario& s = t.scenario();
  const scenario::Flow& flow = s.flows[f];
  FlowFigures out;
  out.has_dst = t.has_host(flow.dst);
  const bool has_src = t.has_host(flow.src);
  uint64_t delivered = 0;
  if (out.has_dst) {
    delivered = t.host(flow.dst).qp(t.flow_qps(f).dst_qp).counters.payload_bytes_received;
    out.window_bytes = delivered - b.received[f];
  }
  const host::QueuePair* qp = has_src ? &t.host(flow.src).qp(t.flow_qps(f).src_qp) : nullptr;
  out.completed = qp != nullptr ? completion(*qp) : Time::never();
  out.finished = !out.completed.is_never();
  out.active_from = std::max(flow.start, w.from);
  out.active_to = std::max(out.active_from, std::min(out.completed, w.to));
  const bool ran = out.active_to > out.active_from;

  ordered_json& j = out.json;
  j["id"] = flow.id;
  j["src"] = s.topology.hosts[flow.src].name;
  j["dst"] = s.topology.hosts[flow.dst].name;
  j["qpn"] = or_null(has_src, qp != nullptr ? qp->qpn : 0);
  j["size_bytes"] = flow.size ? ordered_json(flow.size->count()) : ordered_json(nullptr);
  j["start_ns"] = flow.start.ns();
  j["bytes"] = or_null(out.has_dst, out.window_bytes);
  j["bytes_total"] = or_null(out.has_dst, delivered);
  // The window's bytes over the part of the window the flow ran in.
  j["throughput_gbps"] = or_null(out.has_dst && ran, gbps(out.window_bytes, out.active_to - out.active_from));
  j["fct_ns"] = or_null(out.finished, (out.completed - flow.start).ns());
  const std::optional<Time> ideal = ideal_fct(s.topology, flow);
  j["ideal_fct_ns"] = or_null(ideal.has_value(), ideal ? ideal->ns() : 0);
  out.size_bytes = flow.size ? flow.size->count() : 0;
  if (out.finished && ideal) out.slowdown = (out.completed - flow.start).s_f() / ideal->s_f();
  j["fct_slowdown"] = or_null(out.slowdown.has_value(), out.slowdown.value_or(0));
  // A finished flow: its size over its own duration, warm-up or not.
  j["goodput_gbps"] = or_null(out.finished && flow.size.has_value(),
                              gbps(flow.size ? flow.size->count() : 0, out.completed - flow.start));
  if (!flow.messages.empty()) add_message_figures(j, flow, qp);
  for (const char* k : {"cnp_handled", "retransmissions", "timeouts", "failed"}) j[k] = nullptr;
  if (qp == nullptr) return out;
  const host::QpCounters c = since(qp->counters, b.senders[f]);
  out.retransmissions = c.retransmitted_frames;
  j["cnp_handled"] = c.cnp_handled;
  j["retransmissions"] = c.retransmitted_frames;
  j["timeouts"] = qp->requester.counters().timeouts - b.sender_timeouts[f];
  j["failed"] = qp->requester.failed();
  return out;
}

}  // namespace rtb::testbed
