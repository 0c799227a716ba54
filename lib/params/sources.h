// The kinds of source `rocetb params import` reads, found by content (detect) or named
// (--format), and one reader per kind (source_*.cc). Each reader adds the scenario keys
// its values become, and its findings, to an Imported.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "params/imported.h"

namespace rtb::params {

enum class Kind { kCcParamsDir, kLive, kMlxconfig, kEchoScript, kMlnxQos, kHpccConfig, kConfigDb, kSonicCommands, kNcclEnv };

// The --format names: cc_params, live, mlxconfig, echo_script, mlnx_qos, hpcc_config,
// config_db, sonic_cli, nccl_env.
std::optional<Kind> kind_named(std::string_view name);
std::string_view name_of(Kind k);
std::string kind_names();

// What `source` is: "live" or "live:DEVICE" is the live NIC, a directory a tree of
// cc_params files, a file by its content.
Expected<Kind> detect(const std::string& source);

Status import_source(Kind k, const std::string& source, Imported& out);

// One reader per kind.
Status import_cc_params_dir(const std::string& dir, Imported& out);
Status import_live(const std::string& source, Imported& out);
Status import_mlxconfig(const std::string& path, const std::string& text, Imported& out);
Status import_echo_script(const std::string& path, const std::string& text, Imported& out);
Status import_mlnx_qos(const std::string& path, const std::string& text, Imported& out);
Status import_hpcc_config(const std::string& path, const std::string& text, Imported& out);
Status import_config_db(const std::string& path, const std::string& text, Imported& out);
Status import_sonic_commands(const std::string& path, const std::string& text, Imported& out);
Status import_nccl_env(const std::string& path, const std::string& text, Imported& out);

}  // namespace rtb::params
