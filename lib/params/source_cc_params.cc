// A directory tree of mlx5 cc_params files (a copy of /sys/kernel/debug/mlx5/<BDF>/
// cc_params, one value per file, Linux drivers/infiniband/hw/mlx5/cong.c).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "params/mlx5_values.h"
#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::params {
namespace {

namespace fs = std::filesystem;

bool cc_params_name(const std::string& n) {
  return n.starts_with("rp_") || n.starts_with("np_") || n.starts_with("rtt_resp_");
}

}  // namespace

Status import_cc_params_dir(const std::string& dir, Imported& out) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && cc_params_name(it->path().filename().string())) files.push_back(it->path());
  }
  if (ec) return Error{fmt::format("{}: cannot read the folder: {}", dir, ec.message())};
  if (files.empty()) {
    return Error{
        fmt::format("{}: no cc_params files in it: expected files named rp_*, np_* (one value each, as "
                    "/sys/kernel/debug/mlx5/<PCI address>/cc_params holds)",
                    dir)};
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    auto text = read_source(f.string());
    if (!text) {
      out.find(Origin{f.string(), 1}, f.filename().string(), "?", text.error().message + "; not imported");
      continue;
    }
    const std::vector<std::string> lines = split_lines(*text);
    add_cc_param(out, f.filename().string(), lines.empty() ? "" : trim(lines.front()), Origin{f.string(), 1},
                 f.filename().string());
  }
  return {};
}

}  // namespace rtb::params
