#include "results/merge_folder.h"

#include <filesystem>

#include "core/read_file.h"
#include "core/write_file.h"
#include "results/json_text.h"
#include "results/merge.h"
#include "results/series_merge.h"
#include "results/summary_json.h"

namespace rtb::results {
namespace {

namespace fs = std::filesystem;

constexpr const char* kKept[] = {"run", "effective"};  // kept per part as NAME.ROLE.json

std::vector<std::string> paths(const std::vector<std::string>& dirs, const char* name) {
  std::vector<std::string> out;
  for (const std::string& d : dirs) out.push_back((fs::path(d) / name).string());
  return out;
}

}  // namespace

std::string role_of(const std::string& dir) {
  const fs::path p = fs::path(dir).lexically_normal();
  return (p.has_filename() ? p.filename() : p.parent_path().filename()).string();
}

OwnedFiles merged_files() {
  OwnedFiles f{{"summary.json", "flows.csv", "queues.csv"}, {}};
  for (const char* k : kKept) f.prefixes.push_back(std::string(k) + ".");
  return f;
}

Expected<Summary> merge_folders(const std::string& out, const std::vector<std::string>& dirs) {
  std::vector<Part> parts;
  for (const std::string& d : dirs) {
    const std::string file = (fs::path(d) / "summary.json").string();
    auto s = read_summary(file);
    if (!s) return s.error();
    parts.push_back(Part{std::move(s).value(), file, role_of(d)});
  }
  auto merged = merge(parts);
  if (!merged) return merged.error();
  auto flows = merge_flows_csv(paths(dirs, "flows.csv"));
  if (!flows) return flows.error();
  auto queues = merge_queues_csv(paths(dirs, "queues.csv"));
  if (!queues) return queues.error();
  const fs::path o(out);
  if (Status st = write_file_atomically((o / "flows.csv").string(), flows.value()); !st) return Error{st.message()};
  if (Status st = write_file_atomically((o / "queues.csv").string(), queues.value()); !st) return Error{st.message()};
  for (size_t i = 0; i < dirs.size(); ++i) {
    for (const char* k : kKept) {
      const fs::path from = fs::path(dirs[i]) / (std::string(k) + ".json");
      if (!fs::exists(from)) continue;
      auto text = read_regular_file(from.string(), uint64_t{1} << 30, "a results folder's JSON file");
      if (!text) return text.error();
      const std::string to = (o / (std::string(k) + "." + merged.value().roles[i] + ".json")).string();
      if (Status st = write_file_atomically(to, text.value()); !st) return Error{st.message()};
    }
  }
  if (Status st = write_file_atomically((o / "summary.json").string(), json_text(to_json(merged.value()))); !st) {
    return Error{st.message()};
  }
  return merged;
}

}  // namespace rtb::results
