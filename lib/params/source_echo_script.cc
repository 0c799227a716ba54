// A shell script of cc_params writes, as the RoCE tuning guides give them:
//   echo 1019 > /sys/kernel/debug/mlx5/0000:03:00.0/cc_params/rp_dce_tcp_g
//   echo 50 | sudo tee /sys/kernel/debug/mlx5/$PCI/cc_params/rp_gd
// The file written names the parameter; other lines are not cc_params writes.
#include <fmt/format.h>

#include <map>
#include <regex>

#include "params/mlx5_values.h"
#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::params {
namespace {

// $NAME and ${NAME} of the script's own NAME=VALUE lines, replaced.
std::string expand(std::string s, const std::map<std::string, std::string>& vars) {
  for (const auto& [name, value] : vars) {
    for (const std::string& ref : {"${" + name + "}", "$" + name}) {
      for (size_t at = s.find(ref); at != std::string::npos; at = s.find(ref, at + value.size())) {
        s.replace(at, ref.size(), value);
      }
    }
  }
  return s;
}

}  // namespace

Status import_echo_script(const std::string& path, const std::string& text, Imported& out) {
  // echo [-n|-e] VALUE (> | >> | | [sudo] tee [-a]) TARGET
  static const std::regex kWrite(
      R"(^\s*(?:sudo\s+)?echo\s+(?:-[ne]+\s+)?(\S+)\s*(?:>>?|\|\s*(?:sudo\s+)?tee(?:\s+-a)?)\s*(\S+)\s*;?\s*$)");
  static const std::regex kAssign(R"(^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(\S*)\s*$)");
  std::map<std::string, std::string> vars;
  uint32_t writes = 0;
  const std::vector<std::string> lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const Origin at{path, static_cast<uint32_t>(i + 1)};
    std::smatch m;
    const std::string line = without_comment(lines[i]);
    if (std::regex_match(line, m, kAssign)) {
      vars[m[1].str()] = expand(unquoted(m[2].str()), vars);
      continue;
    }
    if (!std::regex_match(line, m, kWrite)) continue;
    const std::string target = expand(unquoted(m[2].str()), vars);
    const size_t slash = target.find_last_of('/');
    const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
    if (target.find("cc_params/") == std::string::npos) {
      out.find(at, target, unquoted(m[1].str()), "not a cc_params write (no /cc_params/ in the path): not imported");
      continue;
    }
    ++writes;
    add_cc_param(out, name, unquoted(m[1].str()), at, name);
  }
  if (writes == 0) {
    return Error{
        fmt::format("{}: no cc_params writes in it: expected lines such as 'echo 1019 > "
                    "/sys/kernel/debug/mlx5/0000:03:00.0/cc_params/rp_dce_tcp_g'",
                    path)};
  }
  return {};
}

}  // namespace rtb::params
