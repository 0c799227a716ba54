#include "pcap/pcapng_writer.h"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "pcap/pcapng_blocks.h"

namespace rtb::capture {
namespace {

constexpr uint8_t kNanosecondResolution = 9;  // if_tsresol: 10^-9 s
constexpr size_t kMaxOptionBytes = 0xFFFF;

// Fixed part of an Enhanced Packet Block: type, length, interface id, timestamp high and
// low, captured length, original length.
constexpr size_t kEpbHeaderBytes = 7 * sizeof(uint32_t);

std::span<const uint8_t> as_bytes(const uint32_t* words, size_t n) {
  return {reinterpret_cast<const uint8_t*>(words), n * sizeof(uint32_t)};
}

}  // namespace

Expected<PcapngWriter> PcapngWriter::create(const std::string& path, PcapngOptions options) {
  auto sink = FileSink::create(path);
  if (!sink) return sink.error();
  PcapngWriter w(std::move(sink).value(), std::move(options));
  if (Status s = w.write_section_header(); !s) return Error{s.message()};
  return w;
}

PcapngWriter::PcapngWriter(FileSink sink, PcapngOptions options)
    : sink_(std::move(sink)), options_(std::move(options)) {}

Status PcapngWriter::write_section_header() {
  pcapng::BlockBuilder b(pcapng::kSectionHeader);
  b.u32(pcapng::kByteOrderMagic);
  b.u16(1);                 // major version
  b.u16(0);                 // minor version
  b.u64(~uint64_t{0});      // section length: not specified
  if (!options_.application.empty()) b.option(pcapng::kShbUserAppl, options_.application);
  error_ = sink_.append(b.finish());
  return error_;
}

uint32_t PcapngWriter::add_interface(std::string_view name, LinkType link, uint32_t snaplen) {
  pcapng::BlockBuilder b(pcapng::kInterfaceDescription);
  b.u16(static_cast<uint16_t>(link));
  b.u16(0);  // reserved
  b.u32(snaplen);
  if (!name.empty()) b.option(pcapng::kIfName, name.substr(0, kMaxOptionBytes));
  const std::array<uint8_t, 1> tsresol = {kNanosecondResolution};
  b.option(pcapng::kIfTsresol, tsresol);
  if (error_) error_ = sink_.append(b.finish());
  snaplens_.push_back(snaplen);
  return static_cast<uint32_t>(snaplens_.size() - 1);
}

size_t PcapngWriter::packet_block_bytes(size_t captured, size_t comment_bytes) {
  const size_t options_bytes = comment_bytes == 0 ? 0 : 4 + pcapng::pad4(comment_bytes) + 4;
  return kEpbHeaderBytes + pcapng::pad4(captured) + options_bytes + 4;
}

Status PcapngWriter::write(uint32_t iface, Time ts, std::span<const uint8_t> frame,
                           std::string_view comment) {
  return write(iface, ts, frame, static_cast<uint32_t>(frame.size()), comment);
}

Status PcapngWriter::write(uint32_t iface, Time ts, std::span<const uint8_t> frame,
                           uint32_t original_len, std::string_view comment) {
  if (!error_) return error_;
  if (iface >= snaplens_.size()) {
    return Error{fmt::format("capture '{}': interface {} does not exist ({} added); call "
                             "add_interface() first", path(), iface, snaplens_.size())};
  }
  if (comment.size() > kMaxOptionBytes) {
    return Error{fmt::format("capture '{}': frame comment of {} bytes is longer than the "
                             "pcapng limit of {} bytes", path(), comment.size(),
                             kMaxOptionBytes)};
  }
  const uint32_t snap = snaplens_[iface];
  const size_t caplen = snap == 0 ? frame.size() : std::min<size_t>(frame.size(), snap);
  const size_t total = packet_block_bytes(caplen, comment.size());

  const uint64_t t_ns = options_.origin_ns + ts.ns();
  const uint32_t head[7] = {pcapng::kEnhancedPacket, static_cast<uint32_t>(total), iface,
                            static_cast<uint32_t>(t_ns >> 32), static_cast<uint32_t>(t_ns),
                            static_cast<uint32_t>(caplen), std::max(original_len, static_cast<uint32_t>(caplen))};
  Status s = sink_.append(as_bytes(head, 7));
  if (s) s = sink_.append(frame.first(caplen));
  if (s) s = sink_.append_zeros(pcapng::pad4(caplen) - caplen);
  if (s && !comment.empty()) {
    const uint16_t opt[2] = {pcapng::kOptComment, static_cast<uint16_t>(comment.size())};
    s = sink_.append({reinterpret_cast<const uint8_t*>(opt), sizeof opt});
    if (s) s = sink_.append({reinterpret_cast<const uint8_t*>(comment.data()), comment.size()});
    if (s) s = sink_.append_zeros(pcapng::pad4(comment.size()) - comment.size() + 4);
  }
  const auto trailer = static_cast<uint32_t>(total);
  if (s) s = sink_.append(as_bytes(&trailer, 1));
  if (s) ++frames_;
  error_ = s;
  return s;
}

Status PcapngWriter::close() {
  Status s = sink_.close();
  if (error_) error_ = s;
  return error_;
}

}  // namespace rtb::capture
