#include "testbed/results.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <ostream>

#include "core/write_file.h"
#include "results/json_text.h"
#include "results/summary_json.h"
#include "results/table.h"
#include "scenario/warning_summary.h"
#include "testbed/series_csv.h"

namespace rtb::testbed {
namespace {

using results::json_text;

// Kept samples (SeriesRequest::keep, no folder): the same rows as the streamed files.
std::string flows_csv(const RunReport& r) {
  std::string out = flows_csv_header(r.cc_state_names);
  for (const FlowSample& x : r.flow_samples) append_flow_row(out, x);
  return out;
}

std::string queues_csv(const RunReport& r) {
  std::string out = kQueuesCsvHeader;
  for (const QueueSample& q : r.queue_samples) append_queue_row(out, q);
  return out;
}

// The resolved scenario, and the algorithm's parameters as it resolved them (the
// scenario's cc.params lists only those given).
nlohmann::ordered_json effective_json(const scenario::Scenario& s, const RunReport& r) {
  nlohmann::ordered_json j = s.effective;
  if (!r.cc_resolved.is_null() && j.contains("cc")) j["cc"]["resolved_params"] = r.cc_resolved;
  return j;
}

// One line per cause with a count (scenario/warning_summary.h), as on the terminal.
std::string warnings_text(const std::vector<std::string>& warnings) {
  std::string out;
  for (const std::string& w : scenario::summarize_warnings(warnings)) out += w + "\n";
  return out;
}

}  // namespace

Status write_result_files(const std::string& dir, const scenario::Scenario& s, const RunReport& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{fmt::format("cannot create results folder {}: {}", dir, ec.message())};
  const std::filesystem::path d(dir);
  const std::string warnings = warnings_text(s.warnings);
  // The series streamed into this folder during the run are finished already: renamed into
  // place in their turn. Otherwise they are written from the kept samples.
  const bool streamed = r.series && r.series->streamed();
  // Each file whole or not at all (core/write_file.h); run.json comes after (write_run_json).
  for (const char* name : {"summary.json", "effective.json", "flows.csv", "queues.csv", "warnings.txt"}) {
    const std::string file = name;
    Status st;
    if (file == "flows.csv" || file == "queues.csv") {
      st = streamed ? (file == "flows.csv" ? r.series->commit_flows() : r.series->commit_queues())
                    : write_file_atomically((d / name).string(), file == "flows.csv" ? flows_csv(r) : queues_csv(r));
    } else if (file == "warnings.txt") {
      if (!warnings.empty()) st = write_file_atomically((d / name).string(), warnings);
    } else if (file == "effective.json") {
      st = write_file_atomically((d / name).string(), json_text(effective_json(s, r)));
    } else {
      st = write_file_atomically((d / name).string(), json_text(results::to_json(r.summary)));
    }
    if (!st) return st;
  }
  return {};
}

// Last, so that a folder whose run.json says "complete": true holds every file of that run.
Status write_run_json(const std::string& dir, const nlohmann::ordered_json& run) {
  return write_file_atomically((std::filesystem::path(dir) / "run.json").string(), json_text(run));
}

Status write_results(const std::string& dir, const scenario::Scenario& s, const RunReport& r) {
  if (Status st = write_result_files(dir, s, r); !st) return st;
  return write_run_json(dir, r.run);
}

void print_table(std::ostream& out, const RunReport& r, size_t max_flows) {
  results::print_summary(out, r.summary, max_flows);
  print_run_lines(out, r);
}

void print_run_lines(std::ostream& out, const RunReport& r) {
  const auto& run = r.run;
  fmt::print(out, "simulated {:.3f} ms in {:.2f} s wall ({:.2f} M frame-hops/s)\n",
             run["simulated_ns"].get<double>() / 1e6, run["wall_seconds"].get<double>(),
             run["frame_hops_per_second"].get<double>() / 1e6);
  if (run.contains("realtime")) {
    const auto& l = run["realtime"]["lateness"];
    fmt::print(out, "realtime: lateness p99 {} ns, max {} ns, budget {} ns\n", l["p99_ns"].dump(),
               l["max_ns"].dump(), l["budget_ns"].dump());
  }
  if (run.contains("captures")) {
    for (const auto& f : run["captures"]["files"]) {
      fmt::print(out, "capture {}: {} frames, {} interfaces, {} bytes ({} over the limit, {} lost)\n",
                 f["file"].get<std::string>(), f["frames"].get<uint64_t>(), f["interfaces"].size(),
                 f["bytes"].get<uint64_t>(), f["frames_over_limit"].get<uint64_t>(),
                 f["frames_lost"].get<uint64_t>());
    }
  }
}

}  // namespace rtb::testbed
