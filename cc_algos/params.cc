#include "cc_algos/params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace rtb::cc {

std::vector<rtb_cc_param> to_abi(const ParamMap& map) {
  std::vector<rtb_cc_param> out;
  out.reserve(map.size());
  for (const auto& [key, value] : map) {
    rtb_cc_param p{};
    p.key = key.c_str();
    if (const auto* s = std::get_if<std::string>(&value)) {
      p.kind = RTB_CC_PARAM_STRING;
      p.string_value = s->c_str();
    } else if (const auto* i = std::get_if<int64_t>(&value)) {
      p.kind = RTB_CC_PARAM_INT;
      p.int_value = *i;
    } else {
      p.kind = RTB_CC_PARAM_FLOAT;
      p.float_value = std::get<double>(value);
    }
    out.push_back(p);
  }
  return out;
}

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Where `key` first appears in `message` as a whole word (npos if it does not).
size_t word_at(const std::string& message, const std::string& key) {
  for (size_t i = message.find(key); i != std::string::npos; i = message.find(key, i + 1)) {
    const size_t end = i + key.size();
    if ((i == 0 || !word_char(message[i - 1])) && (end == message.size() || !word_char(message[end]))) return i;
  }
  return std::string::npos;
}

}  // namespace

std::string mentioned_param(const std::string& message, const ParamMap& params) {
  std::string best;
  size_t best_at = std::string::npos;
  for (const auto& [k, v] : params) {
    const size_t at = word_at(message, k);
    if (at == std::string::npos) continue;
    if (at < best_at || (at == best_at && k.size() > best.size())) {
      best = k;
      best_at = at;
    }
  }
  return best;
}

std::string describe(const rtb_cc_param& param) {
  switch (param.kind) {
    case RTB_CC_PARAM_STRING:
      return fmt::format("\"{}\"", param.string_value ? param.string_value : "");
    case RTB_CC_PARAM_INT:
      return fmt::format("{}", param.int_value);
    case RTB_CC_PARAM_FLOAT:
      return fmt::format("{}", param.float_value);
    default:
      return fmt::format("<value of unknown kind {}>", param.kind);
  }
}

void Reporter::error(const std::string& message) {
  failed_ = true;
  if (report_ && report_->error) report_->error(report_->context, message.c_str());
}

void Reporter::warning(const std::string& message) {
  if (report_ && report_->warning) report_->warning(report_->context, message.c_str());
}

namespace {
template <class Spec>
std::string names_of(std::span<const Spec> specs) {
  std::string out;
  for (const auto& s : specs) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}
}  // namespace

std::string spec_names(std::span<const UintSpec> specs) { return names_of(specs); }
std::string spec_names(std::span<const NumSpec> specs) { return names_of(specs); }

namespace {

// A whole, non-negative number from any of the three kinds, or nullopt.
std::optional<uint64_t> as_uint(const rtb_cc_param& p) {
  switch (p.kind) {
    case RTB_CC_PARAM_INT:
      if (p.int_value < 0) return std::nullopt;
      return static_cast<uint64_t>(p.int_value);
    case RTB_CC_PARAM_FLOAT:
      // 2^64 is exactly representable; anything at or above it does not fit.
      if (!(p.float_value >= 0.0) || p.float_value >= 18446744073709551616.0 ||
          std::floor(p.float_value) != p.float_value)
        return std::nullopt;
      return static_cast<uint64_t>(p.float_value);
    case RTB_CC_PARAM_STRING: {
      const char* s = p.string_value;
      if (!s || *s == '\0' || *s == '-' || *s == '+' || *s == ' ') return std::nullopt;
      const bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
      errno = 0;
      char* end = nullptr;
      const unsigned long long v = std::strtoull(s, &end, hex ? 16 : 10);
      if (errno != 0 || end == s || *end != '\0') return std::nullopt;
      return static_cast<uint64_t>(v);
    }
    default:
      return std::nullopt;
  }
}

template <class Spec>
const Spec* find_spec(std::span<const Spec> specs, std::string_view key) {
  for (const auto& s : specs)
    if (s.name == key) return &s;
  return nullptr;
}

std::string range_error(std::string_view algo, const UintSpec& s, const rtb_cc_param& p) {
  std::string msg = fmt::format("{}: {} = {} is invalid: expected a whole number in {}..{} ({})",
                                algo, s.name, describe(p), s.min, s.max, s.unit);
  if (!s.range_note.empty()) msg += fmt::format("; {}", s.range_note);
  return msg;
}

}  // namespace

void read_uint_params(std::span<const rtb_cc_param> params, std::span<const UintSpec> specs,
                      std::span<uint64_t> values, Reporter& out, RefusalReason refusal) {
  for (size_t i = 0; i < specs.size() && i < values.size(); ++i)
    values[i] = specs[i].default_value;
  for (const auto& p : params) {
    const std::string_view key = p.key ? p.key : "";
    const UintSpec* spec = find_spec(specs, key);
    if (!spec) {
      const std::string_view why = refusal ? refusal(key) : std::string_view{};
      out.error(fmt::format("{}: unknown parameter '{}'{}{}; valid parameters: {}", out.algorithm(),
                            key, why.empty() ? "" : ": ", why, spec_names(specs)));
      continue;
    }
    const auto v = as_uint(p);
    if (!v || *v < spec->min || *v > spec->max) {
      out.error(range_error(out.algorithm(), *spec, p));
      continue;
    }
    values[static_cast<size_t>(spec - specs.data())] = *v;
  }
}

namespace {

// A finite number from any of the three kinds (strings in decimal), or nullopt.
std::optional<double> as_number(const rtb_cc_param& p) {
  switch (p.kind) {
    case RTB_CC_PARAM_INT:
      return static_cast<double>(p.int_value);
    case RTB_CC_PARAM_FLOAT:
      return std::isfinite(p.float_value) ? std::optional<double>(p.float_value) : std::nullopt;
    case RTB_CC_PARAM_STRING: {
      const char* s = p.string_value;
      if (!s || *s == '\0' || *s == ' ') return std::nullopt;
      errno = 0;
      char* end = nullptr;
      const double v = std::strtod(s, &end);
      if (errno != 0 || end == s || *end != '\0' || !std::isfinite(v)) return std::nullopt;
      return v;
    }
    default:
      return std::nullopt;
  }
}

std::string num_range_error(std::string_view algo, const NumSpec& s, const rtb_cc_param& p) {
  // Whole-number bounds print as integers (1000000000, not 1e+09).
  const auto bound = [&](double v) {
    return s.whole ? fmt::format("{}", static_cast<int64_t>(v)) : fmt::format("{}", v);
  };
  std::string msg = fmt::format("{}: {} = {} is invalid: expected {} in {}..{} ({})", algo, s.name,
                                describe(p), s.whole ? "a whole number" : "a number", bound(s.min),
                                bound(s.max), s.unit);
  if (!s.range_note.empty()) msg += fmt::format("; {}", s.range_note);
  return msg;
}

}  // namespace

void read_num_params(std::span<const rtb_cc_param> params, std::span<const NumSpec> specs,
                     std::span<double> values, Reporter& out) {
  for (size_t i = 0; i < specs.size() && i < values.size(); ++i)
    values[i] = specs[i].default_value;
  for (const auto& p : params) {
    const std::string_view key = p.key ? p.key : "";
    const NumSpec* spec = find_spec(specs, key);
    if (!spec) {
      out.error(fmt::format("{}: unknown parameter '{}'; valid parameters: {}", out.algorithm(), key,
                            spec_names(specs)));
      continue;
    }
    const auto v = as_number(p);
    if (!v || *v < spec->min || *v > spec->max || (spec->whole && std::floor(*v) != *v)) {
      out.error(num_range_error(out.algorithm(), *spec, p));
      continue;
    }
    values[static_cast<size_t>(spec - specs.data())] = *v;
  }
}

namespace {

// Spec names are string literals: data() ends with the literal's NUL.
template <typename Spec, typename V>
void resolve(ResolvedParams& r, std::span<const Spec> specs, std::span<const V> values) {
  r.count = std::min({specs.size(), values.size(), r.fields.size()});
  for (size_t i = 0; i < r.count; ++i) r.fields[i] = {specs[i].name.data(), static_cast<double>(values[i])};
}

}  // namespace

void ResolvedParams::set(std::span<const UintSpec> specs, std::span<const uint64_t> values) {
  resolve(*this, specs, values);
}

void ResolvedParams::set(std::span<const NumSpec> specs, std::span<const double> values) {
  resolve(*this, specs, values);
}

}  // namespace rtb::cc
