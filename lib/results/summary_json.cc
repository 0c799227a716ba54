#include "results/summary_json.h"

#include "core/read_file.h"
#include "results/json_reader.h"

namespace rtb::results {
namespace {

using nlohmann::ordered_json;

template <typename T>
ordered_json opt(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json opt_ns(const std::optional<Time>& t) { return t ? ordered_json(t->ns()) : ordered_json(nullptr); }

ordered_json ratio_or_null(uint64_t part, uint64_t whole) {
  return whole == 0 ? ordered_json(nullptr) : ordered_json(static_cast<double>(part) / static_cast<double>(whole));
}

ordered_json flow_json(const FlowResult& f) {
  ordered_json j;
  j["id"] = f.id;
  j["src"] = f.src;
  j["dst"] = f.dst;
  j["qpn"] = opt(f.qpn);
  j["size_bytes"] = opt(f.size_bytes);
  j["start_ns"] = f.start.ns();
  j["bytes"] = opt(f.bytes);
  j["bytes_total"] = opt(f.bytes_total);
  j["throughput_gbps"] = opt(f.throughput_gbps);
  j["fct_ns"] = opt_ns(f.fct);
  j["ideal_fct_ns"] = opt_ns(f.ideal_fct);
  j["fct_slowdown"] = opt(f.fct_slowdown);
  j["goodput_gbps"] = opt(f.goodput_gbps);
  if (f.messages) {
    j["messages"] = f.messages->messages;
    j["messages_completed"] = opt(f.messages->completed);
    const std::optional<MessageCompletion>& c = f.messages->completion_ns;
    j["message_completion_ns"] =
        c ? ordered_json{{"mean", c->mean_ns}, {"p99", c->p99_ns}, {"max", c->max_ns}} : ordered_json(nullptr);
  }
  j["cnp_handled"] = opt(f.cnp_handled);
  j["retransmissions"] = opt(f.retransmissions);
  j["timeouts"] = opt(f.timeouts);
  j["failed"] = opt(f.failed);
  return j;
}

ordered_json queue_json(const QueueResult& q) {
  return ordered_json{
      {"queue", q.queue},
      {"packets", q.packets},
      {"bytes", q.bytes},
      {"dropped_packets", q.dropped_packets},
      {"dropped_bytes", q.dropped_bytes},
      {"ecn_marked", q.ecn_marked},
      {"data_frames", q.data_frames},
      {"data_ecn_marked", q.data_ecn_marked},
      {"ecn_mark_rate", q.marks_ecn ? ratio_or_null(q.data_ecn_marked, q.data_frames) : ordered_json(nullptr)},
      {"watermark_bytes_total", q.watermark_bytes_total}};
}

ordered_json pg_json(const PgResult& g) {
  return ordered_json{{"pg", g.pg},
                      {"dropped_packets", g.dropped_packets},
                      {"shared_watermark_bytes_total", g.shared_watermark_bytes_total},
                      {"headroom_watermark_bytes_total", g.headroom_watermark_bytes_total}};
}

ordered_json port_json(const PortResult& p) {
  ordered_json j;
  j["name"] = p.name;
  j["rx_frames"] = p.rx_frames;
  j["rx_bytes"] = p.rx_bytes;
  j["tx_frames"] = p.tx_frames;
  j["tx_bytes"] = p.tx_bytes;
  j["pfc_rx_frames"] = p.pfc_rx_frames;
  j["pfc_tx_frames"] = p.pfc_tx_frames;
  j["pause_ns"] = p.pause_ns;
  j["ecn_marked"] = p.ecn_marked;
  j["drops"] = p.drops;
  ordered_json by_reason = ordered_json::object();
  for (const auto& [reason, n] : p.drops_by_reason) by_reason[reason] = n;
  j["drops_by_reason"] = std::move(by_reason);
  j["queued_frames"] = p.queued_frames;
  j["pfcwd_storms_detected"] = p.pfcwd_storms_detected;
  j["pfcwd_storms_restored"] = p.pfcwd_storms_restored;
  const DepthFigures& d = p.queue_bytes;
  j["queue_bytes"] = ordered_json{{"mean", d.mean}, {"p50", d.p50}, {"p99", d.p99}, {"max", d.max}};
  j["queues"] = ordered_json::array();
  for (const QueueResult& q : p.queues) j["queues"].push_back(queue_json(q));
  j["pgs"] = ordered_json::array();
  for (const PgResult& g : p.pgs) j["pgs"].push_back(pg_json(g));
  return j;
}

ordered_json switch_json(const SwitchResult& s) {
  ordered_json j{{"name", s.name},
                 {"buffer_peak_bytes", s.buffer_peak_bytes},
                 {"buffer_watermark_bytes_total", s.buffer_watermark_bytes_total}};
  if (s.pfc_nombuf) j["pfc_nombuf"] = *s.pfc_nombuf;
  j["ports"] = ordered_json::array();
  for (const PortResult& p : s.ports) j["ports"].push_back(port_json(p));
  return j;
}

ordered_json host_json(const HostResult& h) {
  ordered_json j;
  j["name"] = h.name;
  j["np_cnp_sent"] = h.np_cnp_sent;
  j["np_ecn_marked_roce_packets"] = h.np_ecn_marked_roce_packets;
  j["rp_cnp_handled"] = h.rp_cnp_handled;
  j["rp_cnp_ignored"] = h.rp_cnp_ignored;
  j["out_of_sequence"] = h.out_of_sequence;
  j["packet_seq_err"] = h.packet_seq_err;
  j["local_ack_timeout_err"] = h.local_ack_timeout_err;
  j["req_transport_retries_exceeded"] = h.req_transport_retries_exceeded;
  j["duplicate_request"] = h.duplicate_request;
  j["rx_frames"] = h.rx_frames;
  j["tx_frames"] = h.tx_frames;
  j["rx_pfc_frames"] = h.rx_pfc_frames;
  j["tx_pfc_frames"] = h.tx_pfc_frames;
  if (h.tx_nombuf_data) j["tx_nombuf_data"] = *h.tx_nombuf_data;
  if (h.tx_nombuf_control) j["tx_nombuf_control"] = *h.tx_nombuf_control;
  return j;
}

ordered_json totals_json(const Totals& t, const Counts& c) {
  return ordered_json{{"goodput_gbps", t.goodput_gbps},
                      {"goodput_span_ns", t.goodput_span.ns()},
                      {"jain_fairness", opt(t.jain_fairness)},
                      {"ecn_mark_rate", t.ecn_mark_rate},
                      {"ecn_marked_data_frames", t.ecn_marked_data_frames},
                      {"cnp_sent", c.cnp_sent},
                      {"pfc_frames", c.pfc_frames},
                      {"drops", c.drops},
                      {"retransmissions", c.retransmissions},
                      {"ecn_marked_total", c.ecn_marked_total},
                      {"cnp_sent_total", c.cnp_sent_total},
                      {"pfc_frames_total", c.pfc_frames_total},
                      {"drops_total", c.drops_total},
                      {"retransmissions_total", c.retransmissions_total}};
}

ordered_json percentiles_json(const SlowdownPercentiles& p) {
  return ordered_json{{"p50", p.p50}, {"p95", p.p95}, {"p99", p.p99}};
}

ordered_json fct_slowdown_json(const std::optional<FctSlowdown>& f) {
  if (!f) return nullptr;
  ordered_json j{{"flows", f->flows}, {"mean", f->mean}};
  j.update(percentiles_json(f->all));
  j["max"] = f->max;
  j["by_size"] = ordered_json::array();
  for (const SizeGroup& g : f->by_size) {
    ordered_json group{{"size_max_bytes", g.size_max_bytes}, {"flows", g.flows}};
    group.update(percentiles_json(g.slowdown));
    j["by_size"].push_back(std::move(group));
  }
  return j;
}

}  // namespace

ordered_json to_json(const Summary& s) {
  ordered_json j;
  j["schema_version"] = kSchemaVersion;
  j["scenario"] = s.scenario;
  j["clock"] = s.clock == Clock::kRealtime ? "realtime" : "virtual";
  j["seed"] = s.seed;
  j["duration_ns"] = s.duration.ns();
  j["warmup_ns"] = s.warmup.ns();
  j["window"] = ordered_json{{"from_ns", s.window.from.ns()}, {"to_ns", s.window.to.ns()}};
  j["flows"] = ordered_json::array();
  for (const FlowResult& f : s.flows) j["flows"].push_back(flow_json(f));
  j["switches"] = ordered_json::array();
  for (const SwitchResult& sw : s.switches) j["switches"].push_back(switch_json(sw));
  j["hosts"] = ordered_json::array();
  for (const HostResult& h : s.hosts) j["hosts"].push_back(host_json(h));
  j["totals"] = totals_json(s.totals, s.counts);
  j["fct_slowdown"] = fct_slowdown_json(s.fct_slowdown);
  if (s.role) j["role"] = *s.role;
  if (!s.roles.empty()) j["roles"] = s.roles;
  if (s.valid) {
    j["valid"] = *s.valid;
    j["invalid_reason"] = opt(s.invalid_reason);
  }
  if (s.complete) j["complete"] = *s.complete;
  return j;
}

Expected<Summary> read_summary(const std::string& path) {
  // A summary of 10^6 flows is about 600 MB; more is not a summary.json.
  auto text = read_regular_file(path, uint64_t{4} << 30, "a results folder's summary.json");
  if (!text) return Error{text.error().message};
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(text.value(), nullptr, false);
  if (j.is_discarded()) return Error{path + ": not valid JSON"};
  return from_json(j, path);
}

}  // namespace rtb::results
