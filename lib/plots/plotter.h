// The plots and report.html of a results folder, drawn by the Python tools beside the
// source (scripts/plot.py, matplotlib) or their installed copy, and how `rocetb run`
// records them. Plotting is never the reason a run fails: without python3 or matplotlib,
// or when the script fails, nothing is drawn and the outcome says why in one line.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "core/error.h"

namespace rtb::plots {

struct PlotOutcome {
  std::vector<std::string> files;  // written into the folder: plot-*.png, report.html
  std::vector<std::string> notes;  // what was left out and why ("no flow of finite size finished")
  std::string skipped;             // why nothing was drawn; empty when the files were written
  double seconds = 0;              // wall time of the plotting

  // run.json "plots": {"files": [...], "notes": [...], "seconds": S} or {"skipped": "WHY"}.
  nlohmann::ordered_json to_json() const;
  // The line `rocetb run` prints: where the report and plots are, or why they were skipped.
  std::string line(const std::string& dir) const;
};

// The interpreter: $ROCETB_PYTHON when set, else Debian's /usr/bin/python3 (the one
// python3-matplotlib installs for; a python3 earlier on PATH, a virtualenv's, may lack it).
std::string python_path();

// scripts/NAME: in $ROCETB_SCRIPTS_DIR when set; else, for a binary in the build tree, the
// source tree's scripts/ first, for an installed one the installed copy first.
Expected<std::string> find_script(const std::string& name);

// ROCETB_NO_PLOTS set (to anything but empty or "0"): every run as with --no-plots (the
// test suites other than `plots` set it: plotting costs seconds per run).
bool disabled_by_environment();

// Runs `python plot.py DIR --json` and reads its answer.
PlotOutcome draw_plots(const std::string& dir);

// `rocetb compare`: replaces this process by `python compare.py ARGS...` (so its output
// goes straight to the terminal, colours included). Returns only when that fails: the exit
// code after printing one line.
int exec_script(const std::string& name, const std::vector<std::string>& args);

}  // namespace rtb::plots
