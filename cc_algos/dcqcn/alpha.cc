#include "cc_algos/dcqcn/alpha.h"

namespace rtb::cc::dcqcn {

void AlphaDecayTable::build(uint32_t g) {
  for (uint32_t a = 0; a <= kAlphaOne; ++a) after_[0][a] = static_cast<uint16_t>(alpha_decay_step(a, g));
  for (int j = 1; j < kLevels; ++j)
    for (uint32_t a = 0; a <= kAlphaOne; ++a) after_[j][a] = after_[j - 1][after_[j - 1][a]];
}

}  // namespace rtb::cc::dcqcn
