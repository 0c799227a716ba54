// rocetb merge DIR DIR [...] --out OUT [--force]
//
// The results folders of a realtime run split across processes (`rocetb run --process
// ROLE`, one folder per role) joined into one folder with the files a single process
// writes (lib/results merge_folder.h), and its table printed.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "apps/commands.h"
#include "core/out_folder.h"
#include "results/merge_folder.h"
#include "results/table.h"

namespace rtb::apps {
namespace {

struct MergeArgs {
  std::vector<std::string> dirs;
  std::string out;
  bool force = false;
};

int merge(const MergeArgs& a) {
  for (const std::string& d : a.dirs) {
    if (!std::filesystem::is_directory(d)) {
      print_error("rocetb merge", d + ": not a folder: expected a results folder of one process of a split run");
      return 2;
    }
  }
  const Expected<bool> created = prepare_out_folder({"--out", a.out, a.force}, results::merged_files());
  if (!created) {
    print_error("rocetb merge", created.error().message);
    return 2;
  }
  auto merged = results::merge_folders(a.out, a.dirs);
  if (!merged) {
    print_error("rocetb merge", merged.error().message);
    std::error_code ec;
    if (created.value()) std::filesystem::remove_all(a.out, ec);  // nothing of the merge is left half-written
    return 2;
  }
  std::cout << "merged " << merged.value().roles.size() << " processes:";
  for (const std::string& r : merged.value().roles) std::cout << " " << r;
  std::cout << "\n";
  results::print_summary(std::cout, merged.value());
  std::cout << "results: " << a.out << "\n";
  return 0;
}

}  // namespace

Command add_merge_command(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "join the results folders of a realtime run split across processes (run --process ROLE)");
  cmd->add_option("dirs", args->dirs, "the processes' results folders, one per role")->required()->expected(1, -1);
  cmd->add_option("--out", args->out, "folder for the merged results (new or empty, or --force)")->required();
  cmd->add_flag("--force", args->force, "write into a non-empty --out folder, removing an earlier merge's files first");
  return [args] { return merge(*args); };
}

}  // namespace rtb::apps
