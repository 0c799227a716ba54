// `rocetb merge`: the results folders of a split run's processes (one per role, written by
// `rocetb run --process ROLE`) joined into one folder with the files a single process
// writes: summary.json (merge.h), flows.csv and queues.csv (series_merge.h); each part's
// run.json and effective.json kept as run.ROLE.json and effective.ROLE.json.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "core/out_folder.h"
#include "results/summary.h"

namespace rtb::results {

// The files `merge_folders` writes into its folder (core/out_folder.h).
OwnedFiles merged_files();

// A part's role: its folder's name.
std::string role_of(const std::string& dir);

// Each file written whole (core/write_file.h), summary.json last. Nothing is written when
// a part cannot be read or the parts are not of one run.
Expected<Summary> merge_folders(const std::string& out, const std::vector<std::string>& dirs);

}  // namespace rtb::results
