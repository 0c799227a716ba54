#include "scenario/cc_settings.h"

#include <fmt/format.h>

#include <filesystem>

#include "cc_algos/controller.h"
#include "cc_algos/registry.h"
#include "scenario/load_error.h"

namespace rtb::scenario {

bool is_plugin_path(std::string_view v) {
  return v.find('/') != std::string_view::npos || (v.size() > 3 && v.ends_with(".so"));
}

std::string command_line_algorithm(const std::string& algorithm) {
  if (!is_plugin_path(algorithm) || algorithm.front() == '/') return algorithm;
  return (std::filesystem::current_path() / algorithm).lexically_normal().string();
}

Override cc_override(const std::string& algorithm) {
  return {"cc.algorithm=\"" + command_line_algorithm(algorithm) + "\"", "--cc " + algorithm};
}

namespace {

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

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  size_t from = 0;
  for (size_t nl = s.find('\n'); ; nl = s.find('\n', from)) {
    if (nl != from) out.push_back(s.substr(from, nl - from));
    if (nl == std::string::npos) break;
    from = nl + 1;
  }
  return out;
}

std::string one_line(const std::string& s) {
  std::string out;
  for (const std::string& l : lines_of(s)) out += (out.empty() ? "" : "; ") + l;
  return out;
}

// Each of the algorithm's errors on its own line, at the line of the parameter it names
// (the [cc.params] table's line when it names none).
[[noreturn]] void fail_params(const std::string& errors, const cc::ParamMap& params,
                              const std::optional<Table>& table) {
  if (!table) throw LoadError{"cc.params: " + one_line(errors)};
  std::vector<LocatedProblem> problems;
  for (const std::string& e : lines_of(errors)) {
    const std::string key = cc::mentioned_param(e, params);
    if (key.empty()) {
      problems.push_back({table->line(""), table->located("", e)});
    } else {
      problems.push_back({table->line(key), table->located(key, e)});
    }
  }
  fail_all(std::move(problems));
}

}  // namespace

CcConfig read_cc(std::optional<Table> t, const std::string& base_dir, std::vector<std::string>& warnings) {
  CcConfig c;
  std::optional<Table> params_table;
  if (t) {
    c.algorithm = t->string("algorithm", c.algorithm);
    if (is_plugin_path(c.algorithm) && c.algorithm.front() != '/' && !base_dir.empty()) {
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
  if (!controller) fail_params(controller.error().message, c.params, params_table);
  for (const std::string& w : controller->warnings()) warnings.push_back("cc: " + one_line(w));
  return c;
}

}  // namespace rtb::scenario
