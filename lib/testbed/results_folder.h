// Making a run's results folder ready before the run, and marking it while the run goes on
// (design.md "Results"): `--out` checked and, with --force, emptied of an earlier run's
// files; then a run.json saying "complete": false that the run's own run.json replaces
// last (results.h). A folder whose run.json says "complete": false was stopped early,
// failed, or was killed before its results were written; its other files cannot be trusted
// to belong together.
#pragma once

#include <string>

#include "core/error.h"
#include "core/out_folder.h"

namespace rtb::testbed {

// Every file `rocetb run` writes into its folder (captures as "capture-*", plots as "plot-*").
OwnedFiles run_results_files();

// `--out DIR` (or the default folder) ready for a run, with the pending run.json in it.
// True when the folder was created here. `extra`: files a command adds to a run's
// (`rocetb replay --closed-loop`), which --force may remove too.
Expected<bool> prepare_results_folder(const OutFolder& f, const std::string& command_line, const OwnedFiles& extra = {});

// A run refused or failed before it had results leaves nothing: the pending run.json is
// removed, and the folder too when `created` and nothing else is in it.
void abandon_results_folder(const std::string& dir, bool created);

}  // namespace rtb::testbed
