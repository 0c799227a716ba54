// rocetb replay CAPTURE --through SCENARIO [--map ADDRESS=HOST ...] [--speed X] [--tail T]
//               [--dedup-window T] [--set KEY=VALUE ...] [--out DIR [--force]] [--capture WHAT ...]
//               [--no-plots]
//
// The capture's RoCEv2 frames enter the scenario's switches where its hosts would send
// them (lib/replay/through.h); the results folder is a run's (plots too) plus replay.json.
#include "apps/replay_through.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "apps/commands.h"
#include "apps/run_loaded.h"
#include "core/units_parse.h"
#include "core/write_file.h"
#include "replay/replay_json.h"
#include "replay/through.h"
#include "results/table.h"
#include "runtime/pool/eal.h"
#include "scenario/load.h"
#include "scenario/warning_summary.h"
#include "tap/capture_plan.h"
#include "testbed/results.h"
#include "testbed/results_dir.h"
#include "testbed/results_folder.h"

namespace rtb::apps {
namespace {

constexpr const char* kWho = "rocetb replay";

Expected<replay::ThroughOptions> through_options(const ReplayArgs& a, const ThroughArgs& t) {
  auto speed = parse_speed(a.speed);
  if (!speed) return Error{speed.error().message};
  auto map = parse_map(a.map);
  if (!map) return Error{map.error().message};
  auto window = parse_time(t.dedup_window);
  if (!window) return Error{fmt::format("--dedup-window '{}': {}", t.dedup_window, window.error().message)};
  return replay::ThroughOptions{speed.value(), std::move(map).value(), window.value()};
}

Expected<std::string> out_dir(const ReplayArgs& a, const std::string& scenario) {
  if (!a.out.empty()) return a.out;
  const std::string stem = std::filesystem::path(a.capture).stem().string();
  const std::time_t now = std::time(nullptr);
  return testbed::make_results_dir("results", "replay-" + stem + "-" + scenario, a.set, fmt::localtime(now));
}

// The results: the run's files, replay.json, the tables, the plots, run.json last. Exit 1
// when the capture was cut.
int finish(const std::string& out, const scenario::Scenario& s, const replay::ThroughResult& r,
           const replay::ThroughFrames& frames, bool plots) {
  if (Status st = testbed::write_result_files(out, s, r.report); !st) {
    print_error(kWho, st.message());
    return 1;
  }
  if (Status st = write_file_atomically(out + "/replay.json", r.replay.dump(2) + "\n"); !st) {
    print_error(kWho, st.message());
    return 1;
  }
  replay::print_replay_table(std::cout, r.replay);
  // The scenario's flows are not run: what the switches did is the result.
  results::print_switch_ports(std::cout, r.report.summary);
  testbed::print_run_lines(std::cout, r.report);
  std::cout.flush();
  const Expected<std::string> drawn = finish_results_folder(out, r.report, plots);
  if (!drawn) {
    print_error(kWho, drawn.error().message);
    return 1;
  }
  std::cout << "results: " << out << "\n";
  if (!drawn.value().empty()) std::cout << drawn.value() << "\n";
  (void)runtime::stop_eal();
  if (frames.read_error.empty()) return 0;
  print_error(kWho, frames.read_error + " (the frames before it were replayed)");
  return 1;
}

}  // namespace

CLI::Option* add_through_options(CLI::App& cmd, ThroughArgs& args) {
  CLI::Option* o = cmd.add_option("--through", args.scenario,
                                  "through the model: the capture's frames into SCENARIO's switches "
                                  "(buffer, ECN, PFC, watchdog) where its hosts would send them")
                       ->check(CLI::ExistingFile);
  cmd.add_option("--dedup-window", args.dedup_window,
                 "--through: a frame equal to one seen at most this long before (a capture taken at "
                 "several points, e.g. --capture all) is not injected again (default 0s: off)");
  cmd.add_option("--tail", args.tail, "--through: run time after the last frame, for the switches to drain (default 1ms)");
  cmd.add_option("--duration", args.duration, "--through: run this long instead (frames due later are not sent)");
  add_capture_options(cmd, args.capture);
  return o;
}

int replay_through(const ReplayArgs& a, const ThroughArgs& t, const std::string& command_line) {
  auto options = through_options(a, t);
  auto tail = parse_time(t.tail);
  auto duration = t.duration.empty() ? Expected<Time>(Time::zero()) : parse_time(t.duration);
  if (!options || !tail || !duration || (!t.duration.empty() && duration.value() == Time::zero())) {
    print_error(kWho, !options ? options.error().message
                      : !tail  ? fmt::format("--tail '{}': {}", t.tail, tail.error().message)
                               : fmt::format("--duration '{}': {}", t.duration,
                                             duration ? "expected a time above 0" : duration.error().message));
    return 2;
  }
  auto loaded = scenario::load_scenario(t.scenario, a.set);
  if (!loaded) {
    print_error(kWho, loaded.error().message);
    return 2;
  }
  auto frames = replay::load_through_frames(a.capture, loaded.value(), options.value());
  if (!frames) {
    print_error(kWho, frames.error().message);
    return 2;
  }
  scenario::Scenario s = replay::through_scenario(std::move(loaded).value(), frames.value(), tail.value());
  if (!t.duration.empty()) s.run.duration = duration.value();
  s.add_file(a.capture);
  const Expected<std::string> dir = out_dir(a, s.name);
  if (!dir) {
    print_error(kWho, dir.error().message);
    return 2;
  }
  auto capture = to_request(t.capture, dir.value());
  if (capture) {
    if (auto plans = tap::plan_captures(s.topology, capture.value().what, "--capture"); !plans) capture = plans.error();
  }
  if (!capture) {
    print_error(kWho, capture.error().message);
    return 2;
  }
  const OutFolder folder{a.out.empty() ? "results folder" : "--out", dir.value(), a.force};
  const Expected<bool> created = testbed::prepare_results_folder(folder, command_line);
  if (!created) {
    print_error(kWho, created.error().message);
    return 2;
  }
  for (const std::string& w : scenario::summarize_warnings(s.warnings)) std::fprintf(stderr, "warning: %s\n", w.c_str());
  cc::Registry registry = cc::Registry::with_builtins();
  auto result = replay::run_through(s, frames.value(), options.value(), registry, command_line, capture.value(),
                                   testbed::SeriesRequest::to_folder(dir.value()));
  if (!result) {
    print_error(kWho, result.error().message);
    testbed::abandon_results_folder(dir.value(), created.value() || a.out.empty());
    return 1;
  }
  return finish(dir.value(), s, result.value(), frames.value(), !a.no_plots);
}

}  // namespace rtb::apps
