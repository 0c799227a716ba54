#include "wire/frame_samples.h"

#include <stdexcept>

#include "wire/flow_template.h"
#include "wire/opcode.h"
#include "wire/payload_pattern.h"
#include "wire/pfc.h"

namespace rtb::wire {
namespace {

using nlohmann::json;

json roce_json(const FlowTemplate& t, const char* kind, uint8_t opcode, uint32_t psn, Ecn ecn,
               uint8_t byte4) {
  return json{{"kind", kind},     {"opcode", opcode}, {"qpn", t.spec().dst_qpn},
              {"psn", psn},       {"ecn", static_cast<int>(ecn)}, {"dscp", t.spec().dscp},
              {"byte4", byte4},   {"sport", t.udp_sport()},
              {"pcp", t.spec().vlan ? t.spec().vlan->pcp : -1}};
}

class Emitter {
 public:
  void add(const FrameSpan& f, json j) {
    if (!f.ok()) throw std::logic_error("the builder rejected a catalog frame");
    j["len"] = f.len;
    samples_.push_back(SampleFrame{j["kind"].get<std::string>(),
                                   std::vector<uint8_t>(f.data, f.data + f.len), std::move(j)});
  }
  std::vector<SampleFrame> take() { return std::move(samples_); }

 private:
  std::vector<SampleFrame> samples_;
};

void emit_data(Emitter& e, const FlowTemplate& t, std::vector<uint8_t>& buf) {
  struct D { const char* kind; uint8_t opcode; uint32_t len; Ecn ecn; };
  const D ds[] = {{"send_first", op::kSendFirst, 1024, Ecn::Ect0},
                  {"send_middle", op::kSendMiddle, 1024, Ecn::Ce},
                  {"send_last", op::kSendLast, 333, Ecn::Ect0},
                  {"send_only", op::kSendOnly, 0, Ecn::Ect1},
                  {"write_first", op::kWriteFirst, 1024, Ecn::Ect0},
                  {"write_middle", op::kWriteMiddle, 1024, Ecn::Ce},
                  {"write_last", op::kWriteLast, 17, Ecn::NotEct},
                  {"write_only", op::kWriteOnly, 4, Ecn::Ect0}};
  uint32_t psn = 0xFFFFFD;
  for (const D& d : ds) {
    uint8_t* payload = buf.data() + kMaxHeaderBytes;
    write_payload_pattern(payload, static_cast<uint32_t>(buf.size() - kMaxHeaderBytes));
    const RethFields reth{0x00007f0000001000ULL + psn, 0xABCDEF, 4096};
    const DataFields f{d.opcode, psn, d.len, d.len < 1024, false, d.ecn, reth, 0};
    json j = roce_json(t, d.kind, d.opcode, psn, d.ecn, 0);
    j["payload"] = d.len;
    if (opcode_info(d.opcode).ext & kExtReth)
      j["reth"] = {{"va", reth.va}, {"rkey", reth.rkey}, {"dmalen", reth.dma_length}};
    e.add(t.build_data(f, payload), j);
    psn = (psn + 1) & kPsnMask;
  }
}

void emit_control(Emitter& e, const FlowTemplate& rsp, const FlowTemplate& cnp) {
  uint8_t out[128];
  struct A { const char* kind; uint8_t syndrome; };
  const A as[] = {{"ack", aeth_ack(31)},
                  {"nak_psn_sequence_error", aeth_nak(NakCode::PsnSequenceError)},
                  {"nak_remote_access_error", aeth_nak(NakCode::RemoteAccessError)},
                  {"rnr_nak", aeth_rnr_nak(14)}};
  uint32_t msn = 1;
  for (const A& a : as) {
    json j = roce_json(rsp, a.kind, op::kAcknowledge, 0x12345, Ecn::Ect0, 0);
    j["syndrome"] = a.syndrome;
    j["msn"] = msn;
    e.add(rsp.build_ack(AckFields{0x12345, a.syndrome, msn++, Ecn::Ect0}, out), j);
  }
  // An ACK echoing CE-marked data: BTH byte 4 BECN (RoCEv2 Annex A17).
  json becn = roce_json(rsp, "ack_becn", op::kAcknowledge, 0x12346, Ecn::Ect0, Bth::kBecn);
  becn["syndrome"] = aeth_ack(31);
  becn["msn"] = msn;
  e.add(rsp.build_ack(AckFields{0x12346, aeth_ack(31), msn, Ecn::Ect0, true}, out), becn);
  e.add(cnp.build_cnp(CnpFields{Ecn::Ect0}, out),
        roce_json(cnp, "cnp", op::kCnp, 0, Ecn::Ect0, Bth::kBecn));
}

void emit_pfc(Emitter& e) {
  uint8_t out[64];
  PfcFields p;
  p.src = MacAddr{{2, 0, 0, 0, 0, 2}};
  p.vector = 0x48;  // priorities 3 and 6
  p.quanta[3] = 0xFFFF;
  p.quanta[6] = 1234;
  const auto q = [](const PfcFields& f) { return json(f.quanta); };
  e.add(FrameSpan{out, build_pfc(p, out)}, json{{"kind", "pfc_xoff"}, {"vector", p.vector}, {"quanta", q(p)}});
  p.quanta = {};
  e.add(FrameSpan{out, build_pfc(p, out)}, json{{"kind", "pfc_xon"}, {"vector", p.vector}, {"quanta", q(p)}});
}

}  // namespace

FlowSpec sample_requester_spec(bool tagged) {
  FlowSpec s;
  s.src_mac = MacAddr{{2, 0, 0, 0, 0, 1}};
  s.dst_mac = MacAddr{{2, 0, 0, 0, 0, 2}};
  s.src_ip = 0xC0000201;
  s.dst_ip = 0xC0000202;
  s.src_qpn = 0x456;
  s.dst_qpn = 0x123;
  s.dscp = 26;
  s.path_mtu = 1024;
  if (tagged) s.vlan = Vlan{3, 10};
  return s;  // UDP source port from the QPs (0xEDD1)
}

FlowSpec reversed(FlowSpec s) {
  std::swap(s.src_mac, s.dst_mac);
  std::swap(s.src_ip, s.dst_ip);
  std::swap(s.src_qpn, s.dst_qpn);
  return s;
}

std::vector<SampleFrame> sample_frames() {
  Emitter e;
  std::vector<uint8_t> buf(kMaxHeaderBytes + 1024 + kTailBytes);
  for (bool tagged : {false, true}) emit_data(e, *FlowTemplate::make(sample_requester_spec(tagged)), buf);
  FlowSpec c = reversed(sample_requester_spec());
  c.dscp = 48;        // np_cnp_dscp default (reference §1.3)
  c.udp_sport = 0;    // as ConnectX-4 Lx sends it
  c.dst_qpn = 0x456;  // the sender of the congested flow
  emit_control(e, *FlowTemplate::make(reversed(sample_requester_spec())), *FlowTemplate::make(c));
  emit_pfc(e);
  return e.take();
}

}  // namespace rtb::wire
