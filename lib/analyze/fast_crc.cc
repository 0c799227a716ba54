// rte_vect_set_max_simd_bitwidth() is still experimental in DPDK 22.11.
#define ALLOW_EXPERIMENTAL_API 1

#include "analyze/fast_crc.h"

#include <rte_config.h>

// DPDK 22.11 declares the rte_vect functions outside its extern "C" block.
extern "C" {
#include <generic/rte_vect.h>
}

namespace rtb::analyze {

wire::CrcPath use_fast_crc_without_eal() {
  if (rte_vect_get_max_simd_bitwidth() == 0) (void)rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_256);
  // Asked for by name: asking for AVX-512 first makes DPDK log its refusal.
#if defined(RTE_ARCH_X86)
  return wire::set_crc_path(wire::CrcPath::Sse42);
#else
  return wire::set_fastest_crc_path();
#endif
}

}  // namespace rtb::analyze
