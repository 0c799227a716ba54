// A bounded, deterministic fuzz run of the parser inside the test suite.
//
// Inputs: mutations of valid frames of every kind (bit flips, byte writes, length-field
// edits, truncation, extension) plus random bytes. Each input is parsed from an exact-size
// copy that ends at a PROT_NONE guard page (and, alternately, starts right after one), so
// a read past either end of the buffer faults instead of passing unnoticed, without ASan.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "core/rng.h"
#include "tests/wire/test_util.h"
#include "wire/opcode.h"
#include "wire/parser.h"
#include "wire/pfc.h"

namespace rtb::wire {
namespace {

// [guard page][kPages data pages][guard page]
class GuardedBuffer {
 public:
  static constexpr size_t kPages = 2;
  GuardedBuffer() : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
    void* m = mmap(nullptr, page_ * (kPages + 2), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(m, MAP_FAILED);
    base_ = static_cast<uint8_t*>(m);
    mprotect(base_, page_, PROT_NONE);
    mprotect(base_ + page_ * (kPages + 1), page_, PROT_NONE);
  }
  ~GuardedBuffer() { munmap(base_, page_ * (kPages + 2)); }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  size_t capacity() const { return page_ * kPages; }
  // The copy ends exactly at the upper guard page.
  const uint8_t* at_end(const std::vector<uint8_t>& in) {
    uint8_t* p = base_ + page_ * (kPages + 1) - in.size();
    if (!in.empty()) std::memcpy(p, in.data(), in.size());
    return p;
  }
  // The copy starts exactly after the lower guard page.
  const uint8_t* at_start(const std::vector<uint8_t>& in) {
    uint8_t* p = base_ + page_;
    if (!in.empty()) std::memcpy(p, in.data(), in.size());
    return p;
  }

 private:
  size_t page_;
  uint8_t* base_ = nullptr;
};

std::vector<std::vector<uint8_t>> seed_frames() {
  std::vector<std::vector<uint8_t>> out;
  FlowSpec s = test::scapy_requester_spec();
  s.path_mtu = 1024;
  for (bool tagged : {false, true}) {
    s.vlan = tagged ? std::optional<Vlan>(Vlan{3, 5}) : std::nullopt;
    const auto t = FlowTemplate::make(s);
    for (uint8_t opc : {op::kSendFirst, op::kSendLastImm, op::kWriteFirst, op::kWriteOnlyImm,
                        op::kWriteMiddle}) {
      for (uint32_t len : {0u, 3u, 64u, 1024u}) {
        test::FrameBuffer b(len);
        const FrameSpan f = t->build_data(DataFields{opc, 77, len, true, false, Ecn::Ce,
                                                     RethFields{1, 2, 3}, 4},
                                          b.payload());
        out.emplace_back(f.data, f.data + f.len);
      }
    }
    uint8_t buf[128];
    FrameSpan f = t->build_ack(AckFields{1, aeth_nak(NakCode::PsnSequenceError), 2, Ecn::Ect0}, buf);
    out.emplace_back(f.data, f.data + f.len);
    f = t->build_cnp(CnpFields{}, buf);
    out.emplace_back(f.data, f.data + f.len);
    PfcFields p;
    p.tagged = tagged;
    p.vector = 0xFF;
    const uint32_t n = build_pfc(p, buf);
    out.emplace_back(buf, buf + n);
  }
  return out;
}

std::vector<uint8_t> mutate(const std::vector<uint8_t>& base, Rng& rng) {
  std::vector<uint8_t> f = base;
  const int edits = 1 + static_cast<int>(rng.uniform_int(4));
  for (int i = 0; i < edits; ++i) {
    switch (rng.uniform_int(6)) {
      case 0:  // flip a bit anywhere
        if (!f.empty()) f[rng.uniform_int(f.size())] ^= static_cast<uint8_t>(1u << rng.uniform_int(8));
        break;
      case 1:  // overwrite a header byte (the first 80 bytes hold every header)
        if (!f.empty()) f[rng.uniform_int(std::min<size_t>(f.size(), 80))] = static_cast<uint8_t>(rng.next_u64());
        break;
      case 2:  // plausible or absurd length fields (IPv4 total length, UDP length)
        for (size_t off : {size_t{16}, size_t{38}, size_t{20}, size_t{42}}) {
          if (off + 1 < f.size() && rng.bernoulli(0.5))
            store_be16(f.data() + off, static_cast<uint16_t>(rng.bernoulli(0.5) ? rng.next_u64()
                                                             : f.size() - rng.uniform_int(40)));
        }
        break;
      case 3:  // truncate
        f.resize(rng.uniform_int(f.size() + 1));
        break;
      case 4:  // extend with random bytes
        for (uint64_t n = rng.uniform_int(16); n > 0; --n) f.push_back(static_cast<uint8_t>(rng.next_u64()));
        break;
      default:  // IHL, opcode, pad/TVer bytes
        for (size_t off : {size_t{14}, size_t{42}, size_t{43}}) {
          if (off < f.size() && rng.bernoulli(0.4)) f[off] = static_cast<uint8_t>(rng.next_u64());
        }
    }
  }
  return f;
}

// What any accepted RoCE frame must satisfy: everything it reports lies inside the input.
void check_invariants(const ParsedFrame& p, size_t len) {
  if (p.cls == FrameClass::Other || p.cls == FrameClass::Pfc) return;
  ASSERT_LE(size_t{p.payload_offset} + p.payload_bytes + p.pad + 4, len);
  ASSERT_LE(p.pad, 3);
}

TEST(ParserRobustness, BoundedFuzzRun) {
  const auto seeds = seed_frames();
  GuardedBuffer guard;
  Rng rng(2024, 2);
  ParseCounters counters;
  ParsedFrame p;
  constexpr int kInputs = 300000;
  for (int i = 0; i < kInputs; ++i) {
    std::vector<uint8_t> in;
    if (i % 8 == 0) {
      in.resize(rng.uniform_int(200));
      for (auto& b : in) b = static_cast<uint8_t>(rng.next_u64());
    } else {
      in = mutate(seeds[rng.uniform_int(seeds.size())], rng);
    }
    if (in.size() > guard.capacity()) in.resize(guard.capacity());
    ParseOptions o;
    o.check_icrc = (i & 1) != 0;
    o.int_dscp = (i % 5 == 0) ? 26 : 0xFF;
    o.int_trailer_bytes = 8;
    const uint8_t* data = (i & 2) ? guard.at_end(in) : guard.at_start(in);
    const auto len = static_cast<uint32_t>(in.size());
    if (parse_frame(data, len, o, p, counters) == ParseError::Ok) check_invariants(p, in.size());
  }
  uint64_t total = 0;
  for (uint64_t c : counters.by_reason) total += c;
  EXPECT_EQ(total, static_cast<uint64_t>(kInputs));
  // The run reaches deep: accepted frames and failures at the innermost layers.
  EXPECT_GT(counters[ParseError::Ok], 1000u);
  EXPECT_GT(counters[ParseError::BadIcrc], 100u);
  EXPECT_GT(counters[ParseError::UnknownOpcode], 100u);
  EXPECT_GT(counters[ParseError::BadUdpLength], 100u);
}

TEST(ParserRobustness, EveryPrefixOfEverySeedAtTheGuardPage) {
  GuardedBuffer guard;
  ParsedFrame p;
  ParseOptions o;
  o.check_icrc = true;
  for (const auto& f : seed_frames()) {
    for (size_t n = 0; n <= f.size(); ++n) {
      std::vector<uint8_t> cut(f.begin(), f.begin() + static_cast<long>(n));
      const ParseError e = parse_frame(guard.at_end(cut), static_cast<uint32_t>(n), o, p);
      if (n == f.size()) {
        EXPECT_EQ(e, ParseError::Ok);
      }
    }
  }
}

}  // namespace
}  // namespace rtb::wire
