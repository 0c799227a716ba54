#include "tap/capture_file.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace rtb::tap {
namespace {

using Verdict = runtime::LinkFaults::Verdict;

std::string_view comment_for(Verdict v) {
  switch (v) {
    case Verdict::kDrop: return "lost on the link: dropped by a fault";
    case Verdict::kLinkDown: return "lost on the link: the link was down";
    case Verdict::kCorrupted: return "corrupted by a fault: one byte flipped";
    case Verdict::kPass: break;
  }
  return {};
}

// The run's picoseconds to the nearest nanosecond (the writer keeps whole nanoseconds).
Time to_nearest_ns(Time t) { return Time::ns((t.ps() + 500) / 1'000); }

}  // namespace

Expected<CaptureFile> CaptureFile::create(const std::string& path, std::string what, FileLimits limits,
                                          uint64_t origin_ns) {
  auto w = capture::PcapngWriter::create(path, {.origin_ns = origin_ns});
  if (!w) return w.error();
  return CaptureFile(std::move(w).value(), std::move(what), limits);
}

uint32_t CaptureFile::add_interface(const std::string& name) {
  ifaces_.push_back({name});
  return writer_.add_interface(name, capture::LinkType::kEthernet, limits_.snaplen);
}

bool CaptureFile::take_room(size_t captured, size_t comment_bytes) {
  if (full_) return false;
  const uint64_t frames = writer_.frames_written();
  const uint64_t bytes = writer_.file_bytes() + capture::PcapngWriter::packet_block_bytes(captured, comment_bytes);
  full_ = (limits_.max_frames != 0 && frames >= limits_.max_frames) ||
          (limits_.max_bytes != 0 && bytes > limits_.max_bytes);
  return !full_;
}

void CaptureFile::write(uint32_t iface, Time at, std::span<const uint8_t> captured, uint32_t original_len,
                        Verdict verdict) {
  const std::string_view comment = comment_for(verdict);
  const size_t kept = limits_.snaplen == 0 ? captured.size() : std::min<size_t>(captured.size(), limits_.snaplen);
  if (!take_room(kept, comment.size())) {
    ++ifaces_[iface].over_limit;
    return;
  }
  // An I/O error sticks in the writer and comes back from close().
  if (writer_.write(iface, to_nearest_ns(at), captured, original_len, comment)) ++ifaces_[iface].frames;
}

Status CaptureFile::close() { return writer_.close(); }

nlohmann::ordered_json CaptureFile::to_json() const {
  nlohmann::ordered_json interfaces = nlohmann::ordered_json::array();
  uint64_t over = 0, lost = 0;
  for (const Interface& i : ifaces_) {
    interfaces.push_back({{"name", i.name}, {"frames", i.frames}, {"frames_over_limit", i.over_limit},
                          {"frames_lost", i.lost}, {"link_frames", i.link_frames}});
    over += i.over_limit;
    lost += i.lost;
  }
  return {{"file", std::filesystem::path(writer_.path()).filename().string()},
          {"what", what_},
          {"frames", writer_.frames_written()},
          {"bytes", writer_.file_bytes()},
          {"frames_over_limit", over},
          {"frames_lost", lost},
          {"interfaces", std::move(interfaces)}};
}

}  // namespace rtb::tap
