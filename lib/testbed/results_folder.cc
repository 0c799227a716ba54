#include "testbed/results_folder.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "core/write_file.h"

namespace rtb::testbed {
namespace {

constexpr const char* kPending =
    "not written: the run had not finished writing its results (it was killed, or failed: see its output)";

Status write_run_json(const std::string& dir, const std::string& command_line, const std::string& state) {
  nlohmann::ordered_json j;
  j["complete"] = false;
  j["results"] = state;
  j["command_line"] = command_line;
  // RFC 8259 section 8.1: JSON is UTF-8; other bytes of a path are replaced, never fatal.
  const std::string text = j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  return write_file_atomically(dir + "/run.json", text);
}

}  // namespace

OwnedFiles run_results_files() {
  return {{"summary.json", "run.json", "effective.json", "flows.csv", "queues.csv", "warnings.txt",
           "replay.json", "report.html"},
          {"capture-", "plot-"}};
}

Expected<bool> prepare_results_folder(const OutFolder& f, const std::string& command_line, const OwnedFiles& extra) {
  OwnedFiles owned = run_results_files();
  owned.names.insert(owned.names.end(), extra.names.begin(), extra.names.end());
  owned.prefixes.insert(owned.prefixes.end(), extra.prefixes.begin(), extra.prefixes.end());
  auto created = prepare_out_folder(f, owned);
  if (!created) return created;
  if (Status s = write_run_json(f.dir, command_line, kPending); !s) {
    return Error{fmt::format("{} {}: {}", f.option, f.dir, s.message())};
  }
  return created;
}

void abandon_results_folder(const std::string& dir, bool created) {
  std::error_code ec;
  std::filesystem::remove(dir + "/run.json", ec);
  if (created && std::filesystem::is_empty(dir, ec)) std::filesystem::remove(dir, ec);
}

}  // namespace rtb::testbed
