// rocetb run SCENARIO [--out DIR [--force]] [--no-plots] [--seed N] [--set KEY=VALUE ...] [--cc ALGORITHM]
//            [--capture WHAT ...] [--capture-snaplen B] [--capture-max-frames N] [--capture-max-bytes S]
//
// Loads and validates the scenario (every error names file, line, key and value), runs it
// in virtual time or, with run.clock = "realtime", on lcores against the TSC, writes the
// results folder (with plots and report.html: lib/plots) and prints a short table.
#include <fmt/format.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "apps/capture_options.h"
#include "apps/commands.h"
#include "apps/run_loaded.h"
#include "core/error.h"
#include "scenario/cc_settings.h"
#include "scenario/load.h"

namespace rtb::apps {
namespace {

struct RunArgs {
  std::string scenario;
  std::string out;
  bool force = false;
  bool verbose = false;
  bool quiet = false;
  bool no_plots = false;
  std::optional<std::string> seed;  // as typed: checked against run.seed's range in run()
  std::vector<std::string> set;
  std::string cc;
  std::string process;
  CaptureArgs capture;
};

// The overrides as the command line gave them, for the default folder's tag.
std::vector<std::string> tag_overrides(const RunArgs& a) {
  std::vector<std::string> out = a.set;
  if (a.seed) out.push_back("seed=" + *a.seed);  // as typed; checked before the run
  if (!a.cc.empty()) out.push_back("cc=" + a.cc);
  if (!a.process.empty()) out.push_back("process=" + a.process);
  return out;
}

int run(const RunArgs& a, const std::string& command_line) {
  std::vector<scenario::Override> overrides = scenario::set_overrides(a.set);
  // --cc ./x.so is a path from here, not from the scenario's folder (as the file's key is).
  if (!a.cc.empty()) overrides.push_back(scenario::cc_override(a.cc));
  if (!a.process.empty()) overrides.push_back({"realtime.role=\"" + a.process + "\"", "--process " + a.process});
  auto seed = parse_seed(a.seed);
  if (!seed) {
    std::fprintf(stderr, "rocetb: %s\n", seed.error().message.c_str());
    return 2;
  }
  auto s = scenario::load_scenario_from_options(a.scenario, overrides, seed.value());
  if (!s) {
    print_error("rocetb", s.error().message);
    return 2;
  }
  RunFolderArgs folder{a.out, tag_overrides(a), a.force, a.verbose, a.capture, !a.no_plots, a.quiet};
  return run_loaded(s.value(), folder, command_line);
}

}  // namespace

Command add_run_command(CLI::App& app, int argc, char** argv) {
  auto args = std::make_shared<RunArgs>();
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App* cmd = app.add_subcommand("run", "run a scenario (virtual time or realtime) and write its results");
  cmd->add_option("scenario", args->scenario, "scenario file (TOML), e.g. scenarios/default.toml")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", args->out, "results folder (default results/<scenario>-<time>[-<overrides>][-<n>], never an existing one)");
  cmd->add_flag("--force", args->force,
                 "write into a non-empty --out folder, removing an earlier run's results there first");
  cmd->add_flag("--verbose", args->verbose, "show the DPDK EAL's own output when it fails to start");
  cmd->add_flag("--quiet", args->quiet,
                 "no progress line on stderr (a run longer than a second shows simulated time, speed and "
                 "time left while it goes, when stderr is a terminal)");
  cmd->add_flag("--no-plots", args->no_plots,
                 "write no plot-*.png and no report.html (scripts/plot.py DIR draws them later)");
  cmd->add_option("--seed", args->seed, "override run.seed (0 to 2^63-1)");
  cmd->add_option("--set", args->set, "override any key: --set switch.buffer_pool.size=8MB")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--cc", args->cc,
                  "congestion control: a registered name (dcqcn, dcqcn_paper, dctcp, fixed_rate, hpcc, "
                  "swift, timely) or a plug-in .so path from the current directory (in a "
                  "scenario file and with --set cc.algorithm=..., a relative path is taken from "
                  "the scenario's folder)");
  cmd->add_option("--process", args->process,
                  "realtime runs split across processes: build only the nodes of "
                  "[realtime.process.<ROLE>] (same as --set realtime.role=ROLE; see scripts/run_split.sh)");
  add_capture_options(*cmd, args->capture);
  return [args, command_line] { return run(*args, command_line); };
}

}  // namespace rtb::apps
