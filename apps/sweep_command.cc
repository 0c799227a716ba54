// rocetb sweep SCENARIO --vary KEY=V1,V2,... [--vary ...] [--set KEY=VALUE ...] [--cc NAME]
//                       [--repeat N] [--jobs N] [--metrics m1,m2,...] [--out DIR]
//
// Parses the options; the grid, the children, the table and the plots are lib/sweep's.
#include <iostream>
#include <memory>

#include "apps/commands.h"
#include "sweep/metric.h"
#include "sweep/runner.h"
#include "sweep/sweep.h"

namespace rtb::apps {

Command add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<sweep::SweepOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "run a scenario over a grid of --vary values in parallel; a table and plots of chosen figures");
  cmd->add_option("scenario", o->scenario, "scenario file (TOML), e.g. scenarios/default.toml")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--vary", o->vary,
                  "a key and its values, as --set takes them: --vary switch.wred_profile.green_min_threshold=50KB,150KB "
                  "(repeatable: the grid is every combination)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--set", o->set, "KEY=VALUE for every point, as rocetb run --set takes it (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--cc", o->cc,
                  "every point's congestion control, a registered name or a plug-in .so path (as rocetb run --cc); "
                  "--vary cc.params.KEY=... then varies its parameters");
  cmd->add_option("--repeat", o->repeats,
                  "runs per grid point, each with its own seed (the first the scenario's, the others derived from it)")
      ->check(CLI::Range(1u, 1000000u));
  cmd->add_option("--jobs", o->jobs, "points run at once (default: the number of cores)")->check(CLI::Range(1u, 4096u));
  std::string metrics_help = "summary.json figures to tabulate and plot, comma-separated (default: ";
  for (size_t i = 0; i < sweep::default_metrics().size(); ++i) {
    metrics_help += (i ? "," : "") + sweep::default_metrics()[i];
  }
  cmd->add_option("--metrics", o->metrics, metrics_help + ")")->delimiter(',');
  cmd->add_option("--out", o->out,
                  "the sweep's folder (default results/sweep-<scenario>); the same command on the same folder "
                  "resumes it");
  return [o] {
    o->program = sweep::own_executable();
    o->plot_script = ROCETB_PLOT_SWEEP_SCRIPT;
    return sweep::run_sweep(*o, std::cout);
  };
}

}  // namespace rtb::apps
