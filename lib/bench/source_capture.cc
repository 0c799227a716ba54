#include "bench/source_capture.h"

#include <pcap/pcap.h>

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "wire/flow_template.h"
#include "wire/frame_samples.h"
#include "wire/frame_size.h"
#include "wire/opcode.h"
#include "wire/payload_pattern.h"

namespace rtb::bench {

Expected<uint32_t> write_source_capture(const std::string& path, uint32_t frames, uint32_t payload,
                                        uint32_t qps, uint32_t ack_every) {
  if (qps == 0) return Error{"internal error: a source capture of 0 QPs"};
  std::vector<wire::FlowTemplate> flows;
  for (uint32_t q = 0; q < qps; ++q) {
    wire::FlowSpec spec = wire::sample_requester_spec();
    spec.dst_qpn = kSourceFirstQpn + q;
    spec.src_qpn = kSourcePeerQpn + q;
    spec.path_mtu = wire::path_mtu_for(payload);
    auto flow = wire::FlowTemplate::make(spec);
    if (!flow) return Error{flow.error().message};
    flows.push_back(std::move(flow).value());
  }
  std::unique_ptr<pcap_t, decltype(&pcap_close)> dead(pcap_open_dead(DLT_EN10MB, 65'535), &pcap_close);
  if (!dead) return Error{"libpcap: pcap_open_dead failed"};
  std::unique_ptr<pcap_dumper_t, decltype(&pcap_dump_close)> out(pcap_dump_open(dead.get(), path.c_str()),
                                                                   &pcap_dump_close);
  if (!out) return Error{fmt::format("{}: cannot write the source capture: {}", path, pcap_geterr(dead.get()))};
  // The First and Middle packets of a message carry exactly the path MTU (IBTA Vol. 1;
  // wire/README.md). A payload that is a path MTU goes as Middle packets of one long message; any other
  // as one-packet messages (WRITE Only, whose RETH names `payload` bytes).
  const bool middle = payload == wire::path_mtu_for(payload);
  std::vector<uint8_t> buf(wire::kMaxHeaderBytes + payload + 64);
  uint32_t len = 0;
  for (uint32_t i = 0; i < frames; ++i) {
    uint8_t* body = buf.data() + wire::kMaxHeaderBytes;
    wire::write_payload_pattern(body, payload + 64);
    const uint32_t psn = i / qps;
    const bool ack_req = ack_every > 0 && psn % ack_every == ack_every - 1;
    const wire::RethFields reth{.va = uint64_t{psn} * payload, .rkey = 0x1000, .dma_length = payload};
    const wire::DataFields f{middle ? wire::op::kWriteMiddle : wire::op::kWriteOnly,
                             psn, payload, ack_req, false, wire::Ecn::Ect0, middle ? wire::RethFields{} : reth, 0};
    const wire::FrameSpan s = flows[i % qps].build_data(f, body);
    if (!s.ok()) return Error{fmt::format("internal error: the wire layer refused a {} B WRITE frame", payload)};
    pcap_pkthdr h{};
    h.ts.tv_usec = static_cast<suseconds_t>(i);
    h.caplen = h.len = s.len;
    pcap_dump(reinterpret_cast<u_char*>(out.get()), &h, s.data);
    len = s.len;
  }
  return len;
}

}  // namespace rtb::bench
