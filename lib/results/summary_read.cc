// summary.json read back into the model (summary_json.h), every field checked.
#include <fmt/format.h>

#include "results/json_reader.h"
#include "results/summary_json.h"

namespace rtb::results {
namespace {

using json = nlohmann::ordered_json;

FlowResult read_flow(const JsonReader& r, const json& j, const std::string& at) {
  FlowResult f;
  const uint64_t id = r.u64(j, at, "id");
  if (id > UINT32_MAX) r.fail(JsonReader::join(at, "id"), j["id"], "a flow id below 2^32");
  f.id = static_cast<uint32_t>(id);
  f.src = r.text(j, at, "src");
  f.dst = r.text(j, at, "dst");
  const std::optional<uint64_t> qpn = r.u64_or_null(j, at, "qpn");
  if (qpn && *qpn >= (1u << 24)) r.fail(JsonReader::join(at, "qpn"), j["qpn"], "a 24-bit QP number or null");
  if (qpn) f.qpn = static_cast<uint32_t>(*qpn);
  f.size_bytes = r.u64_or_null(j, at, "size_bytes");
  f.start = r.ns(j, at, "start_ns");
  f.bytes = r.u64_or_null(j, at, "bytes");
  f.bytes_total = r.u64_or_null(j, at, "bytes_total");
  f.throughput_gbps = r.number_or_null(j, at, "throughput_gbps");
  f.fct = r.ns_or_null(j, at, "fct_ns");
  f.ideal_fct = r.ns_or_null(j, at, "ideal_fct_ns");
  f.fct_slowdown = r.number_or_null(j, at, "fct_slowdown");
  f.goodput_gbps = r.number_or_null(j, at, "goodput_gbps");
  if (j.contains("messages")) {
    MessageFigures m;
    m.messages = r.u64(j, at, "messages");
    m.completed = r.u64_or_null(j, at, "messages_completed");
    const json& c = r.field(j, at, "message_completion_ns");
    if (!c.is_null()) {
      const std::string cat = JsonReader::join(at, "message_completion_ns");
      m.completion_ns = MessageCompletion{r.u64(c, cat, "mean"), r.u64(c, cat, "p99"), r.u64(c, cat, "max")};
    }
    f.messages = m;
  }
  f.cnp_handled = r.u64_or_null(j, at, "cnp_handled");
  f.retransmissions = r.u64_or_null(j, at, "retransmissions");
  f.timeouts = r.u64_or_null(j, at, "timeouts");
  f.failed = r.boolean_or_null(j, at, "failed");
  return f;
}

uint8_t priority(const JsonReader& r, const json& j, const std::string& at, const char* key) {
  const uint64_t v = r.u64(j, at, key);
  if (v >= kPriorities) r.fail(JsonReader::join(at, key), j[key], "a priority 0-7");
  return static_cast<uint8_t>(v);
}

QueueResult read_queue(const JsonReader& r, const json& j, const std::string& at) {
  QueueResult q;
  q.queue = priority(r, j, at, "queue");
  q.packets = r.u64(j, at, "packets");
  q.bytes = r.u64(j, at, "bytes");
  q.dropped_packets = r.u64(j, at, "dropped_packets");
  q.dropped_bytes = r.u64(j, at, "dropped_bytes");
  q.ecn_marked = r.u64(j, at, "ecn_marked");
  q.data_frames = r.u64(j, at, "data_frames");
  q.data_ecn_marked = r.u64(j, at, "data_ecn_marked");
  // A marking queue's rate is null only before its first data frame: counted as not
  // marking then, which changes no figure (it has no data frames to count).
  q.marks_ecn = r.number_or_null(j, at, "ecn_mark_rate").has_value();
  q.watermark_bytes_total = r.u64(j, at, "watermark_bytes_total");
  return q;
}

PgResult read_pg(const JsonReader& r, const json& j, const std::string& at) {
  return PgResult{priority(r, j, at, "pg"), r.u64(j, at, "dropped_packets"),
                  r.u64(j, at, "shared_watermark_bytes_total"), r.u64(j, at, "headroom_watermark_bytes_total")};
}

template <typename T, typename F>
std::vector<T> read_list(const JsonReader& r, const json& obj, const std::string& path, const char* key, F read) {
  const std::string at = JsonReader::join(path, key);
  std::vector<T> out;
  const json& a = r.array(r.field(obj, path, key), at);
  for (size_t i = 0; i < a.size(); ++i) out.push_back(read(r, a[i], JsonReader::item(at, i)));
  return out;
}

PortResult read_port(const JsonReader& r, const json& j, const std::string& at) {
  PortResult p;
  p.name = r.text(j, at, "name");
  p.rx_frames = r.u64(j, at, "rx_frames");
  p.rx_bytes = r.u64(j, at, "rx_bytes");
  p.tx_frames = r.u64(j, at, "tx_frames");
  p.tx_bytes = r.u64(j, at, "tx_bytes");
  p.pfc_rx_frames = r.per_priority(j, at, "pfc_rx_frames");
  p.pfc_tx_frames = r.per_priority(j, at, "pfc_tx_frames");
  p.pause_ns = r.per_priority(j, at, "pause_ns");
  p.ecn_marked = r.u64(j, at, "ecn_marked");
  p.drops = r.u64(j, at, "drops");
  const std::string reasons_at = JsonReader::join(at, "drops_by_reason");
  const json& reasons = r.object(r.field(j, at, "drops_by_reason"), reasons_at);
  for (auto it = reasons.begin(); it != reasons.end(); ++it) {
    p.drops_by_reason.emplace_back(it.key(), r.u64(reasons, reasons_at, it.key().c_str()));
  }
  p.queued_frames = r.u64(j, at, "queued_frames");
  p.pfcwd_storms_detected = r.u64(j, at, "pfcwd_storms_detected");
  p.pfcwd_storms_restored = r.u64(j, at, "pfcwd_storms_restored");
  const std::string qb = JsonReader::join(at, "queue_bytes");
  const json& d = r.field(j, at, "queue_bytes");
  p.queue_bytes = DepthFigures{r.number(d, qb, "mean"), r.u64(d, qb, "p50"), r.u64(d, qb, "p99"), r.u64(d, qb, "max")};
  p.queues = read_list<QueueResult>(r, j, at, "queues", read_queue);
  p.pgs = read_list<PgResult>(r, j, at, "pgs", read_pg);
  return p;
}

SwitchResult read_switch(const JsonReader& r, const json& j, const std::string& at) {
  SwitchResult s;
  s.name = r.text(j, at, "name");
  s.buffer_peak_bytes = r.u64(j, at, "buffer_peak_bytes");
  s.buffer_watermark_bytes_total = r.u64(j, at, "buffer_watermark_bytes_total");
  s.pfc_nombuf = r.u64_or_null(j, at, "pfc_nombuf", true);
  s.ports = read_list<PortResult>(r, j, at, "ports", read_port);
  return s;
}

HostResult read_host(const JsonReader& r, const json& j, const std::string& at) {
  HostResult h;
  h.name = r.text(j, at, "name");
  h.np_cnp_sent = r.u64(j, at, "np_cnp_sent");
  h.np_ecn_marked_roce_packets = r.u64(j, at, "np_ecn_marked_roce_packets");
  h.rp_cnp_handled = r.u64(j, at, "rp_cnp_handled");
  h.rp_cnp_ignored = r.u64(j, at, "rp_cnp_ignored");
  h.out_of_sequence = r.u64(j, at, "out_of_sequence");
  h.packet_seq_err = r.u64(j, at, "packet_seq_err");
  h.local_ack_timeout_err = r.u64(j, at, "local_ack_timeout_err");
  h.req_transport_retries_exceeded = r.u64(j, at, "req_transport_retries_exceeded");
  h.duplicate_request = r.u64(j, at, "duplicate_request");
  h.rx_frames = r.u64(j, at, "rx_frames");
  h.tx_frames = r.u64(j, at, "tx_frames");
  h.rx_pfc_frames = r.per_priority(j, at, "rx_pfc_frames");
  h.tx_pfc_frames = r.u64(j, at, "tx_pfc_frames");
  h.tx_nombuf_data = r.u64_or_null(j, at, "tx_nombuf_data", true);
  h.tx_nombuf_control = r.u64_or_null(j, at, "tx_nombuf_control", true);
  return h;
}

void read_totals(const JsonReader& r, const json& top, Summary& s) {
  const json& t = r.field(top, "", "totals");
  s.totals.goodput_gbps = r.number(t, "totals", "goodput_gbps");
  s.totals.goodput_span = r.ns(t, "totals", "goodput_span_ns");
  s.totals.jain_fairness = r.number_or_null(t, "totals", "jain_fairness");
  s.totals.ecn_mark_rate = r.number(t, "totals", "ecn_mark_rate");
  s.totals.ecn_marked_data_frames = r.u64(t, "totals", "ecn_marked_data_frames");
  Counts& c = s.counts;
  for (auto [key, field] : {std::pair{"cnp_sent", &c.cnp_sent}, {"pfc_frames", &c.pfc_frames}, {"drops", &c.drops},
                            {"retransmissions", &c.retransmissions}, {"ecn_marked_total", &c.ecn_marked_total},
                            {"cnp_sent_total", &c.cnp_sent_total}, {"pfc_frames_total", &c.pfc_frames_total},
                            {"drops_total", &c.drops_total}, {"retransmissions_total", &c.retransmissions_total}}) {
    *field = r.u64(t, "totals", key);
  }
}

SlowdownPercentiles read_percentiles(const JsonReader& r, const json& j, const std::string& at) {
  return SlowdownPercentiles{r.number(j, at, "p50"), r.number(j, at, "p95"), r.number(j, at, "p99")};
}

std::optional<FctSlowdown> read_fct_slowdown(const JsonReader& r, const json& top) {
  const json& j = r.field(top, "", "fct_slowdown");
  if (j.is_null()) return std::nullopt;
  const std::string at = "fct_slowdown";
  FctSlowdown f;
  f.flows = r.u64(j, at, "flows");
  f.mean = r.number(j, at, "mean");
  f.all = read_percentiles(r, j, at);
  f.max = r.number(j, at, "max");
  f.by_size = read_list<SizeGroup>(r, j, at, "by_size", [](const JsonReader& rr, const json& g, const std::string& gat) {
    return SizeGroup{rr.u64(g, gat, "size_max_bytes"), rr.u64(g, gat, "flows"), read_percentiles(rr, g, gat)};
  });
  return f;
}

Summary read(const JsonReader& r, const json& j) {
  r.object(j, "(top)");
  const uint64_t version = r.u64(j, "", "schema_version");
  if (version > static_cast<uint64_t>(kSchemaVersion)) {
    r.fail("schema_version", j["schema_version"],
           fmt::format("{} or lower (written by a newer rocetb: read it with that one)", kSchemaVersion));
  }
  Summary s;
  s.scenario = r.text(j, "", "scenario");
  const std::string clock = r.text(j, "", "clock");
  if (clock != "virtual" && clock != "realtime") r.fail("clock", j["clock"], "\"virtual\" or \"realtime\"");
  s.clock = clock == "realtime" ? Clock::kRealtime : Clock::kVirtual;
  s.seed = r.u64(j, "", "seed");
  s.duration = r.ns(j, "", "duration_ns");
  s.warmup = r.ns(j, "", "warmup_ns");
  const json& w = r.field(j, "", "window");
  s.window = Window{r.ns(w, "window", "from_ns"), r.ns(w, "window", "to_ns")};
  s.flows = read_list<FlowResult>(r, j, "", "flows", read_flow);
  s.switches = read_list<SwitchResult>(r, j, "", "switches", read_switch);
  s.hosts = read_list<HostResult>(r, j, "", "hosts", read_host);
  read_totals(r, j, s);
  s.fct_slowdown = read_fct_slowdown(r, j);
  s.role = r.text_or_null(j, "", "role", true);
  if (j.contains("roles")) {
    s.roles = read_list<std::string>(r, j, "", "roles", [](const JsonReader& rr, const json& v, const std::string& at) {
      if (!v.is_string()) rr.fail(at, v, "a string (a process's role)");
      return v.get<std::string>();
    });
  }
  s.valid = r.boolean_or_null(j, "", "valid", true);
  if (s.valid) s.invalid_reason = r.text_or_null(j, "", "invalid_reason");
  s.complete = r.boolean_or_null(j, "", "complete", true);
  return s;
}

}  // namespace

Expected<Summary> from_json(const json& j, const std::string& where) {
  try {
    return read(JsonReader(where), j);
  } catch (const ReadError& e) {
    return Error{e.message};
  }
}

}  // namespace rtb::results
