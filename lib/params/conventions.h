// DCQCN's knobs in three conventions: the paper's symbols (Zhu et al., SIGCOMM 2015, as
// restated by CoNEXT'16 and the authors' code, cc-reference §1.1), the mlx5 NIC's
// cc_params (§1.3) and the HPCC authors' ns-3 config.txt (§1.2.b). Each knob is one
// physical quantity (a gain, a period in µs, a step in Mb/s, bytes); a convention reads
// and writes it with its own formula, and says where its mechanism differs so that the
// mapping is only approximate.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace rtb::params {

enum class Convention { kPaper, kMlx5, kHpccNs3 };

std::optional<Convention> convention_named(std::string_view name);  // paper, mlx5, hpcc-ns3
std::string_view name_of(Convention c);

// One value in one convention, as the user gave it.
struct GivenValue {
  std::string key;
  std::string value;
  std::string where;  // "FILE:LINE" or "argument 2"
};

// One key of the target convention: its value (as that convention writes it) and how it
// was obtained.
struct Converted {
  std::string key;
  std::string value;
  std::string from;         // "g = 0.00390625" (or "implied by the paper: ...")
  std::string formula;      // "rp_dce_tcp_g = round(1024 x (1 - g))"
  std::string source;       // the citation
  std::string approximate;  // "" when exact
};

struct Conversion {
  std::vector<Converted> keys;
  std::vector<std::string> dropped;  // given values with no counterpart in the target, with the reason
  std::vector<std::string> skipped;  // given keys that are not DCQCN parameters of the source convention
};

// Converts `given` (in `from`; none: its defaults) into `to`. An unreadable value is an
// error naming where it was given.
Expected<Conversion> convert(Convention from, Convention to, const std::vector<GivenValue>& given);

// The convention's keys with their defaults (what `convert` uses when nothing is given).
std::vector<GivenValue> defaults_of(Convention c);

// A key line in the convention's syntax ("g = 0.0039", "RATE_AI 40Mb/s").
std::string key_line(Convention c, const Converted& k);

}  // namespace rtb::params
