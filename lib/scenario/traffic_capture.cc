// pattern = "capture": the data streams of a pcap/pcapng capture replayed as flows with
// several messages (capture_streams.h, capture_flows.h; scenarios/README.md).
#include <fmt/format.h>

#include <filesystem>

#include "scenario/capture_flows.h"
#include "scenario/traffic.h"

namespace rtb::scenario {
namespace {

// hosts = { "192.0.2.1" = "h0", ... }: the given ADDRESS -> host pairs.
std::vector<std::pair<std::string, std::string>> read_given_hosts(Table& t) {
  std::vector<std::pair<std::string, std::string>> given;
  std::optional<Table> hosts = t.table("hosts");
  if (!hosts) return given;
  for (const auto& [key, node] : hosts->raw()) {
    const std::string address(key.str());
    hosts->get(address);
    const auto* name = node.as_string();
    if (name == nullptr) hosts->fail_value(address, "is not a host name: expected \"ADDRESS\" = \"HOSTNAME\"");
    given.emplace_back(address, name->get());
  }
  return given;
}

std::string capture_path(Table& t, const std::string& base_dir) {
  t.require("file", "a capture file (pcap or pcapng)");
  const std::filesystem::path file(t.string("file", ""));
  return (file.is_absolute() || base_dir.empty() ? file : std::filesystem::path(base_dir) / file).string();
}

}  // namespace

std::vector<Flow> capture(Table& t, EntryContext& e) {
  const TrafficContext& ctx = *e.ctx;
  const std::string path = capture_path(t, ctx.base_dir);
  CaptureFlowOptions o;
  o.start = e.start;
  o.time_scale = t.number("time_scale", 1e-6, 1e6, 1.0);
  if (t.has("priority")) o.priority = e.proto.priority;
  if (t.has("dscp")) o.dscp = e.proto.dscp;
  o.traffic = e.proto.traffic;
  const auto given = read_given_hosts(t);
  const Expected<CaptureStreams> streams = read_capture_streams(path);
  if (!streams) t.fail("file", streams.error().message);
  if (ctx.scenario != nullptr) ctx.scenario->add_file(path);
  const Expected<EndpointMap> map = map_endpoints(streams->endpoints, given, *ctx.topology);
  if (!map) t.fail("hosts", map.error().message);
  Expected<CaptureFlows> flows = flows_from_capture(*streams, *map, *ctx.topology, *ctx.run, o);
  if (!flows) t.fail("file", flows.error().message);
  if (std::string w = flows->warning(*streams, *ctx.run); !w.empty() && ctx.warnings != nullptr) {
    ctx.warnings->push_back(fmt::format("traffic[{}]: {}", o.traffic, w));
  }
  return std::move(flows).value().flows;
}

}  // namespace rtb::scenario
