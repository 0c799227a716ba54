// The rocetb command: one subcommand per job (apps/commands.h).
#include <CLI/CLI.hpp>

#include <cstdio>

#include <fmt/format.h>
#include <rte_version.h>

#include "apps/commands.h"
#include "apps/mpi_world.h"
#include "testbed/run.h"
#include "testbed/version.h"

int main(int argc, char** argv) {
  if (rtb::Status st = rtb::apps::start_mpi(argc, argv); !st) {
    std::fprintf(stderr, "rocetb: %s\n", st.message().c_str());
    return 1;
  }
  rtb::testbed::size_eal_for_one_run(true);  // each command runs at most one scenario
  CLI::App app{"rocetb: a RoCEv2 congestion-control testbed on DPDK (real frames, closed loop)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("rocetb {} (commit {}, {})", rtb::testbed::kVersion,
                                                rtb::testbed::kCommit, rte_version()));
  const rtb::apps::Command run = rtb::apps::add_run_command(app, argc, argv);
  const rtb::apps::Command frames = rtb::apps::add_frames_command(app);
  const rtb::apps::Command bench = rtb::apps::add_bench_command(app);
  const rtb::apps::Command plan = rtb::apps::add_plan_command(app);
  const rtb::apps::Command params = rtb::apps::add_params_command(app);
  const rtb::apps::Command analyze = rtb::apps::add_analyze_command(app);
  const rtb::apps::Command replay = rtb::apps::add_replay_command(app, argc, argv);
  const rtb::apps::Command sweep = rtb::apps::add_sweep_command(app);
  const rtb::apps::Command compare = rtb::apps::add_compare_command(app);
  const rtb::apps::Command merge = rtb::apps::add_merge_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rtb::apps::command_line_error(app, e);
  }
  if (app.got_subcommand("run")) return run();
  if (rtb::apps::mpi_ranks() != nullptr) {
    std::fprintf(stderr, "rocetb: %s: started by mpirun with several ranks: only `rocetb run` runs across ranks\n",
                 app.get_subcommands().front()->get_name().c_str());
    return 2;
  }
  if (app.got_subcommand("bench")) return bench();
  if (app.got_subcommand("plan")) return plan();
  if (app.got_subcommand("params")) return params();
  if (app.got_subcommand("analyze")) return analyze();
  if (app.got_subcommand("replay")) return replay();
  if (app.got_subcommand("sweep")) return sweep();
  if (app.got_subcommand("compare")) return compare();
  if (app.got_subcommand("merge")) return merge();
  return frames();
}
