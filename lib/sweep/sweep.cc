#include "sweep/sweep.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <ostream>
#include <thread>

#include "core/fingerprint.h"
#include "core/read_file.h"
#include "core/write_file.h"
#include "scenario/cc_settings.h"
#include "scenario/load.h"
#include "sweep/record.h"
#include "sweep/runner.h"
#include "sweep/table.h"

namespace rtb::sweep {
namespace {

namespace fs = std::filesystem;

struct Setup {
  Plan plan;
  std::vector<Metric> metrics;
  std::string out;
  unsigned jobs = 1;
};

Expected<std::vector<Metric>> parse_metrics(const std::vector<std::string>& given) {
  std::vector<Metric> out;
  for (const std::string& m : given.empty() ? default_metrics() : given) {
    auto metric = parse_metric(m);
    if (!metric) return metric.error();
    out.push_back(std::move(metric).value());
  }
  return out;
}

// --set KEY=VALUE and --cc NAME as the overrides every point gets; a key also varied is
// refused (the point's value would silently win).
Expected<std::vector<SharedOverride>> shared_overrides(const SweepOptions& o, const std::vector<Axis>& axes) {
  std::vector<SharedOverride> out;
  for (const std::string& kv : o.set) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Error{fmt::format("--set {}: expected KEY=VALUE, such as run.duration=20ms", kv)};
    }
    out.push_back({kv, "--set " + kv});
  }
  if (!o.cc.empty()) {  // a plug-in's path from here, as the children and a resumed sweep see it
    out.push_back(scenario::cc_override(scenario::command_line_algorithm(o.cc)));
  }
  for (const SharedOverride& s : out) {
    const std::string key = s.assignment.substr(0, s.assignment.find('='));
    for (const Axis& a : axes) {
      if (a.key != key) continue;
      return Error{fmt::format("{}: {} is also varied: expected it in --set or --vary, not both", s.option, key)};
    }
  }
  return out;
}

// Everything checked before anything runs: the metrics, the axes and their values, the
// shared overrides, the folder and its grid.
Expected<Setup> set_up(const SweepOptions& o) {
  std::vector<Axis> axes;
  for (const std::string& v : o.vary) {
    auto a = parse_vary(v);
    if (!a) return a.error();
    axes.push_back(std::move(a).value());
  }
  auto shared = shared_overrides(o, axes);
  if (!shared) return shared.error();
  auto metrics = parse_metrics(o.metrics);
  if (!metrics) return metrics.error();
  auto plan = plan_sweep(o.scenario, shared.value(), axes, o.repeats);
  if (!plan) return plan.error();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  Setup s{std::move(plan).value(), std::move(metrics).value(), o.out, o.jobs == 0 ? cores : o.jobs};
  if (s.out.empty()) s.out = "results/sweep-" + s.plan.scenario_name;
  auto text = read_regular_file(o.scenario, scenario::kMaxScenarioBytes, "a scenario file (TOML)");
  if (!text) return text.error();
  auto files = files_json(s.plan.files);
  if (!files) return files.error();
  auto resuming = prepare_sweep_folder(s.out, record_json(s.plan, fnv1a64_hex(text.value()), std::move(files).value()));
  if (!resuming) return resuming.error();
  return s;
}

std::string status_of(const JobEnd& e, bool complete) {
  if (!e.started) return stop_was_requested() ? "not run" : "failed: not started";
  if (e.signal != 0) return fmt::format("failed: signal {}", e.signal);
  if (e.exit_code != 0) return fmt::format("failed: exit {}", e.exit_code);
  return complete ? "ok" : "incomplete";
}

// Runs the points whose folders are not complete; the status of every point.
std::vector<std::string> run_points(const Setup& s, const SweepOptions& o, std::ostream& out) {
  std::vector<std::string> status(s.plan.points.size(), "ok");
  std::vector<Job> jobs;
  std::vector<size_t> job_point;
  fs::create_directories(s.out + "/logs");
  for (size_t i = 0; i < s.plan.points.size(); ++i) {
    const PlannedPoint& p = s.plan.points[i];
    const std::string dir = s.out + "/" + p.folder;
    if (point_complete(dir)) continue;
    std::error_code ec;
    const bool occupied = fs::exists(dir, ec) && !fs::is_empty(dir, ec);
    jobs.push_back(Job{run_arguments(s.plan, p, dir, occupied), s.out + "/logs/" + p.folder + ".log"});
    job_point.push_back(i);
  }
  out << fmt::format("sweep: {} points, {} complete already, {} to run on {} jobs; results in {}\n",
                     s.plan.points.size(), s.plan.points.size() - jobs.size(), jobs.size(), s.jobs, s.out);
  out.flush();
  size_t done = 0;
  const auto ends = run_jobs(o.program, jobs, s.jobs, [&](size_t j, const JobEnd& e) {
    const PlannedPoint& p = s.plan.points[job_point[j]];
    const std::string st = status_of(e, point_complete(s.out + "/" + p.folder));
    out << fmt::format("[{}/{}] {}: {} ({:.1f} s){}\n", ++done, jobs.size(), p.folder, st, e.seconds,
                       st == "ok" ? "" : ", log: " + jobs[j].log);
    out.flush();
  });
  for (size_t j = 0; j < jobs.size(); ++j) {
    const size_t i = job_point[j];
    status[i] = status_of(ends[j], point_complete(s.out + "/" + s.plan.points[i].folder));
  }
  return status;
}

// scripts/plot_sweep.py with Debian's python3 (python3-matplotlib); it says itself when
// matplotlib is missing.
void plot(const SweepOptions& o, const std::string& dir, std::ostream& out) {
  if (o.plot_script.empty() || !fs::exists(o.plot_script)) {
    out << fmt::format("plots skipped: {} not found\n", o.plot_script.empty() ? "scripts/plot_sweep.py" : o.plot_script);
    return;
  }
  if (!fs::exists("/usr/bin/python3")) {
    out << "plots skipped: /usr/bin/python3 not found (Debian: python3-matplotlib)\n";
    return;
  }
  out.flush();
  const int rc = run_program({"/usr/bin/python3", o.plot_script, dir});
  if (rc != 0 && rc != 3) {  // 3: skipped, and it said why
    out << fmt::format("plots failed: {} exited with status {}\n", o.plot_script, rc);
  }
}

}  // namespace

int run_sweep(const SweepOptions& o, std::ostream& out) {
  auto setup = set_up(o);
  if (!setup) {
    const std::string& m = setup.error().message;
    size_t from = 0;
    while (from <= m.size()) {
      const size_t nl = std::min(m.find('\n', from), m.size());
      std::fprintf(stderr, "rocetb sweep: %s\n", m.substr(from, nl - from).c_str());
      from = nl + 1;
    }
    return 2;
  }
  const Setup& s = setup.value();
  const std::vector<std::string> status = run_points(s, o, out);
  std::vector<Row> rows;
  size_t bad = 0;
  for (size_t i = 0; i < s.plan.points.size(); ++i) {
    const PlannedPoint& p = s.plan.points[i];
    rows.push_back(make_row(p, s.out + "/" + p.folder, status[i], s.metrics));
    bad += rows.back().status != "ok";
  }
  const Table table = make_table(s.plan, s.metrics, rows);
  if (Status st = write_file_atomically(s.out + "/sweep.csv", to_csv(table)); !st) {
    std::fprintf(stderr, "rocetb sweep: %s\n", st.message().c_str());
    return 1;
  }
  print_table(out, table, s.plan.axes.size());
  out << "table: " << s.out << "/sweep.csv\n";
  if (bad != 0) out << fmt::format("{} of {} points did not complete: see the status column\n", bad, rows.size());
  if (bad < rows.size()) plot(o, s.out, out);
  if (stop_was_requested()) return 130;
  return bad == 0 ? 0 : 1;
}

}  // namespace rtb::sweep
