// libFuzzer target for the capture reader and the analyzer behind it (lib/analyze/README.md
// "Fuzzing"). The first input byte chooses what the rest is:
//   even: a pcap or pcapng file image, read by CaptureReader::open_memory and analysed
//         frame by frame;
//   odd:  one frame, analysed with link type (byte >> 1) % 6 of those the analyzer reads,
//         as cut by a snap length when bit 7 is set.
// Every frame is copied into a heap buffer of its exact size before the analyzer sees it,
// so AddressSanitizer reports any read past its end (libpcap's own buffer is larger).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyze/analyze_capture.h"
#include "analyze/analyzer.h"
#include "pcap/capture_reader.h"

namespace {

using rtb::capture::LinkType;

constexpr LinkType kLinks[] = {LinkType::kEthernet, LinkType::kLinuxSll, LinkType::kLinuxSll2,
                               LinkType::kRaw,      LinkType::kIpv4,     LinkType::kIpv6};
constexpr uint64_t kMaxFrames = 4096;

void one_frame(uint8_t sel, const uint8_t* data, size_t size) {
  const std::vector<uint8_t> frame(data, data + size);
  const auto n = static_cast<uint32_t>(frame.size());
  rtb::analyze::Analyzer a(kLinks[(sel >> 1) % 6], rtb::analyze::AnalyzeOptions{});
  a.add(rtb::analyze::FrameRef{1, frame.data(), n, (sel & 0x80) ? n + 100 : n});
  a.finish();
}

void file_image(const uint8_t* data, size_t size) {
  auto r = rtb::capture::CaptureReader::open_memory(data, size, "fuzz input");
  if (!r || !rtb::analyze::link_type_supported(r.value().link())) return;
  rtb::analyze::Analyzer a(r.value().link(), rtb::analyze::AnalyzeOptions{});
  rtb::capture::FrameView v;
  for (uint64_t i = 0; i < kMaxFrames; ++i) {
    auto more = r.value().next_view(v);
    if (!more || !more.value()) break;
    const std::vector<uint8_t> frame(v.data, v.data + v.captured_len);
    a.add(rtb::analyze::FrameRef{v.ts_ns, frame.data(), v.captured_len, v.original_len});
  }
  a.finish();
  (void)a.qps();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] & 1) one_frame(data[0], data + 1, size - 1);
  else file_image(data + 1, size - 1);
  return 0;
}
