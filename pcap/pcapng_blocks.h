// pcapng block encoding (IETF draft-ietf-opsawg-pcapng): block and option layout in host
// byte order, used by PcapngWriter. Every block is
//   u32 type | u32 total length | body (padded to 32 bits) | options | u32 total length
// and options are  u16 code | u16 length | value padded to 32 bits, ended by opt_endofopt.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace rtb::capture::pcapng {

constexpr uint32_t kSectionHeader = 0x0A0D0D0A;
constexpr uint32_t kInterfaceDescription = 0x00000001;
constexpr uint32_t kEnhancedPacket = 0x00000006;
constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;

constexpr uint16_t kOptEndOfOpt = 0;
constexpr uint16_t kOptComment = 1;
constexpr uint16_t kShbUserAppl = 4;
constexpr uint16_t kIfName = 2;
constexpr uint16_t kIfTsresol = 9;

constexpr size_t pad4(size_t n) { return (n + 3) & ~size_t{3}; }

// Builds one block in memory (blocks other than packet data are small).
class BlockBuilder {
 public:
  explicit BlockBuilder(uint32_t type);
  void u16(uint16_t v);
  void u32(uint32_t v);
  void u64(uint64_t v);
  void bytes(std::span<const uint8_t> b);  // padded to 32 bits
  void option(uint16_t code, std::span<const uint8_t> value);
  void option(uint16_t code, std::string_view value);
  // Appends opt_endofopt (when any option was added) and the trailing length, fills in
  // the leading length, and returns the finished block.
  const std::vector<uint8_t>& finish();

 private:
  std::vector<uint8_t> b_;
  bool has_options_ = false;
};

}  // namespace rtb::capture::pcapng
