// printf's "%.Pf" and "%.Pg" of a double (C11 7.21.6.1), byte for byte what std::to_chars
// gives with a precision: the exact binary value correctly rounded, ties to even. A double
// is m × 2^e with an integer m < 2^53, so the digits are round(m × 2^e × 10^j) for the
// decimal position j, computed in 128-bit integers: a shift when j >= 0 and e < 0 (every
// value below 10^(P-1)), a division otherwise. What does not fit (values past 2^64 digits,
// infinities, NaN, precisions above 17) is handed to std::to_chars.
//
// Why not std::to_chars alone: its precision path (Ryu printf) takes about 50 ns a field,
// and the sampler writes a row of them per flow per sample interval.
#pragma once

#include <charconv>

namespace rtb {

// std::to_chars(first, last, v, std::chars_format::fixed, precision), the same bytes.
std::to_chars_result to_chars_fixed(char* first, char* last, double v, int precision);

// std::to_chars(first, last, v, std::chars_format::general, precision), the same bytes.
std::to_chars_result to_chars_general(char* first, char* last, double v, int precision);

}  // namespace rtb
