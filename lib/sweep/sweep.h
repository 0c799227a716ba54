// `rocetb sweep`: a scenario run over a grid of --vary values in parallel child processes,
// each the `rocetb run SCENARIO --set KEY=VALUE ... --out DIR/<point>` a user could type
// (the shared --set and --cc first, then the point's values);
// then one table of chosen summary.json figures (sweep.csv and the terminal) and a plot of
// each metric against each varied key (scripts/plot_sweep.py). Resumable: a point whose
// folder is complete is not run again.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace rtb::sweep {

struct SweepOptions {
  std::string scenario;
  std::vector<std::string> set;      // "KEY=VALUE" as typed: every point gets them
  std::string cc;                    // every point's algorithm, a name or a plug-in path; "": the scenario's
  std::vector<std::string> vary;     // "KEY=V1,V2,..." as typed
  uint32_t repeats = 1;
  unsigned jobs = 0;                 // 0: one per core
  std::vector<std::string> metrics;  // empty: default_metrics()
  std::string out;                   // empty: results/sweep-<scenario name>
  std::string program;               // the rocetb binary the points run
  std::string plot_script;           // scripts/plot_sweep.py; empty: no plots
};

// The exit code: 0 (every point complete), 1 (a point failed or is incomplete), 2 (refused
// before anything ran), 130 (stopped by SIGINT or SIGTERM; the table is still written).
// Progress and the table go to `out`, errors to stderr.
int run_sweep(const SweepOptions& o, std::ostream& out);

}  // namespace rtb::sweep
