// Runs the analyzer over a capture file: the reader (pcap/capture_reader.h) hands each
// frame to the Analyzer without copying it. A file that stops being readable part way
// (truncated, corrupt record) still gives the results of every frame before the fault,
// with the reader's message in `error`.
#pragma once

#include <optional>
#include <string>

#include "analyze/analyzer.h"
#include "core/error.h"

namespace rtb::analyze {

struct CaptureAnalysis {
  std::string path;
  Analyzer analyzer;
  std::optional<std::string> error;  // why reading stopped before the end of the file
};

// Errors (nothing to report): the file cannot be opened, is not pcap/pcapng, or has a
// link type the analyzer does not read.
Expected<CaptureAnalysis> analyze_capture(const std::string& path, AnalyzeOptions options);
Expected<CaptureAnalysis> analyze_capture_memory(const uint8_t* data, size_t size,
                                                 const std::string& name,
                                                 AnalyzeOptions options);

// The link types `rocetb analyze` reads (link_layer.h).
bool link_type_supported(capture::LinkType link);

}  // namespace rtb::analyze
