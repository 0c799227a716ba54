#include "results/series_merge.h"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <sstream>

#include "core/read_file.h"

namespace rtb::results {
namespace {

constexpr uint64_t kMaxSeriesBytes = uint64_t{16} << 30;
constexpr const char* kFlowColumns = "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled";
enum Column { kTime, kFlow, kRate, kThroughput, kBytesReceived, kCnpHandled, kFirstState };

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

std::string joined(const std::vector<std::string>& cells) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) out += (i == 0 ? "" : ",") + cells[i];
  return out + "\n";
}

bool positive(const std::string& cell) { return std::strtod(cell.c_str(), nullptr) > 0; }

Expected<uint64_t> whole_number(const std::string& cell, const std::string& where) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(cell.c_str(), &end, 10);
  if (cell.empty() || *end != '\0') return Error{fmt::format("{}: flow = \"{}\": expected a flow id", where, cell)};
  return static_cast<uint64_t>(v);
}

struct Rows {
  std::vector<std::string> header;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::string>> by_sample;  // (sample, flow)
};

// One part's rows joined into `rows`: each side's columns from the part that has them.
Status join_part(const std::string& path, Rows& rows) {
  auto text = read_regular_file(path, kMaxSeriesBytes, "a results folder's flows.csv");
  if (!text) return Error{text.error().message};
  std::istringstream in(text.value());
  std::string line;
  if (!std::getline(in, line) || line.rfind(kFlowColumns, 0) != 0) {
    return Error{fmt::format("{}:1: header = \"{}\": expected it to begin {}", path, line.substr(0, 80), kFlowColumns)};
  }
  const std::vector<std::string> header = split(line);
  if (header.size() > rows.header.size()) rows.header = header;
  std::map<uint64_t, uint64_t> seen;  // samples of each flow so far
  for (size_t n = 2; std::getline(in, line); ++n) {
    std::vector<std::string> row = split(line);
    const std::string where = fmt::format("{}:{}", path, n);
    if (row.size() != header.size()) {
      return Error{fmt::format("{}: {} columns: expected {} as the header has", where, row.size(), header.size())};
    }
    auto flow = whole_number(row[kFlow], where);
    if (!flow) return flow.error();
    auto [it, fresh] = rows.by_sample.try_emplace({seen[flow.value()]++, flow.value()}, row);
    std::vector<std::string>& m = it->second;
    if (fresh) continue;
    if (m.size() < row.size()) m.resize(row.size());
    if (positive(row[kBytesReceived]) || positive(row[kThroughput])) {  // the receiver's side
      m[kThroughput] = row[kThroughput];
      m[kBytesReceived] = row[kBytesReceived];
    }
    if (positive(row[kRate])) {  // the sender's side
      m[kRate] = row[kRate];
      m[kCnpHandled] = row[kCnpHandled];
      std::copy(row.begin() + kFirstState, row.end(), m.begin() + kFirstState);
    }
  }
  return {};
}

}  // namespace

Expected<std::string> merge_flows_csv(const std::vector<std::string>& paths) {
  Rows rows;
  for (const std::string& p : paths) {
    if (Status st = join_part(p, rows); !st) return Error{st.message()};
  }
  std::string out = joined(rows.header);
  for (auto& [key, row] : rows.by_sample) {
    row.resize(rows.header.size());
    out += joined(row);
  }
  return out;
}

Expected<std::string> merge_queues_csv(const std::vector<std::string>& paths) {
  std::string out;
  for (size_t i = 0; i < paths.size(); ++i) {
    auto text = read_regular_file(paths[i], kMaxSeriesBytes, "a results folder's queues.csv");
    if (!text) return Error{text.error().message};
    const std::string& t = text.value();
    const size_t body = t.find('\n');
    if (body == std::string::npos || t.rfind("time_ns,switch,", 0) != 0) {
      return Error{fmt::format("{}:1: expected the queues.csv header (time_ns,switch,...)", paths[i])};
    }
    out += i == 0 ? t : t.substr(body + 1);
  }
  return out;
}

}  // namespace rtb::results
