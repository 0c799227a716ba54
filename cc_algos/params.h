// Algorithm parameters as the scenario gives them (key -> string or number), and the
// checking helper the built-in algorithms share (style habit 8: typed, validated once,
// every key and range checked, unknown keys refused with the list of valid ones).
//
// Plug-ins receive the same keys through the C ABI (rtb_cc_param) and check them
// themselves; this helper is rocetb's own, not part of the ABI.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cc_algos/rocetb_cc.h"

namespace rtb::cc {

using ParamValue = std::variant<std::string, int64_t, double>;
using ParamMap = std::map<std::string, ParamValue, std::less<>>;

// The ABI view of a map: pointers into `map`, valid while `map` lives and is unchanged.
std::vector<rtb_cc_param> to_abi(const ParamMap& map);

// The parameter a message of parse_params is about: the one it names first as a whole word
// (the longest at the same place), so that a list of valid parameters later in the message
// does not count; "" when it names none. Puts each message at its own key's line.
std::string mentioned_param(const std::string& message, const ParamMap& params);

// The value as the user wrote it, for messages.
std::string describe(const rtb_cc_param& param);

// An unsigned integer parameter: its name (mlx5 style, unit in the name or in `unit`),
// range and default.
struct UintSpec {
  std::string_view name;
  std::string_view unit;  // "us", "Mb/s", "64-byte units", "Q10", "bool", ...
  uint64_t min;
  uint64_t max;
  uint64_t default_value;
  std::string_view range_note;  // appended to range errors, may be empty
};

// Forwards messages to an rtb_cc_report and remembers whether an error was reported.
class Reporter {
 public:
  Reporter(std::string_view algorithm, const rtb_cc_report* report)
      : algorithm_(algorithm), report_(report) {}
  void error(const std::string& message);
  void warning(const std::string& message);
  bool failed() const { return failed_; }
  std::string_view algorithm() const { return algorithm_; }

 private:
  std::string_view algorithm_;
  const rtb_cc_report* report_;
  bool failed_ = false;
};

// Names that look like parameters but must be refused with a specific reason
// (e.g. "rp_rf_reset_ratio" is not an mlx5 DCQCN parameter). Returns "" for others.
using RefusalReason = std::string_view (*)(std::string_view key);

// Reads `params` against `specs`: values[i] gets spec i's value or default. Every key
// must name a spec; every value must be a whole number within [min, max] (numbers, or
// strings in decimal or 0x-hex as the mlx5 debugfs files accept). Errors go to `out`.
void read_uint_params(std::span<const rtb_cc_param> params, std::span<const UintSpec> specs,
                      std::span<uint64_t> values, Reporter& out, RefusalReason refusal = nullptr);

// "a, b, c" of the spec names, for messages.
std::string spec_names(std::span<const UintSpec> specs);

// A parameter that may be fractional (a gain, a factor) or a whole number, read into a
// double: for algorithms whose sources give real-valued knobs (TIMELY's beta = 0.8).
// `whole` refuses fractions (counts, and rates and times in their named unit).
struct NumSpec {
  std::string_view name;
  std::string_view unit;
  double min;
  double max;
  double default_value;
  bool whole;
  std::string_view range_note;  // appended to range errors, may be empty
};

// As read_uint_params, for NumSpecs: numbers (integer or float) or decimal strings.
void read_num_params(std::span<const rtb_cc_param> params, std::span<const NumSpec> specs,
                     std::span<double> values, Reporter& out);

std::string spec_names(std::span<const NumSpec> specs);

// Every parameter as parse resolved it (the given value or the default), under its
// spec's name: what a built-in's describe_params reports (builtin_adapter.h). Kept in the
// algorithm's Params, so it is trivially copyable and its names are the specs' literals.
struct ResolvedParams {
  std::array<rtb_cc_state_field, RTB_CC_MAX_PARAM_FIELDS> fields{};
  size_t count = 0;
  void set(std::span<const UintSpec> specs, std::span<const uint64_t> values);
  void set(std::span<const NumSpec> specs, std::span<const double> values);
};

}  // namespace rtb::cc
