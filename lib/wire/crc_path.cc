// rte_vect_get_max_simd_bitwidth() is still experimental in DPDK 22.11.
#define ALLOW_EXPERIMENTAL_API 1

#include "wire/crc_path.h"
#include "wire/crc32_combine.h"
#include "wire/icrc.h"

#include <mutex>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <isa-l/crc.h>
#include <rte_cpuflags.h>
#include <rte_net_crc.h>
// DPDK 22.11 declares rte_vect_get_max_simd_bitwidth outside its extern "C" block.
extern "C" {
#include <generic/rte_vect.h>
}

namespace rtb::wire {
namespace {

std::once_flag g_init_once;
CrcPath g_path = CrcPath::Isal;

bool cpu_has(rte_cpu_flag_t flag) { return rte_cpu_get_flag_enabled(flag) > 0; }

// The requirements rte_net_crc.c checks (its *_get_handlers functions).
bool sse42_usable(uint16_t simd_bits) {
#if defined(RTE_ARCH_X86_64)
  return cpu_has(RTE_CPUFLAG_PCLMULQDQ) && simd_bits >= RTE_VECT_SIMD_128;
#else
  (void)simd_bits;
  return false;
#endif
}

bool avx512_usable(uint16_t simd_bits) {
#if defined(RTE_ARCH_X86_64)
  return cpu_has(RTE_CPUFLAG_AVX512F) && cpu_has(RTE_CPUFLAG_AVX512BW) &&
         cpu_has(RTE_CPUFLAG_AVX512DQ) && cpu_has(RTE_CPUFLAG_AVX512VL) &&
         cpu_has(RTE_CPUFLAG_PCLMULQDQ) && cpu_has(RTE_CPUFLAG_VPCLMULQDQ) &&
         simd_bits >= RTE_VECT_SIMD_512;
#else
  (void)simd_bits;
  return false;
#endif
}

bool neon_usable(uint16_t simd_bits) {
#if defined(RTE_ARCH_ARM64)
  return cpu_has(RTE_CPUFLAG_PMULL) && simd_bits >= RTE_VECT_SIMD_128;
#else
  (void)simd_bits;
  return false;
#endif
}

#if defined(__x86_64__)
// ISA-L's AVX-512 CRC (crc32_gzip_refl_by16_10 in ISA-L 2.30), and DPDK's avx512 handler,
// return with the upper halves of the vector registers dirty. The legacy-SSE code that
// runs next (crc32_combine's PCLMULQDQ, DPDK built for corei7, glibc) then pays the
// AVX-SSE transition penalty at its first instruction (Intel 64 and IA-32 Architectures
// Optimization Reference Manual, "Mixing AVX Code with SSE Code"). On a Xeon (Emerald
// Rapids) VM a 1,024-byte CRC followed by one PCLMULQDQ took 195 ns, and 28 ns with
// VZEROUPPER between them; AMD's cores have no such penalty and lose nothing by it.
__attribute__((target("avx"))) void clear_upper_halves() { _mm256_zeroupper(); }

bool detect_avx() {
  __builtin_cpu_init();  // may run before the library's own constructor
  return __builtin_cpu_supports("avx") != 0;
}
// A CRC from a static initialiser that runs before this one skips the VZEROUPPER: slower
// code after it, never a different result.
const bool g_has_avx = detect_avx();
#endif

// After a CRC by a path that may use 256- or 512-bit registers.
void after_wide_crc() {
#if defined(__x86_64__)
  if (g_has_avx) clear_upper_halves();
#endif
}

uint32_t isal_crc(uint32_t crc, const uint8_t* p, uint32_t n) {
  const uint32_t r = crc32_gzip_refl(crc, p, n);
  after_wide_crc();
  return r;
}

// What rte_net_crc_set_alg(wanted) ends up with, following its switch statement.
CrcPath resulting_path(CrcPath wanted) {
  const uint16_t bits = rte_vect_get_max_simd_bitwidth();  // 0 before the EAL
  switch (wanted) {
    case CrcPath::Avx512:
      if (avx512_usable(bits)) return CrcPath::Avx512;
      [[fallthrough]];
    case CrcPath::Sse42:
      return sse42_usable(bits) ? CrcPath::Sse42 : CrcPath::Scalar;
    case CrcPath::Neon:
      return neon_usable(bits) ? CrcPath::Neon : CrcPath::Scalar;
    case CrcPath::Isal:
      return CrcPath::Isal;
    case CrcPath::Scalar:
      break;
  }
  return CrcPath::Scalar;
}

rte_net_crc_alg dpdk_alg(CrcPath p) {
  switch (p) {
    case CrcPath::Sse42: return RTE_NET_CRC_SSE42;
    case CrcPath::Neon: return RTE_NET_CRC_NEON;
    case CrcPath::Avx512: return RTE_NET_CRC_AVX512;
    case CrcPath::Isal:  // rte_net_crc is not used; it keeps the scalar path
    case CrcPath::Scalar: break;
  }
  return RTE_NET_CRC_SCALAR;
}

}  // namespace

const char* crc_path_name(CrcPath p) {
  switch (p) {
    case CrcPath::Sse42: return "sse42";
    case CrcPath::Neon: return "neon";
    case CrcPath::Avx512: return "avx512";
    case CrcPath::Isal: return "isal";
    case CrcPath::Scalar: break;
  }
  return "scalar";
}

void crc_path_init() {
  std::call_once(g_init_once, [] { rte_net_crc_set_alg(RTE_NET_CRC_SCALAR); });
}

CrcPath set_crc_path(CrcPath wanted) {
  crc_path_init();
  rte_net_crc_set_alg(dpdk_alg(wanted));
  g_path = resulting_path(wanted);
  return g_path;
}

CrcPath set_fastest_crc_path() { return set_crc_path(CrcPath::Isal); }

CrcPath set_fastest_dpdk_crc_path() {
#if defined(RTE_ARCH_ARM64)
  return set_crc_path(CrcPath::Neon);
#else
  // The EAL caps SIMD at 256 bits unless started with --force-max-simd-bitwidth; on a CPU
  // with every AVX-512 feature the avx512 handler needs, the cap is raised to 512 (a user's
  // forced value is kept: the call then fails with -EPERM and the cap stays).
  // Each path is asked for only when usable: DPDK logs a refusal otherwise.
  if (avx512_usable(RTE_VECT_SIMD_512)) {
    if (rte_vect_get_max_simd_bitwidth() < RTE_VECT_SIMD_512) {
      (void)rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_512);
    }
    if (avx512_usable(rte_vect_get_max_simd_bitwidth())) return set_crc_path(CrcPath::Avx512);
  }
  return set_crc_path(CrcPath::Sse42);
#endif
}

CrcPath crc_path() { return g_path; }

uint32_t crc32_eth(const uint8_t* p, uint32_t n) {
  // ISA-L's crc32_gzip_refl(0, ...) is zlib's crc32: reflected CRC-32/IEEE, initial and
  // final value all ones, as RTE_NET_CRC32_ETH.
  if (g_path == CrcPath::Isal) return isal_crc(0, p, n);
  crc_path_init();
  const uint32_t crc = rte_net_crc_calc(p, n, RTE_NET_CRC32_ETH);
  if (g_path == CrcPath::Avx512) after_wide_crc();
  return crc;
}

uint32_t crc32_eth_continue(uint32_t crc, const uint8_t* p, uint32_t n) {
  if (g_path == CrcPath::Isal) return isal_crc(crc, p, n);
  return crc32_combine(crc, crc32_eth(p, n), n);
}

}  // namespace rtb::wire
