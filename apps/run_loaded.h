// The part of `rocetb run` after its scenario is loaded: the results folder, the captures,
// the run, its results and its table. `rocetb replay --closed-loop` runs its scenario the
// same way and adds its own files and table through RunExtras.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <iosfwd>
#include <string>
#include <vector>

#include "apps/capture_options.h"
#include "core/error.h"
#include "core/out_folder.h"
#include "scenario/scenario.h"
#include "testbed/run.h"

namespace rtb::apps {

struct RunFolderArgs {
  std::string out;                // empty: results/<scenario>-<time>[-<tags>]
  std::vector<std::string> tags;  // for the default folder's name
  bool force = false;
  bool verbose = false;
  CaptureArgs capture;
  bool plots = true;  // false: --no-plots (no plot-*.png, no report.html)
  bool quiet = false;  // no progress line (there is none either when stderr is not a terminal)
};

struct RunExtras {
  OwnedFiles files;  // the extra files `write` puts into the results folder
  // Before the run's own files (so run.json, which marks the folder complete, stays last).
  std::function<Status(const std::string& dir, const testbed::RunReport&)> write;
  std::function<void(std::ostream&, const testbed::RunReport&)> print;  // after the run's table
};

// The last step of a results folder whose other files are written: its plots drawn from
// them (unless `plots` is false or ROCETB_NO_PLOTS is set), then run.json with what was
// drawn or why not, written last as it marks the folder complete. The line to print after
// "results: DIR" (empty when nothing was to be drawn).
Expected<std::string> finish_results_folder(const std::string& out, const testbed::RunReport& report, bool plots);

// --seed as run.seed takes it in a scenario file: a whole number in 0..2^63-1 (CLI11 would
// wrap -1 or saturate a larger number silently). Unset when not given.
Expected<std::optional<uint64_t>> parse_seed(const std::optional<std::string>& given);

// The exit code: 0, 1 (the run or its results failed), 2 (refused before the run).
int run_loaded(const scenario::Scenario& s, const RunFolderArgs& a, const std::string& command_line,
               const RunExtras& extras = {});

}  // namespace rtb::apps
