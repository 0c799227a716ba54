#include "params/dcqcn_check.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "cc_algos/controller.h"
#include "cc_algos/registry.h"

namespace rtb::params {
namespace {

cc::ParamMap param_map(const Imported& in) {
  cc::ParamMap m;
  for (const Key& k : in.keys()) {
    if (k.table == "cc.params") m.emplace(k.name, static_cast<int64_t>(std::stoll(k.value)));
  }
  return m;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

// The reason without what the finding's line already says: "dcqcn: rp_gd = 50 is
// invalid: ..." is "is invalid: ..."; the list of every valid name is left to the README.
std::string reason_of(std::string message, const std::string& algorithm, const Key& k, const char* subject = "") {
  if (message.starts_with(algorithm + ": ")) message.erase(0, algorithm.size() + 2);
  if (const std::string prefix = k.name + " = " + k.value + " "; message.starts_with(prefix)) {
    message.replace(0, prefix.size(), subject);
  }
  if (const size_t list = message.find("; valid parameters: "); list != std::string::npos) message.resize(list);
  return message;
}

// rp_gd's arithmetic where the check stops at the range (cut = (R_C * alpha_Q10) >> rp_gd,
// cc-reference §1.3).
std::string gd_arithmetic(const Key& k) {
  if (k.name != "rp_gd") return "";
  const double gd = std::stod(k.value);
  if (gd < 32) return "";
  return fmt::format(
      " (read as the shift it is: (R_C * alpha) >> {} is at most 1023/2^{} = {:.3g} of R_C, so "
      "every cut is zero: the multiplicative decrease is disabled; perhaps rp_min_dec_fac = {} "
      "was meant)",
      k.value, k.value, 1023.0 / std::ldexp(1.0, static_cast<int>(gd)), k.value);
}

std::string algorithm_of(const Imported& in) {
  const Key* a = in.get("cc", "algorithm");
  if (a == nullptr || a->value.size() < 2) return "dcqcn";
  return a->value.substr(1, a->value.size() - 2);
}

}  // namespace

void check_cc_params(Imported& in) {
  const std::string algorithm = algorithm_of(in);
  auto resolved = cc::Registry::with_builtins().resolve(algorithm);
  if (!resolved) return;
  // Errors first, each key refused taken out; then the rest checked again for warnings
  // (the check stops at its first errors, before the cross-field warnings).
  for (int round = 0; round < 64; ++round) {
    const cc::ParamMap params = param_map(in);
    if (params.empty()) return;
    auto controller = cc::configure(*resolved, params);
    if (controller) {
      for (const std::string& w : controller->warnings()) {
        const std::string name = cc::mentioned_param(w, params);
        const Key* k = in.get("cc.params", name);
        if (k == nullptr) continue;
        in.find(k->at, k->source_name, k->source_value, "legal, written, but " + reason_of(w, algorithm, *k, "it "));
      }
      return;
    }
    bool dropped = false;
    for (const std::string& e : lines_of(controller.error().message)) {
      const std::string name = cc::mentioned_param(e, params);
      const Key* k = in.get("cc.params", name);
      if (k == nullptr) continue;
      const Key copy = *k;
      in.find(copy.at, copy.source_name, copy.source_value,
              reason_of(e, algorithm, copy) + gd_arithmetic(copy) + "; not written (the default stays)");
      dropped = in.drop("cc.params", name) || dropped;
    }
    if (!dropped) return;
  }
}

}  // namespace rtb::params
