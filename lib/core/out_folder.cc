#include "core/out_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace rtb {
namespace fs = std::filesystem;
namespace {

constexpr const char* kWriteProbe = ".rocetb-write-check";

// The entries of `dir`, sorted (the first named in an error is the same on every machine).
Expected<std::vector<std::string>> entries_of(const OutFolder& f) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(f.dir, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) return Error{fmt::format("{} {}: cannot list the folder: {}", f.option, f.dir, ec.message())};
  std::sort(names.begin(), names.end());
  return names;
}

// Every entry `owned`, then each removed; nothing is removed when one is not.
Status remove_earlier_results(const OutFolder& f, const std::vector<std::string>& names, const OwnedFiles& owned) {
  for (const std::string& n : names) {
    std::error_code ec;
    if (!owned.owns(n) || !fs::is_regular_file(fs::symlink_status(fs::path(f.dir) / n, ec))) {
      return Error{fmt::format("{} {} --force: holds '{}', which is not a results file of this command: "
                               "--force replaces only results files; remove it or choose another folder",
                               f.option, f.dir, n)};
    }
  }
  for (const std::string& n : names) {
    std::error_code ec;
    fs::remove(fs::path(f.dir) / n, ec);
    if (ec) return Error{fmt::format("{} {}: cannot remove the earlier '{}': {}", f.option, f.dir, n, ec.message())};
  }
  return {};
}

// Creating a file is the only sure test of writing (access(2) ignores read-only mounts and ACLs).
Status probe_writable(const OutFolder& f) {
  const std::string probe = (fs::path(f.dir) / kWriteProbe).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error{fmt::format("{} {}: cannot write into the folder: {}", f.option, f.dir, std::strerror(errno))};
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

}  // namespace

bool OwnedFiles::owns(const std::string& entry) const {
  if (entry == kWriteProbe) return true;  // left by a command killed while probing
  std::string name = entry;
  if (name.size() > 5 && name.front() == '.' && name.ends_with(".tmp")) name = name.substr(1, name.size() - 5);
  if (std::find(names.begin(), names.end(), name) != names.end()) return true;
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return name.starts_with(p); });
}

Expected<bool> prepare_out_folder(const OutFolder& f, const OwnedFiles& owned) {
  std::error_code ec;
  const fs::file_status st = fs::status(f.dir, ec);
  if (fs::exists(st) && !fs::is_directory(st)) {
    return Error{fmt::format("{} {}: is a file, not a folder: expected a new or empty folder", f.option, f.dir)};
  }
  if (fs::exists(st)) {
    auto names = entries_of(f);
    if (!names) return Error{names.error().message};
    if (!names.value().empty() && !f.replace) {
      const size_t n = names.value().size();
      return Error{fmt::format("{} {}: is not empty ({} {}, such as '{}'): expected a new or empty folder, "
                               "or --force to replace the results there", f.option, f.dir, n,
                               n == 1 ? "entry" : "entries", names.value().front())};
    }
    if (Status s = remove_earlier_results(f, names.value(), owned); !s) return Error{s.message()};
  } else if (fs::create_directories(f.dir, ec); ec) {
    return Error{fmt::format("{} {}: cannot create the folder: {}", f.option, f.dir, ec.message())};
  }
  if (Status s = probe_writable(f); !s) return Error{s.message()};
  return !fs::exists(st);
}

}  // namespace rtb
