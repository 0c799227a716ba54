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
  return wire::set_fastest_crc_path();  // avx512 where the CPU has it, else sse42
}

}  // namespace rtb::analyze
