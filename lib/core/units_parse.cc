#include "core/units_parse.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <string>

namespace rtb {
namespace {

// A non-negative decimal split into digits and a power of ten: "1.25" = 125 / 10^2.
struct Decimal {
  uint64_t mantissa = 0;
  uint32_t frac_digits = 0;
};

struct Unit {
  std::string_view name;
  uint64_t scale;  // base units per 1 of this unit
};

struct Split {
  Decimal number;
  std::string_view unit;
};

constexpr uint64_t kPow10[] = {1ULL,
                               10ULL,
                               100ULL,
                               1'000ULL,
                               10'000ULL,
                               100'000ULL,
                               1'000'000ULL,
                               10'000'000ULL,
                               100'000'000ULL,
                               1'000'000'000ULL,
                               10'000'000'000ULL,
                               100'000'000'000ULL,
                               1'000'000'000'000ULL};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Reads "<digits>[.<digits>]<unit>". Returns false if there is no number.
bool split_number(std::string_view s, Split& out) {
  size_t i = 0;
  bool any_digit = false;
  bool in_frac = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.' && !in_frac) {
      in_frac = true;
      continue;
    }
    if (c == '_' && any_digit) continue;  // digit separator: "100_000B"
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    any_digit = true;
    if (out.number.mantissa > (UINT64_MAX - 9) / 10) return false;
    out.number.mantissa = out.number.mantissa * 10 + static_cast<uint64_t>(c - '0');
    if (in_frac) ++out.number.frac_digits;
  }
  out.unit = trim(s.substr(i));
  return any_digit && out.number.frac_digits < std::size(kPow10);
}

std::string unit_list(const auto& units) {
  std::string list;
  for (const Unit& u : units) {
    if (!list.empty()) list += ", ";
    list += u.name;
  }
  return list;
}

enum class Rounding { kExact, kNearest };

template <size_t N>
Expected<uint64_t> parse_scaled(std::string_view text, const std::array<Unit, N>& units,
                                std::string_view what, Rounding rounding) {
  const std::string_view s = trim(text);
  const std::string quoted = "'" + std::string(text) + "'";
  Split split;
  if (!split_number(s, split)) {
    return Error{"expected " + std::string(what) + " as a number followed by a unit (" +
                 unit_list(units) + "), got " + quoted};
  }
  if (split.unit.empty()) {
    return Error{"missing unit in " + quoted + ": write " + std::string(what) +
                 " with one of " + unit_list(units)};
  }
  for (const Unit& u : units) {
    if (u.name != split.unit) continue;
    const u128 num = static_cast<u128>(split.number.mantissa) * u.scale;
    const u128 den = kPow10[split.number.frac_digits];
    u128 whole = num / den;
    const u128 rest = num % den;
    if (rest != 0 && rounding == Rounding::kExact) {
      return Error{quoted + " is finer than the smallest step of " + std::string(what) +
                   " (1 " + std::string(units.front().name) + ")"};
    }
    if (rounding == Rounding::kNearest && rest * 2 >= den) ++whole;
    if (whole > UINT64_MAX) return Error{quoted + " is too large for " + std::string(what)};
    return static_cast<uint64_t>(whole);
  }
  return Error{"unknown unit '" + std::string(split.unit) + "' in " + quoted + ": expected " +
               std::string(what) + " in one of " + unit_list(units)};
}

constexpr std::array<Unit, 5> kTimeUnits{{{"ps", 1},
                                          {"ns", 1'000},
                                          {"us", 1'000'000},
                                          {"ms", 1'000'000'000},
                                          {"s", 1'000'000'000'000}}};

constexpr std::array<Unit, 9> kRateUnits{{{"bps", 1},
                                          {"Kbps", 1'000},
                                          {"Mbps", 1'000'000},
                                          {"Gbps", 1'000'000'000},
                                          {"Tbps", 1'000'000'000'000},
                                          {"Kb/s", 1'000},
                                          {"Mb/s", 1'000'000},
                                          {"Gb/s", 1'000'000'000},
                                          {"Tb/s", 1'000'000'000'000}}};

constexpr std::array<Unit, 7> kByteUnits{{{"B", 1},
                                          {"KB", 1'000},
                                          {"MB", 1'000'000},
                                          {"GB", 1'000'000'000},
                                          {"KiB", 1ULL << 10},
                                          {"MiB", 1ULL << 20},
                                          {"GiB", 1ULL << 30}}};

}  // namespace

Expected<Time> parse_time(std::string_view text) {
  auto v = parse_scaled(text, kTimeUnits, "a time", Rounding::kExact);
  if (!v) return v.error();
  return Time::ps(*v);
}

Expected<Rate> parse_rate(std::string_view text) {
  auto v = parse_scaled(text, kRateUnits, "a rate", Rounding::kExact);
  if (!v) return v.error();
  return Rate::bps(*v);
}

Expected<Bytes> parse_bytes(std::string_view text) {
  auto v = parse_scaled(text, kByteUnits, "a size", Rounding::kNearest);
  if (!v) return v.error();
  return Bytes(*v);
}

}  // namespace rtb
