#include "core/decimal_format.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace rtb {
namespace {

__extension__ typedef unsigned __int128 u128;  // GCC and Clang; -Wpedantic knows it as an extension

// 10^17 digits fit in 64 bits, and m × 10^17 < 2^110.
constexpr int kMaxPrecision = 17;
// The fast path writes at most 46 bytes (its longest output, sign, 20 digits, point and 17
// digits, and the scratch of its fixed-length copies).
constexpr std::ptrdiff_t kRoom = 48;

constexpr std::array<uint64_t, 20> kPow10 = [] {
  std::array<uint64_t, 20> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// A finite, nonzero |v| = m × 2^e (IEEE 754 binary64).
struct Binary {
  uint64_t m;
  int e;
};

Binary decompose(double v) {
  const auto bits = std::bit_cast<uint64_t>(v);
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  if (biased == 0) return {fraction, -1074};  // subnormal
  return {fraction | (uint64_t{1} << 52), biased - 1075};
}

int width(u128 x) {
  const auto hi = static_cast<uint64_t>(x >> 64);
  return hi != 0 ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(static_cast<uint64_t>(x));
}

// q rounded by its remainder r of a division by d < 2^127: half to even.
u128 round_half_even(u128 q, u128 r, u128 d) {
  const u128 twice = r << 1;
  return twice > d || (twice == d && (q & 1) != 0) ? q + 1 : q;
}

// round(m × 2^e × 10^j), ties to even; nothing when an intermediate leaves 128 bits.
std::optional<u128> scaled(Binary b, int j) {
  if (j > 19 || j < -19) return std::nullopt;
  u128 num = b.m;  // < 2^53
  u128 den = 1;
  if (j >= 0) {
    num *= kPow10[static_cast<size_t>(j)];  // < 2^117
  } else {
    den = kPow10[static_cast<size_t>(-j)];
  }
  if (b.e >= 0) {
    if (width(num) + b.e > 127) return std::nullopt;
    num <<= b.e;
  } else if (den == 1) {  // a shift: every fixed field, and a general one below 10^(P-1)
    const int s = -b.e;
    if (s > 127) return u128{0};  // num < 2^117: below one half
    const u128 q = num >> s;
    return round_half_even(q, num - (q << s), u128{1} << s);
  } else {
    if (width(den) - b.e > 126) return std::nullopt;
    den <<= -b.e;
  }
  if ((num >> 64) == 0 && (den >> 64) == 0) {  // a 64-bit division
    const auto n = static_cast<uint64_t>(num), d = static_cast<uint64_t>(den);
    return round_half_even(n / d, n % d, d);
  }
  return round_half_even(num / den, num % den, den);
}

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// The last `count` decimal digits of n, written so that they end at `end`; their start.
char* digits_before(char* end, uint64_t n, int count) {
  for (; count >= 2; count -= 2) {
    const uint64_t q = n / 100;
    end -= 2;
    std::memcpy(end, kPairs + 2 * (n - q * 100), 2);
    n = q;
  }
  if (count != 0) *--end = static_cast<char>('0' + n % 10);
  return end;
}

int digit_count(uint64_t n) {
  const int t = (std::bit_width(n | 1) * 1233) >> 12;  // log10(2) ~ 1233 / 4096
  return t + 1 - (n < kPow10[static_cast<size_t>(t)] ? 1 : 0);
}

char* put_exponent(char* out, int x) {  // C11 7.21.6.1: "e±dd", at least two digits
  *out++ = 'e';
  *out++ = x < 0 ? '-' : '+';
  const auto a = static_cast<uint64_t>(x < 0 ? -x : x);
  const int count = a >= 100 ? 3 : 2;
  digits_before(out + count, a, count);
  return out + count;
}

// round(|v| × 10^j) with P digits, j moved until it has them; x = P - 1 - j is then the
// exponent of the rounded value (9.9999999996 at P = 9 rounds to 1.00000000e+01).
std::optional<uint64_t> significand(Binary b, int precision, int& j) {
  const int e2 = 63 - std::countl_zero(b.m) + b.e;  // 2^e2 <= |v| < 2^(e2 + 1)
  j = precision - 1 - ((e2 * 78913) >> 18);          // floor(e2 × log10 2) (Ryu's log10Pow2)
  const uint64_t low = kPow10[static_cast<size_t>(precision - 1)];
  const uint64_t high = kPow10[static_cast<size_t>(precision)];
  for (int tries = 0; tries < 3; ++tries) {
    const std::optional<u128> n = scaled(b, j);
    if (!n) return std::nullopt;
    if (*n >= high) {
      --j;
    } else if (*n < low) {
      ++j;
    } else {
      return static_cast<uint64_t>(*n);
    }
  }
  return std::nullopt;
}

}  // namespace

std::to_chars_result to_chars_fixed(char* first, char* last, double v, int precision) {
  if (!std::isfinite(v) || precision < 0 || precision > kMaxPrecision || last - first < kRoom)
    return std::to_chars(first, last, v, std::chars_format::fixed, precision);
  uint64_t n = 0;
  if (v != 0) {
    const std::optional<u128> s = scaled(decompose(v), precision);
    if (!s || (*s >> 64) != 0) return std::to_chars(first, last, v, std::chars_format::fixed, precision);
    n = static_cast<uint64_t>(*s);
  }
  char* out = first;
  if (std::signbit(v)) *out++ = '-';
  // n's digits, zero-padded to one more than the fraction: the point goes before the last
  // `precision` of them. Copies are of fixed length (scratch bytes past the end: kRoom).
  char digits[64];
  const int count = std::max(digit_count(n), precision + 1);
  const char* d = digits_before(digits + 40, n, count);
  const int whole = count - precision;
  std::memcpy(out, d, 20);
  out += whole;
  if (precision > 0) {
    *out++ = '.';
    std::memcpy(out, d + whole, 24);
    out += precision;
  }
  return {out, std::errc{}};
}

std::to_chars_result to_chars_general(char* first, char* last, double v, int precision) {
  if (!std::isfinite(v) || precision < 1 || precision > kMaxPrecision || last - first < kRoom)
    return std::to_chars(first, last, v, std::chars_format::general, precision);
  char* out = first;
  if (std::signbit(v)) *out++ = '-';
  if (v == 0) {
    *out++ = '0';
    return {out, std::errc{}};
  }
  int j = 0;
  const std::optional<uint64_t> n = significand(decompose(v), precision, j);
  if (!n) return std::to_chars(first, last, v, std::chars_format::general, precision);
  // Its `precision` digits, the fraction's trailing zeros dropped (no '#' flag), placed by
  // fixed-length copies (scratch bytes past the end: kRoom).
  char digits[48];
  digits_before(digits + precision, *n, precision);
  int kept = precision;
  while (kept > 1 && digits[kept - 1] == '0') --kept;
  const int x = precision - 1 - j;
  if (x >= precision || x < -4) {  // style e
    *out++ = digits[0];
    if (kept > 1) {
      *out++ = '.';
      std::memcpy(out, digits + 1, 16);
      out += kept - 1;
    }
    return {put_exponent(out, x), std::errc{}};
  }
  if (x < 0) {  // style f below 1: "0.000ddd"
    std::memcpy(out, "0.000", 5);
    out += 2 - x - 1;
    std::memcpy(out, digits, 24);
    return {out + kept, std::errc{}};
  }
  std::memcpy(out, digits, 24);  // the integer part, zeros included
  out += x + 1;
  if (kept > x + 1) {
    *out++ = '.';
    std::memcpy(out, digits + x + 1, 24);
    out += kept - x - 1;
  }
  return {out, std::errc{}};
}

}  // namespace rtb
