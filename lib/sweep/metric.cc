#include "sweep/metric.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "results/schema.h"
#include "scenario/did_you_mean.h"

namespace rtb::sweep {
namespace {

using nlohmann::json;

struct FoldName {
  const char* name;
  Fold fold;
};
constexpr FoldName kFolds[] = {{"max", Fold::kMax}, {"min", Fold::kMin}, {"sum", Fold::kSum}, {"mean", Fold::kMean}};

// Every number (or boolean) summary.json holds, from its writer (lib/results schema.h).
const std::vector<std::string>& schema() { return results::numeric_paths(); }

[[noreturn]] void fail(const std::string& text, const std::string& why) { throw Error{fmt::format("--metrics {}: {}", text, why)}; }

bool is_index(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

Step parse_step(const std::string& s, const std::string& text) {
  Step step;
  const size_t open = s.find('[');
  step.key = s.substr(0, open);
  if (step.key.empty()) fail(text, fmt::format("'{}' has no name: expected a path such as totals.goodput_gbps", s));
  for (size_t i = open; i != std::string::npos; i = s.find('[', i)) {
    const size_t close = s.find(']', i);
    if (close == std::string::npos || close == i + 1) fail(text, fmt::format("'{}': expected [N], [NAME] or [*]", s));
    step.selectors.push_back(s.substr(i + 1, close - i - 1));
    i = close + 1;
    if (i < s.size() && s[i] != '[') fail(text, fmt::format("'{}': expected '[' or '.' after ']'", s));
  }
  return step;
}

// The path with every selector written "[]", as the schema has it.
std::string pattern_of(const std::vector<Step>& path) {
  std::string out;
  for (const Step& s : path) {
    out += (out.empty() ? "" : ".") + s.key;
    for (size_t i = 0; i < s.selectors.size(); ++i) out += "[]";
  }
  return out;
}

std::string schema_list() {
  std::string out;
  for (const std::string& p : schema()) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// The elements a path reaches: several through [*].
void walk(const json& node, const std::vector<Step>& path, size_t at, std::vector<const json*>& out) {
  if (at == path.size()) {
    out.push_back(&node);
    return;
  }
  const Step& step = path[at];
  if (!node.is_object() || !node.contains(step.key)) return;
  std::vector<const json*> here{&node[step.key]};
  for (const std::string& sel : step.selectors) {
    std::vector<const json*> next;
    for (const json* n : here) {
      if (!n->is_array()) continue;
      if (sel == "*") {
        for (const json& e : *n) next.push_back(&e);
      } else if (is_index(sel)) {
        const size_t i = std::stoul(sel);
        if (i < n->size()) next.push_back(&(*n)[i]);
      } else {
        for (const json& e : *n) {
          if (e.is_object() && e.contains("name") && e["name"] == sel) next.push_back(&e);
        }
      }
    }
    here = std::move(next);
  }
  for (const json* n : here) walk(*n, path, at + 1, out);
}

std::string number_text(const json& v) { return v.is_boolean() ? (v.get<bool>() ? "1" : "0") : v.dump(); }
double number_of(const json& v) { return v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>(); }

std::optional<std::string> fold(Fold f, const std::vector<const json*>& values) {
  std::vector<const json*> xs;
  for (const json* v : values) {
    if (v->is_number() || v->is_boolean()) xs.push_back(v);
  }
  if (xs.empty()) return std::nullopt;
  auto less = [](const json* a, const json* b) { return number_of(*a) < number_of(*b); };
  if (f == Fold::kMax) return number_text(**std::max_element(xs.begin(), xs.end(), less));
  if (f == Fold::kMin) return number_text(**std::min_element(xs.begin(), xs.end(), less));
  const bool whole = std::all_of(xs.begin(), xs.end(), [](const json* v) { return !v->is_number_float(); });
  double sum = 0;
  int64_t whole_sum = 0;
  for (const json* v : xs) {
    sum += number_of(*v);
    if (whole) whole_sum += static_cast<int64_t>(number_of(*v));
  }
  if (f == Fold::kSum) return whole ? fmt::format("{}", whole_sum) : json(sum).dump();
  return json(sum / static_cast<double>(xs.size())).dump();
}

Metric parse(const std::string& text) {
  Metric m{text, Fold::kNone, {}};
  std::string body = text;
  for (const FoldName& f : kFolds) {
    const std::string open = std::string(f.name) + "(";
    if (text.rfind(open, 0) == 0) {
      if (text.back() != ')') fail(text, fmt::format("expected {}(PATH)", f.name));
      m.fold = f.fold;
      body = text.substr(open.size(), text.size() - open.size() - 1);
    }
  }
  if (body.find('(') != std::string::npos) fail(text, "expected PATH or max(PATH), min(PATH), sum(PATH), mean(PATH)");
  size_t start = 0;
  while (true) {
    const size_t dot = body.find('.', start);
    m.path.push_back(parse_step(body.substr(start, dot - start), text));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const std::string pattern = pattern_of(m.path);
  const std::vector<std::string>& known = schema();
  if (std::find(known.begin(), known.end(), pattern) == known.end()) {
    // A name cut short (totals.goodput) is not far by edit distance; the nearest then.
    const auto prefixed = std::find_if(known.begin(), known.end(), [&](const std::string& p) { return p.rfind(pattern, 0) == 0; });
    const std::string near = prefixed != known.end() ? *prefixed : scenario::nearest(pattern, known);
    fail(text, fmt::format("not a number in summary.json{}: expected one of {}",
                           near.empty() ? "" : fmt::format(" (did you mean {}?)", near), schema_list()));
  }
  if (m.fold == Fold::kNone) {
    for (const Step& s : m.path) {
      if (std::find(s.selectors.begin(), s.selectors.end(), "*") != s.selectors.end()) {
        fail(text, "[*] selects several values: expected it inside max(...), min(...), sum(...) or mean(...)");
      }
    }
  }
  return m;
}

}  // namespace

const std::vector<std::string>& default_metrics() {
  static const std::vector<std::string> kDefault{
      "totals.goodput_gbps", "max(switches[*].ports[*].queue_bytes.p99)", "totals.pfc_frames", "totals.ecn_mark_rate",
      "totals.cnp_sent",     "totals.drops",                              "max(flows[*].fct_ns)"};
  return kDefault;
}

const std::vector<std::string>& summary_schema() { return schema(); }

Expected<Metric> parse_metric(const std::string& text) {
  try {
    return parse(text);
  } catch (const Error& e) {
    return e;
  }
}

std::optional<std::string> metric_value(const Metric& m, const nlohmann::json& summary) {
  std::vector<const json*> found;
  walk(summary, m.path, 0, found);
  if (m.fold != Fold::kNone) return fold(m.fold, found);
  if (found.size() != 1 || !(found[0]->is_number() || found[0]->is_boolean())) return std::nullopt;
  return number_text(*found[0]);
}

}  // namespace rtb::sweep
