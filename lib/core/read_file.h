// Reading a whole input file (a scenario, a flow-size CDF) without hanging or exhausting the
// machine: only regular files are read (a FIFO would block forever, /dev/zero never ends, a
// directory reads as nothing), and only up to a size limit checked before the first byte.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"

namespace rtb {

// The contents of the regular file at `path`, at most `max_bytes` long. `what` names the
// file's role in the error ("a scenario file (TOML)"): "PATH: is a FIFO, not a regular file:
// expected a scenario file (TOML)".
// The same checks without reading: `path` names a regular file (not a FIFO, a device, a
// folder), with the same messages. For files read by another library (libpcap).
Status check_regular_file(const std::string& path, const std::string& what);

Expected<std::string> read_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what);

}  // namespace rtb
