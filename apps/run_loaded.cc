#include "apps/run_loaded.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <iostream>

#include <unistd.h>

#include "apps/commands.h"
#include "apps/mpi_world.h"
#include "cc_algos/registry.h"
#include "plots/plotter.h"
#include "runtime/pool/eal.h"
#include "runtime/pool/eal_output.h"
#include "scenario/warning_summary.h"
#include "tap/capture_plan.h"
#include "testbed/live_counters.h"
#include "testbed/progress.h"
#include "testbed/results.h"
#include "testbed/results_dir.h"
#include "testbed/results_folder.h"
#include "testbed/stop_request.h"

namespace rtb::apps {
namespace {

Expected<std::string> out_dir(const RunFolderArgs& a, const std::string& scenario) {
  if (!a.out.empty()) return a.out;
  const std::time_t now = std::time(nullptr);
  return testbed::make_results_dir("results", scenario, a.tags, fmt::localtime(now));
}

// A rank other than 0 of a run across MPI ranks: its share of the run, no folder, no table
// (rank 0 writes the results).
int run_other_rank(const scenario::Scenario& s, const std::string& command_line, mpi::MpiRanks& ranks) {
  cc::Registry registry = cc::Registry::with_builtins();
  testbed::set_progress_line(false);
  std::signal(SIGINT, [](int) { testbed::request_stop(); });
  std::signal(SIGTERM, [](int) { testbed::request_stop(); });
  auto report = testbed::run_virtual(s, registry, command_line, {}, {}, testbed::SeriesRequest::discard(), &ranks);
  if (!report) {
    std::fprintf(stderr, "rocetb: rank %u: %s\n", ranks.rank(), report.error().message.c_str());
    return 1;
  }
  (void)runtime::stop_eal();
  return 0;
}

int run_here(const scenario::Scenario& s, const RunFolderArgs& a, const std::string& command_line,
             const RunExtras& extras);

}  // namespace

Expected<std::optional<uint64_t>> parse_seed(const std::optional<std::string>& given) {
  if (!given) return std::optional<uint64_t>{};
  const std::string& text = *given;
  int64_t v = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < 0) {
    return Error{fmt::format("--seed {}: expected a whole number from 0 to {} (as run.seed)", text, INT64_MAX)};
  }
  return std::optional<uint64_t>{static_cast<uint64_t>(v)};
}

int run_loaded(const scenario::Scenario& s, const RunFolderArgs& a, const std::string& command_line,
               const RunExtras& extras) {
  mpi::MpiRanks* ranks = mpi_ranks();
  if (ranks == nullptr) return run_here(s, a, command_line, extras);
  if (s.run.clock == scenario::Clock::kRealtime) {
    std::fprintf(stderr, "rocetb: run.clock = \"realtime\": started by mpirun with several ranks, which only "
                         "virtual time uses (split a realtime run with realtime.role and `rocetb merge`)\n");
    return refuse_everywhere(2);
  }
  if (ranks->rank() != 0) return fail_everywhere(run_other_rank(s, command_line, *ranks));
  return fail_everywhere(run_here(s, a, command_line, extras));
}

namespace {

int run_here(const scenario::Scenario& s, const RunFolderArgs& a, const std::string& command_line,
             const RunExtras& extras) {
  // The results folder is known before the run: capture files are written into it as it goes.
  const Expected<std::string> dir = out_dir(a, s.name);
  if (!dir) {
    std::fprintf(stderr, "rocetb: %s\n", dir.error().message.c_str());
    return 1;
  }
  const std::string& out = dir.value();
  auto capture = to_request(a.capture, out);
  if (capture) {
    if (auto plans = tap::plan_captures(s.topology, capture.value().what, "--capture"); !plans) {
      capture = plans.error();
    }
  }
  if (!capture) {
    print_error("rocetb", capture.error().message);
    return 2;
  }
  // Checked and marked before the run: an unwritable or occupied folder is refused now,
  // not after a long run.
  const OutFolder folder{a.out.empty() ? "results folder" : "--out", out, a.force};
  const Expected<bool> created = testbed::prepare_results_folder(folder, command_line, extras.files);
  if (!created) {
    std::fprintf(stderr, "rocetb: %s\n", created.error().message.c_str());
    return 2;
  }
  for (const std::string& w : scenario::summarize_warnings(s.warnings)) {
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  }
  cc::Registry registry = cc::Registry::with_builtins();
  runtime::set_eal_verbose(a.verbose);
  testbed::set_progress_line(!a.quiet && isatty(STDERR_FILENO) == 1);
  testbed::LiveCounters::set_announce(!a.quiet);
  const bool realtime = s.run.clock == scenario::Clock::kRealtime;
  // Ctrl-C or SIGTERM ends a run early; its results are still written, marked incomplete.
  std::signal(SIGINT, [](int) { testbed::request_stop(); });
  std::signal(SIGTERM, [](int) { testbed::request_stop(); });
  // The time series stream into the folder as the run goes, in bounded memory.
  const auto series = testbed::SeriesRequest::to_folder(out);
  auto report = realtime ? testbed::run_realtime(s, registry, command_line, capture.value(), series)
                         : testbed::run_virtual(s, registry, command_line, capture.value(), {}, series, mpi_ranks());
  if (!report) {
    std::fprintf(stderr, "rocetb: %s\n", report.error().message.c_str());
    testbed::abandon_results_folder(out, created.value() || a.out.empty());
    return 1;
  }
  if (extras.write) {
    if (Status st = extras.write(out, report.value()); !st) {
      std::fprintf(stderr, "rocetb: %s\n", st.message().c_str());
      return 1;
    }
  }
  // The plots are drawn from the files just written (the table shown meanwhile), before
  // run.json marks the folder complete and records them (or why they were skipped).
  if (Status st = testbed::write_result_files(out, s, report.value()); !st) {
    std::fprintf(stderr, "rocetb: %s\n", st.message().c_str());
    return 1;
  }
  testbed::print_table(std::cout, report.value());
  if (extras.print) extras.print(std::cout, report.value());
  std::cout.flush();
  const Expected<std::string> drawn = finish_results_folder(out, report.value(), a.plots);
  if (!drawn) {
    std::fprintf(stderr, "rocetb: %s\n", drawn.error().message.c_str());
    return 1;
  }
  if (report.value().run.contains("stopped_early")) {
    std::fprintf(stderr, "rocetb: %s\n", report.value().run["stopped_early"].get<std::string>().c_str());
  }
  std::cout << "results: " << out << "\n";
  if (!drawn.value().empty()) std::cout << drawn.value() << "\n";
  (void)runtime::stop_eal();
  return 0;
}

}  // namespace

Expected<std::string> finish_results_folder(const std::string& out, const testbed::RunReport& report, bool plots) {
  const bool draw = plots && !plots::disabled_by_environment();
  const plots::PlotOutcome drawn =
      draw ? plots::draw_plots(out) : plots::PlotOutcome{{}, {}, plots ? "ROCETB_NO_PLOTS is set" : "--no-plots", 0};
  nlohmann::ordered_json recorded = report.run;
  recorded["plots"] = drawn.to_json();
  if (Status st = testbed::write_run_json(out, recorded); !st) return Error{st.message()};
  return draw ? drawn.line(out) : std::string();
}

}  // namespace rtb::apps
