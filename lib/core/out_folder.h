// The folder a command writes its results into (`--out DIR`), checked and made ready before
// any work starts, so that results are never written into an earlier run's files nor lost
// at the end to a folder that cannot be written.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"

namespace rtb {

// The files a command writes into its results folder: exact names, and name prefixes for
// families of files ("capture-" for capture-<link>.pcapng). Their temporaries (".NAME.tmp",
// core/write_file.h) count as theirs.
struct OwnedFiles {
  std::vector<std::string> names;
  std::vector<std::string> prefixes;
  bool owns(const std::string& entry) const;
};

struct OutFolder {
  std::string option = "--out";  // how the user named the folder, for the errors
  std::string dir;
  bool replace = false;          // --force: an earlier run's files there are removed first
};

// Makes `f.dir` ready: created (with its parents) when missing; refused when it is not a
// folder, or holds anything unless `replace`. With `replace` every entry must be one of
// `owned`, and all are removed before the run (a stale warnings.txt cannot survive into
// the new results); anything else refuses it, so --force never deletes a user's files.
// Last, a probe file is created and removed there: an unwritable folder is refused now.
// Errors are one line: "--out DIR: WHY". True when the folder was created here (a command
// that then fails can remove it again).
Expected<bool> prepare_out_folder(const OutFolder& f, const OwnedFiles& owned);

}  // namespace rtb
