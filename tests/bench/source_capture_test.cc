// The bench sources' capture: every frame parses with a valid ICRC, and only a payload
// that is a path MTU is sent as Middle packets (the First and Middle packets of a message
// carry exactly the path MTU; any other payload goes as one-packet WRITE Only messages).
#include "bench/source_capture.h"

#include <pcap/pcap.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "wire/opcode.h"
#include "wire/parser.h"

namespace rtb::bench {
namespace {

struct Read {
  uint32_t frames = 0;
  uint32_t bad = 0;
  uint8_t opcode = 0;
  uint32_t payload = 0;
  uint32_t dma_length = 0;
};

Read read_back(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE];
  std::unique_ptr<pcap_t, decltype(&pcap_close)> p(pcap_open_offline(path.c_str(), err), &pcap_close);
  Read r;
  if (!p) return r;
  pcap_pkthdr* h = nullptr;
  const u_char* data = nullptr;
  while (pcap_next_ex(p.get(), &h, &data) == 1) {
    wire::ParsedFrame f;
    const wire::ParseOptions opt{.check_icrc = true};
    if (wire::parse_frame(data, h->caplen, opt, f) != wire::ParseError::Ok) ++r.bad;
    ++r.frames;
    r.opcode = f.opcode;
    r.payload = f.payload_bytes;
    r.dma_length = f.reth.dma_length;
  }
  return r;
}

TEST(SourceCapture, OnlyAPathMtuPayloadIsSentAsMiddlePackets) {
  const std::string path = ::testing::TempDir() + "source_capture_test.pcap";
  struct Case {
    uint32_t payload;
    uint8_t opcode;
  };
  for (const Case c : {Case{1'024, wire::op::kWriteMiddle}, Case{100, wire::op::kWriteOnly},
                       Case{2'000, wire::op::kWriteOnly}, Case{4'096, wire::op::kWriteMiddle}}) {
    auto len = write_source_capture(path, 8, c.payload, 2);
    ASSERT_TRUE(len.ok()) << c.payload << ": " << len.error().message;
    const Read r = read_back(path);
    EXPECT_EQ(r.frames, 8u) << c.payload;
    EXPECT_EQ(r.bad, 0u) << c.payload;
    EXPECT_EQ(r.opcode, c.opcode) << c.payload;
    EXPECT_EQ(r.payload, c.payload);
    if (c.opcode == wire::op::kWriteOnly) {
      EXPECT_EQ(r.dma_length, c.payload);
    }
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rtb::bench
