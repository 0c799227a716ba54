// libFuzzer target for the frame parser (lib/wire/README.md "Fuzzing").
// The first input byte picks options (link type, ICRC and checksum checking, INT
// trailer); the rest is the frame. Built with -fsanitize=fuzzer,address,undefined, so
// any read outside the input is reported.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wire/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  rtb::wire::ParseOptions o;
  const uint8_t sel = data[0];
  o.link = (sel & 1) ? rtb::wire::LinkType::RawIpv4 : rtb::wire::LinkType::Ethernet;
  o.check_icrc = (sel & 2) != 0;
  o.check_ipv4_checksum = (sel & 4) != 0;
  if (sel & 8) {
    o.int_dscp = static_cast<uint8_t>(sel >> 4);
    o.int_trailer_bytes = 8;
  }
  // An exact-size heap copy: ASan flags a read one byte past it.
  const std::vector<uint8_t> frame(data + 1, data + size);
  rtb::wire::ParsedFrame p;
  rtb::wire::ParseCounters c;
  rtb::wire::parse_frame(frame.data(), static_cast<uint32_t>(frame.size()), o, p, c);
  return 0;
}
