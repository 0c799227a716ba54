#include "replay/closed_loop_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "analyze/names.h"
#include "core/nearest_rank.h"
#include "core/write_file.h"

namespace rtb::replay {
namespace {

using nlohmann::ordered_json;

ordered_json time_or_null(const std::optional<Time>& t) { return t ? ordered_json(t->ns()) : ordered_json(nullptr); }

ordered_json capture_json(const StreamFigures& f) {
  return {{"bytes", f.bytes},
          {"messages", f.messages},
          {"cut_messages", f.cut_messages},
          {"duration_ns", f.duration.ns()},
          {"rate_gbps", f.gbps ? ordered_json(*f.gbps) : ordered_json(nullptr)},
          {"message_completion_ns", {{"mean", time_or_null(f.completion_mean)}, {"p99", time_or_null(f.completion_p99)}}}};
}

template <typename T>
ordered_json or_null(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

// The flow's figures from the run's results (lib/results summary.h).
ordered_json replay_json(const results::FlowResult& flow) {
  std::optional<uint64_t> completed;
  std::optional<results::MessageCompletion> c;
  if (flow.messages) {
    completed = flow.messages->completed;
    c = flow.messages->completion_ns;
  }
  return {{"bytes", or_null(flow.bytes_total)},
          {"messages_completed", or_null(completed)},
          {"fct_ns", flow.fct ? ordered_json(flow.fct->ns()) : ordered_json(nullptr)},
          {"rate_gbps", or_null(flow.goodput_gbps)},
          {"message_completion_ns",
           {{"mean", c ? ordered_json(c->mean_ns) : ordered_json(nullptr)},
            {"p99", c ? ordered_json(c->p99_ns) : ordered_json(nullptr)},
            {"max", c ? ordered_json(c->max_ns) : ordered_json(nullptr)}}}};
}

std::string cell(const ordered_json& v) {
  if (v.is_null()) return "";
  if (v.is_number_float()) return fmt::format("{:.4f}", v.get<double>());
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string shown(const ordered_json& v, double scale, const char* spec) {
  return v.is_null() ? std::string("-") : fmt::format(fmt::runtime(spec), v.get<double>() / scale);
}

}  // namespace

StreamFigures stream_figures(const scenario::CapturedStream& s) {
  StreamFigures f;
  std::vector<Time> whole;
  for (const scenario::CapturedMessage& m : s.messages) {
    f.bytes += m.bytes;
    ++f.messages;
    if (m.cut) ++f.cut_messages;
    else whole.push_back(m.last - m.first);
  }
  f.duration = s.last() - s.first();
  if (f.duration > Time::zero()) f.gbps = static_cast<double>(f.bytes) * 8.0 / f.duration.s_f() / 1e9;
  if (!whole.empty()) {
    std::sort(whole.begin(), whole.end());
    Time sum;
    for (Time t : whole) sum += t;
    f.completion_mean = sum / whole.size();
    f.completion_p99 = nearest_rank(whole, 99);
  }
  return f;
}

ordered_json closed_loop_json(const scenario::CaptureStreams& c, const scenario::CaptureFlows& f,
                              const scenario::Scenario& s, const results::Summary& summary) {
  ordered_json j = {{"capture", c.path}, {"scenario", s.source}, {"flows", ordered_json::array()}};
  for (size_t i = 0; i < f.flows.size(); ++i) {
    const scenario::CapturedStream& st = c.streams[f.stream_of[i]];
    const scenario::Flow& flow = s.flows[i];
    j["flows"].push_back({{"flow", flow.id},
                          {"src", analyze::ip_text(st.key.src)},
                          {"dst", analyze::ip_text(st.key.dst)},
                          {"dest_qpn", analyze::qpn_text(st.key.dest_qpn)},
                          {"src_host", s.topology.hosts[flow.src].name},
                          {"dst_host", s.topology.hosts[flow.dst].name},
                          {"capture", capture_json(stream_figures(st))},
                          {"replay", replay_json(summary.flows[flow.id])}});
  }
  return j;
}

std::string closed_loop_csv(const ordered_json& j) {
  std::string out =
      "flow,src,dst,dest_qpn,src_host,dst_host,capture_bytes,capture_messages,capture_cut_messages,"
      "capture_duration_ns,capture_rate_gbps,capture_completion_mean_ns,capture_completion_p99_ns,"
      "replay_bytes,replay_messages_completed,replay_fct_ns,replay_rate_gbps,replay_completion_mean_ns,"
      "replay_completion_p99_ns,replay_completion_max_ns\n";
  for (const auto& r : j["flows"]) {
    const auto& c = r["capture"];
    const auto& p = r["replay"];
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", cell(r["flow"]), cell(r["src"]),
                       cell(r["dst"]), cell(r["dest_qpn"]), cell(r["src_host"]), cell(r["dst_host"]), cell(c["bytes"]),
                       cell(c["messages"]), cell(c["cut_messages"]), cell(c["duration_ns"]), cell(c["rate_gbps"]),
                       cell(c["message_completion_ns"]["mean"]), cell(c["message_completion_ns"]["p99"]),
                       cell(p["bytes"]), cell(p["messages_completed"]), cell(p["fct_ns"]), cell(p["rate_gbps"]),
                       cell(p["message_completion_ns"]["mean"]), cell(p["message_completion_ns"]["p99"]),
                       cell(p["message_completion_ns"]["max"]));
  }
  return out;
}

void print_closed_loop_table(std::ostream& out, const ordered_json& j, size_t max_rows) {
  fmt::print(out, "replay of {} (capture | replayed run):\n", j["capture"].get<std::string>());
  fmt::print(out, "{:>5} {:>9} {:>12} {:>7} | {:>12} {:>9} {:>11} | {:>12} {:>9} {:>11} {:>11}\n", "flow", "hosts",
             "bytes", "msgs", "duration us", "Gb/s", "msg mean us", "FCT us", "Gb/s", "msg mean us", "msg p99 us");
  size_t rows = 0;
  for (const auto& r : j["flows"]) {
    if (rows++ == max_rows) {
      fmt::print(out, "  ... {} more flows in replay.csv\n", j["flows"].size() - max_rows);
      break;
    }
    const auto& c = r["capture"];
    const auto& p = r["replay"];
    fmt::print(out, "{:>5} {:>9} {:>12} {:>7} | {:>12} {:>9} {:>11} | {:>12} {:>9} {:>11} {:>11}\n",
               r["flow"].get<uint64_t>(), r["src_host"].get<std::string>() + ">" + r["dst_host"].get<std::string>(),
               c["bytes"].get<uint64_t>(), c["messages"].get<uint64_t>(), shown(c["duration_ns"], 1e3, "{:.1f}"),
               shown(c["rate_gbps"], 1, "{:.2f}"), shown(c["message_completion_ns"]["mean"], 1e3, "{:.1f}"),
               shown(p["fct_ns"], 1e3, "{:.1f}"), shown(p["rate_gbps"], 1, "{:.2f}"),
               shown(p["message_completion_ns"]["mean"], 1e3, "{:.1f}"),
               shown(p["message_completion_ns"]["p99"], 1e3, "{:.1f}"));
  }
}

Status write_closed_loop(const std::string& dir, const ordered_json& j) {
  if (Status st = write_file_atomically(dir + "/replay.csv", closed_loop_csv(j)); !st) return st;
  return write_file_atomically(dir + "/replay.json", j.dump(2) + "\n");
}

}  // namespace rtb::replay
