#include "sweep/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>

#include <nlohmann/json.hpp>

namespace rtb::sweep {
namespace {

std::optional<nlohmann::json> read_json(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  try {
    return nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

bool point_complete(const std::string& dir) {
  const auto run = read_json(dir + "/run.json");
  if (!run || !run->is_object() || run->value("complete", false) != true) return false;
  return std::filesystem::is_regular_file(dir + "/summary.json");
}

Row make_row(const PlannedPoint& p, const std::string& dir, std::string status, const std::vector<Metric>& metrics) {
  Row row{&p, std::move(status), std::vector<std::optional<std::string>>(metrics.size())};
  if (row.status != "ok") return row;
  const auto summary = read_json(dir + "/summary.json");
  if (!summary) {
    row.status = "failed: summary.json unreadable";
    return row;
  }
  for (size_t m = 0; m < metrics.size(); ++m) row.values[m] = metric_value(metrics[m], *summary);
  return row;
}

Table make_table(const Plan& plan, const std::vector<Metric>& metrics, const std::vector<Row>& rows) {
  Table t;
  t.header.push_back("point");
  for (const Axis& a : plan.axes) t.header.push_back(a.key);
  for (const char* h : {"repeat", "seed", "status"}) t.header.push_back(h);
  for (const Metric& m : metrics) t.header.push_back(m.name);
  for (const Row& r : rows) {
    const PlannedPoint& p = *r.point;
    std::vector<std::string> cells{p.folder};
    for (size_t k = 0; k < plan.axes.size(); ++k) cells.push_back(plan.axes[k].values[p.point.value_index[k]]);
    cells.push_back(fmt::format("{}", p.point.repeat));
    cells.push_back(fmt::format("{}", p.seed));
    cells.push_back(r.status);
    for (const auto& v : r.values) cells.push_back(v.value_or(""));
    t.cells.push_back(std::move(cells));
  }
  return t;
}

std::string to_csv(const Table& t) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_field(cells[i]);
    out += "\n";
  };
  line(t.header);
  for (const auto& c : t.cells) line(c);
  return out;
}

void print_table(std::ostream& out, const Table& full, size_t key_columns) {
  Table t = full;
  t.header[0] = "#";
  for (size_t k = 1; k <= key_columns && k < t.header.size(); ++k) {
    t.header[k] = t.header[k].substr(t.header[k].rfind('.') + 1);  // npos + 1: the whole key
  }
  for (auto& row : t.cells) row[0] = row[0].substr(0, row[0].find('-'));
  std::vector<size_t> width(t.header.size());
  for (size_t i = 0; i < t.header.size(); ++i) width[i] = t.header[i].size();
  for (const auto& row : t.cells) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].empty() ? 1 : row[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (size_t i = 0; i < cells.size(); ++i) {
      s += fmt::format("{}{:<{}}", i ? "  " : "", cells[i].empty() ? "-" : cells[i], width[i]);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out << s << "\n";
  };
  line(t.header);
  for (const auto& row : t.cells) line(row);
}

}  // namespace rtb::sweep
