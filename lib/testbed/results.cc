#include "testbed/results.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <fstream>
#include <ostream>

namespace rtb::testbed {
namespace {

Status write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) return Error{fmt::format("cannot write {}: check the folder is writable", path.string())};
  return {};
}

std::string flows_csv(const RunReport& r) {
  std::string out = "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled";
  for (const std::string& n : r.cc_state_names) out += "," + n;
  out += "\n";
  for (const FlowSample& x : r.flow_samples) {
    out += fmt::format("{},{},{:.6f},{:.6f},{},{}", x.at.ns(), x.flow, x.cc_rate.gbps_f(),
                       x.throughput_gbps, x.bytes_received, x.cnp_handled);
    for (uint32_t i = 0; i < x.cc_state_count; ++i) out += fmt::format(",{:.9g}", x.cc_state[i]);
    out += "\n";
  }
  return out;
}

std::string queues_csv(const RunReport& r) {
  std::string out = "time_ns,switch,port,queue,depth_bytes,ecn_marked,drops,paused\n";
  for (const QueueSample& q : r.queue_samples) {
    out += fmt::format("{},{},{},{},{},{},{},{}\n", q.at.ns(), q.sw, q.port, q.queue,
                       q.depth_bytes, q.ecn_marked, q.drops, q.paused ? 1 : 0);
  }
  return out;
}

// JSON text is UTF-8 (RFC 8259 section 8.1); a path or a name given in another encoding is
// written with each byte that is not UTF-8 replaced by U+FFFD, never refused after the run.
std::string json_text(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

Status write_results(const std::string& dir, const scenario::Scenario& s, const RunReport& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{fmt::format("cannot create results folder {}: {}", dir, ec.message())};
  const std::filesystem::path d(dir);
  std::string warnings;
  for (const std::string& w : s.warnings) warnings += w + "\n";
  for (const auto& [name, text] :
       {std::pair<const char*, std::string>{"summary.json", json_text(r.summary)},
        {"run.json", json_text(r.run)},
        {"effective.json", json_text(s.effective)},
        {"flows.csv", flows_csv(r)},
        {"queues.csv", queues_csv(r)}}) {
    if (Status st = write_file(d / name, text); !st) return st;
  }
  if (!warnings.empty()) return write_file(d / "warnings.txt", warnings);
  return {};
}

void print_table(std::ostream& out, const RunReport& r, size_t max_flows) {
  const auto& j = r.summary;
  fmt::print(out, "{:>5} {:>10} {:>10} {:>14} {:>10} {:>12} {:>6} {:>6}\n", "flow", "src", "dst",
             "bytes", "Gb/s", "FCT us", "CNPs", "retx");
  size_t shown = 0;
  for (const auto& f : j["flows"]) {
    if (shown++ == max_flows) {
      fmt::print(out, "  ... {} more flows in summary.json\n", j["flows"].size() - max_flows);
      break;
    }
    // "-": unfinished, or (in one process of a split run) known to the other process.
    const auto cell = [&](const char* key, double scale, const char* spec) {
      return f[key].is_null() ? std::string("-") : fmt::format(fmt::runtime(spec), f[key].get<double>() / scale);
    };
    fmt::print(out, "{:>5} {:>10} {:>10} {:>14} {:>10} {:>12} {:>6} {:>6}\n", f["id"].get<uint64_t>(),
               f["src"].get<std::string>(), f["dst"].get<std::string>(), cell("bytes", 1, "{:.0f}"),
               cell("throughput_gbps", 1, "{:.2f}"), cell("fct_ns", 1e3, "{:.1f}"),
               cell("cnp_handled", 1, "{:.0f}"), cell("retransmissions", 1, "{:.0f}"));
  }
  const auto& t = j["totals"];
  fmt::print(out,
             "goodput {:.2f} Gb/s | Jain {:.4f} | ECN mark rate {:.4f} | CNPs {} | PFC frames {} | "
             "drops {} | retransmissions {}\n",
             t["goodput_gbps"].get<double>(), t["jain_fairness"].get<double>(),
             t["ecn_mark_rate"].get<double>(), t["cnp_sent"].get<uint64_t>(),
             t["pfc_frames"].get<uint64_t>(), t["drops"].get<uint64_t>(),
             t["retransmissions"].get<uint64_t>());
  const auto& run = r.run;
  fmt::print(out, "simulated {:.3f} ms in {:.2f} s wall ({:.2f} M frame-hops/s)\n",
             run["simulated_ns"].get<double>() / 1e6, run["wall_seconds"].get<double>(),
             run["frame_hops_per_second"].get<double>() / 1e6);
  if (run.contains("realtime")) {
    const auto& l = run["realtime"]["lateness"];
    fmt::print(out, "realtime: lateness p99 {} ns, max {} ns, budget {} ns\n", l["p99_ns"].dump(),
               l["max_ns"].dump(), l["budget_ns"].dump());
  }
  if (r.summary.contains("valid") && !r.summary["valid"].get<bool>()) {
    fmt::print(out, "INVALID RUN: {}\n", r.summary["invalid_reason"].get<std::string>());
  }
}

}  // namespace rtb::testbed
