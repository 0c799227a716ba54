#include "wire/pfc.h"

#include <cstring>

namespace rtb::wire {

uint32_t build_pfc(const PfcFields& f, uint8_t* out) {
  std::memset(out, 0, kPfcFrameBytes);  // the pad of Annex 31D is zeros
  const uint32_t l2 = write_l2(out, kMacControlDst, f.src, f.tagged ? &f.vlan : nullptr,
                               kEtherTypeMacControl);
  auto* body = reinterpret_cast<PfcBody*>(out + l2);
  store_be16(body->opcode, kMacControlPfc);
  body->class_enable[0] = 0;
  body->class_enable[1] = f.vector;
  for (int i = 0; i < 8; ++i) store_be16(body->time[i], f.quanta[static_cast<size_t>(i)]);
  return kPfcFrameBytes;
}

}  // namespace rtb::wire
