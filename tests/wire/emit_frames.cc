// Writes a pcapng holding every frame kind the builders make (wire/frame_samples.h), plus
// a JSON list of what was built, for tshark_scapy_check.py to compare against tshark's and
// scapy's reading.
//   wire_emit_frames OUT.pcapng OUT.json
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "pcap/pcapng_writer.h"
#include "wire/frame_samples.h"

namespace {

int run(const std::string& pcap_path, const std::string& json_path) {
  auto w = rtb::capture::PcapngWriter::create(pcap_path);
  if (!w.ok()) {
    std::fprintf(stderr, "wire_emit_frames: %s\n", w.error().message.c_str());
    return 1;
  }
  const uint32_t iface = w.value().add_interface("wire");
  nlohmann::json list = nlohmann::json::array();
  uint64_t n = 0;
  for (const rtb::wire::SampleFrame& f : rtb::wire::sample_frames()) {
    if (rtb::Status s = w.value().write(iface, rtb::Time::us(10) * n++, f.bytes); !s) {
      std::fprintf(stderr, "wire_emit_frames: %s\n", s.message().c_str());
      return 1;
    }
    list.push_back(f.built);
  }
  if (rtb::Status s = w.value().close(); !s) {
    std::fprintf(stderr, "wire_emit_frames: %s\n", s.message().c_str());
    return 1;
  }
  std::ofstream(json_path) << list.dump(1) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OUT.pcapng OUT.json\n", argv[0]);
    return 2;
  }
  return run(argv[1], argv[2]);
}
