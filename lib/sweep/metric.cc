#include "sweep/metric.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "scenario/did_you_mean.h"

namespace rtb::sweep {
namespace {

using nlohmann::json;

struct FoldName {
  const char* name;
  Fold fold;
};
constexpr FoldName kFolds[] = {{"max", Fold::kMax}, {"min", Fold::kMin}, {"sum", Fold::kSum}, {"mean", Fold::kMean}};

// Every number (or boolean) summary.json holds, as lib/testbed/summary*.cc writes it;
// tests/sweep check this list against real summaries both ways.
const char* const kSchema[] = {
    "seed", "duration_ns", "warmup_ns", "window.from_ns", "window.to_ns", "complete", "valid",
    "flows[].id", "flows[].qpn", "flows[].size_bytes", "flows[].start_ns", "flows[].bytes", "flows[].bytes_total",
    "flows[].throughput_gbps", "flows[].fct_ns", "flows[].ideal_fct_ns", "flows[].fct_slowdown",
    "flows[].goodput_gbps", "flows[].cnp_handled",
    "flows[].retransmissions", "flows[].timeouts", "flows[].failed", "flows[].messages",
    "flows[].messages_completed", "flows[].message_completion_ns.mean", "flows[].message_completion_ns.p99",
    "flows[].message_completion_ns.max",
    "switches[].buffer_peak_bytes", "switches[].buffer_watermark_bytes_total", "switches[].pfc_nombuf",
    "switches[].ports[].rx_frames", "switches[].ports[].rx_bytes", "switches[].ports[].tx_frames",
    "switches[].ports[].tx_bytes", "switches[].ports[].pfc_rx_frames[]", "switches[].ports[].pfc_tx_frames[]",
    "switches[].ports[].pause_ns[]", "switches[].ports[].ecn_marked", "switches[].ports[].drops",
    "switches[].ports[].queued_frames", "switches[].ports[].pfcwd_storms_detected",
    "switches[].ports[].pfcwd_storms_restored", "switches[].ports[].queue_bytes.mean",
    "switches[].ports[].queue_bytes.p50", "switches[].ports[].queue_bytes.p99", "switches[].ports[].queue_bytes.max",
    "switches[].ports[].queues[].queue", "switches[].ports[].queues[].packets", "switches[].ports[].queues[].bytes",
    "switches[].ports[].queues[].dropped_packets", "switches[].ports[].queues[].dropped_bytes",
    "switches[].ports[].queues[].ecn_marked", "switches[].ports[].queues[].data_frames",
    "switches[].ports[].queues[].data_ecn_marked", "switches[].ports[].queues[].ecn_mark_rate",
    "switches[].ports[].queues[].watermark_bytes_total", "switches[].ports[].pgs[].pg",
    "switches[].ports[].pgs[].dropped_packets", "switches[].ports[].pgs[].shared_watermark_bytes_total",
    "switches[].ports[].pgs[].headroom_watermark_bytes_total",
    "hosts[].np_cnp_sent", "hosts[].np_ecn_marked_roce_packets", "hosts[].rp_cnp_handled", "hosts[].rp_cnp_ignored",
    "hosts[].out_of_sequence", "hosts[].packet_seq_err", "hosts[].local_ack_timeout_err",
    "hosts[].req_transport_retries_exceeded", "hosts[].duplicate_request", "hosts[].rx_frames", "hosts[].tx_frames",
    "hosts[].rx_pfc_frames[]", "hosts[].tx_pfc_frames", "hosts[].tx_nombuf_data", "hosts[].tx_nombuf_control",
    "totals.goodput_gbps", "totals.goodput_span_ns", "totals.jain_fairness", "totals.ecn_mark_rate",
    "totals.ecn_marked_data_frames", "totals.cnp_sent", "totals.pfc_frames", "totals.drops", "totals.retransmissions",
    "totals.ecn_marked_total", "totals.cnp_sent_total", "totals.pfc_frames_total", "totals.drops_total",
    "totals.retransmissions_total",
    "fct_slowdown", "fct_slowdown.flows", "fct_slowdown.mean", "fct_slowdown.p50", "fct_slowdown.p95",
    "fct_slowdown.p99", "fct_slowdown.max", "fct_slowdown.by_size[].size_max_bytes", "fct_slowdown.by_size[].flows",
    "fct_slowdown.by_size[].p50", "fct_slowdown.by_size[].p95", "fct_slowdown.by_size[].p99",
};

[[noreturn]] void fail(const std::string& text, const std::string& why) { throw Error{fmt::format("--metrics {}: {}", text, why)}; }

bool is_index(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

Step parse_step(const std::string& s, const std::string& text) {
  Step step;
  const size_t open = s.find('[');
  step.key = s.substr(0, open);
  if (step.key.empty()) fail(text, fmt::format("'{}' has no name: expected a path such as totals.goodput_gbps", s));
  for (size_t i = open; i != std::string::npos; i = s.find('[', i)) {
    const size_t close = s.find(']', i);
    if (close == std::string::npos || close == i + 1) fail(text, fmt::format("'{}': expected [N], [NAME] or [*]", s));
    step.selectors.push_back(s.substr(i + 1, close - i - 1));
    i = close + 1;
    if (i < s.size() && s[i] != '[') fail(text, fmt::format("'{}': expected '[' or '.' after ']'", s));
  }
  return step;
}

// The path with every selector written "[]", as the schema has it.
std::string pattern_of(const std::vector<Step>& path) {
  std::string out;
  for (const Step& s : path) {
    out += (out.empty() ? "" : ".") + s.key;
    for (size_t i = 0; i < s.selectors.size(); ++i) out += "[]";
  }
  return out;
}

std::string schema_list() {
  std::string out;
  for (const char* p : kSchema) out += (out.empty() ? "" : ", ") + std::string(p);
  return out;
}

// The elements a path reaches: several through [*].
void walk(const json& node, const std::vector<Step>& path, size_t at, std::vector<const json*>& out) {
  if (at == path.size()) {
    out.push_back(&node);
    return;
  }
  const Step& step = path[at];
  if (!node.is_object() || !node.contains(step.key)) return;
  std::vector<const json*> here{&node[step.key]};
  for (const std::string& sel : step.selectors) {
    std::vector<const json*> next;
    for (const json* n : here) {
      if (!n->is_array()) continue;
      if (sel == "*") {
        for (const json& e : *n) next.push_back(&e);
      } else if (is_index(sel)) {
        const size_t i = std::stoul(sel);
        if (i < n->size()) next.push_back(&(*n)[i]);
      } else {
        for (const json& e : *n) {
          if (e.is_object() && e.contains("name") && e["name"] == sel) next.push_back(&e);
        }
      }
    }
    here = std::move(next);
  }
  for (const json* n : here) walk(*n, path, at + 1, out);
}

std::string number_text(const json& v) { return v.is_boolean() ? (v.get<bool>() ? "1" : "0") : v.dump(); }
double number_of(const json& v) { return v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>(); }

std::optional<std::string> fold(Fold f, const std::vector<const json*>& values) {
  std::vector<const json*> xs;
  for (const json* v : values) {
    if (v->is_number() || v->is_boolean()) xs.push_back(v);
  }
  if (xs.empty()) return std::nullopt;
  auto less = [](const json* a, const json* b) { return number_of(*a) < number_of(*b); };
  if (f == Fold::kMax) return number_text(**std::max_element(xs.begin(), xs.end(), less));
  if (f == Fold::kMin) return number_text(**std::min_element(xs.begin(), xs.end(), less));
  const bool whole = std::all_of(xs.begin(), xs.end(), [](const json* v) { return !v->is_number_float(); });
  double sum = 0;
  int64_t whole_sum = 0;
  for (const json* v : xs) {
    sum += number_of(*v);
    if (whole) whole_sum += static_cast<int64_t>(number_of(*v));
  }
  if (f == Fold::kSum) return whole ? fmt::format("{}", whole_sum) : json(sum).dump();
  return json(sum / static_cast<double>(xs.size())).dump();
}

Metric parse(const std::string& text) {
  Metric m{text, Fold::kNone, {}};
  std::string body = text;
  for (const FoldName& f : kFolds) {
    const std::string open = std::string(f.name) + "(";
    if (text.rfind(open, 0) == 0) {
      if (text.back() != ')') fail(text, fmt::format("expected {}(PATH)", f.name));
      m.fold = f.fold;
      body = text.substr(open.size(), text.size() - open.size() - 1);
    }
  }
  if (body.find('(') != std::string::npos) fail(text, "expected PATH or max(PATH), min(PATH), sum(PATH), mean(PATH)");
  size_t start = 0;
  while (true) {
    const size_t dot = body.find('.', start);
    m.path.push_back(parse_step(body.substr(start, dot - start), text));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const std::string pattern = pattern_of(m.path);
  std::vector<std::string> schema(std::begin(kSchema), std::end(kSchema));
  if (std::find(schema.begin(), schema.end(), pattern) == schema.end()) {
    // A name cut short (totals.goodput) is not far by edit distance; the nearest then.
    const auto prefixed = std::find_if(schema.begin(), schema.end(), [&](const std::string& p) { return p.rfind(pattern, 0) == 0; });
    const std::string near = prefixed != schema.end() ? *prefixed : scenario::nearest(pattern, schema);
    fail(text, fmt::format("not a number in summary.json{}: expected one of {}",
                           near.empty() ? "" : fmt::format(" (did you mean {}?)", near), schema_list()));
  }
  if (m.fold == Fold::kNone) {
    for (const Step& s : m.path) {
      if (std::find(s.selectors.begin(), s.selectors.end(), "*") != s.selectors.end()) {
        fail(text, "[*] selects several values: expected it inside max(...), min(...), sum(...) or mean(...)");
      }
    }
  }
  return m;
}

}  // namespace

const std::vector<std::string>& default_metrics() {
  static const std::vector<std::string> kDefault{
      "totals.goodput_gbps", "max(switches[*].ports[*].queue_bytes.p99)", "totals.pfc_frames", "totals.ecn_mark_rate",
      "totals.cnp_sent",     "totals.drops",                              "max(flows[*].fct_ns)"};
  return kDefault;
}

const std::vector<std::string>& summary_schema() {
  static const std::vector<std::string> kList(std::begin(kSchema), std::end(kSchema));
  return kList;
}

Expected<Metric> parse_metric(const std::string& text) {
  try {
    return parse(text);
  } catch (const Error& e) {
    return e;
  }
}

std::optional<std::string> metric_value(const Metric& m, const nlohmann::json& summary) {
  std::vector<const json*> found;
  walk(summary, m.path, 0, found);
  if (m.fold != Fold::kNone) return fold(m.fold, found);
  if (found.size() != 1 || !(found[0]->is_number() || found[0]->is_boolean())) return std::nullopt;
  return number_text(*found[0]);
}

}  // namespace rtb::sweep
