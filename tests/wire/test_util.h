// Helpers shared by the wire tests: hex frames, reference flows, capture paths, and a
// buffer with guard pages for checking that nothing reads or writes outside a frame.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wire/flow_template.h"
#include "wire/frame_samples.h"
#include "wire/payload_pattern.h"

namespace rtb::wire::test {

inline std::vector<uint8_t> hex(std::string_view s) {
  std::vector<uint8_t> out;
  int hi = -1;
  for (char ch : s) {
    int v = -1;
    if (ch >= '0' && ch <= '9') v = ch - '0';
    if (ch >= 'a' && ch <= 'f') v = ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') v = ch - 'A' + 10;
    if (v < 0) continue;
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<uint8_t>(hi * 16 + v));
      hi = -1;
    }
  }
  return out;
}

inline std::string shared_captures_dir() {
  const char* root = std::getenv("ROCETB_SHARED");
  return std::string(root != nullptr ? root : "../shared") + "/captures";
}

inline std::string shared_capture(const std::string& name) { return shared_captures_dir() + "/" + name; }

// Why the reference captures cannot be read (a clone without the shared folder beside it),
// or nothing when they can.
inline std::optional<std::string> shared_captures_missing() {
  std::error_code ec;
  if (std::filesystem::is_directory(shared_captures_dir(), ec)) return std::nullopt;
  return "the reference captures folder " + shared_captures_dir() +
         " is missing: set ROCETB_SHARED to the shared folder (its captures/ subfolder), or clone the "
         "repository beside it";
}

// First statement of a test that reads the reference captures: skips it, naming the folder.
#define SKIP_WITHOUT_SHARED_CAPTURES()                                    \
  if (const auto missing = ::rtb::wire::test::shared_captures_missing()) \
  GTEST_SKIP() << *missing

// The flows of captures/README.md §3 (scapy_roce_reference.pcap): requester
// 02:00:00:00:00:01 / 192.0.2.1 / QPN 0x456, responder 02:00:00:00:00:02 / 192.0.2.2 /
// QPN 0x123, DSCP 26, UDP sport 49152, PMTU 256, MigReq 0.
inline FlowSpec scapy_requester_spec() {
  FlowSpec s = sample_requester_spec();
  s.udp_sport = 49152;
  s.path_mtu = 256;
  return s;
}
inline FlowSpec scapy_responder_spec() { return reversed(scapy_requester_spec()); }

// A buffer for one frame: kMaxHeaderBytes of headroom, the payload pattern, tail room.
struct FrameBuffer {
  explicit FrameBuffer(uint32_t payload_bytes, uint32_t tail = 512)
      : bytes(kMaxHeaderBytes + payload_bytes + tail, 0xEE) {
    write_payload_pattern(payload(), payload_bytes);
  }
  uint8_t* payload() { return bytes.data() + kMaxHeaderBytes; }
  std::vector<uint8_t> bytes;
};

}  // namespace rtb::wire::test
