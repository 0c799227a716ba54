#include "scenario/aqm_settings.h"

#include <fmt/format.h>

#include <array>
#include <string>

namespace rtb::scenario {
namespace {

// An AQM by name.
std::string aqm_choice(Table& t, std::string_view key) {
  return t.choice(key, {"wred", "step", "pie", "none"}, "wred");
}

sw::StepProfile read_step(std::optional<Table> t) {
  sw::StepProfile s;
  if (!t) return s;
  s.k_threshold = t->bytes("k_threshold", s.k_threshold);
  t->finish();
  return s;
}

sw::PieProfile read_pie(std::optional<Table> t) {
  sw::PieProfile p;
  if (!t) return p;
  p.qdelay_ref = t->time("qdelay_ref", p.qdelay_ref);
  p.t_update = t->time("t_update", p.t_update);
  if (p.t_update == Time::zero()) t->fail_value("t_update", "is zero: expected a period above 0");
  p.max_burst = t->time("max_burst", p.max_burst);
  p.alpha_hz = t->number("alpha", 0.0, 1e9, p.alpha_hz);
  p.beta_hz = t->number("beta", 0.0, 1e9, p.beta_hz);
  t->finish();
  return p;
}

// The name of each queue's AQM: `aqm` for the queues that have one, then the per-queue
// table's entries ("0" ... "7").
std::array<std::string, sw::kPriorities> queue_names(Table& t, const sw::SwitchConfig& c) {
  const std::string all = aqm_choice(t, "aqm");
  std::array<std::string, sw::kPriorities> names;
  for (int q = 0; q < sw::kPriorities; ++q) names[q] = c.wred[q] ? all : "none";
  std::optional<Table> by_queue = t.table("aqm_by_queue");
  if (!by_queue) return names;
  for (auto&& [k, v] : by_queue->raw()) {
    const std::string key(k.str());
    if (key.size() != 1 || key[0] < '0' || key[0] > '7')
      by_queue->fail(key, "is not a queue: expected a queue number \"0\" ... \"7\" as the key");
    names[key[0] - '0'] = aqm_choice(*by_queue, key);
  }
  by_queue->finish();
  return names;
}

}  // namespace

void read_aqm_settings(Table& t, const sw::WredProfile& wred, sw::SwitchConfig& c) {
  const std::array<std::string, sw::kPriorities> names = queue_names(t, c);
  const sw::StepProfile step = read_step(t.table("step"));
  const sw::PieProfile pie = read_pie(t.table("pie"));
  for (int q = 0; q < sw::kPriorities; ++q) {
    c.wred[q] = names[q] == "wred" ? std::optional<sw::WredProfile>(wred) : std::nullopt;
    if (names[q] == "step") c.aqm[q] = step;
    if (names[q] == "pie") c.aqm[q] = pie;
  }
}

}  // namespace rtb::scenario
