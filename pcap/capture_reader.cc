#include "pcap/capture_reader.h"

#include <pcap.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace rtb::capture {
namespace {

constexpr uint64_t kMaxSpanNs = UINT64_MAX / 1'000;  // the largest span rtb::Time holds
constexpr size_t kReadBufferBytes = 1 << 20;

// libpcap reports DLT_* values; files store LINKTYPE_* values. They differ for raw IP.
LinkType to_link_type(int dlt) {
  if (dlt == DLT_RAW) return LinkType::kRaw;
  return static_cast<LinkType>(dlt);
}

// " (10 bytes)" for an existing file, so a short file reads as truncated; "" otherwise.
std::string size_note(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? std::string() : fmt::format(" ({} bytes)", n);
}

}  // namespace

void CaptureReader::Closer::operator()(pcap* p) const { pcap_close(p); }

void CaptureReader::Unmapper::operator()(const uint8_t* p) const {
  munmap(const_cast<uint8_t*>(p), size);
}

// Frames from PcapRecords over `data` when it is a classic pcap image libpcap accepted.
void CaptureReader::walk_records(const uint8_t* data, size_t size) {
  records_ = PcapRecords::detect(data, size, static_cast<uint32_t>(pcap_snapshot(handle_.get())));
}

// Maps a regular file read-only; null when it cannot (then libpcap reads it).
CaptureReader::Mapping CaptureReader::map_file(FILE* f) {
  struct stat st {};
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
    return {nullptr, {0}};
  const auto size = static_cast<size_t>(st.st_size);
  void* p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
  if (p == MAP_FAILED) return {nullptr, {0}};
  return {static_cast<const uint8_t*>(p), {size}};
}

Expected<CaptureReader> CaptureReader::open(const std::string& path, ReaderOptions options) {
  // Our own FILE with a large buffer: libpcap reads record by record through stdio, and
  // the default 4 KiB buffer costs a system call every few frames.
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Error{fmt::format("cannot read capture '{}'{}: {}; expected a readable pcap or "
                             "pcapng file", path, size_note(path), std::strerror(errno))};
  }
  std::setvbuf(f, nullptr, _IOFBF, kReadBufferBytes);
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  pcap_t* p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (p == nullptr) {
    std::fclose(f);
    return Error{fmt::format("cannot read capture '{}'{}: {}; expected a readable pcap or "
                             "pcapng file", path, size_note(path), errbuf)};
  }
  CaptureReader r(path, p, options);
  r.mapping_ = map_file(f);
  if (r.mapping_) r.walk_records(r.mapping_.get(), r.mapping_.get_deleter().size);
  return r;
}

Expected<CaptureReader> CaptureReader::open_memory(const uint8_t* data, size_t size,
                                                   const std::string& name) {
  // fmemopen only reads through the pointer in mode "rb".
  FILE* f = fmemopen(const_cast<uint8_t*>(data), size, "rb");
  if (f == nullptr) return Error{fmt::format("cannot read capture '{}' from memory", name)};
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  pcap_t* p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (p == nullptr) {
    std::fclose(f);
    return Error{fmt::format("cannot read capture '{}' ({} bytes): {}; expected a readable "
                             "pcap or pcapng file", name, size, errbuf)};
  }
  CaptureReader r(name, p, ReaderOptions{});
  r.walk_records(data, size);
  return r;
}

CaptureReader::CaptureReader(std::string path, pcap* handle, ReaderOptions options)
    : path_(std::move(path)), handle_(handle), options_(options),
      link_(to_link_type(pcap_datalink(handle))) {}

Status CaptureReader::set_time(CapturedFrame& out, uint64_t ts_ns) {
  if (!options_.origin_ns) options_.origin_ns = ts_ns;
  const uint64_t origin = *options_.origin_ns;
  if (ts_ns < origin || ts_ns - origin > kMaxSpanNs) {
    return Error{fmt::format("capture '{}': frame {} is stamped {} ns since the epoch, "
                             "outside [{}, {}] ns that rtb::Time can hold from the origin; "
                             "pass ReaderOptions::origin_ns at or before the earliest frame",
                             path_, frames_, ts_ns, origin, origin + kMaxSpanNs)};
  }
  out.ts_ns = ts_ns;
  out.ts = Time::ps((ts_ns - origin) * 1'000);
  return {};
}

Expected<bool> CaptureReader::next_view(FrameView& out) {
  if (records_) {
    auto more = records_->next(out, frames_ + 1, path_);
    if (more && more.value()) ++frames_;
    return more;
  }
  pcap_pkthdr* h = nullptr;
  const u_char* data = nullptr;
  const int rc = pcap_next_ex(handle_.get(), &h, &data);
  if (rc == PCAP_ERROR_BREAK) return false;
  if (rc != 1) {
    return Error{fmt::format("capture '{}': cannot read frame {}: {}", path_, frames_ + 1,
                             pcap_geterr(handle_.get()))};
  }
  // With PCAP_TSTAMP_PRECISION_NANO, tv_usec holds nanoseconds.
  out.ts_ns = static_cast<uint64_t>(h->ts.tv_sec) * 1'000'000'000 +
              static_cast<uint64_t>(h->ts.tv_usec);
  out.captured_len = h->caplen;
  out.original_len = h->len;
  out.data = data;
  ++frames_;
  return true;
}

Expected<bool> CaptureReader::next(CapturedFrame& out) {
  FrameView v;
  auto more = next_view(v);
  if (!more || !more.value()) return more;
  if (Status s = set_time(out, v.ts_ns); !s) return Error{s.message()};
  out.link = link_;
  out.captured_len = v.captured_len;
  out.original_len = v.original_len;
  out.bytes.assign(v.data, v.data + v.captured_len);
  return true;
}

Expected<std::vector<CapturedFrame>> read_all(const std::string& path, ReaderOptions options) {
  auto reader = CaptureReader::open(path, options);
  if (!reader) return reader.error();
  std::vector<CapturedFrame> frames;
  CapturedFrame f;
  while (true) {
    auto more = reader.value().next(f);
    if (!more) return more.error();
    if (!more.value()) break;
    frames.push_back(std::move(f));
  }
  return frames;
}

}  // namespace rtb::capture
