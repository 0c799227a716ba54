// NCCL's environment, as a job sets it: /etc/nccl.conf or ~/.nccl.conf (NAME=VALUE lines),
// a job script's `export NCCL_IB_TC=106`, or `mpirun -x NCCL_IB_TC=106 ...`. NCCL reads
// each value with strtoll(value, NULL, 0) (src/misc/param.cc): decimal, 0x hex, 0 octal.
// The settings of the RoCE fabric become [host] keys:
//   NCCL_IB_TC          the GRH traffic class, on RoCEv2 the IP ToS byte: host.nccl_ib_tc
//   NCCL_IB_TIMEOUT     the QP's local ACK timeout, 4.096 us x 2^value (IBTA 9.7.6.1.3):
//                       host.local_ack_timeout
//   NCCL_IB_RETRY_CNT   the QP's retry count (IBTA 9.7.6.1.3): host.retry_cnt
// Every other NCCL_ setting is a finding that names what it does and why it is not
// imported.
#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <regex>

#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::params {
namespace {

// strtoll(value, NULL, 0) as NCCL reads it, but the whole value must be the number.
std::optional<int64_t> nccl_integer(const std::string& value) {
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(value.c_str(), &end, 0);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return v;
}

// A value with a leading 0 that NCCL reads as octal ("0106" is 70), said beside it.
std::string octal_note(const std::string& value, std::optional<int64_t> v) {
  const bool octal = value.size() > 1 && value[0] == '0' && value[1] != 'x' && value[1] != 'X';
  return octal && v ? fmt::format(" ({} is octal, as NCCL reads it: {})", value, *v) : "";
}

// A setting read as a whole number in [lo, hi]; a finding when it is not one.
std::optional<int64_t> in_range(const std::string& name, const std::string& value, int64_t lo, int64_t hi,
                                const char* what, const Origin& at, Imported& out) {
  const auto v = nccl_integer(value);
  if (!v || *v < lo || *v > hi) {
    out.find(at, name, value,
             fmt::format("is invalid{}: expected a whole number in {}..{} ({}): not imported", octal_note(value, v), lo,
                         hi, what));
    return std::nullopt;
  }
  if (const std::string note = octal_note(value, v); !note.empty()) {
    out.find(at, name, value, fmt::format("read{}, as NCCL does; written as {}", note, *v));
  }
  return v;
}

// The ToS byte: DSCP in the upper six bits, ECN in the lower two, which the NIC sets itself
// (RFC 3168 §5; an mlx5 with ECN enabled marks its RoCE frames ECT). A job's TC with ECN
// bits (106 is common) is imported as its DSCP, said in a finding.
void read_traffic_class(const std::string& name, const std::string& value, const Origin& at, Imported& out) {
  const auto tc = in_range(name, value, 0, 255, "the IP ToS byte, DSCP x 4", at, out);
  if (!tc) return;
  const int64_t kept = *tc & ~int64_t{3};
  if (kept != *tc) {
    out.find(at, name, value,
             fmt::format("sets the ECN bits of the ToS byte ({} & 3 = {}), which the NIC sets itself: written as "
                         "nccl_ib_tc = {} (DSCP {})",
                         *tc, *tc & 3, kept, kept >> 2));
  }
  out.set("host", "nccl_ib_tc", std::to_string(kept), at, name, value);
}

void read_setting(const std::string& name, const std::string& value, const Origin& at, Imported& out) {
  if (name == "NCCL_IB_TC") {
    read_traffic_class(name, value, at, out);
  } else if (name == "NCCL_IB_TIMEOUT") {
    if (nccl_integer(value) == 0) {
      out.find(at, name, value,
               "0 is an infinite ACK timeout (IBTA 9.7.6.1.3), which rocetb's ACK timer does not model: expected "
               "1..31: not imported");
    } else if (auto v = in_range(name, value, 1, 31, "4.096 us x 2^value", at, out)) {
      out.set("host", "local_ack_timeout", std::to_string(*v), at, name, value);
    }
  } else if (name == "NCCL_IB_RETRY_CNT") {
    if (auto v = in_range(name, value, 0, 7, "retries after the first timeout", at, out)) {
      out.set("host", "retry_cnt", std::to_string(*v), at, name, value);
    }
  } else if (name == "NCCL_IB_SL") {
    out.find(at, name, value,
             "the InfiniBand service level: a RoCEv2 frame's class is its DSCP (NCCL_IB_TC) and its PCP, not an SL: "
             "not imported");
  } else if (name == "NCCL_IB_FIFO_TC") {
    out.find(at, name, value,
             "the traffic class of NCCL's small control (FIFO) messages: rocetb's traffic has no separate control "
             "QPs, its data takes NCCL_IB_TC: not imported");
  } else {
    out.find(at, name, value, "not a setting of the fabric's RoCE traffic that rocetb models: not imported");
  }
}

}  // namespace

Status import_nccl_env(const std::string& path, const std::string& text, Imported& out) {
  // NAME=VALUE at the start of a line or after a blank (export, env, mpirun -x), or in
  // srun's --export=ALL,NAME=VALUE,... list; a value runs to a blank, a ';' or the next
  // ",NCCL_...=" (NCCL_IB_HCA's own value is a comma list).
  static const std::regex kSetting(
      R"((?:^|[\s,=;])(NCCL_[A-Z0-9_]+)=("[^"]*"|'[^']*'|.*?(?=[\s;]|,NCCL_[A-Z0-9_]+=|$)))");
  uint32_t settings = 0;
  const std::vector<std::string> lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const Origin at{path, static_cast<uint32_t>(i + 1)};
    const std::string line = without_comment(lines[i]);
    for (std::sregex_iterator m(line.begin(), line.end(), kSetting), end; m != end; ++m) {
      ++settings;
      read_setting((*m)[1].str(), unquoted((*m)[2].str()), at, out);
    }
  }
  if (settings == 0) {
    return Error{fmt::format("{}: no NCCL_ settings in it: expected lines such as 'NCCL_IB_TC=106' (nccl.conf) or "
                             "'export NCCL_IB_TC=106'",
                             path)};
  }
  return {};
}

}  // namespace rtb::params
