// The ICRC check at SIMD speed without starting DPDK's EAL.
//
// rte_net_crc picks its SSE4.2/PCLMULQDQ (or NEON) path only when the EAL's maximum SIMD
// bit width allows it, and that width is 0 until rte_eal_init sets its default (256). The
// analyzer needs no EAL, so it sets the same default itself through
// rte_vect_set_max_simd_bitwidth, which only writes that setting, and then asks for the
// fastest path (wire/crc_path.h: AVX-512/VPCLMULQDQ where the CPU has it, else SSE4.2 on
// x86-64). The analyzer then runs about twice as fast on small RoCE frames; the results
// are identical (the wire tests run every path).
#pragma once

#include "wire/crc_path.h"

namespace rtb::analyze {

// Call before the first frame; returns the path in use.
wire::CrcPath use_fast_crc_without_eal();

}  // namespace rtb::analyze
