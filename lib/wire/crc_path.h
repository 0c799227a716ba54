// Which algorithm computes CRC-32 in this process, chosen once at start and reported in
// run.json ("icrc_crc_path").
//
//   isal    Intel ISA-L's crc32_gzip_refl (Debian's libisal, 2.30): the same CRC-32/IEEE,
//           with ISA-L's own dispatch to its fastest code for the CPU (eight 128-bit
//           PCLMULQDQ folds in flight, 128 bytes a step; AVX-512/VPCLMULQDQ where present;
//           PMULL on arm64; a slicing table without them). DPDK's handlers below fold one
//           128-bit lane (sse42) at a time, so each step waits for the one before: on this
//           project's AMD EPYC VM a 1,024-byte CRC took 230-290 ns with sse42 and 115-160
//           with isal. The fastest path, wherever it is linked.
//
// DPDK 22.11 (lib/net/rte_net_crc.c, rte_net_crc_set_alg) offers
//   scalar  a 256-entry table, one byte per step; needs nothing
//   sse42   SSE4.2/PCLMULQDQ folding, 16 bytes per step; x86-64 with PCLMULQDQ and an EAL
//           max SIMD bitwidth >= 128 (the EAL's default is 256)
//   avx512  AVX-512/VPCLMULQDQ folding, 64 bytes per step; AVX512F/BW/DQ/VL, PCLMULQDQ,
//           VPCLMULQDQ and a max SIMD bitwidth >= 512 (the EAL's default cap is 256:
//           set_fastest_crc_path raises it to 512 on a CPU that has all of these, unless
//           the EAL was started with --force-max-simd-bitwidth, which it keeps)
//   neon    NEON/PMULL, arm64 with PMULL and a bitwidth >= 128
// and falls back (avx512 -> sse42 -> scalar, neon -> scalar) when a requirement is
// missing. rte_net_crc_set_alg says nothing about what it picked, so set_crc_path
// applies the same rules to the CPU flags and the EAL's bitwidth; it assumes the DPDK
// build compiled the handler it asks for, as DPDK's meson build does for every
// handler the compiler supports (the distribution's 22.11 library has all x86 ones).
//
// Not thread-safe: choose before the datapath lcores start.
#pragma once

#include <cstdint>

namespace rtb::wire {

enum class CrcPath : uint8_t { Scalar, Sse42, Neon, Avx512, Isal };

// "scalar", "sse42", "neon", "avx512", "isal".
const char* crc_path_name(CrcPath p);

// Selects rte_net_crc's scalar algorithm the first time it is called: its own default
// would probe the CPU on the first CRC and, before the EAL, log that it cannot use SIMD.
// Cheap afterwards; crc32_eth() calls it.
void crc_path_init();

// Asks for `wanted` (rte_net_crc's algorithm, or isal); returns the algorithm crc32_eth
// uses from now on.
CrcPath set_crc_path(CrcPath wanted);

// The fastest path, and the one in use from the start: isal. Needs no EAL.
CrcPath set_fastest_crc_path();

// The fastest path DPDK's rte_net_crc has for this architecture, asked for: avx512 on
// x86-64 (it falls back to sse42; the EAL's SIMD cap is raised to 512 bits for it where
// the CPU has AVX-512 and VPCLMULQDQ), neon on arm64. Needs the EAL running (or its SIMD
// bit width set) for anything but scalar. For comparisons (wire_bench) and tests.
CrcPath set_fastest_dpdk_crc_path();

// The path in use: isal unless a set_ call chose another.
CrcPath crc_path();

}  // namespace rtb::wire
