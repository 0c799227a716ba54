#include "sweep/record.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "core/fingerprint.h"
#include "core/write_file.h"
#include "testbed/run_json.h"

namespace rtb::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

// The shared overrides as their options ("--set K=V", "--cc NAME"); none in a record
// written before sweeps took them.
ordered_json shared_of(const ordered_json& record) { return record.value("shared", ordered_json::array()); }

// What makes two sweeps the same grid (the points follow from it).
ordered_json grid_of(const ordered_json& record) {
  return ordered_json{{"scenario", record["scenario"]},
                      {"scenario_fnv1a64", record["scenario_fnv1a64"]},
                      {"shared", shared_of(record)},
                      {"vary", record["vary"]},
                      {"repeat", record["repeat"]}};
}

std::string describe(const ordered_json& record) {
  std::string out = record["scenario"].get<std::string>();
  for (const auto& o : shared_of(record)) out += " " + o.get<std::string>();
  for (const auto& a : record["vary"]) {
    std::string values;
    for (const auto& v : a["values"]) values += (values.empty() ? "" : ",") + v.get<std::string>();
    out += fmt::format(" --vary {}={}", a["key"].get<std::string>(), values);
  }
  return out + fmt::format(" --repeat {}", record["repeat"].get<uint32_t>());
}

// Why the recorded grid differs from `now`, in a few words.
std::string difference(const ordered_json& was, const ordered_json& now) {
  if (was["scenario"] != now["scenario"]) return "another scenario";
  if (was["scenario_fnv1a64"] != now["scenario_fnv1a64"]) return "the scenario file has changed since";
  if (shared_of(was) != shared_of(now)) return "other --set or --cc";
  return "another grid";
}

// A file the recorded sweep's points read that holds other bytes now (a plug-in rebuilt, a
// CDF edited). A record written before sweeps kept them has none to compare.
Status same_files(const ordered_json& was, const ordered_json& now) {
  for (const auto& then : was.value("files", ordered_json::array())) {
    for (const auto& f : now["files"]) {
      if (f["file"] != then["file"] || f["fnv1a64"] == then["fnv1a64"]) continue;
      return Error{fmt::format("holds a sweep whose points read {} as it was then ({} bytes, fnv1a64 {}); it has "
                               "changed since ({} bytes, fnv1a64 {}): expected the same file to resume the sweep, "
                               "or another --out",
                               f["file"].get<std::string>(), then["bytes"].get<uint64_t>(),
                               then["fnv1a64"].get<std::string>(), f["bytes"].get<uint64_t>(),
                               f["fnv1a64"].get<std::string>())};
    }
  }
  return {};
}

Expected<ordered_json> read_record(const std::string& path) {
  std::ifstream f(path);
  try {
    ordered_json j = ordered_json::parse(f);
    for (const char* k : {"scenario", "scenario_fnv1a64", "vary", "repeat"}) {
      if (!j.contains(k)) return Error{fmt::format("{}: no \"{}\": not a sweep.json of rocetb sweep", path, k)};
    }
    return j;
  } catch (const nlohmann::json::exception& e) {
    return Error{fmt::format("{}: not valid JSON ({}): expected a sweep.json of rocetb sweep", path, e.what())};
  }
}

}  // namespace

Expected<ordered_json> files_json(const std::vector<std::string>& files) {
  ordered_json out = ordered_json::array();
  for (const std::string& path : files) {
    const Expected<FileFingerprint> f = fingerprint_file(path);
    if (!f) return f.error();
    out.push_back(testbed::fingerprint_json(f.value()));
  }
  return out;
}

ordered_json record_json(const Plan& plan, const std::string& scenario_hash, ordered_json files) {
  ordered_json vary = ordered_json::array();
  for (const Axis& a : plan.axes) vary.push_back({{"key", a.key}, {"values", a.values}});
  ordered_json points = ordered_json::array();
  for (const PlannedPoint& p : plan.points) {
    points.push_back({{"folder", p.folder}, {"set", p.overrides}, {"repeat", p.point.repeat}, {"seed", p.seed}});
  }
  ordered_json shared = ordered_json::array();
  for (const SharedOverride& o : plan.shared) shared.push_back(o.option);
  return ordered_json{{"scenario", plan.scenario}, {"scenario_fnv1a64", scenario_hash}, {"shared", std::move(shared)},
                      {"vary", std::move(vary)},   {"repeat", plan.repeats},          {"files", std::move(files)},
                      {"points", std::move(points)}};
}

Expected<bool> prepare_sweep_folder(const std::string& dir, const ordered_json& record) {
  std::error_code ec;
  const std::string path = dir + "/sweep.json";
  bool resuming = false;
  if (fs::exists(path, ec)) {
    auto was = read_record(path);
    if (!was) return Error{fmt::format("--out {}: {}", dir, was.error().message)};
    if (grid_of(was.value()) != grid_of(record)) {
      return Error{fmt::format("--out {}: holds a sweep of {} ({}): expected the same scenario, --set, --cc, "
                               "--vary and --repeat to resume it, or another --out",
                               dir, difference(was.value(), record), describe(was.value()))};
    }
    if (Status st = same_files(was.value(), record); !st) return Error{fmt::format("--out {}: {}", dir, st.message())};
    resuming = true;
  } else if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) return Error{fmt::format("--out {}: is not a folder", dir)};
    if (!fs::is_empty(dir, ec)) {
      return Error{fmt::format("--out {}: is not empty and holds no sweep.json: expected an empty folder or an "
                               "earlier sweep's folder to resume", dir)};
    }
  } else if (!fs::create_directories(dir, ec) && ec) {
    return Error{fmt::format("--out {}: cannot be created: {}", dir, ec.message())};
  }
  if (Status st = write_file_atomically(path, record.dump(2) + "\n"); !st) {
    return Error{fmt::format("--out {}: {}", dir, st.message())};
  }
  return resuming;
}

}  // namespace rtb::sweep
