#include "scenario/cc_settings.h"

#include <fmt/format.h>

#include "cc_algos/controller.h"
#include "cc_algos/registry.h"
#include "scenario/load_error.h"

namespace rtb::scenario {
namespace {

bool is_path(std::string_view v) {
  return v.find('/') != std::string_view::npos || (v.size() > 3 && v.ends_with(".so"));
}

cc::ParamMap read_params(Table& p) {
  cc::ParamMap params;
  for (auto&& [k, v] : p.raw()) {
    const std::string key(k.str());
    p.get(key);
    if (const auto* s = v.as_string()) {
      params.emplace(key, s->get());
    } else if (const auto* i = v.as_integer()) {
      params.emplace(key, i->get());
    } else if (const auto* f = v.as_floating_point()) {
      params.emplace(key, f->get());
    } else {
      p.fail_value(key, "is not a parameter value: expected a string, an integer or a number");
    }
  }
  return params;
}

// The parameter an algorithm's message is about (the longest key it mentions), for the line.
std::string mentioned_key(const std::string& message, const cc::ParamMap& params) {
  std::string best;
  for (const auto& [k, v] : params) {
    if (message.find(k) != std::string::npos && k.size() > best.size()) best = k;
  }
  return best;
}

std::string one_line(std::string s) {
  for (size_t i = s.find('\n'); i != std::string::npos; i = s.find('\n', i)) s.replace(i, 1, "; ");
  return s;
}

}  // namespace

CcConfig read_cc(std::optional<Table> t, const std::string& base_dir, std::vector<std::string>& warnings) {
  CcConfig c;
  std::optional<Table> params_table;
  if (t) {
    c.algorithm = t->string("algorithm", c.algorithm);
    if (is_path(c.algorithm) && c.algorithm.front() != '/' && !base_dir.empty()) {
      c.algorithm = base_dir + "/" + c.algorithm;
    }
    params_table = t->table("params");
    if (params_table) c.params = read_params(*params_table);
    t->finish();
  }
  auto registry = cc::Registry::with_builtins();
  auto algorithm = registry.resolve(c.algorithm);
  if (!algorithm) {
    if (t && t->has("algorithm")) t->fail("algorithm", one_line(algorithm.error().message));
    throw LoadError{"cc.algorithm: " + one_line(algorithm.error().message)};
  }
  auto controller = cc::configure(*algorithm, c.params);
  if (!controller) {
    const std::string message = one_line(controller.error().message);
    const std::string key = mentioned_key(message, c.params);
    if (params_table && !key.empty()) params_table->fail(key, message);
    if (params_table) params_table->fail_table(message);
    throw LoadError{"cc.params: " + message};
  }
  for (const std::string& w : controller->warnings()) warnings.push_back("cc: " + one_line(w));
  return c;
}

}  // namespace rtb::scenario
