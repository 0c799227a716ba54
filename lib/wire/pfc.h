// IEEE 802.1Qbb Priority-based Flow Control frame (802.3 Annex 31D MAC Control,
// reference §3.1):
//   DA 01:80:C2:00:00:01 | SA | [802.1Q tag] | EtherType 0x8808 | opcode 0x0101 |
//   class-enable vector (2 B: reserved octet, then e[7..0]) | time[0..7] (2 B each) | pad
// padded with zeros to the 60-byte minimum frame (without FCS), also when tagged.
#pragma once

#include <array>
#include <cstdint>

#include "wire/bytes.h"
#include "core/units.h"
#include "wire/ethernet.h"

namespace rtb::wire {

inline constexpr uint16_t kMacControlPfc = 0x0101;    // class-based flow control
inline constexpr uint16_t kMacControlPause = 0x0001;  // 802.3x PAUSE (not used by rocetb)
inline constexpr uint32_t kPfcFrameBytes = kMinFrameNoFcs;

// The MAC Control payload after the EtherType: 36 bytes.
struct PfcBody {
  uint8_t opcode[2];
  uint8_t class_enable[2];
  uint8_t time[8][2];

  uint16_t mac_control_opcode() const { return load_be16(opcode); }
  // Bit n set: time[n] is valid for priority n. The upper octet is reserved (zero).
  uint8_t vector() const { return class_enable[1]; }
  uint8_t reserved_vector_octet() const { return class_enable[0]; }
  uint16_t quanta(int prio) const { return load_be16(time[prio]); }
};
static_assert(sizeof(PfcBody) == 20 && alignof(PfcBody) == 1);

// What a PFC frame says: priorities whose enable bit is set pause for quanta[n] x 512 bit
// times; quanta 0 with the bit set resumes (XON).
struct PfcFields {
  MacAddr src{};
  uint8_t vector = 0;
  std::array<uint16_t, 8> quanta{};
  bool tagged = false;
  Vlan vlan{};  // used when tagged
  constexpr bool operator==(const PfcFields&) const = default;
};

// Writes a PFC frame into `out` (at least kPfcFrameBytes bytes) and returns its length
// (always kPfcFrameBytes). Quanta of priorities whose enable bit is clear are written as
// given (normally 0).
uint32_t build_pfc(const PfcFields& f, uint8_t* out);

// Pause duration of `quanta` on a link of `link_bps`: one quantum is 512 bit times
// (802.3 Annex 31B.2), in picoseconds, rounded down.
constexpr uint64_t pfc_pause_ps(uint16_t quanta, uint64_t link_bps) {
  return static_cast<uint64_t>(static_cast<rtb::u128>(quanta) * 512u *
                               1'000'000'000'000ULL / link_bps);
}

}  // namespace rtb::wire
