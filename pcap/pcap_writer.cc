#include "pcap/pcap_writer.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace rtb::capture {
namespace {

// struct pcap_file_header and the per-record header of pcap(5), host byte order.
struct FileHeader {
  uint32_t magic;
  uint16_t version_major;
  uint16_t version_minor;
  int32_t thiszone;
  uint32_t sigfigs;
  uint32_t snaplen;
  uint32_t linktype;
};
static_assert(sizeof(FileHeader) == 24);

struct RecordHeader {
  uint32_t ts_sec;
  uint32_t ts_nsec;
  uint32_t caplen;
  uint32_t len;
};
static_assert(sizeof(RecordHeader) == 16);

template <typename T>
std::span<const uint8_t> bytes_of(const T& v) {
  return {reinterpret_cast<const uint8_t*>(&v), sizeof v};
}

}  // namespace

Expected<PcapWriter> PcapWriter::create(const std::string& path, LinkType link,
                                        uint32_t snaplen, uint64_t origin_ns) {
  if (snaplen == 0) {
    return Error{fmt::format("capture '{}': snaplen 0 is not valid in a pcap file; use {} "
                             "for no practical limit", path, kDefaultSnaplen)};
  }
  auto sink = FileSink::create(path);
  if (!sink) return sink.error();
  const FileHeader h{kPcapNanosecondMagic, 2, 4, 0, 0, snaplen, static_cast<uint32_t>(link)};
  if (Status s = sink.value().append(bytes_of(h)); !s) return Error{s.message()};
  return PcapWriter(std::move(sink).value(), snaplen, origin_ns);
}

PcapWriter::PcapWriter(FileSink sink, uint32_t snaplen, uint64_t origin_ns)
    : sink_(std::move(sink)), snaplen_(snaplen), origin_ns_(origin_ns) {}

Status PcapWriter::write(Time ts, std::span<const uint8_t> frame) {
  if (!error_) return error_;
  const uint64_t t_ns = origin_ns_ + ts.ns();
  if (t_ns / 1'000'000'000 > UINT32_MAX) {
    error_ = Error{fmt::format("capture '{}': timestamp {} ns is past the year 2106, the "
                               "limit of the pcap format; use PcapngWriter", path(), t_ns)};
    return error_;
  }
  const size_t caplen = std::min<size_t>(frame.size(), snaplen_);
  const RecordHeader r{static_cast<uint32_t>(t_ns / 1'000'000'000),
                       static_cast<uint32_t>(t_ns % 1'000'000'000),
                       static_cast<uint32_t>(caplen), static_cast<uint32_t>(frame.size())};
  Status s = sink_.append(bytes_of(r));
  if (s) s = sink_.append(frame.first(caplen));
  if (s) ++frames_;
  error_ = s;
  return s;
}

Status PcapWriter::close() {
  Status s = sink_.close();
  if (error_) error_ = s;
  return error_;
}

}  // namespace rtb::capture
