// Writing a whole output file (a results file) so that a reader, or a run killed at any
// moment, sees either the earlier state or the complete new file, never a part of one:
// the text goes to a temporary name in the same folder (".NAME.tmp"), is flushed to the
// disk, then renamed over NAME. rename(2) replaces the target atomically within one file
// system (POSIX.1-2017, rename()).
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace rtb {

// The temporary name write_file_atomically uses for `path`: ".NAME.tmp" beside it.
std::string temporary_name(const std::string& path);

// "cannot write PATH: REASON" on failure; the temporary file is removed then.
Status write_file_atomically(const std::string& path, std::string_view text);

}  // namespace rtb
