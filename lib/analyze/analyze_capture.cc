#include "analyze/analyze_capture.h"

#include <fmt/format.h>

#include <utility>

#include "pcap/capture_reader.h"
#include "wire/icrc.h"

namespace rtb::analyze {
namespace {

Expected<CaptureAnalysis> run(Expected<capture::CaptureReader> reader, AnalyzeOptions options) {
  if (!reader) return reader.error();
  capture::CaptureReader& r = reader.value();
  if (!link_type_supported(r.link())) {
    return Error{fmt::format("capture '{}': link type {} is not supported; expected Ethernet "
                             "(1), Linux cooked SLL (113) or SLL2 (276), raw IP (101), "
                             "IPv4 (228) or IPv6 (229)",
                             r.path(), capture::link_type_name(r.link()))};
  }
  wire::use_fast_crc();
  CaptureAnalysis out{r.path(), Analyzer(r.link(), options), std::nullopt};
  capture::FrameView v;
  while (true) {
    auto more = r.next_view(v);
    if (!more) {
      out.error = fmt::format("{}; the results cover the {} frames before it",
                              more.error().message, r.frames_read());
      break;
    }
    if (!more.value()) break;
    out.analyzer.add(FrameRef{v.ts_ns, v.data, v.captured_len, v.original_len});
  }
  out.analyzer.finish();
  return out;
}

}  // namespace

bool link_type_supported(capture::LinkType link) {
  switch (link) {
    case capture::LinkType::kEthernet:
    case capture::LinkType::kRaw:
    case capture::LinkType::kLinuxSll:
    case capture::LinkType::kIpv4:
    case capture::LinkType::kIpv6:
    case capture::LinkType::kLinuxSll2:
      return true;
  }
  return false;
}

Expected<CaptureAnalysis> analyze_capture(const std::string& path, AnalyzeOptions options) {
  return run(capture::CaptureReader::open(path), options);
}

Expected<CaptureAnalysis> analyze_capture_memory(const uint8_t* data, size_t size,
                                                 const std::string& name,
                                                 AnalyzeOptions options) {
  return run(capture::CaptureReader::open_memory(data, size, name), options);
}

}  // namespace rtb::analyze
