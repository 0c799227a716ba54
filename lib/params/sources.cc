#include "params/sources.h"

#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <regex>
#include <utility>

#include "params/source_text.h"

namespace rtb::params {
namespace {

constexpr std::array<std::pair<Kind, std::string_view>, 9> kNames{{
    {Kind::kCcParamsDir, "cc_params"},
    {Kind::kLive, "live"},
    {Kind::kMlxconfig, "mlxconfig"},
    {Kind::kEchoScript, "echo_script"},
    {Kind::kMlnxQos, "mlnx_qos"},
    {Kind::kHpccConfig, "hpcc_config"},
    {Kind::kConfigDb, "config_db"},
    {Kind::kSonicCommands, "sonic_cli"},
    {Kind::kNcclEnv, "nccl_env"},
}};

bool has_line(const std::string& text, const char* pattern) {
  return std::regex_search(text, std::regex(pattern, std::regex::multiline));
}

std::optional<Kind> kind_of_text(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') return Kind::kConfigDb;
  if (has_line(text, R"(^\s*(sudo\s+)?echo\s.*cc_params/)")) return Kind::kEchoScript;
  if (has_line(text, R"(^\s*\*?\s*[A-Z][A-Z0-9_]*_P[12]\s+\S)")) return Kind::kMlxconfig;
  if (has_line(text, R"(^\s*(Priority trust state|PFC configuration|dscp2prio mapping))")) return Kind::kMlnxQos;
  if (has_line(text, R"(^(CC_MODE|KMAX_MAP|KMIN_MAP|ENABLE_QCN|RATE_AI|EWMA_GAIN)\s)")) return Kind::kHpccConfig;
  if (has_line(text, R"(^\s*(sudo\s+)?(config\s+(qos|buffer|interface|pfcwd)|ecnconfig|pfcwd)\s)")) {
    return Kind::kSonicCommands;
  }
  if (has_line(text, R"((^|\s)NCCL_[A-Z0-9_]+=)")) return Kind::kNcclEnv;
  return std::nullopt;
}

}  // namespace

std::optional<Kind> kind_named(std::string_view name) {
  for (const auto& [k, n] : kNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

std::string_view name_of(Kind k) {
  for (const auto& [kind, n] : kNames) {
    if (kind == k) return n;
  }
  return "?";
}

std::string kind_names() {
  std::string out;
  for (const auto& [k, n] : kNames) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

Expected<Kind> detect(const std::string& source) {
  if (source == "live" || source.starts_with("live:")) return Kind::kLive;
  std::error_code ec;
  if (std::filesystem::is_directory(source, ec)) return Kind::kCcParamsDir;
  auto text = read_source(source);
  if (!text) return text.error();
  if (auto k = kind_of_text(*text)) return *k;
  return Error{
      fmt::format("{}: cannot tell what kind of source it is: expected a cc_params folder, `live`, "
                  "mlxconfig or mlnx_qos output, an echo script, an HPCC config.txt, a SONiC config_db.json, "
                  "a file of SONiC commands (config ..., ecnconfig ...) or NCCL settings (NCCL_IB_TC=106); "
                  "--format names it: {}",
                  source, kind_names())};
}

Status import_source(Kind k, const std::string& source, Imported& out) {
  if (k == Kind::kLive) return import_live(source, out);
  if (k == Kind::kCcParamsDir) return import_cc_params_dir(source, out);
  auto text = read_source(source);
  if (!text) return text.error();
  switch (k) {
    case Kind::kMlxconfig:
      return import_mlxconfig(source, *text, out);
    case Kind::kEchoScript:
      return import_echo_script(source, *text, out);
    case Kind::kMlnxQos:
      return import_mlnx_qos(source, *text, out);
    case Kind::kHpccConfig:
      return import_hpcc_config(source, *text, out);
    case Kind::kConfigDb:
      return import_config_db(source, *text, out);
    case Kind::kSonicCommands:
      return import_sonic_commands(source, *text, out);
    case Kind::kNcclEnv:
      return import_nccl_env(source, *text, out);
    default:
      return Error{"unreachable"};
  }
}

}  // namespace rtb::params
