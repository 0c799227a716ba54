// The NICs of this machine: RDMA devices listed in sysfs (/sys/class/infiniband, what
// rdma-core's ibv_devices lists), each one's cc_params from debugfs
// (/sys/kernel/debug/mlx5/<PCI address>/cc_params, Linux drivers/infiniband/hw/mlx5/
// cong.c), its port rate and hw_counters from sysfs. The roots can be moved for tests:
// ROCETB_SYSFS_ROOT (default /sys), ROCETB_DEBUGFS_ROOT (default /sys/kernel/debug).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::params {
namespace {

namespace fs = std::filesystem;

std::string root(const char* env, const char* fallback) {
  const char* v = std::getenv(env);
  return v != nullptr && *v != '\0' ? v : fallback;
}

std::vector<std::string> sorted_entries(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    out.push_back(it->path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_line(const fs::path& file) {
  auto text = read_source(file.string());
  if (!text) return "";
  const auto lines = split_lines(*text);
  return lines.empty() ? "" : trim(lines.front());
}

// sysfs port rate "100 Gb/sec (4X EDR)" -> "100Gbps".
std::string rate_of(const std::string& sysfs_rate) {
  const std::vector<std::string> w = words(sysfs_rate);
  if (w.size() < 2 || w[1] != "Gb/sec") return "";
  return w[0] + "Gbps";
}

void import_port(const std::string& dev, const fs::path& port_dir, Imported& out) {
  const fs::path rate_file = port_dir / "rate";
  const std::string rate_text = first_line(rate_file);
  if (const std::string rate = rate_of(rate_text); !rate.empty()) {
    out.set("topology", "rate", quoted(rate), Origin{rate_file.string(), 1}, "rate", rate_text);
  }
  const fs::path counters = port_dir / "hw_counters";
  std::string list;
  for (const std::string& c : sorted_entries(counters)) {
    list += fmt::format("{}{} = {}", list.empty() ? "" : ", ", c, first_line(counters / c));
  }
  if (list.empty()) {
    out.note(fmt::format("{} port {}: no hw_counters in {} (the driver shows them there when the device has them)", dev,
                         port_dir.filename().string(), counters.string()));
  } else {
    out.note(
        fmt::format("{} port {} hw_counters ({}): {}", dev, port_dir.filename().string(), counters.string(), list));
  }
}

Status import_device(const std::string& dev, const fs::path& class_dir, const std::string& debugfs, Imported& out) {
  std::error_code ec;
  const fs::path link = fs::read_symlink(class_dir / dev / "device", ec);
  const std::string pci = ec ? "" : link.filename().string();
  const fs::path cc = fs::path(debugfs) / "mlx5" / pci / "cc_params";
  if (pci.empty()) {
    out.note(
        fmt::format("{}: {} is not a link to a PCI device, so its debugfs folder is unknown; its DCQCN "
                    "parameters are not imported",
                    dev, (class_dir / dev / "device").string()));
  } else if (!fs::is_directory(cc, ec)) {
    out.note(
        fmt::format("{} ({}): there is no {}: debugfs is not mounted there, is not readable without root, or the "
                    "firmware does not allow DCQCN queries (cc_query_allowed); its DCQCN parameters are not "
                    "imported",
                    dev, pci, cc.string()));
  } else if (Status st = import_cc_params_dir(cc.string(), out); !st) {
    out.note(fmt::format("{} ({}): {}", dev, pci, st.message()));
  }
  for (const std::string& port : sorted_entries(class_dir / dev / "ports")) {
    import_port(dev, class_dir / dev / "ports" / port, out);
  }
  return {};
}

}  // namespace

Status import_live(const std::string& source, Imported& out) {
  const std::string sysfs = root("ROCETB_SYSFS_ROOT", "/sys");
  const std::string debugfs = root("ROCETB_DEBUGFS_ROOT", "/sys/kernel/debug");
  const fs::path class_dir = fs::path(sysfs) / "class" / "infiniband";
  const std::vector<std::string> devices = sorted_entries(class_dir);
  if (devices.empty()) {
    return Error{
        fmt::format("live: this machine has no RDMA device: {} lists none (rdma-core's ibv_devices reads the "
                    "same folder); import a saved copy instead (a cc_params folder, mlxconfig or mlnx_qos "
                    "output, an echo script)",
                    class_dir.string())};
  }
  const std::string wanted = source.size() > 5 ? source.substr(5) : "";  // "live:mlx5_0"
  if (!wanted.empty() && std::find(devices.begin(), devices.end(), wanted) == devices.end()) {
    std::string names;
    for (const std::string& d : devices) names += (names.empty() ? "" : ", ") + d;
    return Error{
        fmt::format("{}: no RDMA device '{}' in {}: expected one of {}", source, wanted, class_dir.string(), names)};
  }
  for (const std::string& dev : devices) {
    if (!wanted.empty() && dev != wanted) continue;
    if (Status st = import_device(dev, class_dir, debugfs, out); !st) return st;
  }
  return {};
}

}  // namespace rtb::params
