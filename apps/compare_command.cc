// rocetb compare A B [C ...] [--out DIR] [--color auto|always|never]
//
// Results folders side by side: the summary figures with each folder's relative difference
// to the first, the effective-configuration keys that differ, and overlay plots of per-flow
// rate and queue depth. The work is scripts/compare.py's (lib/plots: the same figure
// extraction as the plots and report.html); this command finds it and hands over.
#include <string>
#include <vector>

#include "apps/commands.h"
#include "plots/plotter.h"

namespace rtb::apps {
namespace {

struct CompareArgs {
  std::vector<std::string> dirs;
  std::string out;
  std::string color = "auto";
};

int compare(const CompareArgs& a) {
  std::vector<std::string> args{"--color", a.color};
  if (!a.out.empty()) args.insert(args.end(), {"--out", a.out});
  args.push_back("--");  // a folder named like an option is still a folder
  args.insert(args.end(), a.dirs.begin(), a.dirs.end());
  return plots::exec_script("compare.py", args);
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "results folders side by side: summary figures, configuration diff, overlay plots");
  cmd->add_option("dirs", args->dirs, "two or more results folders (written by rocetb run or rocetb replay --closed-loop)");
  cmd->add_option("--out", args->out, "folder for the overlay plots and compare.txt (default: a new results/compare-...)");
  cmd->add_option("--color", args->color, "highlight differences in colour: auto (when stdout is a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  return [args] { return compare(*args); };
}

}  // namespace rtb::apps
