#include "testbed/run_json.h"

#include <rte_cycles.h>
#include <rte_version.h>

#include <optional>

#include "core/fingerprint.h"
#include "core/read_file.h"
#include "runtime/pool/eal.h"
#include "runtime/pool/eal_topology_probe.h"
#include "runtime/pool/tsc_calibration.h"
#include "testbed/version.h"
#include "wire/crc_path.h"

namespace rtb::testbed {

nlohmann::ordered_json pools_json(const runtime::PoolSizes& z, const runtime::PoolSet& p) {
  return {{"data_mbufs", z.data_count},      {"data_room_bytes", z.data_room},
          {"control_mbufs", z.control_count}, {"control_room_bytes", z.control_room},
          {"data_peak_in_use", p.data().peak_in_use()},
          {"control_peak_in_use", p.control().peak_in_use()},
          {"data_populated", p.data().populated()},
          {"control_populated", p.control().populated()},
          {"memory_bytes", p.data().memory_bytes() + p.control().memory_bytes()},
          {"data_alloc_failures", p.data().alloc_failures()},
          {"control_alloc_failures", p.control().alloc_failures()}};
}

void add_pool_free(nlohmann::ordered_json& pools, PoolFree start, PoolFree end) {
  pools["data_free_at_start"] = start.data;
  pools["data_free_at_end"] = end.data;
  pools["control_free_at_start"] = start.control;
  pools["control_free_at_end"] = end.control;
}

namespace {

// How long the EAL took to start, the TSC frequency it settled on, the sleep its
// calibration got when rocetb shortened it (runtime/pool/tsc_calibration.h), else null, and
// how many of its CPU topology probes rocetb answered (runtime/pool/eal_topology_probe.h).
nlohmann::ordered_json eal_start_json() {
  const std::optional<Time> slept = runtime::calibration_sleep();
  return {{"seconds", runtime::eal_start_seconds()},
          {"tsc_hz", runtime::eal_running() ? rte_get_tsc_hz() : 0},
          {"tsc_calibration_sleep_ns", slept ? nlohmann::ordered_json(slept->ns()) : nullptr},
          {"topology_probes_answered", runtime::eal_topology_probes_answered()}};
}

nlohmann::ordered_json file_json(const std::string& path) {
  const Expected<FileFingerprint> f = fingerprint_file(path);
  if (!f) return {{"file", path}, {"error", f.error().message}};
  return fingerprint_json(f.value());
}

}  // namespace

nlohmann::ordered_json fingerprint_json(const FileFingerprint& f) {
  return {{"file", f.path}, {"bytes", f.bytes}, {"fnv1a64", f.fnv1a64}};
}

nlohmann::ordered_json inputs_json(const scenario::Scenario& s) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const std::string& f : s.files) files.push_back(file_json(f));
  const bool from_file = check_regular_file(s.source, "").ok();  // else load_scenario_text's name
  return {{"scenario", from_file ? file_json(s.source) : nlohmann::ordered_json(nullptr)},
          {"files", std::move(files)}};
}

nlohmann::ordered_json run_json(const std::string& command_line, nlohmann::ordered_json inputs, double wall,
                                Time simulated, uint64_t hops, uint64_t polls) {
  nlohmann::ordered_json j;
  j["command_line"] = command_line;
  j["rocetb_version"] = kVersion;
  j["commit"] = kCommit;
  j["dpdk_version"] = rte_version();
  j["compiler"] = __VERSION__;
  j["inputs"] = std::move(inputs);
  j["eal_arguments"] = runtime::eal_arguments_used();
  j["eal_start"] = eal_start_json();
  j["icrc_crc_path"] = wire::crc_path_name(wire::crc_path());  // rte_net_crc's algorithm
  j["wall_seconds"] = wall;
  j["simulated_ns"] = simulated.ns();
  j["stage_polls"] = polls;
  j["frame_hops"] = hops;
  j["frame_hops_per_second"] = wall > 0 ? static_cast<double>(hops) / wall : 0.0;
  j["simulated_seconds_per_wall_second"] = wall > 0 ? simulated.s_f() / wall : 0.0;
  return j;
}

}  // namespace rtb::testbed
