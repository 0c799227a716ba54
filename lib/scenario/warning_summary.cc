#include "scenario/warning_summary.h"

#include <fmt/format.h>

#include <map>

namespace rtb::scenario {
namespace {

struct Cause {
  std::string text;
  std::vector<std::string> places;  // WHERE of each warning with this cause, in order
  size_t count = 0;
};

std::string one_line(const Cause& c) {
  if (c.count == 1) return c.places.empty() ? c.text : c.places.front() + ": " + c.text;
  std::string where;
  for (const std::string& p : c.places) where += (where.empty() ? "" : ", ") + p;
  if (c.places.size() < c.count) where += fmt::format(" and {} more", c.count - c.places.size());
  return fmt::format("{}{}({} in all): {}", where, where.empty() ? "" : " ", c.count, c.text);
}

}  // namespace

std::vector<std::string> summarize_warnings(const std::vector<std::string>& warnings) {
  std::vector<Cause> causes;
  std::map<std::string, size_t> index;  // cause text -> position in `causes`
  for (const std::string& w : warnings) {
    const size_t colon = w.find(": ");
    // A WHERE names a place, on one line; a first line without ": " is all cause.
    const bool has_place = colon != std::string::npos && w.find('\n') > colon;
    const std::string text = has_place ? w.substr(colon + 2) : w;
    const auto [it, added] = index.emplace(text, causes.size());
    if (added) causes.push_back(Cause{text, {}, 0});
    Cause& c = causes[it->second];
    ++c.count;
    if (has_place && c.places.size() < kWarningPlacesShown) c.places.push_back(w.substr(0, colon));
  }
  std::vector<std::string> out;
  for (const Cause& c : causes) out.push_back(one_line(c));
  return out;
}

}  // namespace rtb::scenario
